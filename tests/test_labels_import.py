"""Importing Wikidata JSON dumps (plain, gzip, bzip2) and labels TSVs into a label store
(verifier.labels.dump / importer, ``verifier labels import``): English names only, bounded
streaming, idempotent re-imports, resumed interrupted imports."""

from __future__ import annotations

import bz2
import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from verifier.labels.dump import DumpCounts, read_dump, sniff_format
from verifier.labels.importer import ImportOptions, import_file
from verifier.labels.index import StoreLabelIndex
from verifier.labels.store import LabelStore
from verifier.lexical import LabelIndex

ROOT = Path(__file__).resolve().parents[1]
CHEM = ROOT / "examples" / "chemistry"


def entity(sid: str, en: str | None, aliases=(), desc: str | None = None, other: dict | None = None,
           kind: str | None = None) -> dict:
    """A dump entity: English and other languages, claims and sitelinks that are skipped."""
    labels = {"de": {"language": "de", "value": f"{en or sid} (de)"}, **(other or {})}
    if en:
        labels["en"] = {"language": "en", "value": en}
    return {"type": kind or ("property" if sid.startswith("P") else "item"), "id": sid,
            "labels": labels,
            "descriptions": {"en": {"language": "en", "value": desc}} if desc else {},
            "aliases": {"en": [{"language": "en", "value": a} for a in aliases],
                        "fr": [{"language": "fr", "value": "alias fr"}]},
            "claims": {"P31": [{"mainsnak": {"snaktype": "value", "property": "P31"}}]},
            "sitelinks": {"enwiki": {"site": "enwiki", "title": en or sid}}}


ENTITIES = [
    entity("Q2270", "benzene", ["benzol", "C6H6"], "chemical compound"),
    entity("P2067", "mass", ["weight", "molar mass"], "mass of the item"),
    entity("P527", "has part(s)", ["contains"], "part of this subject"),
    entity("Q3", None, ["only an alias"]),   # named by its first alias
    entity("Q4", None),                      # no English name: skipped
    {"type": "lexeme", "id": "L1", "lemmas": {"en": {"language": "en", "value": "run"}}},
    entity("Q5", "human", ["person", "people"], "any member of Homo sapiens"),
]


def write_dump(path: Path, entities=ENTITIES, *, broken: bool = False) -> Path:
    """The dump layout: a '[' line, one entity per line ending with ',', a ']' line."""
    lines = ["["] + [json.dumps(e, ensure_ascii=False) + "," for e in entities]
    if broken:
        lines.insert(3, "{not json,")
    lines[-1] = lines[-1].rstrip(",")
    lines.append("]")
    data = ("\n".join(lines) + "\n").encode()
    opener = {".gz": gzip.open, ".bz2": bz2.open}.get(path.suffix, open)
    with opener(path, "wb") as f:
        f.write(data)
    return path


@pytest.mark.parametrize("suffix", [".json", ".json.gz", ".json.bz2"])
def test_read_dump_any_compression(tmp_path, suffix):
    path = write_dump(tmp_path / f"dump{suffix}", broken=True)
    counts = DumpCounts()
    got = {s.id: s for _, s in read_dump(path, counts)}
    assert sniff_format(path) == "json"
    assert sorted(got) == ["P2067", "P527", "Q2270", "Q3", "Q5"]
    assert got["Q2270"].aliases == ("benzol", "C6H6") and got["Q2270"].description == "chemical compound"
    assert got["P2067"].kind.value == "property"
    assert got["Q3"].label == "only an alias" and got["Q3"].aliases == ()
    assert (counts.no_english, counts.other_type, counts.errors) == (1, 1, 1)
    assert counts.position == path.stat().st_size


def test_import_dump_then_reimport_replaces(tmp_path):
    path = write_dump(tmp_path / "dump.json.gz")
    store = LabelStore(tmp_path / "s.sqlite")
    first = import_file(store, path, ImportOptions(batch=2))
    assert (first.stored, first.replaced, first.no_english, first.other_type) == (5, 0, 1, 1)
    idx = StoreLabelIndex(store)
    mem = LabelIndex()
    for _, s in read_dump(path):
        mem.add(s.id, s.names, s.kind.value, s.description)
    for sid in ("Q2270", "P2067", "P527", "Q3", "Q5"):
        assert idx.names[sid] == mem.names[sid]
    again = import_file(store, path)
    assert (again.stored, again.replaced) == (0, 5)
    assert store.stats().names == first.store_named + sum(len(mem.names[s]) for s in mem.names) - 5
    assert store.named_count() == 5
    assert store.entity("Q2270").source == "dump:dump.json.gz"


def test_interrupted_import_resumes(tmp_path):
    ents = [entity(f"Q{100 + i}", f"item number {i}", [f"alias {i}"]) for i in range(50)]
    path = write_dump(tmp_path / "dump.json.bz2", ents)
    store = LabelStore(tmp_path / "s.sqlite")
    calls = []

    def stop_after_two(done: int, total: int) -> None:
        calls.append(done)
        if len(calls) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        import_file(store, path, ImportOptions(batch=10, progress=stop_after_two))
    assert store.named_count() == 20
    state = store.import_state(str(path.resolve()))
    assert state.finished is None and state.lines_done == 21  # the '[' line and 20 entities
    rest = import_file(store, path, ImportOptions(batch=10))
    assert rest.resumed_from_line == 21 and rest.records == 30 and rest.stored == 50
    assert store.named_count() == 50 and store.import_state(str(path.resolve())).finished
    fresh = import_file(store, path, ImportOptions(batch=10))  # finished: from the top, replacing
    assert fresh.resumed_from_line == 0 and fresh.replaced == 50


def test_cli_import_tsv_and_dump(tmp_path, monkeypatch, capsys):
    from verifier.cli import main

    env = {**os.environ, "PYTHONPATH": str(ROOT), "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data")}
    dump = write_dump(tmp_path / "d.json.bz2")
    store = tmp_path / "s.sqlite"
    cmd = [sys.executable, "-m", "verifier", "labels", "import", str(CHEM / "kg-labels.tsv"), str(dump),
           "--store", str(store), "--json"]
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
    assert out.returncode == 0, out.stderr
    tsv, js = json.loads(out.stdout)
    assert tsv["format"] == "tsv" and tsv["stored"] == 29 and js["format"] == "json"
    assert js["stored"] == 1 and js["replaced"] == 4  # Q2270, P2067, P527 and Q5 were in the TSV too

    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)

    def run(*args: str) -> tuple[int, str, str]:
        code = main(["labels", *args, "--store", str(store)])
        cap = capsys.readouterr()
        return code, cap.out, cap.err

    code, text, _ = run("show", "Q2270", "wd:P2067", "Q404", "--json")
    rows = json.loads(text)
    assert code == 0 and rows[0]["aliases"] == ["benzol", "C6H6"] and rows[1]["source"] == "dump:d.json.bz2"
    assert rows[2]["found"] is False
    code, text, _ = run("stats", "--json")
    assert json.loads(text)["named"] == 30
    out_tsv = tmp_path / "export.tsv"
    code, text, _ = run("export", "--out", str(out_tsv))
    assert code == 0 and LabelIndex.from_labels_tsv(out_tsv).names["Q2270"] == \
        StoreLabelIndex(LabelStore(store, create=False)).names["Q2270"]
    code, _, err = run("import", str(tmp_path / "nope.json"))
    assert code == 2 and "no such file" in err
    code, text, _ = run("import", str(dump))  # people get a sentence, not JSON
    assert code == 0 and "1 ids stored" not in text and "5 replaced" in text
