"""Stacked verifier: features with missingness, calibration, operating points, persistence.

No shared data needed: the model is fitted on synthetic evidence.
"""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

pytest.importorskip("sklearn")

from verifier.benchmark.signals import DECISIONS  # noqa: E402
from verifier.stacking import FEATURE_NAMES, Evidence, StackingModel, feature_vector  # noqa: E402
from verifier.stacking.features import BLOCKS, feature_dict  # noqa: E402
from verifier.stacking.model import (Calibrator, OperatingPoint,  # noqa: E402
                                     _stable_threshold, _threshold_for_precision,
                                     expected_calibration_error, fit_stacker)
from verifier.stacking.runtime import StackedRuntime  # noqa: E402
from verifier.stacking.train import TrainRow, augment_missing, matrix, train_from_rows  # noqa: E402

GOOD = "SELECT ?v WHERE { wd:Q2270 wdt:P2067 ?v . }"
BAD = "SELECT ?v WHERE { ?v wdt:P2067 wd:Q2270 . }"


def _signals(good: bool, rng: random.Random) -> dict:
    """Noisy synthetic evidence: each signal agrees with the label most of the time."""
    def dec(p_right: float) -> str:
        right = rng.random() < p_right
        return ("accept" if good else "reject") if right else ("reject" if good else "accept")

    d = dec(0.8)
    verdict = "faithful" if d == "accept" else rng.choice(["unsupported", "weaker"])
    pg = dec(0.75)
    pscore = rng.uniform(0.6, 1.0) if pg == "accept" else rng.uniform(0.0, 0.4)
    hp = min(1.0, max(0.0, rng.gauss(0.3 if good else 0.7, 0.2)))
    n = rng.choice([0, 1, 3]) if good else rng.choice([0, 0, 1])
    return {
        "deductive": {"decision": d, "score": 0.9 if d == "accept" else 0.1, "details": {
            "signals": {"deductive": {"verdict": verdict, "reason": "x", "n_unsupported": 0 if good else 1,
                                      "n_links": 3, "grounded_share": 0.8 if good else 0.5,
                                      "intent_ok": True}}}},
        "pgmr": {"decision": pg, "score": pscore, "details": {"features": {
            "pgmr_score": pscore, "pgmr_hallucinated": 0.0 if pg == "accept" else float(rng.random() < 0.5),
            "pgmr_n_ids": 2.0, "pgmr_min_support": pscore}}},
        "hdm": {"decision": "reject" if hp > 0.5 else "accept", "score": 1 - hp,
                "details": {"probability": hp, "confidence": 0.5, "mc_variance": 1e-4}},
        "execution": {"status": "ok", "n_answers": n, "boolean": None},
    }


def _rows(n: int = 400, seed: int = 0) -> list[TrainRow]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        good = rng.random() < 0.5
        out.append(TrainRow(f"question {i // 2}", GOOD if good else BAD, int(good), f"g{i // 2}",
                            _signals(good, rng)))
    return out


@pytest.fixture(scope="module")
def model() -> StackingModel:
    return train_from_rows(_rows(), folds=4)


def test_feature_blocks_and_missing_indicators():
    ev = Evidence("q", GOOD)
    d = feature_dict(ev)
    assert tuple(d) == FEATURE_NAMES
    for block in ("deductive", "pgmr", "hdm", "execution"):
        assert d[BLOCKS[block][0]] == 1.0, block
    assert d["q_missing"] == 0.0 and d["q_parse_error"] == 0.0 and d["q_n_triples"] > 0
    full = feature_dict(Evidence("q", GOOD, **_signals(True, random.Random(1))))
    assert all(full[BLOCKS[b][0]] == 0.0 for b in ("deductive", "pgmr", "hdm", "execution"))
    bad = feature_dict(Evidence("q", "SELECT ?x WHERE { ?x wdt:P31 "))
    assert bad["q_parse_error"] == 1.0
    assert feature_dict(Evidence("q", None))["q_missing"] == 1.0


