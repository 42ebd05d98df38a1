"""The live ACE path against the real ACE 0.9.34 binary and the stand-in ERG image of
``../shared/tools/ace`` (unpacked once per session into a temporary folder by its
``install.sh``): the pool with two processes, a killed process replaced without losing
the question, time-outs, the MRS cache filled by ACE and reused, ``verifier setup ace``
from the local files, and ``verifier check`` / ``verifier audit`` on questions that no
cache or corpus knows.  Skipped when ``../shared/tools/ace`` is absent."""

from __future__ import annotations

import gzip
import json
import os
import platform
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from parsers.ace import AceConfig, AceParserPool, LazyAce
from parsers.mrs import translate_readings
from parsers.ace_grammar import grammar_info
from verifier.mrs_cache import MrsCache, MrsProvider, grammar_family

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("VERIFIER_SHARED", ROOT.parent / "shared"))
ACE_DIR = SHARED / "tools" / "ace"
CHEMISTRY = SHARED / "data" / "mrs" / "chemistry.jsonl.gz"
STANDIN_SHA = "8d47aad88d0ee8807a6d8e75a3317b2687d62a3323750022bb3829557b4bd74d"

pytestmark = [
    pytest.mark.skipif(not (ACE_DIR / "install.sh").is_file(), reason=f"no ACE tools at {ACE_DIR}"),
    pytest.mark.skipif(platform.system() != "Linux" or platform.machine() not in ("x86_64", "AMD64"),
                       reason="the shared ACE binary is for x86-64 Linux"),
    pytest.mark.skipif(not (shutil.which("xz") and shutil.which("sha256sum") and shutil.which("bash")),
                       reason="install.sh needs bash, xz and sha256sum"),
]

# Many analyses: with a small --timeout ACE gives up ("timeout, ran out of time while unpacking").
PATHOLOGICAL = "Which " + " and ".join(["old cat near the dog with the hat"] * 5) + " is there?"
# About half a second to parse: long enough to be killed in the middle.
SLOW = "Which " + " and ".join(["old cat near the dog with the hat"] * 3) + " is there?"


