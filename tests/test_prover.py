"""Z3 prover: entailment statuses, cores, countermodels, limits; query equivalence."""

from __future__ import annotations

import itertools
import json
import random
import re
from pathlib import Path

import pytest

from parsers.sparql import SparqlError, parse_query, parse_tree
from parsers.sparql_generate import generate
from parsers.sparql_transform import (
    dropped_triple, renamed_and_shuffled, replaced_property, swapped_direction,
)
from verifier.notation import parse_formula as F
from verifier.prover import (RLIMIT_PER_MS, Premise, entails, entails_each, equivalent, refuted_in_chase, satisfiable,
                             solver_budget)

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"

MASS = Premise("mass_n_of -> P2067", F("forall x y. _mass_n_of(x, y) -> exists v. wdt:P2067(y, v)"))
BENZENE = Premise("benzene -> Q2270", F("forall x. _benzene_n_1(x) -> x = wd:Q2270"))
QUESTION = Premise("T(question)", F("exists x8 x13. _mass_n_of(x8, x13) & _benzene_n_1(x13)"))


def test_background_paper_example_is_proved_with_core():
    r = entails([MASS, BENZENE, QUESTION], F("exists v. wdt:P2067(wd:Q2270, v)"))
    assert r.status == "proved"
    assert set(r.used) == {"mass_n_of -> P2067", "benzene -> Q2270", "T(question)"}


def test_core_lists_premises_in_their_order():
    for order in itertools.permutations([QUESTION, BENZENE, MASS]):
        r = entails(list(order), F("exists v. wdt:P2067(wd:Q2270, v)"))
        assert r.used == tuple(p.name for p in order)


def test_entails_each_agrees_with_entails_per_conclusion():
    goals = [F("exists v. wdt:P2067(wd:Q2270, v)"), F("exists v. wdt:P2102(wd:Q2270, v)"),
             F("wdt:P2067(wd:Q2270, wd:Q2270)"), F("exists v. wdt:P2067(wd:Q2270, v) & v = v")]
    each = entails_each([MASS, BENZENE, QUESTION], goals)
    assert [r.status for r in each] == ["proved", "refuted", "refuted", "proved"]
    assert [r.status for r in each] == [entails([MASS, BENZENE, QUESTION], g).status for g in goals]
    assert entails_each([MASS], []) == []


def test_a_check_reports_the_solver_work_it_did():
    goal = F("exists v. wdt:P2067(wd:Q2270, v)")
    r = entails([MASS, BENZENE, QUESTION], goal, chase=False, fresh_context=True)
    assert r.proved and r.work > 0
    # the same check in a new context does the same work: a measure that does not depend on
    # the machine or its load
    assert entails([MASS, BENZENE, QUESTION], goal, chase=False, fresh_context=True).work == r.work
    # a refutation by the chase asks nothing of Z3
    assert entails([MASS, BENZENE, QUESTION], F("exists v. wdt:P2102(wd:Q2270, v)")).work == 0
    each = entails_each([MASS, BENZENE, QUESTION], [goal, F("wdt:P2067(wd:Q2270, wd:Q2270)")], chase=False)
    assert all(e.work > 0 for e in each)


def test_unused_premise_is_not_in_core():
    noise = Premise("noise", F("forall x. _water_n_1(x) -> x = wd:Q283"))
    r = entails([MASS, BENZENE, QUESTION, noise], F("exists v. wdt:P2067(wd:Q2270, v)"))
    assert r.proved and "noise" not in r.used


def test_wrong_property_is_refuted_with_countermodel():
    r = entails([MASS, BENZENE, QUESTION], F("exists v. wdt:P2102(wd:Q2270, v)"))
    assert r.status == "refuted"
    assert "wdt:P2067(wd:Q2270" in r.countermodel


def test_wrong_entity_and_swapped_direction_are_refuted():
    prem = [MASS, BENZENE, QUESTION]
    assert entails(prem, F("exists v. wdt:P2067(wd:Q283, v)")).status == "refuted"
    assert entails(prem, F("exists v. wdt:P2067(v, wd:Q2270)")).status == "refuted"


def test_numeric_and_date_comparisons_are_arithmetic():
    assert entails([F("wdt:P2177(a, s) & s < 0.05")], F("s < 0.07")).proved
    assert entails([F("wdt:P2177(a, s) & s < 0.08")], F("s < 0.07")).status == "refuted"
    assert entails([F('d = "2001-05-01"^^xsd:date')], F('d > "2000-12-31"^^xsd:date')).proved
    assert entails([F("x = 1")], F("x = 1.0")).proved  # same value, same constant


def test_unique_names():
    assert entails([F("x = wd:Q1")], F("x != wd:Q2")).proved


def test_string_comparison():
    assert entails([F('x = "abc"')], F('x < "abd"')).proved


def test_closures():
    assert entails([F("wdt:P279(a, b) & wdt:P279(b, c)")], F("wdt:P279+(a, c)")).proved
    assert entails([F("wdt:P279+(a, b) & wdt:P279(b, c)")], F("wdt:P279*(a, c)")).proved
    assert entails([], F("wdt:P279*(a, a)")).proved
    assert entails([F("wdt:P279*(a, b)")], F("wdt:P279(a, b)")).status == "refuted"


