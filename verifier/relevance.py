"""Premise selection: the premises an entailment check can need, found by the symbols they share
with the conclusion (in the spirit of the relevance filters of first-order provers, such as
SInE in E and Vampire), so that the solver does not search through axioms that cannot take part.

A check ``premises |= goal`` grows unsat exactly when ``premises & ~goal`` is unsat.  Start
with the goal's predicates and functions as *relevant*; a premise is **left out** when it holds
whatever the relevant symbols mean once every other predicate is read as true everywhere (its
value, :func:`value_if_others_true`, is ``True``): for instance ``forall x. b(x) -> q(x)``
with ``q`` not relevant.  Every premise kept makes the symbols it uses *negatively* (in a rule's
body) relevant, and the functions it uses, until nothing changes.  The KG background that the
prover adds (closures ``p+`` / ``p*`` of a property ``p``, the ``triple`` link) is followed the
same way.

Why leaving those premises out loses no proof: take a model of the kept premises and of
``~goal``, and make every predicate that is not relevant true everywhere.  The kept premises
stay true (a predicate that is not relevant occurs in them only positively), ``~goal`` stays
true (it mentions only relevant symbols), and each left-out premise is true by construction.
So the kept premises entail the goal exactly when all of them do.  One relaxation, for
speed: an equation ``f(...) = t`` whose function ``f`` nothing relevant mentions (a function
defined by rules the goal never reaches, e.g. the language of a label) counts as true.  Such
definitions can only matter through an inconsistency among themselves, which the deductive
check tests separately, on all premises.  Selection never makes a proof: a proof from the
kept premises is a proof from all of them.

With a goal that mentions no symbol (``false``: "are the premises consistent?") every premise
is kept.
"""

from __future__ import annotations

from typing import Iterable, Sequence, TypeVar

from verifier.logic import (
    And, Atom, Compare, Eq, Exists, Forall, Formula, Func, Iff, Implies, Not, Or, Term, Truth,
)
from verifier.identity import Same, per_pair

__all__ = ["relevant_indices", "select_relevant", "symbols", "value_if_others_true"]

P = TypeVar("P")

#: the predicate the prover links to every property (``triple(s, p, o) <-> p(s, o)``)
TRIPLE = "triple"


def _func_names(t: Term, out: set[str]) -> None:
    if isinstance(t, Func):
        out.add("f:" + t.name)
        for a in t.args:
            _func_names(a, out)


def symbols(f: Formula) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """The predicates ``f`` uses positively, those it uses negatively (a predicate under ``<->``
    is both) and the functions it uses (``"f:" + name``)."""
    pos: set[str] = set()
    neg: set[str] = set()
    funcs: set[str] = set()

    def walk(g: Formula, polarity: int) -> None:
        if isinstance(g, Atom):
            if polarity >= 0:
                pos.add(g.pred)
            if polarity <= 0:
                neg.add(g.pred)
            for a in g.args:
                _func_names(a, funcs)
        elif isinstance(g, (Eq, Compare)):
            _func_names(g.left, funcs)
            _func_names(g.right, funcs)
        elif isinstance(g, Not):
            walk(g.arg, -polarity)
        elif isinstance(g, (And, Or)):
            for a in g.args:
                walk(a, polarity)
        elif isinstance(g, Implies):
            walk(g.left, -polarity)
            walk(g.right, polarity)
        elif isinstance(g, Iff):
            walk(g.left, 0)
            walk(g.right, 0)
        elif isinstance(g, (Exists, Forall)):
            walk(g.body, polarity)

    walk(f, 1)
    return frozenset(pos), frozenset(neg), frozenset(funcs)


