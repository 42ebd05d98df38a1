"""The chase refuter (verifier.chase) and its use in the prover: it refutes only what Z3 refutes."""

from __future__ import annotations

import random

import pytest

from verifier.chase import Limits, chase
from verifier.logic import And, Atom, Compare, Eq, Exists, Forall, Implies, IRI, Literal, Not, Or, Truth, Var, conj, disj, exists
from verifier.prover import Premise, entails, entails_each

a, b, c = IRI("wd:Qa"), IRI("wd:Qb"), IRI("wd:Qc")
x, y, z, v = Var("x"), Var("y"), Var("z"), Var("v")


def P(*args):
    return Atom("P", tuple(args))


def Q(*args):
    return Atom("Q", tuple(args))


def R(*args):
    return Atom("R", tuple(args))


def test_horn_rule_refutes_and_proves():
    prem = [P(a), Forall((x,), Implies(P(x), Q(x)))]
    m = chase(prem, [R(a), Q(a)])
    assert m is not None
    assert m.satisfies(R(a)) is False
    assert m.satisfies(Q(a)) is True
    r = entails(prem, R(a))
    assert r.status == "refuted" and "P(wd:Qa)" in r.countermodel and "Q(wd:Qa)" in r.countermodel
    assert entails(prem, R(a), chase=False).status == "refuted"
    proved = entails([Premise("fact", P(a)), Premise("rule", Forall((x,), Implies(P(x), Q(x))))], Q(a))
    assert proved.status == "proved" and proved.used == ("fact", "rule")  # the core comes from Z3


def test_existential_head_and_witness():
    prem = [P(a), Forall((x,), Implies(P(x), Exists((y,), R(x, y))))]
    m = chase(prem, [])
    assert m.satisfies(Exists((y,), R(a, y))) is True
    assert m.satisfies(R(a, b)) is False  # the witness is a new element, not wd:Qb
    assert entails(prem, R(a, b)).status == "refuted"
    assert entails(prem, Exists((y,), R(a, y))).status == "proved"


def test_free_variables_are_shared_elements():
    # the question's answer variable ?v and the query's: the same element
    prem = [Exists((x,), And((P(x), R(x, v))))]
    assert entails(prem, Exists((z,), And((P(z), R(z, v))))).status == "proved"
    assert entails(prem, Exists((z,), And((P(z), R(v, z))))).status == "refuted"


def test_equalities_merge_and_unique_names():
    # a functional property: the two values are one element
    functional = Forall((x, y, z), Implies(And((R(x, y), R(x, z))), Eq(y, z)))
    prem = [R(a, v), Exists((y,), And((R(a, y), Q(y)))), functional]
    m = chase(prem, [Q(v)])
    assert m.satisfies(Q(v)) is True
    assert entails(prem, Q(v)).status == "proved"
    # two named constants cannot be merged: the premises are inconsistent, the chase gives up
    assert chase([R(a, b), R(a, c), functional], []) is None
    assert entails([R(a, b), R(a, c), functional], Q(a)).status == "proved"


def test_constraint_and_negative_premise():
    assert chase([P(a), Not(P(a))], []) is None
    assert chase([P(a), Forall((x,), Implies(P(x), Truth(False)))], []) is None
    m = chase([P(a), Not(Q(a))], [])
    assert m is not None and m.satisfies(Q(a)) is False


def test_outside_the_fragment_gives_none():
    assert chase([Or((P(a), Q(a)))], []) is None  # disjunctive fact
    assert chase([Forall((x,), Implies(P(x), Or((Q(x), R(x)))))], []) is None  # disjunctive head
    assert chase([P(a)], [Compare("<", v, Literal("3", "xsd:integer"))]) is None
    assert chase([Forall((x,), Implies(Not(P(x)), Q(x)))], []) is None  # negation in a body
    # the prover still decides them, with Z3
    assert entails([Or((P(a), Q(a))), Not(P(a))], Q(a)).status == "proved"


def test_disjunctive_body_is_several_rules():
    prem = [R(a, b), Forall((x, y), Implies(Or((P(x, y), R(x, y))), Q(x, y)))]
    m = chase(prem, [])
    assert m.satisfies(Q(a, b)) is True and m.satisfies(Q(b, a)) is False


