"""The model a chase builds (:class:`FiniteModel`): elements, facts and the comparisons the
premises state, the evaluation of formulas in it in three values, and the matching of
conjunctions of atoms (rule bodies, queries) against its facts."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Iterable, Iterator

from verifier.logic import (
    ARITHMETIC_FUNCS, And, Atom, Compare, Eq, Exists, Forall, Formula, Func, Iff, Implies, IRI,
    Literal, Not, Or, Term, Truth, Var, free_vars, is_stringy, substitute,
)
from verifier.logic import conj as conj_of

__all__ = ["Bail", "Outside", "Limits", "Lit", "FiniteModel", "matches", "split_body", "quantified", "separate", "kleene", "implies3", "positive", "has_func_or_compare"]


class Bail(Exception):
    """The problem leaves the fragment (or the limits): let Z3 decide."""


class Outside(Bail):
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


# Internal terms of rules: ("e", element) for a fixed element, ("v", slot) for a rule variable.
# A comparison occurs in heads only: what the head states of its elements' values.
Lit = tuple  # ("atom", key, (terms...)) | ("eq", t1, t2) | ("cmp", op, t1, t2, stringy)


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
        #: a clock of changes: it ticks when a fact is added or rewritten, an element made or
        #: two merged (what the chase reads to evaluate only the rules something changed for)
        self.tick = 0
        #: per predicate, the tick of the last change of its facts
        self.stamps: dict[tuple[str, int], int] = {}
        #: the tick of the last element made or merged (the domain changed)
        self.moved = 0
        self.steps = 0  # facts tried by the matcher (bounded by limits.max_steps)
        self.evaluated = 0  # formulas evaluated by truth (bounded by limits.max_evaluation)
        #: the element every function term (not arithmetic) denotes: the model reads each
        #: function as constant, with a value of its own (made when a formula has function terms)
        self.apart: int | None = None
        #: whether the model maps into every model of the premises (a universal model): then a
        #: positive conclusion true in it follows from them (:meth:`proves`); not when an
        #: asserted ``p*`` was built as ``p+``
        self.universal = False
        #: the premises (by index) that the chase compiled to rules only, none of which fired:
        #: a proof of what is true in a universal model does not need them
        self.idle: frozenset[int] = frozenset()
        #: the literal each literal constant's element denotes (its value in comparisons)
        self.literals: dict[int, Literal] = {}
        #: comparisons the premises state of elements: (op, left, right, stringy)
        self.stated: list[tuple[str, int, int, bool]] = []

    # -- elements
    def _new(self, name: str, rigid: bool) -> int:
        if len(self.parent) >= self.limits.max_elements:
            raise Bail("too many elements")
        self.parent.append(len(self.parent))
        self.tick += 1
        self.moved = self.tick
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
            raise Outside(f"function term {t}")
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
            raise Bail("the premises equate two named constants")
        if self.rigid[rb]:
            ra, rb = rb, ra
        self.parent[rb] = ra
        self.tick += 1
        self.moved = self.tick
        self.dirty = True
        return True

    def domain(self) -> list[int]:
        return [e for e in range(len(self.parent)) if self.parent[e] == e]

    def _canonicalize(self) -> None:
        find = self.find
        facts = {k: {tuple(find(x) for x in t) for t in ts} for k, ts in self.facts.items()}
        for k, ts in facts.items():
            if ts != self.facts[k]:
                self.tick += 1
                self.stamps[k] = self.tick
        self.facts = facts
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
        self.tick += 1
        self.stamps[key] = self.tick
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
        except Bail:
            return None

    def proves(self, f: Formula, truth: bool | None = None) -> bool:
        """Whether ``f`` follows from the premises because it is true in this model: ``f``
        is positive (atoms and equalities without function terms, under conjunction,
        disjunction and existential quantifiers), true here, and the model is universal (the
        chase of the Horn premises maps into every model of the premises, the premises it
        left out included, and such a formula stays true along the map); or ``f`` is such a
        formula under an existential with inequalities that hold between named constants
        (:meth:`_proves_apart`).  ``truth``: ``f``'s value here when the caller has it (the
        evaluation is not done again)."""
        if not self.universal:
            return False
        if positive(f):
            return (truth if truth is not None else self.satisfies(f)) is True
        try:
            return self._proves_apart(f)
        except Bail:
            return False

    def _proves_apart(self, f: Formula) -> bool:
        """``exists vs. A & s1 != t1 & ...`` with ``A`` positive: true with witnesses where
        every inequality holds between two named constants.  The map of this universal model
        into any model of the premises keeps named constants, which are distinct there too
        (unique names), so the formula follows.  Variables no atom binds range over the named
        constants only (enough to find such witnesses, not to refute anything)."""
        vs, body = (f.vars, f.body) if isinstance(f, Exists) else ((), f)
        parts = list(body.args) if isinstance(body, And) else [body]
        apart = [p.arg for p in parts if isinstance(p, Not) and isinstance(p.arg, Eq)]
        others = [p for p in parts if not (isinstance(p, Not) and isinstance(p.arg, Eq))]
        if not apart or any(has_func_or_compare(e) for e in apart) or not all(positive(p) for p in others):
            return False
        conj, rest = split_body(conj_of(others))
        named_set = {self.find(e) for e in range(len(self.parent)) if self.rigid[e]}
        named = sorted(named_set)
        matched = self.matched(tuple(vs), conj, {}) if conj else iter([({}, tuple(vs))])
        for env, left in matched:
            if len(named) ** len(left) > self.limits.max_enumeration:
                raise Bail("too many witnesses to try")
            for values in itertools.product(named, repeat=len(left)):
                self.evaluated += 1
                if self.evaluated > self.limits.max_evaluation:
                    raise Bail("the evaluation took too many steps")
                env2 = dict(env)
                env2.update(zip(left, values))
                ends = [(self._term(e.left, env2), self._term(e.right, env2)) for e in apart]
                if all(a != b and a in named_set and b in named_set for a, b in ends) \
                        and self.truth(rest, env2) is True:
                    return True
        return False

    def _term(self, t: Term, env: dict[Var, int]) -> int:
        if isinstance(t, Var):
            e = env.get(t)
            if e is None:
                e = self.free.get(t)
                if e is None:
                    raise Bail(f"variable {t.name} has no element")
            return self.find(e)
        return self.find(self.const(t))  # a function term leaves the fragment (Bail)

    def element(self, t: Term, env: dict[Var, int]) -> int | None:
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
            raise Bail("the evaluation took too many steps")
        if isinstance(f, Atom):
            args = [self.element(a, env) for a in f.args]
            facts = self.facts.get((f.pred, len(args)), ())
            if None in args:
                return False if not facts else None
            return tuple(args) in facts
        if isinstance(f, Eq):
            a, b = self.element(f.left, env), self.element(f.right, env)
            return None if a is None or b is None else a == b
        if isinstance(f, Compare):
            stringy = is_stringy(f.left) or is_stringy(f.right)
            return self.compare(f.op, self.element(f.left, env), self.element(f.right, env), stringy)
        if isinstance(f, Truth):
            return f.value
        if isinstance(f, And):
            return kleene((self.truth(a, env) for a in f.args), False)
        if isinstance(f, Or):
            return kleene((self.truth(a, env) for a in f.args), True)
        if isinstance(f, Not):
            v = self.truth(f.arg, env)
            return None if v is None else not v
        if isinstance(f, Implies):
            return implies3(self.truth(f.left, env), lambda: self.truth(f.right, env))
        if isinstance(f, Iff):
            a, b = self.truth(f.left, env), self.truth(f.right, env)
            return None if a is None or b is None else a == b
        if isinstance(f, Exists):
            return self._exists(f, env)
        if isinstance(f, Forall):
            return self._forall(f, env)
        raise Bail(f"not interpreted: {type(f).__name__}")

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
            return kleene((self.truth(quantified(Exists, vs, d), env) for d in body.args), True)
        conj, rest = split_body(body)
        if conj:
            return kleene((self.truth(quantified(Exists, left, rest), e2)
                           for e2, left in self.matched(vs, conj, env)), True)
        parts = list(rest.args) if isinstance(rest, And) else [rest]
        for i, p in enumerate(parts):  # exists v. v = t & phi(v)  is  phi(t)
            if isinstance(p, Eq):
                for v, t in ((p.left, p.right), (p.right, p.left)):
                    if v in vs and isinstance(v, Var) and v not in free_vars(t):
                        others = parts[:i] + parts[i + 1:]
                        inner = substitute(others[0] if len(others) == 1 else And(tuple(others)), {v: t}) \
                            if others else Truth(True)
                        return self.truth(quantified(Exists, tuple(u for u in vs if u != v), inner), env)
        if len(parts) > 1 and separate(vs, parts):
            return kleene((self.truth(quantified(Exists, vs, p), env) for p in parts), False)
        return kleene((self.truth(body, e2) for e2 in self.enumerated(vs, env)), True)

    def _forall(self, f: Forall, env: dict[Var, int]) -> bool | None:
        fv = free_vars(f.body)
        vs = tuple(v for v in f.vars if v in fv)
        body = f.body
        if not vs:
            return self.truth(body, env)
        if isinstance(body, And):
            return kleene((self.truth(quantified(Forall, vs, a), env) for a in body.args), False)
        if isinstance(body, Implies):
            left, bound = body.left, vs
            while isinstance(left, Exists):  # (exists y. A) -> B  is  forall y. A -> B
                bound, left = bound + left.vars, left.body
            conj, rest = split_body(left)
            if conj:
                return kleene((self.truth(quantified(Forall, left_over, Implies(rest, body.right)), e2)
                               for e2, left_over in self.matched(bound, conj, env)), False)
        return kleene((self.truth(body, e2) for e2 in self.enumerated(vs, env)), False)

    def matched(self, bound: tuple[Var, ...], conj: list[Formula],
                 env: dict[Var, int]) -> Iterator[tuple[dict[Var, int], tuple[Var, ...]]]:
        """The assignments (extending ``env``) of the variables of ``bound`` that occur in
        the atoms and equalities ``conj`` under which ``conj`` holds, matched like a rule
        body; with each, the variables of ``bound`` left unassigned."""
        slots = {v: i for i, v in enumerate(bound)}

        def term(t: Term):
            return ("v", slots[t]) if isinstance(t, Var) and t in slots else ("e", self._term(t, env))

        lits = [("atom", (a.pred, len(a.args)), tuple(term(t) for t in a.args)) if isinstance(a, Atom)
                else ("eq", term(a.left), term(a.right)) for a in conj]
        for b in matches(self, lits, [None] * len(bound)):
            env2 = dict(env)
            env2.update((v, e) for v, e in zip(bound, b) if e is not None)
            yield env2, tuple(v for v, e in zip(bound, b) if e is None)

    def enumerated(self, bound: tuple[Var, ...], env: dict[Var, int]) -> Iterator[dict[Var, int]]:
        """Every assignment of ``bound`` to elements (extending ``env``), within the limits."""
        dom = self.domain()
        if len(dom) ** len(bound) > self.limits.max_enumeration:
            raise Bail("quantifier too large to enumerate")
        self.evaluated += len(dom) ** len(bound)
        if self.evaluated > self.limits.max_evaluation:
            raise Bail("the evaluation took too many steps")
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


def split_body(f: Formula) -> tuple[list[Formula], Formula]:
    """The conjuncts of ``f`` a rule body can match (atoms and equalities without function
    terms), and the conjunction of the others (``true`` if none)."""
    parts = list(f.args) if isinstance(f, And) else [f]
    conj, rest = [], []
    for a in parts:
        if isinstance(a, (And, Truth)):
            c, r = split_body(a) if isinstance(a, And) else ([], a)
            conj += c
            if r != Truth(True):
                rest.append(r)
        elif isinstance(a, (Atom, Eq)) and not has_func_or_compare(a):
            conj.append(a)
        else:
            rest.append(a)
    return conj, (rest[0] if len(rest) == 1 else And(tuple(rest)) if rest else Truth(True))


def quantified(kind, vs: tuple[Var, ...], f: Formula) -> Formula:
    """``kind(vs', f)`` over the variables of ``vs`` free in ``f`` (``f`` itself if none)."""
    fv = free_vars(f)
    used = tuple(v for v in vs if v in fv)
    return kind(used, f) if used else f


def separate(vs: tuple[Var, ...], parts: list[Formula]) -> bool:
    """Whether no variable of ``vs`` occurs in two of ``parts`` (then an existential over
    their conjunction is the conjunction of existentials)."""
    seen: set[Var] = set()
    for p in parts:
        mine = set(vs) & free_vars(p)
        if mine & seen:
            return False
        seen |= mine
    return True


def kleene(values: Iterable[bool | None], dominant: bool) -> bool | None:
    """Kleene's conjunction (``dominant`` False) or disjunction (``dominant`` True): the
    dominant value as soon as one has it, else unknown if one is unknown."""
    out: bool | None = not dominant
    for v in values:
        if v is dominant:
            return dominant
        if v is None:
            out = None
    return out


def implies3(left: bool | None, right) -> bool | None:
    """Kleene implication, the consequent evaluated only when needed."""
    if left is False:
        return True
    r = right()
    if r is True:
        return True
    return None if left is None or r is None else False


def positive(f: Formula) -> bool:
    if isinstance(f, (Atom, Eq)):
        return not has_func_or_compare(f)
    if isinstance(f, (And, Or)):
        return all(positive(a) for a in f.args)
    if isinstance(f, Exists):
        return positive(f.body)
    return isinstance(f, Truth)


def has_func_or_compare(f: Formula) -> bool:
    if isinstance(f, Compare):
        return True
    if isinstance(f, Atom):
        return any(isinstance(a, Func) for a in f.args)
    if isinstance(f, Eq):
        return isinstance(f.left, Func) or isinstance(f.right, Func)
    if isinstance(f, (And, Or)):
        return any(has_func_or_compare(a) for a in f.args)
    if isinstance(f, Not):
        return has_func_or_compare(f.arg)
    if isinstance(f, (Implies, Iff)):
        return has_func_or_compare(f.left) or has_func_or_compare(f.right)
    if isinstance(f, (Exists, Forall)):
        return has_func_or_compare(f.body)
    return False


def matches(m: FiniteModel, lits: list[Lit], binding: list[int | None]) -> Iterator[list[int | None]]:
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
    if len(lits) > 1:  # the literal to match first: the most bound, then the fewest facts
        facts = m.facts
        for i, lit in enumerate(lits):
            if lit[0] == "eq":
                t1, t2 = lit[1], lit[2]
                score = 200 if (t1[0] == "e" or binding[t1[1]] is not None
                                or t2[0] == "e" or binding[t2[1]] is not None) else 0
            else:
                args = lit[2]
                nb = 0
                for a in args:
                    if a[0] == "e" or binding[a[1]] is not None:
                        nb += 1
                score = nb + (100 if nb == len(args) else 0) - len(facts.get(lit[1], ())) * 1e-6
            if score > best_score:
                best, best_score = i, score
    lit, rest = lits[best], lits[:best] + lits[best + 1:]
    if lit[0] == "eq":
        a, c = val(lit[1]), val(lit[2])
        if a is not None and c is not None:
            if a == c:
                yield from matches(m, rest, binding)
        elif a is not None or c is not None:
            slot = lit[2][1] if a is not None else lit[1][1]
            b = list(binding)
            b[slot] = a if a is not None else c
            yield from matches(m, rest, b)
        else:
            for e in m.domain():
                b = list(binding)
                b[lit[1][1]] = e
                b[lit[2][1]] = e
                yield from matches(m, rest, b)
        return
    args = lit[2]
    want = [val(a) for a in args]
    bound = next((i for i, w in enumerate(want) if w is not None), None)
    candidates = list(m.facts.get(lit[1], ()) if bound is None else m.index.get((lit[1], bound, want[bound]), ()))
    m.steps += len(candidates)
    if m.steps > m.limits.max_steps:
        raise Bail("the chase took too many steps")
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
            yield from matches(m, rest, b if b is not None else binding)
