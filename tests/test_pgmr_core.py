"""PGMR memory: symbols, loaders (TSV, RDF), the hashed encoder, FAISS indexes, save/load."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys

import numpy as np
import pytest

from verifier.pgmr import (HashedNgramEncoder, IndexSpec, Kind, Memory, Symbol, SymbolTable,
                           VectorIndex, encoder_from_identity, read_labels_tsv, read_rdf)
from verifier.pgmr.symbols import id_rank, surface_key

TSV = (
    "id\tlabel\taliases\tdescription\n"
    "P31\tinstance of\tis a|type\tthat class of which this subject is a particular example\n"
    "P2067\tmass\tweight\tmass of an object\n"
    "P17\tcountry\tstate\tsovereign state of this item\n"
    "Q2270\tbenzene\tC6H6|benzol\tchemical compound\n"
    "Q5\thuman\tperson\tspecies\n"
    "Q6256\tcountry\tnation\tdistinct territorial body\n"
    "Q1754454\tcountry\t\tother sense\n"
    "malformed line without tabs\n"
    "Q7\t\t\tempty label is malformed\n"
    "Q42\tDouglas Adams\tDNA\tEnglish writer\n"
    "Q1045\tSomalia\t\tcountry in Africa\n"
)


@pytest.fixture(scope="module")
def labels_file(tmp_path_factory):
    p = tmp_path_factory.mktemp("pgmr") / "labels.tsv"
    p.write_text(TSV, encoding="utf-8")
    return p


@pytest.fixture(scope="module")
def memory(labels_file):
    return Memory.from_labels_tsv(labels_file)


def test_labels_tsv_counts_and_skips_malformed_lines(labels_file, caplog):
    with caplog.at_level(logging.WARNING):
        rep = read_labels_tsv(labels_file)
    assert rep.records == 11 and rep.skipped == 2
    assert "skipped 2 malformed" in caplog.text
    by = {s.id: s for s in rep.symbols}
    assert by["P31"].kind is Kind.PROPERTY and by["Q5"].kind is Kind.ITEM
    assert by["P31"].aliases == ("is a", "type")
    assert by["Q2270"].description == "chemical compound"


def test_labels_tsv_class_ids_and_missing_file(labels_file, tmp_path):
    rep = read_labels_tsv(labels_file, class_ids={"Q5"})
    assert {s.id: s.kind for s in rep.symbols}["Q5"] is Kind.CLASS
    with pytest.raises(FileNotFoundError, match="nope.tsv"):
        read_labels_tsv(tmp_path / "nope.tsv")


def test_symbol_table_collisions_and_rank(labels_file):
    table = SymbolTable.from_symbols(read_labels_tsv(labels_file).symbols)
    assert "Q42" in table and "Q99" not in table
    assert table.label_collision("Q6256") == ("Q1754454",)
    assert table.label_collision("P17") == ()          # the items are of another kind
    assert set(table.label_collision("P17", same_kind=False)) == {"Q6256", "Q1754454"}
    country = [c for c in table.collisions(labels_only=True) if c.key == "country"]
    assert country and set(country[0].ids) == {"P17", "Q6256", "Q1754454"}
    assert id_rank("Q5") < id_rank("Q42") < id_rank("Q100") < id_rank("http://x")
    assert surface_key("  Douglas   ADAMS ") == "douglas adams"


TTL = """
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
@prefix schema: <http://schema.org/> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix wd: <http://www.wikidata.org/entity/> .
@prefix ex: <http://example.org/> .
wd:Q2270 rdfs:label "benzene"@en, "Benzol"@de ; skos:altLabel "benzol"@en ;
    schema:description "chemical compound"@en .
