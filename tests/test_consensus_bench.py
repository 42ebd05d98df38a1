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


def _synthetic(tmp_path):
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
    return data


def test_bench_reports_auc_precision_and_timing(tmp_path, capsys):
    pytest.importorskip("sklearn")
    data = _synthetic(tmp_path)
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
    assert 0.0 < float(last["frontier_precision_060"]) <= 1.0


@pytest.mark.parametrize("stacker", ["two-stage", "hgb"])
def test_bench_other_stackers(tmp_path, capsys, stacker):
    pytest.importorskip("sklearn")
    data = _synthetic(tmp_path)
    assert _bench().main(["--data", str(data), "--timing-questions", "0", "--no-signals",
                          "--out", str(tmp_path / "out"), "--stacker", stacker]) == 0
    out = capsys.readouterr().out
    last = dict(kv.split("=") for kv in out.strip().splitlines()[-1].split())
    assert f"stacked ({stacker})" in out
    if stacker == "hgb":  # no operating point: nothing accepted; 20 rows a leaf on ~70 rows
        assert last["accept_precision"] == "nan" and float(last["stacked_auc"]) > 0.6
    else:
        assert float(last["stacked_auc"]) > 0.9 and float(last["frontier_precision_060"]) > 0.9


def test_stage_two_features():
    import numpy as np

    b = _bench()
    # question a: cluster 0 = rows 0, 1, 2 (first-stage p 0.9, 0.5, 0.4), cluster 1 = row 3 (0.8);
    # question b: a lone candidate (row 4)
    F = b.stage_two_features([0.9, 0.5, 0.4, 0.8, 0.7], ["a", "a", "a", "a", "b"], [0, 0, 0, 1, 0])
    col = {n: F[:, i] for i, n in enumerate(b.S2_NAMES)}
    assert np.allclose(col["s2_own"], [0.9, 0.5, 0.4, 0.8, 0.7])
    assert np.allclose(col["s2_cluster_mean"][:4], [0.6, 0.6, 0.6, 0.8])
    assert np.allclose(col["s2_cluster_max"][:4], [0.9, 0.9, 0.9, 0.8])
    assert np.allclose(col["s2_best_other"], [0.8, 0.8, 0.8, 0.6, 0.0])
    assert np.allclose(col["s2_margin"][:4], [-0.2, -0.2, -0.2, 0.2])
    # the lone row of cluster 1 is the second best candidate, but its cluster is the best
    assert np.allclose(col["s2_rank"], [0.0, 2 / 3, 1.0, 1 / 3, 0.0])
    assert np.allclose(col["s2_top"], [0, 0, 0, 1, 1])


def test_frontier_takes_ties_together_and_the_veto():
    b = _bench()
    y = [1, 1, 0, 1, 0, 1, 0, 0, 1, 0]
    p = [0.9, 0.9, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2]
    # 60 % of the 5 correct = 3: the tie at 0.9 gives 2, down to 0.8 gives 3 of 4 accepted
    assert b.frontier(y, p) == 0.75
    # the correct row at 0.8 refuted (never accepted): down to 0.6, 3 of 5
    assert b.frontier(y, p, [False, False, False, True] + [False] * 6) == 0.6
