"""The whole build (verifier.benchmark.build / ``verifier bench``) on a tiny fixture data folder
laid out like ../shared/data: every dataset is written, counted in the manifest, checked, and
rebuilt byte-identically."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from verifier.benchmark.build import BuildConfig, build_all
from verifier.benchmark.ontology_split import DEFAULT_SOURCES
from verifier.benchmark.records import DATASET_FILES, MANIFEST_FILE, load_dataset, read_records
from verifier.cli import main

PROPS = ["P19", "P27", "P69", "P106", "P569", "P2048"]


def _gold_rows(prefix: str, n: int, offset: int) -> list[dict]:
    rows = []
    for k in range(n):
        i = offset + k
        p = PROPS[i % len(PROPS)]
        q = f"Q{100 + i % 17}" if i % 4 else f"Q{5000 + i}"
        if i % 5 == 0:
            s = (f"SELECT ?x WHERE {{ ?x wdt:P31 wd:Q5 . ?x wdt:{p} wd:{q} . ?x wdt:P2048 ?h . "
                 f"FILTER(?h > {150 + i}) }}")
        elif i % 5 == 1:
            s = f"ASK {{ wd:{q} wdt:{p} wd:Q{200 + i % 3} . }}"
        elif i % 5 == 2:
            s = f"SELECT (COUNT(?x) AS ?n) WHERE {{ ?x wdt:{p} wd:{q} . ?x wdt:P31 wd:Q5 . }}"
        else:
            s = f"SELECT ?x WHERE {{ wd:{q} wdt:{p} ?x . }}"
        ids = sorted({p, q, "P31", "Q5"} & set(s.replace(":", " ").replace(".", " ").split())
                     | {p, q})
        rows.append({"id": f"{prefix}-{i}", "question": f"Question number {i} about {q}?",
                     "sparql": s, "wikidata_ids": ids})
    return rows


def make_data(root: Path) -> Path:
    """A miniature shared/data folder."""
    for j, rel in enumerate(DEFAULT_SOURCES):
        ds, split = rel.split("/")[0], Path(rel).stem
        rows = _gold_rows(f"{ds}-{split}", 10 if j < 3 else 2, 100 * j)
        for r in rows:
            r.update(dataset=ds, split=split)
        (root / ds).mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("".join(json.dumps(r) + "\n" for r in rows))
    # duplicates across files are dropped (first file wins)
    with (root / "qald7/test.jsonl").open("a") as f:
        f.write(json.dumps({"id": "qald7-test-dup", "question": "Question number 0 about Q5000?",
                            "sparql": "SELECT ?x WHERE { ?x ?p ?o }", "dataset": "qald7",
                            "split": "test"}) + "\n")
    (root / "wikidata").mkdir()
    labels = ["id\tlabel\taliases\tdescription"]
    labels += [f"{p}\tproperty {p}\t\t" for p in PROPS + ["P31"]]
    labels += [f"Q{i}\tthing {i}\t\t" for i in list(range(100, 117)) + [5, 200, 201, 202]]
    labels += ["Q64\tBerlin\t\tcapital"]
    (root / "wikidata/labels.tsv").write_text("\n".join(labels) + "\n")
    (root / "mrs").mkdir()
    with gzip.open(root / "mrs/questions.jsonl.gz", "wt") as f:
        for k in range(0, 400, 3):
            f.write(json.dumps({"question": f"Question number {k} about Q{100 + k % 17}?",
                                "readings": ["[ TOP: h0 ]"]}) + "\n")
    (root / "ood").mkdir()
    utts = [f"Play song {k} by Berlin please" if k % 2 else f"Book a table for {k}"
            for k in range(40)]
    (root / "ood/utterances.txt").write_text("\n".join(utts) + "\n")
    (root / "ood/utterances_with_intent.tsv").write_text(
        "intent\tsnips_file\tutterance\n" + "".join(
            f"{'PlayMusic' if k % 2 else 'BookRestaurant'}\ttrain\t{u}\n" for k, u in enumerate(utts)))
    with gzip.open(root / "mrs/ood_sample.jsonl.gz", "wt") as f:
        for u in utts[:6]:
            f.write(json.dumps({"question": u, "readings": ["[ TOP: h0 ]"]}) + "\n")
    (root / "llm_predictions").mkdir()
    preds = []
    for k, (score, pred) in enumerate([
            (1.0, "SELECT ?y WHERE { wd:Q101 wdt:P27 ?y . }"),
            (0.0, "SELECT ?y WHERE { wd:Q101 wdt:P19 ?y . }"),
            (0.5, "SELECT ?y WHERE { wd:Q101 wdt:P27 ?y . wd:Q101 wdt:P19 ?y . }"),
            (None, None)]):
        preds.append({"id": f"pred-{k}", "question_id": "x", "benchmark": "qald7",
                      "split": "test", "question": "Question number 1 about Q101?",
                      "gold_sparql": "SELECT ?x WHERE { wd:Q101 wdt:P27 ?x . }",
                      "system": "GRASP", "model": f"m{k % 2}", "config": "c", "sparql": pred,
                      "score_f1": score})
    (root / "llm_predictions/grasp_qald7_test.jsonl").write_text(
        "".join(json.dumps(p) + "\n" for p in preds))
    return root


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    data = make_data(tmp_path_factory.mktemp("data"))
    out = tmp_path_factory.mktemp("out")
    cfg = BuildConfig(data, out, seed=1, workers=1, ood_extra=8, progress=False)
    return data, out, build_all(cfg)


def test_all_datasets_written_and_counted(built):
    data, out, manifest = built
    assert set(manifest["datasets"]) == set(DATASET_FILES)
    for name, info in manifest["datasets"].items():
        recs = list(read_records(out / info["file"]))
        assert len(recs) == info["records"] > 0
        total = sum(sum(v.values()) for v in info["counts"].values())
        assert total == info["records"], name
    assert manifest["gold_pairs"]["total"] == 10 * 3 + 2 * (len(DEFAULT_SOURCES) - 3)
    assert "lcquad2/test.jsonl" in manifest["sources"]
    assert manifest["config"]["seed"] == 1 and manifest["code_version"]["source_sha256"]
    assert (out / "ontology_split" / "ontology_split.jsonl").is_file()


def test_record_fields_and_labels(built):
    _, out, manifest = built
    pert = load_dataset("perturbations", out)
    cats = {r.category for r in pert.records}
    assert {"gold", "wrong_property", "wrong_entity", "nonexistent_id", "wrong_form"} <= cats
    for r in pert.records:
        assert r.label == (1 if r.category == "gold" else 0)
        assert r.gold_sparql and r.sparql and r.source and "gold_id" in r.extra
        assert isinstance(r.has_mrs, bool)
    assert any(r.has_mrs for r in pert.records) and not all(r.has_mrs for r in pert.records)
    llm = {r.id: r for r in load_dataset("llm_predictions", out).records}
    assert [llm[f"pred-{k}"].category for k in range(4)] == ["correct", "wrong", "partial",
                                                              "no_query"]
    assert [llm[f"pred-{k}"].label for k in range(4)] == [1, 0, None, None]
    assert llm["pred-0"].get("label_equiv") == 1 and llm["pred-1"].get("label_equiv") == 0
    assert llm["pred-3"].get("equivalent_to_gold") is None
    ood = load_dataset("out_of_domain", out).records
    assert {r.category for r in ood} == {"out_of_domain", "gold"}
    assert sum(r.label == 0 for r in ood) == sum(r.label == 1 for r in ood)
    assert all(r.source.startswith("snips/") for r in ood if r.label == 0)
    onto = load_dataset("out_of_ontology", out).records
    assert all(r.label == (1 if r.category == "in_ontology" else 0) for r in onto)
    assert all(r.get("refuse_label") == 1 - r.label for r in onto)


def test_rebuild_is_byte_identical(built, tmp_path):
    data, out, _ = built
    out2 = tmp_path / "again"
    build_all(BuildConfig(data, out2, seed=1, workers=1, ood_extra=8, progress=False))
    for name in list(DATASET_FILES.values()) + [MANIFEST_FILE]:
        assert (out / name).read_bytes() == (out2 / name).read_bytes(), name


def test_rebuild_with_workers_is_identical(built, tmp_path):
    data, out, _ = built
    out2 = tmp_path / "w2"
    build_all(BuildConfig(data, out2, seed=1, workers=2, ood_extra=8, progress=False,
                          datasets=("perturbations",)))
    name = DATASET_FILES["perturbations"]
    assert (out / name).read_bytes() == (out2 / name).read_bytes()


def test_cli_list_check_and_usage_errors(built, capsys):
    data, out, _ = built
    assert main(["bench", "list", "--out", str(out)]) == 0
    assert "perturbations" in capsys.readouterr().out
    assert main(["bench", "check", "--out", str(out), "--data", str(data), "--sample", "0"]) == 0
    assert "all checks passed" in capsys.readouterr().out
    assert main(["bench", "build", "--data", str(out / "nope"), "--out", str(out)]) == 2
    assert main(["bench", "build", "--data", str(data), "--out", str(out),
                 "--datasets", "bogus"]) == 2


def test_check_fails_on_a_tampered_file(built, tmp_path):
    import shutil

    data, out, _ = built
    copy = tmp_path / "copy"
    shutil.copytree(out, copy)
    path = copy / DATASET_FILES["perturbations"]
    lines = path.read_text().splitlines()
    rec = json.loads(next(ln for ln in lines if '"wrong_property"' in ln))
    rec["sparql"] = rec["gold_sparql"]  # a "perturbation" equivalent to its gold
    lines = [json.dumps(rec, sort_keys=True) if '"wrong_property"' in ln and
             json.loads(ln)["id"] == rec["id"] else ln for ln in lines]
    path.write_text("\n".join(lines) + "\n")
    assert main(["bench", "check", "--out", str(copy), "--data", str(data), "--sample", "0"]) == 1
