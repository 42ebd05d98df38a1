"""Z3 back end: entailment between formulas of the logic IR, and query equivalence.

Encoding (see also ``docs/deductive.md``, *The prover*):

* one uninterpreted sort ``Term`` for KG terms; every IRI and every literal is a distinct
  constant of that sort (unique names: ``wd:Q1 != wd:Q2``); literals with the same value
  (``1`` and ``1.0``) are the same constant;
* numbers and dates are reachable through ``num: Term -> Real`` (dates as an order-preserving
  number of days) and strings through ``str: Term -> String``, so ``FILTER(?v < 0.07)`` is real
  arithmetic and string comparisons are string comparisons;
* atoms are uninterpreted predicates over ``Term``; the closure predicates ``p+`` / ``p*``
  get their axioms (``p`` implies ``p+``, ``p+`` is transitive, ``p*`` is ``=`` or ``p+``);
  ``triple(s, p, o)`` (variable predicates) is linked to every binary predicate used;
* function terms are uninterpreted functions; ``add sub mul div neg`` are arithmetic on ``num``.

:func:`entails` never raises for Z3 problems: errors and timeouts give status ``unknown``.
"""

from __future__ import annotations

import itertools
import logging
import time
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Iterable, Mapping, Sequence

import z3

from verifier.logic import (
    ARITHMETIC_FUNCS, And, Atom, Compare, Eq, Exists, Forall, Formula, Func, Iff, Implies, IRI,
    Literal, Not, Or, Term, Truth, Var, free_vars, is_stringy, substitute, substitute_term,
)
from verifier import chase as _chase
from verifier.chase import FiniteModel, Limits, defeaters, falsifiable
from verifier.limits import Deadline
from verifier.relevance import relevant_indices, select_relevant
from verifier.normal_form import order_normal_form, vars_in_order
from verifier.query import Aggregate, Query

__all__ = ["ProofResult", "Premise", "ProverContext", "entails", "entails_each", "refuted_in_chase", "satisfiable",
           "equivalent",
           "EquivalenceResult", "DEFAULT_TIMEOUT_MS", "RLIMIT_PER_MS", "solver_budget"]

log = logging.getLogger(__name__)

DEFAULT_TIMEOUT_MS = 2000
#: Z3 resource units per millisecond of solving on an idle 2020s CPU (measured on the
#: deductive benchmark's checks: 450-3,600 units/ms, most near 2,000-3,000).
RLIMIT_PER_MS = 3000
#: How many times its budget a check may take on the wall clock before it is stopped anyway.
WALL_FACTOR = 5


def solver_budget(ms: int) -> dict[str, int]:
    """Keyword arguments of :func:`entails` / :func:`entails_each` for a budget of ``ms``
    milliseconds of solving on an idle machine: Z3's deterministic resource counter stops
    the check (``ms * RLIMIT_PER_MS`` units), so a loaded machine makes it slower, not
    different; the wall clock stops it only after ``WALL_FACTOR * ms`` (work that Z3 does
    not count, such as internalising huge terms)."""
    ms = max(1, int(ms))
    return {"timeout_ms": ms * WALL_FACTOR, "rlimit": ms * RLIMIT_PER_MS}


@dataclass(frozen=True)
class Premise:
    """A named premise (the name appears in unsat cores and explanations)."""

    name: str
    formula: Formula


@dataclass(frozen=True)
class ProofResult:
    """Outcome of :func:`entails`.

    ``status`` is ``proved`` (the conclusion follows), ``refuted`` (a countermodel exists:
    the conclusion does not follow) or ``unknown`` (timeout, resource limit, incompleteness
    of quantifier reasoning, or a Z3 error; ``reason`` says which).  ``used`` names the
    premises of an unsat core when proved; ``countermodel`` is a short readable model when
    refuted.
    """

    status: str
    reason: str = ""
    used: tuple[str, ...] = ()
    countermodel: str = ""
    time_ms: float = 0.0
    #: Z3's resource units the check spent (its deterministic counter, the unit of ``rlimit``;
    #: 0 when the chase decided): a measure of work that does not depend on the machine's load
    work: int = 0

    @property
    def proved(self) -> bool:
        return self.status == "proved"


# --------------------------------------------------------------------------------------------
# Encoding
# --------------------------------------------------------------------------------------------


