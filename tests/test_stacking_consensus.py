"""The consensus block of the stacker's features (issue 61)."""

from __future__ import annotations

import numpy as np
import pytest

from verifier.consensus import cluster_candidates, consensus_evidence, with_verdicts
from verifier.stacking.features import BLOCKS, FEATURE_NAMES, Evidence, consensus_features, feature_vector
from verifier.stacking.train import augment_missing

Q = "What is the mass of benzene?"
GOOD = "SELECT ?v WHERE { wd:Q2270 wdt:P2067 ?v }"
BAD = "SELECT ?v WHERE { ?v wdt:P2067 wd:Q2270 }"


def test_missing_without_a_candidate_set():
    for cons in (None, {}, {"n_candidates": 1, "share": 1.0, "cluster_size": 1}):
        f = consensus_features(cons)
        assert f["cons_missing"] == 1.0 and f["cons_weighted_missing"] == 1.0
        assert f["cons_share"] == 0.0


def test_features_of_real_consensus_evidence():
    c = cluster_candidates([GOOD, GOOD.replace("?v", "?x"), GOOD, BAD])
    ev = consensus_evidence(c, scores=[0.5, 0.2, 0.2, 0.1])
    good, bad = consensus_features(ev[0].to_dict()), consensus_features(ev[3].to_dict())
    assert good["cons_missing"] == 0.0 and good["cons_share"] == pytest.approx(2 / 3, abs=1e-3)
    assert good["cons_cluster_share"] == pytest.approx(0.75, abs=1e-3) and good["cons_largest"] == 1.0
    assert good["cons_clusters"] == pytest.approx(0.5, abs=1e-3)
    assert good["cons_weighted"] == pytest.approx(0.9, abs=1e-3) and good["cons_weighted_missing"] == 0.0
    assert bad["cons_share"] == 0.0 and bad["cons_largest"] == 0.0
    x = feature_vector(Evidence(Q, GOOD, consensus=ev[0].to_dict()))
    assert x[FEATURE_NAMES.index("cons_share")] == pytest.approx(2 / 3, abs=1e-3)
    assert set(BLOCKS["consensus"]) <= set(FEATURE_NAMES)


def test_cluster_level_features():
    c = cluster_candidates([GOOD, GOOD.replace("?v", "?x"), GOOD, BAD])
    ev = consensus_evidence(c)
    good, bad = consensus_features(ev[0].to_dict()), consensus_features(ev[3].to_dict())
    assert good["cons_margin"] == pytest.approx(0.5) and bad["cons_margin"] == pytest.approx(-0.5)
    assert good["cons_verdicts_missing"] == 1.0 and good["cons_cluster_accept"] == 0.0
    ev = with_verdicts(ev, ["reject", "accept", "accept", "reject"], [0.2, 0.9, 0.9, 0.1])
    good, bad = consensus_features(ev[0].to_dict()), consensus_features(ev[3].to_dict())
    assert good["cons_verdicts_missing"] == 0.0 and good["cons_cluster_accept"] == 1.0
    assert good["cons_elsewhere_accept"] == 0.0 and good["cons_cluster_best"] == pytest.approx(0.9)
    assert bad["cons_cluster_accept"] == 0.0 and bad["cons_elsewhere_accept"] == 1.0
    assert bad["cons_cluster_best"] == pytest.approx(0.1)
    assert consensus_features(None)["cons_verdicts_missing"] == 1.0
    with pytest.raises(ValueError):
        with_verdicts(ev, ["accept"])


def test_augmentation_blanks_the_consensus_block():
    c = cluster_candidates([GOOD, GOOD])
    ev = consensus_evidence(c)
    X = np.array([feature_vector(Evidence(Q, GOOD, consensus=ev[0].to_dict()))] * 40)
    y = np.array([1, 0] * 20)
    g = np.array([str(i) for i in range(40)], dtype=object)
    X2, _, _ = augment_missing(X, y, g, share=0.5, seed=0)
    miss = X2[:, FEATURE_NAMES.index("cons_missing")]
    assert (miss[:40] == 0).all() and (miss[40:] == 1).any()
