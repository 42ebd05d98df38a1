"""``verifier doctor`` on real configurations: nothing configured, the chemistry example, files
that do not exist, a malformed file, ACE (a stand-in script, and the real binary of
``../shared/tools/ace`` when present), an SQLite label store, a PGMR memory."""

from __future__ import annotations

import gzip
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from verifier.config import load_config
from verifier.doctor import (CHECKS, CheckResult, DoctorReport, check_ace, check_hdm,
                             check_labels, check_mrs, check_pgmr, check_stacking,
                             check_wordnet, count_label_ids, run_checks)
from verifier.lexical import WordNetRelations
from verifier.mrs_cache import grammar_identity

ROOT = Path(__file__).resolve().parents[1]
CHEM = ROOT / "examples" / "chemistry"
ACE_TOOLS = Path(os.environ.get("VERIFIER_SHARED", ROOT.parent / "shared")) / "tools" / "ace"


def _config(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "verifier.toml"
    p.write_text(text)
    return p


def test_nothing_configured_is_working_and_says_what_to_set_up(tmp_path):
    report = run_checks(_config(tmp_path, ""))
    assert [r.name for r in report.results] == [c.__name__.removeprefix("check_") for c in CHECKS]
    assert report.result("deductive").status == "ok"
    assert report.result("deductive").facts["verdicts"][0] == "faithful"
    ace = report.result("ace")
    assert ace.status == "missing" and ace.fix == "verifier setup ace --write-config"
    wn = report.result("wordnet")
    assert wn.status == "ok" and wn.facts["kind"] == "shipped" and wn.facts["words"] > 50_000
    for name in ("mrs", "labels", "pgmr", "stacking", "hdm", "kg"):
        r = report.result(name)
        assert r.status == "missing" and r.fix, r
    assert report.exit_code == 0 and report.to_dict()["ok"] is True


def test_the_chemistry_example(tmp_path):
    report = run_checks(CHEM / "verifier.toml")
    assert report.result("config").facts["files"][-1].endswith("chemistry/verifier.toml")
    mrs = report.result("mrs")
    assert mrs.status == "ok" and list(mrs.facts["corpora"].values()) == [18]
    labels = report.result("labels")
    assert labels.status == "ok" and labels.facts["kind"] == "TSV" and labels.facts["ids"] == 29
    kg = report.result("kg")       # configured, but only a stacking model would use it
    assert kg.status == "warn" and "stacking" in kg.detail
    assert report.exit_code == 0


def test_configured_files_that_do_not_exist_are_broken(tmp_path):
    cfg = _config(tmp_path, '[grounding]\nlabels = "nope.tsv"\nwordnet = "nope.json.gz"\n'
                            '[mrs]\ncorpora = ["nope.jsonl.gz"]\n[stacking]\nmodel = "nope.json"\n'
                            '[hdm]\nmodel = "nope-dir"\n[kg]\nfile = "nope.ttl"\n'
                            '[pgmr]\nmemory = "nope-memory"\n')
    report = run_checks(cfg, checks=[check_labels, check_wordnet, check_mrs, check_stacking,
                                     check_hdm, check_pgmr])
    assert {r.name: r.status for r in report.results} == {
        "labels": "broken", "wordnet": "broken", "mrs": "broken", "stacking": "broken",
        "hdm": "broken", "pgmr": "broken"}
    assert report.result("wordnet").fix == f"verifier setup wordnet --out {tmp_path / 'nope.json.gz'}"
    assert str(tmp_path / "nope.tsv") in report.result("labels").detail
    assert report.exit_code == 1


def test_wordnet_off_and_user_rebuilt(tmp_path, monkeypatch):
    off = run_checks(_config(tmp_path, '[grounding]\nwordnet = "none"\n'), checks=[check_wordnet])
    assert off.result("wordnet").status == "off" and off.exit_code == 0
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    user = WordNetRelations.user_table()
    user.parent.mkdir(parents=True)
    with gzip.open(user, "wt", encoding="utf-8") as f:
        json.dump({"bear": {"v": ["birth"]}, "born": {"a": ["birth"]}}, f)
    r = run_checks(_config(tmp_path, ""), checks=[check_wordnet]).result("wordnet")
    assert r.status == "ok" and r.facts["kind"] == "user-rebuilt" and r.facts["words"] == 2


def test_a_malformed_configuration_is_broken_and_the_rest_still_runs(tmp_path):
    report = run_checks(_config(tmp_path, "[grounding\nlabels = 1\n"))
    assert report.result("config").status == "broken"
    assert "verifier.toml" in report.result("config").detail
    assert report.result("deductive").status == "ok"
    assert report.exit_code == 1


def _fake_ace(tmp_path: Path, version: str = "ACE version 0.9.34") -> Path:
    exe = tmp_path / "ace"
    exe.write_text(f"#!/bin/sh\necho '{version}' >&2\n")
    exe.chmod(0o755)
    return exe


def test_ace_binary_grammar_and_identity(tmp_path):
    grammar = tmp_path / "erg.dat"
    grammar.write_bytes(b"grammar image" * 100)
    ok = run_checks(_config(tmp_path, f'[ace]\nbinary = "{_fake_ace(tmp_path)}"\n'
                                      f'grammar = "{grammar}"\n'), checks=[check_ace])
    r = ok.result("ace")
    assert r.status == "ok" and r.facts["grammar_identity"] == grammar_identity(grammar)
    assert r.facts["version"] == "ACE version 0.9.34"
    no_grammar = run_checks(_config(tmp_path, f'[ace]\nbinary = "{_fake_ace(tmp_path)}"\n'
                                              f'grammar = "{tmp_path / "missing.dat"}"\n'),
                            checks=[check_ace])
    assert no_grammar.result("ace").status == "broken" and no_grammar.exit_code == 1
    not_ace = _fake_ace(tmp_path / "..", "something else")
    wrong = run_checks(_config(tmp_path, f'[ace]\nbinary = "{not_ace}"\ngrammar = "{grammar}"\n'),
                       checks=[check_ace])
    assert wrong.result("ace").status == "broken" and "something else" in wrong.result("ace").detail


@pytest.mark.skipif(not (ACE_TOOLS / "install.sh").is_file(), reason="../shared/tools/ace absent")
def test_the_real_ace_binary(tmp_path):
    dest = tmp_path / "ace"
    subprocess.run(["bash", str(ACE_TOOLS / "install.sh"), str(dest)], check=True,
                   capture_output=True, timeout=300)
    cfg = load_config(_config(tmp_path, f'[ace]\nbinary = "{dest / "ace"}"\n'
                                        f'grammar = "{dest / "erg-standin.dat"}"\n'),
                      environ={}, cwd=tmp_path)
    r = run_checks(cfg, checks=[check_ace]).result("ace")
    assert r.status == "ok", r.detail
    assert r.facts["version"].startswith("ACE version 0.9.34")
    assert r.facts["grammar_identity"].startswith("erg-standin.dat:")


def test_label_ids_are_counted_in_a_tsv_and_in_an_sqlite_store(tmp_path):
    assert count_label_ids(CHEM / "kg-labels.tsv") == ("TSV", 29)
    db = tmp_path / "labels.sqlite"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE meta (k TEXT, v TEXT)")
    con.execute("CREATE TABLE labels (id TEXT PRIMARY KEY, label TEXT)")
    con.executemany("INSERT INTO labels VALUES (?, ?)", [(f"Q{i}", f"thing {i}") for i in range(250)])
    con.commit()
    con.close()
    assert count_label_ids(db) == ("SQLite", 250)
    r = run_checks(_config(tmp_path, f'[grounding]\nlabels = "{db}"\n'),
                   checks=[check_labels]).result("labels")
    assert r.status == "ok" and r.facts["ids"] == 250 and "SQLite" in r.detail


def test_a_pgmr_memory_is_described(tmp_path):
    from verifier.pgmr import Memory

    Memory.from_labels_tsv(CHEM / "kg-labels.tsv").save(tmp_path / "mem")
    r = run_checks(_config(tmp_path, '[pgmr]\nmemory = "mem"\n'), checks=[check_pgmr]).result("pgmr")
    assert r.status == "warn" and r.facts["symbols"] == 29     # no stacking model uses it
    assert r.facts["encoder"].startswith("hashed-ngram/v1")


def test_a_crashing_check_is_broken_and_does_not_hide_the_others(tmp_path):
    def check_boom(ctx):
        raise RuntimeError("boom")

    def check_fine(ctx):
        return CheckResult("fine", "fine", "ok", "fine")

    report = run_checks(_config(tmp_path, ""), checks=[check_boom, check_fine])
    assert report.result("boom").status == "broken" and "boom" in report.result("boom").detail
    assert report.result("fine").status == "ok"
    with pytest.raises(ValueError):
        CheckResult("x", "x", "fine", "")
    assert isinstance(report, DoctorReport)


def _doctor(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "verifier", "doctor", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600)


def test_cli_json_and_exit_codes(tmp_path):
    good = _doctor("--json", "--config", str(CHEM / "verifier.toml"), cwd=tmp_path)
    assert good.returncode == 0, good.stderr
    data = json.loads(good.stdout)
    assert data["ok"] is True and {c["name"] for c in data["checks"]} >= {"ace", "wordnet", "labels"}
    bad = _doctor("--config", str(_config(tmp_path, '[grounding]\nlabels = "nope.tsv"\n')),
                  cwd=tmp_path)
    assert bad.returncode == 1
    assert "KG labels" in bad.stdout and "broken" in bad.stdout and "fix:" in bad.stdout
    assert _doctor("--config", str(tmp_path / "absent.toml"), cwd=tmp_path).returncode == 2


def test_a_label_store_named_by_labels_store_is_the_kg_labels(tmp_path):
    """``verifier labels import`` tells users to set ``[labels] store``; grounding reads that
    store, so the doctor must not call the labels missing."""
    from verifier.labels.store import LabelStore

    db = tmp_path / "labels.sqlite"
    p = subprocess.run([sys.executable, "-m", "verifier", "labels", "import", str(CHEM / "kg-labels.tsv"),
                        "--store", str(db), "--no-progress"], capture_output=True, text=True,
                       cwd=ROOT)
    assert p.returncode == 0, p.stderr
    with LabelStore(db, create=False) as store:
        assert store is not None
    r = run_checks(_config(tmp_path, f'[labels]\nstore = "{db}"\n'), checks=[check_labels]).result("labels")
    assert r.status == "ok", r.detail
    assert r.facts["ids"] and r.facts["ids"] >= 29 and "SQLite" in r.detail
    gone = run_checks(_config(tmp_path, f'[labels]\nstore = "{tmp_path / "none.sqlite"}"\n'),
                      checks=[check_labels]).result("labels")
    assert gone.status == "broken" and "[labels] store" in gone.detail
