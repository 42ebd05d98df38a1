"""The shipped default stacking model (issue 61): on by default, off with ``none``.

The suite runs with ``VERIFIER_STACKING=none`` (``tests/conftest.py``); these tests remove it.
"""

from __future__ import annotations

import json

import pytest

from verifier.api import Verifier
from verifier.confidence import deductive_score
from verifier.config import load_config
from verifier.stacking.default import DEFAULT_MODEL_PATH, load_default_model, model_setting

FIXED_SCORES = {0.9, 0.2, 0.1, 0.15, 0.5}
Q, S = "What is the mass of benzene?", "SELECT ?v WHERE { wd:Q2270 wdt:P2067 ?v }"

pytestmark = pytest.mark.skipif(not DEFAULT_MODEL_PATH.is_file(), reason="no shipped default model")


@pytest.fixture
def default_env(monkeypatch, tmp_path):
    monkeypatch.delenv("VERIFIER_STACKING", raising=False)
    monkeypatch.chdir(tmp_path)  # no ./verifier.toml


def test_the_shipped_model_is_package_data_trained_on_no_llm_prediction():
    data = json.loads(DEFAULT_MODEL_PATH.read_text())
    info = data.get("info") or {}
    assert info.get("trained_by") == "bench/train_default_stack.py"
    assert info.get("llm_predictions") == "none"
    model = load_default_model()
    assert {"cons_share", "cons_clusters", "cons_weighted", "ded_missing", "pgmr_missing"} <= set(model.feature_names)
    assert DEFAULT_MODEL_PATH.stat().st_size < 200_000


def test_a_fresh_verifier_returns_the_stacked_decision(default_env):
    cfg = load_config()
    assert model_setting(cfg) == DEFAULT_MODEL_PATH
    v = Verifier(cfg).verify(Q, S)
    assert "stacked" in v.signals and "deductive" in v.signals
    st = v.signals["stacked"]
    assert st["decision"] == v.decision and v.score == pytest.approx(st["probability"], abs=1e-4)
    assert round(v.score, 4) not in FIXED_SCORES
    assert st["contributions"] and all(isinstance(n, str) for n, _ in st["contributions"])
    assert v.explanation.startswith("Stacked verifier: ")
    assert "PGMR grounding: not configured." in v.explanation
    # the deductive check alone, on request
    d = Verifier(cfg).verify(Q, S, signals=("deductive",))
    # (the deductive score: the proof confidence since issue 59, docs/confidence.md)
    assert "stacked" not in d.signals and d.score == pytest.approx(deductive_score(d.deductive))


def test_stacking_switched_off(default_env, monkeypatch, tmp_path):
    monkeypatch.setenv("VERIFIER_STACKING", "none")
    v = Verifier(load_config()).verify(Q, S)
    assert "stacked" not in v.signals and v.score == pytest.approx(deductive_score(v.deductive))
    monkeypatch.delenv("VERIFIER_STACKING")
    toml = tmp_path / "off.toml"
    toml.write_text('[stacking]\nmodel = "none"\n')
    cfg = load_config(toml)
    assert model_setting(cfg) is None and Verifier(cfg).stacker is None
    # a file that names a model wins over the variable (it only gives the default)
    monkeypatch.setenv("VERIFIER_STACKING", "none")
    toml.write_text('[stacking]\nmodel = "default"\n')
    assert model_setting(load_config(toml)) == DEFAULT_MODEL_PATH


def test_candidates_feed_consensus_to_the_shipped_model(default_env):
    ver = Verifier(load_config())
    wrong = "SELECT ?v WHERE { ?v wdt:P2067 wd:Q2270 }"
    res = ver.verify_candidates(Q, [S, S, S.replace("?v", "?m"), wrong])
    same, odd = res.verdicts[0], res.verdicts[3]
    assert same.signals["consensus"]["others_share"] == pytest.approx(2 / 3, abs=1e-3)
    assert odd.signals["consensus"]["others_share"] == 0.0
    assert "stacked" in same.signals and "stacked" in odd.signals
    alone = ver.verify(Q, S)
    # the same query scored with and without the agreement of the other candidates
    assert same.score != pytest.approx(alone.score, abs=1e-6)
