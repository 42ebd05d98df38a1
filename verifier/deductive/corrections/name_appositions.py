"""Correction: a name the parse splits into two names, one in apposition to a noun ("married to
Hillary, Clinton"): the apposition is dropped when it makes the answer the named item.

A pass of :data:`verifier.deductive.corrections.CORRECTIONS`: a plain function over a reading
(returns the reading itself or a :class:`verifier.deductive.reading.ReadingView`)."""

from __future__ import annotations

from typing import Collection

from verifier.logic import TRUE, Atom, Var, atoms, map_atoms
from verifier.deductive.reading import Identities, ReadingView, conjuncts

__all__ = ["split_name_appositions"]


def _identified_with_a_name(reading, dropped: Collection[Atom] = ()) -> bool:
    """Whether the reading's identities (copula, "become", apposition, equality), without the
    atoms ``dropped``, make an answer variable a variable that a ``named`` predication
    describes (what :func:`degenerate` refuses once the names are linked)."""
    facts = list(conjuncts(reading.formula))
    ids = Identities(facts, dropped)
    roots = {ids.find(f.args[0]) for f in facts
             if isinstance(f, Atom) and f.pred == "named" and f.args and isinstance(f.args[0], Var)}
    return any(ids.find(v) in roots for v in reading.answer_vars)


def split_name_appositions(reading, question: str):
    """A name the parse splits into two names written next to each other ("Hillary Clinton"
    as ``named(x, "Hillary")`` and ``named(y, "Clinton")``), one of which it puts in
    apposition to a noun ("the blood group of the person married to Hillary, Clinton":
    ``appos(e, group, y)``), says nothing of that noun when the apposition is what makes the
    answer the named item (a reading :func:`degenerate` refuses): the apposition is dropped.
    Readings whose answer stays apart from the names keep their appositions ("Was the
    dictator, Fidel Castro, ...?").  Returns the reading or a view of it."""
    m = getattr(reading, "mrs", None)
    if m is None or not question or not reading.answer_vars\
            or not any(a.pred == "appos" for a in atoms(reading.formula)):
        return reading
    spans = sorted((ep.cfrom, ep.cto, dict(ep.args).get("ARG0")) for ep in m.eps
                   if ep.pred == "named" and 0 <= ep.cfrom < ep.cto <= len(question))
    parts: set[str] = set()
    for (f1, t1, v1), (f2, t2, v2) in zip(spans, spans[1:]):
        if v1 and v2 and v1 != v2 and f2 > t1 and not question[t1:f2].strip()\
                and question[f1:t1][:1].isupper() and question[f2:t2][:1].isupper():
            parts |= {v1, v2}
    if not parts or not _identified_with_a_name(reading):
        return reading
    named = {a.args[0] for a in atoms(reading.formula)
             if a.pred == "named" and a.args and isinstance(a.args[0], Var)}
    dropped = {a for a in atoms(reading.formula)
               if a.pred == "appos" and len(a.args) == 3
               and any(isinstance(t, Var) and t.name in parts for t in a.args[1:])
               and not all(t in named for t in a.args[1:])}
    if not dropped or _identified_with_a_name(reading, dropped):
        return reading
    # ... and only when no other apposition makes the answer another noun as well ("Which is
    # the ESPN.com NFL player ID for Kurt Warner?" read as "the player, ID for Kurt, Warner":
    # the ID would lose the words that say whose ID it is)
    ids = Identities([f for f in conjuncts(reading.formula) if f not in dropped])
    answers = {ids.find(v) for v in reading.answer_vars}
    if any(a.pred == "appos" and a not in dropped and len(a.args) == 3
           and isinstance(a.args[1], Var) and ids.find(a.args[1]) in answers
           for a in atoms(reading.formula)):
        return reading
    formula = map_atoms(reading.formula, lambda a: TRUE if a in dropped else a)
    return ReadingView.of(reading, formula, set())
