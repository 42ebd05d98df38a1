"""Normal forms of formulas of the logic IR (:mod:`verifier.logic`).

* :func:`canonical` renames bound variables in order of appearance, so alpha-equivalent
  formulas become equal (:func:`alpha_equivalent`);
* :func:`order_normal_form` also sorts the operands of every ``And`` / ``Or`` by their
  shape, so formulas that differ only in conjunct order and variable names usually get the
  same normal form (used to name subqueries and to align the answer columns of queries);
* :func:`vars_in_order` lists a formula's variables in printing order.

Pure functions over the frozen IR; no state.
"""

from __future__ import annotations

import re
from typing import Iterator

from verifier.logic import (
    And, Atom, Compare, Eq, Exists, Forall, Formula, Iff, Implies, Not, Or, Term, Truth, Var,
    free_vars, iter_terms, subformulas, substitute_term, to_text,
)

__all__ = ["canonical", "alpha_equivalent", "order_normal_form", "vars_in_order"]


def canonical(f: Formula, prefix: str = "_b") -> Formula:
    """Rename bound variables to ``_b0, _b1, ...`` in order of appearance.

    Two formulas are alpha-equivalent iff their canonical forms are equal.
    """
    counter = [0]
    fv_names = {v.name for v in free_vars(f)}

    def fresh() -> Var:
        while True:
            name = f"{prefix}{counter[0]}"
            counter[0] += 1
            if name not in fv_names:
                return Var(name)

    def go(g: Formula, env: dict[Var, Term]) -> Formula:
        if isinstance(g, Atom):
            return Atom(g.pred, tuple(substitute_term(a, env) for a in g.args))
        if isinstance(g, Eq):
            return Eq(substitute_term(g.left, env), substitute_term(g.right, env))
        if isinstance(g, Compare):
            return Compare(g.op, substitute_term(g.left, env), substitute_term(g.right, env))
        if isinstance(g, Truth):
            return g
        if isinstance(g, And):
            return And(tuple(go(a, env) for a in g.args))
        if isinstance(g, Or):
            return Or(tuple(go(a, env) for a in g.args))
        if isinstance(g, Not):
            return Not(go(g.arg, env))
        if isinstance(g, Implies):
            return Implies(go(g.left, env), go(g.right, env))
        if isinstance(g, Iff):
            return Iff(go(g.left, env), go(g.right, env))
        if isinstance(g, (Exists, Forall)):
            new_env = dict(env)
            nvs = []
            for v in g.vars:
                nv = fresh()
                new_env[v] = nv
                nvs.append(nv)
            return type(g)(tuple(nvs), go(g.body, new_env))
        raise TypeError(f"not a formula: {g!r}")

    return go(f, {})


def _shape(f: Formula, keep: frozenset[Var] = frozenset()) -> str:
    """The printed formula with every variable blanked (a sort key that ignores names),
    except the variables in ``keep``."""
    text = to_text(f)
    names = sorted(({v.name for v in free_vars(f)} | {v.name for g in subformulas(f)
                                                         if isinstance(g, (Exists, Forall)) for v in g.vars})
                   - {v.name for v in keep}, key=len, reverse=True)
    for n in names:
        text = re.sub(rf"(?<![\w:$?]){re.escape(n)}(?![\w:(])", "_", text)  # not a function name
    return text


def order_normal_form(f: Formula) -> Formula:
    """Sort the operands of every ``And``/``Or`` by their shape (variables ignored; ties broken
    by the shape with the free variables of ``f`` kept), then rename bound variables
    canonically.  Formulas that differ only in conjunct order and
    variable names usually get the same normal form (ties keep their order)."""

    top_free = free_vars(f)

    def key(a: Formula) -> tuple[str, str]:
        # ties of the name-free shape are broken by the formula's own free variables (those
        # the caller named canonically), e.g. p(x, y) & p(y, _p0)
        return _shape(a), _shape(a, top_free)

    def go(g: Formula) -> Formula:
        if isinstance(g, (And, Or)):
            args = sorted((go(a) for a in g.args), key=key)
            return type(g)(tuple(args))
        if isinstance(g, Not):
            return Not(go(g.arg))
        if isinstance(g, Implies):
            return Implies(go(g.left), go(g.right))
        if isinstance(g, Iff):
            return Iff(go(g.left), go(g.right))
        if isinstance(g, (Exists, Forall)):
            body = go(g.body)
            seen = {v: i for i, v in enumerate(dict.fromkeys(vars_in_order(body)))}
            vs = sorted(g.vars, key=lambda v: seen.get(v, len(seen)))  # as they appear, not as listed
            return type(g)(tuple(vs), body)
        return g

    return canonical(go(f))


def vars_in_order(f: Formula | Term) -> Iterator[Var]:
    """Variables of a formula or term in printing order (may repeat; bound variables
    included)."""
    return (t for t in iter_terms(f) if isinstance(t, Var))


def alpha_equivalent(a: Formula, b: Formula) -> bool:
    """Equal up to renaming of bound variables."""
    return canonical(a) == canonical(b)
