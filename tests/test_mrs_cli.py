"""``verifier mrs ...``: import, export, parse, show, stats; exit codes."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

import pytest

from verifier.cli import main

SHARED = Path(os.environ.get("VERIFIER_SHARED", Path(__file__).resolve().parents[2] / "shared"))
MRS_DIR = SHARED / "data" / "mrs"

MASS = ('[ TOP: h0 INDEX: e2 [ e SF: ques ] RELS: < [ thing<0:4> LBL: h4 ARG0: x3 ] [ which_q<0:4> LBL: h5 ARG0: x3 RSTR: h6 BODY: h7 ] '
        '[ _be_v_id<5:7> LBL: h1 ARG0: e2 ARG1: x3 ARG2: x8 ] [ _the_q<8:11> LBL: h9 ARG0: x8 RSTR: h10 BODY: h11 ] '
        '[ _mass_n_of<12:16> LBL: h12 ARG0: x8 ARG1: x13 ] [ udef_q<20:28> LBL: h14 ARG0: x13 RSTR: h15 BODY: h16 ] '
        '[ _benzene_n_1<20:27> LBL: h17 ARG0: x13 ] > HCONS: < h0 qeq h1 h6 qeq h4 h10 qeq h12 h15 qeq h17 > ]')


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Isolate configuration: no ACE, no user config, cache in tmp."""
    for var in ("VERIFIER_ACE", "VERIFIER_ERG", "VERIFIER_MRS_CACHE", "VERIFIER_CONFIG"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    corpus = tmp_path / "c.jsonl"
    corpus.write_text(json.dumps({"question": "What is the mass of benzene?", "readings": [MASS, "garbage"],
                                  "roots": "strict", "error": None, "seconds": 0.1}) + "\n"
                      + json.dumps({"question": "Nothing here?", "readings": [], "roots": "fallback",
                                    "error": None, "seconds": 0.1}) + "\n", encoding="utf-8")
    return tmp_path


def test_import_export_show(env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = env / "m.sqlite3"
    assert main(["mrs", "--cache", str(db), "import", str(env / "c.jsonl")]) == 0
    assert "2 question(s) imported" in capsys.readouterr().out
    out = env / "out.jsonl.gz"
    assert main(["mrs", "--cache", str(db), "export", str(out)]) == 0
    with gzip.open(out, "rt", encoding="utf-8") as f:
        lines = [json.loads(l) for l in f]
    assert [l["question"] for l in lines] == ["What is the mass of benzene?", "Nothing here?"]
    capsys.readouterr()
    assert main(["mrs", "--cache", str(db), "show", "What is the mass of benzene?"]) == 0
    text = capsys.readouterr().out
    assert "thing(x3) & _be_v_id(e2, x3, x8)" in text and "FAILED [malformed]" in text
    assert main(["mrs", "--cache", str(db), "show", "--json", "What is the mass of benzene?"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["results"][0]["answer_vars"] == ["x3"] and data["results"][1]["ok"] is False
    # a known question without readings, an unknown question without ACE: exit 1
    assert main(["mrs", "--cache", str(db), "show", "Nothing here?"]) == 1
    assert main(["mrs", "--cache", str(db), "parse", "Who is unknown?"]) == 1
    assert "no parser available" in capsys.readouterr().out


def test_default_cache_location_and_parse(env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mrs", "import", str(env / "c.jsonl")]) == 0
    assert (env / "cache" / "verifier" / "mrs.sqlite3").is_file()
    capsys.readouterr()
    assert main(["mrs", "parse", "--json", "What is   the mass of benzene?"]) == 0
    rec = json.loads(capsys.readouterr().out)
    assert rec["status"] == "ok" and rec["source"] == "cache" and len(rec["readings"]) == 2


def test_show_from_mrs_text_and_corpus_option(env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mrs", "show", "--mrs", MASS]) == 0
    assert "[select; var x3; answer x3; SF ques]" in capsys.readouterr().out
    assert main(["mrs", "show", "--corpus", str(env / "c.jsonl"), "--no-ace", "What is the mass of benzene?"]) == 0
    assert main(["mrs", "show", "--mrs", "garbage"]) == 1


def test_usage_errors(env: Path) -> None:
    assert main(["mrs", "import", str(env / "missing.jsonl")]) == 2
    assert main(["mrs", "stats", str(env / "missing.jsonl")]) == 2
    assert main(["mrs", "show", "--mrs", MASS, "--max-scopes", "0"]) == 2
    assert main(["mrs", "show"]) == 2
    assert main(["mrs"]) == 2
    assert main(["mrs", "show", "--corpus", str(env / "nope.jsonl"), "Q?"]) == 2


def test_stats(env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mrs", "stats", "--json", str(env / "c.jsonl")]) == 0
    st = json.loads(capsys.readouterr().out)
    assert st["readings"] == 2 and st["readings_translated"] == 1
    assert st["questions_translated"] == 1 and st["intents_best_reading"] == {"select": 1}
    assert st["failure_reasons"] == [["malformed MRS", 1]]


@pytest.mark.skipif(not (MRS_DIR / "chemistry.jsonl.gz").is_file(), reason="shared corpus absent")
def test_stats_on_the_chemistry_corpus(env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mrs", "stats", str(MRS_DIR / "chemistry.jsonl.gz")]) == 0
    out = capsys.readouterr().out
    assert "questions: 60 (58 with readings)" in out
    assert "questions with a translated reading: 58 / 58" in out
