"""Candidate sets on the command line: ``verifier check`` with several queries for one
question, and ``verifier generate --candidates N`` (beam search or sampling) on a tiny
generator built from a config in the test."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHEM = ROOT / "examples" / "chemistry"
Q = "What is the mass of benzene?"
GOOD = "SELECT ?v WHERE { wd:Q2270 wdt:P2067 ?v }"
RENAMED = "SELECT ?m WHERE { wd:Q2270 wdt:P2067 ?m . }"
BOILING = "SELECT ?v WHERE { wd:Q2270 wdt:P2102 ?v }"


def _check(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "verifier", "check", Q, *args, "--config",
                           str(CHEM / "verifier.toml")], cwd=str(ROOT), env=env, input=stdin,
                          capture_output=True, text=True, timeout=600)


def test_check_several_queries_prints_the_clusters():
    r = _check(GOOD, RENAMED, "--sparql", BOILING, "--sparql", "SELEC broken")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "3 cluster(s) of 4 candidates:" in out
    assert "1. 2 candidate(s) [0, 1]: " + GOOD in out
    assert "2 of 4 candidates use P2067 (mass) where 1 uses P2102 (boiling point)" in out
    assert "[2] reject   unsupported" in out and "[3] reject" in out
    assert out.count("--- candidate ") == 4 and "Consensus: 1 of 4 candidates uses P2102" in out


def test_check_reads_candidates_from_a_file_and_prints_json(tmp_path):
    f = tmp_path / "cands.jsonl"
    f.write_text("".join(json.dumps({"sparql": s, "score": p}) + "\n"
                         for s, p in ((BOILING, 0.6), (GOOD, 0.3), (RENAMED, 0.1))))
    r = _check("--file", str(f), "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["clustering"]["clusters"] == [[1, 2], [0]]
    assert [v["decision"] for v in d["verdicts"]] == ["reject", "accept", "accept"]
    assert d["evidence"][0]["weighted_agreement"] == pytest.approx(0.6)
    assert d["verdicts"][0]["signals"]["consensus"]["cluster_index"] == 1
    # plain queries separated by '---', from standard input; all rejected: exit code 1
    r = _check("--file", "-", stdin=f"{BOILING}\n---\nSELECT ?x WHERE {{\n  wd:Q2270 wdt:P2102 ?x\n}}\n")
    assert r.returncode == 1 and "1 cluster(s) of 2 candidates" in r.stdout


def test_check_usage_errors(tmp_path):
    assert _check().returncode == 2
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"query": "x"}\n')
    r = _check("--file", str(bad))
    assert r.returncode == 2 and "'sparql'" in r.stderr
    r = _check(GOOD)  # one query: the single-pair output as before
    assert r.returncode == 0 and r.stdout.startswith("decision: accept") and "cluster" not in r.stdout


# ---------------------------------------------------------------------------------------------
# verifier generate --candidates
# ---------------------------------------------------------------------------------------------

PROPS = ["mass", "population", "capital", "author"]
ENTS = ["benzene", "paris", "france", "hamlet", "iron", "gold"]


@pytest.fixture(scope="module")
def generator(tmp_path_factory) -> Path:
    torch = pytest.importorskip("torch")
    from verifier.cli import main

    torch.set_num_threads(1)
    d = tmp_path_factory.mktemp("gen")
    rows = [{"id": f"{p}-{e}", "question": f"what is the {p} of {e}?",
             "intermediate": f"SELECT ?x WHERE {{ wd:starturi {e} enduri wdt:starturi {p} enduri ?x }}"}
            for p in PROPS for e in ENTS]
    (d / "train.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows[:18]))
    (d / "dev.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows[18:]))
    (d / "tiny.json").write_text(json.dumps({"d_model": 32, "num_layers": 2, "num_decoder_layers": 2,
                                             "num_heads": 2, "d_ff": 64, "max_target_len": 32}))
    assert main(["train", "generator", "--train", str(d / "train.jsonl"), "--dev", str(d / "dev.jsonl"),
                 "--out", str(d / "gen"), "--config", str(d / "tiny.json"), "--epochs", "1",
                 "--batch-size", "6", "--vocab-size", "300", "--no-progress"]) == 0
    return d


def test_generate_candidates_beams_and_samples(generator):
    from verifier.hdm import load_seq2seq
    from verifier.hdm.generation import generate, generate_candidates

    s2s = load_seq2seq(generator / "gen", "cpu")
    qs = ["what is the mass of gold?", "what is the capital of paris?"]
    beams = generate_candidates(s2s, qs, n=3, num_beams=2)   # beams raised to 3
    assert [len(c) for c in beams] == [3, 3]
    for cands in beams:
        assert [p.rank for p in cands] == [0, 1, 2]
        assert [p.log_prob for p in cands] == sorted((p.log_prob for p in cands), reverse=True)
        assert len({p.token_ids for p in cands}) == 3 and all(0 < p.confidence <= 1 for p in cands)
    # one candidate is what generate() returns
    assert [c[0].query for c in generate_candidates(s2s, qs, n=1, num_beams=3)] == \
        [p.query for p in generate(s2s, qs, num_beams=3)]
    a = generate_candidates(s2s, qs, n=4, sample=True, temperature=1.5, seed=7)
    b = generate_candidates(s2s, qs, n=4, sample=True, temperature=1.5, seed=7)
    assert [[p.query for p in c] for c in a] == [[p.query for p in c] for c in b]
    assert all(len(c) == 4 and all(p.log_prob <= 0 for p in c) for c in a)


def test_generate_cli_writes_candidate_rows(generator, tmp_path):
    from verifier.cli import main

    out = tmp_path / "cands.jsonl"
    assert main(["generate", str(generator / "dev.jsonl"), "--model", str(generator / "gen"), "--out", str(out),
                 "--candidates", "3", "--no-progress"]) == 0
    rows = [json.loads(l) for l in out.open()]
    assert len(rows) == 6 * 3
    by_id: dict[str, list[dict]] = {}
    for r in rows:
        by_id.setdefault(r["id"], []).append(r)
    assert all([r["candidate"] for r in rs] == [0, 1, 2] for rs in by_id.values())
    assert all(rs[0]["log_prob"] >= rs[-1]["log_prob"] for rs in by_id.values())
    assert all(r["model"] == str(generator / "gen") for r in rows)   # provenance of every query
    out2 = tmp_path / "samples.jsonl"
    assert main(["generate", str(generator / "dev.jsonl"), "--model", str(generator / "gen"), "--out", str(out2),
                 "--candidates", "2", "--sample", "--seed", "1", "--no-progress"]) == 0
    assert len(out2.read_text().splitlines()) == 12
    assert main(["generate", str(generator / "dev.jsonl"), "--model", str(generator / "gen"), "--out", str(out2),
                 "--candidates", "0"]) == 2
