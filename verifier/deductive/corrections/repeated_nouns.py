"""Correction: a noun predicate holding of two instances ("year ... Album of the Year") gets a
numbered copy per further instance (``_year_n_1~2``).

A pass of :data:`verifier.deductive.corrections.CORRECTIONS`: a plain function over a reading
(returns the reading itself or a :class:`verifier.deductive.reading.ReadingView`)."""

from __future__ import annotations

from verifier.logic import Atom, Var, atoms, map_atoms
from verifier.deductive.reading import ReadingView

__all__ = ["distinguish_repeated"]


def distinguish_repeated(reading):
    """A noun predicate that holds of two different instances ("In which *year* ... the
    Grammy Award for Album of the *Year*") gets a numbered copy for every instance but the
    first (``_year_n_1~2``), so that an axiom linking one occurrence (the year inside a name)
    does not apply to the other (the year asked for).  Returns the reading or a view of it."""
    intent = getattr(reading, "intent", None)
    keep = {getattr(intent, "predicate", None), getattr(intent, "unit", None)}
    first: dict[str, object] = {}
    rename: dict[tuple[str, object], str] = {}
    count: dict[str, int] = {}
    for a in atoms(reading.formula):
        p = a.pred
        if not p.startswith("_") or not a.args or p in keep:
            continue
        v = a.args[0]
        if not (isinstance(v, Var) and v.name.startswith("x")):
            continue  # nouns only: prepositions and verbs are matched by structure templates
        if first.setdefault(p, v) != v and (p, v) not in rename:
            count[p] = count.get(p, 1) + 1
            rename[(p, v)] = f"{p}~{count[p]}"
    if not rename:
        return reading
    formula = map_atoms(reading.formula, lambda a: Atom(rename[(a.pred, a.args[0])], a.args)
                        if a.args and (a.pred, a.args[0]) in rename else a)
    return ReadingView.of(reading, formula, set())
