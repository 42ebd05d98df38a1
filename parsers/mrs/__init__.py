"""MRS front end: question -> Minimal Recursion Semantics -> logic (T(question)).

Public API::

    from parsers.mrs import translate_readings, translate_mrs, best_translation
    results = translate_readings(simplemrs_strings_or_pydelphin_mrs)
    for r in results:
        if r.ok:
            r.formula, r.answer_vars, r.intent        # QuestionLogic
        else:
            r.reason                                  # TranslationFailure

    predicate_info("_benzene/nn_u_unknown")            # lemma "benzene", pos "n"

Modules: :mod:`~parsers.mrs.structure` (light MRS), :mod:`~parsers.mrs.simplemrs` (fast
reader), :mod:`~parsers.mrs.predicates` (predicate tables), :mod:`~parsers.mrs.scope`
(scope resolution), :mod:`~parsers.mrs.question` (answer variables, intent),
:mod:`~parsers.mrs.translate` (the translation), :mod:`~parsers.mrs.patterns` (MRSs of fixed
question shapes, without a grammar; the shapes are data in ``axioms/shapes``, run by
:mod:`~parsers.mrs.shapes`), :mod:`~parsers.mrs.chunk` (multiword names read
as one name after parsing).  Conventions: ``docs/mrs-semantics.md``.
"""

from parsers.mrs.predicates import PredicateInfo, predicate_info, quantifier_kind, scopal_kind
from parsers.mrs.question import Intent, analyse_question, number_literal
from parsers.mrs.scope import ScopeError, scope_problem, solve
from parsers.mrs.simplemrs import coerce_mrs, read_simplemrs
from parsers.mrs.structure import EP, HCons, Mrs, MrsError, from_pydelphin, to_pydelphin
from parsers.mrs.translate import (
    DEFAULT_MAX_SCOPES, QuestionLogic, Translation, TranslationFailure, best_translation,
    rank_translations, translate_mrs, translate_readings,
)

__all__ = [
    "translate_mrs", "translate_readings", "rank_translations", "best_translation",
    "QuestionLogic", "TranslationFailure", "Translation", "Intent", "DEFAULT_MAX_SCOPES",
    "predicate_info", "PredicateInfo", "quantifier_kind", "scopal_kind", "analyse_question",
    "number_literal", "read_simplemrs", "coerce_mrs", "from_pydelphin", "to_pydelphin",
    "Mrs", "EP", "HCons", "MrsError", "ScopeError", "scope_problem", "solve",
]
