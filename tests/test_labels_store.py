"""The label store read through the LabelIndex interface (verifier.labels.store / index):
the same names, keys, candidates and verdicts as the in-memory index built from the same
TSV; replacement, thread safety, pickling."""

from __future__ import annotations

import json
import os
import pickle
import random
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from verifier.labels.importer import import_file
from verifier.labels.index import CacheSizes, StoreLabelIndex
from verifier.labels.store import LabelStore, LabelStoreError, is_label_store
from verifier.lexical import LabelIndex, content_keys
from verifier.pgmr.symbols import Kind, Symbol

ROOT = Path(__file__).resolve().parents[1]
CHEM = ROOT / "examples" / "chemistry"
SHARED = Path(os.environ.get("VERIFIER_SHARED", ROOT.parent / "shared")) / "data"

#: names that exercise every expansion of LabelIndex.add
TRICKY = """id\tlabel\taliases\tdescription
P1\tdifferent from\tnot the same as|distinct from\tnot the same
P2\thas part(s)\tcontains|consists of\tparts
P3\tLiveJournal ID\tLJ ID\t
P4\tmedian lethal concentration (LC50)\tLC50\t
P5\tcommander of (DEPRECATED)\t\tobsolete
P6\tdepicts\tdepicting|portrays\t
P7\tsince\tas of\t
Q1\tprovince or territory of Canada\t\t
Q2\tversion, edition, or translation\t\t
Q3\tUnited States of America\tUSA|the States|America\tcountry
Q4\tUnited States Army\tUSA|US Army\tland service branch
Q5\tNew York Giants\tGiants|NY Giants\tAmerican football team
Q6\tgas giant\t\tgiant planet
Q7\tPride and Prejudice\t\tnovel by Jane Austen
Q8\tMalmö\tMalmo\tcity in Sweden
Q9\tthe\t\t
Q10\tgas giant\tgiant of gas\tanother one
"""


@pytest.fixture
def tricky(tmp_path):
    tsv = tmp_path / "tricky.tsv"
    tsv.write_text(TRICKY, encoding="utf-8")
    store = LabelStore(tmp_path / "s.sqlite")
    import_file(store, tsv)
    yield LabelIndex.from_labels_tsv(tsv), StoreLabelIndex(store), store
    store.close()


def assert_same(mem: LabelIndex, idx: StoreLabelIndex, ids, keys) -> None:
    assert len(mem) == len(idx)
    for sid in ids:
        assert mem.names.get(sid) == idx.names.get(sid), sid
        assert (sid in mem) == (sid in idx)
        assert mem.label(sid) == idx.label(sid)
        assert mem.kinds.get(sid) == idx.kinds.get(sid)
        assert mem.descriptions.get(sid) == idx.descriptions.get(sid)
    for k in keys:
        assert list(mem.by_key.get(k, ())) == list(idx.by_key.get(k, ())), k
        assert (k in mem.by_key) == (k in idx.by_key)
        assert mem.by_key.get(k, ())[:1] == idx.by_key.get(k, ())[:1]
        for kind in (None, "item", "property"):
            assert mem.candidates([k], kind=kind) == idx.candidates([k], kind=kind)
            assert mem.candidates([k], kind=kind, limit=1) == idx.candidates([k], kind=kind, limit=1)


def test_tricky_names_index_alike(tricky):
    mem, idx, _ = tricky
    ids = [l.split("\t")[0] for l in TRICKY.splitlines()[1:]] + ["Q404"]
    assert_same(mem, idx, ids, list(mem.by_key) + ["nosuchkey"])
    for text in ("Pride and Prejudice", "gas giant", "United States of America", "the", "Malmo"):
        assert mem.labels_written_as(text) == idx.labels_written_as(text)
    for w in ("giants", "giant", "army"):
        assert mem.proper_names_ending(w) == idx.proper_names_ending(w)
    for a in ("USA", "USAR", "NYG", "LC"):
        assert mem.acronym_bearers(a) == idx.acronym_bearers(a)
    assert idx.acronym_bearers("USA") == {"Q3", "Q4"}
    # the expansions are there: unabbreviated, alternatives, "has N" noun, split joins
    names = {sid: [e.name for e in idx.names[sid]] for sid in ("P2", "P3", "P4", "Q1")}
    assert "part(s)" in names["P2"] and "Live Journal ID" in names["P3"]
    assert "median lethal concentration" in names["P4"] and "territory of Canada" in names["Q1"]
    assert "not the same as" not in [e.name for e in idx.names["P1"]]
    assert idx.label("P5") == "commander of"


