"""Premise selection (verifier.relevance): what is left out, and that leaving it out changes
no entailment (the prover with and without selection)."""

from __future__ import annotations

import itertools
import random

import pytest

from verifier.notation import parse_formula as F
from verifier.prover import Premise, entails, entails_each
from verifier.relevance import relevant_indices, symbols, value_if_others_true


def kept(premises: list[str], goal: str) -> list[int]:
    return list(relevant_indices([F(p) for p in premises], F(goal)))


def test_symbols_polarity():
    pos, neg, funcs = symbols(F("forall x. b(x) & ~c(x) -> q(x) | lang(x) = \"en\""))
    assert pos == {"q", "c"} and neg == {"b"} and funcs == {"f:lang"}
    pos, neg, _ = symbols(F("forall x. a(x) <-> d(x)"))
    assert pos == neg == {"a", "d"}


def test_rule_whose_head_the_goal_never_reaches_is_left_out():
    premises = ["b(wd:Q1)", "forall x. b(x) -> q(x)", "forall x. b(x) -> r(x)"]
    assert kept(premises, "r(wd:Q1)") == [0, 2]
    # the body of a kept rule is relevant: the fact about b stays
    assert kept(["forall x. b(x) -> r(x)", "b(wd:Q1)", "c(wd:Q1)"], "r(wd:Q1)") == [0, 1]


def test_constraints_and_equalities_are_kept():
    # ~q(x) is false once q is read as true everywhere: it constrains the model, it stays
    assert kept(["forall x. q(x) -> false", "q(wd:Q1)"], "r(wd:Q1)") == [0, 1]
    # an equation between items can merge what the goal talks about
    assert kept(["forall x y. s(x, y) -> x = y", "s(wd:Q1, wd:Q2)"], "r(wd:Q1)") == [0, 1]


def test_definition_of_a_function_the_goal_never_reaches_is_left_out():
    premises = ['forall x. lab(x) -> lang(x) = "en"', "lab(wd:Q1)", "r(wd:Q1)"]
    assert kept(premises, "r(wd:Q1)") == [2]
    # ... and kept when the goal uses the function
    assert kept(premises, 'lang(wd:Q1) = "en"') == [0, 1]


def test_consistency_goal_keeps_everything():
    premises = ["forall x. b(x) -> q(x)", "b(wd:Q1)"]
    assert kept(premises, "false") == [0, 1]


def test_closures_follow_the_background():
    premises = ["wdt:P279(wd:Q1, wd:Q2)", "wdt:P279(wd:Q2, wd:Q3)", "wdt:P31(wd:Q9, wd:Q1)"]
    assert kept(premises, "wdt:P279*(wd:Q1, wd:Q3)") == [0, 1]
    prem = [Premise(f"p{i}", F(p)) for i, p in enumerate(premises)]
    r = entails(prem, F("wdt:P279*(wd:Q1, wd:Q3)"), select=True)
    assert r.status == "proved" and set(r.used) == {"p0", "p1"}
    # p* = (= or p+) ties the closures both ways: the reflexive closure of two named items
    # states the transitive one (QALD-7 test 8, "Are tree frogs a type of amphibian?")
    star = [Premise("G", F("wdt:P171*(wd:Q53696, wd:Q10908)"))]
    assert kept(["wdt:P171*(wd:Q53696, wd:Q10908)"], "exists x y. wdt:P171+(x, y)") == [0]
    assert entails(star, F("exists x y. wdt:P171+(x, y)"), select=True).status == "proved"


def test_value_if_others_true():
    rel = frozenset({"r"})
    assert value_if_others_true(F("forall x. b(x) -> q(x)"), rel) is True
    assert value_if_others_true(F("forall x. b(x) -> r(x)"), rel) is None
    assert value_if_others_true(F("exists x. ~q(x)"), rel) is False
    assert value_if_others_true(F("forall x. q(x) <-> b(x)"), rel) is True


PREDS = ["a", "b", "c", "d"]
ITEMS = ["wd:Q1", "wd:Q2"]


