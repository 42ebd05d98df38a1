"""Perturbations (verifier.benchmark.perturb): for every category, the perturbed query parses,
is proved NOT equivalent to its gold query, and changes what the category says; the gold
record is the regenerated gold query, proved equivalent.  Small fixtures; no shared data."""

from __future__ import annotations

import random
import re

import pytest

from parsers.sparql import parse_query, parse_tree
from parsers.sparql_transform import meaningful_sites, normalize
from verifier.benchmark.gold import GoldPair
from verifier.benchmark.perturb import (CATEGORIES, PERTURBATION_CATEGORIES, Candidate,
                                        PerturbConfig, _number_alternatives, _replace_id,
                                        RLIMIT_PER_MS, _typo_ids, _year_shift, decide_equivalence, perturb_pair,
                                        regenerated_gold)
from verifier.benchmark.plausible import build_stats, query_facts
from verifier.prover import equivalent

GOLD = {
    "mass": ("What is the mass of benzene?", "SELECT ?v WHERE { wd:Q2270 wdt:P2067 ?v . }"),
    "solub": ("What chemical compounds have less than 0.07 g/kg of solubility?",
              "SELECT ?c WHERE { ?c wdt:P31 wd:Q11173 . ?c wdt:P2177 ?s . FILTER(?s < 0.07) }"),
    "ask": ("Did Douglas Adams study at St John's College?",
            "ASK { wd:Q42 wdt:P69 wd:Q691283 . }"),
    "count": ("How many humans are US citizens?",
              "SELECT (COUNT(?x) AS ?n) WHERE { ?x wdt:P31 wd:Q5 . ?x wdt:P27 wd:Q30 . }"),
    "super": ("Who is the tallest human?",
              "SELECT ?x WHERE { ?x wdt:P31 wd:Q5 ; wdt:P2048 ?h . } ORDER BY DESC(?h) LIMIT 1"),
    "stmt": ("What was the population of Somalia in 2009?",
             "PREFIX p: <http://www.wikidata.org/prop/> SELECT ?obj WHERE { wd:Q1045 p:P1082 ?s . "
             "?s ps:P1082 ?obj . ?s pq:P585 ?x FILTER(CONTAINS(STR(YEAR(?x)), '2009')) }"),
    "letter": ("Which cities start with u?",
               "SELECT ?x WHERE { ?x wdt:P31 wd:Q515 ; rdfs:label ?l . "
               "FILTER(STRSTARTS(LCASE(?l), \"u\")) FILTER(LANG(?l) = \"en\") }"),
    "in": ("Which humans were born in Paris or Lyon?",
           "SELECT ?x WHERE { ?x wdt:P31 wd:Q5 ; wdt:P19 ?c . FILTER(?c IN (wd:Q90, wd:Q456)) }"),
}
LABELS = {"Q2270": "benzene", "P2067": "mass", "Q11173": "chemical compound",
          "P2177": "solubility", "Q42": "Douglas Adams", "P69": "educated at",
          "Q691283": "St John's College", "Q5": "human", "P27": "country of citizenship",
          "Q30": "United States of America", "P2048": "height", "Q1045": "Somalia",
          "P1082": "population", "P585": "point in time", "Q515": "city", "P31": "instance of",
          "P19": "place of birth", "Q90": "Paris", "Q456": "Lyon", "P2054": "density",
          "P2101": "melting point", "P2102": "boiling point", "Q148": "China",
          "Q2225": "benzoic acid", "P106": "occupation", "Q33999": "actor", "P569": "date of birth",
          "Q16": "Canada", "Q60": "New York City", "P1081": "Human Development Index",
          "Q1046": "Somaliland"}
