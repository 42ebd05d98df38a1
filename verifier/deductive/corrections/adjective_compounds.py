"""Correction: a compound modifier before an adjective and its noun ("a feminine grammatical
gender") that the parse attaches to the adjective modifies the noun, as the ERG gives "N N".

A pass of :data:`verifier.deductive.corrections.CORRECTIONS`: a plain function over a reading
(returns the reading itself or a :class:`verifier.deductive.reading.ReadingView`)."""

from __future__ import annotations

from verifier.logic import Atom, Formula, Term, Var, atoms, map_atoms
from parsers.mrs import predicate_info
from verifier.deductive.reading import mended

__all__ = ["adjective_compounds"]


def adjective_compounds(reading):
    """A compound modifier written before an adjective and its noun ("a *feminine*
    grammatical gender", "the *child* astronomical body", "fossil taxon") that the parse
    attaches to the adjective's event (``compound(e, e2, y) & _grammatical_a_1(e2, x)``, as
    the shared corpus's parses give "N ADJ N") modifies the adjective's noun:
    ``compound(e, x, y)``, as the ERG gives it for "N N".  Returns the reading or a view of
    it."""
    nouns: dict[Var, Term] = {}  # an adjective's event -> the noun it modifies
    for a in atoms(reading.formula):
        if (len(a.args) >= 2 and isinstance(a.args[0], Var) and a.args[0].name.startswith("e")
                and isinstance(a.args[1], Var) and a.args[1].name.startswith("x")
                and predicate_info(a.pred).pos == "a"):
            nouns.setdefault(a.args[0], a.args[1])
    if not nouns:
        return reading

    def fix(a: Atom) -> Formula:
        if a.pred == "compound" and len(a.args) == 3 and a.args[1] in nouns:
            return Atom("compound", (a.args[0], nouns[a.args[1]], a.args[2]))
        return a

    return mended(reading, map_atoms(reading.formula, fix))
