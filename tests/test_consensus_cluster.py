"""Clusters of semantically equivalent candidates (verifier.consensus.cluster) and how two
clusters differ in words (verifier.consensus.describe)."""

from __future__ import annotations

import json

from verifier.consensus import (Clustering, EquivalenceCache, cluster_candidates, consensus_evidence,
                                normalise)
from verifier.consensus.cluster import EQUIVALENT, UNDECIDED, compare

HUMANS_US = "SELECT ?x WHERE { ?x wdt:P31 wd:Q5 . ?x wdt:P27 wd:Q30 }"
RENAMED = "SELECT ?person WHERE { ?person wdt:P27 wd:Q30 . ?person wdt:P31 wd:Q5 . }"
# equivalent to HUMANS_US, but not by normal form: a redundant triple the prover must see through
REDUNDANT = "SELECT ?x WHERE { ?x wdt:P31 wd:Q5 . ?x wdt:P27 wd:Q30 . ?x wdt:P27 ?any }"
FRANCE = "SELECT ?x WHERE { ?x wdt:P31 wd:Q5 . ?x wdt:P27 wd:Q142 }"
SWAPPED = "SELECT ?x WHERE { ?x wdt:P31 wd:Q5 . wd:Q30 wdt:P27 ?x }"


def test_renamed_reordered_and_redundant_candidates_form_one_cluster():
    c = cluster_candidates([FRANCE, HUMANS_US, RENAMED, REDUNDANT, SWAPPED])
    assert c.clusters == ((1, 2, 3), (0,), (4,))
    assert c.undecided == () and c.unparsed == () and c.uncompared == ()
    assert c.n_candidates == 5
    # renamed is a normal-form duplicate of HUMANS_US; REDUNDANT needs the prover
    assert c.prover_checks >= 1
    assert [s.representative for s in c.summaries] == [1, 0, 4]
    assert c.cluster_of(3) == 0 and c.cluster_of(4) == 2


def test_genuinely_different_candidates_stay_apart():
    qs = [HUMANS_US, FRANCE, SWAPPED, "ASK { ?x wdt:P31 wd:Q5 . ?x wdt:P27 wd:Q30 }",
          "SELECT (COUNT(?x) AS ?n) WHERE { ?x wdt:P31 wd:Q5 . ?x wdt:P27 wd:Q30 }",
          "SELECT ?x WHERE { ?x wdt:P31 wd:Q5 . ?x wdt:P27 wd:Q30 . ?x wdt:P21 wd:Q6581072 }"]
    c = cluster_candidates(qs)
    assert sorted(c.clusters) == [(i,) for i in range(6)]
    assert c.clusters[0] == (0,)  # ties: first appearance first


def test_unparsable_candidates_are_their_own_clusters():
    c = cluster_candidates([HUMANS_US, "SELEC nonsense", None, "", RENAMED, "SELEC nonsense"])
    assert c.clusters == ((0, 4), (1,), (2,), (3,), (5,))
    assert c.unparsed == (1, 2, 3, 5)
    ev = consensus_evidence(c)
    assert [e.parsed for e in ev] == [True, False, False, False, True, False]
    assert ev[1].difference == "1 of 6 candidates does not parse, where 2 parse alike"
    assert ev[0].difference == "2 of 6 candidates parse alike, where 1 does not parse"


def test_a_budget_of_one_unit_leaves_the_redundant_pair_undecided():
    c = cluster_candidates([HUMANS_US, REDUNDANT, RENAMED], budget=1)
    # the normal-form duplicates still agree; the prover cannot decide the other pair
    assert c.clusters == ((0, 2), (1,))
    assert c.undecided == ((0, 1),)
    ev = consensus_evidence(c)
    assert [e.undecided for e in ev] == [1, 1, 1]
    # with a real budget the same pair is proved equivalent
    assert cluster_candidates([HUMANS_US, REDUNDANT, RENAMED]).clusters == ((0, 1, 2),)


def test_undecided_pairs_are_reported_from_the_prover_outcome():
    a, b = normalise([HUMANS_US, REDUNDANT])
    assert compare(a, b, 1, None) == (UNDECIDED, True)
    assert compare(b, a, 300_000, None) == (EQUIVALENT, True)


