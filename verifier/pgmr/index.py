"""A FAISS inner-product index over L2-normalized vectors, with the type chosen by size.

* ``flat``: exact search (``IndexFlatIP``); the default up to ``IndexSpec.flat_max`` vectors.
* ``hnsw``: graph-based approximate search (``IndexHNSWFlat``, inner product); the default
  above ``flat_max``.  Good recall without training; slower to build.
* ``ivf``: inverted lists (``IndexIVFFlat``, ``4 * sqrt(n)`` lists, trained on a
  deterministic sample); fast to build, recall set by ``nprobe``.

``IndexSpec(kind=...)`` overrides the automatic choice.  A flat index is moved to the GPU
when FAISS has GPU support and a GPU is present.
"""

from __future__ import annotations

import logging
import math
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["IndexSpec", "VectorIndex", "INDEX_KINDS"]

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


def _faiss() -> Any:
    import faiss

    return faiss


@dataclass(frozen=True)
class VectorIndex:
    """A built FAISS index and its concrete kind (``flat``, ``hnsw`` or ``ivf``)."""

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
        if kind == "flat":
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
        faiss = _faiss()
        index = self.index
        if hasattr(faiss, "index_gpu_to_cpu") and type(index).__name__.startswith("Gpu"):
            index = faiss.index_gpu_to_cpu(index)  # pragma: no cover - GPU only
        faiss.write_index(index, str(path))

    @classmethod
    def load(cls, path: str | Path, kind: str, spec: IndexSpec | None = None) -> "VectorIndex":
        """Read an index written by :meth:`save`; search parameters come from ``spec``."""
        faiss = _faiss()
        index = faiss.read_index(str(path))
        if spec is not None:
            if kind == "hnsw":
                faiss.downcast_index(index).hnsw.efSearch = spec.ef_search
            elif kind == "ivf":
                faiss.extract_index_ivf(index).nprobe = spec.ivf_nprobe
        return cls(_maybe_gpu(index, kind), kind, int(index.d))


def _maybe_gpu(index: Any, kind: str) -> Any:
    faiss = _faiss()
    if kind != "flat" or not hasattr(faiss, "get_num_gpus"):
        return index
    try:
        if faiss.get_num_gpus() > 0:  # pragma: no cover - no GPU in CI
            return faiss.index_cpu_to_all_gpus(index)
    except Exception as e:  # noqa: BLE001 - fall back to CPU on any GPU problem
        log.warning("GPU index unavailable, using CPU: %s", e)
    return index
