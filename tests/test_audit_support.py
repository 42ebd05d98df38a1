"""Helpers shared by the audit tests (no tests here): logs built from the chemistry
example, a light verifier configuration, store snapshots, and headless Chromium."""

from __future__ import annotations

import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHEM = ROOT / "examples" / "chemistry"
SHARED = ROOT.parent / "shared" / "data"

_PREFIXES = ("Tell me: ", "Quick question, ", "Please answer: ", "I wonder, ", "Hey! ")


def chemistry_lines() -> list[dict]:
    """The records of the chemistry example's query log."""
    return [json.loads(l) for l in (CHEM / "querylog.jsonl").read_text(encoding="utf-8").splitlines() if l.strip()]


def light_config(folder: Path) -> Path:
    """A light verifier.toml: the chemistry example's MRS and labels, WordNet turned off
    (loading the table would slow every worker), and a generous prover time-out so that a loaded machine does not
    turn proofs into 'unknown'."""
    p = folder / "verifier.toml"
    p.write_text(
        "[mrs]\n"
        f'corpora = ["{CHEM / "mrs.jsonl.gz"}"]\n'
        "[grounding]\n"
        f'labels = "{CHEM / "kg-labels.tsv"}"\n'
        'wordnet = "none"\n'
        "[deductive]\n"
        "timeout_ms = 60000\n", encoding="utf-8")
    return p


def build_log(path: Path, n: int, *, seed: int = 0, real_every: int = 10, bad_every: int = 37) -> Path:
    """A JSONL log of ``n`` lines from the chemistry example: every ``real_every``-th line is
    an original record (verified against its MRS), every ``bad_every``-th line is a bad line
    (invalid JSON, missing field, non-string query, bytes that are not UTF-8), the others are
    re-phrasings whose question has no MRS reading (fast abstentions)."""
    rng = random.Random(seed)
    base = chemistry_lines()
    bad = [b'{"question": "What is the mass of benzene?", "sparql": ',
           json.dumps({"question": "What is the mass of benzene?", "model": "x"}).encode(),
           json.dumps({"question": "What is the mass of benzene?", "sparql": 42}).encode(),
           b'{"question": "What is the mass of \xff\xfe?", "sparql": "SELECT ?v WHERE { wd:Q2270 wdt:P2067 ?v }"}']
    with open(path, "wb") as f:
        for i in range(1, n + 1):
            if i % bad_every == 0:
                f.write(bad[(i // bad_every) % len(bad)] + b"\n")
                continue
            d = dict(base[(i // real_every) % len(base)] if i % real_every == 0 else rng.choice(base))
            d["id"] = f"r{i:05d}"
            if i % real_every != 0 and d["question"]:
                d["question"] = rng.choice(_PREFIXES) + d["question"][0].lower() + d["question"][1:]
            f.write(json.dumps(d).encode() + b"\n")
    return path


def snapshot(store: Path) -> list[tuple]:
    """The content of a store that must not depend on how the audit ran."""
    db = sqlite3.connect(str(store))
    try:
        return db.execute(
            "SELECT l.path, r.line, r.record_id, r.content_hash, r.status, r.decision, r.verdict, r.score, "
            "r.error_kind, r.question, r.sparql FROM results r JOIN logs l USING (log_id) "
            "ORDER BY l.path, r.line").fetchall()
    finally:
        db.close()


def cli(*args: str, cwd: Path | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    """Run ``python -m verifier audit ...`` in a fresh process."""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "verifier", "audit", *args], cwd=str(cwd or ROOT), env=env,
                          capture_output=True, text=True, timeout=timeout)


def chromium() -> str | None:
    """Path of a Chromium executable, if any."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        p = shutil.which(name)
        if p:
            return p
    return None


def render(html: Path, png: Path | None = None, *, timeout: float = 120) -> tuple[list[str], str]:
    """Load a page in headless Chromium; returns ``(console messages, DOM after scripts)``
    and writes a screenshot to ``png`` when given."""
    exe = chromium()
    assert exe is not None
    console: list[str] = []
    dom = ""
    with tempfile.TemporaryDirectory(prefix="audit-chromium-") as profile:
        base = [exe, "--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={profile}",
                "--enable-logging=stderr", "--v=0", "--hide-scrollbars", "--virtual-time-budget=5000"]
        runs = [["--dump-dom"]]
        if png is not None:
            runs.append(["--window-size=1280,2600", f"--screenshot={png}"])
        for extra in runs:
            r = subprocess.run([*base, *extra, html.resolve().as_uri()], capture_output=True, text=True, timeout=timeout)
            console += [l for l in r.stderr.splitlines() if ":CONSOLE" in l or "Uncaught" in l]
            if "--dump-dom" in extra:
                dom = r.stdout
    return console, dom


class _StandInVerdict:
    """A verdict-like object (``to_dict``) of the stand-in verifier."""

    def __init__(self, question: str, sparql: str) -> None:
        ok = "wd:Q2270" in sparql or "wd:Q897" in sparql
        self.d = {"decision": "accept" if ok else "reject", "score": 0.9 if ok else 0.1,
                  "verdict": "faithful" if ok else "unsupported", "explanation": "stand-in",
                  "question": question, "sparql": sparql, "error": None, "timings_ms": {"total": 0.0},
                  "signals": {}}

    def to_dict(self) -> dict:
        return dict(self.d)


class StandInVerifier:
    """A fast, deterministic stand-in for :class:`verifier.api.Verifier` (for tests of the
    audit machinery: store, resume, change detection); ``delay`` seconds per record."""

    def __init__(self, delay: float = 0.0) -> None:
        self.delay = delay

    def verify(self, question: str, sparql: str) -> _StandInVerdict:
        if self.delay:
            import time

            time.sleep(self.delay)
        return _StandInVerdict(question, sparql)


def stand_in(config) -> StandInVerifier:
    """``--factory test_audit_support:stand_in``."""
    return StandInVerifier(float(config.get("stand_in", "delay", 0.0)))
