"""From formulas to the chase's facts and rules (:class:`Compiler`), the background rules of
closures and the ``triple`` link, and what the chase builds in place of an asserted ``p*``."""

from __future__ import annotations

from dataclasses import dataclass

from verifier.logic import (
    ARITHMETIC_FUNCS, And, Atom, Compare, Eq, Exists, Forall, Formula, Func, Iff, Implies, IRI,
    Literal, Not, Or, Term, Truth, Var, is_stringy, iter_terms,
)
from verifier.chase.model import Bail, FiniteModel, Limits, Lit, Outside

__all__ = ["NEGATED", "Rule", "Compiler", "Recorded", "record", "conjuncts", "closure_rules", "predicates_of",
           "has_func", "strengthened"]


#: ``not (a op b)`` as ``a op' b`` (values are totally ordered)
NEGATED = {"<": ">=", "<=": ">", ">": "<=", ">=": "<"}


@dataclass
class Rule:
    name: str
    nvars: int
    body: list[list[Lit]]          # disjunction of conjunctions
    head: list[Lit] | None         # None: the head is false
    head_vars: tuple[int, ...]      # existential slots of the head (fresh elements)
    open_vars: tuple[int, ...]      # universal slots bound by no body literal (range over the domain)
    #: what matching the body reads of a model: the facts of these predicates, and (``domain``)
    #: its elements, when the body has open variables, equalities or named elements, whose
    #: matches change as elements are made or merged
    preds: tuple = ()
    domain: bool = True


def _reads(body: list[Lit], open_vars: tuple[int, ...]) -> tuple[tuple, bool]:
    preds: set = set()
    domain = bool(open_vars)
    for lit in body:
        if lit[0] == "atom":
            preds.add(lit[1])
            domain |= any(t[0] == "e" for t in lit[2])
        else:
            domain = True
    return tuple(sorted(preds)), domain


def conjuncts(f: Formula, comparisons: bool = False) -> list[Formula] | None:
    """``f`` as a list of atoms and equalities (and, with ``comparisons``, comparisons and
    negated comparisons), or None."""
    if isinstance(f, (Atom, Eq)) or comparisons and (
            isinstance(f, Compare) or isinstance(f, Not) and isinstance(f.arg, Compare)):
        return [f]
    if isinstance(f, Truth) and f.value:
        return []
    if isinstance(f, And):
        out: list[Formula] = []
        for a in f.args:
            c = conjuncts(a, comparisons)
            if c is None:
                return None
            out += c
        return out
    return None