def value_if_others_true(f: Formula, relevant: frozenset[str] | set[str]) -> bool | None:
    """The truth value of ``f`` when every predicate outside ``relevant`` is true everywhere,
    whatever the relevant symbols mean (``None``: it depends on them).  An equation with a side
    ``g(...)`` whose function is not relevant (``"f:g"`` not in ``relevant``) counts as true
    (see the module's docstring)."""
    if isinstance(f, Truth):
        return f.value
    if isinstance(f, Atom):
        return True if f.pred not in relevant else None
    if isinstance(f, Eq):
        for side in (f.left, f.right):
            if isinstance(side, Func) and "f:" + side.name not in relevant:
                return True
        return None
    if isinstance(f, Compare):
        return None
    if isinstance(f, Not):
        v = value_if_others_true(f.arg, relevant)
        return None if v is None else not v
    if isinstance(f, And):
        vals = [value_if_others_true(a, relevant) for a in f.args]
        if any(v is False for v in vals):
            return False
        return True if all(v is True for v in vals) else None
    if isinstance(f, Or):
        vals = [value_if_others_true(a, relevant) for a in f.args]
        if any(v is True for v in vals):
            return True
        return False if all(v is False for v in vals) else None
    if isinstance(f, Implies):
        a, b = value_if_others_true(f.left, relevant), value_if_others_true(f.right, relevant)
        if a is False or b is True:
            return True
        return False if (a is True and b is False) else None
    if isinstance(f, Iff):
        a, b = value_if_others_true(f.left, relevant), value_if_others_true(f.right, relevant)
        return None if a is None or b is None else a == b
    if isinstance(f, (Exists, Forall)):  # the domain is not empty
        return value_if_others_true(f.body, relevant)
    return None


def _background_closure(relevant: set[str], preds: frozenset[str]) -> set[str]:
    """``relevant`` with what the prover's KG background ties to it: a closure ``p+`` or ``p*``
    needs ``p``, ``p+`` and ``p*`` (``p* <-> (= or p+)`` ties the two closures both ways); the
    ``triple`` link ties every property to ``triple`` both ways."""
    out = set(relevant)
    for name in list(out):
        if name.endswith(("+", "*")):
            out.update({name[:-1], name[:-1] + "+", name[:-1] + "*"})
    if TRIPLE in preds and (TRIPLE in out or any(_is_property(p) for p in out)):
        out.add(TRIPLE)
        out.update(p for p in preds if _is_property(p))
    return out


def _is_property(name: str) -> bool:
    return not name.endswith(("+", "*")) and (":" in name or name.startswith("<"))


def relevant_indices(formulas: Sequence[Formula], goal: Formula) -> tuple[int, ...]:
    """The positions of the formulas that ``formulas |= goal`` can need (all of them when the
    goal mentions no symbol); see the module's docstring.

    The premises kept are the least set closed under "a premise whose value depends on the
    relevant symbols is kept, and its negative symbols and functions are relevant": the value
    of a premise only changes (from true to unknown, never back) when a symbol it uses
    becomes relevant, so each round evaluates again only the premises that use a symbol the
    round before made relevant.  A premise's symbols are read once per formula object
    (:func:`_symbols_of`)."""
    g_pos, g_neg, g_funcs = symbols(goal)
    if not (g_pos or g_neg or g_funcs):
        return tuple(range(len(formulas)))
    syms = [_symbols_of(Same(f)) for f in formulas]
    all_preds = frozenset(g_pos | g_neg).union(*(s[3] for s in syms))
    relevant = _background_closure(set(g_pos | g_neg | g_funcs), all_preds)
    kept: set[int] = set()
    todo: Sequence[int] = range(len(formulas))
    while todo:
        grown: set[str] = set()
        for i in todo:
            if value_if_others_true(formulas[i], relevant) is True:
                continue
            kept.add(i)
            grown |= syms[i][1]
            grown |= syms[i][2]
        if grown <= relevant:
            break
        wider = _background_closure(relevant | grown, all_preds)
        added = wider - relevant
        relevant = wider
        todo = [j for j in range(len(formulas)) if j not in kept and not syms[j][4].isdisjoint(added)]
    return tuple(sorted(kept))


@per_pair(maxsize=8192)
def _symbols_of(key: Same) -> tuple[frozenset[str], frozenset[str], frozenset[str], frozenset[str], frozenset[str]]:
    """:func:`symbols` of a premise (``key.obj``), then the predicates it uses and every symbol
    its value can depend on (its predicates and functions)."""
    pos, neg, funcs = symbols(key.obj)
    preds = pos | neg
    return pos, neg, funcs, preds, preds | funcs


def select_relevant(items: Iterable[P], goal: Formula, formula_of) -> list[P]:
    """The items (premises of any type; ``formula_of(item)`` gives the formula) that
    ``items |= goal`` can need, in their order."""
    items = list(items)
    keep = relevant_indices([formula_of(x) for x in items], goal)
    return [items[i] for i in keep]