def test_deductive_features_from_old_rows_without_counts():
    """Rows cached before the counts existed: unsupported atoms from the reason's clauses,
    links from the explanation, grounded share flagged missing."""
    sig = {"decision": "reject", "score": 0.1, "details": {
        "explanation": "The query says something...\nLinks: 'a' -> wd:Q1 (x); 'b' -> wdt:P2 (y)\nmore",
        "signals": {"deductive": {"verdict": "unsupported", "reason": "p(x): no; q(y): no"}}}}
    d = feature_dict(Evidence("q", GOOD, deductive=sig))
    assert d["ded_reject"] == 1.0 and d["ded_v_unsupported"] == 1.0
    assert d["ded_n_unsupported"] == pytest.approx(np.log1p(2))
    assert d["ded_n_links"] == pytest.approx(np.log1p(2))
    assert d["ded_grounded_missing"] == 1.0


def test_each_signal_removed_still_decides(model):
    rng = random.Random(7)
    runtime = StackedRuntime(model)
    for good in (True, False):
        sig = _signals(good, rng)
        for drop in (None, "deductive", "pgmr", "hdm", "execution", "all"):
            kept = {} if drop == "all" else {k: v for k, v in sig.items() if k != drop}
            ev = Evidence("q", GOOD if good else BAD, **kept)
            decision, p, x = runtime.evaluate(ev)
            assert decision in DECISIONS
            assert 0.0 <= p <= 1.0
            if drop not in (None, "all"):
                assert x[FEATURE_NAMES.index(BLOCKS[drop][0])] == 1.0


def test_model_separates_and_is_calibrated(model):
    test = _rows(400, seed=99)
    X = matrix([Evidence(r.question, r.sparql, **r.signals) for r in test])
    y = np.array([r.label for r in test])
    p = model.predict_proba(X)
    assert p[y == 1].mean() > p[y == 0].mean() + 0.4
    assert expected_calibration_error(y, p) < 0.12
    assert model.info["calibration"] in ("platt", "isotonic")


def test_calibration_monotone_and_bounded(model):
    raw = np.linspace(0.0, 1.0, 501)
    cal = model.calibrator(raw)
    assert np.all(np.diff(cal) >= -1e-12)
    assert cal.min() >= 0.0 and cal.max() <= 1.0
    iso = Calibrator("isotonic", xs=(0.1, 0.5, 0.9), ys=(0.0, 0.4, 1.0))
    v = iso(np.array([0.0, 0.1, 0.3, 0.9, 1.0]))
    assert list(v) == pytest.approx([0.0, 0.0, 0.2, 1.0, 1.0])
    platt = Calibrator("platt", a=2.0, b=0.0)
    assert platt(0.5) == pytest.approx(0.5)
    assert np.all(np.diff(platt(raw)) >= 0)


def test_operating_points(model):
    pf = model.point()
    assert pf.name == "precision-first"
    assert 0.0 <= pf.reject <= pf.accept <= 1.0
    bal = model.point("balanced")
    assert bal.accept == bal.reject and 0.0 < bal.accept < 1.0
    assert bal.decide(bal.accept) == "accept" and bal.decide(bal.accept - 1e-6) == "reject"
    c = model.point(0.7)
    assert (c.accept, c.reject) == (0.7, 0.7)
    band = OperatingPoint.custom(0.8, band=0.3)
    assert [band.decide(p) for p in (0.9, 0.6, 0.4)] == ["accept", "abstain", "reject"]
    with pytest.raises(KeyError):
        model.point("nonsense")
    with pytest.raises(ValueError):
        OperatingPoint("x", 0.2, 0.5)