class Compiler:
    def __init__(self, model: FiniteModel, limits: Limits) -> None:
        self.m = model
        self.limits = limits
        self.rules: list[Rule] = []
        self.env: dict[Var, int] = {}
        #: what is left out of the chase: formulas with the elements of their free variables
        self.deferred: list[tuple[Formula, dict[Var, int]]] = []

    def replay(self, rec: Recorded, name: str) -> None:
        """Do what compiling the premise ``rec`` records (:func:`record`) did: the same
        elements made in the same order, facts, merges, rules (named ``name``) and parts left
        out; then raise what it raised."""
        m = self.m
        find = m.find
        els: list[int] = []
        symbols = rec.symbols
        for op in rec.ops:
            kind = op[0]
            if kind == "sym":
                what = symbols[op[1]]
                if what[0] == "new":
                    els.append(m._new(what[1], what[2]))
                elif what[0] == "const":
                    els.append(m.const(what[1]))
                elif what[0] == "var":
                    els.append(m.var(what[1]))
                else:
                    els.append(m._term(what[1], {}))
            elif kind == "add":
                m.add(op[1], tuple(find(els[s]) for s in op[2]))
            elif kind == "merge":
                m.merge(els[op[1]], els[op[2]])
            else:
                c = op[1]
                m.stated.append((c[0], find(els[c[1]]), find(els[c[2]]), c[3]))
        for r, body_fixed, head_fixed in zip(rec.rules, rec.fixed[0::2], rec.fixed[1::2]):
            body = r.body[0] if body_fixed else [_lit_on(lit, els) for lit in r.body[0]]
            head = r.head if head_fixed else [_lit_on(lit, els) for lit in r.head]
            self.rules.append(Rule(name, r.nvars, [body], head, r.head_vars, r.open_vars, r.preds, r.domain))
        for g, env in rec.deferred:
            self.deferred.append((g, {v: els[s] for v, s in env.items()}))
        if rec.error is not None:
            raise rec.error[0](*rec.error[1])

    # a premise at the top level: facts and rules
    def premise(self, f: Formula, name: str) -> None:
        m = self.m
        if isinstance(f, Truth):
            if not f.value:
                raise Bail("a premise is false")
            return
        if isinstance(f, Atom):
            m.add((f.pred, len(f.args)), tuple(m._term(a, self.env) for a in f.args))
            return
        if isinstance(f, Eq):
            m.merge(m._term(f.left, self.env), m._term(f.right, self.env))
            return
        if isinstance(f, Compare) or isinstance(f, Not) and isinstance(f.arg, Compare):
            c = f if isinstance(f, Compare) else f.arg
            op = c.op if c is f else NEGATED[c.op]
            m.stated.append((op, m._term(c.left, self.env), m._term(c.right, self.env),
                             is_stringy(c.left) or is_stringy(c.right)))
            return
        if isinstance(f, And):
            for a in f.args:
                try:
                    self.premise(a, name)
                except Outside:
                    # what it added so far is part of what it states, and the chase's result
                    # is checked against all of it
                    self.deferred.append((a, dict(self.env)))
            return
        if isinstance(f, Exists):
            for v in f.vars:
                self.env[v] = m._new(v.name, False)
            self.premise(f.body, name)
            return
        if isinstance(f, (Forall, Implies, Iff)):
            self.rule(f, name, {}, 0)
            return
        if isinstance(f, Not):
            self.rule(Implies(f.arg, Truth(False)), name, {}, 0)
            return
        raise Outside(f"premise not Horn: {type(f).__name__}")

    def _t(self, t: Term, scope: dict[Var, int]):
        if isinstance(t, Var):
            slot = scope.get(t)
            if slot is not None:
                return ("v", slot)
            e = self.env.get(t)
            if e is None:
                e = self.m.var(t)
            return ("e", e)
        if isinstance(t, (IRI, Literal)):
            return ("e", self.m.const(t))
        raise Outside(f"function term {t}")

    def rule(self, f: Formula, name: str, scope: dict[Var, int], nvars: int,
             body: list[list[Lit]] | None = None) -> None:
        """``f`` under universal ``scope`` (slots) and an accumulated ``body`` (DNF)."""
        body = body if body is not None else [[]]
        if isinstance(f, Forall):
            scope = dict(scope)
            for v in f.vars:
                scope[v] = nvars
                nvars += 1
            self.rule(f.body, name, scope, nvars, body)
            return
        if isinstance(f, Implies):
            scope2, nvars2, dnf = self.body(f.left, scope, nvars)
            combined = [a + b for a in body for b in dnf]
            if len(combined) > self.limits.max_disjuncts:
                raise Outside("body too disjunctive")
            self.rule(f.right, name, scope2, nvars2, combined)
            return
        if isinstance(f, Not):
            self.rule(Implies(f.arg, Truth(False)), name, scope, nvars, body)
            return
        if isinstance(f, Iff):
            self.rule(Implies(f.left, f.right), name, scope, nvars, body)
            self.rule(Implies(f.right, f.left), name, scope, nvars, body)
            return
        if isinstance(f, And) and not all(isinstance(a, (Atom, Eq)) for a in f.args):
            for a in f.args:
                self.rule(a, name, scope, nvars, body)
            return
        # the head: false, or exists y. conjunction of atoms / equalities
        if isinstance(f, Truth):
            if f.value:
                return
            self._add(name, nvars, body, None, (), scope)
            return
        head_vars: list[int] = []
        if isinstance(f, Exists):
            scope = dict(scope)
            for v in f.vars:
                scope[v] = nvars
                head_vars.append(nvars)
                nvars += 1
            f = f.body
        lits = conjuncts(f, comparisons=True)
        if lits is None:
            raise Outside(f"rule head not Horn: {type(f).__name__}")
        head = [self._lit(a, scope) for a in lits]
        self._add(name, nvars, body, head, tuple(head_vars), scope)

    def body(self, f: Formula, scope: dict[Var, int], nvars: int) -> tuple[dict[Var, int], int, list[list[Lit]]]:
        """A rule body as a disjunction of conjunctions; its existentials become universal
        slots of the rule."""
        if isinstance(f, (Atom, Eq)):
            return scope, nvars, [[self._lit(f, scope)]]
        if isinstance(f, Truth):
            return scope, nvars, ([[]] if f.value else [])
        if isinstance(f, Exists):
            scope = dict(scope)
            for v in f.vars:
                scope[v] = nvars
                nvars += 1
            return self.body(f.body, scope, nvars)
        if isinstance(f, And):
            dnf: list[list[Lit]] = [[]]
            for a in f.args:
                scope, nvars, d = self.body(a, scope, nvars)
                dnf = [x + y for x in dnf for y in d]
                if len(dnf) > self.limits.max_disjuncts:
                    raise Outside("body too disjunctive")
            return scope, nvars, dnf
        if isinstance(f, Or):
            out: list[list[Lit]] = []
            for a in f.args:
                scope, nvars, d = self.body(a, scope, nvars)
                out += d
            if len(out) > self.limits.max_disjuncts:
                raise Outside("body too disjunctive")
            return scope, nvars, out
        raise Outside(f"rule body not Horn: {type(f).__name__}")

    def _lit(self, f: Formula, scope: dict[Var, int]) -> Lit:
        if isinstance(f, Compare) or isinstance(f, Not) and isinstance(f.arg, Compare):
            c = f if isinstance(f, Compare) else f.arg
            return ("cmp", c.op if c is f else NEGATED[c.op], self._t(c.left, scope), self._t(c.right, scope),
                    is_stringy(c.left) or is_stringy(c.right))
        if isinstance(f, Atom):
            return ("atom", (f.pred, len(f.args)), tuple(self._t(a, scope) for a in f.args))
        if isinstance(f, Eq):
            return ("eq", self._t(f.left, scope), self._t(f.right, scope))
        raise Outside(f"not an atom: {type(f).__name__}")

    def _add(self, name, nvars, body, head, head_vars, scope) -> None:
        for conj in body:
            seen: set[int] = set()
            for lit in conj:
                for t in (lit[2] if lit[0] == "atom" else lit[1:]):
                    if t[0] == "v":
                        seen.add(t[1])
            open_vars = tuple(s for s in range(nvars) if s not in seen and s not in head_vars)
            preds, domain = _reads(conj, open_vars)
            self.rules.append(Rule(name, nvars, [conj], head, tuple(head_vars), open_vars, preds, domain))