class _Encoder:
    """Translate IR formulas to Z3 expressions within one problem."""

    def __init__(self, ctx: z3.Context | None = None) -> None:
        self.ctx = ctx
        self.T = z3.DeclareSort("Term", ctx)
        self.num = z3.Function("num", self.T, z3.RealSort(ctx))
        self.strv = z3.Function("strv", self.T, z3.StringSort(ctx))
        self.consts: dict[tuple, z3.ExprRef] = {}
        self.const_names: dict[str, str] = {}  # z3 name -> readable
        self.facts: list[z3.BoolRef] = []
        self.preds: dict[tuple[str, int], z3.FuncDeclRef] = {}
        self.funcs: dict[tuple[str, int], z3.FuncDeclRef] = {}
        self.free: dict[Var, z3.ExprRef] = {}

    # -- terms
    def const(self, t: Term) -> z3.ExprRef:
        if isinstance(t, IRI):
            key = ("iri", t.value)
        else:
            key = t.value_key  # type: ignore[union-attr]
        c = self.consts.get(key)
        if c is None:
            name = f"c{len(self.consts)}"
            c = z3.Const(name, self.T)
            self.consts[key] = c
            self.const_names[name] = str(t)
            if isinstance(t, Literal):
                kind = t.kind
                if kind == "number" and t.numeric_value is not None:
                    self.facts.append(self.num(c) == _real(t.numeric_value, self.ctx))
                elif kind == "date" and t.date_value is not None:
                    self.facts.append(self.num(c) == _real(t.date_value, self.ctx))
                elif kind == "string":
                    self.facts.append(self.strv(c) == z3.StringVal(t.lexical, self.ctx))
        return c

    def term(self, t: Term, env: Mapping[Var, z3.ExprRef]) -> z3.ExprRef:
        if isinstance(t, Var):
            v = env.get(t)
            if v is None:
                v = self.free.get(t)
                if v is None:
                    v = self.free[t] = z3.Const(f"v_{t.name}", self.T)
                    self.const_names[f"v_{t.name}"] = "?" + t.name
            return v
        if isinstance(t, (IRI, Literal)):
            return self.const(t)
        if isinstance(t, Func):
            f = self.funcs.get((t.name, len(t.args)))
            if f is None:
                f = z3.Function(f"f_{t.name}_{len(t.args)}", *([self.T] * len(t.args)), self.T)
                self.funcs[(t.name, len(t.args))] = f
            return _app(f, [self.term(a, env) for a in t.args], z3.ExprRef) if t.args else f()
        raise TypeError(f"not a term: {t!r}")

    def number(self, t: Term, env) -> z3.ArithRef:
        if isinstance(t, Func) and t.name in ARITHMETIC_FUNCS:
            args = [self.number(a, env) for a in t.args]
            if t.name == "neg" and len(args) == 1:
                return -args[0]
            if len(args) == 2:
                a, b = args
                return {"add": a + b, "sub": a - b, "mul": a * b, "div": a / b}.get(t.name, a + b)
        return self.num(self.term(t, env))

    def string(self, t: Term, env) -> z3.SeqRef:
        return self.strv(self.term(t, env))

    # -- formulas
    def pred(self, name: str, arity: int) -> z3.FuncDeclRef:
        p = self.preds.get((name, arity))
        if p is None:
            p = z3.Function(f"p{len(self.preds)}", *([self.T] * arity), z3.BoolSort(self.ctx))
            self.preds[(name, arity)] = p
        return p

    def formula(self, f: Formula, env: Mapping[Var, z3.ExprRef]) -> z3.BoolRef:
        if isinstance(f, Atom):
            p = self.pred(f.pred, len(f.args))
            return _app(p, [self.term(a, env) for a in f.args], z3.BoolRef) if f.args else p()
        if isinstance(f, Eq):
            return self.term(f.left, env) == self.term(f.right, env)
        if isinstance(f, Compare):
            if is_stringy(f.left) or is_stringy(f.right):
                a, b = self.string(f.left, env), self.string(f.right, env)
            else:
                a, b = self.number(f.left, env), self.number(f.right, env)
            return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[f.op]
        if isinstance(f, Truth):
            return z3.BoolVal(f.value, self.ctx)
        if isinstance(f, And):
            return _connective(z3.Z3_mk_and, z3.And, [self.formula(a, env) for a in f.args])
        if isinstance(f, Or):
            return _connective(z3.Z3_mk_or, z3.Or, [self.formula(a, env) for a in f.args])
        if isinstance(f, Not):
            return z3.Not(self.formula(f.arg, env))
        if isinstance(f, Implies):
            return z3.Implies(self.formula(f.left, env), self.formula(f.right, env))
        if isinstance(f, Iff):
            return self.formula(f.left, env) == self.formula(f.right, env)
        if isinstance(f, (Exists, Forall)):
            new_env = dict(env)
            bound = []
            for v in f.vars:
                c = z3.Const(f"{v.name}!{len(new_env)}", self.T)
                new_env[v] = c
                bound.append(c)
            body = self.formula(f.body, new_env)
            return z3.Exists(bound, body) if isinstance(f, Exists) else z3.ForAll(bound, body)
        raise TypeError(f"not a formula: {f!r}")

    # -- background theory
    def background(self) -> list[tuple[str, z3.BoolRef]]:
        out: list[tuple[str, z3.BoolRef]] = []
        consts = list(self.consts.values())
        if len(consts) > 1:
            out.append(("unique names", z3.Distinct(*consts)))
        for i, fact in enumerate(self.facts):
            out.append((f"literal value {i}", fact))
        x, y, z = z3.Consts("bx by bz", self.T)
        names = {name for (name, ar) in self.preds if ar == 2}
        for name in sorted(n for n in names if n.endswith(("+", "*"))):
            base = name[:-1]
            p, plus = self.pred(base, 2), self.pred(base + "+", 2)
            out.append((f"{base}+ includes {base}", z3.ForAll([x, y], z3.Implies(p(x, y), plus(x, y)))))
            out.append((f"{base}+ is transitive", z3.ForAll([x, y, z], z3.Implies(
                z3.And(plus(x, y), plus(y, z)), plus(x, z)))))
            if name.endswith("*"):
                star = self.pred(name, 2)
                out.append((f"{base}* is = or {base}+", z3.ForAll([x, y], star(x, y) == z3.Or(x == y, plus(x, y)))))
        if ("triple", 3) in self.preds:
            triple = self.preds[("triple", 3)]
            for name in sorted(names):
                if name.endswith(("+", "*")) or ":" not in name and not name.startswith("<"):
                    continue
                pc = self.const(IRI(name))
                p = self.preds[(name, 2)]
                out.append((f"triple link {name}", z3.ForAll([x, y], p(x, y) == triple(x, pc, y))))
        return _dedupe_named(out)


