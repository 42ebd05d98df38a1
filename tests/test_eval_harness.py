"""The evaluation harness: Signal protocol and adapters, the SQLite result cache (re-runs,
interruptions, changed items), worker processes, reports and ``verifier eval``."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import verifier
from verifier.benchmark.cache import ResultCache
from verifier.benchmark.evaluate import EvalConfig, evaluate, select_items
from verifier.benchmark.records import BenchRecord, Dataset, write_jsonl
from verifier.benchmark.report import markdown, summarize, write_report
from verifier.benchmark.signals import (Availability, Signal, SignalOptions, SignalOutput,
                                        UnavailableSignal, config_hash, make_signal)
import verifier.benchmark.signals as signals_module
from verifier.cli import main

GOOD = "SELECT ?x WHERE { wd:Q2270 wdt:P2067 ?x . }"
BAD = "SELECT ?x WHERE { wd:Q2270 wdt:P2101 ?x . }"


def _records() -> list[BenchRecord]:
    out = []
    for k in range(6):
        gid = f"g{k}"
        common = {"gold_id": gid, "model": f"m{k % 2}"}
        out.append(BenchRecord(gid, f"What is the mass of thing {k}?", GOOD, GOOD, 1, "gold",
                               "fx/test", {}, k % 2 == 0, dict(common)))
        out.append(BenchRecord(f"{gid}/wrong_property", f"What is the mass of thing {k}?", BAD,
                               GOOD, 0, "wrong_property", "fx/test", {"from": "P2067"},
                               k % 2 == 0, dict(common)))
    out.append(BenchRecord("p0", "partial?", GOOD, GOOD, None, "partial", "fx/test", {}, False,
                           {"model": "m0"}))
    return out


DATASET = Dataset("fixture", tuple(_records()), Path("fixture.jsonl"))


@pytest.fixture(autouse=True)
def _no_stacking_model(monkeypatch, tmp_path):
    """'stacked' stands for a signal that cannot run here: point it at a missing model."""
    monkeypatch.setenv("VERIFIER_STACKING_MODEL", str(tmp_path / "no-stacking-model.json"))


@dataclass
class KeywordSignal:
    """Accepts queries with the gold property; counts its calls."""

    name: str = "kw"
    calls: list[str] = field(default_factory=list)
    explode_after: int | None = None

    def availability(self) -> Availability:
        return Availability(True)

    def config(self):
        return {"keyword": "P2067"}

    def run(self, question: str, sparql: str | None) -> SignalOutput:
        self.calls.append(question)
        if self.explode_after is not None and len(self.calls) > self.explode_after:
            raise KeyboardInterrupt
        if "partial" in question:
            return SignalOutput("abstain", 0.5, {})
        ok = "P2067" in (sparql or "")
        return SignalOutput("accept" if ok else "reject", 0.9 if ok else 0.1, {"ok": ok})


@dataclass
class BrokenSignal:
    name: str = "broken"

    def availability(self) -> Availability:
        return Availability(True)

    def config(self):
        return {}

    def run(self, question, sparql):
        if "thing 1" in question:
            raise RuntimeError("boom")
        return SignalOutput("accept", 1.0, {})


def test_signal_output_validation_and_protocol():
    with pytest.raises(ValueError):
        SignalOutput("maybe", 0.5)
    with pytest.raises(ValueError):
        SignalOutput("accept", 1.5)
    assert isinstance(KeywordSignal(), Signal)
    assert config_hash(KeywordSignal()) == config_hash(KeywordSignal())
    assert config_hash(KeywordSignal()) != config_hash(BrokenSignal())


def test_cache_skips_finished_items_and_recomputes_changed_ones(tmp_path):
    cfg = EvalConfig(("kw",), progress=False)
    with ResultCache(tmp_path / "c.sqlite") as cache:
        sig = KeywordSignal()
        runs = evaluate(DATASET, cfg, cache, signals={"kw": sig})
        assert runs["kw"].computed == len(DATASET) and len(sig.calls) == len(DATASET)
        sig2 = KeywordSignal()
        runs = evaluate(DATASET, cfg, cache, signals={"kw": sig2})
        assert runs["kw"].computed == 0 and runs["kw"].cached == len(DATASET) and not sig2.calls
        changed = list(DATASET.records)
        changed[1] = BenchRecord(changed[1].id, changed[1].question, GOOD, GOOD, 0,
                                 "wrong_property", "fx/test")
        sig3 = KeywordSignal()
        runs = evaluate(Dataset("fixture", tuple(changed), Path("x")), cfg, cache,
                        signals={"kw": sig3})
        assert runs["kw"].computed == 0  # same input as the gold items: reused from the cache
        assert runs["kw"].results[changed[1].id].decision == "accept"
        changed[1] = BenchRecord(changed[1].id, "a new question?", BAD, GOOD, 0,
                                 "wrong_property", "fx/test")
        sig4 = KeywordSignal()
        runs = evaluate(Dataset("fixture", tuple(changed), Path("x")), cfg, cache,
                        signals={"kw": sig4})
        assert runs["kw"].computed == 1 and sig4.calls == ["a new question?"]


def test_interrupt_leaves_a_consistent_cache(tmp_path):
    cfg = EvalConfig(("kw",), progress=False)
    with ResultCache(tmp_path / "c.sqlite") as cache:
        with pytest.raises(KeyboardInterrupt):
            evaluate(DATASET, cfg, cache, signals={"kw": KeywordSignal(explode_after=5)})
        assert cache.count("fixture", "kw") == 5
    with ResultCache(tmp_path / "c.sqlite") as cache:
        sig = KeywordSignal()
        runs = evaluate(DATASET, cfg, cache, signals={"kw": sig})
        assert runs["kw"].cached == 5 and runs["kw"].computed == len(DATASET) - 5
        assert len(runs["kw"].results) == len(DATASET)


def test_errors_become_abstentions_and_can_be_retried(tmp_path):
    with ResultCache(tmp_path / "c.sqlite") as cache:
        runs = evaluate(DATASET, EvalConfig(("broken",), progress=False), cache,
                        signals={"broken": BrokenSignal()})
        r = runs["broken"]
        assert r.errors == 2
        bad = [x for x in r.results.values() if x.error]
        assert all(x.decision == "abstain" and "boom" in x.error for x in bad)
        runs = evaluate(DATASET, EvalConfig(("broken",), progress=False, retry_errors=True),
                        cache, signals={"broken": BrokenSignal()})
        assert runs["broken"].computed == 2


def test_workers_give_the_same_results(tmp_path):
    cfg1 = EvalConfig(("kw",), progress=False)
    cfg2 = EvalConfig(("kw",), progress=False, workers=2)
    with ResultCache(tmp_path / "a.sqlite") as a, ResultCache(tmp_path / "b.sqlite") as b:
        r1 = evaluate(DATASET, cfg1, a, signals={"kw": KeywordSignal()})["kw"].results
        r2 = evaluate(DATASET, cfg2, b, signals={"kw": KeywordSignal()})["kw"].results
    strip = lambda rs: {k: (v.decision, v.score, v.details) for k, v in rs.items()}  # noqa: E731
    assert strip(r1) == strip(r2)


def test_limit_sample_is_seeded():
    a = select_items(DATASET, 5, seed=0)
    assert a == select_items(DATASET, 5, seed=0) and 5 <= len(a) <= 6
    assert [r.id for r in a] == [r.id for r in DATASET.records if r in a]  # file order
    gold_ids = {r.get("gold_id") for r in a if r.get("gold_id")}
    assert all(sum(1 for r in a if r.get("gold_id") == g) == 2 for g in gold_ids)  # whole pairs


def test_summary_per_category_with_matched_gold_and_partial_class(tmp_path):
    with ResultCache(tmp_path / "c.sqlite") as cache:
        runs = evaluate(DATASET, EvalConfig(("kw", "stacked"), progress=False), cache,
                        signals={"kw": KeywordSignal()})
    s = summarize(DATASET, runs)
    kw = s["signals"]["kw"]
    assert kw["overall"]["macro_f1"] == 1.0 and kw["overall"]["n"] == 12
    wp = kw["categories"]["wrong_property"]
    assert wp["kind"] == "vs_correct" and wp["reference"] == 6
    assert wp["metrics"]["recall_reject"] == 1.0 and wp["metrics"]["accept_precision"] == 1.0
    assert kw["categories"]["gold"]["kind"] == "correct_only"
    assert kw["categories"]["partial"]["profile"]["abstain_rate"] == 1.0
    assert set(kw["groups"]["model"]) == {"m0", "m1"}
    assert set(kw["has_mrs"]) == {"true", "false"}
    assert not s["signals"]["stacked"]["available"]
    md = markdown(s)
    assert "**not available**" in md and "| wrong_property | 6 | 6 | 1.000" in md
    paths = write_report(DATASET, runs, s, tmp_path / "rep")
    names = {p.name for p in paths}
    assert {"fixture.json", "fixture.md", "fixture.kw.items.jsonl", "fixture.kw.scores.png",
            "fixture.precision_acceptance.png"} <= names
    assert json.loads((tmp_path / "rep" / "fixture.json").read_text())["dataset"] == "fixture"


def test_adapters_report_unavailability(monkeypatch):
    assert isinstance(make_signal("nosuchsignal"), UnavailableSignal)
    assert "verifier.nosuchsignal" in make_signal("nosuchsignal").availability().reason
    stacked = make_signal("stacked")  # verifier.stacking exists; its model does not (fixture)
    assert not stacked.availability().available
    assert "no stacking model" in stacked.availability().reason
    hdm = make_signal("hdm", SignalOptions())
    assert not hdm.availability().available and "--hdm-model" in hdm.availability().reason
    import sys

    # hide every way to reach verify(): attribute, lazy __getattr__, submodules
    if "verify" in vars(verifier):
        monkeypatch.delattr(verifier, "verify")

    def missing(name):
        raise AttributeError(name)

    monkeypatch.setattr(verifier, "__getattr__", missing, raising=False)
    monkeypatch.setitem(sys.modules, "verifier.verify", None)  # importing it fails
    monkeypatch.setitem(sys.modules, "verifier.api", None)
    d = make_signal("deductive")
    assert not d.availability().available and "verify" in d.availability().reason
    assert make_signal("no such").availability().available is False


def test_deductive_adapter_maps_the_verify_result(monkeypatch):
    @dataclass
    class Result:
        decision: str
        score: float | None
        explanation: str = "because"
        signals: dict = field(default_factory=dict)

    seen = {}

    def fake_verify(question, sparql, signals=("deductive", "hdm", "pgmr")):
        seen["signals"] = signals
        return Result("reject", None) if "P2101" in sparql else Result("accept", 0.8)

    monkeypatch.setattr(verifier, "verify", fake_verify, raising=False)
    d = make_signal("deductive")
    assert d.availability().available and d.config()["entry"] == "verifier.verify"
    assert d.run("q", GOOD).decision == "accept" and d.run("q", GOOD).score == 0.8
    out = d.run("q", BAD)
    assert out.decision == "reject" and out.score == 0.0 and out.details["explanation"] == "because"
    assert seen["signals"] == ("deductive",)
    assert d.run("q", None).decision == "abstain"


def test_syntax_and_pgmr_adapters(tmp_path):
    s = make_signal("syntax")
    assert s.run("q", GOOD).decision == "accept"
    assert s.run("q", "SELECT WHERE {").decision == "reject"
    labels = tmp_path / "labels.tsv"
    labels.write_text("id\tlabel\taliases\tdescription\nQ2270\tbenzene\t\t\nP2067\tmass\t\t\n"
                      "P2101\tmelting point\t\t\n")
    p = make_signal("pgmr", SignalOptions(labels=labels, pgmr_memory=tmp_path / "mem"))
    assert p.availability().available
    ok = p.run("What is the mass of benzene?", GOOD)
    assert ok.decision == "accept" and ok.score >= 0.4
    assert p.run("What is the mass of benzene?",
                 "SELECT ?x WHERE { wd:Q99999999 wdt:P2067 ?x . }").decision == "reject"
    assert p.run("What is the mass of benzene?", "SELECT * WHERE { ?s ?p ?o }").decision == "abstain"
    assert (tmp_path / "mem" / "meta.json").is_file()  # built once, cached
    again = make_signal("pgmr", SignalOptions(labels=labels, pgmr_memory=tmp_path / "mem"))
    assert again.run("What is the mass of benzene?", GOOD) == ok


def test_cached_results_follow_the_pgmr_and_hdm_code(tmp_path, monkeypatch):
    # the PGMR and HDM signals' configurations hash their sources (PGMR: verifier/pgmr and the
    # matching keys of verifier/lexical.py), so results cached under older code are not reused
    import verifier.benchmark.paths as paths

    def tree(lexical: str) -> Path:
        root = tmp_path / lexical
        for part in signals_module.PGMR_SOURCES + signals_module.HDM_SOURCES:
            f = root / part / "x.py" if not part.endswith(".py") else root / part
            f.parent.mkdir(parents=True, exist_ok=True)
            f.write_text(lexical if part.endswith("lexical.py") else "x = 1\n")
        return root

    labels = tmp_path / "labels.tsv"
    labels.write_text("id\tlabel\taliases\tdescription\nQ2270\tbenzene\t\t\n")
    hashes = {}
    for version in ("a = 1\n", "a = 2\n"):
        monkeypatch.setattr(paths, "REPO_ROOT", tree(version))
        opts = SignalOptions(labels=labels, hdm_model=tmp_path / "hdm")
        hashes[version] = (config_hash(make_signal("pgmr", opts)), config_hash(make_signal("hdm", opts)))
    (pgmr_a, hdm_a), (pgmr_b, hdm_b) = hashes.values()
    assert pgmr_a != pgmr_b  # verifier/lexical.py changed
    assert hdm_a != hdm_b    # HDM reads SPARQL through the PGMR memory: its results follow it too


def test_cli_eval(tmp_path, capsys):
    path = tmp_path / "mini.jsonl"
    write_jsonl(path, _records())
    out = tmp_path / "rep"
    code = main(["eval", "--dataset", str(path), "--signals", "syntax,stacked", "--out", str(out),
                 "--no-progress", "--no-plots"])
    assert code == 0
    text = capsys.readouterr().out
    assert "## syntax" in text and "not available" in text
    assert (out / "mini.md").is_file() and (out / "cache.sqlite").is_file()
    assert main(["eval", "--dataset", str(path), "--signals", "syntax,stacked", "--out", str(out),
                 "--no-progress", "--no-plots", "--require-all"]) == 1
    assert main(["eval", "--dataset", str(path), "--signals", "syntax", "--out", str(out),
                 "--no-progress", "--no-plots", "--fail-under", "0.99"]) == 1
    assert main(["eval", "--dataset", "nonexistent", "--out", str(out)]) == 2
    assert main(["eval", "--dataset", str(path), "--signals", ",", "--out", str(out)]) == 2


def test_hdm_trials_come_from_the_flag_else_the_verifier_config(tmp_path):
    """``verifier eval --verifier-config F`` reads ``[hdm] mc_trials`` from F (it was read from
    the usual files only, so a value in F was ignored)."""
    from verifier.cli.eval import mc_trials

    cfg = tmp_path / "verifier.toml"
    cfg.write_text("[hdm]\nmc_trials = 7\n")
    assert mc_trials(None, cfg) == 7
    assert mc_trials(3, cfg) == 3
    assert mc_trials(0, cfg) == 0
    assert mc_trials(None, None) == 30