@pytest.fixture(scope="session")
def ace_files(tmp_path_factory):
    """``(binary, grammar)`` unpacked by the shared install.sh into a temporary folder."""
    dest = tmp_path_factory.mktemp("ace")
    r = subprocess.run(["bash", str(ACE_DIR / "install.sh"), str(dest)], capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stderr
    yield dest / "ace", dest / "erg-standin.dat"
    shutil.rmtree(dest, ignore_errors=True)  # 218 MB


def _config(ace_files, **kw) -> AceConfig:
    binary, grammar = ace_files
    opts = dict(timeout=10.0, grace=5.0, pool_size=1)
    opts.update(kw)
    return AceConfig(str(binary), str(grammar), **opts)


@pytest.fixture(scope="module")
def pool(ace_files):
    """One pool of two ACE processes for the module."""
    with AceParserPool(_config(ace_files, pool_size=2)) as p:
        yield p


@pytest.fixture(scope="module")
def corpus() -> dict[str, dict]:
    """The shared corpus of the 60 chemistry questions (produced by the same image)."""
    if not CHEMISTRY.is_file():
        pytest.skip(f"no {CHEMISTRY}")
    with gzip.open(CHEMISTRY, "rt", encoding="utf-8") as f:
        return {d["question"]: d for d in map(json.loads, f)}


def _deterministic(corpus: dict[str, dict], k: int) -> list[str]:
    """Questions with fewer than 5 readings (so ``-n 5`` keeps them all: the same set as
    the corpus whatever the unranked order of the analyses)."""
    qs = [q for q, d in corpus.items() if 0 < len(d["readings"]) < 5 and d["roots"] == "strict"]
    return qs[:k]


def test_pool_of_two_processes_parses_real_readings(pool, corpus) -> None:
    qs = _deterministic(corpus, 7)
    assert len(qs) == 7
    before = [w.parsed for w in pool.workers[:2]]
    res = pool.parse_batch([SLOW, *qs, "Give me the benzene's toxicity."])
    assert [r.question for r in res] == [SLOW, *qs, "Give me the benzene's toxicity."]
    for r, q in zip(res[1:], qs):
        assert r.status == "ok" and r.roots == "strict" and r.error is None, r
        # the live parse is the corpus's parse, written the same way (PyDelphin SimpleMRS)
        assert list(r.readings) == corpus[q]["readings"]
        assert all(t.ok for t in translate_readings(r.readings)), q
    assert res[0].status == "ok" and len(res[0].readings) == 5
    none = res[-1]
    assert none.status == "no-parse" and none.roots == "fallback" and none.readings == ()
    # both processes worked, and they are two processes
    used = [w.parsed - b for w, b in zip(pool.workers[:2], before)]
    assert all(u > 0 for u in used) and sum(used) == len(res)
    assert len({w.pid for w in pool.workers[:2]}) == 2


def test_a_killed_process_is_replaced_without_losing_the_question(pool, corpus) -> None:
    q = _deterministic(corpus, 1)[0]
    # between questions: every first-pass process is killed
    restarts = pool.restarts
    old = [w.pid for w in pool.workers[:2]]
    for pid in old:
        os.kill(pid, signal.SIGKILL)
    r = pool.parse(q)
    assert r.status == "ok" and r.roots == "strict" and list(r.readings) == corpus[q]["readings"]
    assert pool.restarts > restarts
    # in the middle of a parse
    reference = pool.parse(SLOW)
    assert reference.status == "ok"
    old = [w.pid for w in pool.workers[:2]]
    timer = threading.Timer(0.15, lambda: [os.kill(p, signal.SIGKILL) for p in old])
    timer.start()
    try:
        r = pool.parse(SLOW)
    finally:
        timer.join()
    assert r.status == "ok" and r.roots == "strict" and r.readings == reference.readings
    assert r.error is None
    r = pool.parse(q)  # the other process, killed while idle, is replaced too
    assert r.status == "ok" and list(r.readings) == corpus[q]["readings"]
    for pid in old:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
    assert all(w.pid not in old for w in pool.workers[:2])


def test_timeout_on_a_pathological_input(ace_files) -> None:
    with AceParserPool(_config(ace_files, timeout=1.0)) as small:
        r = small.parse(PATHOLOGICAL)
        assert r.status == "timeout" and r.readings == ()
        assert "strict: timeout" in r.error and "fallback: timeout" in r.error and "tsdb" not in r.error
        assert small.restarts == 0  # ACE stopped by itself
        ok = small.parse("What is the mass of benzene?")
        assert ok.status == "ok" and len(ok.readings) == 4
        # too long for the grammar: a reason, not a time-out
        long = small.parse(" ".join(["benzene"] * 80) + "?")
        assert long.status == "no-parse" and "too many words" in long.error


def test_a_silent_process_is_killed_after_the_hard_limit(ace_files) -> None:
    with AceParserPool(_config(ace_files, timeout=1.0, grace=1.0)) as small:
        assert small.parse("What is the mass of benzene?").ok
        w = small.workers[0]
        pid = w.pid
        os.kill(pid, signal.SIGSTOP)  # ACE stops answering
        r = small.parse("What is the density of water?")
        assert r.status == "timeout" and r.roots == "strict" and "killed and replaced" in r.error
        assert w.pid != pid and small.restarts == 1
        assert len(small.workers) == 1  # no fallback pass after a lost process
        ok = small.parse("What is the density of water?")
        assert ok.status == "ok" and ok.error is None


def test_crash_messages_carry_aces_last_words(ace_files, tmp_path: Path) -> None:
    bad = tmp_path / "bad.dat"
    bad.write_bytes(b"not a grammar image")
    binary, _ = ace_files
    lazy = LazyAce(AceConfig(str(binary), str(bad), timeout=5.0, grace=2.0))
    # ACE dies at once: seen when the process starts ("error") or at the first sentence
    r = lazy.parse("What is the mass of benzene?")
    lazy.close()
    assert r.status in ("error", "crash") and "this does not appear to be a grammar image" in r.error


def test_cache_filled_by_ace_and_reused(ace_files, tmp_path: Path) -> None:
    cfg = _config(ace_files)
    db = tmp_path / "mrs.sqlite3"
    q = "What's the density of benzene?"  # in no corpus
    lazy = LazyAce(cfg)
    prov = MrsProvider(MrsCache(db), ace=lazy)
    a = prov.lookup(q)
    assert a.status == "ok" and a.source == "ace" and lazy.started and a.readings
    info = grammar_info(ace_files[1])
    assert info.sha256 == STANDIN_SHA and info.version == "ERG (2025)" and info.ace_version == "0.9.34"
    assert a.grammar == info.identity and a.family == "erg-standin" == grammar_family(a.grammar)
    prov.close()
    # a new provider on the same cache: answered from it, ACE never started
    lazy2 = LazyAce(cfg)
    prov2 = MrsProvider(MrsCache(db), ace=lazy2)
    b = prov2.lookup("What's  the density of benzene? ")
    assert b.source == "cache" and b.readings == a.readings and not lazy2.started
    assert b.grammar == info.identity and b.family == "erg-standin"
    rec = prov2.cache.grammar_record(info.identity)
    assert rec["version"] == "ERG (2025)" and rec["sha256"] == STANDIN_SHA and rec["family"] == "erg-standin"
    assert dict(prov2.cache.grammars()) == {info.identity: 1}
    prov2.close()


def test_setup_ace_installs_the_shared_files(tmp_path: Path) -> None:
    """One real installation from the shared .xz files, as a user would run it."""
    home = tmp_path / "home"
    home.mkdir()
    r = _verifier(["setup", "ace", "--ace", str(ACE_DIR / "ace-0.9.34-x86_64.xz"),
                   "--erg", (ACE_DIR / "erg-standin-0.9.34.dat.xz").as_uri(), "--dest", str(tmp_path / "ace"),
                   "--write-config"], home, tmp_path)
    assert r.returncode == 0, r.stderr
    grammar = tmp_path / "ace" / "erg-standin-0.9.34.dat"
    assert "installed ACE version 0.9.34" in r.stdout and f"grammar: {grammar}" in r.stdout
    assert "grammar version: ERG (2025)   family: erg-standin" in r.stdout
    assert f"grammar identity: erg-standin-0.9.34.dat:212152464:{STANDIN_SHA[:16]}" in r.stdout
    rec = json.loads((tmp_path / "ace" / "erg-standin-0.9.34.dat.identity.json").read_text())
    assert rec["sha256"] == STANDIN_SHA
    cfg = (home / ".config" / "verifier" / "verifier.toml").read_text()
    assert f'grammar = "{grammar}"' in cfg and "# grammar identity: erg-standin-0.9.34.dat:" in cfg
    # a file that is not a grammar image: ACE's own reason
    (tmp_path / "junk.dat").write_bytes(b"junk")
    r = _verifier(["setup", "ace", "--ace", str(tmp_path / "ace" / "ace"), "--erg", str(tmp_path / "junk.dat"),
                   "--dest", str(tmp_path / "ace2")], home, tmp_path)
    assert r.returncode == 1 and "this does not appear to be a grammar image" in r.stderr
    shutil.rmtree(tmp_path / "ace")  # 218 MB


_ENV_DROP = ("VERIFIER_CONFIG", "VERIFIER_ACE", "VERIFIER_ERG", "VERIFIER_MRS_CACHE", "VERIFIER_LABELS")


def _verifier(args: list[str], home: Path, cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in _ENV_DROP}
    env["HOME"] = str(home)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run([sys.executable, "-m", "verifier", *args], cwd=str(cwd), env=env,
                          capture_output=True, text=True, timeout=timeout)


@pytest.fixture
def live_config(ace_files, tmp_path: Path) -> Path:
    """A verifier.toml with ACE and the chemistry example's labels, and no MRS corpus."""
    binary, grammar = ace_files
    p = tmp_path / "verifier.toml"
    p.write_text(
        f'[ace]\nbinary = "{binary}"\ngrammar = "{grammar}"\n'
        f'[mrs]\ncache = "{tmp_path / "mrs.sqlite3"}"\n'
        f'[grounding]\nlabels = "{ROOT / "examples" / "chemistry" / "kg-labels.tsv"}"\n'
        "[deductive]\ntimeout_ms = 60000\n", encoding="utf-8")
    (tmp_path / "home").mkdir()
    return p


def _cached(tmp_path: Path) -> dict[str, str]:
    db = sqlite3.connect(str(tmp_path / "mrs.sqlite3"))
    try:
        return dict(db.execute("SELECT question, grammar FROM parses").fetchall())
    finally:
        db.close()


def test_check_end_to_end_on_unknown_questions(live_config: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    q = "What's the density of benzene?"
    r = _verifier(["check", "--config", str(live_config), "--json", q,
                   "SELECT ?v WHERE { wd:Q2270 wdt:P2054 ?v . }"], home, tmp_path)
    assert r.returncode == 0, r.stderr
    v = json.loads(r.stdout)
    assert v["decision"] == "accept" and v["verdict"] == "faithful"
    assert any(l["symbol"] == "wd:Q2270" for l in v["deductive"]["links"])
    # ACE parsed it, under the stand-in's identity (rejections: the audit test below)
    cached = _cached(tmp_path)
    assert list(cached) == [q] and cached[q].startswith("erg-standin.dat:212152464:8d47aad88d0ee880")


def test_audit_end_to_end_on_unknown_questions(live_config: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    records = [
        {"id": "a1", "question": "Tell me the mass of benzene.", "sparql": "SELECT ?v WHERE { wd:Q2270 wdt:P2067 ?v . }"},
        {"id": "a2", "question": "Tell me the mass of benzene.", "sparql": "SELECT ?v WHERE { wd:Q2270 wdt:P2102 ?v . }"},
        {"id": "a3", "question": "What's the density of benzene?", "sparql": "SELECT ?v WHERE { wd:Q2270 wdt:P2054 ?v . }"},
        {"id": "a4", "question": "What is the boiling point of toluene?", "sparql": "SELECT ?v WHERE { wd:Q2270 wdt:P2067 ?v . }"},
    ]
    log = tmp_path / "log.jsonl"
    log.write_text("".join(json.dumps(d) + "\n" for d in records), encoding="utf-8")
    r = _verifier(["audit", str(log), "--config", str(live_config), "--workers", "1", "--no-progress"],
                  home, tmp_path)
    assert r.returncode == 0, r.stderr
    r = _verifier(["audit", "export", str(log), "--format", "jsonl"], home, tmp_path)
    assert r.returncode == 0, r.stderr
    rows = {row["fields"]["id"]: row for row in map(json.loads, r.stdout.splitlines())}
    assert {k: v["decision"] for k, v in rows.items()} == {
        "a1": "accept", "a2": "reject", "a3": "accept", "a4": "reject"}
    assert rows["a2"]["verdict"] == "unsupported"
    cached = _cached(tmp_path)
    assert sorted(cached) == sorted({d["question"] for d in records})
    assert {grammar_family(g) for g in cached.values()} == {"erg-standin"}