def _ast_array(args: Sequence[z3.ExprRef]):
    arr = (z3.Ast * len(args))()
    for i, a in enumerate(args):
        arr[i] = a.as_ast()
    return arr


def _app(f: z3.FuncDeclRef, args: Sequence[z3.ExprRef], kind: type) -> z3.ExprRef:
    """``f(*args)`` without z3.py's per-argument sort checks and coercions (the encoder only
    applies its own declarations to terms of the declared sort): the same term, built in a
    fraction of the time, which matters because encoding took as long as solving."""
    ctx = f.ctx
    return kind(z3.Z3_mk_app(ctx.ref(), f.as_ast(), len(args), _ast_array(args)), ctx)


def _connective(mk, slow, args: Sequence[z3.BoolRef]) -> z3.BoolRef:
    """``z3.And`` / ``z3.Or`` over Boolean expressions of one context, without the coercions."""
    if not args:
        return slow(*args)
    ctx = args[0].ctx
    return z3.BoolRef(mk(ctx.ref(), len(args), _ast_array(args)), ctx)


def _dedupe_named(items: list[tuple[str, z3.BoolRef]]) -> list[tuple[str, z3.BoolRef]]:
    seen: set[str] = set()
    out = []
    for name, e in items:
        if name not in seen:
            seen.add(name)
            out.append((name, e))
    return out


def _real(d: Decimal, ctx) -> z3.ArithRef:
    return z3.RealVal(str(d), ctx)


# --------------------------------------------------------------------------------------------
# Entailment
# --------------------------------------------------------------------------------------------


def _formula_of(p: Premise) -> Formula:
    return p.formula


def _as_premises(premises: Iterable[Formula | Premise]) -> list[Premise]:
    out = []
    for i, p in enumerate(premises):
        out.append(p if isinstance(p, Premise) else Premise(f"premise {i}", p))
    return out


class ProverContext:
    """A Z3 context for a group of checks (those of one question/query pair).  Z3's resource
    counter, and with it every "resource limit" verdict, depends on the terms a context
    already holds; checks in their own context see nothing of earlier groups, so the same
    group of checks does the same work whatever the process checked before (the order in
    which an audit's workers meet the pairs).  The Z3 context is made on the first check that
    needs Z3 (a few milliseconds; the chase alone needs none); its terms are freed with it."""

    def __init__(self) -> None:
        self._ctx: z3.Context | None = None

    @property
    def ctx(self) -> z3.Context:
        if self._ctx is None:
            self._ctx = z3.Context()
        return self._ctx


def _z3_context(context: ProverContext | None, fresh: bool = False) -> z3.Context | None:
    """The Z3 context a check runs in: the given group's, a new one, or Z3's main context."""
    if context is not None:
        return context.ctx
    return z3.Context() if fresh else None


