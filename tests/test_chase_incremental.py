"""The chase matches only the rules something changed for (semi-naive rounds) and caches what
it compiles of a formula: it must build exactly the model the naive chase builds."""

from __future__ import annotations

import random

from verifier.chase import FiniteModel, Limits, chase
from verifier.chase.compile import Compiler, record
from verifier.chase.model import Bail
from verifier.logic import (
    And, Atom, Compare, Eq, Exists, Forall, Formula, Func, IRI, Implies, Literal, Not, Or, Truth, Var, conj, disj,
    exists,
)


def _signature(m: FiniteModel | None):
    """Everything a chase result shows (the matcher's step count aside)."""
    if m is None:
        return None
    return ([m.find(e) for e in range(len(m.parent))], list(m.names),
            {k: sorted(ts) for k, ts in m.facts.items() if ts}, list(m.stated), m.universal, m.idle,
            sorted(m.literals), m.apart, sorted((v.name, e) for v, e in m.free.items()))


def _problem(rng: random.Random) -> list[Formula]:
    """Facts and rules over a few predicates: chains, existential heads, equalities, ``false``
    heads, disjunctive bodies, rules with named constants and variables no atom binds."""
    consts = [IRI(f"wd:Q{i}") for i in range(rng.randint(1, 4))]
    preds = [("A", 1), ("B", 1), ("C", 1), ("S", 2), ("T", 2), ("U", 2), ("p+", 2)]
    vs = [Var(f"x{i}") for i in range(3)]

    def atom(terms):
        name, ar = rng.choice(preds)
        return Atom(name, tuple(rng.choice(terms) for _ in range(ar)))

    ex = [Var(f"e{i}") for i in range(rng.randint(0, 3))]
    prem: list[Formula] = [exists(ex, conj([atom(consts + ex) for _ in range(rng.randint(1, 6))]))]
    for _ in range(rng.randint(1, 7)):
        body = [atom(vs + consts[:1]) for _ in range(rng.randint(1, 3))]
        bound = sorted({t for f in body for t in f.args if isinstance(t, Var)}, key=lambda t: t.name)
        if not bound:
            continue
        kind = rng.random()
        if kind < 0.45:
            head: Formula = atom(bound + consts[:1])
        elif kind < 0.75:
            w = Var("w")
            head = Exists((w,), conj([atom(bound + [w]), atom(bound + [w])]))
        elif kind < 0.9 and len(bound) >= 2:
            head = Eq(bound[0], bound[1])
        elif kind < 0.95:
            head = And((atom(bound), atom(bound)))
        else:
            head = Truth(False)
        if rng.random() < 0.1:  # a variable no atom binds: it ranges over the domain
            bound = bound + [Var("o")]
            head = atom(bound)
        if rng.random() < 0.1 and len(bound) >= 2:
            body.append(Eq(bound[0], bound[1]))
        body_f = conj(body) if rng.random() < 0.8 else disj(body)
        prem.append(Forall(tuple(bound), Implies(body_f, head)))
    return prem


def test_semi_naive_rounds_build_the_naive_model():
    rng = random.Random(11)
    # no budget of steps (they differ), a small one of elements (the same in both)
    limits = Limits(max_elements=40, max_facts=1000, max_steps=10**9)
    built = multi = 0
    fewer = 0
    for _ in range(250):
        prem = _problem(rng)
        fast, slow = chase(prem, [], limits=limits), chase(prem, [], limits=limits, naive=True)
        assert _signature(fast) == _signature(slow), prem
        if fast is not None:
            built += 1
            multi += len(fast.parent) > 4
            assert fast.steps <= slow.steps
            fewer += fast.steps < slow.steps
    assert built >= 200 and multi >= 25 and fewer >= 130, (built, multi, fewer)


def test_semi_naive_rounds_on_a_chain():
    """A transitive closure needs many rounds; each round matches only what changed."""
    r = [IRI(f"wd:Q{i}") for i in range(12)]
    x, y, z = Var("x"), Var("y"), Var("z")
    prem: list[Formula] = [Atom("S", (r[i], r[i + 1])) for i in range(11)]
    prem.append(Forall((x, y, z), Implies(And((Atom("S", (x, y)), Atom("S", (y, z)))), Atom("S", (x, z)))))
    prem.append(Forall((x,), Implies(Atom("S", (r[0], x)), Exists((y,), Atom("T", (x, y))))))
    fast, slow = chase(prem, []), chase(prem, [], naive=True)
    assert _signature(fast) == _signature(slow)
    assert len(fast.facts[("S", 2)]) == 66 and len(fast.facts[("T", 2)]) == 11
    assert fast.steps < slow.steps


def _compiled(f: Formula, replayed: bool):
    """A fresh model and compiler after compiling ``f`` as premise 3 (directly, or recorded
    once and replayed), with the exception it raised."""
    m = FiniteModel(Limits())
    m.const(IRI("wd:Q0"))
    comp = Compiler(m, Limits())
    error = None
    try:
        if replayed:
            comp.replay(record(f, Limits()), "premise 3")
        else:
            comp.premise(f, "premise 3")
    except Bail as e:
        error = (type(e), e.args)
    return (error, [m.find(e) for e in range(len(m.parent))], list(m.names), m.facts, m.stated,
            [vars(r) for r in comp.rules], comp.deferred)


def test_a_recorded_premise_replays_as_it_compiles():
    q0, q1 = IRI("wd:Q0"), IRI("wd:Q1")
    x, y, v = Var("x"), Var("y"), Var("v")
    n = Literal("3", "xsd:integer")
    cases: list[Formula] = [
        exists([y], And((Atom("S", (q0, y)), Eq(y, v), Compare("<", y, n), Not(Compare("<", v, y)),
                         Atom("T", (y, q1))))),
        # a rule, then a part outside the fragment: the rule stays, the premise is left out
        Forall((x,), Implies(Atom("A", (x,)), And((Atom("B", (x,)), Or((Atom("C", (x,)), Atom("B", (v,)))))))),
        And((Atom("A", (q1,)), Or((Atom("A", (v,)), Atom("B", (v,)))), Atom("B", (Func("f", (v,)),)))),
        Forall((x,), Implies(Atom("S", (x, q1)), Exists((y,), And((Atom("T", (x, y)), Compare(">", y, n)))))),
        Eq(q0, q1),  # two named constants: the premises are inconsistent
        Truth(False),
    ]
    rng = random.Random(5)
    cases += [f for _ in range(40) for f in _problem(rng)]
    for f in cases:
        assert _compiled(f, True) == _compiled(f, False), f
