"""The chase itself: rules fire until nothing changes (a round matches only the rules something
they read changed for), the result is checked against every premise left out, and the
comparisons the premises state must be satisfiable."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Iterable, Sequence

from verifier.identity import Same, per_pair
from verifier.limits import Deadline
from verifier.logic import (
    Forall, Formula, Iff, Implies, Not, constants, free_vars,
)
from verifier.chase.compile import Compiler, Recorded, Rule, closure_rules, has_func, predicates_of, record, strengthened
from verifier.chase.model import Bail, FiniteModel, Limits, Outside, matches
from verifier.chase.values import satisfiable

__all__ = ["chase"]


@dataclass(frozen=True)
class _Summary:
    """What the chase reads of a formula before compiling it (the same for every chase of
    it: a pair's checks chase the same axioms again and again)."""

    built: Formula  # strengthened (an equal formula when it asserts no p*)
    strengthened: bool  # whether it asserts a p* (built as p+)
    constants: tuple
    free: tuple
    has_func: bool
    preds: frozenset
    heads: frozenset


@per_pair(maxsize=8192)
def _summary(key: Same, premise: bool) -> _Summary:
    """A premise's summary (of its strengthened form), or a conclusion's (as it is, no heads);
    by identity, then by equality (a pair's checks build equal axioms again: they share the
    summary, its ``built`` formula and so what is compiled of it, :func:`_recorded`)."""
    return _summary_of(key.obj, premise)


@per_pair(maxsize=8192)
def _summary_of(f: Formula, premise: bool) -> _Summary:
    built = strengthened(f) if premise else f
    preds: set[tuple[str, int]] = set()
    heads: set[tuple[str, int]] = set()
    predicates_of(built, preds, heads)
    if not premise:
        heads = set()
    return _Summary(built, built is not f, tuple(sorted(constants(built), key=str)),
                    tuple(sorted(free_vars(built), key=lambda v: v.name)), has_func(built),
                    frozenset(preds), frozenset(heads))


def _stale(m: FiniteModel, rule: Rule, seen: int) -> bool:
    """Whether a rule whose body was last matched at tick ``seen`` may match anything new.
    When nothing it reads changed since, its matches are the same bindings, for each of which
    the rule's head was made true then (or held), and heads stay true as the model grows and
    its elements merge: matching again would fire nothing."""
    if seen < 0 or rule.domain and m.moved > seen:
        return True
    stamps = m.stamps
    for p in rule.preds:
        if stamps.get(p, 0) > seen:
            return True
    return False


@per_pair(maxsize=8192)
def _recorded(key: Same, limits: Limits) -> Recorded:
    """A premise (as built) compiled once for all its chases with ``limits``."""
    return record(key.obj, limits)


def _body_matches(m: FiniteModel, rule: Rule) -> list[list[int | None]]:
    out = []
    for b in matches(m, rule.body[0], [None] * rule.nvars):
        if rule.open_vars:
            dom = m.domain()
            if len(dom) ** len(rule.open_vars) > m.limits.max_enumeration:
                raise Bail("open rule variables range over too large a domain")
            for values in itertools.product(dom, repeat=len(rule.open_vars)):
                b2 = list(b)
                for s, e in zip(rule.open_vars, values):
                    b2[s] = e
                out.append(b2)
        else:
            out.append(b)
    return out


def _head_holds(m: FiniteModel, rule: Rule, binding: list[int | None]) -> bool:
    b = list(binding)
    for s in rule.head_vars:
        b[s] = None
    head = rule.head or []
    cmps = [lit for lit in head if lit[0] == "cmp"]
    if not cmps:
        return any(True for _ in matches(m, head, b))
    stated = {(op, m.find(x), m.find(y), st) for op, x, y, st in m.stated}
    for b2 in matches(m, [lit for lit in head if lit[0] != "cmp"], b):
        vals = [(op, _value_of(m, t1, b2), _value_of(m, t2, b2), st) for _, op, t1, t2, st in cmps]
        if all(m.compare(op, x, y, st) is True or (op, x, y, st) in stated for op, x, y, st in vals):
            return True
    return False


def _value_of(m: FiniteModel, t, binding: list[int | None]) -> int:
    return m.find(t[1]) if t[0] == "e" else m.find(binding[t[1]])


def _fire(m: FiniteModel, rule: Rule, binding: list[int | None]) -> bool:
    """Make the head true for ``binding``; True when the model changed."""
    if rule.head is None:
        raise Bail(f"the premises are inconsistent ({rule.name})")
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


def chase(premises: Sequence[Formula], also: Iterable[Formula] = (), *,
          limits: Limits | None = None, deadline: Deadline | None = None,
          naive: bool = False) -> FiniteModel | None:
    """A finite model of ``premises`` built by the chase, or ``None`` when the premises leave
    the fragment, contradict each other (as far as the chase sees) or the chase passes
    ``limits``.  ``also`` are the formulas the model will evaluate (their predicates get the
    background axioms and their free variables elements).  ``deadline``
    (:class:`verifier.limits.Deadline`) is checked after every 32 rules and each round and raises
    :class:`verifier.limits.DeadlineExceeded` once passed.

    A round matches only the rules that something they read changed for since they were last
    matched (:func:`_stale`), and the result holds every rule since the last round fired none.
    ``naive`` matches every rule in every round and checks every rule once more in the result:
    the same model, slower (the reference the tests compare with); only the steps the matcher
    counts (``limits.max_steps``) differ.

    Comparisons and function terms: a comparison a premise states as a fact (``?x > 500000``)
    is kept as a constraint on the elements' values (:attr:`FiniteModel.stated`), which must
    be satisfiable.  A premise that is not Horn (a rule with a comparison or a function term,
    a negation or an implication in a head ...) does not take part in the chase but must be
    true in its result however the open values are filled in (:meth:`FiniteModel.truth`),
    as a rule whose body nothing matches is.  An asserted ``p*`` is built as ``p+``
    (:func:`verifier.chase.compile.strengthened`).  Otherwise ``None``."""
    limits = limits or Limits()
    also = list(also)
    summaries = [_summary(Same(f), True) for f in premises]
    also_summaries = [_summary(Same(f), False) for f in also]
    universal = not any(s.strengthened for s in summaries)
    premises = [s.built for s in summaries]
    try:
        m = FiniteModel(limits)
        comp = Compiler(m, limits)
        preds: set[tuple[str, int]] = set()
        heads: set[tuple[str, int]] = set()
        for s in summaries:
            preds |= s.preds
            heads |= s.heads
        for s in also_summaries:
            preds |= s.preds
        for s in itertools.chain(summaries, also_summaries):
            # every named constant is an element from the start (a rule whose variables range
            # over the domain must see the conclusion's constants too), and every free
            # variable one element, shared by premises and conclusions
            for t in s.constants:
                m.const(t)
            for v in s.free:
                m.var(v)
        if not m.parent:  # a model's domain is never empty
            m._new("e", False)
        rules_only: list[int] = []
        fired: set[str] = set()
        if any(s.has_func for s in itertools.chain(summaries, also_summaries)):
            m.apart = m._new("f()", False)
        for i, f in enumerate(premises):
            try:
                comp.replay(_recorded(Same(f), limits), f"premise {i}")
                if isinstance(f, (Forall, Implies, Iff, Not)):  # compiled to rules only
                    rules_only.append(i)
            except Outside:
                comp.deferred.append((f, {}))
        comp.env = {}
        closure_rules(m, preds, heads, comp)
        m._canonicalize()
        rules = comp.rules
        #: per rule, the model's tick when its body was last matched (-1: never)
        seen = [-1] * len(rules)
        for _ in range(limits.max_rounds):
            changed = False
            for k, rule in enumerate(rules):
                if naive or _stale(m, rule, seen[k]):
                    seen[k] = m.tick
                    for b in _body_matches(m, rule):
                        if _fire(m, rule, b):
                            changed = True
                            fired.add(rule.name)
                            if m.dirty:
                                m._canonicalize()
                if k % 32 == 31:  # counting the facts and reading a CPU clock are not free
                    if m.n_facts() > limits.max_facts:
                        raise Bail("too many facts")
                    if deadline is not None:
                        deadline.check("chase")
            if m.n_facts() > limits.max_facts:
                raise Bail("too many facts")
            if deadline is not None:
                deadline.check("chase")
            if not changed:
                break
        else:
            raise Bail("no fixpoint within the round limit")
        m._canonicalize()
        if naive:  # every rule holds in the result (what the last round, firing none, showed)
            for rule in rules:
                for b in _body_matches(m, rule):
                    if rule.head is None or not _head_holds(m, rule, b):
                        raise Bail(f"rule {rule.name} does not hold in the chase result")
        for f, env in comp.deferred:
            if m.truth(f, env) is not True:
                raise Bail("a premise left out of the chase may be false in its result")
        if m.stated and not satisfiable(m):
            raise Bail("the stated comparisons may contradict each other")
        m.universal = universal
        m.idle = frozenset(i for i in rules_only if f"premise {i}" not in fired)
        return m
    except Bail:
        return None
    except RecursionError:
        return None
