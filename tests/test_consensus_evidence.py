"""Per-candidate consensus evidence (verifier.consensus.evidence)."""

from __future__ import annotations

import doctest
import json
import math

import pytest

import verifier.consensus
from verifier.consensus import (cluster_candidates, consensus_evidence, consensus_sentence,
                                score_weights)

QS = ["SELECT ?v WHERE { wd:Q2270 wdt:P2067 ?v }", "SELECT ?m WHERE { wd:Q2270 wdt:P2067 ?m }",
      "SELECT ?v WHERE { wd:Q2270 wdt:P2102 ?v }", "SELECT ?v WHERE { ?v wdt:P2067 wd:Q2270 }"]


def test_package_docstring_example_runs():
    assert doctest.testmod(verifier.consensus).failed == 0


def test_share_clusters_and_indices():
    ev = consensus_evidence(cluster_candidates(QS))
    assert [e.share for e in ev] == [0.5, 0.5, 0.25, 0.25]
    assert [e.others_share for e in ev] == pytest.approx([1 / 3, 1 / 3, 0.0, 0.0])
    assert consensus_evidence(cluster_candidates(QS[:1]))[0].others_share is None
    assert [e.cluster_index for e in ev] == [0, 0, 1, 2]
    assert {e.n_candidates for e in ev} == {4} and {e.n_clusters for e in ev} == {3}
    assert all(e.weighted_agreement is None for e in ev)
    assert json.dumps([e.to_dict() for e in ev])


def test_probabilities_are_normalised_and_log_scores_softmaxed():
    assert score_weights([0.2, 0.2, 0.6]) == pytest.approx([0.2, 0.2, 0.6])
    assert score_weights([0.1, 0.1]) == pytest.approx([0.5, 0.5])
    assert score_weights([0.0, 0.0]) == pytest.approx([0.5, 0.5])
    w = score_weights([-0.1, -0.1, -2.3])
    assert w == pytest.approx([math.exp(-0.1) / (2 * math.exp(-0.1) + math.exp(-2.3))] * 2
                              + [math.exp(-2.3) / (2 * math.exp(-0.1) + math.exp(-2.3))])
    assert score_weights(None) is None and score_weights([0.5, None]) is None
    assert score_weights([0.5, float("nan")]) is None


def test_weighted_agreement_is_the_score_mass_of_the_cluster():
    c = cluster_candidates(QS)
    ev = consensus_evidence(c, scores=[0.1, 0.1, 0.7, 0.1])
    assert ev[0].weighted_agreement == pytest.approx(0.2) and ev[2].weighted_agreement == pytest.approx(0.7)
    # the share ignores scores: the generator's favourite is still a minority
    assert ev[2].share == 0.25
    with pytest.raises(ValueError):
        consensus_evidence(c, scores=[0.5])


def test_sentence_for_the_explanation():
    ev = consensus_evidence(cluster_candidates(QS), scores=[-0.1, -0.2, -1.0, -3.0],
                            labels={"P2067": "mass", "P2102": "boiling point"})
    s = consensus_sentence(ev[2])
    assert s.startswith("Consensus: 1 of 4 candidates uses P2102 (boiling point) where 2 use P2067 (mass)")
    assert "generator-weighted agreement" in s and s.endswith(".")
    assert consensus_sentence(consensus_evidence(cluster_candidates(QS[:1]))[0]) == ""


def test_labels_from_a_label_index():
    from verifier.lexical import LabelIndex

    idx = LabelIndex()
    idx.add("P2102", ["boiling point"], "property")
    idx.add("P2067", ["mass"], "property")
    ev = consensus_evidence(cluster_candidates(QS), labels=idx)
    assert "P2102 (boiling point)" in ev[2].difference and "P2067 (mass)" in ev[2].difference
