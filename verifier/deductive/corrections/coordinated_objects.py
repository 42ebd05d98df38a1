"""Correction: a verb or preposition whose object is a coordination holds of each conjunct
("Did X receive A and B?"), unless the "and" is written inside an item's label.

A pass of :data:`verifier.deductive.corrections.CORRECTIONS`: a plain function over a reading
(returns the reading itself or a :class:`verifier.deductive.reading.ReadingView`)."""

from __future__ import annotations

from verifier.logic import Atom, Formula, Term, Var, atoms, conj, free_vars, map_atoms
from parsers.mrs import predicate_info
from verifier.lexical import LabelIndex
from verifier.deductive.reading import mended
from verifier.vocabulary import vocabulary

__all__ = ["coordinated_objects"]


#: At most this many words on each side of a coordinating "and" are looked up as one label.
_LABEL_WINDOW = 4


def _and_inside_label(question: str, span: tuple[int, int] | None, labels: LabelIndex) -> bool:
    """Whether the coordinating word at ``span`` of ``question`` is written inside a label of
    an item or a class ("Astronomy *and* Astrophysics", "Pride *and* Prejudice"): then the
    words around it name one thing, not two."""
    if span is None or not 0 <= span[0] < span[1] <= len(question):
        return False
    before, after = question[:span[0]].split(), question[span[1]:].split()
    word = question[span[0]:span[1]]
    for i in range(1, min(_LABEL_WINDOW, len(before)) + 1):
        for j in range(1, min(_LABEL_WINDOW, len(after)) + 1):
            text = " ".join(before[-i:] + [word] + after[:j])
            if any(labels.kinds.get(e.symbol) in ("item", "class") for e in labels.labels_written_as(text)):
                return True
    return False


#: The predicates this pass reads, from ``axioms/words/rewrites.yaml``: prepositions whose
#: object may be a group as a whole ("between A and B"), and the coordination.
_WORDS = vocabulary("rewrites")
_COLLECTIVE = _WORDS.word_set("collective_prepositions")
_COORDINATION = _WORDS.word_set("coordination")


def coordinated_objects(reading, question: str, labels: LabelIndex):
    """A verb or a preposition whose object is a coordination holds of each conjunct ("a state
    that celebrates *Christmas and other holidays*", "Did X receive *A and B*?", "Is X a
    twinned administrative body with *A and B*?": ``V(e, x, c) & _and_c(c, a, b)`` also says
    ``V(e, x, a) & V(e, x, b)``), as a modifier of a coordination modifies each conjunct
    (template ``coordination_distributes``).  Objects only: coordinated subjects may act
    together ("X and Y met"), and so may the objects of "between" / "among"
    (``collective_prepositions`` of ``axioms/words/rewrites.yaml``).  Not over coordinated answers, which
    :func:`expand_coordinated_answer` aligns with the query's columns one by one ("Naomi
    Campbell has what eye color and hair color?").  Not over an "and" written inside an item's
    label ("the ERA Journal ID of Astronomy and Astrophysics": one journal, which a garbled
    reading coordinates with "ID").  Returns the reading or a view of it."""
    m = getattr(reading, "mrs", None)
    if m is None:
        return reading
    spans = {dict(ep.args).get("ARG0"): (ep.cfrom, ep.cto) for ep in m.eps if ep.pred in _COORDINATION}
    answers = free_vars(reading.formula)
    coordinations: dict[Var, tuple[Term, Term]] = {}
    for a in atoms(reading.formula):
        if (a.pred in _COORDINATION and len(a.args) == 3
                and all(isinstance(t, Var) and t.name.startswith("x") and t not in answers for t in a.args)
                and not _and_inside_label(question, spans.get(a.args[0].name), labels)):
            coordinations[a.args[0]] = (a.args[1], a.args[2])
    if not coordinations:
        return reading

    def conjuncts(c: Term, depth: int = 0) -> list[Term]:  # "A, B and C": nested coordinations
        if c not in coordinations or depth > 3:
            return []
        return [t for part in coordinations[c] for t in [part, *conjuncts(part, depth + 1)]]

    def fix(a: Atom) -> Formula:
        pos = predicate_info(a.pred).pos
        if (len(a.args) == 3 and a.args[2] in coordinations and isinstance(a.args[1], Var)
                and ((pos == "v" and a.args[1].name.startswith("x"))
                     or (pos == "p" and a.pred not in _COLLECTIVE))):
            return conj(a, *(Atom(a.pred, (a.args[0], a.args[1], c)) for c in conjuncts(a.args[2])))
        return a

    return mended(reading, map_atoms(reading.formula, fix))
