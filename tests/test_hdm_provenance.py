"""HDM where it can see (issue 61): forked eval workers that run torch finish, the eval HDM
signal reads SPARQL through the PGMR memory, ``--hdm-trials``, and HDM evidence only for
queries of the scorer's own model (``[hdm] model_name``), on a tiny model trained here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from verifier.cli import main  # noqa: E402

PROPS = ["mass", "population", "capital", "author"]
ENTS = ["benzene", "paris", "france", "hamlet", "iron", "gold"]


def _write(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> Path:
    """A tiny generator (intermediate form), its HDM detector, labels and a PGMR memory.
    Training runs torch in this process with its default threads (what the parent of forked
    eval workers does)."""
    d = tmp_path_factory.mktemp("hdm-prov")
    rows = [{"id": f"{p}-{e}", "question": f"what is the {p} of {e}?",
             "intermediate": f"SELECT ?x WHERE {{ wd:starturi {e} enduri wdt:starturi {p} enduri ?x }}"}
            for p in PROPS for e in ENTS]
    _write(d / "train.jsonl", rows[:18])
    _write(d / "dev.jsonl", rows[18:])
    (d / "tiny.json").write_text(json.dumps({"d_model": 32, "num_layers": 1, "num_decoder_layers": 1,
                                             "num_heads": 2, "d_ff": 64, "max_target_len": 32}))
    assert main(["train", "generator", "--train", str(d / "train.jsonl"), "--dev", str(d / "dev.jsonl"),
                 "--out", str(d / "gen"), "--config", str(d / "tiny.json"), "--epochs", "1",
                 "--batch-size", "6", "--vocab-size", "300", "--no-progress"]) == 0
    lab = [{"id": f"{r['id']}-{bad}", "question": r["question"],
            "pred_query": "ASK { ?a ?b ?c }" if bad else r["intermediate"], "label": bad}
           for r in rows[:12] for bad in (0, 1)]
    _write(d / "hdm.jsonl", lab)
    assert main(["train", "hdm", "--train", str(d / "hdm.jsonl"), "--dev", str(d / "hdm.jsonl"),
                 "--model", str(d / "gen"), "--out", str(d / "det"), "--mc-trials", "2",
                 "--max-epochs", "2", "--patience", "1", "--batch-size", "4", "--no-progress"]) == 0
    lines = ["id\tlabel\taliases\tdescription"]
    lines += [f"Q{k + 1}\t{e}\t\t" for k, e in enumerate(ENTS)]
    lines += [f"P{k + 1}\t{p}\t\t" for k, p in enumerate(PROPS)]
    (d / "labels.tsv").write_text("\n".join(lines) + "\n")
    # a dataset in SPARQL with Wikidata identifiers, as the LLM predictions are
    # (provenance: the first six from the tiny generator, the last two from an LLM)
    recs = [{"id": f"r{k}", "question": f"what is the {p} of {e}?", "category": "gold", "label": 1,
             "sparql": f"SELECT ?x WHERE {{ wd:Q{ENTS.index(e) + 1} wdt:P{PROPS.index(p) + 1} ?x }}",
             "model": "tiny-gen" if k < 6 else "gpt-41"}
            for k, (p, e) in enumerate((p, e) for p in PROPS for e in ENTS[:2])]
    _write(d / "items.jsonl", recs)
    return d


@pytest.mark.timeout(900, method="thread")  # a hung pool ignores SIGALRM
def test_eval_hdm_with_two_forked_workers_completes(tiny, tmp_path):
    # the parent has run torch (training above, and one forward pass now) before forking
    from verifier.hdm import load_seq2seq

    s2s = load_seq2seq(tiny / "gen")
    with torch.no_grad():
        s2s.model(torch.ones(4, 8, dtype=torch.long), attention_mask=torch.ones(4, 8, dtype=torch.long),
                  decoder_input_ids=torch.ones(4, 8, dtype=torch.long))
    rc = main(["eval", "--dataset", str(tiny / "items.jsonl"), "--signals", "hdm", "--workers", "2",
               "--hdm-model", str(tiny / "det"), "--hdm-trials", "2", "--labels", str(tiny / "labels.tsv"),
               "--pgmr-memory", str(tmp_path / "mem"), "--out", str(tmp_path / "eval"), "--no-plots",
               "--no-progress", "--hdm-model-name", "tiny-gen"])
    assert rc == 0
    items = [json.loads(l) for l in (tmp_path / "eval" / "items.hdm.items.jsonl").open()] \
        if (tmp_path / "eval" / "items.hdm.items.jsonl").is_file() else None
    report = json.loads((tmp_path / "eval" / "items.json").read_text())
    assert report["signals"]["hdm"]["available"]
    assert report["signals"]["hdm"]["config"]["mc_trials"] == 2  # --hdm-trials reached the signal
    assert report["signals"]["hdm"]["config"]["model_name"] == "tiny-gen"
    if items is not None:
        assert len(items) == 8 and all(i.get("error") in (None, "") for i in items)


def test_eval_hdm_signal_reads_sparql_through_the_memory(tiny, tmp_path):
    from verifier.benchmark.signals import SignalOptions, make_signal

    sig = make_signal("hdm", SignalOptions(hdm_model=tiny / "det", labels=tiny / "labels.tsv",
                                           pgmr_memory=tmp_path / "mem", hdm_mc_trials=2))
    assert sig.availability().available
    text = sig.generator_input("SELECT ?x WHERE { wd:Q1 wdt:P1 ?x }")
    assert "starturi benzene enduri" in text and "starturi mass enduri" in text
    assert "wd:Q1" not in text
    out = sig.run("what is the mass of benzene?", "SELECT ?x WHERE { wd:Q1 wdt:P1 ?x }",
                  model="verifier-generator")   # the default [hdm] model_name
    assert 0.0 <= out.score <= 1.0 and sig.config()["mc_trials"] == 2
    assert isinstance(out.details["probability"], float)


def test_hdm_trials_option_reaches_the_signal(tiny, tmp_path):
    from verifier.benchmark.signals import SignalOptions, make_signal

    sig = make_signal("hdm", SignalOptions(hdm_model=tiny / "det", labels=tiny / "labels.tsv",
                                           pgmr_memory=tmp_path / "mem", hdm_mc_trials=3))
    assert sig.availability().available and sig.config()["mc_trials"] == 3
    assert main(["eval", "--dataset", str(tiny / "items.jsonl"), "--signals", "hdm",
                 "--hdm-model", str(tiny / "det"), "--hdm-trials", "-1"]) == 2
    assert main(["check", "what?", "ASK { ?a ?b ?c }", "--hdm-trials", "-1"]) == 2


def _verifier_with_hdm(tiny: Path, tmp_path: Path, name: str | None):
    from verifier.api import Verifier
    from verifier.config import load_config

    toml = tmp_path / "verifier.toml"
    text = ('[stacking]\nmodel = "default"\n[pgmr]\nlabels = "%s"\nmemory = "%s"\n[hdm]\nmodel = "%s"\n'
            'mc_trials = 2\n' % (tiny / "labels.tsv", tmp_path / "mem", tiny / "det"))
    if name is not None:
        text += f'model_name = "{name}"\n'
    toml.write_text(text)
    cfg = load_config(toml)
    from verifier.stacking.default import model_setting

    if model_setting(cfg) is None:
        pytest.skip("no shipped default stacking model")
    return Verifier(cfg, wordnet=None)


def test_hdm_evidence_only_for_the_scorers_model(tiny, tmp_path):
    ver = _verifier_with_hdm(tiny, tmp_path, "tiny-gen")
    q, s = "what is the mass of benzene?", "SELECT ?x WHERE { wd:Q1 wdt:P1 ?x }"
    own = ver.verify(q, s, model="tiny-gen")
    assert isinstance(own.signals["hdm"]["details"]["probability"], float)
    assert own.signals["provenance"] == {"model": "tiny-gen"}
    other = ver.verify(q, s, model="gpt-41")
    assert other.signals["hdm"] == {"missing": "HDM reads the internals of tiny-gen; this query came from gpt-41"}
    assert "HDM: not used: HDM reads the internals of tiny-gen; this query came from gpt-41." in other.explanation
    unknown = ver.verify(q, s)
    assert "HDM reads the internals of tiny-gen" in unknown.signals["hdm"]["missing"]
    # candidate sets: each candidate's own provenance
    res = ver.verify_candidates(q, [s, s.replace("P1", "P2")], model=["tiny-gen", "gpt-41"])
    assert "probability" in res.verdicts[0].signals["hdm"]["details"]
    assert "missing" in res.verdicts[1].signals["hdm"]


def test_hdm_model_name_defaults_to_the_toolkits_generator(tiny, tmp_path):
    from verifier.stacking.runtime import GENERATOR_NAME

    ver = _verifier_with_hdm(tiny, tmp_path, None)
    q, s = "what is the mass of benzene?", "SELECT ?x WHERE { wd:Q1 wdt:P1 ?x }"
    assert "details" in ver.verify(q, s, model=GENERATOR_NAME).signals["hdm"]
    assert "missing" in ver.verify(q, s, model="tiny-gen").signals["hdm"]


def test_eval_hdm_and_stacked_use_hdm_only_for_the_scorers_model(tiny, tmp_path):
    """`verifier eval`: the record's `model` reaches the hdm and stacked signals; HDM judges
    only the queries of its own model (by name or by the generator's folder)."""
    from verifier.benchmark.signals import SignalOptions, make_signal
    from verifier.stacking.default import DEFAULT_MODEL_PATH
    from verifier.stacking.signal import StackedSignal

    opts = SignalOptions(hdm_model=tiny / "det", labels=tiny / "labels.tsv", pgmr_memory=tmp_path / "mem",
                         hdm_mc_trials=2, hdm_model_name="tiny-gen", stacking_model=DEFAULT_MODEL_PATH)
    q, s = "what is the mass of benzene?", "SELECT ?x WHERE { wd:Q1 wdt:P1 ?x }"
    hdm = make_signal("hdm", opts)
    assert hdm.availability().available
    own, by_folder = hdm.run(q, s, model="tiny-gen"), hdm.run(q, s, model=str(tiny / "gen"))
    assert isinstance(own.details["probability"], float) and own.details == by_folder.details
    other, unknown = hdm.run(q, s, model="gpt-41"), hdm.run(q, s)
    assert (other.decision, other.details) == (
        "abstain", {"missing": "HDM reads the internals of tiny-gen; this query came from gpt-41"})
    assert unknown.decision == "abstain" and "model is not known" in unknown.details["missing"]
    if not DEFAULT_MODEL_PATH.is_file():
        pytest.skip("no shipped default stacking model")
    st = StackedSignal(opts)
    assert st.availability().available
    st.prepare()
    with_hdm = st.run(q, s, model="tiny-gen").details["signals"]
    assert isinstance(with_hdm["hdm"]["details"]["probability"], float)
    without = st.run(q, s, model="gpt-41").details["signals"]
    assert without["hdm"] == {"missing": "HDM reads the internals of tiny-gen; this query came from gpt-41"}
    # through the eval harness: the records' `model` field decides, per record
    rc = main(["eval", "--dataset", str(tiny / "items.jsonl"), "--signals", "hdm", "--hdm-model", str(tiny / "det"),
               "--hdm-trials", "2", "--labels", str(tiny / "labels.tsv"), "--pgmr-memory", str(tmp_path / "mem"),
               "--out", str(tmp_path / "eval"), "--no-plots", "--no-progress", "--hdm-model-name", "tiny-gen"])
    assert rc == 0
    items = {i["id"]: i for i in map(json.loads, (tmp_path / "eval" / "items.hdm.items.jsonl").open())}
    assert len(items) == 8
    assert all("probability" in items[f"r{k}"]["details"] for k in range(6))
    assert all(items[f"r{k}"]["decision"] == "abstain" and "gpt-41" in items[f"r{k}"]["details"]["missing"]
               for k in (6, 7))


def test_generated_rows_carry_the_generators_name_and_hdm_reads_them(tiny, tmp_path):
    """`verifier generate` writes each row's provenance (`model` = the --model given); the
    HDM runner over that generator takes such a row as its own (no [hdm] model_name needed)."""
    from verifier.provenance import hdm_applies

    qfile = tmp_path / "q.txt"
    qfile.write_text("what is the mass of benzene?\nwhat is the capital of france?\n")
    out = tmp_path / "preds.jsonl"
    assert main(["generate", str(qfile), "--model", str(tiny / "gen"), "--out", str(out), "--beams", "2",
                 "--candidates", "2", "--no-progress"]) == 0
    rows = [json.loads(l) for l in out.open()]
    assert len(rows) == 4 and all(r["model"] == str(tiny / "gen") for r in rows)
    assert hdm_applies("verifier-generator", rows[0]["model"], (str((tiny / "gen").resolve()),)) is None
    assert hdm_applies("verifier-generator", rows[0]["model"]) is not None
    ver = _verifier_with_hdm(tiny, tmp_path, None)
    q, s = "what is the mass of benzene?", "SELECT ?x WHERE { wd:Q1 wdt:P1 ?x }"
    assert "probability" in ver.verify(q, s, model=rows[0]["model"]).signals["hdm"]["details"]
    assert "missing" in ver.verify(q, s, model="gpt-41").signals["hdm"]


class _TorchWork:
    """A signal whose every item runs a layer norm large enough for an OpenMP parallel region
    (the HDM scorer's forward pass on a real model does the same)."""

    name = "torchwork"

    def availability(self):
        from verifier.benchmark.signals import Availability

        return Availability(True)

    def config(self):
        return {"size": [4096, 512]}

    def run(self, question, sparql):
        from verifier.benchmark.signals import SignalOutput

        x = torch.randn(4096, 512, generator=torch.Generator().manual_seed(len(question)))
        y = torch.nn.functional.layer_norm(x, (512,))
        return SignalOutput("accept", 1.0, {"mean": float(y.mean())})


@pytest.mark.timeout(600, method="thread")  # a hung pool ignores SIGALRM
def test_forked_eval_workers_survive_a_parent_that_ran_openmp(tmp_path):
    # Without verifier.forksafe.child_init the workers of this run wait forever in their first
    # layer norm (the parent's OpenMP pool is not theirs); measured with the same script.
    from verifier.benchmark.cache import ResultCache
    from verifier.benchmark.evaluate import EvalConfig, evaluate
    from verifier.benchmark.records import load_dataset

    if torch.get_num_threads() < 2:
        torch.set_num_threads(2)
    torch.nn.functional.layer_norm(torch.randn(4096, 512), (512,))  # the parent's parallel region
    recs = [{"id": f"r{k}", "question": "q" * (k + 1), "sparql": "ASK {}", "category": "gold", "label": 1}
            for k in range(6)]
    _write(tmp_path / "items.jsonl", recs)
    ds = load_dataset(tmp_path / "items.jsonl")
    with ResultCache(tmp_path / "cache.sqlite") as cache:
        runs = evaluate(ds, EvalConfig(("torchwork",), workers=2, progress=False), cache,
                        signals={"torchwork": _TorchWork()})
    res = runs["torchwork"].results
    assert len(res) == 6 and all(r.error in (None, "") and r.decision == "accept" for r in res.values())