def test_variable_predicates_link_to_binary_atoms():
    assert entails([F("wdt:P31(x, wd:Q5)")], F("exists p. triple(x, p, wd:Q5)")).proved
    assert entails([F("triple(x, wdt:P31, wd:Q5)")], F("wdt:P31(x, wd:Q5)")).proved


def test_resource_limit_gives_unknown_not_exception():
    hard = F("forall x y z. r(x, y) & r(y, z) -> r(x, z)")
    r = entails([hard, F("forall x. exists y. r(x, y)")], F("r(a, a)"), rlimit=1)
    assert r.status == "unknown" and "resource limit" in r.reason


def test_rlimit_outcome_does_not_depend_on_earlier_checks():
    # a fresh Z3 context per check: the same question gets the same answer, with the same
    # resource use, whatever the process solved before
    hard = [F("forall x y z. r(x, y) & r(y, z) -> r(x, z)"), F("forall x. exists y. r(x, y)")]
    first = entails(hard, F("exists y. r(a, y) & r(y, b)"), rlimit=2_000_000, timeout_ms=600_000,
                    fresh_context=True)
    for i in range(5):
        entails([F(f"p{i}(a) -> q(a)"), F(f"p{i}(a)")], F("q(a)"))
    again = entails(hard, F("exists y. r(a, y) & r(y, b)"), rlimit=2_000_000, timeout_ms=600_000,
                    fresh_context=True)
    assert (first.status, first.reason) == (again.status, again.reason)
    assert entails([F("p(a)"), F("forall x. p(x) -> q(x)")], F("q(a)"), rlimit=2_000_000,
                   fresh_context=True).proved


def test_entails_each_limits_each_check_by_resources():
    # the resource limit counts from the start of each check: cheap checks after others all
    # pass under a limit their sum exceeds; a hard one stops with "resource limit"
    hard = F("forall x y z. r(x, y) & r(y, z) -> r(x, z)")
    goals = [F(f"q{i}(a)") for i in range(6)]
    premises = [F(f"p(a) -> q{i}(a)") for i in range(6)] + [F("p(a)")]
    used = [r.status for r in entails_each(premises, goals, rlimit=600, timeout_ms=600_000)]
    assert used == ["proved"] * 6
    [r] = entails_each([hard, F("forall x. exists y. r(x, y)")], [F("r(a, a)")], rlimit=1, timeout_ms=600_000)
    assert r.status == "unknown" and "resource limit" in r.reason


def test_solver_budget_is_counted_in_resources_with_a_wall_clock_net():
    b = solver_budget(2000)
    assert b["rlimit"] == 2000 * RLIMIT_PER_MS and b["timeout_ms"] > 2000
    assert entails([F("p(a)"), F("forall x. p(x) -> q(x)")], F("q(a)"), **solver_budget(50)).proved


def test_satisfiable():
    assert satisfiable([F("p(a)"), F("~p(a)")]).proved  # contradiction found
    assert satisfiable([F("p(a)")]).status == "refuted"


# ----------------------------------------------------------------------------- equivalence

Q = parse_query


def test_equivalent_up_to_renaming_and_order():
    a = Q("SELECT ?x WHERE { ?x wdt:P31 wd:Q5 ; wdt:P27 wd:Q142 . ?x wdt:P569 ?d FILTER(YEAR(?d) > 1900) }")
    b = Q("SELECT ?y WHERE { ?y wdt:P569 ?e . FILTER(YEAR(?e) > 1900) ?y wdt:P27 wd:Q142 ; wdt:P31 wd:Q5 }")
    assert equivalent(a, b).equivalent is True


@pytest.mark.parametrize("other,reason", [
    ("SELECT ?v WHERE { ?v wdt:P2067 wd:Q2270 }", "entail"),
    ("SELECT ?v WHERE { wd:Q2270 wdt:P2102 ?v }", "entail"),
    ("SELECT ?v WHERE { wd:Q283 wdt:P2067 ?v }", "entail"),
    ("ASK { wd:Q2270 wdt:P2067 ?v }", "forms"),
    ("SELECT (COUNT(?v) AS ?n) WHERE { wd:Q2270 wdt:P2067 ?v }", "answer"),
    ("SELECT ?v WHERE { wd:Q2270 wdt:P2067 ?v } LIMIT 1", "LIMIT"),
])
def test_not_equivalent_with_reason(other, reason):
    r = equivalent(Q("SELECT ?v WHERE { wd:Q2270 wdt:P2067 ?v }"), Q(other))
    assert r.equivalent is False and reason in r.reason


