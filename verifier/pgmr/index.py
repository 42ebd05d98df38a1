"""An inner-product index over L2-normalized vectors, with the type chosen by size.

* ``flat``: exact search (FAISS ``IndexFlatIP``, or :class:`ExactIndex` in NumPy when FAISS
  is not installed); the default up to ``IndexSpec.flat_max`` vectors.
* ``hnsw``: graph-based approximate search (``IndexHNSWFlat``, inner product); the default
  above ``flat_max``.  Good recall without training; slower to build.
* ``ivf``: inverted lists (``IndexIVFFlat``, ``4 * sqrt(n)`` lists, trained on a
  deterministic sample); fast to build, recall set by ``nprobe``.

``IndexSpec(kind=...)`` overrides the automatic choice.  A flat index is moved to the GPU
when FAISS has GPU support and a GPU is present.

FAISS is optional (``pip install 'sparql-verifier[faiss]'``).  Without it every index is
exact (:class:`ExactIndex`: a matrix product in NumPy, the same neighbours and scores as
``IndexFlatIP``), an ``hnsw`` or ``ivf`` request is built exact instead (logged), and flat
indexes are read and written in FAISS's own file format, so a memory built with FAISS loads
without it and the other way round.  :func:`faiss_available` tells which is in use.
"""

from __future__ import annotations

import logging
import math
import struct
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["IndexSpec", "VectorIndex", "ExactIndex", "INDEX_KINDS", "IndexNeedsFaiss",
           "faiss_available"]

log = logging.getLogger(__name__)

INDEX_KINDS = ("auto", "flat", "hnsw", "ivf")


@dataclass(frozen=True, slots=True)
class IndexSpec:
    """How to build an index.  ``kind="auto"`` picks ``flat`` up to ``flat_max`` vectors and
    ``large`` above."""

    kind: str = "auto"
    flat_max: int = 200_000
    large: str = "hnsw"
    hnsw_m: int = 32
    ef_construction: int = 64
    ef_search: int = 128
    ivf_nlist: int = 0          # 0: 4 * sqrt(n)
    ivf_nprobe: int = 32
    seed: int = 0

    def __post_init__(self) -> None:
        if self.kind not in INDEX_KINDS:
            raise ValueError(f"unknown index kind {self.kind!r}; choose from {INDEX_KINDS}")
        if self.large not in ("hnsw", "ivf"):
            raise ValueError(f"'large' must be hnsw or ivf, got {self.large!r}")

    def resolve(self, n: int) -> str:
        """The concrete index kind for ``n`` vectors."""
        if self.kind != "auto":
            return self.kind
        return "flat" if n <= self.flat_max else self.large

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "IndexSpec":
        return cls(**{k: v for k, v in d.items() if k in cls.__dataclass_fields__})


class IndexNeedsFaiss(ValueError):
    """An approximate (HNSW or IVF) index file cannot be read without FAISS."""


def _faiss() -> Any:
    """The ``faiss`` module, or ``None`` when it is not installed."""
    try:
        import faiss
    except ImportError:
        return None
    return faiss


def faiss_available() -> bool:
    """Whether FAISS is installed (else indexes are exact, in NumPy)."""
    return _faiss() is not None


# FAISS's file layout of an IndexFlatIP: fourcc, d (int32), ntotal (int64), two unused int64,
# is_trained (bool), metric (int32, 0 = inner product), then the vectors: count (int64) and
# that many float32.
_FLAT_IP = b"IxFI"
_HEADER = struct.Struct("<4siqqq?i")
_COUNT = struct.Struct("<q")
_UNUSED = 1 << 20
_NO_SCORE = -np.finfo(np.float32).max   # what FAISS returns past the last row
_SEARCH_BLOCK = 1 << 24     # scores computed at once (queries x rows), 64 MiB of float32