def test_save_load_round_trip(model, tmp_path):
    path = model.save(tmp_path / "m.json")
    data = json.loads(path.read_text())
    assert data["format"].startswith("sparql-verifier/stacking-model/")
    assert [f["name"] for f in data["features"]] == list(FEATURE_NAMES)
    back = StackingModel.load(path)
    X = matrix([Evidence(r.question, r.sparql, **r.signals) for r in _rows(50, seed=3)])
    assert np.allclose(back.predict_proba(X), model.predict_proba(X), atol=1e-5)
    assert back.operating_points == model.operating_points
    data["format"] = "something/else"
    (tmp_path / "bad.json").write_text(json.dumps(data))
    with pytest.raises(ValueError):
        StackingModel.load(tmp_path / "bad.json")


def test_fit_rejects_bad_input():
    with pytest.raises(ValueError):
        fit_stacker(np.zeros((4, 2)), np.array([1, 1, 1, 1]), ["a", "b"])
    with pytest.raises(ValueError):
        fit_stacker(np.zeros((4, 3)), np.array([0, 1, 0, 1]), ["a", "b"])


def test_augment_missing_adds_blanked_copies():
    rows = _rows(100)
    X = matrix([Evidence(r.question, r.sparql, **r.signals) for r in rows])
    y = np.array([r.label for r in rows])
    g = np.array([r.group for r in rows], dtype=object)
    X2, y2, g2 = augment_missing(X, y, g, share=0.5, seed=1)
    assert len(X2) > len(X) and len(y2) == len(X2) == len(g2)
    extra = X2[len(X):]
    miss_cols = [FEATURE_NAMES.index(BLOCKS[b][0]) for b in ("deductive", "pgmr", "hdm", "execution")]
    assert np.all(extra[:, miss_cols].sum(axis=1) == 1.0)  # exactly one block blanked per copy


def test_step_terms_are_quantile_edges_of_numeric_features():
    from verifier.stacking.model import Term, expand, step_terms

    X = np.column_stack([np.repeat([0.0, 1.0], 50),              # binary: no steps
                         np.linspace(0.0, 1.0, 100),              # numeric: 3 inner edges
                         np.r_[np.zeros(99), 5.0]])               # edge with 1 % above: dropped
    terms = step_terms(X, ["flag", "score", "rare"], 4, min_share=0.02)
    assert [t.of for t in terms] == [("score",)] * 3
    assert [t.at for t in terms] == pytest.approx([0.25, 0.5, 0.75])
    assert terms[1].name == "score>=0.5"
    cols = expand(X, ["flag", "score", "rare"], terms + [Term("product", ("flag", "score"))])
    assert cols.shape == (100, 3 + 4)
    assert cols[:, 4].sum() == 50                                   # score >= 0.5 on half
    assert np.allclose(cols[:, 6], X[:, 0] * X[:, 1])
    assert step_terms(X, ["flag", "score", "rare"], 4, only=["flag"]) == []


def test_model_with_bins_and_interactions_round_trips(tmp_path):
    rows = _rows(300, seed=5)
    m = train_from_rows(rows, folds=3, bins=4, interactions=[("pgmr_score", "ded_reject")])
    names = m.column_names
    assert names[:len(FEATURE_NAMES)] == FEATURE_NAMES
    assert "pgmr_score*ded_reject" in names and any(n.startswith("pgmr_score>=") for n in names)
    assert len(m.coef) == len(m.mean) == len(names) == len(FEATURE_NAMES) + len(m.terms)
    data = json.loads(m.save(tmp_path / "m.json").read_text())
    assert [t["name"] for t in data["terms"]] == list(names[len(FEATURE_NAMES):])
    back = StackingModel.load(tmp_path / "m.json")
    X = matrix([Evidence(r.question, r.sparql, **r.signals) for r in _rows(40, seed=6)])
    assert np.allclose(back.predict_proba(X), m.predict_proba(X), atol=1e-5)
    test = _rows(300, seed=7)
    Xt = matrix([Evidence(r.question, r.sparql, **r.signals) for r in test])
    yt = np.array([r.label for r in test])
    p = m.predict_proba(Xt)
    assert p[yt == 1].mean() > p[yt == 0].mean() + 0.4
    contrib = m.contributions(Xt[0], top=60)
    assert {n for n, _ in contrib} <= set(names)
    assert any(n not in FEATURE_NAMES for n, _ in contrib)        # derived terms are named
    decision, prob, x = StackedRuntime(m).evaluate(Evidence(test[0].question, test[0].sparql,
                                                            **test[0].signals))
    assert x.shape == (len(FEATURE_NAMES),) and prob == pytest.approx(p[0])
    assert decision == m.decide(prob)
    with pytest.raises(ValueError):
        train_from_rows(rows, folds=3, interactions=[("no_such_feature", "ded_reject")])