@pytest.fixture(scope="module")
def extract(tmp_path_factory):
    """The shared 76k-id extract when ../shared is there, else the chemistry labels: the
    in-memory index and a store imported from the same file (built once for the module)."""
    tsv = SHARED / "wikidata" / "labels.tsv"
    if not tsv.is_file():
        tsv = CHEM / "kg-labels.tsv"
    store = LabelStore(tmp_path_factory.mktemp("extract") / "s.sqlite")
    summary = import_file(store, tsv)
    yield tsv, LabelIndex.from_labels_tsv(tsv), store, summary
    store.close()


def test_extract_indexes_alike(extract):
    _, mem, store, summary = extract
    idx = StoreLabelIndex(store)
    assert summary.store_named == len(mem) and summary.stored == summary.records
    rng = random.Random(7)
    ids = rng.sample(sorted(mem.names), min(1500, len(mem.names)))
    keys = rng.sample(sorted(mem.by_key), min(1500, len(mem.by_key)))
    assert_same(mem, idx, ids, keys)


def test_replace_removes_old_names(tricky):
    _, idx, store = tricky
    assert "Q6" in {e.symbol for e in idx.by_key["giant"]}
    store_counts = store.put([Symbol("Q6", "ice giant", Kind.ITEM, (), "planet")], "test")
    idx.forget(store_counts, ["Q6"])
    assert store_counts.replaced == 1 and store_counts.stored == 0
    assert [e.name for e in idx.names["Q6"]] == ["ice giant"]
    assert "gas" not in {k for e in idx.names["Q6"] for k in e.keys}
    key = content_keys("gas")[0]
    assert {e.symbol for e in idx.by_key[key]} == {"Q10"}  # Q6 no longer, Q10 still
    assert idx.descriptions["Q6"] == "planet"
    assert len(idx) == store.named_count()


def test_store_survives_pickling_and_refuses_other_files(tricky, tmp_path):
    mem, idx, store = tricky
    copy = pickle.loads(pickle.dumps(idx))
    assert copy.names.get("Q3") == mem.names.get("Q3") and copy is not idx
    assert is_label_store(store.path) and not is_label_store(CHEM / "kg-labels.tsv")
    with pytest.raises(LabelStoreError):
        LabelStore(CHEM / "kg-labels.tsv")
    with pytest.raises(LabelStoreError):
        LabelStore(tmp_path / "absent.sqlite", create=False)
    other = tmp_path / "other.sqlite"
    import sqlite3
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.commit()
    with pytest.raises(LabelStoreError):
        LabelStore(other)


def test_threads_read_while_one_writes(tricky):
    """Readers in 6 threads see consistent answers while a writer replaces other ids; no
    SQLite error (each thread has its own connection)."""
    mem, _, store = tricky
    idx = StoreLabelIndex(store, caches=CacheSizes(ids=4, key_names=8, key_counts=4, kinds=4))
    keys = sorted(mem.by_key)
    errors: list[BaseException] = []
    stop = threading.Event()

    def read(seed: int) -> None:
        rng = random.Random(seed)
        try:
            for _ in range(300):
                k = rng.choice(keys)
                if k in content_keys("ice body 0"):  # the writer's keys
                    continue
                assert list(idx.by_key.get(k, ())) == list(mem.by_key.get(k, ())), k
                sid = rng.choice(["Q3", "Q4", "P2", "Q7"])
                assert idx.names.get(sid) == mem.names.get(sid)
        except BaseException as e:  # reported below
            errors.append(e)

    def write() -> None:
        i = 0
        try:
            while not stop.is_set():
                c = store.put([Symbol("Q900", f"ice body {i}", Kind.ITEM)], "test")
                idx.forget(c, ["Q900"])
                i += 1
        except BaseException as e:
            errors.append(e)

    w = threading.Thread(target=write)
    w.start()
    with ThreadPoolExecutor(6) as pool:
        list(pool.map(read, range(6)))
    stop.set()
    w.join()
    assert not errors, errors[:1]
    assert idx.names["Q900"][0].name.startswith("ice body")


def _pairs(path: Path) -> list[tuple[str, str]]:
    return [(r["question"], r["sparql"]) for r in map(json.loads, path.read_text().splitlines()) if r.get("question")]


def _verdicts(verifier, pairs):
    return [(v.decision, v.verdict, round(v.score, 6), v.explanation)
            for v in (verifier.verify(q, s) for q, s in pairs)]