def entails(premises: Iterable[Formula | Premise], conclusion: Formula, *,
            timeout_ms: int = DEFAULT_TIMEOUT_MS, rlimit: int | None = None,
            fresh_context: bool = False, countermodel: bool = True, chase: bool = True,
            context: ProverContext | None = None, deadline: Deadline | None = None,
            select: bool | None = None) -> ProofResult:
    """Does ``premises |= conclusion`` hold?  Free variables are universally quantified
    (they are read as arbitrary constants shared by premises and conclusion).

    ``timeout_ms`` is a wall-clock limit, so a hard problem near it may be decided on an idle
    machine and not under load.  ``rlimit`` bounds Z3's deterministic resource counter
    (about 3 million units per second of solving on a 2020s CPU): a loaded machine makes the
    check slower, not different (pass a generous ``timeout_ms`` with it).  ``fresh_context``
    runs the check in a new Z3 context (about 20 ms more), so that not even the terms created
    by earlier checks in the process can steer the search: with ``rlimit``, same inputs and
    Z3 version give the same answer.  ``context`` runs it in a given :class:`ProverContext`
    instead (one per group of checks).

    ``chase`` first tries to build a finite countermodel by the chase (:mod:`verifier.chase`):
    for Horn premises that is much cheaper than Z3's model building, and it only ever
    refutes (proofs, with their unsat cores, always come from Z3).  A negated conclusion
    ``not F`` is refuted by a chase model of the premises and ``F``.

    ``deadline`` (:class:`verifier.limits.Deadline`) is checked after the chase and after
    the solver, whose timeout it shortens to what is left of it: once passed it raises
    :class:`verifier.limits.DeadlineExceeded`.  Never raises for solver problems: Z3 errors
    and limits give status ``unknown``.

    ``select`` leaves out the premises that cannot take part in a proof of ``conclusion``
    (:mod:`verifier.relevance`) before the chase and the solver; by default (``None``) it
    does when no countermodel is asked for (a countermodel of the premises kept says nothing
    of the others, so a described countermodel comes from all of them).
    """
    t0 = time.perf_counter()
    prem = _as_premises(premises)
    if select or (select is None and not countermodel):
        prem = select_relevant(prem, conclusion, _formula_of)
    if chase:
        model = _chase.chase([p.formula for p in prem], [conclusion], deadline=deadline)
        if deadline is not None:
            deadline.check("chase")
        truth = model.satisfies(conclusion) if model is not None else None
        refuting = model if _refutes(model, conclusion, truth) else _negation_model(prem, conclusion, deadline)
        if refuting is not None:
            return ProofResult("refuted", "countermodel found", (),
                               refuting.describe() if countermodel else "", (time.perf_counter() - t0) * 1000)
        if model is not None and model.idle and truth is True and model.proves(conclusion, truth):
            # true in the universal model: the rules that never fired are not needed, and Z3
            # finds the proof (and its unsat core) among the others much sooner
            needed = [p for i, p in enumerate(prem) if i not in model.idle]
            r = _solve(needed, conclusion, timeout_ms, rlimit, fresh_context, countermodel, context, deadline, t0)
            if r.status == "proved":
                return r
    return _solve(prem, conclusion, timeout_ms, rlimit, fresh_context, countermodel, context, deadline, t0)


def _solve(prem: Sequence[Premise], conclusion: Formula, timeout_ms: int, rlimit: int | None,
           fresh_context: bool, countermodel: bool, context: ProverContext | None,
           deadline: Deadline | None, t0: float) -> ProofResult:
    """Z3's answer to ``prem |= conclusion`` (see :func:`entails`); ``t0``: when the check began."""
    try:
        enc = _Encoder(_z3_context(context, fresh_context))
        solver = z3.Solver(ctx=enc.ctx)
        cut = deadline.solver_ms(int(timeout_ms)) if deadline is not None else int(timeout_ms)
        solver.set("timeout", cut)
        if rlimit is not None:
            solver.set("rlimit", int(rlimit))
        tracked: dict[str, str] = {}
        encoded = []
        for i, p in enumerate(prem):
            encoded.append((p.name, enc.formula(p.formula, {})))
        goal = enc.formula(conclusion, {})
        for i, (name, e) in enumerate(encoded):
            label = f"P{i}"
            tracked[label] = name
            solver.assert_and_track(e, label)
        solver.add(z3.Not(goal))
        for name, e in enc.background():
            solver.add(e)
        before = _resource_count(solver)
        res = solver.check()
        ms = (time.perf_counter() - t0) * 1000
        work = _resource_count(solver) - before
        if deadline is not None:
            deadline.check("proof", expired=_cut_short(solver, res, ms, cut, int(timeout_ms)))
        if res == z3.unsat:
            in_core = {str(c) for c in solver.unsat_core()}
            # in the order of the premises: Z3's core order varies from run to run
            core = tuple(name for label, name in tracked.items() if label in in_core)
            return ProofResult("proved", "", core, "", ms, work)
        if res == z3.sat:
            cm = _countermodel(solver.model(), enc) if countermodel else ""
            return ProofResult("refuted", "countermodel found", (), cm, ms, work)
        return ProofResult("unknown", _unknown_reason(solver, ms, timeout_ms, rlimit), (), "", ms, work)
    except z3.Z3Exception as e:
        return ProofResult("unknown", f"z3 error: {e}", (), "", (time.perf_counter() - t0) * 1000)
    except (TypeError, ValueError, RecursionError) as e:
        return ProofResult("unknown", f"cannot encode: {type(e).__name__}: {e}", (), "",
                           (time.perf_counter() - t0) * 1000)


def refuted_in_chase(premises: Iterable[Formula | Premise], conclusions: Sequence[Formula], *,
                     deadline: Deadline | None = None) -> list[bool]:
    """Which of ``conclusions`` one chase model of all ``premises`` refutes (false there, or
    false for some filling of its open numbers: :func:`_refutes`), without the solver.  A
    conclusion refuted here does not follow from the premises; ``False`` says nothing (no
    model, or the conclusion is true or undecided in it).  For many candidate conclusions of
    which few follow (the alignments of a reading), one chase instead of one per conclusion.
    ``deadline``: checked after the chase."""
    if not conclusions:
        return []
    prem = _as_premises(premises)
    model = _chase.chase([p.formula for p in prem], conclusions, deadline=deadline)
    if deadline is not None:
        deadline.check("chase")
    return [_refutes(model, c) for c in conclusions]


#: the bounds of a chase with defeaters: a defeater that holds of every element adds a witness
#: for each, and past these bounds Z3 (which gets the problem next) is the cheaper way
DEFEATER_LIMITS = Limits(max_facts=4000, max_steps=20_000)


def _negation_model(prem: Sequence[Premise], conclusion: Formula, deadline: Deadline | None):
    """For a conclusion with negated parts: a chase model of the premises and of what defeats
    it (:func:`verifier.chase.defeat.defeaters`: ``F`` for ``not F``; ``forall xs. A -> G``
    for ``exists xs. A & not G``) in which it is false, else ``None``.  The least model of
    the premises leaves ``F`` / ``G`` false whenever they do not force it, so it cannot refute
    such a conclusion; the premises rarely entail a negation, and Z3 often spends its whole
    budget building a model of ``F``."""
    extra = defeaters(conclusion)
    if not extra:
        return None
    model = _chase.chase([p.formula for p in prem] + extra, [conclusion], limits=DEFEATER_LIMITS, deadline=deadline)
    return model if _refutes(model, conclusion) else None


def _refutes(model: FiniteModel | None, conclusion: Formula, truth: bool | None = None) -> bool:
    """Whether a chase model of the premises refutes ``conclusion``: it is false there, or
    its value there depends only on the model's open numbers and some filling of them makes
    it false (:func:`verifier.chase.values.falsifiable`).  ``truth``: its value in the model
    when the caller has it."""
    if model is None:
        return False
    if truth is None:
        truth = model.satisfies(conclusion)
    return truth is False or truth is None and falsifiable(model, conclusion)


def _resource_count(solver: z3.Solver) -> int:
    """Z3's resource counter for the solver's context (it only grows; the difference over a
    check is the work the check did)."""
    try:
        return int(solver.statistics().get_key_value("rlimit count"))
    except (z3.Z3Exception, KeyError, TypeError, ValueError):
        return 0


def _cut_short(solver: z3.Solver, res: Any, ms: float, cut: int, timeout_ms: int) -> bool:
    """Whether an ``unknown`` is the pair's deadline's doing: the call's timeout was cut to
    what was left of the deadline (:meth:`verifier.limits.Deadline.solver_ms`) and the call
    ran out of that time -- not Z3 giving up, nor its resource limit, which end a check as
    ``unknown`` too and leave the rest of the pair's time to use."""
    if res != z3.unknown or cut >= timeout_ms:
        return False
    reason = solver.reason_unknown() or ""
    return ("timeout" in reason or "canceled" in reason) and ms >= 0.9 * cut


def _unknown_reason(solver: z3.Solver, ms: float, timeout_ms: int, rlimit: int | None) -> str:
    reason = solver.reason_unknown() or "unknown"
    log.debug("z3 unknown: %s", reason)
    if rlimit is not None and ("resource limit" in reason
                               or ("canceled" in reason and ms < 0.9 * timeout_ms)):
        reason = f"resource limit {rlimit} reached"
    elif "timeout" in reason or "canceled" in reason:
        reason = f"timeout after {timeout_ms} ms"
    return reason


