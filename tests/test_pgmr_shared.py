"""PGMR on the shared data (skipped when ../shared/data is absent): the labels memory, a round
trip on LC-QuAD 2.0 test queries and the grounding signal on perturbed queries."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data"
LABELS = SHARED / "wikidata" / "labels.tsv"
LCQUAD = SHARED / "lcquad2" / "test.jsonl"

pytestmark = [pytest.mark.shared,
              pytest.mark.skipif(not (LABELS.is_file() and LCQUAD.is_file()),
                                 reason="../shared/data not available")]

N = 200


@pytest.fixture(scope="module")
def memory():
    from verifier.pgmr import Memory

    return Memory.from_labels_tsv(LABELS)


@pytest.fixture(scope="module")
def records():
    with LCQUAD.open(encoding="utf-8") as f:
        return [json.loads(line) for _, line in zip(range(N), f)]


def test_labels_memory(memory):
    assert len(memory) == 76_390                       # as documented in data/README.md
    assert memory.get("P2067").label == "mass"
    assert memory.search(["place of birth"], kind="property", k=1)[0][0].id == "P19"


def test_round_trip_sample(memory, records):
    from verifier.pgmr import ground_many, intermediate_form, round_trip_metrics

    forms = [intermediate_form(r["sparql"], memory) for r in records]
    assert all("starturi" in f.text for f in forms if f.replaced)
    res = ground_many([f.text for f in forms], memory)
    m = round_trip_metrics([r["sparql"] for r in records], [g.sparql for g in res], memory,
                           failed=[bool(f.missing) for f in forms])
    assert m.uri_em >= 93.0 and m.query_em >= 93.0
    # only gold ids missing from the memory can remain hallucinated after grounding
    assert m.uri_hallucination == pytest.approx(100.0 * sum(bool(f.missing) for f in forms) / N)


def test_signal_separates_wrong_entities(memory, records):
    from verifier.pgmr import grounding_signals, roc_auc
    from verifier.pgmr.perturb import Perturber

    pert = Perturber.for_memory(memory, seed=0)
    pairs = [p for r in records[:100] for p in pert.perturb(r["question"], r["sparql"], r["id"])]
    reps = grounding_signals([(p.question, p.sparql) for p in pairs], memory)
    by: dict[str, list] = {}
    for p, rep in zip(pairs, reps):
        by.setdefault(p.category, []).append(rep)
    assert all(r.flagged for r in by["nonexistent_id"])
    gold = [r.score for r in by["gold"]]
    assert roc_auc(gold, [r.score for r in by["wrong_entity"]]) >= 0.85
    assert roc_auc(gold, [r.score for r in by["wrong_property"]]) >= 0.75
