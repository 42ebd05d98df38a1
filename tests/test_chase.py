"""The chase refuter (verifier.chase) and its use in the prover: it refutes only what Z3 refutes."""

from __future__ import annotations

import random

import pytest

from verifier.chase import Limits, chase
from verifier.logic import (
    And, Atom, Compare, Eq, Exists, Forall, Func, Iff, Implies, IRI, Literal, Not, Or, Truth, Var, conj, disj, exists,
)
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
    disjunctive_head = Forall((x,), Implies(P(x), Or((Q(x), R(x)))))
    assert chase([P(a), disjunctive_head], []) is None
    # a premise outside the fragment is left out of the chase and checked in its result: a
    # rule whose body nothing matches holds
    m = chase([Q(b), disjunctive_head], [P(b)])
    assert m is not None and m.satisfies(P(b)) is False
    assert entails([Q(b), disjunctive_head], P(b)).status == "refuted"
    assert chase([Forall((x,), Implies(Not(P(x)), Q(x)))], []) is None  # negation in a body
    # the prover still decides them, with Z3
    assert entails([Or((P(a), Q(a))), Not(P(a))], Q(a)).status == "proved"


def test_the_domain_is_never_empty():
    # with no constant and no free variable, "everything is Q" still entails "something is Q"
    prem, goal = [Forall((x,), Q(x))], Exists((y,), Q(y))
    m = chase(prem, [goal])
    assert m is not None and m.satisfies(goal) is True
    assert entails(prem, goal).status == "proved"


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
    # p* asserted by a premise (= or p+, not Horn) is built as p+: a model of the premise
    m = chase([Atom(subs, (a, b))], [Q(a), Atom(subs, (a, b))])
    assert m is not None and m.satisfies(Atom(subs, (a, b))) is True and m.satisfies(Q(a)) is False
    assert entails([Atom(subs, (a, b))], Not(Atom(subp, (b, a)))).status == "refuted"
    assert chase([Iff(Atom(subs, (a, b)), P(a))], []) is None  # asserted and denied: Z3 decides
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


def num(n) -> Literal:
    return Literal(str(n), "xsd:integer")


def test_comparisons_left_open_are_unknown_and_literals_decide():
    m = chase([P(a)], [Compare("<", v, num(3))])
    assert m is not None and m.satisfies(Compare("<", v, num(3))) is None  # v's value is open
    assert m.satisfies(Compare("<", num(2), num(3))) is True
    assert m.satisfies(Compare(">=", Literal("2020-01-01", "xsd:date"), Literal("2019-05-01", "xsd:date"))) is True
    assert m.satisfies(Compare("<", Literal("abc"), Literal("abd"))) is True
    # a conjunct that is false in every completion makes the conjunction false
    goal = Exists((y,), And((Q(a, y), Compare(">", y, num(3)))))
    assert m.satisfies(goal) is False
    assert entails([P(a)], goal).status == "refuted"
    # a function term denotes some element: an atom over it is false when the predicate holds of nothing
    assert m.satisfies(Q(Func("year", (a,)))) is False
    m2 = chase([P(a), Q(b)], [])
    assert m2.satisfies(Q(Func("year", (a,)))) is None


def test_stated_comparisons_constrain_values():
    prem = [P(v), Compare(">", v, num(500000))]
    m = chase(prem, [Q(v)])
    assert m is not None and m.stated and m.satisfies(Q(v)) is False
    assert entails(prem, Q(v)).status == "refuted"
    # what the premises state is not known to the evaluation of the goal: open, left to Z3
    assert m.satisfies(Compare(">", v, num(10))) is None
    assert entails(prem, Compare(">", v, num(10))).status == "proved"
    # comparisons that contradict each other: no model, the chase gives up and Z3 proves anything
    bad = [P(v), Compare(">", v, num(5)), Not(Compare(">=", v, num(3)))]
    assert chase(bad, [Q(v)]) is None
    assert entails(bad, Q(v)).status == "proved"
    assert chase([Compare("<", num(5), num(3))], []) is None
    # a witness's value is constrained too
    assert chase([Exists((y,), And((R(a, y), Compare(">", y, num(1)), Compare("<", y, v), Compare("<", v, num(1)))))],
                 []) is None


