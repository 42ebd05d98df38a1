"""Pieces of ``bench/stacked.py`` that need no shared data: row weights, the fit options,
``--pin`` on the evaluation cache, the per-category threshold diagnostic."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sklearn")

from verifier.benchmark.cache import CachedResult, ResultCache  # noqa: E402
from verifier.benchmark.records import BenchRecord  # noqa: E402
from verifier.stacking import FEATURE_NAMES, Evidence  # noqa: E402
from verifier.stacking.train import matrix  # noqa: E402

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_stacked", REPO / "bench" / "stacked.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["bench_stacked"] = mod
    spec.loader.exec_module(mod)
    yield mod
    sys.modules.pop("bench_stacked", None)


def test_row_weights_give_llm_rows_the_asked_share(bench):
    is_llm = [True] * 10 + [False] * 40
    for r in (1.0, 3.0):
        w = bench.row_weights(is_llm, r)
        assert w[10:].tolist() == [1.0] * 40
        assert w[:10].sum() == pytest.approx(r * 40)
    assert bench.row_weights([False] * 5, 3.0).tolist() == [1.0] * 5


def _synthetic(n: int, seed: int):
    """Design rows: a PGMR score that separates the labels, half of them 'LLM' rows."""
    rng = random.Random(seed)
    ev, y, g = [], [], []
    for i in range(n):
        good = rng.random() < 0.5
        s = min(1.0, max(0.0, rng.gauss(0.7 if good else 0.4, 0.2)))
        ev.append(Evidence("q", "SELECT ?v WHERE { wd:Q1 wdt:P2 ?v . }",
                           pgmr={"decision": "accept" if s > 0.5 else "reject", "score": s,
                                 "details": {"features": {"pgmr_score": s}}}))
        y.append(int(good))
        g.append(f"llm_predictions:q{i}" if i % 2 else f"p:{i}")
    return matrix(ev), np.array(y), np.array(g, dtype=object)


def test_fit_matrix_uses_the_spec_and_picks_thresholds_on_real_llm_rows(bench):
    X, y, g = _synthetic(400, 1)
    w = bench.row_weights([str(x).startswith("llm_predictions:") for x in g], 1.0)
    spec = bench.FitSpec(C=1.0, bins=4, interactions=(("pgmr_score", "pgmr_accept"),))
    m = bench.fit_matrix(X, y, g, w, {"run": "test"}, spec)
    assert m.info["C"] == 1.0 and m.info["bins"] == 4 and m.info["run"] == "test"
    assert m.info["interactions"] == ["pgmr_score*pgmr_accept"]
    assert "pgmr_score*pgmr_accept" in m.column_names
    assert m.info["point_rows"] == 200          # the LLM rows, not their augmented copies
    assert m.info["n_train"] > 400               # augmented copies are in the regression
    assert 0.7 < m.info["auc_oof_points"] <= 1.0
    p = m.predict_proba(X)
    assert p[y == 1].mean() > p[y == 0].mean() + 0.2


def test_pin_reads_only_that_configuration(bench, tmp_path, monkeypatch):
    cache = tmp_path / "cache.sqlite"
    with ResultCache(cache) as c:
        for h, dec in (("old", "reject"), ("new", "accept")):
            c.put_many("ds", "deductive", h, [CachedResult(i, "ih", dec, 0.5, {}) for i in "abc"])
        c.put_many("ds", "deductive", "partial", [CachedResult("a", "ih", "abstain", 0.5, {})])
    monkeypatch.setattr(bench, "CACHE", cache)
    monkeypatch.setattr(bench, "PINNED", {})
    monkeypatch.setattr(bench, "CURRENT_ONLY", False)
    # the current hash covers the sample: it is read
    assert {r.decision for r in bench.cached_rows("ds", "deductive", "new", "abc").values()} == {"accept"}
    # the current hash is partial: item by item from the largest configurations first
    rows = bench.cached_rows("ds", "deductive", "partial", "abc")
    assert set(rows) == set("abc") and rows["a"].decision != "abstain"
    monkeypatch.setattr(bench, "CURRENT_ONLY", True)
    assert set(bench.cached_rows("ds", "deductive", "partial", "abc")) == {"a"}
    monkeypatch.setattr(bench, "PINNED", {"deductive": "old"})
    pinned = bench.cached_rows("ds", "deductive", "new", "abc")
    assert {r.decision for r in pinned.values()} == {"reject"} and set(pinned) == set("abc")


def test_best_threshold_f1_is_the_best_single_threshold_per_category(bench):
    recs, probs = [], {}
    for i in range(20):
        recs.append(BenchRecord(f"g{i}", "q", "s", None, 1, "gold", "t"))
        recs.append(BenchRecord(f"h{i}", "q", "s", None, 0, "wrong", "t"))
        probs[f"g{i}"] = 0.8 if i < 18 else 0.2          # two correct items score low
        probs[f"h{i}"] = 0.3
    best = bench.best_threshold_f1({"ds": recs}, {"ds": probs})
    # best threshold in (0.3, 0.8]: 18 of 20 correct accepted, every hallucination rejected
    f_rej = 2 * (20 / 22) * 1.0 / (20 / 22 + 1.0)
    f_acc = 2 * 1.0 * (18 / 20) / (1.0 + 18 / 20)
    assert best == {("ds", "wrong"): pytest.approx((f_rej + f_acc) / 2)}


def test_feature_rows_are_computed_once(bench, monkeypatch):
    recs = [BenchRecord("x1", "q", "SELECT ?v WHERE { wd:Q1 wdt:P2 ?v . }", None, 1, "gold", "t")]
    monkeypatch.setattr(bench, "_MATRICES", {})
    first = bench.features_of("ds", recs, {"ds": {}})
    assert first.shape == (1, len(FEATURE_NAMES))
    assert first[0, FEATURE_NAMES.index("pgmr_missing")] == 1.0
    calls = []
    monkeypatch.setattr(bench, "evidence", lambda *a: calls.append(a) or [])
    assert np.array_equal(bench.features_of("ds", recs, {"ds": {}}), first)
    assert calls == []


def test_bootstrap_ci_brackets_the_figures(bench):
    labels = [1] * 60 + [0] * 40
    accepted = [True] * 45 + [False] * 15 + [True] * 5 + [False] * 35
    groups = [f"q{i // 2}" for i in range(100)]
    ci = bench.bootstrap_ci(labels, accepted, groups, n=300)
    lo, hi = ci["accept_precision"]
    assert lo < 45 / 50 < hi and 0.75 < lo and hi <= 1.0
    lo, hi = ci["correct_accepted"]
    assert lo < 45 / 60 < hi and hi - lo < 0.3
    none = bench.bootstrap_ci([1, 0], [False, False], ["a", "b"], n=20)
    assert all(np.isnan(none["accept_precision"])) and none["correct_accepted"] == (0.0, 0.0)
