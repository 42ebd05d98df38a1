"""Correction: a relative clause "that is VERBed ..." parsed with an elided copula and a
subordinated participle: the relative's head is the participle's object.

A pass of :data:`verifier.deductive.corrections.CORRECTIONS`: a plain function over a reading
(returns the reading itself or a :class:`verifier.deductive.reading.ReadingView`)."""

from __future__ import annotations

from verifier.logic import Atom, Formula, Term, Var, atoms, map_atoms
from parsers.mrs import predicate_info
from verifier.deductive.reading import mended

__all__ = ["relative_participles"]


def relative_participles(reading):
    """A relative clause "that is VERBed ..." that the parse gives as a relative whose copula
    is elided and a participle subordinated to it ("Where does Shirley Chisholm work *that is
    bordered by Arlington County*?": ``relative_mod(i, x, e) & subord(e2, i, e3) &
    _border_v_1(e3, i2, i3) & _by_p_means(e4, e3, a)``) says the participle of the relative's
    head: the head is the participle's unexpressed object (``_border_v_1(e3, i2, x)``, whose
    "by" phrase :func:`passive_agents` then reads as its doer).  Returns the reading or a
    view of it."""
    heads: dict[Term, Term] = {}  # the relative's event -> its head
    for a in atoms(reading.formula):
        if a.pred == "relative_mod" and len(a.args) == 3 and isinstance(a.args[1], Var)\
                and a.args[1].name.startswith("x"):
            heads[a.args[0]] = a.args[1]
    if not heads:
        return reading
    clauses = {a.args[2]: heads[a.args[1]] for a in atoms(reading.formula)
               if a.pred == "subord" and len(a.args) == 3 and a.args[1] in heads}
    if not clauses:
        return reading

    def fix(a: Atom) -> Formula:
        if (a.args and a.args[0] in clauses and len(a.args) == 3 and predicate_info(a.pred).pos == "v"
                and isinstance(a.args[2], Var) and a.args[2].name.startswith("i")):
            return Atom(a.pred, (a.args[0], a.args[1], clauses[a.args[0]]))
        return a

    return mended(reading, map_atoms(reading.formula, fix))
