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
    recs = [{"id": f"r{k}", "question": f"what is the {p} of {e}?", "category": "gold", "label": 1,
             "sparql": f"SELECT ?x WHERE {{ wd:Q{ENTS.index(e) + 1} wdt:P{PROPS.index(p) + 1} ?x }}"}
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
               "--no-progress"])
    assert rc == 0
    items = [json.loads(l) for l in (tmp_path / "eval" / "items.hdm.items.jsonl").open()] \
        if (tmp_path / "eval" / "items.hdm.items.jsonl").is_file() else None
    report = json.loads((tmp_path / "eval" / "items.json").read_text())
    assert report["signals"]["hdm"]["available"]
    assert report["signals"]["hdm"]["config"]["mc_trials"] == 2  # --hdm-trials reached the signal
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
    out = sig.run("what is the mass of benzene?", "SELECT ?x WHERE { wd:Q1 wdt:P1 ?x }")
    assert 0.0 <= out.score <= 1.0 and sig.config()["mc_trials"] == 2


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