def test_rules_with_comparisons_must_hold_in_the_result():
    rule = Forall((x, y), Implies(And((R(x, y), Compare(">", y, num(3)))), Q(x)))
    m = chase([P(a), rule], [Q(a)])
    assert m is not None and m.satisfies(Q(a)) is False  # nothing matches the rule's body
    assert entails([P(a), rule], Q(a)).status == "refuted"
    # its body may match (y's value is open): the chase cannot build the model, Z3 decides
    assert chase([R(a, b), rule], [Q(a)]) is None
    assert entails([R(a, b), rule], Q(a)).status == "refuted"
    assert chase([R(a, num(5)), rule], [Q(a)]) is None
    assert entails([R(a, num(5)), rule], Q(a)).status == "proved"
    with_func = Forall((x,), Implies(P(x), Eq(Func("lang", (x,)), Literal("en"))))
    assert chase([Q(a), with_func], []) is not None
    assert chase([P(a), with_func], []) is None


def test_comparisons_in_heads_constrain_the_witnesses():
    w1, w2 = Var("w1"), Var("w2")
    earlier = Forall((x,), Implies(P(x), Exists((w1, w2), And((R(x, w1), R(a, w2), Compare("<", w1, w2))))))
    m = chase([P(b), earlier], [Q(b)])
    assert m is not None and m.satisfies(Q(b)) is False
    assert m.satisfies(Exists((y,), R(b, y))) is True
    assert entails([P(b), earlier], Q(b)).status == "refuted"
    # what a head states must be satisfiable with the rest
    never = Forall((x,), Implies(P(x), Exists((w1,), And((R(x, w1), Compare(">", w1, num(5)), Compare("<", w1, num(3)))))))
    assert chase([P(b), never], [Q(b)]) is None
    assert entails([P(b), never], Q(b)).status == "proved"


def test_a_conjunct_outside_the_fragment_is_checked_with_its_witnesses():
    # "some y is A, and every B is S-related to y or T-related to it": nothing is B, so it holds
    f = Exists((y,), And((Atom("A", (y,)), Forall((z,), Implies(Atom("B", (z,)), Or((R(z, y), Q(z, y))))))))
    m = chase([f], [Atom("B", (a,))])
    assert m is not None and m.satisfies(Exists((y,), Atom("A", (y,)))) is True
    assert m.satisfies(Atom("B", (a,))) is False
    assert entails([f], Atom("B", (a,))).status == "refuted"
    assert chase([f, Atom("B", (a,))], []) is None  # now the disjunction must hold of a


def test_a_negated_conclusion_is_refuted_by_a_model_of_what_it_denies():
    prem = [P(a), Forall((x,), Implies(P(x), Exists((y,), R(x, y))))]
    # the chase's own model leaves Q(a) false, so it satisfies "not Q(a)"; a model of the
    # premises and Q(a) refutes it
    r = entails(prem, Not(Q(a)))
    assert r.status == "refuted" and "Q(wd:Qa)" in r.countermodel
    assert entails_each(prem, [Not(Q(a)), Not(Exists((y,), R(a, y)))])[0].status == "refuted"
    assert entails_each(prem, [Not(Q(a)), Not(Exists((y,), R(a, y)))])[1].status == "refuted"
    # premises that deny it: no such model, Z3 proves the negation
    deny = prem + [Forall((x,), Implies(P(x), Not(Q(x))))]
    assert entails(deny, Not(Q(a))).status == "proved"
    assert entails_each(deny, [Not(Q(a))])[0].status == "proved"


