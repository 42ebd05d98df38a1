"""Shared helpers of the PGMR benchmark scripts (paths, memory construction, timing)."""

from __future__ import annotations

import argparse
import json
import logging
import resource
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

SHARED = REPO.parent / "shared" / "data"
LABELS = SHARED / "wikidata" / "labels.tsv"
LCQUAD_TEST = SHARED / "lcquad2" / "test.jsonl"

log = logging.getLogger("bench.pgmr")


def add_memory_args(p: argparse.ArgumentParser) -> None:
    """--labels / --index / --encoder options."""
    p.add_argument("--labels", type=Path, default=LABELS, help="labels TSV (default: shared)")
    p.add_argument("--index", type=Path, default=None,
                   help="load a memory saved by 'verifier pgmr build' instead of building one")
    p.add_argument("--encoder", default="hashed",
                   help="'hashed' (default, weight-free) or 'st:MODEL' (sentence-transformers "
                        "name or local path)")


def make_encoder(spec: str):
    """Encoder from a command-line spec."""
    from verifier.pgmr import HashedNgramEncoder, SentenceTransformerEncoder

    if spec == "hashed":
        return HashedNgramEncoder()
    if spec.startswith("st:"):
        return SentenceTransformerEncoder.load(spec[3:])
    raise SystemExit(f"unknown encoder {spec!r} (hashed or st:MODEL)")


def load_memory(args: argparse.Namespace):
    """Build (or load) the memory named by the options; logs the time taken."""
    from verifier.pgmr import Memory

    t = time.perf_counter()
    if args.index is not None:
        mem = Memory.load(args.index)
    else:
        if not args.labels.is_file():
            raise SystemExit(f"labels file not found: {args.labels}")
        mem = Memory.from_labels_tsv(args.labels, make_encoder(args.encoder))
    log.info("memory: %d symbols, encoder %s, %.1fs", len(mem), mem.encoder.identity,
             time.perf_counter() - t)
    return mem


def read_jsonl(path: Path, limit: int | None = None) -> list[dict]:
    """Records of a JSONL file (first ``limit``)."""
    if not path.is_file():
        raise SystemExit(f"data file not found: {path}")
    out = []
    with path.open(encoding="utf-8") as f:
        for line in f:
            if line.strip():
                out.append(json.loads(line))
                if limit and len(out) >= limit:
                    break
    return out


def peak_rss_mb() -> float:
    """Peak resident set size of this process in MiB (Linux ru_maxrss is in KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def setup_logging(verbose: bool) -> None:
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
