"""Finite countermodels by the chase: a fast refuter for the prover's Horn-shaped problems.

Most entailment checks of the deductive verdict fail (the query says something the question
does not), and Z3 spends most of its time on exactly those: to answer ``sat`` with universally
quantified axioms it has to build a model by model-based quantifier instantiation, tens of
milliseconds per check.  The premises of those checks are nearly always *Horn*: facts (the
question's atoms, their variables existentially quantified) and rules
``forall x. body -> head`` whose body is a conjunction or disjunction of atoms and equalities
and whose head is an atom, an equality, ``false`` or ``exists y. conjunction``.  For such
premises the chase computes a finite model directly:

* named constants (IRIs, literals) are distinct elements (the prover's unique names); free
  variables and existential witnesses are fresh elements that equalities may merge;
* rules fire until nothing changes (a *restricted* chase: an existential head adds new
  elements only when no existing elements satisfy it); merging two named constants, or a rule
  with head ``false`` firing, means the premises are inconsistent and the chase gives up;
* the closure predicates ``p+`` / ``p*`` and the ``triple`` link get the prover's background
  axioms (see :mod:`verifier.prover`).

The result is checked against every rule once more, and a conclusion that is *false* in it is
refuted: the model is a countermodel.  A conclusion that is true in the model, premises outside
the fragment (negation, comparisons, function terms, disjunctive heads) or a chase that grows
past its limits give ``None``, and the caller asks Z3 (which also gives the unsat cores that
name the axioms of a proof).  So this module never proves anything; it only saves Z3 the
model building where a model is easy to build.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Iterable, Iterator, Sequence

from verifier.limits import Deadline
from verifier.logic import (
    And, Atom, Compare, Eq, Exists, Forall, Formula, Func, Iff, Implies, IRI, Literal, Not, Or,
    ARITHMETIC_FUNCS, Term, Truth, Var, constants, free_vars, is_stringy, iter_terms, substitute,
)

__all__ = ["FiniteModel", "chase", "Limits"]


class _Bail(Exception):
    """The problem leaves the fragment (or the limits): let Z3 decide."""


class _Outside(_Bail):
    """A premise is not Horn: the chase leaves it out and checks it in the result."""


@dataclass(frozen=True)
class Limits:
    """Bounds of one chase; past them it gives up (``None``) and Z3 decides."""

    max_elements: int = 400
    max_facts: int = 20000
    max_rounds: int = 60
    max_disjuncts: int = 64
    max_enumeration: int = 200_000
    #: facts tried while matching rule bodies and heads, over the whole chase (a budget in
    #: place of a clock: the same problem always gets the same answer)
    max_steps: int = 200_000
    #: formulas evaluated (and assignments enumerated) in the result, over the model's life:
    #: the premises left out of the chase and the conclusions
    max_evaluation: int = 20_000


#: ``not (a op b)`` as ``a op' b`` (values are totally ordered)
_NEGATED = {"<": ">=", "<=": ">", ">": "<=", ">=": "<"}

# Internal terms of rules: ("e", element) for a fixed element, ("v", slot) for a rule variable.
# A comparison occurs in heads only: what the head states of its elements' values.
_Lit = tuple  # ("atom", key, (terms...)) | ("eq", t1, t2) | ("cmp", op, t1, t2, stringy)


@dataclass
class _Rule:
    name: str
    nvars: int
    body: list[list[_Lit]]          # disjunction of conjunctions
    head: list[_Lit] | None         # None: the head is false
    head_vars: tuple[int, ...]      # existential slots of the head (fresh elements)
    open_vars: tuple[int, ...]      # universal slots bound by no body literal (range over the domain)


class FiniteModel:
    """The model a chase built: elements, their names, and the true atoms.

    :meth:`satisfies` evaluates a formula of the logic IR in it (``None`` when the formula
    has comparisons or function terms, which the model does not interpret)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.parent: list[int] = []
        self.rigid: list[bool] = []
        self.names: list[str] = []
        self.consts: dict[tuple, int] = {}
        self.free: dict[Var, int] = {}
        self.facts: dict[tuple[str, int], set[tuple[int, ...]]] = {}
        #: the facts with a given element at a given place: (predicate, place, element) -> facts
        #: (rebuilt when elements merge)
        self.index: dict[tuple[tuple[str, int], int, int], list[tuple[int, ...]]] = {}
        self.dirty = False  # elements merged since the facts were last canonicalized
        self.steps = 0  # facts tried by the matcher (bounded by limits.max_steps)
        self.evaluated = 0  # formulas evaluated by truth (bounded by limits.max_evaluation)
        #: the element every function term (not arithmetic) denotes: the model reads each
        #: function as constant, with a value of its own (made when a formula has function terms)
        self.apart: int | None = None
        #: whether the model maps into every model of the premises (a universal model): then a
        #: positive conclusion true in it follows from them (:meth:`proves`); not when an
        #: asserted ``p*`` was built as ``p+``
        self.universal = False
        #: the literal each literal constant's element denotes (its value in comparisons)
        self.literals: dict[int, Literal] = {}
        #: comparisons the premises state of elements: (op, left, right, stringy)
        self.stated: list[tuple[str, int, int, bool]] = []

    # -- elements
    def _new(self, name: str, rigid: bool) -> int:
        if len(self.parent) >= self.limits.max_elements:
            raise _Bail("too many elements")
        self.parent.append(len(self.parent))
        self.rigid.append(rigid)
        self.names.append(name)
        return len(self.parent) - 1

    def find(self, e: int) -> int:
        parent = self.parent
        root = e
        while parent[root] != root:
            root = parent[root]
        while parent[e] != root:
            parent[e], e = root, parent[e]
        return root

    def const(self, t: Term) -> int:
        if isinstance(t, IRI):
            key = ("iri", t.value)
        elif isinstance(t, Literal):
            key = t.value_key
        else:
            raise _Outside(f"function term {t}")
        e = self.consts.get(key)
        if e is None:
            e = self.consts[key] = self._new(str(t), True)
            if isinstance(t, Literal):
                self.literals[e] = t
        return e

    def var(self, v: Var) -> int:
        e = self.free.get(v)
        if e is None:
            e = self.free[v] = self._new("?" + v.name, False)
        return e

    def merge(self, a: int, b: int) -> bool:
        """Make ``a`` and ``b`` one element; True when something changed.  Two named
        constants cannot be merged (unique names): the premises are inconsistent."""
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return False
        if self.rigid[ra] and self.rigid[rb]:
            raise _Bail("the premises equate two named constants")
        if self.rigid[rb]:
            ra, rb = rb, ra
        self.parent[rb] = ra
        self.dirty = True
        return True

    def domain(self) -> list[int]:
        return [e for e in range(len(self.parent)) if self.parent[e] == e]

    def _canonicalize(self) -> None:
        find = self.find
        self.facts = {k: {tuple(find(x) for x in t) for t in ts} for k, ts in self.facts.items()}
        self.index = {}
        for k, ts in self.facts.items():
            for t in ts:
                self._index(k, t)
        self.dirty = False

    def _index(self, key: tuple[str, int], args: tuple[int, ...]) -> None:
        for i, e in enumerate(args):
            self.index.setdefault((key, i, e), []).append(args)

    def add(self, key: tuple[str, int], args: tuple[int, ...]) -> bool:
        ts = self.facts.setdefault(key, set())
        if args in ts:
            return False
        ts.add(args)
        self._index(key, args)
        return True

    def n_facts(self) -> int:
        return sum(len(ts) for ts in self.facts.values())

    # -- evaluation
    def satisfies(self, f: Formula) -> bool | None:
        """Is ``f`` true in this model (free variables: the elements of the premises' free
        variables, fresh elements for the others)?  ``None`` when that depends on what the
        model leaves open: the values of function terms and the numbers and strings of
        elements that are not literals (:meth:`truth`), or the evaluation would be too large."""
        try:
            return self.truth(f, {})
        except _Bail:
            return None

    def proves(self, f: Formula) -> bool:
        """Whether ``f`` follows from the premises because it is true in this model: ``f``
        is positive (atoms and equalities without function terms, under conjunction,
        disjunction and existential quantifiers), true here, and the model is universal (the
        chase of the Horn premises maps into every model of the premises, the premises it
        left out included, and such a formula stays true along the map)."""
        return self.universal and _positive(f) and self.satisfies(f) is True

    def _term(self, t: Term, env: dict[Var, int]) -> int:
        if isinstance(t, Var):
            e = env.get(t)
            if e is None:
                e = self.free.get(t)
                if e is None:
                    raise _Bail(f"variable {t.name} has no element")
            return self.find(e)
        return self.find(self.const(t))  # a function term leaves the fragment (_Bail)

    def _element(self, t: Term, env: dict[Var, int]) -> int | None:
        """The element ``t`` denotes: a function term (not arithmetic) denotes
        :attr:`apart`; ``None`` for arithmetic (its value is open)."""
        if isinstance(t, Func):
            return None if t.name in ARITHMETIC_FUNCS or self.apart is None else self.find(self.apart)
        return self._term(t, env)

    def value(self, e: int, stringy: bool):
        """The number (a date as its day number) or, ``stringy``, the string that element
        ``e`` has in every model of this form: a literal's; ``None`` for the other elements,
        whose values the model leaves open (as the prover's ``num`` / ``strv`` do)."""
        lit = self.literals.get(self.find(e))
        if lit is None:
            return None
        if stringy:
            return lit.lexical if lit.kind == "string" else None
        return lit.numeric_value if lit.kind == "number" else lit.date_value if lit.kind == "date" else None

    def compare(self, op: str, a: int | None, b: int | None, stringy: bool) -> bool | None:
        """``a op b`` of two elements' values; ``None`` when a value is open."""
        if a is not None and a == b:
            return op in ("<=", ">=")
        x = None if a is None else self.value(a, stringy)
        y = None if b is None else self.value(b, stringy)
        if x is None or y is None:
            return None
        return {"<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y}[op]

    def truth(self, f: Formula, env: dict[Var, int]) -> bool | None:
        """``f`` in three values (Kleene's strong logic): ``True`` or ``False`` when it has
        that value however the model's open parts are filled in (function terms denoting any
        of its elements, elements that are not literals having any number and string),
        ``None`` when that decides it.  Without comparisons and function terms it is the
        two-valued truth of ``f``.  Each call, and each assignment enumerated, counts
        against ``limits.max_evaluation`` (over the model's life): past it the evaluation
        gives up (:meth:`satisfies` says ``None``)."""
        self.evaluated += 1
        if self.evaluated > self.limits.max_evaluation:
            raise _Bail("the evaluation took too many steps")
        if isinstance(f, Atom):
            args = [self._element(a, env) for a in f.args]
            facts = self.facts.get((f.pred, len(args)), ())
            if None in args:
                return False if not facts else None
            return tuple(args) in facts
        if isinstance(f, Eq):
            a, b = self._element(f.left, env), self._element(f.right, env)
            return None if a is None or b is None else a == b
        if isinstance(f, Compare):
            stringy = is_stringy(f.left) or is_stringy(f.right)
            return self.compare(f.op, self._element(f.left, env), self._element(f.right, env), stringy)
        if isinstance(f, Truth):
            return f.value
        if isinstance(f, And):
            return _kleene_all(self.truth(a, env) for a in f.args)
        if isinstance(f, Or):
            return _kleene_any(self.truth(a, env) for a in f.args)
        if isinstance(f, Not):
            v = self.truth(f.arg, env)
            return None if v is None else not v
        if isinstance(f, Implies):
            left = self.truth(f.left, env)
            return True if left is False else _kleene_any((None if left is None else False,
                                                           self.truth(f.right, env)))
        if isinstance(f, Iff):
            a, b = self.truth(f.left, env), self.truth(f.right, env)
            return None if a is None or b is None else a == b
        if isinstance(f, Exists):
            return self._exists(f, env)
        if isinstance(f, Forall):
            return self._forall(f, env)
        raise _Bail(f"not interpreted: {type(f).__name__}")

    # Quantifiers are evaluated by matching the atoms of their bodies like rule bodies, and
    # pushed inward (over disjunctions, conjunctions, into what the match leaves) so that
    # variables are enumerated over the domain only where nothing binds them.
    def _exists(self, f: Exists, env: dict[Var, int]) -> bool | None:
        fv = free_vars(f.body)
        vs = tuple(v for v in f.vars if v in fv)
        body = f.body
        if not vs:  # the domain is never empty
            return self.truth(body, env)
        if isinstance(body, Or):
            return _kleene_any(self.truth(_quantified(Exists, vs, d), env) for d in body.args)
        conj, rest = _split_body(body)
        if conj:
            return _kleene_any(self.truth(_quantified(Exists, left, rest), e2)
                               for e2, left in self._matched(vs, conj, env))
        parts = list(rest.args) if isinstance(rest, And) else [rest]
        for i, p in enumerate(parts):  # exists v. v = t & phi(v)  is  phi(t)
            if isinstance(p, Eq):
                for v, t in ((p.left, p.right), (p.right, p.left)):
                    if v in vs and isinstance(v, Var) and v not in free_vars(t):
                        others = parts[:i] + parts[i + 1:]
                        inner = substitute(others[0] if len(others) == 1 else And(tuple(others)), {v: t}) \
                            if others else Truth(True)
                        return self.truth(_quantified(Exists, tuple(u for u in vs if u != v), inner), env)
        if len(parts) > 1 and _separate(vs, parts):
            return _kleene_all(self.truth(_quantified(Exists, vs, p), env) for p in parts)
        return _kleene_any(self.truth(body, e2) for e2 in self._enumerated(vs, env))

    def _forall(self, f: Forall, env: dict[Var, int]) -> bool | None:
        fv = free_vars(f.body)
        vs = tuple(v for v in f.vars if v in fv)
        body = f.body
        if not vs:
            return self.truth(body, env)
        if isinstance(body, And):
            return _kleene_all(self.truth(_quantified(Forall, vs, a), env) for a in body.args)
        if isinstance(body, Implies):
            left, bound = body.left, vs
            while isinstance(left, Exists):  # (exists y. A) -> B  is  forall y. A -> B
                bound, left = bound + left.vars, left.body
            conj, rest = _split_body(left)
            if conj:
                return _kleene_all(self.truth(_quantified(Forall, left_over, Implies(rest, body.right)), e2)
                                   for e2, left_over in self._matched(bound, conj, env))
        return _kleene_all(self.truth(body, e2) for e2 in self._enumerated(vs, env))

    def _matched(self, bound: tuple[Var, ...], conj: list[Formula],
                 env: dict[Var, int]) -> Iterator[tuple[dict[Var, int], tuple[Var, ...]]]:
        """The assignments (extending ``env``) of the variables of ``bound`` that occur in
        the atoms and equalities ``conj`` under which ``conj`` holds, matched like a rule
        body; with each, the variables of ``bound`` left unassigned."""
        slots = {v: i for i, v in enumerate(bound)}

        def term(t: Term):
            return ("v", slots[t]) if isinstance(t, Var) and t in slots else ("e", self._term(t, env))

        lits = [("atom", (a.pred, len(a.args)), tuple(term(t) for t in a.args)) if isinstance(a, Atom)
                else ("eq", term(a.left), term(a.right)) for a in conj]
        for b in _matches(self, lits, [None] * len(bound)):
            env2 = dict(env)
            env2.update((v, e) for v, e in zip(bound, b) if e is not None)
            yield env2, tuple(v for v, e in zip(bound, b) if e is None)

    def _enumerated(self, bound: tuple[Var, ...], env: dict[Var, int]) -> Iterator[dict[Var, int]]:
        """Every assignment of ``bound`` to elements (extending ``env``), within the limits."""
        dom = self.domain()
        if len(dom) ** len(bound) > self.limits.max_enumeration:
            raise _Bail("quantifier too large to enumerate")
        self.evaluated += len(dom) ** len(bound)
        if self.evaluated > self.limits.max_evaluation:
            raise _Bail("the evaluation took too many steps")
        for values in itertools.product(dom, repeat=len(bound)):
            env2 = dict(env)
            env2.update(zip(bound, values))
            yield env2

    def describe(self, max_facts: int = 12) -> str:
        """A few readable facts, in the style of :mod:`verifier.prover`'s countermodels."""
        names: dict[int, str] = {}
        for e in range(len(self.parent)):  # a merged element is its named constant, if any
            if self.rigid[e]:
                names[self.find(e)] = self.names[e]
        anon = 0
        for r in self.domain():
            if r not in names:
                names[r] = f"e{anon}"
                anon += 1
        parts = [f"?{v.name} = {names[self.find(e)]}" for v, e in self.free.items()]
        facts = []
        for (pred, _), ts in self.facts.items():
            for t in sorted(ts):
                facts.append(f"{pred}({', '.join(names[x] for x in t)})")
                if len(facts) >= max_facts:
                    break
            if len(facts) >= max_facts:
                break
        return "; ".join(parts + (facts or ["no atom is true"]))


def _conjuncts(f: Formula, comparisons: bool = False) -> list[Formula] | None:
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
            c = _conjuncts(a, comparisons)
            if c is None:
                return None
            out += c
        return out
    return None


def _split_body(f: Formula) -> tuple[list[Formula], Formula]:
    """The conjuncts of ``f`` a rule body can match (atoms and equalities without function
    terms), and the conjunction of the others (``true`` if none)."""
    parts = list(f.args) if isinstance(f, And) else [f]
    conj, rest = [], []
    for a in parts:
        if isinstance(a, (And, Truth)):
            c, r = _split_body(a) if isinstance(a, And) else ([], a)
            conj += c
            if r != Truth(True):
                rest.append(r)
        elif isinstance(a, (Atom, Eq)) and not _has_func_or_compare(a):
            conj.append(a)
        else:
            rest.append(a)
    return conj, (rest[0] if len(rest) == 1 else And(tuple(rest)) if rest else Truth(True))


def _quantified(kind, vs: tuple[Var, ...], f: Formula) -> Formula:
    """``kind(vs', f)`` over the variables of ``vs`` free in ``f`` (``f`` itself if none)."""
    fv = free_vars(f)
    used = tuple(v for v in vs if v in fv)
    return kind(used, f) if used else f


def _separate(vs: tuple[Var, ...], parts: list[Formula]) -> bool:
    """Whether no variable of ``vs`` occurs in two of ``parts`` (then an existential over
    their conjunction is the conjunction of existentials)."""
    seen: set[Var] = set()
    for p in parts:
        mine = set(vs) & free_vars(p)
        if mine & seen:
            return False
        seen |= mine
    return True


def _kleene_all(values: Iterable[bool | None]) -> bool | None:
    """Kleene conjunction: False as soon as one is False."""
    out: bool | None = True
    for v in values:
        if v is False:
            return False
        if v is None:
            out = None
    return out


def _kleene_any(values: Iterable[bool | None]) -> bool | None:
    """Kleene disjunction: True as soon as one is True."""
    out: bool | None = False
    for v in values:
        if v is True:
            return True
        if v is None:
            out = None
    return out


def _implies3(left: bool | None, right) -> bool | None:
    """Kleene implication, the consequent evaluated only when needed."""
    if left is False:
        return True
    r = right()
    if r is True:
        return True
    return None if left is None or r is None else False


# --------------------------------------------------------------------------------------------
# From formulas to facts and rules
# --------------------------------------------------------------------------------------------


class _Compiler:
    def __init__(self, model: FiniteModel, limits: Limits) -> None:
        self.m = model
        self.limits = limits
        self.rules: list[_Rule] = []
        self.env: dict[Var, int] = {}
        #: what is left out of the chase: formulas with the elements of their free variables
        self.deferred: list[tuple[Formula, dict[Var, int]]] = []

    # a premise at the top level: facts and rules
    def premise(self, f: Formula, name: str) -> None:
        m = self.m
        if isinstance(f, Truth):
            if not f.value:
                raise _Bail("a premise is false")
            return
        if isinstance(f, Atom):
            m.add((f.pred, len(f.args)), tuple(m._term(a, self.env) for a in f.args))
            return
        if isinstance(f, Eq):
            m.merge(m._term(f.left, self.env), m._term(f.right, self.env))
            return
        if isinstance(f, Compare) or isinstance(f, Not) and isinstance(f.arg, Compare):
            c = f if isinstance(f, Compare) else f.arg
            op = c.op if c is f else _NEGATED[c.op]
            m.stated.append((op, m._term(c.left, self.env), m._term(c.right, self.env),
                             is_stringy(c.left) or is_stringy(c.right)))
            return
        if isinstance(f, And):
            for a in f.args:
                try:
                    self.premise(a, name)
                except _Outside:
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
        raise _Outside(f"premise not Horn: {type(f).__name__}")

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
        raise _Outside(f"function term {t}")

    def rule(self, f: Formula, name: str, scope: dict[Var, int], nvars: int,
             body: list[list[_Lit]] | None = None) -> None:
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
                raise _Outside("body too disjunctive")
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
        lits = _conjuncts(f, comparisons=True)
        if lits is None:
            raise _Outside(f"rule head not Horn: {type(f).__name__}")
        head = [self._lit(a, scope) for a in lits]
        self._add(name, nvars, body, head, tuple(head_vars), scope)

    def body(self, f: Formula, scope: dict[Var, int], nvars: int) -> tuple[dict[Var, int], int, list[list[_Lit]]]:
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
            dnf: list[list[_Lit]] = [[]]
            for a in f.args:
                scope, nvars, d = self.body(a, scope, nvars)
                dnf = [x + y for x in dnf for y in d]
                if len(dnf) > self.limits.max_disjuncts:
                    raise _Outside("body too disjunctive")
            return scope, nvars, dnf
        if isinstance(f, Or):
            out: list[list[_Lit]] = []
            for a in f.args:
                scope, nvars, d = self.body(a, scope, nvars)
                out += d
            if len(out) > self.limits.max_disjuncts:
                raise _Outside("body too disjunctive")
            return scope, nvars, out
        raise _Outside(f"rule body not Horn: {type(f).__name__}")

    def _lit(self, f: Formula, scope: dict[Var, int]) -> _Lit:
        if isinstance(f, Compare) or isinstance(f, Not) and isinstance(f.arg, Compare):
            c = f if isinstance(f, Compare) else f.arg
            return ("cmp", c.op if c is f else _NEGATED[c.op], self._t(c.left, scope), self._t(c.right, scope),
                    is_stringy(c.left) or is_stringy(c.right))
        if isinstance(f, Atom):
            return ("atom", (f.pred, len(f.args)), tuple(self._t(a, scope) for a in f.args))
        if isinstance(f, Eq):
            return ("eq", self._t(f.left, scope), self._t(f.right, scope))
        raise _Outside(f"not an atom: {type(f).__name__}")

    def _add(self, name, nvars, body, head, head_vars, scope) -> None:
        for conj in body:
            seen: set[int] = set()
            for lit in conj:
                for t in (lit[2] if lit[0] == "atom" else lit[1:]):
                    if t[0] == "v":
                        seen.add(t[1])
            open_vars = tuple(s for s in range(nvars) if s not in seen and s not in head_vars)
            self.rules.append(_Rule(name, nvars, [conj], head, tuple(head_vars), open_vars))


# --------------------------------------------------------------------------------------------
# The chase
# --------------------------------------------------------------------------------------------


def _matches(m: FiniteModel, lits: list[_Lit], binding: list[int | None]) -> Iterator[list[int | None]]:
    """Extensions of ``binding`` (slot -> element) under which every literal holds."""
    if not lits:
        yield binding
        return
    find = m.find

    def val(t) -> int | None:
        if t[0] == "e":
            return find(t[1])
        x = binding[t[1]]
        return None if x is None else find(x)

    best, best_score = 0, -1
    for i, lit in enumerate(lits):
        if lit[0] == "eq":
            score = 200 if (val(lit[1]) is not None or val(lit[2]) is not None) else 0
        else:
            args = lit[2]
            nb = sum(1 for a in args if val(a) is not None)
            score = nb + (100 if nb == len(args) else 0) - len(m.facts.get(lit[1], ())) * 1e-6
        if score > best_score:
            best, best_score = i, score
    lit, rest = lits[best], lits[:best] + lits[best + 1:]
    if lit[0] == "eq":
        a, c = val(lit[1]), val(lit[2])
        if a is not None and c is not None:
            if a == c:
                yield from _matches(m, rest, binding)
        elif a is not None or c is not None:
            slot = lit[2][1] if a is not None else lit[1][1]
            b = list(binding)
            b[slot] = a if a is not None else c
            yield from _matches(m, rest, b)
        else:
            for e in m.domain():
                b = list(binding)
                b[lit[1][1]] = e
                b[lit[2][1]] = e
                yield from _matches(m, rest, b)
        return
    args = lit[2]
    want = [val(a) for a in args]
    bound = next((i for i, w in enumerate(want) if w is not None), None)
    candidates = list(m.facts.get(lit[1], ()) if bound is None else m.index.get((lit[1], bound, want[bound]), ()))
    m.steps += len(candidates)
    if m.steps > m.limits.max_steps:
        raise _Bail("the chase took too many steps")
    for tup in candidates:
        b = None
        ok = True
        for a, w, got in zip(args, want, tup):
            if w is not None:
                if w != got:
                    ok = False
                    break
            else:
                cur = (b or binding)[a[1]]
                if cur is None:
                    if b is None:
                        b = list(binding)
                    b[a[1]] = got
                elif cur != got:
                    ok = False
                    break
        if ok:
            yield from _matches(m, rest, b if b is not None else binding)


def _body_matches(m: FiniteModel, rule: _Rule) -> list[list[int | None]]:
    out = []
    for b in _matches(m, rule.body[0], [None] * rule.nvars):
        if rule.open_vars:
            dom = m.domain()
            if len(dom) ** len(rule.open_vars) > m.limits.max_enumeration:
                raise _Bail("open rule variables range over too large a domain")
            for values in itertools.product(dom, repeat=len(rule.open_vars)):
                b2 = list(b)
                for s, e in zip(rule.open_vars, values):
                    b2[s] = e
                out.append(b2)
        else:
            out.append(b)
    return out


def _head_holds(m: FiniteModel, rule: _Rule, binding: list[int | None]) -> bool:
    b = list(binding)
    for s in rule.head_vars:
        b[s] = None
    head = rule.head or []
    cmps = [lit for lit in head if lit[0] == "cmp"]
    if not cmps:
        return any(True for _ in _matches(m, head, b))
    stated = {(op, m.find(x), m.find(y), st) for op, x, y, st in m.stated}
    for b2 in _matches(m, [lit for lit in head if lit[0] != "cmp"], b):
        vals = [(op, _value_of(m, t1, b2), _value_of(m, t2, b2), st) for _, op, t1, t2, st in cmps]
        if all(m.compare(op, x, y, st) is True or (op, x, y, st) in stated for op, x, y, st in vals):
            return True
    return False


def _value_of(m: FiniteModel, t, binding: list[int | None]) -> int:
    return m.find(t[1]) if t[0] == "e" else m.find(binding[t[1]])


def _fire(m: FiniteModel, rule: _Rule, binding: list[int | None]) -> bool:
    """Make the head true for ``binding``; True when the model changed."""
    if rule.head is None:
        raise _Bail(f"the premises are inconsistent ({rule.name})")
    if _head_holds(m, rule, binding):
        return False
    b = list(binding)
    for s in rule.head_vars:
        b[s] = m._new(f"w{s}", False)
    changed = False
    for lit in rule.head:
        if lit[0] == "cmp":  # what the head states of the values: a constraint on them
            m.stated.append((lit[1], _value_of(m, lit[2], b), _value_of(m, lit[3], b), lit[4]))
            changed = True
            continue
        terms = lit[2] if lit[0] == "atom" else lit[1:]
        vals = [m.find(t[1]) if t[0] == "e" else m.find(b[t[1]]) for t in terms]
        if lit[0] == "atom":
            changed |= m.add(lit[1], tuple(vals))
        else:
            changed |= m.merge(vals[0], vals[1])
    return changed


def _closure_rules(m: FiniteModel, preds: set[tuple[str, int]], heads: set[tuple[str, int]],
                   comp: _Compiler) -> None:
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
                raise _Bail(f"{name} asserted: its definition is not Horn")
            star = Atom(name, (x, y))
            comp.rule(Forall((x, y), Implies(plus, star)), f"{base}* includes {base}+", {}, 0)
            comp.rule(Forall((x,), Atom(name, (x, x))), f"{base}* is reflexive", {}, 0)
    if ("triple", 3) in preds:
        for name in sorted(names):
            if name.endswith(("+", "*")) or ":" not in name and not name.startswith("<"):
                continue
            comp.rule(Forall((x, y), Iff(Atom(name, (x, y)), Atom("triple", (x, IRI(name), y)))),
                      f"triple link {name}", {}, 0)


def _preds(f: Formula, out: set[tuple[str, int]], heads: set[tuple[str, int]], positive: bool = True) -> None:
    """Predicates of ``f``; ``heads``: those that occur where the formula asserts them."""
    if isinstance(f, Atom):
        out.add((f.pred, len(f.args)))
        if positive:
            heads.add((f.pred, len(f.args)))
    elif isinstance(f, (And, Or)):
        for a in f.args:
            _preds(a, out, heads, positive)
    elif isinstance(f, Not):
        _preds(f.arg, out, heads, not positive)
    elif isinstance(f, Implies):
        _preds(f.left, out, heads, not positive)
        _preds(f.right, out, heads, positive)
    elif isinstance(f, Iff):
        for g in (f.left, f.right):
            _preds(g, out, heads, True)
            _preds(g, out, heads, False)
    elif isinstance(f, (Exists, Forall)):
        _preds(f.body, out, heads, positive)


def _positive(f: Formula) -> bool:
    if isinstance(f, (Atom, Eq)):
        return not _has_func_or_compare(f)
    if isinstance(f, (And, Or)):
        return all(_positive(a) for a in f.args)
    if isinstance(f, Exists):
        return _positive(f.body)
    return isinstance(f, Truth)


def _has_func(f: Formula) -> bool:
    """Whether ``f`` has a function term other than arithmetic."""
    return any(isinstance(t, Func) and t.name not in ARITHMETIC_FUNCS for t in iter_terms(f))


def _has_func_or_compare(f: Formula) -> bool:
    if isinstance(f, Compare):
        return True
    if isinstance(f, Atom):
        return any(isinstance(a, Func) for a in f.args)
    if isinstance(f, Eq):
        return isinstance(f.left, Func) or isinstance(f.right, Func)
    if isinstance(f, (And, Or)):
        return any(_has_func_or_compare(a) for a in f.args)
    if isinstance(f, Not):
        return _has_func_or_compare(f.arg)
    if isinstance(f, (Implies, Iff)):
        return _has_func_or_compare(f.left) or _has_func_or_compare(f.right)
    if isinstance(f, (Exists, Forall)):
        return _has_func_or_compare(f.body)
    return False


def _strengthened(f: Formula, positive: bool = True) -> Formula:
    """``f`` with every ``p*`` it asserts (a positive occurrence) replaced by ``p+``.  Every
    model of the result is a model of ``f`` (``p+`` implies ``p*``), and the chase can build
    it: ``p*`` is ``=`` or ``p+``, a disjunction, so an asserted ``p*`` leaves the fragment."""
    if isinstance(f, Atom):
        return Atom(f.pred[:-1] + "+", f.args) if positive and f.pred.endswith("*") and len(f.args) == 2 else f
    if isinstance(f, And):
        return And(tuple(_strengthened(a, positive) for a in f.args))
    if isinstance(f, Or):
        return Or(tuple(_strengthened(a, positive) for a in f.args))
    if isinstance(f, Not):
        return Not(_strengthened(f.arg, not positive))
    if isinstance(f, Implies):
        return Implies(_strengthened(f.left, not positive), _strengthened(f.right, positive))
    if isinstance(f, Exists):
        return Exists(f.vars, _strengthened(f.body, positive))
    if isinstance(f, Forall):
        return Forall(f.vars, _strengthened(f.body, positive))
    return f  # Iff (both polarities), comparisons, equalities, truth


def chase(premises: Sequence[Formula], also: Iterable[Formula] = (), *,
          limits: Limits | None = None, deadline: Deadline | None = None) -> FiniteModel | None:
    """A finite model of ``premises`` built by the chase, or ``None`` when the premises leave
    the fragment, contradict each other (as far as the chase sees) or the chase passes
    ``limits``.  ``also`` are the formulas the model will evaluate (their predicates get the
    background axioms and their free variables elements).  ``deadline``
    (:class:`verifier.limits.Deadline`) is checked after every 32 rules and each round and raises
    :class:`verifier.limits.DeadlineExceeded` once passed.

    Comparisons and function terms: a comparison a premise states as a fact (``?x > 500000``)
    is kept as a constraint on the elements' values (:attr:`FiniteModel.stated`), which must
    be satisfiable.  A premise that is not Horn (a rule with a comparison or a function term,
    a negation or an implication in a head ...) does not take part in the chase but must be
    true in its result however the open values are filled in (:meth:`FiniteModel.truth`),
    as a rule whose body nothing matches is.  An asserted ``p*`` is built as ``p+``
    (:func:`_strengthened`).  Otherwise ``None``."""
    limits = limits or Limits()
    also = list(also)
    strengthened = [_strengthened(f) for f in premises]
    universal = strengthened == list(premises)
    premises = strengthened
    try:
        m = FiniteModel(limits)
        comp = _Compiler(m, limits)
        preds: set[tuple[str, int]] = set()
        heads: set[tuple[str, int]] = set()
        for f in premises:
            _preds(f, preds, heads)
        for f in also:
            _preds(f, preds, set())
        for f in itertools.chain(premises, also):
            # every named constant is an element from the start (a rule whose variables range
            # over the domain must see the conclusion's constants too), and every free
            # variable one element, shared by premises and conclusions
            for t in sorted(constants(f), key=str):
                m.const(t)
            for v in sorted(free_vars(f), key=lambda v: v.name):
                m.var(v)
        if not m.parent:  # a model's domain is never empty
            m._new("e", False)
        if any(_has_func(f) for f in itertools.chain(premises, also)):
            m.apart = m._new("f()", False)
        for i, f in enumerate(premises):
            comp.env = {}
            try:
                comp.premise(f, f"premise {i}")
            except _Outside:
                comp.deferred.append((f, {}))
        comp.env = {}
        _closure_rules(m, preds, heads, comp)
        m._canonicalize()
        rules = comp.rules
        for _ in range(limits.max_rounds):
            changed = False
            for k, rule in enumerate(rules):
                for b in _body_matches(m, rule):
                    if _fire(m, rule, b):
                        changed = True
                        if m.dirty:
                            m._canonicalize()
                if k % 32 == 31:  # counting the facts and reading a CPU clock are not free
                    if m.n_facts() > limits.max_facts:
                        raise _Bail("too many facts")
                    if deadline is not None:
                        deadline.check("chase")
            if m.n_facts() > limits.max_facts:
                raise _Bail("too many facts")
            if deadline is not None:
                deadline.check("chase")
            if not changed:
                break
        else:
            raise _Bail("no fixpoint within the round limit")
        # every rule holds in the result (guards the incremental work above)
        m._canonicalize()
        for rule in rules:
            for b in _body_matches(m, rule):
                if rule.head is None or not _head_holds(m, rule, b):
                    raise _Bail(f"rule {rule.name} does not hold in the chase result")
        for f, env in comp.deferred:
            if m.truth(f, env) is not True:
                raise _Bail("a premise left out of the chase may be false in its result")
        if m.stated and not _satisfiable(m):
            raise _Bail("the stated comparisons may contradict each other")
        m.universal = universal
        return m
    except _Bail:
        return None
    except RecursionError:
        return None


def _satisfiable(m: FiniteModel) -> bool:
    """Whether the elements can have values (numbers for some, strings for others) under
    which every comparison the premises state holds, literals keeping theirs.  Decided
    exactly for comparisons of numbers (a small linear problem for Z3, in a context of its
    own); a stated comparison of strings that the literals do not decide counts as not
    satisfiable (the chase then gives up)."""
    open_num: list[tuple[str, int, int]] = []
    for op, a, b, stringy in m.stated:
        v = m.compare(op, m.find(a), m.find(b), stringy)
        if v is False or v is None and stringy:
            return False
        if v is None:
            open_num.append((op, m.find(a), m.find(b)))
    if not open_num:
        return True
    import z3  # the solver only for the values; the chase itself never needs it

    ctx = z3.Context()
    xs: dict[int, z3.ArithRef] = {}

    def x(e: int) -> z3.ArithRef:
        if e not in xs:
            known = m.value(e, False)
            xs[e] = z3.RealVal(str(known), ctx) if known is not None else z3.Real(f"e{e}", ctx)
        return xs[e]

    s = z3.Solver(ctx=ctx)
    for op, a, b in open_num:
        s.add({"<": x(a) < x(b), "<=": x(a) <= x(b), ">": x(a) > x(b), ">=": x(a) >= x(b)}[op])
    return s.check() == z3.sat