def test_negated_conclusions_agree_with_z3():
    rng = random.Random(5)
    refuted = 0
    for _ in range(150):
        prem, goal = _random_compare_problem(rng)
        r = entails(prem, Not(goal), timeout_ms=5000)
        z = entails(prem, Not(goal), chase=False, timeout_ms=5000)
        if z.status != "unknown" and r.status != "unknown":
            assert r.status == z.status, (prem, goal)
        refuted += r.status == "refuted"
    assert refuted >= 50


def test_quantifiers_are_pushed_inward_instead_of_enumerated():
    # 300 elements: five variables enumerated together would be 300**5 assignments
    prem = [R(IRI(f"wd:Q{i}"), IRI(f"wd:Q{i + 1}")) for i in range(300)]
    vs = tuple(Var(f"u{i}") for i in range(5))
    disjunctive = Exists(vs, Or((And((P(vs[0]), R(vs[0], vs[1]))), And((Q(vs[2], vs[3]), Eq(vs[4], vs[2]))))))
    m = chase(prem, [disjunctive])
    assert m is not None and m.satisfies(disjunctive) is False
    # a variable defined by a function term: exists s. s = f(c) & phi(s) is phi(f(c))
    s_, c_ = Var("s"), Var("c")
    defined = Exists((c_, s_, vs[0]), And((R(a, c_), Eq(s_, Func("strafter", (c_,))), Eq(vs[0], Func("str", (s_,))),
                                              Not(Exists((y,), P(c_, y))), Compare("<", vs[0], Literal("x")))))
    m2 = chase([R(a, b), P(b, c)], [defined])
    assert m2 is not None and m2.satisfies(defined) is False  # b has a P: the negation fails
    assert entails([R(a, b), P(b, c)], defined).status == "refuted"
    assert chase([R(a, b)], [defined]).satisfies(defined) is None  # the comparison decides


def test_functions_are_read_as_constant_with_a_value_of_their_own():
    fa = Func("coalesce", (a, b))
    goal = Exists((y,), And((Eq(y, fa), Or((P(y), Atom("wdt:P279*", (y, c)))))))
    prem = [P(b), Atom("wdt:P279", (b, c))]
    m = chase(prem, [goal])
    assert m is not None and m.apart is not None
    assert m.satisfies(goal) is False  # coalesce(a, b) denotes an element that is not P
    assert entails(prem, goal).status == "refuted"
    assert m.satisfies(Eq(fa, Func("lang", (c,)))) is True  # one reading of every function
    assert m.satisfies(Compare("<", Func("add", (v, num(1))), num(3))) is None  # arithmetic stays open