def _random_premise(rng: random.Random) -> str:
    kind = rng.randrange(5)
    p, q, r = (rng.choice(PREDS) for _ in range(3))
    if kind == 0:
        return f"{p}({rng.choice(ITEMS)})"
    if kind == 1:
        return f"forall x. {p}(x) -> {q}(x)"
    if kind == 2:
        return f"forall x. {p}(x) & {q}(x) -> {r}(x)"
    if kind == 3:
        return f"forall x. {p}(x) -> {q}(x) | {r}(x)"
    return f"forall x. {p}(x) -> ~{q}(x)"


@pytest.mark.parametrize("seed", range(40))
def test_selection_changes_no_entailment(seed):
    """Random propositional-like problems: with and without selection, the same status."""
    rng = random.Random(seed)
    premises = [Premise(f"p{i}", F(_random_premise(rng))) for i in range(rng.randrange(2, 8))]
    goal = F(f"{rng.choice(PREDS)}({rng.choice(ITEMS)})")
    with_sel = entails(premises, goal, countermodel=False, select=True)
    without = entails(premises, goal, countermodel=False, select=False)
    assert with_sel.status == without.status


def test_selection_leaves_the_proof_and_its_core():
    premises = [Premise("fact", F("b(wd:Q1)")), Premise("rule", F("forall x. b(x) -> r(x)"))]
    premises += [Premise(f"noise {i}", F(f'forall x. b(x) -> q{i}(x) & lang(x) = "l"'))
                 for i in range(30)]
    r = entails(premises, F("r(wd:Q1)"), select=True)
    assert r.status == "proved" and r.used == ("fact", "rule")
    assert entails(premises, F("q3(wd:Q2)"), select=True).status == "refuted"
    assert entails(premises, F("q3(wd:Q1)"), select=True).status == "proved"
    # a described countermodel comes from every premise
    assert "q3" in entails(premises, F("r(wd:Q2)")).countermodel


def test_conflicting_definitions_left_out_lose_only_a_proof_by_inconsistency():
    """The documented relaxation: two definitions of a function the goal never reaches that
    contradict each other make every goal follow; selection leaves them out, so the goal no
    longer follows from them (the deductive check tests consistency on all premises)."""
    premises = [Premise("fact", F("b(wd:Q1)")),
                Premise("en", F('forall x. b(x) -> lang(x) = "en"')),
                Premise("fr", F('forall x. b(x) -> lang(x) = "fr"'))]
    assert entails(premises, F("r(wd:Q2)"), select=False).status == "proved"
    assert entails(premises, F("r(wd:Q2)"), select=True).status == "refuted"
    assert entails(premises, F("false"), select=True).status == "proved"


def test_exhaustive_small_problems_agree():
    """Every problem of up to three of a few rule shapes over two predicates."""
    shapes = ["a(wd:Q1)", "forall x. a(x) -> b(x)", "forall x. b(x) -> ~a(x)", "forall x. b(x) -> a(x) | c(x)",
              "forall x. c(x) -> false"]
    for n in range(1, 4):
        for combo in itertools.combinations(shapes, n):
            prem = [Premise(f"p{i}", F(s)) for i, s in enumerate(combo)]
            for goal in ("a(wd:Q1)", "b(wd:Q1)", "c(wd:Q1)"):
                a = entails(prem, F(goal), countermodel=False, select=True).status
                b = entails(prem, F(goal), countermodel=False, select=False).status
                assert a == b, (combo, goal)



def test_a_premise_made_relevant_by_a_later_one_is_kept():
    # the first rule's head q becomes relevant only through the second: kept on a later round
    premises = ["forall x. s(x) -> q(x)", "forall x. t(x) -> u(x)", "forall x. q(x) -> r(x)", "s(wd:Q1)"]
    assert kept(premises, "r(wd:Q1)") == [0, 2, 3]
    assert kept(list(reversed(premises)), "r(wd:Q1)") == [0, 1, 3]


