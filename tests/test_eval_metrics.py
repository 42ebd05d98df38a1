"""Metrics of the evaluation harness (verifier.benchmark.metrics), checked by hand and against
scikit-learn."""

from __future__ import annotations

import random

import pytest

from verifier.benchmark.metrics import (binary_metrics, decision_profile,
                                        precision_acceptance_curve, roc_auc)

LABELS = [0, 0, 0, 1, 1, 1, 0, 1]
DECISIONS = ["reject", "reject", "accept", "accept", "reject", "accept", "abstain", "abstain"]
SCORES = [0.1, 0.2, 0.9, 0.8, 0.3, 0.7, 0.5, 0.5]


def test_hand_computed_example():
    m = binary_metrics(LABELS, DECISIONS, SCORES)
    assert (m.tp, m.fn, m.fp, m.tn) == (2, 1, 1, 2)
    assert m.abstained == 2 and m.abstain_rate == pytest.approx(0.25)
    assert m.precision_reject == pytest.approx(2 / 3) and m.recall_reject == pytest.approx(2 / 3)
    assert m.f1_reject == pytest.approx(2 / 3) and m.f1_accept == pytest.approx(2 / 3)
    assert m.macro_f1 == pytest.approx(2 / 3)
    assert m.accept_precision == pytest.approx(2 / 3)
    assert m.acceptance_correct == pytest.approx(0.5)  # abstaining is not accepting
    assert m.confusion == {"hallucinated": {"reject": 2, "accept": 1, "abstain": 1},
                           "correct": {"reject": 1, "accept": 2, "abstain": 1}}


def test_against_sklearn_on_random_data():
    sk = pytest.importorskip("sklearn.metrics")
    rng = random.Random(0)
    for _ in range(20):
        n = rng.randint(5, 60)
        labels = [rng.randint(0, 1) for _ in range(n)]
        decisions = [rng.choice(("accept", "reject", "abstain")) for _ in range(n)]
        scores = [round(rng.random(), 1) for _ in range(n)]  # ties on purpose
        m = binary_metrics(labels, decisions, scores)
        kept = [(y, d) for y, d in zip(labels, decisions) if d != "abstain"]
        if kept:
            y_true = [1 - y for y, _ in kept]  # positive = hallucination
            y_pred = [1 if d == "reject" else 0 for _, d in kept]
            assert m.macro_f1 == pytest.approx(sk.f1_score(y_true, y_pred, average="macro",
                                                           labels=[0, 1], zero_division=0))
            assert m.f1_reject == pytest.approx(sk.f1_score(y_true, y_pred, zero_division=0))
        if len(set(labels)) == 2:
            assert m.auc == pytest.approx(sk.roc_auc_score([1 - y for y in labels],
                                                           [1 - s for s in scores]))
        else:
            assert m.auc is None


def test_degenerate_cases():
    m = binary_metrics([1, 1], ["accept", "abstain"], [0.9, 0.5])
    assert m.precision_reject is None and m.recall_reject is None and m.auc is None
    assert m.acceptance_correct == 0.5
    with pytest.raises(ValueError):
        binary_metrics([1, 2], ["accept", "accept"], [1, 1])
    with pytest.raises(ValueError):
        binary_metrics([1], ["accept", "accept"], [1, 1])
    assert roc_auc([1, 0], [0.5, 0.5]) == 0.5
    assert roc_auc([1, 1], [0.5, 0.2]) is None


def test_profile_and_curve():
    p = decision_profile(["accept", "reject", "accept", "abstain"], [1.0, 0.0, 0.5, 0.5])
    assert (p.n, p.accept_rate, p.reject_rate, p.abstain_rate, p.mean_score) == \
        (4, 0.5, 0.25, 0.25, 0.5)
    curve = precision_acceptance_curve(LABELS, SCORES, points=11)
    assert curve[0] == (0.0, 1.0, 0.5)
    accs = [a for _, a, _ in curve]
    assert accs == sorted(accs, reverse=True)
    assert curve[-1][1] == 0.0 and curve[-1][2] is None
