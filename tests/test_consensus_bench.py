"""``bench/consensus.py`` on a small synthetic prediction folder (the real figures come from
running it on ../shared; see docs/consensus.md)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _bench():
    spec = importlib.util.spec_from_file_location("bench_consensus", ROOT / "bench" / "consensus.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_bench_reports_auc_precision_and_timing(tmp_path, capsys):
    pytest.importorskip("sklearn")
    good = "SELECT ?v WHERE {{ wd:Q{q} wdt:P2067 ?v }}"
    variants = ["SELECT ?v WHERE {{ wd:Q{q} wdt:P2102 ?v }}", "SELECT ?v WHERE {{ ?v wdt:P2067 wd:Q{q} }}",
                "SELECT ?v WHERE {{ wd:Q{q} wdt:P31 ?v }}", None]
    rows = []
    for q in range(1, 9):
        for k in range(12):  # 8 agreeing correct runs (renamed), 4 different wrong ones
            text = good.format(q=q).replace("?v", f"?x{k}") if k < 8 else \
                (variants[k - 8].format(q=q) if variants[k - 8] else None)
            rows.append({"id": f"{q}-{k}", "question_id": f"q{q}", "question": f"question {q}?",
                         "model": f"m{k}", "sparql": text, "label": (1 if k < 8 else 0) if text else None})
    rows.append({"id": "lone", "question_id": "lone", "question": "alone", "sparql": good.format(q=9),
                 "label": 1, "model": "m"})
    data = tmp_path / "preds.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert _bench().main(["--data", str(data), "--timing-questions", "2", "--no-signals",
                          "--out", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    last = dict(kv.split("=") for kv in out.strip().splitlines()[-1].split())
    assert float(last["consensus_auc"]) == 1.0
    assert float(last["stacked_auc"]) > 0.9
    for k in ("accept_precision", "correct_accepted", "default_auc", "cluster10_p50_ms", "cluster10_p95_ms"):
        assert k in last
    assert float(last["cluster10_p50_ms"]) > 0
    assert "97 predictions, 9 questions" in out and "clustering 10 candidates (2 questions" in out
    assert (tmp_path / "out" / "rows.jsonl").is_file()