def _naive_kept(formulas, goal) -> tuple[int, ...]:
    """The selection as the module's docstring states it: every premise evaluated again after
    each premise kept, until nothing changes (the reference for the rounds of
    :func:`relevant_indices`)."""
    from verifier.relevance import TRIPLE
    g = symbols(goal)
    if not any(g):
        return tuple(range(len(formulas)))
    syms = [symbols(f) for f in formulas]
    preds = frozenset(p for s in syms for p in s[0] | s[1]) | g[0] | g[1]

    def closure(names: set[str]) -> set[str]:
        out = set(names)
        for n in list(out):
            if n.endswith(("+", "*")):
                out |= {n[:-1], n[:-1] + "+", n[:-1] + "*"}
        prop = lambda n: not n.endswith(("+", "*")) and (":" in n or n.startswith("<"))
        if TRIPLE in preds and (TRIPLE in out or any(prop(n) for n in out)):
            out |= {TRIPLE} | {n for n in preds if prop(n)}
        return out

    relevant, kept_ = closure(set(g[0] | g[1] | g[2])), set()
    changed = True
    while changed:
        changed = False
        for i, f in enumerate(formulas):
            if i not in kept_ and value_if_others_true(f, relevant) is not True:
                kept_.add(i)
                relevant = closure(relevant | syms[i][1] | syms[i][2])
                changed = True
    return tuple(sorted(kept_))


@pytest.mark.parametrize("seed", range(20))
def test_rounds_keep_what_evaluating_everything_again_keeps(seed):
    rng = random.Random(500 + seed)
    shapes = CLOSURE_SHAPES + ["forall x. s(x) -> q(x)", "forall x. q(x) -> a(x)", "forall x. u(x) <-> s(x)",
                               'forall x. a(x) -> lang(x) = "en"', "forall x. c(x) -> false"]
    goals = CLOSURE_GOALS + ["q(wd:Q1)", "exists x. u(x)", 'lang(wd:Q1) = "en"']
    for _ in range(20):
        formulas = [F(s) for s in rng.sample(shapes, rng.randint(1, len(shapes)))]
        goal = F(rng.choice(goals))
        assert relevant_indices(formulas, goal) == _naive_kept(formulas, goal)
        # the same formula objects again (their symbols are read once): the same answer
        assert relevant_indices(formulas, goal) == _naive_kept(formulas, goal)


CLOSURE_SHAPES = ["wdt:P1(wd:Q1, wd:Q2)", "wdt:P1*(wd:Q1, wd:Q2)", "wdt:P1+(wd:Q2, wd:Q3)",
                  "forall x y. wdt:P1+(x, y) -> a(x)", "forall x. a(x) -> wdt:P1(x, wd:Q3)",
                  "forall x y. wdt:P1*(x, y) -> x = y", "forall x. b(x) -> ~a(x)", "b(wd:Q1)",
                  "triple(wd:Q2, wdt:P1, wd:Q3)"]
CLOSURE_GOALS = ["exists x y. wdt:P1+(x, y)", "wdt:P1*(wd:Q1, wd:Q3)", "a(wd:Q1)", "wdt:P1(wd:Q1, wd:Q3)",
                 "exists x. triple(wd:Q1, wdt:P1, x)", "~a(wd:Q2)"]


@pytest.mark.parametrize("seed", range(30))
def test_selection_with_closures_equalities_and_triples_changes_no_entailment(seed):
    rng = random.Random(1000 + seed)
    combo = rng.sample(CLOSURE_SHAPES, rng.randrange(1, 5))
    prem = [Premise(f"p{i}", F(s)) for i, s in enumerate(combo)]
    for goal in CLOSURE_GOALS:
        a = entails(prem, F(goal), countermodel=False, select=True).status
        b = entails(prem, F(goal), countermodel=False, select=False).status
        assert a == b, (combo, goal)


@pytest.mark.parametrize("seed", range(20))
def test_selection_per_conclusion_in_entails_each_changes_no_entailment(seed):
    """entails_each checks each conclusion with its own relevant premises (grouped): the
    statuses are those of the checks without selection."""
    rng = random.Random(100 + seed)
    premises = [Premise(f"p{i}", F(_random_premise(rng))) for i in range(rng.randrange(2, 8))]
    goals = [F(f"{rng.choice(PREDS)}({rng.choice(ITEMS)})") for _ in range(4)]
    goals.append(F(f"~{rng.choice(PREDS)}({rng.choice(ITEMS)})"))
    with_sel = entails_each(premises, goals, chase=False)
    without = entails_each(premises, goals, chase=False, select=False)
    assert [r.status for r in with_sel] == [r.status for r in without]
    assert [r.status for r in entails_each(premises, goals)] == [r.status for r in without]