def test_cache_reuses_checks_across_questions_and_budgets_are_keys():
    cache = EquivalenceCache(maxsize=10)
    first = cluster_candidates([HUMANS_US, REDUNDANT, FRANCE], cache=cache)
    assert first.prover_checks == len(cache) > 0
    again = cluster_candidates([RENAMED, REDUNDANT, FRANCE], cache=cache)  # same normal forms
    assert again.prover_checks == 0 and cache.hits >= 1
    assert again.clusters == ((0, 1), (2,))
    assert cluster_candidates([HUMANS_US, REDUNDANT], cache=cache, budget=1).prover_checks == 1


def test_cache_is_bounded_least_recently_used_first():
    cache = EquivalenceCache(maxsize=2)
    cache.put(("a", "b", 1), (EQUIVALENT, ""))
    cache.put(("a", "c", 1), (EQUIVALENT, ""))
    assert cache.get(("a", "b", 1)) is not None  # now the most recent
    cache.put(("b", "c", 1), (EQUIVALENT, ""))
    assert len(cache) == 2 and cache.get(("a", "c", 1)) is None and cache.get(("a", "b", 1)) is not None


def test_only_the_most_frequent_normal_forms_go_to_the_prover():
    qs = [HUMANS_US, HUMANS_US, REDUNDANT, FRANCE, FRANCE, FRANCE, SWAPPED]
    c = cluster_candidates(qs, max_representatives=2)
    # FRANCE (3) and HUMANS_US (2) are compared; REDUNDANT and SWAPPED are left alone
    assert c.uncompared == (2, 6)
    assert c.clusters == ((3, 4, 5), (0, 1), (2,), (6,))
    ev = consensus_evidence(c)
    assert ev[2].difference.endswith("(not compared by the prover: beyond the most frequent normal forms)")
    assert "not compared" not in ev[0].difference
    assert cluster_candidates(qs).clusters == ((0, 1, 2), (3, 4, 5), (6,))


def test_fifty_candidates_are_bounded():
    props = [f"P{100 + i}" for i in range(50)]
    qs = [f"SELECT ?x WHERE {{ wd:Q1 wdt:{p} ?x }}" for p in props]
    c = cluster_candidates(qs)
    assert len(c.clusters) == 50 and len(c.uncompared) == 50 - 24
    assert c.prover_checks <= 24 * 23 // 2


def test_clustering_round_trips_through_json():
    c = cluster_candidates([HUMANS_US, REDUNDANT, FRANCE, None], budget=1)
    back = Clustering.from_dict(json.loads(json.dumps(c.to_dict())))
    assert back.clusters == c.clusters and back.undecided == c.undecided
    assert back.unparsed == c.unparsed and back.summaries == c.summaries


def test_differences_in_words():
    qs = ["SELECT ?d WHERE { wd:Q1 wdt:P570 ?d }", "SELECT ?c WHERE { wd:Q1 wdt:P509 ?c }",
          "SELECT ?c WHERE { wd:Q1 wdt:P509 ?c . }", "SELECT ?x WHERE { wd:Q1 wdt:P509 ?x }",
          "SELECT ?v WHERE { wd:Q1 wdt:P570 ?v }", "ASK { wd:Q1 wdt:P509 ?c }",
          "SELECT ?c WHERE { wd:Q1 wdt:P509 ?c } LIMIT 1", "SELECT ?c WHERE { ?c wdt:P509 wd:Q1 }",
          "SELECT ?c WHERE { wd:Q1 wdt:P509 ?c . ?c wdt:P31 wd:Q12136 }"]
    labels = {"P570": "date of death", "P509": "cause of death", "Q12136": "disease"}
    c = cluster_candidates(qs)
    ev = consensus_evidence(c, labels=labels)
    assert c.clusters[0] == (1, 2, 3) and c.clusters[1] == (0, 4)
    assert ev[0].difference == "2 of 9 candidates use P570 (date of death) where 3 use P509 (cause of death)"
    assert ev[1].difference == "3 of 9 candidates use P509 (cause of death) where 2 use P570 (date of death)"
    assert ev[5].difference == "1 of 9 candidates asks for a yes/no answer where 3 ask for a list of answers"
    assert ev[6].difference == "1 of 9 candidates uses LIMIT 1 where 3 use none"
    assert ev[7].difference.startswith("1 of 9 candidates uses the same identifiers as 3 others but relates")
    assert ev[8].difference == "1 of 9 candidates also uses P31 and Q12136 (disease), which 3 others do not"
    single = consensus_evidence(cluster_candidates([qs[0], qs[4]]))
    assert single[0].difference == "all 2 candidates are equivalent"