class _Recorder:
    """Stands in for the model while a premise compiles once for every chase of it: the
    elements are symbols (indexes of :attr:`Recorded.symbols`) and what the compiler does to
    the model is written down (:attr:`Recorded.ops`) to be done again in each chase's model."""

    def __init__(self) -> None:
        self.symbols: list[tuple] = []  # ("new", name, rigid) | ("const", term) | ("var", v) | ("free", v)
        self.ops: list[tuple] = []      # ("sym", i) | ("add", key, args) | ("merge", a, b) | ("stated", ...)
        self.memo: dict[tuple, int] = {}
        self.stated = self  # the compiler appends the comparisons it states

    def _symbol(self, what: tuple) -> int:
        i = self.memo.get(what) if what[0] != "new" else None
        if i is None:
            i = len(self.symbols)
            self.symbols.append(what)
            self.ops.append(("sym", i))
            if what[0] != "new":
                self.memo[what] = i
        return i

    def _new(self, name: str, rigid: bool) -> int:
        return self._symbol(("new", name, rigid))

    def const(self, t: Term) -> int:
        if not isinstance(t, (IRI, Literal)):
            raise Outside(f"function term {t}")
        return self._symbol(("const", t))

    def var(self, v: Var) -> int:
        return self._symbol(("var", v))

    def _term(self, t: Term, env: dict[Var, int]) -> int:
        if isinstance(t, Var):
            e = env.get(t)
            return e if e is not None else self._symbol(("free", t))
        return self.const(t)

    def add(self, key: tuple[str, int], args: tuple[int, ...]) -> bool:
        self.ops.append(("add", key, args))
        return True

    def merge(self, a: int, b: int) -> bool:
        self.ops.append(("merge", a, b))
        return True

    def append(self, comparison: tuple) -> None:
        self.ops.append(("stated", comparison))


@dataclass(frozen=True)
class Recorded:
    """A premise compiled once, its elements symbols: what it does to a model (``ops``,
    making the symbols' elements on the way), its rules and the parts it leaves out (terms
    ``("e", symbol)``, environments of symbols), and how the compilation ended: ``None``, or
    the exception it raised, as its class and arguments (:class:`Outside`: the premise is left
    out after what it did)."""

    symbols: tuple
    ops: tuple
    rules: tuple
    #: per rule, whether its body and whether its head name no element (kept as they are)
    fixed: tuple[bool, ...]
    deferred: tuple
    error: tuple[type[Bail], tuple] | None


def record(f: Formula, limits: Limits) -> Recorded:
    """``f`` compiled as a premise (:meth:`Compiler.premise`) once, for :meth:`Compiler.replay`."""
    rec = _Recorder()
    comp = Compiler(rec, limits)  # type: ignore[arg-type]  # the recorder has the model's interface
    error: tuple[type[Bail], tuple] | None = None
    try:
        comp.premise(f, "")
    except Bail as e:
        error = (type(e), e.args)
    fixed = tuple(x for r in comp.rules for x in (_fixed(r.body[0]), r.head is None or _fixed(r.head)))
    return Recorded(tuple(rec.symbols), tuple(rec.ops), tuple(comp.rules), fixed, tuple(comp.deferred), error)


def _on(t: tuple, els: list[int]) -> tuple:
    return ("e", els[t[1]]) if t[0] == "e" else t