EXTRA_TREES = [  # more gold-like queries for the statistics
    "SELECT ?v WHERE { wd:Q2225 wdt:P2101 ?v . }",
    "SELECT ?v WHERE { wd:Q2225 wdt:P2102 ?v . }",
    "SELECT ?v WHERE { ?c wdt:P31 wd:Q11173 ; wdt:P2054 ?v . }",
    "SELECT ?x WHERE { ?x wdt:P31 wd:Q5 ; wdt:P106 wd:Q33999 ; wdt:P27 wd:Q16 . }",
    "SELECT ?x WHERE { ?x wdt:P31 wd:Q5 ; wdt:P569 ?d ; wdt:P19 wd:Q60 . }",
    "SELECT ?v WHERE { wd:Q148 wdt:P1082 ?v . }",
    "SELECT ?v WHERE { wd:Q1046 wdt:P1081 ?v . }",
]


def _pair(key: str) -> GoldPair:
    q, s = GOLD[key]
    return GoldPair(f"fx-{key}", q, s, "fixture", "test", frozenset())


@pytest.fixture(scope="module")
def stats():
    trees = [parse_tree(s) for _, s in GOLD.values()] + [parse_tree(s) for s in EXTRA_TREES]
    return build_stats(trees, LABELS, LABELS.keys())


@pytest.fixture(scope="module")
def outcomes(stats):
    return {k: perturb_pair(_pair(k), stats, PerturbConfig(seed=0)) for k in GOLD}


def _records(outcomes, category):
    return [r for o in outcomes.values() for r in o.records if r.category == category]


def _ids(text: str) -> set[str]:
    return set(re.findall(r"(?<![\w])(?:wd|wdt|p|ps|pq):([PQ]\d+)", text))


def test_every_pair_has_a_gold_record_equivalent_to_the_original(outcomes):
    for key, o in outcomes.items():
        assert o.status == "ok", (key, o.reason)
        gold = [r for r in o.records if r.category == "gold"]
        assert len(gold) == 1 and gold[0].label == 1 and gold[0].id == f"fx-{key}"
        assert gold[0].gold_sparql == GOLD[key][1]
        assert equivalent(parse_query(GOLD[key][1]), parse_query(gold[0].sparql)).equivalent


@pytest.mark.parametrize("category", PERTURBATION_CATEGORIES)
def test_category_valid_and_not_equivalent(outcomes, category):
    recs = _records(outcomes, category)
    assert recs, f"no {category} perturbation on the fixtures"
    for r in recs:
        assert r.label == 0 and r.id == f"{r.get('gold_id')}/{category}"
        gold_q = parse_query(r.gold_sparql)
        pert_q = parse_query(r.sparql)  # must parse
        assert equivalent(gold_q, pert_q).equivalent is False, r.sparql
        assert r.detail, "detail must say what changed"
        assert r.source == "fixture/test"


def test_wrong_property_and_entity_change_one_id_to_an_unused_one(outcomes):
    for cat in ("wrong_property", "wrong_entity"):
        for r in _records(outcomes, cat):
            d = r.detail
            letter = "P" if cat == "wrong_property" else "Q"
            assert d["from_id"][0] == d["to_id"][0] == letter
            gold_ids, new_ids = _ids(r.gold_sparql), _ids(r.sparql)
            assert d["from_id"] in gold_ids and d["from_id"] not in new_ids
            assert d["to_id"] in new_ids and d["to_id"] not in gold_ids
            assert d["via"] in ("class", "entity", "cooccurrence", "role", "near_label")


def test_statement_families_change_together():
    tree = normalize(parse_tree(GOLD["stmt"][1]))
    new, olds, news = _replace_id(tree, "P1082", "P1081")
    from parsers.sparql_generate import generate

    text = generate(new)
    assert "p:P1081" in text and "ps:P1081" in text and "P1082" not in text
    assert olds == ["p:P1082", "ps:P1082"] and news == ["p:P1081", "ps:P1081"]