def test_equivalent_modifiers():
    a = Q("SELECT ?c WHERE { ?c wdt:P31 wd:Q515 ; wdt:P1082 ?p } ORDER BY DESC(?p) LIMIT 1")
    b = Q("SELECT ?k WHERE { ?k wdt:P1082 ?q ; wdt:P31 wd:Q515 } ORDER BY DESC(?q) LIMIT 1")
    c = Q("SELECT ?k WHERE { ?k wdt:P1082 ?q ; wdt:P31 wd:Q515 } ORDER BY ASC(?q) LIMIT 1")
    assert equivalent(a, b).equivalent is True
    assert equivalent(a, c).equivalent is False
    n1 = Q("SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x wdt:P31 wd:Q5 }")
    n2 = Q("SELECT (COUNT(DISTINCT ?y) AS ?m) WHERE { ?y wdt:P31 wd:Q5 }")
    n3 = Q("SELECT (COUNT(?y) AS ?m) WHERE { ?y wdt:P31 wd:Q5 }")
    assert equivalent(n1, n2).equivalent is True
    assert equivalent(n1, n3).equivalent is False


def test_equivalence_sees_through_paths_and_filters():
    a = Q("SELECT ?x WHERE { ?x wdt:P19/wdt:P17 wd:Q142 }")
    b = Q("SELECT ?x WHERE { ?x wdt:P19 ?city . ?city wdt:P17 wd:Q142 }")
    assert equivalent(a, b).equivalent is True
    c = Q("SELECT ?x WHERE { ?x wdt:P2177 ?s FILTER(?s < 0.07) }")
    d = Q("SELECT ?x WHERE { ?x wdt:P2177 ?s FILTER(0.07 > ?s) }")
    assert equivalent(c, d).equivalent is True
    e = Q("SELECT ?x WHERE { ?x wdt:P2177 ?s FILTER(?s <= 0.07) }")
    assert equivalent(c, e).equivalent is False


@pytest.mark.shared
@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/data not available")
def test_equivalence_on_a_sample_of_gold_queries():
    """Done-when 2 on a fixed sample (the full corpus: bench/equivalence.py)."""
    lines = (SHARED / "qald9plus" / "train.jsonl").read_text(encoding="utf-8").splitlines()
    lines += (SHARED / "lcquad2" / "test.jsonl").read_text(encoding="utf-8").splitlines()[:150]
    queries = [json.loads(x)["sparql"] for x in lines]
    props = sorted({p for q in queries for p in re.findall(r"\b(P\d+)\b", q)})
    renamed = total = mutated_ok = mutated = 0
    for i, text in enumerate(queries):
        rng = random.Random(i)
        try:
            base, tree = parse_query(text), parse_tree(text)
        except SparqlError:
            continue
        total += 1
        renamed += equivalent(base, parse_query(generate(renamed_and_shuffled(tree, rng)))).equivalent is True
        for m in (swapped_direction(tree, rng), replaced_property(tree, rng, props), dropped_triple(tree, rng)):
            if m is not None:
                mutated += 1
                mutated_ok += equivalent(base, parse_query(generate(m))).equivalent is False
    assert total > 450
    assert renamed == total
    assert mutated_ok / mutated >= 0.99


def test_refuted_in_chase_refutes_what_one_model_falsifies():
    prem = [MASS, BENZENE, QUESTION]
    conclusions = [F("exists v. wdt:P2067(wd:Q2270, v)"), F("exists v. wdt:P2069(wd:Q2270, v)"),
                   F("wdt:P31(wd:Q2270, wd:Q11173)")]
    assert refuted_in_chase(prem, conclusions) == [False, True, True]
    for c, refuted in zip(conclusions, refuted_in_chase(prem, conclusions)):
        # what the chase refutes Z3 cannot prove
        assert (entails(prem, c, chase=False).status == "refuted") == refuted
    assert refuted_in_chase(prem, []) == []


def test_alignment_claim_of_a_view_refutes_exactly_the_views_problem():
    from verifier.deductive.alignment import alignment_claim
    from verifier.deductive.reading import ReadingView, open_vars
    from verifier.logic import Var

    reading = ReadingView(intent=None, answer_vars=(), formula=QUESTION.formula, not_alignable=set())
    t, opened = open_vars(QUESTION.formula, {Var("x13")})
    assert opened == {Var("x13")}
    view = ReadingView.of(reading, t, set(), answer_vars=(Var("x13"),))
    prem = [MASS, BENZENE, QUESTION]
    prem2 = [MASS, BENZENE, Premise("T(question)", view.formula)]
    for g2, follows in ((F("exists v. wdt:P2067(x13, v)"), True), (F("x13 = wd:Q2270"), True),
                        (F("wdt:P31(x13, wd:Q11173)"), False), (F("exists v. wdt:P2069(x13, v)"), False)):
        claim = alignment_claim(view, g2, QUESTION.formula, set(), same=False)
        assert str(claim).startswith("forall x13.")
        [refuted] = refuted_in_chase(prem, [claim])
        assert refuted == (not follows)
        assert entails(prem2, g2, chase=False).status == ("proved" if follows else "refuted")
    # the opened noun is free in another premise: the two problems share no model
    assert alignment_claim(view, F("wdt:P31(x13, wd:Q11173)"), QUESTION.formula, {Var("x13")}, same=False) is None
    # an alignment that keeps the reading claims its G
    g = F("wdt:P31(x13, wd:Q11173)")
    assert alignment_claim(reading, g, QUESTION.formula, set(), same=True) is g

