"""The rewrite rules of a reading, applied: the corrections of its parse (in order, to every
reading) and its alternative views (tried while it proves nothing), as the rule files
``axioms/rewrites/*.yaml`` declare them (:mod:`verifier.rewrite`).

A declarative rule is run by :func:`verifier.rewrite.rewrite_formula`; a ``builtin:`` rule by
its Python function in :data:`BUILTINS`, the one registry of them.  Each rule that changes a
reading is recorded in its :attr:`~verifier.deductive.reading.ReadingView.rules`.

Stage: question side, after :mod:`.corrections` and :mod:`.views` (whose functions are the
builtins); :mod:`.problem` and :mod:`.pipeline` apply it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Collection, Mapping, Sequence

from verifier.rewrite import Rule, RuleSet, load_rules
from verifier.rewrite.engine import Subject, note_of, rewrite
from verifier.rewrite.loader import default_rule_dirs
from verifier.rewrite.known import NOTHING_KNOWN, Known
from verifier.rewrite.surface import Surface, surface_of
from verifier.deductive.reading import ReadingView, mended, recorded
from verifier.deductive.corrections import CorrectionInputs
from verifier.deductive.corrections.coordinated_objects import coordinated_objects
from verifier.deductive.corrections.name_appositions import split_name_appositions
from verifier.deductive.corrections.repeated_nouns import distinguish_repeated
from verifier.deductive.views import View, attachment_view

__all__ = [
    "Builtin", "BUILTINS", "Correction", "shipped_rules", "rules_for", "apply_correction", "correct",
    "view_of", "question_test", "example_apply", "views_for", "kind_of_view", "known_verbs", "CORRECTIONS",
    "VIEWS",
]


@dataclass(frozen=True)
class Builtin:
    """A rule written in Python: ``apply(reading, inputs)`` for a correction (the reading, or
    a view of it), ``apply(reading)`` for a view (the view, or None)."""

    stage: str
    apply: Callable[..., Any]


#: The rules still written in Python, by the name a rule file's ``builtin:`` gives.
BUILTINS: Mapping[str, Builtin] = {
    "split_name_appositions": Builtin("corrections", lambda r, i: split_name_appositions(r, i.question)),
    "distinguish_repeated": Builtin("corrections", lambda r, i: distinguish_repeated(r)),
    "coordinated_objects": Builtin("corrections", lambda r, i: coordinated_objects(r, i.question, i.labels)),
    "attachment": Builtin("views", attachment_view),
}


@lru_cache(maxsize=8)
def _load(paths: tuple[str, ...]) -> RuleSet:
    return load_rules([Path(p) for p in paths], BUILTINS)


def shipped_rules() -> RuleSet:
    """The shipped rules (``axioms/rewrites``), loaded once."""
    return _load(tuple(str(p) for p in default_rule_dirs()))


def rules_for(standin: bool = True, disabled: Collection[str] = (), extra: Sequence[str | Path] = ()) -> RuleSet:
    """The rules that apply: the shipped ones and those of ``extra`` (files or folders, run
    after them), without those named in ``disabled``, the stand-in grammar's repairs only
    when ``standin``."""
    paths = tuple(str(p) for p in default_rule_dirs()) + tuple(str(p) for p in extra)
    return _load(paths).active(standin, frozenset(disabled))


def _surface(reading, question: str) -> Surface:
    """Where the EPs of ``reading`` are written in ``question`` (an example reading says it)."""
    given = getattr(reading, "surface", None)
    if isinstance(given, Surface):
        return given
    return surface_of(question, getattr(reading, "mrs", None))


def _known(pack) -> Known:
    """The predicates the templates of ``pack`` name (their verbs, by lemma)."""
    if pack is None:
        return NOTHING_KNOWN
    return Known(pack.template_verbs, pack.template_verb_arities)


def _rewritten(rule: Rule, reading, question: str, pack=None, surface: Surface | None = None) -> Subject:
    subject = Subject(reading.formula, tuple(reading.answer_vars),
                      surface if surface is not None else _surface(reading, question), _known(pack))
    return rewrite(rule, subject)


def apply_correction(rule: Rule, reading, inputs: CorrectionInputs, surface: Surface | None = None):
    """``reading`` after the correction ``rule`` (the reading itself, or a view of it);
    ``surface``: where its EPs are written, when the caller has it."""
    if rule.builtin is not None:
        return BUILTINS[rule.builtin].apply(reading, inputs)
    done = _rewritten(rule, reading, inputs.question, inputs.pack, surface)
    if tuple(done.answers) != tuple(reading.answer_vars):
        return ReadingView.of(reading, done.formula, getattr(reading, "not_alignable", set()),
                              answer_vars=tuple(done.answers))
    return mended(reading, done.formula)


def correct(reading, inputs: CorrectionInputs, rules: RuleSet | None = None):
    """``reading`` after every correction of ``rules`` (by default the shipped ones), in
    order; the rules that changed it are recorded in its ``rules``."""
    surfaces: dict[tuple[int, int], tuple[Any, Surface]] = {}  # by the reading's MRS (kept alive here)
    for rule in (rules or shipped_rules()).stage("corrections"):
        key = (id(getattr(reading, "surface", None)), id(getattr(reading, "mrs", None)))
        if key not in surfaces:
            surfaces[key] = (reading, _surface(reading, inputs.question))
        reading = recorded(reading, apply_correction(rule, reading, inputs, surfaces[key][1]), rule.name)
    return reading


def example_apply(pack, labels) -> Callable[[Rule, Any], Any]:
    """How the examples of the rule files are run (:func:`verifier.rewrite.examples.run_examples`):
    a correction with ``pack`` and ``labels`` and the example's question, a view alone."""
    def apply(rule: Rule, reading):
        if rule.stage == "views":
            return view_of(rule, reading)
        return apply_correction(rule, reading, CorrectionInputs(getattr(reading, "question", ""), pack, labels))
    return apply


