"""bench/decision_diff.py: pairs records by key and counts decision changes."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _write(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


def test_decision_diff_counts_changes(tmp_path):
    _write(tmp_path / "a.jsonl", [
        {"id": "1", "category": "gold", "decision": "accept"},
        {"id": "2", "category": "gold", "decision": "reject"},
        {"id": "3", "category": "gold", "decision": "abstain"},
    ])
    _write(tmp_path / "b.jsonl", [
        {"id": "1", "category": "gold", "decision": "accept"},
        {"id": "2", "category": "gold", "decision": "accept", "reason": "now proved"},
        {"id": "4", "category": "gold", "decision": "accept"},
    ])
    p = subprocess.run([sys.executable, str(ROOT / "bench" / "decision_diff.py"),
                        str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl")],
                       capture_output=True, text=True)
    assert p.returncode == 1
    assert "reject->accept" in p.stdout
    assert p.stdout.strip().splitlines()[-1] == (
        "items=2 identical=1 changed=1 only_before=1 only_after=1")


def test_decision_diff_identical_exits_0(tmp_path):
    recs = [{"id": "1", "category": "gold", "decision": "accept"}]
    _write(tmp_path / "a.jsonl", recs)
    _write(tmp_path / "b.jsonl", recs)
    p = subprocess.run([sys.executable, str(ROOT / "bench" / "decision_diff.py"),
                        str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl")],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr
