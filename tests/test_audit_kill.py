"""Done-when 1: SIGKILL at random points, resume, and the store equals an uninterrupted run's.

A log of 300 lines (real chemistry records verified against their MRS with a light
configuration, fast abstentions, bad lines) is audited once without interruption.  A second audit into another store is
killed with SIGKILL at random moments (after it stored something new, so every round makes
progress), then resumed, several times, then resumed to the end.  Both stores must hold the
same lines with the same ids, content hashes, statuses and verdicts, each line exactly once,
and no result may have been offered twice.  The workers of a killed audit must die with it.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from test_audit_support import ROOT, build_log, light_config, snapshot
from verifier.audit.engines import EngineOptions
from verifier.audit.runner import AuditOptions, run_audit
from verifier.audit.store import count_results
from verifier.config import load_config

N_LINES = 300
KILLS = 4


def _count(store: Path) -> int:
    return count_results(store, timeout=5)


def _children(pid: int) -> list[int]:
    try:
        return [int(x) for x in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _audit(log: Path, cfg: Path, store: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "verifier", "audit", str(log), "--config", str(cfg), "--store", str(store),
            "--workers", "2", "--batch-size", "4", "--quiet", "--no-progress", *extra]


def test_sigkill_and_resume_equals_uninterrupted_run(tmp_path):
    log = build_log(tmp_path / "log.jsonl", N_LINES, seed=5, real_every=12)
    cfg = light_config(tmp_path)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    ref = tmp_path / "ref.sqlite"
    out = run_audit(AuditOptions(logs=(log,), store=ref, config=load_config(cfg),
                                 engine_options=EngineOptions(workers=2)))
    assert out.status == "complete" and out.written == N_LINES
    expected = snapshot(ref)
    assert len(expected) == N_LINES and {row[4] for row in expected} == {"ok", "input_error"}

    store = tmp_path / "killed.sqlite"
    rng = random.Random(20261121)
    kills = killed_with_workers = 0
    for round_ in range(KILLS + 3):
        before = _count(store)
        p = subprocess.Popen(_audit(log, cfg, store, *(["--resume"] if round_ else [])), env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 300
        while p.poll() is None and _count(store) <= before and time.monotonic() < deadline:
            time.sleep(0.05)
        if p.poll() is None and kills < KILLS:
            time.sleep(rng.uniform(0.0, 0.05))
            workers = _children(p.pid)
            os.kill(p.pid, signal.SIGKILL)
            p.wait()
            kills += 1
            t = time.monotonic()
            while any(_alive(w) for w in workers) and time.monotonic() - t < 10:
                time.sleep(0.1)
            assert not any(_alive(w) for w in workers), "workers outlived the killed audit"
            killed_with_workers += bool(workers)  # none when the kill lands between batches
            continue
        _, err = p.communicate(timeout=600)
        assert p.returncode == 0, err
        if _count(store) == N_LINES:
            break
    assert kills == KILLS, f"only {kills} kill(s) landed before the audit finished"
    assert killed_with_workers >= 1, "no kill landed while workers were running"

    got = snapshot(store)
    assert got == expected
    db = sqlite3.connect(store)
    assert db.execute("SELECT COUNT(*), COUNT(DISTINCT line) FROM results").fetchone() == (N_LINES, N_LINES)
    sessions = db.execute("SELECT status, records_written, duplicates_ignored FROM sessions ORDER BY session_id").fetchall()
    assert [s[0] for s in sessions[:KILLS]] == ["killed"] * KILLS and sessions[-1][0] == "complete"
    assert sum(s[1] for s in sessions) == N_LINES and sum(s[2] for s in sessions) == 0
