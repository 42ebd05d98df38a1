"""The audit breakdown of ``bench/pgmr_perturbations.py --benchmark-test``: reading the audit
files and the AUCs with the gold pairs restricted by judgement (no shared data needed)."""

from __future__ import annotations

import importlib.util
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from verifier.pgmr.perturb import Perturbation

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def bench():
    sys.path.insert(0, str(REPO / "bench"))
    spec = importlib.util.spec_from_file_location("bench_pgmr_perturbations",
                                                  REPO / "bench" / "pgmr_perturbations.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    yield mod
    sys.path.remove(str(REPO / "bench"))


@dataclass
class Scored:
    score: float


def _write(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_read_audits_first_file_wins_and_missing_files_are_skipped(bench, tmp_path, capsys):
    a = _write(tmp_path / "a.jsonl", [{"id": "g1", "judgement": "faithful"}])
    b = _write(tmp_path / "b.jsonl", [{"id": "g1", "judgement": "wrong"},
                                       {"id": "g2", "judgement": "loose"}])
    judged = bench.read_audits([a, tmp_path / "absent.jsonl", b])
    assert judged == {"g1": "faithful", "g2": "loose"}
    assert "absent.jsonl" in capsys.readouterr().out
    bad = _write(tmp_path / "bad.jsonl", [{"id": "g3", "judgement": "maybe"}])
    with pytest.raises(SystemExit, match="g3"):
        bench.read_audits([bad])


def test_audited_aucs_restrict_both_sides_by_judgement(bench):
    # g1 (faithful) scores high and its wrong property low; g2 (wrong) scores lowest of all,
    # so it costs AUC only when it is kept
    pairs = [Perturbation("q1", "s", "gold", 0, "g1"),
             Perturbation("q1", "s", "wrong_property", 1, "g1"),
             Perturbation("q2", "s", "gold", 0, "g2"),
             Perturbation("q2", "s", "wrong_property", 1, "g2"),
             Perturbation("q2", "s", "wrong_entity", 1, "g2")]
    reports = [Scored(0.9), Scored(0.3), Scored(0.1), Scored(0.5), Scored(0.4)]
    out = bench.audited_aucs(pairs, reports, {"g1": "faithful", "g2": "wrong"})
    faithful = out["faithful"]
    assert faithful["gold"] == 1
    assert faithful["wrong_property"] == {"n": 1, "auc": 1.0}
    assert faithful["wrong_entity"] == {"n": 0, "auc": None}
    every = out["faithful+loose+wrong"]
    assert every["gold"] == 2
    # gold 0.9 beats 0.3 and 0.5; gold 0.1 beats neither: 2 of 4
    assert every["wrong_property"]["auc"] == pytest.approx(0.5)
    assert out["faithful+loose"] == faithful


def test_benchmark_sample_tags_every_record_with_its_gold_pair(bench, tmp_path):
    rows = [{"id": "t-1", "split": "test", "category": "gold", "label": 1, "question": "q",
             "sparql": "ASK {}"},
            {"id": "t-1/wrong_property", "gold_id": "t-1", "split": "test",
             "category": "wrong_property", "label": 0, "question": "q", "sparql": "ASK {}"},
            {"id": "x-1", "split": "train", "category": "gold", "label": 1, "question": "q",
             "sparql": "ASK {}"}]
    pairs = bench.benchmark_test_sample(_write(tmp_path / "p.jsonl", rows), 5)
    assert [(p.category, p.label, p.source) for p in pairs] == [("gold", 0, "t-1"),
                                                                ("wrong_property", 1, "t-1")]
