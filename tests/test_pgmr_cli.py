"""``verifier pgmr``: build, intermediate, ground, check, calibrate; exit codes."""

from __future__ import annotations

import json

import pytest

from verifier.cli import main

TSV = ("id\tlabel\taliases\tdescription\n"
       "P31\tinstance of\tis a\t\n"
       "P2067\tmass\tweight\t\n"
       "Q2270\tbenzene\tbenzol\tchemical compound\n"
       "Q5\thuman\t\t\n"
       "Q11\tmass\t\t\n"
       "this line is malformed\n")


@pytest.fixture(scope="module")
def index(tmp_path_factory):
    d = tmp_path_factory.mktemp("cli")
    (d / "labels.tsv").write_text(TSV, encoding="utf-8")
    assert main(["pgmr", "build", "--labels", str(d / "labels.tsv"), "--out", str(d / "idx"),
                 "--no-progress"]) == 0
    return d / "idx"


def test_build_writes_index(index):
    meta = json.loads((index / "meta.json").read_text())
    assert meta["symbols"] == 5 and meta["partitions"]["item"]["index"] == "flat"


def test_intermediate_and_missing_ids(index, capsys):
    assert main(["pgmr", "intermediate", "SELECT ?v { wd:Q2270 wdt:P2067 ?v }",
                 "--index", str(index)]) == 0
    assert capsys.readouterr().out.strip() == (
        "SELECT ?v { wd:starturi benzene enduri wdt:starturi mass enduri ?v }")
    assert main(["pgmr", "intermediate", "SELECT * { wd:Q9 wdt:P31 wd:Q5 }",
                 "--index", str(index)]) == 1
    assert "Q9" in capsys.readouterr().err


def test_ground_ok_refused_and_json(index, capsys):
    assert main(["pgmr", "ground", "SELECT ?v { wd:starturi benzol enduri wdt:starturi mass "
                 "enduri ?v }", "--index", str(index)]) == 0
    assert capsys.readouterr().out.strip() == "SELECT ?v { wd:Q2270 wdt:P2067 ?v }"
    assert main(["pgmr", "ground", "SELECT * { ?x wdt:starturi instance of enduri "
                 "wd:starturi qqqzzz enduri }", "--index", str(index), "--json", "-k", "2"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] is False
    assert [lab["chosen"] for lab in out["labels"]] == ["P31", None]
    assert len(out["labels"][1]["candidates"]) == 2


def test_check_exit_codes(index, capsys):
    q = "What is the mass of benzene?"
    assert main(["pgmr", "check", q, "SELECT ?v { wd:Q2270 wdt:P2067 ?v }",
                 "--index", str(index)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("grounding score ") and "words 100% in the question via 'benzene'" in out
    assert main(["pgmr", "check", q, "SELECT ?v { wd:Q77 wdt:P2067 ?v }", "--index", str(index),
                 "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["hallucinated"] == ["Q77"] and out["features"]["pgmr_hallucinated"] == 1.0
    assert main(["pgmr", "check", q, "SELECT ?v { wd:Q5 wdt:P31 ?v }", "--index", str(index),
                 "--min-score", "0.9"]) == 1


def test_calibrate_writes_priors_used_by_check(index, tmp_path, capsys):
    data = tmp_path / "train.jsonl"
    data.write_text(json.dumps({"question": "What is benzene?",
                                "sparql": "SELECT * { wd:Q2270 wdt:P31 ?c }"}) + "\n")
    assert main(["pgmr", "calibrate", str(data), "--index", str(index)]) == 0
    assert (index / "priors.json").is_file()
    capsys.readouterr()
    assert main(["pgmr", "check", "What is benzene?", "SELECT * { wd:Q2270 wdt:P31 ?c }",
                 "--index", str(index), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["identifiers"][1]["expected"] < 1.0
    (index / "priors.json").unlink()


def test_calibrate_with_negatives_fits_the_binned_model(index, tmp_path, capsys):
    from verifier.pgmr import SupportPriors
    from verifier.pgmr.calibrate import BINNED_FEATURES

    good, wrong = tmp_path / "train.jsonl", tmp_path / "wrong.jsonl"
    qs = [f"What is the mass of benzene sample {n}?" for n in range(200)]
    good.write_text("".join(json.dumps({"question": q, "sparql": "SELECT ?v { wd:Q2270 "
                                        "wdt:P2067 ?v }"}) + "\n" for q in qs))
    wrong.write_text("".join(json.dumps({"question": q, "sparql": "SELECT ?v { wd:Q2270 "
                                         "wdt:P31 ?v }"}) + "\n" for q in qs))
    out = tmp_path / "priors.json"
    assert main(["pgmr", "calibrate", str(good), "--index", str(index), "--out", str(out),
                 "--negatives", str(wrong)]) == 0
    assert "from 200 pairs and 200 wrong queries" in capsys.readouterr().out
    pri = SupportPriors.load(out)
    assert pri.model.identifier["property"].features == BINNED_FEATURES
    assert main(["pgmr", "calibrate", str(good), "--index", str(index), "--out", str(out),
                 "--negatives", str(tmp_path / "none.jsonl")]) == 2


def test_usage_errors(index, tmp_path, capsys):
    assert main(["pgmr", "ground", "x", "--index", str(tmp_path / "none")]) == 2
    assert "meta.json" in capsys.readouterr().err
    assert main(["pgmr", "ground", "wdt:starturi mass", "--index", str(index)]) == 2
    assert main(["pgmr", "build", "--labels", str(tmp_path / "no.tsv"), "--out",
                 str(tmp_path / "o")]) == 2
    assert main(["pgmr", "build", "--labels", str(tmp_path / "no.tsv"), "--out",
                 str(tmp_path / "o"), "--encoder", "word2vec"]) == 2
    assert main(["pgmr"]) == 2