def entails_each(premises: Iterable[Formula | Premise], conclusions: Sequence[Formula], *,
                 timeout_ms: int = DEFAULT_TIMEOUT_MS, rlimit: int | None = None,
                 chase: bool = True, context: ProverContext | None = None,
                 deadline: Deadline | None = None, select: bool = True) -> list[ProofResult]:
    """:func:`entails` for several conclusions from the same premises, one result per
    conclusion (no unsat cores, no countermodels).  The premises are encoded and asserted
    once and each conclusion is checked in its own solver scope, which is several times
    cheaper than separate calls when the premises are many (diagnosing a query atom by atom).
    ``timeout_ms`` and ``rlimit`` bound each check (see :func:`entails`).  Never raises for
    solver problems.  ``chase``: see :func:`entails`; the chase model is built once and
    refutes every conclusion false in it and proves every positive conclusion true in it when
    it is a universal model (:meth:`verifier.chase.FiniteModel.proves`: no unsat core is asked
    here); the others get a chase of the premises they can need (with ``select``), then one
    with the defeaters of their negated parts (:func:`verifier.chase.defeaters`); what is
    left goes to Z3.  ``context``, ``deadline``: see
    :func:`entails` (the deadline is checked after each conclusion).  ``select``: each
    conclusion that goes to Z3 is checked with the premises its proof can need
    (:mod:`verifier.relevance`, as :func:`entails` does without a countermodel); conclusions
    that need the same premises share a solver."""
    t0 = time.perf_counter()
    prem = _as_premises(premises)
    if not conclusions:
        return []
    if select and not chase:
        out: list[ProofResult | None] = [None] * len(conclusions)
        for keep, idx in _premise_groups(prem, conclusions, range(len(conclusions)), True).items():
            rs = entails_each([prem[k] for k in keep], [conclusions[i] for i in idx], timeout_ms=timeout_ms,
                              rlimit=rlimit, chase=False, context=context, deadline=deadline, select=False)
            for i, r in zip(idx, rs):
                out[i] = r
        return out  # type: ignore[return-value]
    results: list[ProofResult | None] = [None] * len(conclusions)
    if chase:
        model = _chase.chase([p.formula for p in prem], conclusions, deadline=deadline)
        if deadline is not None:
            deadline.check("chase")
        if model is not None:
            _decide_in(model, conclusions, range(len(conclusions)), results)
        # the others with the premises each can need (a countermodel of those extends to all
        # of them, a proof from them is a proof): a model of that smaller problem, then one
        # with the defeaters of each conclusion's negated parts
        groups = _premise_groups(prem, conclusions, [i for i, r in enumerate(results) if r is None], select)
        for keep, idx in groups.items():
            sub = [prem[k] for k in keep]
            if len(keep) < len(prem):  # else the same problem as the model above
                m2 = _chase.chase([p.formula for p in sub], [conclusions[i] for i in idx], deadline=deadline)
                if m2 is not None:
                    _decide_in(m2, conclusions, idx, results)
            for i in idx:
                if results[i] is None:
                    t1 = time.perf_counter()
                    if _negation_model(sub, conclusions[i], deadline) is not None:
                        results[i] = ProofResult("refuted", "countermodel found", (), "",
                                                 (time.perf_counter() - t1) * 1000)
            if deadline is not None:
                deadline.check("chase")
        # what is left goes to Z3, a solver per group (its premises were selected above), the
        # groups in the order of their first conclusion left
        left = [(keep, [i for i in idx if results[i] is None]) for keep, idx in groups.items()]
        for keep, idx in sorted((g for g in left if g[1]), key=lambda g: g[1][0]):
            rest = entails_each([prem[k] for k in keep], [conclusions[i] for i in idx], timeout_ms=timeout_ms,
                                rlimit=rlimit, chase=False, context=context, deadline=deadline, select=False)
            for i, r in zip(idx, rest):
                results[i] = r
        return results  # type: ignore[return-value]
    try:
        enc = _Encoder(_z3_context(context))
        solver = z3.Solver(ctx=enc.ctx)
        solver.set("timeout", int(timeout_ms))
        if rlimit is not None:
            solver.set("rlimit", int(rlimit))  # counted from the start of each check
        encoded = [enc.formula(p.formula, {}) for p in prem]
        goals = [enc.formula(c, {}) for c in conclusions]
        for e in encoded:
            solver.add(e)
        for _, e in enc.background():
            solver.add(e)
    except z3.Z3Exception as e:
        return [ProofResult("unknown", f"z3 error: {e}")] * len(conclusions)
    except (TypeError, ValueError, RecursionError) as e:
        return [ProofResult("unknown", f"cannot encode: {type(e).__name__}: {e}")] * len(conclusions)
    out = []
    for i, goal in enumerate(goals):
        t1 = time.perf_counter()
        try:
            # each negated conclusion is guarded by its own literal and checked under that
            # assumption only, so the next conclusion does not see it.  (Not push/pop: z3's
            # push internalises the premises outside the check's timeout, and hung for minutes
            # on a query with thirteen filters over a variable property.)
            guard = z3.Bool(f"__goal_{i}", enc.ctx)
            solver.add(z3.Implies(guard, z3.Not(goal)))
            cut = deadline.solver_ms(int(timeout_ms)) if deadline is not None else int(timeout_ms)
            if cut != int(timeout_ms):
                solver.set("timeout", cut)
            before = _resource_count(solver)
            res = solver.check(guard)
            ms = (time.perf_counter() - t1) * 1000
            work = _resource_count(solver) - before
            if deadline is not None:
                deadline.check("proof", expired=_cut_short(solver, res, ms, cut, int(timeout_ms)))
            if res == z3.unsat:
                out.append(ProofResult("proved", "", (), "", ms, work))
            elif res == z3.sat:
                out.append(ProofResult("refuted", "countermodel found", (), "", ms, work))
            else:
                out.append(ProofResult("unknown", _unknown_reason(solver, ms, timeout_ms, rlimit), (), "", ms, work))
        except z3.Z3Exception as e:
            out.append(ProofResult("unknown", f"z3 error: {e}", (), "", (time.perf_counter() - t1) * 1000))
    log.debug("entails_each: %d conclusions in %.0f ms", len(goals), (time.perf_counter() - t0) * 1000)
    return out


