"""Correction: an unknown-word verb ("_use/vb_u_unknown") read as the verb of the axiom pack
whose lemma it is (``_use_v_1``).

A pass of :data:`verifier.deductive.corrections.CORRECTIONS`: a plain function over a reading
(returns the reading itself or a :class:`verifier.deductive.reading.ReadingView`)."""

from __future__ import annotations

from verifier.axioms.model import Pack
from verifier.logic import Atom, Formula, Var, atoms, map_atoms
from parsers.mrs import predicate_info
from verifier.lexical import base_forms
from verifier.deductive.reading import ReadingView

__all__ = ["known_verbs"]


def known_verbs(reading, pack: Pack):
    """The reading with an unknown-word verb whose word is the lemma of a verb the templates
    of ``pack`` name (``_use/vb_u_unknown``, as pattern readings and lexicon-less parses write
    "use") read as that verb (``_use_v_1``), so that the templates that name it apply; the
    reading itself when there is none.  A past form stands for its verb ("where did X grew
    up?": ``_grew/vb_u_unknown`` is *grow*, :func:`verifier.lexical.base_forms`)."""
    if not any((i := predicate_info(a.pred)).is_unknown_word and i.pos == "v" for a in atoms(reading.formula)):
        return reading
    verbs = pack.template_verbs
    arities = pack.template_verb_arities

    def known(a: Atom) -> Formula:
        info = predicate_info(a.pred)
        if not (info.is_unknown_word and info.pos == "v"):
            return a
        # the word itself, or the first of its base forms that the axioms name
        lemma = next((w for w in (info.lemma, *base_forms(info.lemma)) if w in verbs), None)
        if lemma is not None:
            pred = verbs[lemma]
            if len(a.args) == 3:
                # a verb without an object in the grammar ("go": _go_v_1(e, x)) drops the
                # unexpressed object the unknown word was given ("What school did X go to?")
                if 3 not in arities.get(pred, ()) and 2 in arities.get(pred, ())\
                        and isinstance(a.args[2], Var) and a.args[2].name.startswith("i"):
                    return Atom(pred, a.args[:2])
                return Atom(pred, a.args)
            if len(a.args) == 2 and 2 in arities.get(pred, ()):  # "Where did X come from?"
                return Atom(pred, a.args)
        return a

    formula = map_atoms(reading.formula, known)
    if formula == reading.formula:
        return reading
    return ReadingView.of(reading, formula, getattr(reading, "not_alignable", set()))
