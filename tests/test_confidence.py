"""The proof confidence (issue 59): links carry a source and a confidence, the deductive score is
the shipped model's probability, the explanation names the weakest link, and ``[deductive]
confidence = "table"`` gives the old scores.

Uses only files of the repository (examples/chemistry), so it runs without ../shared.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from verifier.api import Verifier
from verifier.confidence import (
    FEATURES, MONOTONE_FEATURES, TABLE_SCORES, ConfidenceModel, default_model, deductive_decision,
    deductive_score, load_model, proof_features,
)
from verifier.config import load_config
from verifier.grounding import LINK_SOURCES

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "chemistry"

GOOD = ("What is the mass of benzene?", "SELECT ?v WHERE { wd:Q2270 wdt:P2067 ?v . }")
PAIRS = [
    GOOD,
    ("What is the mass of benzene?", "SELECT ?v WHERE { wd:Q2270 wdt:P2102 ?v }"),
    ("Is the density of gold greater than 19?", "SELECT ?d WHERE { wd:Q897 wdt:P2054 ?d }"),
    ("What chemical compounds have less than 0.07 g/kg of solubility?",
     "SELECT ?c WHERE { ?c wdt:P31 wd:Q11173 ; wdt:P2177 ?s . FILTER(?s < 0.07) }"),
]


@pytest.fixture(scope="module")
def config():
    # the deductive signal alone (not the stacked verifier shipped as the default)
    return load_config(EXAMPLE / "verifier.toml", environ={}).with_values("stacking", model="none")


@pytest.fixture(scope="module")
def verifier(config) -> Verifier:
    return Verifier(config)


@pytest.fixture(scope="module")
def table_verifier(config, verifier) -> Verifier:
    return Verifier(config.with_values("deductive", confidence="table"), pack=verifier.pack,
                    labels=verifier.labels, mrs=verifier.mrs, wordnet=verifier.wordnet)


def test_the_shipped_model_loads_and_is_monotone_in_link_confidence():
    m = default_model()
    # the features it was fitted on; a link source added since (``association``) has no weight
    assert set(m.features) <= set(FEATURES)
    assert all(f.startswith("share_") for f in set(FEATURES) - set(m.features))
    assert "faithful" in m.models and m.models["faithful"].coef, "the faithful verdict has a fitted model"
    for verdict, vm in m.models.items():
        for name, c in zip(m.features, vm.coef):
            if name in MONOTONE_FEATURES:
                assert c >= 0.0, (verdict, name, c)
    # its JSON form round-trips
    again = ConfidenceModel.from_dict(json.loads(json.dumps(m.to_dict())))
    assert again.models == m.models


def test_links_carry_a_source_and_a_confidence(verifier):
    v = verifier.verify(*GOOD)
    links = v.deductive.best.links
    assert links and all(l.source in LINK_SOURCES and 0.0 <= l.confidence <= 1.0 for l in links)
    d = v.to_dict()["deductive"]["links"]
    assert all("source" in x and "confidence" in x for x in d)
    ev = v.signals["deductive"]
    assert ev["passed"][:2] == ["soundness", "consistency"] and "checks" in ev["passed"]
    assert ev["min_link_confidence"] == pytest.approx(min(l.confidence for l in links), abs=1e-4)


def test_score_is_the_models_probability_and_falls_with_the_weakest_link(verifier):
    v = verifier.verify(*GOOD)
    ded = v.deductive
    assert v.decision == "accept"
    assert v.score == pytest.approx(default_model().probability(ded))
    assert 0.0 < v.score < 1.0
    # the weakest link made weaker and weaker: the probability never rises
    best = ded.best
    last = None
    i = 0
    for conf in (1.0, 0.9, 0.75, 0.6, 0.4, 0.2):
        links = list(best.links)
        links[i] = dataclasses.replace(links[i], confidence=conf)
        weaker = dataclasses.replace(ded, best=dataclasses.replace(best, links=tuple(links)))
        assert proof_features(weaker)["min_conf"] == pytest.approx(min(conf, ded.best.min_link_confidence))
        p = default_model().probability(weaker)
        if last is not None:
            assert p <= last + 1e-12, (conf, p, last)
        last = p


def test_explanation_names_the_weakest_link(verifier):
    for q, s in PAIRS:
        v = verifier.verify(q, s)
        best = v.deductive.best
        if best is None or not best.links:
            continue
        w = best.weakest_link
        assert w.confidence == min(l.confidence for l in best.links)
        line = next(l for l in v.explanation.splitlines() if l.startswith("Weakest link: "))
        assert f"'{w.unit.text or w.unit.lemma}' -> " in line and f"({w.symbol.id}), {w.source} " in line, line
        assert line.endswith(f"{w.confidence:.2f}")


def test_a_link_described_with_its_source_and_confidence(verifier):
    v = verifier.verify(*GOOD)
    link = v.deductive.best.links[0]
    fake = dataclasses.replace(link, source="similarity", confidence=0.61)
    assert fake.describe("net worth").endswith(f"-> net worth ({link.symbol.id}), similarity 0.61")


def test_table_mode_gives_the_old_scores_and_decisions(verifier, table_verifier):
    for q, s in PAIRS:
        t = table_verifier.verify(q, s)
        m = verifier.verify(q, s)
        assert t.score == TABLE_SCORES[t.verdict]
        assert t.score == {"faithful": 0.9, "weaker": 0.2, "unsupported": 0.1, "intent_mismatch": 0.15,
                           "unknown": 0.5}[t.verdict]
        assert (t.verdict, t.decision) == (m.verdict, m.decision)
        assert deductive_score(m.deductive, "table") == t.score


def test_accept_threshold_sends_weak_faithful_verdicts_to_abstain():
    assert deductive_decision("faithful", 0.4, None) == "accept"
    assert deductive_decision("faithful", 0.4, 0.5) == "abstain"
    assert deductive_decision("faithful", 0.6, 0.5) == "accept"
    assert deductive_decision("unsupported", 0.9, 0.5) == "reject"


def test_a_model_file_of_unknown_features_is_refused(tmp_path):
    p = tmp_path / "m.json"
    p.write_text(json.dumps({"features": ["no_such_feature"], "models": {"faithful": {"intercept": 0.0}}}))
    with pytest.raises(ValueError, match="unknown features"):
        load_model(p)
    with pytest.raises(ValueError):
        Verifier(load_config(EXAMPLE / "verifier.toml", environ={}).with_values("deductive", confidence="nope"))


def test_disabled_sources_drop_their_links(config, verifier):
    off = Verifier(config.with_values("grounding", disabled_sources=["lexicon"]), pack=verifier.pack,
                   labels=verifier.labels, mrs=verifier.mrs, wordnet=verifier.wordnet)
    v = off.verify(*GOOD)
    assert all(l.source != "lexicon" for r in v.deductive.readings for l in r.links)
    with pytest.raises(ValueError, match="unknown link sources"):
        Verifier(config.with_values("grounding", disabled_sources=["nope"]), pack=verifier.pack,
                 labels=verifier.labels, mrs=verifier.mrs, wordnet=verifier.wordnet)
