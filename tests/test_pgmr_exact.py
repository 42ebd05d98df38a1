"""PGMR without FAISS: :class:`ExactIndex` (NumPy) gives the same neighbours and scores as
FAISS's flat index, reads and writes FAISS's file format byte for byte, and a memory gives
the same search results with either; approximate kinds fall back to exact search."""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
import pytest

from verifier.pgmr import ExactIndex, IndexSpec, Memory, VectorIndex
from verifier.pgmr import index as index_module

CHEM = Path(__file__).resolve().parents[1] / "examples" / "chemistry"
QUERIES = ["benzene", "benzen", "mass", "boiling pont", "melting point of", "density",
           "chemical formula", "instance of", "gold", "ethanol", "water", "discoverer", ""]


@pytest.fixture
def no_faiss(monkeypatch):
    monkeypatch.setattr(index_module, "_faiss", lambda: None)
    assert not index_module.faiss_available()


def _unit(rng, n, d=48):
    x = rng.normal(size=(n, d)).astype(np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


@pytest.mark.parametrize("nq", [3, 200])          # FAISS: one loop below 20 queries, BLAS above
def test_exact_index_matches_faiss_flat(nq):
    faiss = pytest.importorskip("faiss")
    rng = np.random.default_rng(7)
    x, q = _unit(rng, 3000), _unit(rng, nq)
    flat = faiss.IndexFlatIP(x.shape[1])
    flat.add(x)
    exact = ExactIndex(x.shape[1])
    exact.add(x[:1000])
    exact.add(x[1000:])                            # added in two chunks, like VectorIndex.build
    d1, i1 = flat.search(q, 10)
    d2, i2 = exact.search(q, 10)
    assert np.array_equal(i1, i2)
    assert np.abs(d1 - d2).max() < 1e-6
    d1, i1 = flat.search(q, 3005)                  # more than there are rows
    d2, i2 = exact.search(q, 3005)
    assert np.array_equal(i1[:, 3000:], i2[:, 3000:]) and (i2[:, 3000:] == -1).all()
    assert np.array_equal(d1[:, 3000:], d2[:, 3000:])


def test_the_file_format_is_faiss_s_own(tmp_path):
    faiss = pytest.importorskip("faiss")
    x = _unit(np.random.default_rng(1), 500)
    flat = faiss.IndexFlatIP(x.shape[1])
    flat.add(x)
    faiss.write_index(flat, str(tmp_path / "faiss.idx"))
    exact = ExactIndex(x.shape[1])
    exact.add(x)
    exact.write(tmp_path / "exact.idx")
    assert (tmp_path / "faiss.idx").read_bytes() == (tmp_path / "exact.idx").read_bytes()
    back = faiss.read_index(str(tmp_path / "exact.idx"))
    assert back.ntotal == 500 and np.array_equal(back.search(x[:5], 3)[1],
                                                 ExactIndex.read(tmp_path / "faiss.idx").search(x[:5], 3)[1])


def _results(mem: Memory) -> list:
    """Every query's scores, and its candidates above the last score: rows tied at the
    cut-off (often unrelated labels at cosine 0) may be any of the tied ones, in FAISS too."""
    out = []
    for kind in ("item", "property", None):
        for cands in mem.search(QUERIES, kind=kind, k=5):
            scores = [round(c.score, 5) for c in cands]
            out.append((scores, [(c.id, c.matched) for c in cands if round(c.score, 5) > scores[-1]]))
    return out


def test_a_memory_searches_the_same_with_and_without_faiss(tmp_path, monkeypatch):
    pytest.importorskip("faiss")
    with_faiss = Memory.from_labels_tsv(CHEM / "kg-labels.tsv")
    with_faiss.save(tmp_path / "built-with-faiss")
    monkeypatch.setattr(index_module, "_faiss", lambda: None)
    without = Memory.from_labels_tsv(CHEM / "kg-labels.tsv")
    assert isinstance(without.partitions["item"].index.index, ExactIndex)
    assert _results(without) == _results(with_faiss)
    loaded = Memory.load(tmp_path / "built-with-faiss")   # FAISS's files, read by NumPy
    assert isinstance(loaded.partitions["item"].index.index, ExactIndex)
    assert _results(loaded) == _results(with_faiss)
    without.save(tmp_path / "built-without")
    monkeypatch.undo()
    assert _results(Memory.load(tmp_path / "built-without")) == _results(with_faiss)


def test_without_faiss_approximate_kinds_are_exact(no_faiss, caplog):
    x = _unit(np.random.default_rng(3), 400)
    with caplog.at_level(logging.INFO, logger="verifier.pgmr.index"):
        idx = VectorIndex.build(x, IndexSpec(kind="hnsw"))
    assert idx.kind == "flat" and "exact search instead of hnsw" in caplog.text
    assert np.array_equal(idx.search(x[:20], 1)[1][:, 0], np.arange(20))
    empty = VectorIndex.build(np.zeros((0, 8), np.float32))
    assert empty.search(np.ones((2, 8), np.float32), 3)[1].tolist() == [[-1] * 3] * 2


def test_a_saved_hnsw_memory_loads_without_faiss(tmp_path, monkeypatch, caplog):
    pytest.importorskip("faiss")
    mem = Memory.from_labels_tsv(CHEM / "kg-labels.tsv", spec=IndexSpec(kind="hnsw"))
    assert mem.partitions["item"].index.kind == "hnsw"
    mem.save(tmp_path / "m")
    monkeypatch.setattr(index_module, "_faiss", lambda: None)
    with caplog.at_level(logging.WARNING, logger="verifier.pgmr.memory"):
        back = Memory.load(tmp_path / "m")
    assert "needs FAISS" in caplog.text
    assert back.partitions["item"].index.kind == "flat"
    def matched(mem: Memory) -> list:   # HNSW returns fewer rows for the empty text's zero vector
        return [r for r in _results(mem) if r[0] and r[0][0] > 0]

    assert matched(back) == matched(mem)


def test_a_file_that_is_not_an_index_is_an_error(tmp_path):
    (tmp_path / "x.idx").write_bytes(b"IxFI" + b"\0" * 10)
    with pytest.raises(ValueError):
        ExactIndex.read(tmp_path / "x.idx")
    (tmp_path / "h.idx").write_bytes(b"IHNf" + b"\0" * 60)
    with pytest.raises(index_module.IndexNeedsFaiss):
        ExactIndex.read(tmp_path / "h.idx")
