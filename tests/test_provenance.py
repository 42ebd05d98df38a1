"""Which model generated a query (issue 61): ``verify(model=)``, ``verify_candidates(model=)``,
``verifier check --model`` (audit lines: ``tests/test_audit_cli.py``)."""

from __future__ import annotations

import json

from verifier.api import Verifier
from verifier.cli import main
from verifier.config import Config

Q = "What is the mass of benzene?"
S = "SELECT ?v WHERE { wd:Q2270 wdt:P2067 ?v }"


def _ver() -> Verifier:
    return Verifier(Config({"grounding": {"wordnet": "none"}, "stacking": {"model": "none"}}))


def test_verify_keeps_the_model_on_every_verdict():
    v = _ver()
    assert v.verify(Q, S, model="gpt-41").signals["provenance"] == {"model": "gpt-41"}
    assert v.verify(Q, "SELEC nonsense", model="m").signals["provenance"] == {"model": "m"}
    assert v.verify("", S, model="m").signals["provenance"] == {"model": "m"}
    assert "provenance" not in v.verify(Q, S).signals
    assert v.verify(Q, S, model="m").to_dict()["signals"]["provenance"] == {"model": "m"}


def test_verify_candidates_model_keyword():
    res = _ver().verify_candidates(Q, [S, S.replace("P2067", "P2102")], model=["a", "b"])
    assert [r.signals["provenance"]["model"] for r in res.verdicts] == ["a", "b"]
    res = _ver().verify_candidates(Q, [S, S], model="a")
    assert all(r.signals["provenance"] == {"model": "a"} for r in res.verdicts)


def test_check_model_option(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    main(["check", Q, S, "--model", "gpt-41", "--json"])
    d = json.loads(capsys.readouterr().out)
    assert d["signals"]["provenance"] == {"model": "gpt-41"}
    f = tmp_path / "c.jsonl"
    f.write_text(json.dumps({"sparql": S, "model": "own"}) + "\n" + json.dumps({"sparql": S}) + "\n")
    main(["check", Q, "--file", str(f), "--model", "other", "--json"])
    d = json.loads(capsys.readouterr().out)
    assert [v["signals"]["provenance"]["model"] for v in d["verdicts"]] == ["own", "other"]