def _lit_on(lit: Lit, els: list[int]) -> Lit:
    if lit[0] == "atom":
        return ("atom", lit[1], tuple(("e", els[t[1]]) if t[0] == "e" else t for t in lit[2]))
    if lit[0] == "eq":
        return ("eq", _on(lit[1], els), _on(lit[2], els))
    return ("cmp", lit[1], _on(lit[2], els), _on(lit[3], els), lit[4])


def _fixed(lits: list[Lit]) -> bool:
    """Whether literals name no element (the same in every model)."""
    return not any(t[0] == "e" for lit in lits
                   for t in (lit[2] if lit[0] == "atom" else lit[2:4] if lit[0] == "cmp" else lit[1:]))


def closure_rules(m: FiniteModel, preds: set[tuple[str, int]], heads: set[tuple[str, int]],
                   comp: Compiler) -> None:
    """The prover's background axioms for ``p+`` / ``p*`` and the ``triple`` link."""
    names = {n for (n, ar) in preds if ar == 2}
    x, y, z = Var("_cx"), Var("_cy"), Var("_cz")
    for name in sorted(n for n in names if n.endswith(("+", "*"))):
        base = name[:-1]
        p, plus = Atom(base, (x, y)), Atom(base + "+", (x, y))
        comp.rule(Forall((x, y), Implies(p, plus)), f"{base}+ includes {base}", {}, 0)
        comp.rule(Forall((x, y, z), Implies(And((plus, Atom(base + "+", (y, z)))), Atom(base + "+", (x, z)))),
                  f"{base}+ is transitive", {}, 0)
        if name.endswith("*"):
            if (name, 2) in heads:
                raise Bail(f"{name} asserted: its definition is not Horn")
            star = Atom(name, (x, y))
            comp.rule(Forall((x, y), Implies(plus, star)), f"{base}* includes {base}+", {}, 0)
            comp.rule(Forall((x,), Atom(name, (x, x))), f"{base}* is reflexive", {}, 0)
    if ("triple", 3) in preds:
        for name in sorted(names):
            if name.endswith(("+", "*")) or ":" not in name and not name.startswith("<"):
                continue
            comp.rule(Forall((x, y), Iff(Atom(name, (x, y)), Atom("triple", (x, IRI(name), y)))),
                      f"triple link {name}", {}, 0)


def predicates_of(f: Formula, out: set[tuple[str, int]], heads: set[tuple[str, int]], positive: bool = True) -> None:
    """Predicates of ``f``; ``heads``: those that occur where the formula asserts them."""
    if isinstance(f, Atom):
        out.add((f.pred, len(f.args)))
        if positive:
            heads.add((f.pred, len(f.args)))
    elif isinstance(f, (And, Or)):
        for a in f.args:
            predicates_of(a, out, heads, positive)
    elif isinstance(f, Not):
        predicates_of(f.arg, out, heads, not positive)
    elif isinstance(f, Implies):
        predicates_of(f.left, out, heads, not positive)
        predicates_of(f.right, out, heads, positive)
    elif isinstance(f, Iff):
        for g in (f.left, f.right):
            predicates_of(g, out, heads, True)
            predicates_of(g, out, heads, False)
    elif isinstance(f, (Exists, Forall)):
        predicates_of(f.body, out, heads, positive)


def has_func(f: Formula) -> bool:
    """Whether ``f`` has a function term other than arithmetic."""
    return any(isinstance(t, Func) and t.name not in ARITHMETIC_FUNCS for t in iter_terms(f))


def strengthened(f: Formula, positive: bool = True) -> Formula:
    """``f`` with every ``p*`` it asserts (a positive occurrence) replaced by ``p+``.  Every
    model of the result is a model of ``f`` (``p+`` implies ``p*``), and the chase can build
    it: ``p*`` is ``=`` or ``p+``, a disjunction, so an asserted ``p*`` leaves the fragment.
    ``f`` itself (the same object) when it asserts no ``p*``."""
    if isinstance(f, Atom):
        return Atom(f.pred[:-1] + "+", f.args) if positive and f.pred.endswith("*") and len(f.args) == 2 else f
    if isinstance(f, (And, Or)):
        args = tuple(strengthened(a, positive) for a in f.args)
        return f if all(x is y for x, y in zip(args, f.args)) else type(f)(args)
    if isinstance(f, Not):
        arg = strengthened(f.arg, not positive)
        return f if arg is f.arg else Not(arg)
    if isinstance(f, Implies):
        left, right = strengthened(f.left, not positive), strengthened(f.right, positive)
        return f if left is f.left and right is f.right else Implies(left, right)
    if isinstance(f, (Exists, Forall)):
        body = strengthened(f.body, positive)
        return f if body is f.body else type(f)(f.vars, body)
    return f  # Iff (both polarities), comparisons, equalities, truth