def test_nonexistent_ids_are_absent_from_the_labels(outcomes, stats):
    recs = _records(outcomes, "nonexistent_id")
    assert len(recs) == len(GOLD)
    for r in recs:
        new = r.detail["to_id"]
        assert re.fullmatch(r"[PQ][1-9]\d*", new) and new not in stats.known_ids
        assert new[0] == r.detail["from_id"][0]
        assert r.detail["kind"] == ("item" if new[0] == "Q" else "property")


def test_swapped_and_dropped_and_added_triples(outcomes):
    for r in _records(outcomes, "swapped_direction"):
        s, v, o = r.detail["from"].split()
        assert r.detail["to"] == f"{o} {v} {s}"
        assert not s.startswith('"') and not o.startswith('"')
    for r in _records(outcomes, "dropped_triple"):
        g = meaningful_sites(normalize(parse_tree(r.gold_sparql)))
        p = meaningful_sites(normalize(parse_tree(r.sparql)))
        assert len(p) == len(g) - 1
        q = parse_query(r.sparql)
        assert q.answer_vars == parse_query(r.gold_sparql).answer_vars
    for r in _records(outcomes, "added_triple"):
        g = meaningful_sites(normalize(parse_tree(r.gold_sparql)))
        p = meaningful_sites(normalize(parse_tree(r.sparql)))
        assert len(p) == len(g) + 1
        assert r.detail["property"] in _ids(r.sparql)


def test_literals_and_operators(outcomes):
    lits = {r.get("gold_id"): r for r in _records(outcomes, "wrong_literal")}
    assert {"fx-solub", "fx-stmt", "fx-letter"} <= set(lits)
    assert lits["fx-solub"].detail["kind"] == "number"
    assert lits["fx-stmt"].detail["from"] == '"2009"'
    assert lits["fx-letter"].detail["from"] == '"u"'
    assert len(lits["fx-letter"].detail["to"]) == 3  # another single letter, quoted
    for r in lits.values():
        assert r.detail["from"] != '"en"'  # LANG tags are never changed
    ops = {r.get("gold_id"): r for r in _records(outcomes, "wrong_operator")}
    assert ops["fx-solub"].detail["from"] == "<" and ops["fx-solub"].detail["to"] in (">", "<=", ">=")
    assert ops["fx-in"].detail == {"from": "IN", "to": "NOT IN"}
    assert "fx-letter" not in ops  # LANG(?l) = "en" is not a candidate


def test_wrong_form_options(outcomes):
    forms = {r.get("gold_id"): r.detail for r in _records(outcomes, "wrong_form")}
    assert forms["fx-ask"] == {"from": "ask", "to": "count"}  # no variable to project
    assert forms["fx-count"]["from"] in ("select", "count")
    assert forms["fx-super"]["from"] in ("select", "order desc", "order by + limit 1")


def test_deterministic_and_independent_of_order(stats):
    cfg = PerturbConfig(seed=5)
    a = [perturb_pair(_pair(k), stats, cfg) for k in GOLD]
    b = [perturb_pair(_pair(k), stats, cfg) for k in reversed(list(GOLD))][::-1]
    assert a == b
    c = perturb_pair(_pair("count"), stats, PerturbConfig(seed=5, categories=("wrong_form",)))
    assert [r.category for r in c.records] == ["gold", "wrong_form"]


def test_equivalent_candidates_are_dropped_and_counted(stats, monkeypatch):
    from verifier.benchmark import perturb
    from parsers.sparql_transform import rename_variables

    def same_meaning(tree, facts, st, rng):
        yield Candidate(rename_variables(tree, {"v": "w"}), {"what": "renamed"})

    monkeypatch.setitem(perturb._PROPOSERS, "wrong_property", same_meaning)
    o = perturb_pair(_pair("mass"), stats, PerturbConfig(categories=("wrong_property",)))
    assert [r.category for r in o.records] == ["gold"]
    assert o.dropped == {"wrong_property": {"equivalent": 1}}


