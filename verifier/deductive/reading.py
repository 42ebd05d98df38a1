"""The reading as the stages see it: a frozen view of a translated reading, and helpers over its formula.

Every correction and view of a reading hands on a :class:`ReadingView` (or the reading itself,
unchanged).  Stage: foundation (imports no other stage)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Collection, Sequence

from verifier.logic import Atom, Eq, Exists, Formula, Term, Var, free_vars
from verifier.rewrite.engine import positive_conjuncts

__all__ = [
    "open_vars", "identified_with", "named_vars", "ReadingView", "mended", "conjuncts",
    "Identities", "recorded",
]


def open_vars(t: Formula, vs: set[Var]) -> tuple[Formula, set[Var]]:
    """Take ``vs`` out of the top-level existential prefix of ``t`` (they become free, to be
    aligned with query variables); returns the new formula and the variables opened."""
    if not vs or not isinstance(t, Exists):
        return t, set()
    opened = {v for v in t.vars if v in vs}
    rest = tuple(v for v in t.vars if v not in vs)
    return (Exists(rest, t.body) if rest else t.body), opened


def identified_with(facts: Sequence[Formula], x: Var) -> set[Var]:
    """``x`` and what a copula or an apposition among ``facts`` (:func:`conjuncts`) identifies
    with it."""
    same = {x}
    for a in facts:
        if isinstance(a, Atom) and a.pred in ("_be_v_id", "appos") and len(a.args) == 3:
            if a.args[1] in same or a.args[2] in same:
                same |= {t for t in a.args[1:] if isinstance(t, Var)}
    return same


def named_vars(facts: Sequence[Atom]) -> set[Term]:
    """The variables that ``named`` / ``named_n`` facts give a name."""
    return {f.args[0] for f in facts if f.pred in ("named", "named_n") and f.args}


@dataclass(frozen=True, eq=False)
class ReadingView:
    """A reading with some intent variables opened (free) and others not alignable: what a
    correction, a view or an alignment of a reading hands on (frozen; compared by identity).
    Build one with :meth:`of`."""

    intent: Any
    answer_vars: tuple
    formula: Formula
    not_alignable: Collection[Var]
    reading_index: int = 0
    sentence_force: Any = None
    mrs: Any = None
    #: how the view reads the question, said in a faithful verdict's reason
    note: str = ""
    #: the names of the rewrite rules (corrections, views) that changed the reading, in order
    rules: tuple[str, ...] = ()

    @classmethod
    def of(cls, reading, formula: Formula, not_alignable: Collection[Var], *,
           answer_vars: tuple | None = None, note: str | None = None) -> "ReadingView":
        """A view of ``reading`` (a translated reading or a view) with ``formula``; its answer
        variables and note are the reading's unless given."""
        return cls(intent=reading.intent,
                   answer_vars=reading.answer_vars if answer_vars is None else answer_vars,
                   formula=formula, not_alignable=not_alignable,
                   reading_index=getattr(reading, "reading_index", 0),
                   sentence_force=getattr(reading, "sentence_force", None),
                   mrs=getattr(reading, "mrs", None),
                   note=getattr(reading, "note", "") if note is None else note,
                   rules=tuple(getattr(reading, "rules", ())))


def mended(reading, formula: Formula):
    """A view of ``reading`` whose formula a parser correction mended to ``formula`` (its
    unalignable variables kept), or the reading itself when the correction changed nothing or
    left a variable outside its scope."""
    if formula == reading.formula or free_vars(formula) - free_vars(reading.formula):
        return reading
    return ReadingView.of(reading, formula, getattr(reading, "not_alignable", set()))


def recorded(before, after, name: str):
    """``after`` (what rule ``name`` made of the reading ``before``) with ``name`` added to its
    :attr:`ReadingView.rules` when the rule changed the reading (its formula, answers or note);
    ``after`` as it is otherwise (``None``, the reading itself, an unchanged view)."""
    if after is None or after is before or not isinstance(after, ReadingView):
        return after
    if (after.formula == before.formula and tuple(after.answer_vars) == tuple(before.answer_vars)
            and after.note == getattr(before, "note", "")):
        return after
    return replace(after, rules=tuple(after.rules) + (name,))


def conjuncts(f: Formula) -> list[Formula]:
    """Positive conjunctive core of a formula: atoms and equalities not under negation,
    disjunction or implication (existential quantifiers are opened)."""
    return positive_conjuncts(f)


class Identities:
    """Which variables the identities among ``facts`` (copula, "become", apposition,
    equality; those in ``dropped`` left out) make one thing: a union-find.  ``related`` holds
    the variables a copula or an apposition relates (either side may be a coordination)."""

    def __init__(self, facts: Sequence[Formula], dropped: Collection[Formula] = ()) -> None:
        self.parent: dict[Var, Var] = {}
        self.related: set[Var] = set()
        for f in facts:
            if f in dropped:
                continue
            if isinstance(f, Atom) and f.pred in ("_be_v_id", "_become_v_id", "appos") and len(f.args) == 3:
                a, b = f.args[1], f.args[2]
                if isinstance(a, Var) and isinstance(b, Var):
                    self.union(a, b)
                    self.related |= {a, b}
            elif isinstance(f, Eq) and isinstance(f.left, Var) and isinstance(f.right, Var):
                self.union(f.left, f.right)

    def find(self, v: Var) -> Var:
        """The representative of ``v``'s class."""
        while self.parent.get(v, v) != v:
            v = self.parent[v]
        return v

    def union(self, a: Var, b: Var) -> None:
        """Make ``a`` and ``b`` one thing."""
        self.parent[self.find(a)] = self.find(b)