def _premise_groups(prem: Sequence[Premise], conclusions: Sequence[Formula], which: Iterable[int],
                    select: bool) -> dict[tuple[int, ...], list[int]]:
    """The conclusions of ``which`` grouped by the premises (indices) each can need
    (:mod:`verifier.relevance`; all of them without ``select``), groups in the order of
    their first conclusion."""
    formulas = [p.formula for p in prem]
    groups: dict[tuple[int, ...], list[int]] = {}
    for i in which:
        keep = tuple(relevant_indices(formulas, conclusions[i])) if select else tuple(range(len(prem)))
        groups.setdefault(keep, []).append(i)
    return groups


def _decide_in(model: FiniteModel, conclusions: Sequence[Formula], which: Iterable[int],
               results: list[ProofResult | None]) -> None:
    """Fill ``results[i]`` for the conclusions of ``which`` that the chase ``model`` refutes,
    or proves as a universal model (:meth:`verifier.chase.FiniteModel.proves`)."""
    for i in which:
        if results[i] is not None:
            continue
        t1 = time.perf_counter()
        c = conclusions[i]
        truth = model.satisfies(c)
        if _refutes(model, c, truth):
            results[i] = ProofResult("refuted", "countermodel found", (), "", (time.perf_counter() - t1) * 1000)
        elif truth is True and model.proves(c, truth):
            results[i] = ProofResult("proved", "true in the chase's universal model", (), "",
                                     (time.perf_counter() - t1) * 1000)


def satisfiable(formulas: Iterable[Formula | Premise], *, timeout_ms: int = DEFAULT_TIMEOUT_MS) -> ProofResult:
    """Is the conjunction of ``formulas`` consistent?  ``proved`` means unsatisfiable (the
    formulas contradict each other; ``used`` is the core), ``refuted`` means a model exists."""
    return entails(formulas, Truth(False), timeout_ms=timeout_ms)


def _countermodel(model: z3.ModelRef, enc: _Encoder, max_facts: int = 12, max_elems: int = 8) -> str:
    """A few readable facts of a model: values of the free variables and the atoms true over
    the model's elements (named after the constants they interpret, else e0, e1 ...)."""
    try:
        names: dict[str, str] = {}
        for c in enc.consts.values():
            names.setdefault(str(model.eval(c, model_completion=True)), enc.const_names[str(c)])
        universe = list(model.get_universe(enc.T) or [])
        anon = 0
        for e in universe:
            if str(e) not in names:
                names[str(e)] = f"e{anon}"
                anon += 1
        elems = sorted(universe, key=lambda e: names[str(e)].startswith("e"))[:max_elems]
        parts = []
        for var, c in enc.free.items():
            parts.append(f"?{var.name} = {names.get(str(model.eval(c, model_completion=True)), '?')}")
        facts = []
        for (pname, arity), decl in enc.preds.items():
            if arity == 0 or arity > 3:
                continue
            for tup in itertools.islice(itertools.product(elems, repeat=arity), 512):
                if z3.is_true(model.eval(decl(*tup), model_completion=True)):
                    facts.append(f"{pname}({', '.join(names[str(e)] for e in tup)})")
                    if len(facts) >= max_facts:
                        break
            if len(facts) >= max_facts:
                break
        parts += facts or ["no atom is true"]
        return "; ".join(parts)
    except Exception as e:  # a summary must never break a verdict
        log.debug("countermodel summary failed: %s", e)
        return ""


# --------------------------------------------------------------------------------------------
# Query equivalence
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class EquivalenceResult:
    """Outcome of :func:`equivalent`: ``equivalent`` is True, False, or None when undecided
    (a solver timeout); ``reason`` explains a False/None."""

    equivalent: bool | None
    reason: str = ""
    forward: ProofResult | None = None
    backward: ProofResult | None = None

    def __bool__(self) -> bool:
        return bool(self.equivalent)


def _aligned_keys(q: Query, other: Query) -> tuple[Var, ...]:
    """``q.key_vars`` in the order used to align two queries: as projected, except that when
    both queries are ``SELECT *`` (column order without meaning) the answer variables are
    ordered by where they first occur in the pattern's order normal form."""
    if not (q.select_star and other.select_star):
        return q.key_vars

    n = len(q.answer_vars)
    rank = {v: i for i, v in enumerate(dict.fromkeys(vars_in_order(order_normal_form(q.pattern))))}
    head = sorted(q.key_vars[:n], key=lambda v: rank.get(v, len(rank)))
    return tuple(head) + tuple(q.key_vars[n:])