def test_version_1_models_still_load(model, tmp_path):
    data = model.to_dict()
    data["format"] = "sparql-verifier/stacking-model/1"
    del data["terms"]
    (tmp_path / "v1.json").write_text(json.dumps(data))
    back = StackingModel.load(tmp_path / "v1.json")
    assert back.terms == ()
    X = matrix([Evidence(r.question, r.sparql, **r.signals) for r in _rows(20, seed=8)])
    assert np.allclose(back.predict_proba(X), model.predict_proba(X), atol=1e-5)


def _first_crossing(p, y, target, accept, min_count):
    """The precision-first rule by brute force over the values of ``p``."""
    vals = sorted(set(p.tolist()))
    if accept:
        for t in vals:
            sel = p >= t
            if sel.sum() >= min_count and y[sel].mean() >= target:
                return t
        return None
    for t in reversed(vals):
        sel = p < t
        if sel.sum() >= min_count and (1 - y[sel]).mean() >= target:
            return t
    return None


def test_threshold_rule_matches_brute_force():
    rng = np.random.default_rng(3)
    for trial in range(30):
        n = int(rng.integers(30, 300))
        p = np.round(rng.random(n), int(rng.integers(1, 4)))   # ties included
        y = (rng.random(n) < p ** 0.5).astype(int)
        for accept in (True, False):
            for target in (0.8, 0.95):
                got = _threshold_for_precision(p, y, target, accept, min_count=10)
                assert got == _first_crossing(p, y, target, accept, 10), (trial, accept, target)


def test_stable_threshold_is_steadier_when_scores_move_a_little():
    # a refit moves the out-of-fold scores of the same rows a little; the first crossing of
    # the noisy precision curve jumps with them, the bootstrap median much less
    spread = {"plain": 0.0, "stable": 0.0}
    for base in range(4):
        r = np.random.default_rng(base)
        p0 = r.random(700)
        y = (r.random(700) < 0.6 + 0.38 * p0).astype(int)
        plain, stable = [], []
        for k in range(10):
            p = np.clip(p0 + np.random.default_rng(100 + k).normal(0, 0.02, 700), 0, 1)
            plain.append(_threshold_for_precision(p, y, 0.95, True, 20))
            stable.append(_stable_threshold(p, y, np.arange(700), 0.95, True, 20,
                                            resamples=200, seed=1))
        assert None not in plain and None not in stable
        spread["plain"] += float(np.std(plain))
        spread["stable"] += float(np.std(stable))
    assert spread["stable"] < 0.8 * spread["plain"]
    rng = np.random.default_rng(0)
    # no resampling: the plain rule itself
    p = rng.random(200)
    y = (p > 0.3).astype(int)
    assert _stable_threshold(p, y, np.arange(200), 0.95, True, 20, resamples=0) == \
        _threshold_for_precision(p, y, 0.95, True, 20)
    # unreachable target: None either way
    assert _stable_threshold(p, np.zeros(200, int), np.arange(200), 0.95, True, 20) is None


