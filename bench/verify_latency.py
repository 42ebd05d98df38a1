"""Time per pair of ``verify`` on the LLM predictions (issue 58, latency).

Verifies the LLM predictions (``/work/data/datasets/llm_predictions.jsonl`` or ``--data``)
with the shared MRS corpora and labels (no ACE), in ``--workers`` processes, and prints the
wall-clock and CPU seconds per pair (p50 / p95 / p99 / max), the 10 slowest pairs with the
stage their time went to (the largest entry of ``Verdict.timings``; the deductive stage is
split by :class:`verifier.limits.Deadline` into its own stages when the pair records them),
and a last line ``pairs=<n> wall_p50=... wall_p99=... cpu_p99=... max=...``.  ``--out``
writes one JSON line per pair (``id``, ``category``, ``decision``, ``reason``, seconds):
two such files compare with ``bench/decision_diff.py``.

    PYTHONPATH=$PWD python bench/verify_latency.py --limit 600 --seed 0 --workers 2 \\
        --out /tmp/i58-bound/after.jsonl
    PYTHONPATH=$PWD python bench/verify_latency.py --ids slow_ids.txt --profile 3

``--limit N`` draws a seeded sample of N predictions (``--seed``), kept in file order;
``--ids FILE`` verifies only the ids listed there (one a line, or a ``--out`` JSONL of an
earlier run with ``--slowest K`` to take its K slowest); ``--profile K`` profiles the K
slowest pairs of the run again in this process (cProfile) and prints their hot functions;
``--set section.key=value`` overrides a configuration setting (``--set limits.deadline_s=0``
runs without a deadline).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import random
import statistics
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SHARED = Path(os.environ.get("VERIFIER_BENCH_DATA", ROOT.parent / "shared" / "data"))
DEFAULT_DATA = Path("/work/data/datasets/llm_predictions.jsonl")

_STATE: dict = {}


def config_text(overrides: list[str]) -> str:
    """A ``verifier.toml`` naming the shared MRS corpora and labels, plus ``overrides``
    (``section.key=value``, the value read as TOML)."""
    corpora = [str(SHARED / "mrs" / f) for f in ("questions.jsonl.gz", "ood_sample.jsonl.gz", "chemistry.jsonl.gz")
               if (SHARED / "mrs" / f).is_file()]
    sections: dict[str, list[str]] = {"mrs": ["corpora = " + json.dumps(corpora)],
                                      "grounding": ["labels = " + json.dumps(str(SHARED / "wikidata" / "labels.tsv"))]}
    for o in overrides:
        key, _, value = o.partition("=")
        sec, _, name = key.strip().partition(".")
        sections.setdefault(sec, []).append(f"{name} = {value.strip()}")
    return "\n".join(f"[{s}]\n" + "\n".join(lines) + "\n" for s, lines in sections.items())


def _init(config_path: str) -> None:
    from verifier.api import Verifier
    from verifier.config import load_config

    _STATE["v"] = Verifier(load_config(config_path, environ={}, cwd=Path(tempfile.gettempdir())))


def stage_of(timings: dict) -> str:
    """The stage that took the most time: among the deadline's stages (``stage:...``) when the
    verdict records them, else among the coarse timings (``total`` left out)."""
    parts = {k[6:]: v for k, v in timings.items() if k.startswith("stage:")} or {
        k: v for k, v in timings.items() if k != "total"}
    return max(parts, key=parts.get) if parts else "-"


def _run(item: dict) -> dict:
    v = _STATE["v"]
    w, c = time.perf_counter(), time.process_time()
    try:
        r = v.verify(item["question"], item["sparql"])
        decision, verdict = r.decision, r.verdict
        reason = (r.deductive.reason if r.deductive else r.error) or ""
        timings = dict(r.timings)
    except Exception as e:  # the bench reports a crash, it does not stop on it
        decision, verdict, reason, timings = "crash", "crash", f"{type(e).__name__}: {e}", {}
    return {"id": item["id"], "category": item.get("category", ""), "decision": decision,
            "verdict": verdict, "reason": reason, "wall_s": time.perf_counter() - w,
            "cpu_s": time.process_time() - c, "stage": stage_of(timings),
            "timings_ms": {k: round(x, 1) for k, x in timings.items()}}


def pct(xs: list[float], q: float) -> float:
    """The ``q`` quantile (nearest rank) of ``xs``."""
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, int(round(q * len(s) + 0.5)) - 1))] if s else float("nan")


def load_items(path: Path, limit: int | None, seed: int, ids: set[str] | None) -> list[dict]:
    """The predictions to verify: all, those of ``ids``, or a seeded sample of ``limit``."""
    rows = [json.loads(line) for line in path.open(encoding="utf-8") if line.strip()]
    if ids is not None:
        rows = [r for r in rows if r["id"] in ids]
    if limit is not None and limit < len(rows):
        keep = set(random.Random(seed).sample(range(len(rows)), limit))
        rows = [r for i, r in enumerate(rows) if i in keep]
    return [{"id": r["id"], "category": r.get("category", ""), "question": r.get("question"),
             "sparql": r.get("sparql")} for r in rows]


def read_ids(path: Path, slowest: int | None) -> set[str]:
    """Ids listed in ``path`` (plain lines, or the JSONL of an earlier ``--out``: its
    ``slowest`` slowest pairs by wall-clock time when given)."""
    lines = [l.strip() for l in path.open(encoding="utf-8") if l.strip()]
    if lines and lines[0].startswith("{"):
        recs = [json.loads(l) for l in lines]
        if slowest:
            recs = sorted(recs, key=lambda r: -r["wall_s"])[:slowest]
        return {r["id"] for r in recs}
    return set(lines)


def profile(items: list[dict], top: int = 25) -> None:
    """Verify ``items`` again under cProfile in this process; print the hot functions."""
    prof = cProfile.Profile()
    v = _STATE["v"]
    for it in items:
        prof.enable()
        v.verify(it["question"], it["sparql"])
        prof.disable()
    s = io.StringIO()
    st = pstats.Stats(prof, stream=s)
    st.sort_stats("tottime").print_stats(top)
    st.sort_stats("cumulative").print_stats(top)
    print(s.getvalue())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--limit", type=int, default=None, help="a seeded sample of N predictions")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--ids", type=Path, default=None, help="verify only these ids (see the module doc)")
    ap.add_argument("--slowest", type=int, default=None, help="with --ids JSONL: its K slowest pairs")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--out", type=Path, default=None, help="per-pair JSONL")
    ap.add_argument("--set", action="append", default=[], metavar="SECTION.KEY=VALUE",
                    help="configuration override (TOML value), repeatable")
    ap.add_argument("--profile", type=int, default=0, help="profile the K slowest pairs again")
    args = ap.parse_args(argv)
    if not args.data.is_file() or not SHARED.is_dir():
        print(f"data not found ({args.data}, {SHARED})", file=sys.stderr)
        return 2
    ids = read_ids(args.ids, args.slowest) if args.ids else None
    items = load_items(args.data, args.limit, args.seed, ids)
    cfg = Path(tempfile.mkdtemp(prefix="verify_latency_")) / "verifier.toml"
    cfg.write_text(config_text(args.set), encoding="utf-8")
    print(f"{len(items)} pairs, {args.workers} worker(s), load average {os.getloadavg()[0]:.2f}", flush=True)
    t0 = time.perf_counter()
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers, initializer=_init, initargs=(str(cfg),)) as ex:
            results = list(ex.map(_run, items, chunksize=1))
    else:
        _init(str(cfg))
        results = [_run(it) for it in items]
    print(f"verified {len(results)} pairs in {time.perf_counter() - t0:.0f} s "
          f"(load average {os.getloadavg()[0]:.2f})")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        with args.out.open("w", encoding="utf-8") as f:
            for r in results:
                f.write(json.dumps(r, ensure_ascii=False) + "\n")
    wall = [r["wall_s"] for r in results]
    cpu = [r["cpu_s"] for r in results]
    decisions = {d: sum(r["decision"] == d for r in results) for d in sorted({r["decision"] for r in results})}
    print("decisions:", decisions)
    print("10 slowest pairs (wall s, cpu s, stage, decision, id, reason):")
    for r in sorted(results, key=lambda r: -r["wall_s"])[:10]:
        print(f"  {r['wall_s']:7.2f} {r['cpu_s']:7.2f}  {r['stage']:14} {r['decision']:8} {r['id'][:60]}  "
              f"{r['reason'][:70]}")
    if args.profile:
        slow = {r["id"] for r in sorted(results, key=lambda r: -r["wall_s"])[:args.profile]}
        if args.workers > 1:
            _init(str(cfg))
        profile([it for it in items if it["id"] in slow])
    for name, xs in (("wall", wall), ("cpu", cpu)):
        print(f"{name} s/pair: p50={pct(xs, .5):.3f} p95={pct(xs, .95):.3f} p99={pct(xs, .99):.3f} "
              f"max={max(xs):.3f} mean={statistics.fmean(xs):.3f}")
    print(f"pairs={len(results)} wall_p50={pct(wall, .5):.3f} wall_p95={pct(wall, .95):.3f} "
          f"wall_p99={pct(wall, .99):.3f} wall_max={max(wall):.3f} cpu_p50={pct(cpu, .5):.3f} "
          f"cpu_p95={pct(cpu, .95):.3f} cpu_p99={pct(cpu, .99):.3f} cpu_max={max(cpu):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