wd:P2067 rdfs:label "mass"@en ; skos:altLabel "weight"@en .
ex:Molecule a owl:Class ; rdfs:label "molecule" .
ex:hasPart a owl:ObjectProperty ; rdfs:label "has part"@en-gb .
ex:onlyGerman rdfs:label "nur Deutsch"@de .
ex:noLabel schema:description "described but unnamed"@en .
"""


@pytest.mark.parametrize("backend", ["rdflib", "oxigraph"])
def test_read_rdf_both_backends(tmp_path, backend):
    p = tmp_path / "kg.ttl"
    p.write_text(TTL, encoding="utf-8")
    rep = read_rdf(p, backend=backend)
    by = {s.id: s for s in rep.symbols}
    assert set(by) == {"Q2270", "P2067", "http://example.org/Molecule",
                       "http://example.org/hasPart"}
    assert by["Q2270"].label == "benzene" and by["Q2270"].aliases == ("benzol",)
    assert by["Q2270"].description == "chemical compound"
    assert by["P2067"].kind is Kind.PROPERTY
    assert by["http://example.org/Molecule"].kind is Kind.CLASS
    assert by["http://example.org/hasPart"].kind is Kind.PROPERTY
    assert rep.skipped == 1  # ex:noLabel (ex:onlyGerman has no triple we read)
    mem = Memory.from_rdf(p, backend=backend)
    assert mem.search(["benzol"], kind="item", k=1)[0][0].id == "Q2270"


def test_read_rdf_errors(tmp_path):
    with pytest.raises(FileNotFoundError):
        read_rdf(tmp_path / "missing.ttl")
    bad = tmp_path / "bad.ttl"
    bad.write_text("this is not turtle <<<", encoding="utf-8")
    with pytest.raises(ValueError, match="malformed RDF"):
        read_rdf(bad, backend="oxigraph")


def test_hashed_encoder_properties():
    enc = HashedNgramEncoder()
    v = enc.encode(["place of birth", "Place  of BIRTH", "plcae of birth", "mass", "Zürich",
                    "Zurich", ""])
    assert v.shape == (7, enc.dim) and v.dtype == np.float32
    norms = np.linalg.norm(v, axis=1)
    assert np.allclose(norms[:6], 1.0, atol=1e-5) and norms[6] == 0.0
    sims = v @ v.T
    assert sims[0, 1] == pytest.approx(1.0, abs=1e-6)    # case and spacing
    assert sims[4, 5] == pytest.approx(1.0, abs=1e-6)    # accents
    assert sims[0, 2] > 0.5 > sims[0, 3]                 # typo close, other word far
    assert np.array_equal(enc.encode(["mass"])[0], HashedNgramEncoder().encode(["mass"])[0])


def test_hashed_encoder_is_deterministic_across_processes():
    enc = HashedNgramEncoder()
    here = enc.encode(["benzene ring", "Douglas Adams"])
    code = ("import json; from verifier.pgmr import HashedNgramEncoder as H; "
            "print(json.dumps(H().encode(['benzene ring', 'Douglas Adams']).tolist()))")
    env = dict(os.environ, PYTHONHASHSEED="12345")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, check=True, cwd=os.path.dirname(os.path.dirname(__file__)))
    there = np.array(json.loads(out.stdout), dtype=np.float32)
    assert np.array_equal(here, there)


def test_encoder_identity_round_trip():
    enc = HashedNgramEncoder(dim=64, ngrams=(2, 3, 4), word_weight=0.5, key="k")
    again = encoder_from_identity(enc.identity)
    assert again == enc and again.identity == enc.identity
    with pytest.raises(ValueError, match="unknown encoder"):
        encoder_from_identity("word2vec?dim=3")
    with pytest.raises(ValueError, match="another version"):
        encoder_from_identity("hashed-ngram/v99?dim=8")


@pytest.mark.parametrize("kind", ["flat", "hnsw", "ivf"])
def test_index_kinds_find_exact_vectors(kind, tmp_path):
    if kind != "flat":
        pytest.importorskip("faiss", reason="HNSW and IVF need FAISS (the faiss extra)")
    rng = np.random.default_rng(0)
    x = rng.normal(size=(2000, 32)).astype(np.float32)
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    idx = VectorIndex.build(x, IndexSpec(kind=kind, ivf_nprobe=64))
    assert idx.kind == kind and idx.ntotal == 2000
    scores, rows = idx.search(x[:50], 1)
    assert (rows[:, 0] == np.arange(50)).mean() >= 0.9
    idx.save(tmp_path / "i.faiss")
    again = VectorIndex.load(tmp_path / "i.faiss", kind, IndexSpec(kind=kind, ivf_nprobe=64))
    assert np.array_equal(again.search(x[:50], 1)[1], rows)


def test_ivf_on_tiny_or_empty_sets_falls_back_to_flat():
    assert VectorIndex.build(np.zeros((0, 8), np.float32), IndexSpec(kind="ivf")).kind == "flat"
    mem = Memory.build([Symbol("Q1", "one", Kind.ITEM)], spec=IndexSpec(kind="ivf"))
    assert mem.search(["one"], kind="item", k=1)[0][0].id == "Q1"


def test_index_auto_choice():
    spec = IndexSpec(flat_max=100)
    assert spec.resolve(100) == "flat" and spec.resolve(101) == "hnsw"
    assert IndexSpec(flat_max=100, large="ivf").resolve(10**6) == "ivf"
    assert IndexSpec(kind="ivf").resolve(5) == "ivf"
    with pytest.raises(ValueError):
        IndexSpec(kind="annoy")


def test_memory_search_kind_collisions_and_aliases(memory):
    [c] = memory.search(["country"], kind="property", k=1)
    assert c[0].id == "P17" and c[0].score == pytest.approx(1.0, abs=1e-5)
    items = memory.search(["country"], kind="item", k=3)[0]
    assert [x.id for x in items[:2]] == ["Q6256", "Q1754454"]   # tie: smaller id first
    assert all(x.kind is not Kind.PROPERTY for x in items)
    alias = memory.search(["benzol"], kind="item", k=1)[0][0]
    assert alias.id == "Q2270" and alias.via_alias and alias.matched == "benzol"
    typo = memory.search(["Dougals Adams"], kind="item", k=1)[0][0]
    assert typo.id == "Q42" and 0.4 < typo.score < 1.0
    both = memory.search(["mass"], kind=None, k=2)[0]
    assert both[0].id == "P2067"


def test_memory_save_load_and_mismatch(memory, tmp_path):
    d = memory.save(tmp_path / "idx")
    meta = json.loads((d / "meta.json").read_text())
    assert meta["format_version"] == 1 and meta["encoder"] == memory.encoder.identity
    again = Memory.load(d)
    assert len(again) == len(memory)
    assert again.search(["benzene"], kind="item", k=1)[0][0].id == "Q2270"
    other = HashedNgramEncoder(dim=128)
    with pytest.raises(ValueError) as e:
        Memory.load(d, encoder=other)
    assert memory.encoder.identity in str(e.value) and other.identity in str(e.value)
    meta["format_version"] = 99
    (d / "meta.json").write_text(json.dumps(meta))
    with pytest.raises(ValueError, match="version 99"):
        Memory.load(d)
    with pytest.raises(FileNotFoundError, match="meta.json"):
        Memory.load(tmp_path / "empty")


def test_memory_ignores_duplicate_ids():
    mem = Memory.build([Symbol("Q1", "one", Kind.ITEM), Symbol("Q1", "uno", Kind.ITEM)])
    assert len(mem) == 1 and mem.get("Q1").label == "one"
    assert mem.table.duplicates == 1