def _random_compare_problem(rng: random.Random):
    prem, goal = _random_problem(rng)
    nums = [num(n) for n in (1, 5, 9)]
    ex_vars = sorted(free_of(goal), key=lambda t: t.name)
    for _ in range(rng.randint(0, 2)):  # stated comparisons
        op = rng.choice(["<", "<=", ">", ">="])
        left = rng.choice([v] + nums)
        f = Compare(op, left, rng.choice(nums + [v]))
        prem.append(Not(f) if rng.random() < 0.3 else f)
    if rng.random() < 0.5:  # a rule with a comparison in its body
        body = And((Atom(rng.choice(["S", "T"]), (x, y)), Compare(rng.choice([">", "<"]), y, rng.choice(nums))))
        prem.append(Forall((x, y), Implies(body, Atom(rng.choice(["A", "B"]), (x,)))))
    if rng.random() < 0.4:  # a premise outside the Horn fragment
        u = Atom(rng.choice(["A", "B"]), (x,))
        w = Atom(rng.choice(["S", "T"]), (x, rng.choice([a, IRI("wd:Q0")])))
        prem.append(rng.choice([Forall((x,), Implies(u, Or((w, Atom("B", (x,)))))),
                                Forall((x,), Implies(Not(u), Atom("A", (x,)))),
                                Forall((x,), Implies(u, Not(w)))]))
    if rng.random() < 0.3:  # a comparison in a head
        w = Var("w")
        prem.append(Forall((x,), Implies(Atom(rng.choice(["A", "B"]), (x,)), Exists((w,), And((
            Atom(rng.choice(["S", "T", "U"]), (x, w)), Compare(rng.choice(["<", ">"]), w, rng.choice(nums + [v]))))))))
    if rng.random() < 0.5:  # values in the facts
        prem.append(Atom(rng.choice(["S", "T", "U"]), (rng.choice([v, a]), rng.choice(nums))))
    gv = Var("h")
    extra = [Atom(rng.choice(["S", "T", "U"]), (rng.choice([v, a, IRI("wd:Q0")]), gv)),
             Compare(rng.choice(["<", "<=", ">", ">="]), gv, rng.choice(nums + [v]))]
    if rng.random() < 0.3:
        extra.append(Atom(rng.choice(["A", "B"]), (Func("f", (gv,)),)))
    if rng.random() < 0.3:  # a variable defined by a function term, used in a comparison
        dv = Var("d")
        extra.append(Exists((dv,), And((Eq(dv, Func("g", (gv,))), Compare("<", dv, rng.choice(nums))))))
    if rng.random() < 0.3:  # a disjunction under the quantifier
        extra = [Or((conj(extra), Atom(rng.choice(["S", "T"]), (gv, rng.choice(nums)))))]
    goal = conj([goal, exists([gv], conj(extra))]) if rng.random() < 0.7 else exists([gv], conj(extra))
    return prem, goal


def free_of(f):
    from verifier.logic import free_vars
    return free_vars(f)


def _refutations_against_z3(problems, refutes) -> tuple[int, int]:
    """For the problems whose chase model ``refutes(model, goal)``: Z3 never proves the goal
    (asserted); how many were refuted, and how many of those Z3 refutes too."""
    refuted = agreed = 0
    for prem, goal in problems:
        m = chase(prem, [goal])
        if m is None or not refutes(m, goal):
            continue
        refuted += 1
        z = entails(prem, goal, chase=False, timeout_ms=5000)
        assert z.status != "proved", (prem, goal)
        agreed += z.status == "refuted"
    return refuted, agreed


def test_never_refutes_what_z3_proves_with_comparisons():
    """With comparisons and function terms the chase model is no longer universal, but a goal
    false in it is false in a model of the premises: Z3 never proves it, and refutes it."""
    rng = random.Random(11)
    problems = [_random_compare_problem(rng) for _ in range(250)]
    refuted, agreed = _refutations_against_z3(problems, lambda m, goal: m.satisfies(goal) is False)
    assert refuted >= 60 and agreed >= refuted - 5


def test_a_universal_model_proves_positive_conclusions():
    """The chase of the Horn premises maps into every model of all the premises, so a
    positive conclusion true in it follows: Z3 proves every one (with premises the chase left
    out, too); entails_each uses it (no unsat core needed there)."""
    rng = random.Random(23)
    proved = 0
    for _ in range(200):
        prem, goal = _random_problem(rng)
        if rng.random() < 0.5:  # a premise outside the fragment, left out and checked
            prem.append(Forall((x,), Implies(Atom("A", (x,)), Or((Atom("B", (x,)), Atom("S", (x, x)))))))
        m = chase(prem, [goal])
        if m is None or not m.proves(goal):
            continue
        proved += 1
        assert entails(prem, goal, chase=False, timeout_ms=5000).status == "proved", (prem, goal)
    assert proved >= 40
    assert entails_each([P(a)], [P(a), Q(a)])[0].status == "proved"
    # an asserted p* built as p+: that model is no longer universal
    m = chase([Atom("wdt:P279*", (a, b))], [Atom("wdt:P279+", (a, b))])
    assert m is not None and not m.universal and not m.proves(Atom("wdt:P279+", (a, b)))


