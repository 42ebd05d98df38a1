"""Done-when 4: the Ray engine gives the same verdicts as the local engine (1,000 lines).

Skipped when Ray is not installed (``pip install '.[distributed]'``).  Both engines audit
the same log with the same light configuration into two stores, which must hold the same
lines, ids, statuses, decisions, verdicts and scores; the Ray store's workers must be Ray
actor processes (not the local engine's).
"""

from __future__ import annotations

import sqlite3

import pytest

from test_audit_support import build_log, light_config, snapshot
from verifier.audit.engines import EngineOptions
from verifier.audit.runner import AuditOptions, run_audit
from verifier.config import load_config

pytest.importorskip("ray")

N_LINES = 1000


def test_ray_engine_matches_local_engine(tmp_path):
    log = build_log(tmp_path / "log.jsonl", N_LINES, seed=11, real_every=20, bad_every=97)
    cfg = load_config(light_config(tmp_path))
    outs = {}
    for engine in ("local", "ray"):
        outs[engine] = run_audit(AuditOptions(logs=(log,), store=tmp_path / f"{engine}.sqlite", config=cfg,
                                              engine=engine, engine_options=EngineOptions(workers=2, chunk_size=8)))
        assert outs[engine].status == "complete" and outs[engine].written == N_LINES
    local, ray = snapshot(tmp_path / "local.sqlite"), snapshot(tmp_path / "ray.sqlite")
    assert len(local) == N_LINES and local == ray
    decisions = {row[5] for row in ray}
    assert {"accept", "reject", "abstain"} <= decisions          # real verdicts, not one constant
    db = sqlite3.connect(tmp_path / "ray.sqlite")
    assert db.execute("SELECT engine, status FROM sessions").fetchall() == [("ray", "complete")]
    workers = {w for (w,) in db.execute("SELECT DISTINCT worker FROM results WHERE worker IS NOT NULL")}
    local_workers = {w for (w,) in sqlite3.connect(tmp_path / "local.sqlite").execute(
        "SELECT DISTINCT worker FROM results WHERE worker IS NOT NULL")}
    assert 1 <= len(workers) <= 2 and not workers & local_workers