class ExactIndex:
    """Exact inner-product search in NumPy, with the interface of FAISS ``IndexFlatIP``
    that :class:`VectorIndex` uses (``d``, ``ntotal``, ``add``, ``search``).

    Results are ranked by score, ties by row number; the scores are float32 dot products,
    equal to FAISS's up to rounding in the last bit.
    """

    def __init__(self, d: int) -> None:
        self.d = int(d)
        self._chunks: list[np.ndarray] = []
        self._x = np.zeros((0, self.d), dtype=np.float32)

    @property
    def ntotal(self) -> int:
        return int(self._x.shape[0] + sum(len(c) for c in self._chunks))

    def _matrix(self) -> np.ndarray:
        if self._chunks:
            self._x = np.ascontiguousarray(np.concatenate([self._x, *self._chunks]))
            self._chunks = []
        return self._x

    def add(self, x: np.ndarray) -> None:
        """Append the rows of ``x`` (float32, ``d`` columns)."""
        self._chunks.append(np.array(x, dtype=np.float32, copy=True).reshape(-1, self.d))

    def search(self, q: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """Top-``k`` scores and row numbers of each query row (``-1`` past the last row)."""
        x = self._matrix()
        n, nq = len(x), len(q)
        scores = np.full((nq, k), _NO_SCORE, dtype=np.float32)
        rows = np.full((nq, k), -1, dtype=np.int64)
        kk = min(k, n)
        if kk <= 0:
            return scores, rows
        step = max(1, _SEARCH_BLOCK // max(n, 1))
        for s in range(0, nq, step):
            sim = q[s:s + step] @ x.T
            top = np.argpartition(-sim, kk - 1, axis=1)[:, :kk] if kk < n else \
                np.broadcast_to(np.arange(n), (len(sim), n))
            sc = np.take_along_axis(sim, top, axis=1)
            order = np.lexsort((top, -sc), axis=1)
            rows[s:s + step, :kk] = np.take_along_axis(top, order, axis=1)
            scores[s:s + step, :kk] = np.take_along_axis(sc, order, axis=1)
        return scores, rows

    def write(self, path: str | Path) -> None:
        """Write in FAISS's ``IndexFlatIP`` file format."""
        x = self._matrix()
        with open(path, "wb") as f:
            f.write(_HEADER.pack(_FLAT_IP, self.d, len(x), _UNUSED, _UNUSED, True, 0))
            f.write(_COUNT.pack(x.size))
            f.write(np.ascontiguousarray(x, dtype="<f4").tobytes())

    @classmethod
    def read(cls, path: str | Path) -> "ExactIndex":
        """Read a file written by :meth:`write` or by FAISS for an ``IndexFlatIP``.

        Raises :class:`IndexNeedsFaiss` for any other FAISS index type.
        """
        with open(path, "rb") as f:
            head = f.read(_HEADER.size)
            if head[:4] != _FLAT_IP or len(head) < _HEADER.size:
                raise IndexNeedsFaiss(f"{path}: a FAISS index of type {head[:4]!r}, which only "
                                      "FAISS reads (pip install 'sparql-verifier[faiss]')")
            _, d, ntotal, _, _, _, metric = _HEADER.unpack(head)
            (count,) = _COUNT.unpack(f.read(_COUNT.size))
            data = np.frombuffer(f.read(4 * count), dtype="<f4")
        if metric != 0 or count != d * ntotal or len(data) != count:
            raise ValueError(f"{path}: not a flat inner-product index, or truncated")
        index = cls(d)
        index._x = data.astype(np.float32).reshape(ntotal, d)
        return index


@dataclass(frozen=True)
class VectorIndex:
    """A built index (FAISS, or :class:`ExactIndex` without it) and its concrete kind
    (``flat``, ``hnsw`` or ``ivf``)."""

    index: Any
    kind: str
    dim: int

    @property
    def ntotal(self) -> int:
        return int(self.index.ntotal)

    @classmethod
    def build(cls, vectors: np.ndarray, spec: IndexSpec = IndexSpec(), *,
              progress: bool = False, chunk: int = 50_000) -> "VectorIndex":
        """Index the rows of ``vectors`` (float32, L2-normalized) as described by ``spec``."""
        faiss = _faiss()
        x = np.ascontiguousarray(vectors, dtype=np.float32)
        if x.ndim != 2:
            raise ValueError(f"vectors must be a 2-d array, got shape {x.shape}")
        n, d = x.shape
        kind = spec.resolve(n)
        if kind == "ivf" and n < 39:  # k-means needs training points; tiny sets are exact anyway
            log.info("only %d vectors: using a flat index instead of IVF", n)
            kind = "flat"
        if faiss is None and kind != "flat":
            log.info("FAISS is not installed: exact search instead of %s over %d vectors "
                     "(pip install 'sparql-verifier[faiss]' for approximate search)", kind, n)
            kind = "flat"
        if faiss is None:
            index: Any = ExactIndex(d)
        elif kind == "flat":
            index = faiss.IndexFlatIP(d)
        elif kind == "hnsw":
            index = faiss.IndexHNSWFlat(d, spec.hnsw_m, faiss.METRIC_INNER_PRODUCT)
            index.hnsw.efConstruction = spec.ef_construction
            index.hnsw.efSearch = spec.ef_search
        else:
            nlist = spec.ivf_nlist or max(1, min(int(4 * math.sqrt(max(n, 1))), max(n // 39, 1)))
            quantizer = faiss.IndexFlatIP(d)
            index = faiss.IndexIVFFlat(quantizer, d, nlist, faiss.METRIC_INNER_PRODUCT)
            rng = np.random.default_rng(spec.seed)
            sample = x if n <= nlist * 64 else x[np.sort(rng.choice(n, nlist * 64, replace=False))]
            index.cp.seed = spec.seed
            log.info("training IVF with %d lists on %d vectors", nlist, len(sample))
            index.train(sample)
            index.nprobe = min(spec.ivf_nprobe, nlist)
        starts: Any = range(0, n, chunk)
        if progress and n > chunk:
            from tqdm import tqdm

            starts = tqdm(starts, desc=f"indexing ({kind})", unit="chunk", mininterval=1.0)
        for s in starts:
            index.add(x[s:s + chunk])
        return cls(_maybe_gpu(index, kind), kind, d)

    def search(self, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """Top-``k`` inner products and row numbers (``-1`` where fewer rows exist)."""
        q = np.ascontiguousarray(queries, dtype=np.float32)
        if q.ndim == 1:
            q = q[None, :]
        if q.shape[1] != self.dim:
            raise ValueError(f"query dimension {q.shape[1]} != index dimension {self.dim}")
        if self.ntotal == 0 or k <= 0:
            return (np.zeros((len(q), max(k, 0)), np.float32),
                    np.full((len(q), max(k, 0)), -1, np.int64))
        return self.index.search(q, k)

    def save(self, path: str | Path) -> None:
        """Write the index to ``path`` (FAISS native format)."""
        if isinstance(self.index, ExactIndex):
            self.index.write(path)
            return
        faiss = _faiss()
        index = self.index
        if hasattr(faiss, "index_gpu_to_cpu") and type(index).__name__.startswith("Gpu"):
            index = faiss.index_gpu_to_cpu(index)  # pragma: no cover - GPU only
        faiss.write_index(index, str(path))

    @classmethod
    def load(cls, path: str | Path, kind: str, spec: IndexSpec | None = None) -> "VectorIndex":
        """Read an index written by :meth:`save`; search parameters come from ``spec``.

        Without FAISS only flat indexes can be read (:class:`IndexNeedsFaiss` otherwise).
        """
        faiss = _faiss()
        if faiss is None:
            exact = ExactIndex.read(path)
            return cls(exact, "flat", exact.d)
        index = faiss.read_index(str(path))
        if spec is not None:
            if kind == "hnsw":
                faiss.downcast_index(index).hnsw.efSearch = spec.ef_search
            elif kind == "ivf":
                faiss.extract_index_ivf(index).nprobe = spec.ivf_nprobe
        return cls(_maybe_gpu(index, kind), kind, int(index.d))


def _maybe_gpu(index: Any, kind: str) -> Any:
    faiss = _faiss()
    if faiss is None or kind != "flat" or not hasattr(faiss, "get_num_gpus"):
        return index
    try:
        if faiss.get_num_gpus() > 0:  # pragma: no cover - no GPU in CI
            return faiss.index_cpu_to_all_gpus(index)
    except Exception as e:  # noqa: BLE001 - fall back to CPU on any GPU problem
        log.warning("GPU index unavailable, using CPU: %s", e)
    return index