def test_open_values_are_filled_in_to_refute():
    """A conclusion whose value in the model depends only on open numbers is refuted when
    some filling of them (with the stated comparisons true) makes it false."""
    from verifier.chase import falsifiable

    date = Literal("1939-01-01", "xsd:date")
    m = chase([P(v)], [Compare(">=", v, date)])
    assert m.satisfies(Compare(">=", v, date)) is None
    assert falsifiable(m, Compare(">=", v, date))
    assert entails([P(v)], Compare(">=", v, date)).status == "refuted"
    # the stated comparisons bound the filling: v > 500000 makes "v > 10" true in every one
    prem = [P(v), Compare(">", v, num(500000))]
    m = chase(prem, [Compare(">", v, num(10))])
    assert not falsifiable(m, Compare(">", v, num(10)))
    assert falsifiable(m, Compare(">", v, num(600000)))
    assert entails(prem, Compare(">", v, num(10))).status == "proved"
    # quantifiers range over the elements: "some witness is later than v" fails when v is largest
    later = Exists((y,), Compare("<", v, y))
    m = chase([P(v), R(a, b)], [later])
    assert falsifiable(m, later)
    assert entails_each([P(v), R(a, b)], [later])[0].status == "refuted"
    # a function's value (not arithmetic) is open too; arithmetic and strings are left to Z3
    for goal, expected in ((Compare(">=", Func("strlen", (Func("str", (v,)),)), num(10)), True),
                           (Compare("<", Func("add", (v, num(1))), num(3)), False),
                           (Compare("<", Func("str", (v,)), Literal("x")), False)):
        assert falsifiable(chase([P(v)], [goal]), goal) is expected, goal


def test_filled_in_values_never_refute_what_z3_proves():
    """Random problems with comparisons: whenever some filling of the open values makes the
    goal false, Z3 does not prove it (and refutes it)."""
    from verifier.chase import falsifiable

    rng = random.Random(13)
    problems = []
    for _ in range(300):
        prem, goal = _random_compare_problem(rng)
        if rng.random() < 0.5:  # a bare comparison of the goal's kind
            goal = Compare(rng.choice(["<", "<=", ">", ">="]), v, rng.choice([num(1), num(5), num(9)]))
        problems.append((prem, goal))
    refuted, agreed = _refutations_against_z3(
        problems, lambda m, goal: m.satisfies(goal) is None and falsifiable(m, goal))
    assert refuted >= 30 and agreed >= refuted - 3


def test_inequalities_between_named_constants_are_proved():
    two = Exists((x, y), Not(Eq(x, y)))
    m = chase([P(a), R(a, b)], [two])
    assert m.universal and m.proves(two, m.satisfies(two))
    assert entails_each([P(a), R(a, b)], [two])[0].status == "proved"
    # one named constant and a free variable: the variable may be that constant
    m = chase([P(a), R(a, v)], [two])
    assert m.satisfies(two) is True and not m.proves(two)
    assert entails([P(a), R(a, v)], two, chase=False).status == "refuted"
    # with atoms: the witnesses must be named and apart
    pair = Exists((x, y), And((R(a, x), R(a, y), Not(Eq(x, y)))))
    assert chase([R(a, b), R(a, c)], [pair]).proves(pair)
    assert not chase([R(a, b), R(a, v)], [pair]).proves(pair)


def test_proofs_with_inequalities_agree_with_z3():
    rng = random.Random(17)
    proved = 0
    for _ in range(200):
        prem, _goal = _random_problem(rng)
        s_, t_ = Var("s"), Var("t")
        atoms = [Atom(rng.choice(["S", "T", "U"]), (rng.choice([a, b, s_]), rng.choice([s_, t_, c])))
                 for _ in range(rng.randint(0, 2))]
        goal = Exists((s_, t_), conj(atoms + [Not(Eq(s_, rng.choice([t_, a])))]))
        m = chase(prem, [goal])
        if m is None or not m.proves(goal):
            continue
        proved += 1
        assert entails(prem, goal, chase=False, timeout_ms=5000).status == "proved", (prem, goal)
    assert proved >= 20


