"""``Verifier.verify_candidates`` / ``verify_candidates`` on the chemistry example: real
deductive verdicts for every candidate, consensus evidence in ``signals["consensus"]``, the
difference in the explanation, and the hook a stacking model reads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

CHEM = Path(__file__).resolve().parents[1] / "examples" / "chemistry"
Q = "What is the mass of benzene?"
GOOD = "SELECT ?v WHERE { wd:Q2270 wdt:P2067 ?v . }"
CANDS = [GOOD,
         "SELECT ?mass WHERE { wd:Q2270 wdt:P2067 ?mass }",            # renamed
         "SELECT ?v WHERE { wd:Q2270 wdt:P2102 ?v . }",                 # boiling point
         "SELECT ?v WHERE { ?v wdt:P2067 wd:Q2270 . }",                 # swapped
         "SELECT ?x WHERE { wd:Q2270 wdt:P2067 ?x . wd:Q2270 wdt:P2067 ?y }",  # redundant triple
         "SELEC ?v WHERE",                                              # syntax error
         None]


@pytest.fixture(scope="module")
def ver():
    from verifier.api import Verifier
    from verifier.config import load_config

    return Verifier(load_config(CHEM / "verifier.toml", environ={}, cwd=CHEM))


@pytest.fixture(scope="module")
def result(ver):
    return ver.verify_candidates(Q, CANDS, scores=[-0.2, -0.4, -1.0, -1.5, -2.0, -3.0, -3.0],
                                 provenance="chem-llm-a")


def test_one_verdict_per_candidate_with_real_deductive_verdicts(ver, result):
    assert len(result.verdicts) == len(CANDS)
    assert [v.sparql for v in result.verdicts[:5]] == CANDS[:5]
    for v, text in zip(result.verdicts[:5], CANDS[:5]):
        single = ver.verify(Q, text)
        assert (v.decision, v.verdict, v.score) == (single.decision, single.verdict, single.score), text
    assert result.verdicts[0].decision == "accept" and result.verdicts[0].verdict == "faithful"
    assert result.verdicts[2].decision == "reject" and result.verdicts[3].decision == "reject"
    assert result.verdicts[5].decision == "reject" and result.verdicts[5].error
    assert result.verdicts[6].decision == "abstain"


def test_clusters_and_consensus_signals(result):
    c = result.clustering
    assert c.clusters[0] == (0, 1, 4)
    assert set(c.unparsed) == {5, 6}
    for v, ev in zip(result.verdicts, result.evidence):
        assert v.signals["consensus"] == ev.to_dict()
        assert v.signals["provenance"] == {"model": "chem-llm-a"}
    good = result.verdicts[0].signals["consensus"]
    assert good["share"] == pytest.approx(3 / 7, abs=1e-4) and good["n_clusters"] == 5
    assert good["weighted_agreement"] > 0.5
    assert json.dumps(result.to_dict())


def test_cluster_level_deductive_evidence(result):
    """Each candidate's consensus carries its cluster's deductive evidence: other members
    accepted, candidates of other clusters accepted, the cluster's best deductive score, and
    the size of the largest other cluster (with_verdicts over the real verdicts)."""
    dec = [v.decision for v in result.verdicts]
    for i, v in enumerate(result.verdicts):
        cons = v.signals["consensus"]
        members = next(m for m in result.clustering.clusters if i in m)
        assert cons["cluster_accepted"] == sum(dec[j] == "accept" for j in members if j != i)
        assert cons["elsewhere_accepted"] == sum(d == "accept" for j, d in enumerate(dec) if j not in members)
        assert cons["largest_other"] == max(len(m) for m in result.clustering.clusters if m != members)
    good, bp = result.verdicts[0].signals["consensus"], result.verdicts[2].signals["consensus"]
    assert good["cluster_accepted"] >= 1 and good["elsewhere_accepted"] == 0 and good["largest_other"] == 1
    assert bp["cluster_accepted"] == 0 and bp["elsewhere_accepted"] >= 2 and bp["largest_other"] == 3
    assert good["cluster_best_score"] == pytest.approx(max(result.verdicts[j].score for j in (0, 1, 4)), abs=1e-4)


def test_explanation_names_the_difference_with_labels(result):
    bp = result.verdicts[2].explanation
    assert "Consensus: 1 of 7 candidates uses P2102 (boiling point) where 3 use P2067 (mass)" in bp
    assert "Consensus: 3 of 7 candidates" in result.verdicts[0].explanation


def test_duplicates_share_one_verification(ver, monkeypatch):
    calls = []
    original = ver._deductive

    def counting(question, sparql, query, t0):
        calls.append(sparql)
        return original(question, sparql, query, t0)

    monkeypatch.setattr(ver, "_deductive", counting)
    r = ver.verify_candidates(Q, [GOOD, CANDS[1], GOOD, CANDS[2]])
    assert calls == [GOOD, CANDS[2]]
    assert [v.decision for v in r.verdicts] == ["accept", "accept", "accept", "reject"]
    assert r.verdicts[1].sparql == CANDS[1]


def test_consensus_reaches_a_configured_stacker_before_it_decides(ver, monkeypatch):
    seen = []

    class Recorder:
        def decide(self, verdict, query):
            seen.append(dict(verdict.signals))
            return verdict

    monkeypatch.setattr(ver, "stacker", Recorder())
    r = ver.verify_candidates(Q, CANDS[:3], provenance=["a", "b", None])
    assert len(seen) == 3 and all("consensus" in s and "deductive" in s for s in seen)
    assert seen[0]["provenance"] == {"model": "a"} and "provenance" not in seen[2]
    assert all("consensus" in v.signals for v in r.verdicts)


def test_empty_question_and_bad_arguments(ver):
    r = ver.verify_candidates("  ", [GOOD, GOOD])
    assert [v.decision for v in r.verdicts] == ["abstain", "abstain"]
    assert r.clustering.clusters == ((0, 1),)
    assert ver.verify_candidates(Q, []).verdicts == ()
    with pytest.raises(ValueError):
        ver.verify_candidates(Q, [GOOD], scores=[0.1, 0.2])


def test_module_level_function():
    from verifier import verify_candidates

    r = verify_candidates(Q, [GOOD, CANDS[2]], config=str(CHEM / "verifier.toml"))
    assert [v.decision for v in r.verdicts] == ["accept", "reject"]
    assert r.evidence[0].share == 0.5
