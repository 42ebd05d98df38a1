"""PGMR memory at scale: 1,000,000 synthetic labels.

Synthetic labels are 1-4 pseudo-words drawn from a 30,000-word pseudo-vocabulary (seed 0,
deterministic), so labels share words and near neighbours exist.  The memory is built with
the default encoder and the automatic index choice (HNSW above 200,000 rows; ``--index-type``
overrides), saved to a temporary folder (index size = bytes on disk), then queried with
``--queries`` labels carrying one typo each, one query at a time (k=10):

* FAISS: encode the label + search the index;
* numpy brute force: encode the label + one matrix-vector product over all vectors + top-10.

Latency is end to end per query (encoding included); search-only figures and the recall of
FAISS against the exact numpy result are printed too.  RSS is the peak resident set size of
the process (the numpy matrix is a second copy of the vectors).

Run with ``nice`` on a shared machine.  Last line:
build_s=<x> p50_ms=<x> p95_ms=<x> speedup_vs_numpy=<x> rss_mb=<x>
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from pgmr_common import peak_rss_mb, setup_logging

from verifier.pgmr import HashedNgramEncoder, IndexSpec, Kind, Memory, Symbol
from verifier.pgmr.degrade import typo

_ONSET = ["b", "c", "d", "f", "g", "h", "j", "k", "l", "m", "n", "p", "r", "s", "t", "v", "w",
          "z", "br", "ch", "dr", "gr", "kl", "pr", "sh", "st", "th", "tr"]
_VOWEL = ["a", "e", "i", "o", "u", "ai", "ea", "ou", "y"]
_CODA = ["", "", "", "n", "r", "s", "l", "m", "nd", "st", "x"]


def synthetic_labels(n: int, seed: int = 0, vocab: int = 30_000) -> list[str]:
    """``n`` distinct pseudo-English labels (deterministic)."""
    rng = random.Random(seed)
    words: dict[str, None] = {}
    while len(words) < vocab:
        w = "".join(rng.choice(_ONSET) + rng.choice(_VOWEL) + rng.choice(_CODA)
                    for _ in range(rng.choice((1, 2, 2, 3))))
        words.setdefault(w, None)
    wl = list(words)
    out: dict[str, None] = {}
    while len(out) < n:
        k = rng.choices((1, 2, 3, 4), weights=(2, 4, 3, 1))[0]
        out.setdefault(" ".join(rng.choice(wl) for _ in range(k)), None)
    return list(out)


def dir_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def pct(xs, q):
    return float(np.percentile(np.asarray(xs) * 1000.0, q))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=1_000_000, help="number of labels")
    ap.add_argument("--queries", type=int, default=1000)
    ap.add_argument("--index-type", default="auto", choices=("auto", "flat", "hnsw", "ivf"))
    ap.add_argument("--threads", type=int, default=0,
                    help="FAISS/OpenMP threads for building (0: FAISS default)")
    ap.add_argument("--keep", type=Path, default=None, help="save the memory here (kept)")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    setup_logging(args.verbose)
    import faiss

    if args.threads:
        faiss.omp_set_num_threads(args.threads)

    t0 = time.perf_counter()
    labels = synthetic_labels(args.n)
    gen_s = time.perf_counter() - t0
    symbols = [Symbol(f"Q{i + 1}", lab, Kind.ITEM) for i, lab in enumerate(labels)]
    print(f"{len(labels)} synthetic labels generated in {gen_s:.1f}s "
          f"(e.g. {labels[0]!r}, {labels[1]!r}, {labels[2]!r})")

    enc = HashedNgramEncoder()
    spec = IndexSpec(kind=args.index_type)
    t0, c0 = time.perf_counter(), time.process_time()
    mem = Memory.build(symbols, enc, spec=spec, progress=args.verbose)
    build_s = time.perf_counter() - t0
    build_cpu = time.process_time() - c0
    part = mem.partitions["item"]
    rss_build = peak_rss_mb()
    print(f"build: {build_s:.1f}s wall ({build_cpu:.1f}s CPU, all threads) for "
          f"{part.index.ntotal} rows, index {part.index.kind} (encoder {enc.identity}); "
          f"peak RSS after build {rss_build:.0f} MiB")
    print(f"  FAISS threads {faiss.omp_get_max_threads()}, load average at end of build "
          f"{' '.join(f'{x:.1f}' for x in __import__('os').getloadavg())}")

    tmp = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="pgmr_scale_"))
    t0 = time.perf_counter()
    mem.save(tmp)
    save_s = time.perf_counter() - t0
    faiss_bytes = (tmp / "item.faiss").stat().st_size
    total_bytes = dir_size(tmp)
    print(f"saved in {save_s:.1f}s: FAISS index {faiss_bytes / 2**20:.0f} MiB, whole memory "
          f"folder {total_bytes / 2**20:.0f} MiB")
    if not args.keep:
        shutil.rmtree(tmp, ignore_errors=True)

    # the same vectors for numpy brute force (re-encoded: the index owns its copy)
    t0 = time.perf_counter()
    matrix = enc.encode(list(part.texts))
    print(f"numpy matrix {matrix.shape} {matrix.nbytes / 2**20:.0f} MiB, encoded in "
          f"{time.perf_counter() - t0:.1f}s")

    rng = random.Random(1)
    targets = rng.sample(range(len(labels)), args.queries)
    queries = [typo(labels[i], random.Random(f"q{i}")) for i in targets]
    faiss.omp_set_num_threads(1)   # single-query latency, no thread spin-up
    k = 10
    f_total, f_search, n_total, n_search = [], [], [], []
    f_top, n_top = [], []
    for q in queries:
        t0 = time.perf_counter()
        v = enc.encode([q])
        t1 = time.perf_counter()
        _, rows = part.index.search(v, k)
        t2 = time.perf_counter()
        f_total.append(t2 - t0)
        f_search.append(t2 - t1)
        f_top.append(rows[0])
        t0 = time.perf_counter()
        v = enc.encode([q])
        t1 = time.perf_counter()
        s = matrix @ v[0]
        top = np.argpartition(-s, k)[:k]
        top = top[np.argsort(-s[top])]
        t2 = time.perf_counter()
        n_total.append(t2 - t0)
        n_search.append(t2 - t1)
        n_top.append(top)
    r1 = np.mean([f[0] == e[0] for f, e in zip(f_top, n_top)])
    r10 = np.mean([len(set(f) & set(e)) / k for f, e in zip(f_top, n_top)])
    hit = np.mean([t in f[:k] for t, f in zip(targets, f_top)])
    print(f"queries: {len(queries)} labels with one typo, one at a time, k={k}")
    print(f"  FAISS {part.index.kind}: end-to-end p50 {pct(f_total, 50):.2f} ms, "
          f"p95 {pct(f_total, 95):.2f} ms; search only p50 {pct(f_search, 50):.2f} ms, "
          f"p95 {pct(f_search, 95):.2f} ms")
    print(f"  numpy brute force: end-to-end p50 {pct(n_total, 50):.2f} ms, "
          f"p95 {pct(n_total, 95):.2f} ms; search only p50 {pct(n_search, 50):.2f} ms")
    print(f"  FAISS vs exact: recall@1 {100 * r1:.1f}%, recall@10 {100 * r10:.1f}%; "
          f"intended label in FAISS top-10 {100 * hit:.1f}%")
    speedup = pct(n_total, 50) / pct(f_total, 50)
    speedup_search = pct(n_search, 50) / pct(f_search, 50)
    print(f"  speedup (p50 end to end) {speedup:.1f}x; search only {speedup_search:.1f}x")
    rss = peak_rss_mb()
    print(f"build_s={build_s:.1f} p50_ms={pct(f_total, 50):.3f} p95_ms={pct(f_total, 95):.3f} "
          f"speedup_vs_numpy={speedup:.1f} rss_mb={rss:.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