def test_unparseable_gold_is_reported(stats):
    bad = GoldPair("fx-bad", "q?", "SELECT ?x WHERE { ?x wdt:P31 ", "fixture", "test", frozenset())
    o = perturb_pair(bad, stats)
    assert o.status == "gold_unparseable" and not o.records
    assert regenerated_gold(bad.sparql) is None
    assert regenerated_gold(GOLD["mass"][1]) == "SELECT ?v WHERE { wd:Q2270 wdt:P2067 ?v . }"


def test_value_mutations():
    rng = random.Random(0)
    years = _number_alternatives("2009", rng)
    assert years and all(1999 <= int(y) <= 2019 and y != "2009" for y in years)
    assert all(x != "0.07" for x in _number_alternatives("0.07", rng))
    assert all(x != "3" and int(x) >= 0 for x in _number_alternatives("3", rng))
    assert _year_shift("2009-01-01T00:00:00Z", rng)[0][4:] == "-01-01T00:00:00Z"
    assert _year_shift("abc", rng) == []
    ids = _typo_ids("Q1045", rng, frozenset({"Q1054"}))
    assert ids and all(i != "Q1045" and i != "Q1054" and i[1] != "0" for i in ids)


def test_facts_and_stats(stats):
    f = query_facts(parse_tree(GOLD["solub"][1]))
    assert f.classes == {"?c": frozenset({"Q11173"})}
    assert ("?c", "P2177", "?s") in f.triples
    structural, near = stats.property_candidates("P2177", f, "?c", "?s")
    assert structural[0] == ("P2054", "class")  # used with chemical compounds in the corpus
    assert all(p not in f.properties for p, _ in structural + near)
    assert CATEGORIES[0] == "gold"


def test_undecided_checks_are_retried_with_the_long_budget(monkeypatch):
    import verifier.prover as prover
    from verifier.prover import EquivalenceResult

    calls = []

    def fake(a, b, *, timeout_ms, strict_distinct=False, rlimit=None, fresh_context=False):
        calls.append((rlimit, fresh_context))
        return EquivalenceResult(None if len(calls) == 1 else False, "timeout")

    monkeypatch.setattr(prover, "equivalent", fake)
    assert decide_equivalence("a", "b", 4000, 30000).equivalent is False
    assert calls == [(4000 * RLIMIT_PER_MS, False), (30000 * RLIMIT_PER_MS, True)]
    calls.clear()
    assert decide_equivalence("a", "b", 4000, 0).equivalent is None
    assert calls == [(4000 * RLIMIT_PER_MS, False)]


def test_equivalence_decisions_use_a_resource_budget_not_the_clock():
    from parsers.sparql import parse_query
    from verifier.prover import equivalent

    g = parse_query(GOLD["mass"][1])
    res = equivalent(g, parse_query("SELECT ?x WHERE { wd:Q2270 wdt:P2067 ?x }"),
                     rlimit=1, timeout_ms=600_000)
    # one resource unit cannot decide anything: the resource limit, not the clock, says so
    assert res.equivalent is None and "resource limit" in (res.forward.reason or "")
    assert decide_equivalence(g, parse_query("SELECT ?x WHERE { wd:Q2270 wdt:P2067 ?x }")).equivalent


def test_no_swap_of_a_symmetric_property():
    """Swapping a sibling triple means the same (the axioms' background makes P3373
    symmetric): only the other triple is swapped."""
    from verifier.benchmark.perturb import _swapped_direction

    tree = normalize(parse_tree("SELECT ?x WHERE { wd:Q42 wdt:P3373 ?x . ?x wdt:P106 ?o . }"))
    swaps = [c.detail["from"] for c in _swapped_direction(tree, None, None, random.Random(0))]
    assert swaps == ["?x wdt:P106 ?o"]
    tree = normalize(parse_tree("SELECT ?x WHERE { wd:Q42 <http://www.wikidata.org/prop/direct/P26> ?x . }"))
    assert list(_swapped_direction(tree, None, None, random.Random(0))) == []