def test_defeaters_of_negated_parts():
    from verifier.chase import defeaters

    m_, d_ = Var("m"), Var("d")
    dissolved = Exists((d_,), R(m_, d_))
    goal = Exists((m_,), And((P(m_), Q(m_, a), Not(dissolved))))
    w = Var("defeater0_d")  # one witness shared by every m: the chase of the defeater ends
    assert defeaters(goal) == [Forall((m_,), Implies(And((P(m_), Q(m_, a))), R(m_, w)))]
    assert defeaters(Not(P(a))) == [P(a)]
    assert defeaters(P(a)) == []
    # a disjunction in the defeated part: its first disjunct (a stronger head)
    either = Not(Exists((d_,), Or((R(m_, d_), Q(m_, d_)))))
    assert defeaters(Exists((m_,), And((P(m_), either)))) == [Forall((m_,), Implies(P(m_), R(m_, w)))]
    # a defeater that holds of every element: its witnesses do not need witnesses of their own
    everything = Exists((m_,), Not(dissolved))
    assert defeaters(everything) == [Forall((m_,), R(m_, w))]
    assert entails([P(a), Q(b, c)], everything).status == "refuted"
    # the least model makes the goal true; with its defeater it is false: refuted without Z3
    prem = [P(b), Q(b, a)]
    m = chase(prem, [goal])
    assert m.satisfies(goal) is True
    r = entails(prem, goal)
    assert r.status == "refuted" and "wd:Qb" in r.countermodel
    # premises that force the negated part to hold: the defeater contradicts them, Z3 proves
    deny = prem + [Forall((m_, d_), Implies(R(m_, d_), Truth(False)))]
    assert entails(deny, goal).status == "proved"


def test_defeated_conclusions_agree_with_z3():
    rng = random.Random(19)
    decided = refuted = 0
    for _ in range(200):
        prem, _goal = _random_problem(rng)
        s_, t_ = Var("s"), Var("t")
        pos = [Atom(rng.choice(["S", "T"]), (s_, rng.choice([a, b, c])))]
        neg = Not(Exists((t_,), Atom(rng.choice(["S", "T", "U"]), (s_, t_))) if rng.random() < 0.7
                  else Atom(rng.choice(["A", "B"]), (s_,)))
        goal = Exists((s_,), And((*pos, neg)))
        r = entails(prem, goal, timeout_ms=5000)
        z = entails(prem, goal, chase=False, timeout_ms=5000)
        if r.status != "unknown" and z.status != "unknown":
            decided += 1
            assert r.status == z.status, (prem, goal)
            refuted += r.status == "refuted"
    assert decided >= 150 and refuted >= 30


def test_rules_that_never_fire_are_left_out_of_a_proof():
    prem = [Premise("fact", P(a)), Premise("used", Forall((x,), Implies(P(x), Q(x, b)))),
            Premise("idle", Forall((x,), Implies(Atom("A", (x,)), Q(x, c)))),
            Premise("never", Not(Atom("B", (a,))))]
    m = chase([p.formula for p in prem], [Q(a, b)])
    assert m.idle == frozenset({2, 3})
    r = entails(prem, Q(a, b))
    assert r.status == "proved" and set(r.used) == {"fact", "used"}
    # random problems: the same status and a core within the premises, with and without it
    rng = random.Random(29)
    proved = 0
    for _ in range(150):
        fs, goal = _random_problem(rng)
        named = [Premise(f"p{i}", f) for i, f in enumerate(fs)]
        r, z = entails(named, goal, timeout_ms=5000), entails(named, goal, chase=False, timeout_ms=5000)
        if "unknown" not in (r.status, z.status):
            assert r.status == z.status, (fs, goal)
        proved += r.status == "proved"
        assert set(r.used) <= {p.name for p in named}
    assert proved >= 30