def test_closure_predicates_and_triple_link():
    sub, subp, subs = "wdt:P279", "wdt:P279+", "wdt:P279*"
    prem = [Atom(sub, (a, b)), Atom(sub, (b, c))]
    m = chase(prem, [Atom(subp, (a, c)), Atom(subs, (a, a))])
    assert m.satisfies(Atom(subp, (a, c))) is True
    assert m.satisfies(Atom(subs, (c, c))) is True
    assert m.satisfies(Atom(subp, (c, a))) is False
    assert entails(prem, Atom(subs, (a, c))).status == "proved"
    assert entails(prem, Atom(subs, (c, a))).status == "refuted"
    # a variable predicate: triple(s, p, o) is linked to every property used
    t = Atom("triple", (a, IRI(sub), b))
    assert entails(prem, Exists((x,), Atom("triple", (a, x, b)))).status == "proved"
    assert chase(prem, [t]).satisfies(t) is True
    # p* asserted by a premise: its definition is not Horn, Z3 decides
    assert chase([Atom(subs, (a, b))], []) is None
    assert entails([Atom(subs, (a, b)), Not(Eq(a, b))], Atom(subp, (a, b))).status == "proved"


def test_entails_each_mixes_chase_and_z3():
    prem = [P(a), Forall((x,), Implies(P(x), Q(x)))]
    res = entails_each(prem, [Q(a), R(a), P(a)])
    assert [r.status for r in res] == ["proved", "refuted", "proved"]
    assert [r.status for r in entails_each(prem, [Q(a), R(a), P(a)], chase=False)] == ["proved", "refuted", "proved"]


def test_limits_stop_an_infinite_chase():
    # every element has a successor: the chase never ends, so it gives up; Z3 finds a finite model
    prem = [P(a), Forall((x,), Implies(P(x), Exists((y,), And((R(x, y), P(y))))))]
    assert chase(prem, []) is None  # past max_elements
    assert entails(prem, Q(a)).status == "refuted"
    transitive = Forall((x, y, z), Implies(And((R(x, y), R(y, z))), R(x, z)))
    assert chase(prem + [transitive], []) is None  # past max_steps, long before max_elements
    assert chase(prem + [transitive], [], limits=Limits(max_steps=10**9, max_elements=30)) is None


def _random_problem(rng: random.Random):
    consts = [IRI(f"wd:Q{i}") for i in range(rng.randint(1, 3))]
    preds = [("A", 1), ("B", 1), ("S", 2), ("T", 2), ("U", 2)]
    vs = [Var(f"x{i}") for i in range(3)]

    def atom(terms):
        name, ar = rng.choice(preds)
        return Atom(name, tuple(rng.choice(terms) for _ in range(ar)))

    facts = []
    ex = [Var(f"e{i}") for i in range(rng.randint(0, 2))]
    for _ in range(rng.randint(1, 4)):
        facts.append(atom(consts + ex + [v]))
    prem = [exists(ex, conj(facts))]
    for _ in range(rng.randint(1, 4)):
        body = [atom(vs[:2] + consts[:1]) for _ in range(rng.randint(1, 2))]
        bound = sorted({t for f in body for t in f.args if isinstance(t, Var)}, key=lambda t: t.name)
        if not bound:
            continue
        kind = rng.random()
        if kind < 0.5:
            head = atom(bound + consts[:1])
        elif kind < 0.8:
            w = Var("w")
            head = Exists((w,), atom(bound + [w]))
        elif kind < 0.95 and len(bound) >= 2:
            head = Eq(bound[0], bound[1])
        else:
            head = Truth(False)
        body_f = conj(body) if rng.random() < 0.7 else disj(body)
        prem.append(Forall(tuple(bound), Implies(body_f, head)))
    gv = Var("g")
    goal_atoms = []
    for _ in range(rng.randint(1, 2)):
        if rng.random() < 0.5:  # often something the premises state or nearly so
            f = rng.choice(facts)
            goal_atoms.append(Atom(f.pred, tuple(gv if t in ex else t for t in f.args)))
        else:
            goal_atoms.append(atom(consts + [gv, v]))
    goal = exists([gv], conj(goal_atoms))
    return prem, goal


def test_agrees_with_z3_on_random_horn_problems():
    """A positive goal is true in the chase model exactly when Z3 proves it (the chase result
    is a universal model), and the chase never refutes what Z3 proves."""
    rng = random.Random(7)
    decided = proved = 0
    for _ in range(200):
        prem, goal = _random_problem(rng)
        z = entails(prem, goal, chase=False, timeout_ms=5000)
        m = chase(prem, [goal])
        if m is None or z.status == "unknown":
            continue
        decided += 1
        assert m.satisfies(goal) is (z.status == "proved"), (prem, goal, z)
        proved += z.status == "proved"
    assert decided >= 120 and proved >= 40
