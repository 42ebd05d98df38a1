"""Correction: "grand-children" parsed as two words is the one noun *grandchildren*.

A pass of :data:`verifier.deductive.corrections.CORRECTIONS`: a plain function over a reading
(returns the reading itself or a :class:`verifier.deductive.reading.ReadingView`)."""

from __future__ import annotations

from verifier.logic import TRUE, Atom, Formula, Var, atoms, map_atoms
from parsers.mrs import predicate_info
from verifier.deductive.reading import ReadingView

__all__ = ["grand_kin"]


#: Kin nouns that "grand" in front of them makes one word ("grand-children": grandchildren).
_GRAND_KIN = {"child": "grandchild", "children": "grandchildren", "son": "grandson", "sons": "grandsons",
              "daughter": "granddaughter", "daughters": "granddaughters"}


def grand_kin(reading):
    """"grand-children" parsed as two words, the noun "child" with "grand" as an adjective
    (``_grand_a_1(e, x) & _child_n_1(x)``) or as a compound modifier (``_children/nn_u_unknown(x)
    & _grand/nn_u_unknown(y) & compound(e, x, y)``), is the one noun *grandchildren*
    (``_grandchildren/nn_u_unknown(x)``), which the lexicon reads as child twice; read as
    "child" it would name child once.  Returns the reading or a view of it."""
    by_var: dict[Var, Atom] = {}
    grand: dict[Var, Atom] = {}  # the variable of "grand" (a noun's x, an adjective's ARG1)
    for a in atoms(reading.formula):
        if not a.args or not isinstance(a.args[0], Var):
            continue
        info = predicate_info(a.pred)
        if info.lemma == "grand" and info.pos == "a" and len(a.args) == 2 and isinstance(a.args[1], Var):
            grand[a.args[1]] = a
        elif info.lemma == "grand" and info.pos == "n" and len(a.args) == 1:
            grand[a.args[0]] = a
        elif info.pos == "n" and info.lemma in _GRAND_KIN:
            by_var[a.args[0]] = a
    if not grand or not by_var:
        return reading
    drop: set[Atom] = set()
    merged: dict[Var, str] = {}
    for a in atoms(reading.formula):
        if a.pred == "compound" and len(a.args) == 3 and a.args[1] in by_var and a.args[2] in grand:
            drop |= {a, grand[a.args[2]]}
            merged[a.args[1]] = _GRAND_KIN[predicate_info(by_var[a.args[1]].pred).lemma]
    for x, a in grand.items():
        if predicate_info(a.pred).pos == "a" and x in by_var:
            drop.add(a)
            merged[x] = _GRAND_KIN[predicate_info(by_var[x].pred).lemma]
    if not merged:
        return reading

    def swap(a: Atom) -> Formula:
        if a in drop:
            return TRUE
        if a.args and a.args[0] in merged and by_var.get(a.args[0]) is a:
            return Atom(f"_{merged[a.args[0]]}/nn_u_unknown", (a.args[0],))
        return a

    return ReadingView.of(reading, map_atoms(reading.formula, swap), set())
