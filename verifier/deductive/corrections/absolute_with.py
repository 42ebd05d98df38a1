"""Correction: "with" parsed as the subordinator of an absolute clause ("the SoC with minimum
clock speed manufactured by Qualcomm") read as the preposition on the main clause's noun.

A pass of :data:`verifier.deductive.corrections.CORRECTIONS`: a plain function over a reading
(returns the reading itself or a :class:`verifier.deductive.reading.ReadingView`)."""

from __future__ import annotations

from verifier.logic import Atom, Formula, Term, Var, atoms, map_atoms
from parsers.mrs import predicate_info
from verifier.deductive.reading import mended

__all__ = ["absolute_with"]


def absolute_with(reading):
    """"with" parsed as the subordinator of an absolute clause whose predicate takes the
    phrase's noun ("the SoC *with minimum clock speed manufactured by Qualcomm*":
    ``_with_x_subord(e, e1, e2) & _manufacture_v_1(e2, q, speed)``; "the lake with the
    smallest surface area *in* X": ``_in_p_loc(e2, area, x)``) is the preposition on the main
    clause's noun (its object, else its subject): ``_with_p(e, soc, speed)``; a participle
    there modifies that noun too (``_manufacture_v_1(e2, q, soc)``), a preposition stays on
    the phrase's noun.  Returns the reading or a view of it."""
    by_event: dict[Var, Atom] = {}
    for a in atoms(reading.formula):
        if a.args and isinstance(a.args[0], Var) and a.args[0].name.startswith("e"):
            by_event.setdefault(a.args[0], a)
    withs: dict[Atom, tuple[Term, Term]] = {}  # the subordinator -> (noun, the phrase's noun)
    participles: dict[Atom, Term] = {}  # a participle -> the noun it modifies
    for a in atoms(reading.formula):
        if a.pred != "_with_x_subord" or len(a.args) != 3:
            continue
        main, sub = by_event.get(a.args[1]), by_event.get(a.args[2])
        if main is None or sub is None or len(main.args) < 2:
            continue
        nouns = [t for t in main.args[2:3] + main.args[1:2] if isinstance(t, Var) and t.name.startswith("x")]
        if not nouns:
            continue
        pos = predicate_info(sub.pred).pos
        if pos == "p" and len(sub.args) == 3 and isinstance(sub.args[1], Var) and sub.args[1].name.startswith("x"):
            withs[a] = (nouns[0], sub.args[1])
        elif pos == "v" and len(sub.args) == 3 and isinstance(sub.args[2], Var) and sub.args[2].name.startswith("x"):
            withs[a] = (nouns[0], sub.args[2])
            participles[sub] = nouns[0]
    if not withs:
        return reading

    def fix(a: Atom) -> Formula:
        if a in withs:
            return Atom("_with_p", (a.args[0], *withs[a]))
        if a in participles:
            return Atom(a.pred, (a.args[0], a.args[1], participles[a]))
        return a

    return mended(reading, map_atoms(reading.formula, fix))
