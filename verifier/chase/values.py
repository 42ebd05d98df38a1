"""The open values of a chase model: can they be filled in so that the stated comparisons hold,
and so that a given formula is false?

A chase model (:class:`verifier.chase.model.FiniteModel`) fixes which atoms hold and which
elements are equal; the numbers of the elements that are not literals (and of :attr:`apart`,
the value of every function term that is not arithmetic) stay open, as the prover's ``num``
leaves them.  The model with *any* filling ``v`` of those numbers under which the comparisons
the premises state hold is a model of the premises: the chase made every Horn rule true
without looking at values, and every premise it left out true whatever the values
(:meth:`FiniteModel.truth` is Kleene-true only then).  So:

* :func:`satisfiable`: some filling makes the stated comparisons true (else the chase gives up);
* :func:`falsifiable`: some such filling also makes a formula false.  That filling is a
  countermodel of the formula: a conclusion whose truth in the model depends only on open
  numbers (``?date >= "1939-01-01"^^xsd:date``, ``exists d2. ?d < d2``) is refuted without
  asking the prover to build a model of all its premises.

Both are decided by a small quantifier-free problem of linear real arithmetic, in a Z3 context
of its own: the formula is evaluated in the model with its quantifiers expanded over the
elements (as :meth:`FiniteModel.truth` does), every comparison the model cannot decide becomes
a constraint on the open numbers.  Anything else that the model leaves open (arithmetic terms,
strings of elements that are not literals) makes :func:`falsifiable` answer ``False`` (no
refutation: the prover decides).
"""

from __future__ import annotations

from typing import Any

from verifier.logic import (
    ARITHMETIC_FUNCS, And, Atom, Compare, Eq, Exists, Forall, Formula, Func, Iff, Implies, Not, Or, Truth,
    Var, free_vars, is_stringy,
)
from verifier.chase.model import Bail, FiniteModel, quantified, split_body

__all__ = ["satisfiable", "falsifiable"]

_OPS = ("<", "<=", ">", ">=")