def equivalent(a: Query, b: Query, *, timeout_ms: int = DEFAULT_TIMEOUT_MS,
               strict_distinct: bool = False, rlimit: int | None = None,
               fresh_context: bool = False, context: ProverContext | None = None) -> EquivalenceResult:
    """Semantic equivalence of two queries: same form, same aggregates and solution
    modifiers, and two-way entailment of the patterns with the key variables (answer
    variables first) aligned by position.

    DISTINCT/REDUCED are compared only with ``strict_distinct`` (the verifier reasons over
    answer sets).  ``timeout_ms``, ``rlimit`` and ``fresh_context`` apply to each direction,
    see :func:`entails` (``rlimit`` makes the outcome independent of the machine's load);
    ``context``: both directions in this :class:`ProverContext` (with ``rlimit``, the outcome
    then depends on the pair only, not on what the process checked before).
    """
    if a.form != b.form:
        return EquivalenceResult(False, f"different query forms ({a.form} vs {b.form})")
    if len(a.answer_vars) != len(b.answer_vars):
        return EquivalenceResult(False, f"different numbers of answer variables ({len(a.answer_vars)} vs {len(b.answer_vars)})")
    if len(a.key_vars) != len(b.key_vars):
        return EquivalenceResult(False, f"different numbers of aggregated/ordered variables ({len(a.key_vars)} vs {len(b.key_vars)})")
    if strict_distinct and (a.distinct, a.reduced) != (b.distinct, b.reduced):
        return EquivalenceResult(False, "different DISTINCT/REDUCED modifiers")
    if (a.limit, a.offset) != (b.limit, b.offset):
        return EquivalenceResult(False, "different LIMIT/OFFSET")
    # align b's key variables with a's, after moving b's variables out of a's way
    fresh = {v: Var(f"__b_{v.name}") for v in free_vars(b.pattern) | set(b.key_vars)}
    to_a = {fresh[vb]: va for vb, va in zip(_aligned_keys(b, a), _aligned_keys(a, b))}

    def align_term(t):
        return substitute_term(substitute_term(t, fresh), to_a)

    def align(f: Formula) -> Formula:
        return substitute(substitute(f, fresh), to_a)

    # aggregates of the projection, position by position
    pa = [p for p in a.projection if p.aggregate is not None]
    pb = [p for p in b.projection if p.aggregate is not None]
    if len(pa) != len(pb):
        return EquivalenceResult(False, "different aggregates")
    for x, y in zip(pa, pb):
        ax, ay = x.aggregate, y.aggregate
        if ax.func != ay.func or ax.distinct != ay.distinct:
            return EquivalenceResult(False, f"different aggregates ({ax.func} vs {ay.func})")
        if (ax.arg is None) != (ay.arg is None) or (ax.arg is not None and ax.arg != align_term(ay.arg)):
            return EquivalenceResult(False, f"aggregate {ax.func} over different variables")
    if len(a.group_by) != len(b.group_by) or any(x != align_term(y) for x, y in zip(a.group_by, b.group_by)):
        return EquivalenceResult(False, "different GROUP BY")
    if len(a.order_by) != len(b.order_by):
        return EquivalenceResult(False, "different ORDER BY")
    for x, y in zip(a.order_by, b.order_by):
        if x.descending != y.descending:
            return EquivalenceResult(False, "different ORDER BY direction")
        ex, ey = x.expr, y.expr
        if isinstance(ex, Aggregate) or isinstance(ey, Aggregate):
            if not (isinstance(ex, Aggregate) and isinstance(ey, Aggregate) and ex.func == ey.func
                    and (ex.arg is None) == (ey.arg is None)
                    and (ex.arg is None or ex.arg == align_term(ey.arg))):
                return EquivalenceResult(False, "different ORDER BY")
        elif ex != align_term(ey):
            return EquivalenceResult(False, "different ORDER BY keys")
    axioms = list(a.axioms) + [align(f) for f in b.axioms]
    ga, gb = a.pattern, align(b.pattern)
    if (a.having is None) != (b.having is None):
        return EquivalenceResult(False, "different HAVING")
    if a.having is not None:
        ga = ga & a.having
        gb = gb & align(b.having)
    fwd = entails(axioms + [ga], gb, timeout_ms=timeout_ms, rlimit=rlimit,
                  fresh_context=fresh_context, countermodel=False, context=context)
    if fwd.status == "refuted":
        return EquivalenceResult(False, "the first query's pattern does not entail the second's", fwd)
    bwd = entails(axioms + [gb], ga, timeout_ms=timeout_ms, rlimit=rlimit,
                  fresh_context=fresh_context, countermodel=False, context=context)
    if bwd.status == "refuted":
        return EquivalenceResult(False, "the second query's pattern does not entail the first's", fwd, bwd)
    if fwd.proved and bwd.proved:
        return EquivalenceResult(True, "", fwd, bwd)
    return EquivalenceResult(None, fwd.reason or bwd.reason or "undecided", fwd, bwd)