def test_docs_say_the_balanced_point_is_the_stored_youden_threshold():
    from pathlib import Path

    from verifier.stacking import fit_stacker

    text = (Path(__file__).resolve().parents[1] / "docs" / "stacking.md").read_text(encoding="utf-8")
    assert "`balanced`: 0.5" not in text and "Youden" in text
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 2))
    y = (X[:, 0] + 0.8 * rng.normal(size=300) > 1.0).astype(int)  # about one correct in five
    m = fit_stacker(X, y, ("a", "b"), threshold_resamples=0)
    bal = m.operating_points["balanced"]
    assert bal.accept == bal.reject and bal.accept != 0.5
    assert m.to_dict()["operating_points"]["balanced"]["accept"] == pytest.approx(bal.accept)


def test_wilson_margin_raises_the_accept_threshold():
    from verifier.stacking.model import wilson_lower

    assert wilson_lower(np.array([9.0]), np.array([10.0]), 0.0)[0] == pytest.approx(0.9)
    lb = wilson_lower(np.array([90.0, 900.0]), np.array([100.0, 1000.0]), 1.645)
    assert lb[0] < lb[1] < 0.9          # the margin shrinks as the rows grow
    rng = np.random.default_rng(5)
    p = rng.random(2000)
    y = (rng.random(2000) < p).astype(int)
    plain = _threshold_for_precision(p, y, 0.9, True, min_count=20)
    margin = _threshold_for_precision(p, y, 0.9, True, min_count=20, z=1.645)
    assert plain is not None and margin is not None and margin > plain
    acc = p >= margin
    assert wilson_lower(np.array([y[acc].sum()]), np.array([acc.sum()]), 1.645)[0] >= 0.9


def _refuted(sig: dict) -> dict:
    sig = json.loads(json.dumps(sig))
    sig["deductive"]["decision"] = "reject"
    sig["deductive"]["details"]["signals"]["deductive"]["proof"] = "refuted"
    return sig


def test_refutation_veto_never_accepts_a_deductive_refutation(model):
    from verifier.stacking.features import deductive_refutation
    from verifier.stacking.train import refuted_rows

    assert model.info.get("refutation_veto") is True
    rng = random.Random(1)
    sig = _signals(True, rng)
    sig["deductive"]["decision"] = "accept"
    ref = _refuted(sig)
    assert deductive_refutation(ref["deductive"]) and not deductive_refutation(sig["deductive"])
    assert feature_dict(Evidence("q", GOOD, **ref))["ded_refuted"] == 1.0
    assert refuted_rows(matrix([Evidence("q", GOOD, **ref), Evidence("q", GOOD, **sig)]))[:2].tolist() == [True, False]
    rt = StackedRuntime(model, operating_point=0.0)     # a threshold that accepts everything
    assert rt.evaluate(Evidence("q", GOOD, **sig))[0] == "accept"
    d, p, _ = rt.evaluate(Evidence("q", GOOD, **ref))
    assert d == "abstain" and p >= 0.0
    plain = train_from_rows(_rows(), folds=4, refutation_veto=False)
    assert "refutation_veto" not in plain.info
    assert StackedRuntime(plain, operating_point=0.0).evaluate(Evidence("q", GOOD, **ref))[0] == "accept"


def test_never_accept_rows_are_left_out_of_the_accept_threshold():
    rows = _rows(400, seed=2)
    X = matrix([Evidence(r.question, r.sparql, **r.signals) for r in rows])
    y = np.array([r.label for r in rows])
    g = np.array([r.group for r in rows], dtype=object)
    blocked = (y == 1) & (np.arange(len(y)) % 2 == 0)    # correct rows the rule never accepts
    kw = dict(groups=g, folds=4, target_precision=0.9, threshold_resamples=20)
    free = fit_stacker(X, y, FEATURE_NAMES, **kw).point("precision-first").accept
    vetoed = fit_stacker(X, y, FEATURE_NAMES, never_accept=blocked, **kw).point("precision-first").accept
    assert vetoed > free   # fewer correct rows among the accepted: a higher threshold