class _Values:
    """Real variables for the open numbers of a model's elements, in a context of its own."""

    def __init__(self, m: FiniteModel) -> None:
        import z3  # the solver only for the values; the chase itself never needs it

        self.z3 = z3
        self.m = m
        self._ctx: Any = None
        self.xs: dict[int, Any] = {}

    @property
    def ctx(self):
        """The Z3 context, made when a value is first needed (a few milliseconds: most
        formulas are decided, or left to the prover, before that)."""
        if self._ctx is None:
            self._ctx = self.z3.Context()
        return self._ctx

    def x(self, e: int):
        e = self.m.find(e)
        if e not in self.xs:
            known = self.m.value(e, False)
            self.xs[e] = (self.z3.RealVal(str(known), self.ctx) if known is not None
                          else self.z3.Real(f"e{e}", self.ctx))
        return self.xs[e]

    def compare(self, op: str, a: int, b: int):
        x, y = self.x(a), self.x(b)
        return {"<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y}[op]

    def stated(self) -> list | None:
        """The stated comparisons as constraints; ``None`` when one of them is false or is
        an undecided comparison of strings."""
        out = []
        for op, a, b, stringy in self.m.stated:
            v = self.m.compare(op, self.m.find(a), self.m.find(b), stringy)
            if v is False or v is None and stringy:
                return None
            if v is None:
                out.append(self.compare(op, a, b))
        return out

    def check(self, constraints: list) -> bool:
        s = self.z3.Solver(ctx=self.ctx)
        s.set("timeout", 1000)
        for c in constraints:
            s.add(c)
        return s.check() == self.z3.sat


def satisfiable(m: FiniteModel) -> bool:
    """Whether the elements can have values (numbers for some, strings for others) under
    which every comparison the premises state holds, literals keeping theirs.  Decided
    exactly for comparisons of numbers; a stated comparison of strings that the literals do
    not decide counts as not satisfiable (the chase then gives up)."""
    if not m.stated:
        return True
    if all(m.compare(op, m.find(a), m.find(b), st) is True for op, a, b, st in m.stated):
        return True
    vals = _Values(m)
    constraints = vals.stated()
    return constraints is not None and vals.check(constraints)


def falsifiable(m: FiniteModel, f: Formula) -> bool:
    """Whether some filling of the model's open numbers satisfies the stated comparisons and
    makes ``f`` false (the model so filled is a countermodel of ``f``).  ``False`` when not,
    or when ``f`` depends on anything else the model leaves open, or its evaluation passes
    the model's limits."""
    vals = _Values(m)
    try:
        value = _Symbolic(m, vals).eval(f, {})
        constraints = vals.stated()
    except (Bail, RecursionError):
        return False
    if constraints is None or value is True:
        return False
    if value is False:
        return True
    return vals.check(constraints + [vals.z3.Not(value)])


class _Symbolic:
    """``f`` in the model as ``True``, ``False`` or a Z3 constraint on the open numbers."""

    def __init__(self, m: FiniteModel, vals: _Values) -> None:
        self.m, self.vals, self.z3 = m, vals, vals.z3

    def _combine(self, parts, dominant: bool) -> Any:
        """Conjunction (``dominant`` False) or disjunction (True) of values and constraints."""
        out = []
        for p in parts:
            if p is dominant:
                return dominant
            if p is not (not dominant):
                out.append(p)
        if not out:
            return not dominant
        return out[0] if len(out) == 1 else (self.z3.Or if dominant else self.z3.And)(*out)

    def _and(self, parts) -> Any:
        return self._combine(parts, False)

    def _or(self, parts) -> Any:
        return self._combine(parts, True)

    def _not(self, v) -> Any:
        return (not v) if isinstance(v, bool) else self.z3.Not(v)

    def _element(self, t, env) -> int:
        if isinstance(t, Func) and (t.name in ARITHMETIC_FUNCS or self.m.apart is None):
            raise Bail("an arithmetic term's value is open")
        return self.m.element(t, env)

    def eval(self, f: Formula, env: dict[Var, int]) -> Any:
        m = self.m
        m.evaluated += 1
        if m.evaluated > m.limits.max_evaluation:
            raise Bail("the evaluation took too many steps")
        if isinstance(f, Compare):
            a, b = self._element(f.left, env), self._element(f.right, env)
            stringy = is_stringy(f.left) or is_stringy(f.right)
            v = m.compare(f.op, a, b, stringy)
            if v is not None:
                return v
            if stringy or f.op not in _OPS:
                raise Bail("an open string")
            return self.vals.compare(f.op, a, b)
        if isinstance(f, (Atom, Eq, Truth)):
            v = m.truth(f, env)
            if v is None:
                raise Bail("an open term")
            return v
        if isinstance(f, And):
            return self._and(self.eval(a, env) for a in f.args)
        if isinstance(f, Or):
            return self._or(self.eval(a, env) for a in f.args)
        if isinstance(f, Not):
            return self._not(self.eval(f.arg, env))
        if isinstance(f, Implies):
            return self._or((self._not(self.eval(f.left, env)), self.eval(f.right, env)))
        if isinstance(f, Iff):
            a, b = self.eval(f.left, env), self.eval(f.right, env)
            if isinstance(a, bool) and isinstance(b, bool):
                return a == b
            return self._or((self._and((a, b)), self._and((self._not(a), self._not(b)))))
        if isinstance(f, (Exists, Forall)):
            return self._quantifier(f, env)
        raise Bail(f"not interpreted: {type(f).__name__}")

    def _quantifier(self, f: Exists | Forall, env: dict[Var, int]) -> Any:
        fv = free_vars(f.body)
        vs = tuple(v for v in f.vars if v in fv)
        if not vs:  # the domain is never empty
            return self.eval(f.body, env)
        exists = isinstance(f, Exists)
        combine = self._or if exists else self._and
        kind = Exists if exists else Forall
        if exists:
            conj, rest = split_body(f.body)
            if conj:  # the decided atoms are matched, the rest evaluated per match
                return combine(self.eval(quantified(kind, left, rest), e2)
                               for e2, left in self.m.matched(vs, conj, env))
        return combine(self.eval(f.body, e2) for e2 in self.m.enumerated(vs, env))
