"""Stacked verifier on the chemistry example: execution on the example knowledge graph,
``verify()`` with a stacking model configured, ``verifier train stack``.

Only the files of ``examples/chemistry`` are used (no ``../shared``, no ACE).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from verifier.stacking.execution import Endpoint, ExecutionResult, LocalKG, with_prefixes
from verifier.stacking.features import execution_features

CHEM = Path(__file__).resolve().parents[1] / "examples" / "chemistry"
LOG = {json.loads(l)["id"]: json.loads(l) for l in (CHEM / "querylog.jsonl").read_text().splitlines()
       if l.strip()}


@pytest.fixture(scope="module")
def kg() -> LocalKG:
    return LocalKG(CHEM / "kg.ttl", timeout=5.0)


def test_kg_loads_a_few_hundred_triples(kg):
    assert 250 <= kg.size <= 1000
    assert kg.backend in ("pyoxigraph", "rdflib")


@pytest.mark.parametrize("item, nonempty", [("c01", True), ("c13", True), ("c17", True),
                                            ("c30", True), ("c03", False), ("c10", False),
                                            ("c18", False), ("c24", False)])
def test_correct_queries_answer_and_hallucinated_ones_are_empty(kg, item, nonempty):
    res = kg.run(LOG[item]["sparql"])
    assert res.status == "ok", res.error
    assert (res.n_answers > 0) is nonempty
    f = execution_features(res.to_dict())
    assert f["exec_ok"] == 1.0 and f["exec_missing"] == 0.0
    assert f["exec_nonempty" if nonempty else "exec_empty"] == 1.0


def test_answers_are_the_expected_values(kg):
    assert kg.run(LOG["c01"]["sparql"]).sample == ("78.11",)      # mass of benzene
    ask = kg.run(LOG["c26"]["sparql"])                               # ASK density of gold > 19
    assert ask.status == "ok" and ask.boolean is True
    assert execution_features(ask.to_dict())["exec_ask_true"] == 1.0
    count = kg.run(LOG["c30"]["sparql"])
    assert count.n_answers == 1 and count.sample == ("5",)


def test_malformed_query_is_an_error_feature_not_a_crash(kg):
    res = kg.run(LOG["c32"]["sparql"])      # missing closing brace
    assert res.status == "error" and res.error
    f = execution_features(res.to_dict())
    assert f["exec_error"] == 1.0 and f["exec_ok"] == 0.0
    assert "failed" in res.describe()


def test_timeout_is_a_feature(kg, monkeypatch):
    fast = LocalKG(CHEM / "kg.ttl", timeout=0.2)

    def slow(text):
        time.sleep(1.0)
        return 1, None, ()

    monkeypatch.setattr(fast, "_query", slow)
    res = fast.run(LOG["c01"]["sparql"])
    assert res.status == "timeout"
    assert execution_features(res.to_dict())["exec_timeout"] == 1.0


def test_unreachable_endpoint_is_an_error(monkeypatch):
    res = Endpoint("http://127.0.0.1:9/sparql", timeout=2).run("ASK { ?s ?p ?o }")
    assert res.status in ("error", "timeout")
    assert execution_features(res.to_dict())["exec_ok"] == 0.0


def test_with_prefixes_declares_only_missing_used_prefixes():
    q = with_prefixes('PREFIX wd: <http://www.wikidata.org/entity/>\n'
                      'SELECT ?v WHERE { wd:Q1 wdt:P2 ?v . FILTER(?v != "a:b") }')
    assert q.count("PREFIX wd:") == 1 and "PREFIX wdt: <http://www.wikidata.org/prop/direct/>" in q
    assert "PREFIX a:" not in q
    assert with_prefixes("ASK { ?s ?p ?o }") == "ASK { ?s ?p ?o }"


def test_no_query_is_skipped(kg):
    assert kg.run(None).status == "skipped"
    assert execution_features(ExecutionResult("skipped").to_dict())["exec_missing"] == 1.0


# ---------------------------------------------------------------------------------------------
# verify() with a stacking model, and 'verifier train stack'
# ---------------------------------------------------------------------------------------------


def _config(tmp: Path, model: Path | None) -> Path:
    text = (f'[mrs]\ncorpora = ["{CHEM / "mrs.jsonl.gz"}"]\n'
            f'[grounding]\nlabels = "{CHEM / "kg-labels.tsv"}"\n'
            f'[pgmr]\nlabels = "{CHEM / "kg-labels.tsv"}"\nmemory = "{tmp / "pgmr"}"\n'
            f'[kg]\nfile = "{CHEM / "kg.ttl"}"\ntimeout = 5\n')
    if model is not None:
        text += f'[stacking]\nmodel = "{model}"\n'
    path = tmp / ("stacked.toml" if model is not None else "plain.toml")
    path.write_text(text)
    return path


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    pytest.importorskip("sklearn")
    from verifier.cli import main

    tmp = tmp_path_factory.mktemp("stack")
    cfg = _config(tmp, None)
    out = tmp / "model.json"
    code = main(["train", "stack", "--train", str(CHEM / "labelled.jsonl"), "--config", str(cfg),
                 "--compute", "--folds", "3", "--out", str(out)])
    assert code == 0
    return tmp, out


def test_train_stack_cli_writes_an_inspectable_model(trained):
    _, out = trained
    data = json.loads(out.read_text())
    names = [f["name"] for f in data["features"]]
    assert "exec_empty" in names and "ded_v_faithful" in names and "pgmr_score" in names
    assert data["info"]["rows"] == 35
    assert set(data["operating_points"]) >= {"precision-first", "balanced"}


def test_verify_with_stacking_model_returns_signals_and_explanation(trained):
    from verifier.api import Verifier
    from verifier.config import load_config

    tmp, model = trained
    cfg = load_config(_config(tmp, model), environ={}, cwd=tmp)
    ver = Verifier(cfg)
    assert ver.stacker is not None
    good = ver.verify(LOG["c01"]["question"], LOG["c01"]["sparql"])
    bad = ver.verify(LOG["c03"]["question"], LOG["c03"]["sparql"])
    for v in (good, bad):
        assert v.decision in ("accept", "reject", "abstain")
        assert 0.0 <= v.score <= 1.0
        assert {"deductive", "pgmr", "execution", "stacked"} <= set(v.signals)
        assert v.explanation.startswith("Stacked verifier:")
        assert "Deductive:" in v.explanation and "PGMR grounding:" in v.explanation
        assert "HDM: not configured." in v.explanation
        assert json.dumps(v.to_dict())  # serialisable
    assert good.signals["execution"]["n_answers"] == 1
    assert bad.signals["execution"]["n_answers"] == 0
    assert "the answer is empty" in bad.explanation
    assert good.score > bad.score
    assert bad.decision != "accept"
    # the deductive check alone is still available, unchanged
    ded = ver.verify(LOG["c01"]["question"], LOG["c01"]["sparql"], signals=("deductive",))
    # (its score is the proof confidence's probability since issue 59, no longer one of five values)
    from verifier.confidence import deductive_score

    assert set(ded.signals) == {"deductive"} and ded.score == pytest.approx(deductive_score(ded.deductive))


def test_verify_without_stacking_model_is_the_deductive_verdict(trained):
    from verifier.api import Verifier
    from verifier.config import load_config

    tmp, _ = trained
    ver = Verifier(load_config(_config(tmp, None), environ={}, cwd=tmp))
    assert ver.stacker is None
    v = ver.verify(LOG["c01"]["question"], LOG["c01"]["sparql"])
    assert set(v.signals) == {"deductive"}
    assert v.signals["deductive"]["verdict"] == v.verdict
    # the deductive score: the proof confidence's probability (issue 59); the table's with
    # [deductive] confidence = "table"
    from verifier.confidence import TABLE_SCORES, deductive_score

    assert v.score == pytest.approx(deductive_score(v.deductive))
    table = Verifier(load_config(_config(tmp, None), environ={}, cwd=tmp).with_values("deductive", confidence="table"))
    assert table.verify(LOG["c01"]["question"], LOG["c01"]["sparql"]).score == TABLE_SCORES[v.verdict]


def test_stacked_runtime_without_pgmr_or_kg_still_decides(trained):
    """The configured model with only the deductive signal (no PGMR memory, no KG)."""
    from verifier.api import Verifier
    from verifier.config import load_config

    tmp, model = trained
    path = tmp / "bare.toml"
    path.write_text(f'[mrs]\ncorpora = ["{CHEM / "mrs.jsonl.gz"}"]\n'
                    f'[grounding]\nlabels = "{CHEM / "kg-labels.tsv"}"\n'
                    f'[stacking]\nmodel = "{model}"\noperating_point = "balanced"\n')
    ver = Verifier(load_config(path, environ={}, cwd=tmp))
    v = ver.verify(LOG["c01"]["question"], LOG["c01"]["sparql"])
    assert v.decision in ("accept", "reject")  # balanced: no abstain band
    assert set(v.signals) == {"deductive", "stacked"}
    assert "Execution: no knowledge graph configured." in v.explanation


def test_benchmark_signal_stacked(trained):
    """``verifier eval --signals stacked``: the adapter found through make_signal."""
    from verifier.benchmark.signals import SignalOptions, config_hash, make_signal

    tmp, model = trained
    opts = SignalOptions(labels=CHEM / "kg-labels.tsv", pgmr_memory=tmp / "pgmr",
                         verifier_config=_config(tmp, None), stacking_model=model)
    sig = make_signal("stacked", opts)
    assert type(sig).__name__ == "StackedSignal"
    assert sig.availability().available
    sig.prepare()
    good = sig.run(LOG["c01"]["question"], LOG["c01"]["sparql"])
    bad = sig.run(LOG["c18"]["question"], LOG["c18"]["sparql"])  # non-existent property
    assert good.decision in ("accept", "reject", "abstain") and 0.0 <= good.score <= 1.0
    assert {"deductive", "pgmr"} <= set(good.details["signals"])
    assert bad.score < good.score
    assert len(config_hash(sig)) == 16
    missing = make_signal("stacked", SignalOptions(stacking_model=tmp / "absent.json"))
    assert not missing.availability().available


def test_train_stack_cli_usage_errors(tmp_path):
    from verifier.cli import main

    assert main(["train", "stack", "--train", str(tmp_path / "absent.jsonl"),
                 "--out", str(tmp_path / "m.json")]) == 2
    one = tmp_path / "one.jsonl"
    one.write_text(json.dumps({"question": "q", "sparql": "ASK { ?s ?p ?o }", "label": 1}) + "\n")
    assert main(["train", "stack", "--train", str(one), "--out", str(tmp_path / "m.json")]) == 2
    rows = tmp_path / "rows.jsonl"
    rows.write_text(one.read_text() + json.dumps({"question": "q", "sparql": "ASK { ?s ?p 1 }",
                                                  "label": 0}) + "\n")
    assert main(["train", "stack", "--train", str(rows), "--out", str(tmp_path / "m.json"),
                 "--compute", "--kg", str(tmp_path / "absent.ttl")]) == 2


def test_verify_candidates_with_a_kg_reads_the_answer_agreement(trained):
    """Candidates are executed once each; two that are not equivalent but return the same
    answers agree (``answer_agreement``), an empty one agrees with nobody."""
    from verifier.api import Verifier
    from verifier.config import load_config

    tmp, model = trained
    ver = Verifier(load_config(_config(tmp, model), environ={}, cwd=tmp))
    by_label = 'SELECT ?m WHERE { ?c rdfs:label "benzene"@en . ?c wdt:P2067 ?m . }'
    res = ver.verify_candidates(LOG["c01"]["question"],
                                [LOG["c01"]["sparql"], by_label, LOG["c03"]["sparql"], LOG["c01"]["sparql"]])
    cons = [v.signals["consensus"] for v in res.verdicts]
    assert len(res.clustering.clusters) == 3  # the label query is not provably the same
    third = pytest.approx(2 / 3, abs=1e-3)  # rounded in the JSON form
    assert [c.get("answer_agreement") for c in cons] == [third, third, None,
                                                         third]
    ex = [v.signals["execution"] for v in res.verdicts]
    assert ex[0]["answers"] and ex[0]["answers"] == ex[1]["answers"] and ex[2]["n_answers"] == 0
    assert all("stacked" in v.signals for v in res.verdicts)
    # without the stacked decision nothing runs on the KG
    plain = ver.verify_candidates(LOG["c01"]["question"], [LOG["c01"]["sparql"], by_label],
                                  signals=("deductive",))
    assert all("execution" not in v.signals and v.signals["consensus"].get("answer_agreement") is None
               for v in plain.verdicts)
