"""``verifier train generator``, ``verifier generate`` and ``verifier train hdm`` end to end on
tiny data (a tiny model config written inside the test)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch

from verifier.cli import main
from verifier.hdm import HDMDetector, load_seq2seq

PROPS = ["mass", "population", "capital", "author"]
ENTS = ["benzene", "paris", "france", "hamlet", "iron", "gold"]


@pytest.fixture(scope="module", autouse=True)
def one_thread():
    old = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(old)


def _write(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


@pytest.fixture(scope="module")
def work(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("cli")
    rows = [{"id": f"{p}-{e}", "question": f"what is the {p} of {e}?",
             "intermediate": f"SELECT ?x WHERE {{ wd:starturi {e} enduri wdt:starturi {p} enduri ?x }}"}
            for p in PROPS for e in ENTS]
    _write(d / "train.jsonl", rows[:18])
    _write(d / "dev.jsonl", rows[18:])
    (d / "tiny.json").write_text(json.dumps({"d_model": 32, "num_layers": 2,
                                             "num_decoder_layers": 2, "num_heads": 2,
                                             "d_ff": 64, "max_target_len": 32}))
    rc = main(["train", "generator", "--train", str(d / "train.jsonl"), "--dev",
               str(d / "dev.jsonl"), "--out", str(d / "gen"), "--config", str(d / "tiny.json"),
               "--epochs", "2", "--batch-size", "6", "--vocab-size", "300", "--no-progress"])
    assert rc == 0
    return d


def test_train_generator_writes_a_loadable_model(work):
    s2s = load_seq2seq(work / "gen")
    assert s2s.model.config.d_model == 32
    assert (work / "gen" / "checkpoint" / "state.pt").is_file()
    # an existing run is not overwritten without --resume
    rc = main(["train", "generator", "--train", str(work / "train.jsonl"), "--dev",
               str(work / "dev.jsonl"), "--out", str(work / "gen"), "--no-progress"])
    assert rc == 2
    # --resume of a finished run is a no-op that succeeds
    rc = main(["train", "generator", "--train", str(work / "train.jsonl"), "--dev",
               str(work / "dev.jsonl"), "--out", str(work / "gen"), "--config",
               str(work / "tiny.json"), "--epochs", "2", "--batch-size", "6", "--vocab-size",
               "300", "--resume", "--no-progress"])
    assert rc == 0


def test_usage_errors(work, tmp_path):
    assert main(["train", "generator", "--train", str(tmp_path / "none.jsonl"), "--dev",
                 str(work / "dev.jsonl"), "--out", str(tmp_path / "g")]) == 2
    assert main(["generate", str(work / "dev.jsonl"), "--model", str(tmp_path / "nomodel"),
                 "--out", str(tmp_path / "p.jsonl")]) == 2
    assert main(["generate", str(work / "dev.jsonl"), "--model", str(work / "gen"),
                 "--memory", str(tmp_path / "nomemory"), "--out", str(tmp_path / "p.jsonl")]) == 2
    assert main(["train"]) == 2


def test_generate_and_train_hdm(work, tmp_path):
    qfile = tmp_path / "q.txt"
    qfile.write_text("what is the mass of gold?\nwhat is the capital of paris?\n")
    out = tmp_path / "preds.jsonl"
    assert main(["generate", str(qfile), "--model", str(work / "gen"), "--out", str(out),
                 "--beams", "2", "--no-progress"]) == 0
    rows = [json.loads(line) for line in out.open()]
    assert len(rows) == 2 and all(0 < r["confidence"] <= 1 and "pred_query" in r for r in rows)
    # JSONL input keeps its fields; --resume skips what is done
    out2 = tmp_path / "preds2.jsonl"
    assert main(["generate", str(work / "dev.jsonl"), "--model", str(work / "gen"), "--out",
                 str(out2), "--beams", "2", "--no-progress"]) == 0
    assert main(["generate", str(work / "dev.jsonl"), "--model", str(work / "gen"), "--out",
                 str(out2), "--beams", "2", "--resume", "--no-progress"]) == 0
    preds = [json.loads(line) for line in out2.open()]
    assert len(preds) == 6 and all("intermediate" in r for r in preds)
    # detector data: gold queries (label 0) and corrupted ones (label 1)
    lab = []
    for k, r in enumerate(preds + preds):
        bad = k >= len(preds)
        lab.append({"id": f"{r['id']}-{int(bad)}", "question": r["question"],
                    "pred_query": "ASK { ?a ?b ?c }" if bad else r["intermediate"],
                    "label": int(bad)})
    _write(tmp_path / "hdm.jsonl", lab)
    args = ["train", "hdm", "--train", str(tmp_path / "hdm.jsonl"), "--dev",
            str(tmp_path / "hdm.jsonl"), "--model", str(work / "gen"), "--out",
            str(tmp_path / "det"), "--mc-trials", "3", "--max-epochs", "3", "--patience", "2",
            "--batch-size", "4", "--no-progress"]
    assert main(args) == 0
    det = HDMDetector.load(tmp_path / "det")
    assert det.config.feature_set == "act+cs+mcd" and det.needs_mc
    assert (tmp_path / "det" / "features_train.npz").is_file()
    assert main(args) == 2  # exists, no --resume
    assert main(args + ["--resume", "--fail-under", "1.01"]) == 1  # cached features reused


def test_generate_grounds_through_a_pgmr_memory(work, tmp_path):
    pgmr = pytest.importorskip("verifier.pgmr")
    syms = [pgmr.Symbol(f"Q{k + 1}", e, pgmr.Kind.ITEM) for k, e in enumerate(ENTS)]
    syms += [pgmr.Symbol(f"P{k + 1}", p, pgmr.Kind.PROPERTY) for k, p in enumerate(PROPS)]
    pgmr.Memory.build(syms).save(tmp_path / "mem")
    out = tmp_path / "grounded.jsonl"
    assert main(["generate", str(work / "dev.jsonl"), "--model", str(work / "gen"), "--memory",
                 str(tmp_path / "mem"), "--out", str(out), "--beams", "2",
                 "--no-progress"]) == 0
    rows = [json.loads(line) for line in out.open()]
    assert rows and all("pred_sparql" in r and isinstance(r["grounded"], bool) for r in rows)
    for r in rows:
        if r["grounded"] and "starturi" in r["pred_query"]:
            assert "starturi" not in r["pred_sparql"]
