"""Correction: a passive verb whose doer is a "by" phrase parsed as a modifier ("the position
held by X") gets the doer as its first argument, as the ERG's passive rule gives it.

A pass of :data:`verifier.deductive.corrections.CORRECTIONS`: a plain function over a reading
(returns the reading itself or a :class:`verifier.deductive.reading.ReadingView`)."""

from __future__ import annotations

import re

from verifier.logic import Atom, Formula, Term, Truth, Var, atoms, free_vars, map_atoms
from verifier.deductive.reading import ReadingView

__all__ = ["passive_agents"]


_BY = re.compile(r"_by_p(?:_.*)?")


def passive_agents(reading):
    """A passive verb whose doer is a "by" phrase parsed as a modifier of the verb ("the
    position held by Warren G. Harding": ``_hold_v_1(e, i, x) & _by_p_state(e2, e, y)``, as the
    shared corpus's parses give it) or of the noun the participle modifies ("a movie directed
    by X": ``_direct_v_to(e, i, x) & _by_p_loc(e2, x, y)``) gets the doer as its first
    argument, as the ERG's passive rule gives it (``_hold_v_1(e, y, x)``), and the modifier is
    dropped.  Only where the doer stays in the scope of its quantifier.  Returns the reading or
    a view of it."""
    verbs: dict[Var, Atom] = {}
    bys: dict[Var, Atom] = {}
    for a in atoms(reading.formula):
        if (len(a.args) == 3 and "_v_" in a.pred and isinstance(a.args[0], Var)
                and isinstance(a.args[1], Var) and a.args[1].name.startswith("i")
                and isinstance(a.args[2], Var) and a.args[2].name.startswith("x")):
            verbs[a.args[0]] = a
        elif (_BY.fullmatch(a.pred) and len(a.args) == 3 and isinstance(a.args[1], Var)
              and isinstance(a.args[2], Var) and a.args[2].name.startswith("x")):
            bys.setdefault(a.args[1], a)
    # "a movie directed by X" may also attach "by" to the noun the participle modifies
    objects = {v.args[2]: v for v in verbs.values()}
    doers: dict[Atom, Term] = {}
    dropped: set[Atom] = set()
    for target, by in bys.items():
        verb = verbs.get(target) or objects.get(target)
        if verb is not None and verb not in doers:
            doers[verb] = by.args[2]
            dropped.add(by)
    if not doers:
        return reading

    def fix(a: Atom) -> Formula:
        if a in dropped:
            return Truth(True)
        if a in doers:
            return Atom(a.pred, (a.args[0], doers[a], a.args[2]))
        return a

    formula = map_atoms(reading.formula, fix)
    if free_vars(formula) - free_vars(reading.formula):
        return reading
    return ReadingView.of(reading, formula, set())