def view_of(rule: Rule, reading, question: str = ""):
    """The view ``rule`` makes of ``reading`` (None when it does not apply; ``question``:
    where its EPs are written, for the rule's surface conditions)."""
    if rule.builtin is not None:
        return BUILTINS[rule.builtin].apply(reading)
    done = _rewritten(rule, reading, question)
    if done.formula == reading.formula and tuple(done.answers) == tuple(reading.answer_vars):
        return None
    return ReadingView.of(reading, done.formula, getattr(reading, "not_alignable", set()),
                          answer_vars=tuple(done.answers), note=note_of(rule.note, done.matches) or None)


def known_verbs(reading, pack):
    """``reading`` after the shipped correction ``known_verbs`` (``axioms/rewrites/
    corrections.yaml``) with the verbs the templates of ``pack`` name: ``_use/vb_u_unknown``
    read as ``_use_v_1`` (the reading itself when there is none)."""
    return apply_correction(shipped_rules().rule("known_verbs"), reading, CorrectionInputs("", pack, None))


def kind_of_view(reading):
    """The view the shipped rule ``kind_of`` (``axioms/rewrites/views.yaml``) makes of
    ``reading``: "What kind of money ...?" read as "What money ...?" (None when it does not
    apply)."""
    return view_of(shipped_rules().rule("kind_of"), reading)


def question_test(rule: Rule) -> Callable[[str], bool]:
    """Whether a question is one the view ``rule`` is tried for."""
    q = rule.question
    if q is None:
        return lambda question: True
    if q.how == "shape_pattern":
        from parsers.mrs.shapes.data import shape_rx

        return lambda question: shape_rx(q.regex).match(question) is not None
    rx = re.compile(q.regex, re.IGNORECASE)
    if q.how == "match":
        return lambda question: rx.match(question) is not None
    return lambda question: rx.search(question) is not None


def _view(rule: Rule) -> View:
    return View(rule.name, lambda r, question="": view_of(rule, r, question), question_test(rule),
                rule.after_reason)


#: the views of the rule sets seen last, by the rule set's id (the rule set kept, so that its
#: id is not reused while it is here): made once, not per pair
_VIEWS_OF: dict[int, tuple[RuleSet, tuple[View, ...]]] = {}


def _views(rules: RuleSet) -> tuple[View, ...]:
    """The views of ``rules``, in order, made (their question tests compiled) once per rule set."""
    hit = _VIEWS_OF.get(id(rules))
    if hit is None or hit[0] is not rules:
        if len(_VIEWS_OF) >= 16:
            _VIEWS_OF.clear()
        hit = _VIEWS_OF[id(rules)] = (rules, tuple(map(_view, rules.stage("views"))))
    return hit[1]


def views_for(question: str, rules: RuleSet | None = None) -> tuple[tuple[View, bool], ...]:
    """Each view of ``rules`` (by default the shipped ones) with whether it applies to
    ``question`` (decided once per pair), in the order they are tried."""
    return tuple((v, v.applies(question)) for v in _views(rules or shipped_rules()))


@dataclass(frozen=True)
class Correction:
    """One correction: its name and how it is applied to a reading (``apply(reading, inputs)``)."""

    name: str
    apply: Callable[[Any, CorrectionInputs], Any]


def _correction(rule: Rule) -> Correction:
    return Correction(rule.name, lambda r, i: apply_correction(rule, r, i))


#: The shipped corrections, in the order they are applied.
CORRECTIONS: tuple[Correction, ...] = tuple(map(_correction, shipped_rules().stage("corrections")))

#: The shipped views, in the order they are tried.
VIEWS: tuple[View, ...] = _views(shipped_rules())
