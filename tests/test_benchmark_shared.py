"""The benchmark builder on the real shared data (skipped when ../shared/data is absent):
gold pairs, perturbations of a sample of real queries, the splits' properties, the LLM
prediction labels and the MRS coverage look-up."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
pytestmark = [pytest.mark.shared,
              pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/data not available")]


@pytest.fixture(scope="module")
def pairs():
    from verifier.benchmark.gold import load_gold_pairs

    return load_gold_pairs(SHARED)


def test_gold_pairs_match_the_ontology_split_loader(pairs):
    from verifier.benchmark.ontology_split import load_pairs

    assert len(pairs) == 9578
    assert [p.id for p in pairs] == [p.id for p in load_pairs(SHARED)]
    assert len({p.id for p in pairs}) == len(pairs)
    assert {p.dataset for p in pairs} >= {"lcquad2", "qald9plus", "wikiwebquestions", "spinach"}


def test_perturbations_of_real_queries(pairs):
    from parsers.sparql import SparqlError, parse_query, parse_tree
    from verifier.benchmark.perturb import PERTURBATION_CATEGORIES, PerturbConfig, perturb_pair
    from verifier.benchmark.plausible import build_stats, read_labels
    from verifier.prover import equivalent

    rng = random.Random(7)
    sample = rng.sample(pairs, 900)
    trees = []
    for p in sample:
        try:
            trees.append(parse_tree(p.sparql))
        except SparqlError:
            pass
    labels = read_labels(SHARED / "wikidata" / "labels.tsv")
    stats = build_stats(trees, labels, labels.keys())
    # queries with filters and literals first, so every category gets a chance
    chosen = [p for p in sample if "FILTER" in p.sparql.upper() and "<" in p.sparql][:4]
    chosen += [p for p in sample if p not in chosen][:8]
    seen = set()
    for p in chosen:
        out = perturb_pair(p, stats, PerturbConfig(seed=0))
        if out.status != "ok":
            continue
        gold_q = parse_query(p.sparql)
        for r in out.records:
            if r.category == "gold":
                continue
            seen.add(r.category)
            assert equivalent(gold_q, parse_query(r.sparql)).equivalent is False, r.id
            if r.category == "nonexistent_id":
                assert r.detail["to_id"] not in labels
    assert {"wrong_property", "wrong_entity", "swapped_direction", "wrong_form",
            "nonexistent_id"} <= seen
    assert seen <= set(PERTURBATION_CATEGORIES)


def test_unknown_uri_split_on_real_pairs(pairs):
    from verifier.benchmark.splits import build_unknown_uri_split, check_unknown_uri_split

    recs, stats = build_unknown_uri_split(pairs, seed=0)
    check_unknown_uri_split(recs)
    n_test = sum(r.get("split") == "test" for r in recs)
    assert 0.15 * len(recs) <= n_test <= round(0.2 * len(recs))
    assert stats["rare_below"] == 5


def test_unknown_template_split_on_real_pairs(pairs):
    from verifier.benchmark.splits import (build_unknown_template_split,
                                           check_unknown_template_split)

    subset = pairs[::6]
    recs, stats = build_unknown_template_split(subset, seed=0)
    check_unknown_template_split(recs, recompute=False)
    check_unknown_template_split(recs[::10], recompute=True)
    assert stats["templates"] > 50


def test_llm_prediction_labels():
    from verifier.benchmark.llm import iter_prediction_rows, prediction_record

    rows = [r for _, r in itertools.islice(iter_prediction_rows(SHARED), 40)]
    for row in rows:
        rec = prediction_record(row)
        s = row["score_f1"]
        want = None if s is None or 0 < s < 1 or not row["sparql"] else int(s)
        assert rec.label == want
        assert rec.get("label_equiv") in (0, 1, None)
        if rec.get("label_equiv") is not None:
            assert rec.get("equivalent_to_gold") == bool(rec.get("label_equiv"))


def test_mrs_coverage_lookup(pairs):
    from verifier.benchmark.gold import has_mrs, load_mrs_questions

    index = load_mrs_questions(SHARED)
    covered = sum(has_mrs(p.question, index) for p in pairs)
    assert 0.75 * len(pairs) < covered < 0.9 * len(pairs)
