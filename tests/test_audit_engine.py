"""The audit engine survives records that crash, raise or hang in the verifier.

A stand-in verifier (built by the factory below in each real worker process) exits the
process on "CRASH", raises on "RAISE" and sleeps on "HANG"; every other record gets a
verdict.  The audit must store every line exactly once, turn the bad ones into
``verify_error`` results, and keep going.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time

from test_audit_support import StandInVerifier
from verifier.audit.engines import EngineOptions
from verifier.audit.runner import AuditOptions, run_audit


class _StandIn(StandInVerifier):
    def verify(self, question: str, sparql: str):
        if "CRASH" in question:
            os._exit(7)
        if "RAISE" in question:
            raise ValueError("stand-in failure")
        if "HANG" in question:
            time.sleep(120)
        return super().verify(question, "wd:Q2270" if "good" in question else sparql)


def stand_in_factory(config):
    return _StandIn()


def test_crashes_exceptions_and_hangs_become_error_records(tmp_path):
    from verifier.config import Config

    qs = ["good 1", "bad 2", "CRASH 3", "good 4", "RAISE 5", "good 6", "HANG 7", "bad 8", "good 9", "good 10"]
    log = tmp_path / "log.jsonl"
    log.write_text("".join(json.dumps({"question": q, "sparql": "ASK { ?s ?p ?o }"}) + "\n" for q in qs))
    opts = AuditOptions(logs=(log,), store=tmp_path / "s.sqlite", config=Config(),
                        engine_options=EngineOptions(workers=2, chunk_size=3, record_timeout=3.0,
                                                     factory=f"{__name__}:stand_in_factory"))
    out = run_audit(opts)
    assert out.status == "complete" and out.written == len(qs) and out.verify_errors == 3
    assert out.restarts >= 4  # CRASH twice (chunk, then alone), HANG twice
    db = sqlite3.connect(tmp_path / "s.sqlite")
    rows = {q: (st, dec, kind, err) for q, st, dec, kind, err in db.execute(
        "SELECT question, status, decision, error_kind, error FROM results ORDER BY line")}
    assert len(rows) == len(qs)
    assert rows["CRASH 3"][:3] == ("verify_error", None, "crash") and "died twice" in rows["CRASH 3"][3]
    assert rows["RAISE 5"][:3] == ("verify_error", None, "crash") and "stand-in failure" in rows["RAISE 5"][3]
    assert rows["HANG 7"][:3] == ("verify_error", None, "timeout")
    for q in qs:
        if q.startswith("good"):
            assert rows[q][:2] == ("ok", "accept"), q
        elif q.startswith("bad"):
            assert rows[q][:2] == ("ok", "reject"), q