def test_chemistry_verdicts_are_the_same_with_the_store(tmp_path):
    from verifier.api import Verifier
    from verifier.config import Config
    from verifier.mrs_cache import MrsCorpus

    store = LabelStore(tmp_path / "chem.sqlite")
    import_file(store, CHEM / "kg-labels.tsv")
    pairs = _pairs(CHEM / "querylog.jsonl")
    mrs = MrsCorpus([CHEM / "mrs.jsonl.gz"])
    cfg = Config({"grounding": {"wordnet": "none"}})
    tsv = _verdicts(Verifier(cfg, labels=LabelIndex.from_labels_tsv(CHEM / "kg-labels.tsv"), mrs=mrs), pairs)
    stored = _verdicts(Verifier(cfg, labels=StoreLabelIndex(store), mrs=mrs), pairs)
    assert len(pairs) >= 30 and {d for d, *_ in tsv} >= {"accept", "reject"}
    assert stored == tsv
    # ... and through the configuration: [grounding] labels naming the store file
    via_cfg = Verifier(Config({"grounding": {"wordnet": "none", "labels": str(store.path)}}), mrs=mrs)
    assert isinstance(via_cfg.labels, StoreLabelIndex)
    assert _verdicts(via_cfg, pairs[:4]) == tsv[:4]


@pytest.mark.shared
@pytest.mark.skipif(not (SHARED / "lcquad2" / "test.jsonl").is_file(), reason="../shared/data not available")
def test_lcquad2_verdicts_are_the_same_with_the_store(extract):
    """150 pairs of the LC-QuAD 2.0 test set (75 gold queries, and the same questions with
    the next record's query) with the shared MRS corpus: the TSV and a store imported from it
    give the same decisions, scores and explanations (bench/labels_import.py --verdicts
    checks more)."""
    from verifier.api import Verifier
    from verifier.config import Config
    from verifier.mrs_cache import MrsCorpus

    _, mem, store, _ = extract
    recs = [json.loads(l) for l in (SHARED / "lcquad2" / "test.jsonl").read_text().splitlines()[:75]]
    pairs = [(r["question"], r["sparql"]) for r in recs]
    pairs += [(recs[i]["question"], recs[(i + 1) % len(recs)]["sparql"]) for i in range(len(recs))]
    mrs = MrsCorpus([SHARED / "mrs" / "questions.jsonl.gz"])
    cfg = Config({})
    tsv = _verdicts(Verifier(cfg, labels=mem, mrs=mrs), pairs)
    stored = _verdicts(Verifier(cfg, labels=StoreLabelIndex(store), mrs=mrs), pairs)
    assert len({v for _, v, _, _ in tsv}) >= 3  # faithful, unsupported, unknown ...
    assert stored == tsv


def test_pgmr_and_command_lines_read_a_store_like_the_tsv(tricky, tmp_path):
    """``[pgmr] labels`` / ``verifier pgmr build --labels`` and ``--labels`` of check / axioms
    take a store where they take a TSV."""
    from verifier.labels.configured import labels_from_file, read_labels
    from verifier.pgmr.loaders import read_labels_tsv

    _, _, store = tricky
    tsv = tmp_path / "tricky.tsv"
    from_tsv = sorted(read_labels_tsv(tsv, class_ids=["Q1"]).symbols, key=lambda s: s.id)
    from_store = sorted(read_labels(store.path, class_ids=["Q1"]).symbols, key=lambda s: s.id)
    assert from_store == from_tsv and from_store[0].kind.value == "property"
    assert next(s for s in from_store if s.id == "Q1").kind is Kind.CLASS
    assert isinstance(labels_from_file(store.path), StoreLabelIndex)
    assert type(labels_from_file(tsv)) is LabelIndex


def test_audit_identity_follows_imports_not_fetches(tricky, tmp_path):
    """An audit's run identity names a store by its import generation: a fetch of absent ids
    (as on demand during an audit) keeps it, an import changes it."""
    from verifier.audit.identity import config_identity
    from verifier.config import Config

    _, _, store = tricky
    cfg = Config({"labels": {"store": str(store.path)}})
    before = config_identity(cfg)
    store.put([Symbol("Q777", "fetched thing", Kind.ITEM)], "api:test")
    assert config_identity(cfg)["sha256"] == before["sha256"]
    import_file(store, tmp_path / "tricky.tsv")
    assert config_identity(cfg)["sha256"] != before["sha256"]
