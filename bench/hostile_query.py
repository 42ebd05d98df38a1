"""Time of ``verify`` on a hostile query of many triples (issue 58, bounded work).

Builds a query of ``--triples`` triple patterns (seeded: Wikidata items, properties and
variables chained into one pattern) for an ordinary question with readings in the shared
MRS corpus, verifies it once with the shared corpora and labels, and prints the seconds
(wall and CPU), the decision and the reason.  ``--set section.key=value`` overrides a
configuration setting (as in ``bench/verify_latency.py``), ``--profile`` prints the hot
functions.

    PYTHONPATH=$PWD python bench/hostile_query.py [--triples 3000] [--set limits.query_triples=100000]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.verify_latency import SHARED, config_text  # noqa: E402

QUESTION = "Who is the spouse of Cary Grant?"  # in the shared MRS corpus


def hostile_query(n: int, seed: int = 0) -> str:
    """A SELECT of ``n`` triple patterns chained through variables (seeded)."""
    rng = random.Random(seed)
    lines = ["PREFIX wd: <http://www.wikidata.org/entity/>",
             "PREFIX wdt: <http://www.wikidata.org/prop/direct/>",
             "SELECT ?x0 WHERE {", "  wd:Q76 wdt:P26 ?x0 ."]
    for i in range(1, n):
        s = f"?x{rng.randrange(i)}"
        o = f"wd:Q{rng.randrange(1, 10**6)}" if rng.random() < 0.4 else f"?x{i}"
        lines.append(f"  {s} wdt:P{rng.randrange(1, 5000)} {o} .")
    lines.append("}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--triples", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--set", action="append", default=[], metavar="SECTION.KEY=VALUE")
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args(argv)
    if not SHARED.is_dir():
        print(f"shared data not found at {SHARED}", file=sys.stderr)
        return 2
    from verifier.api import Verifier
    from verifier.config import load_config

    cfg = Path(tempfile.mkdtemp(prefix="hostile_")) / "verifier.toml"
    cfg.write_text(config_text(args.set), encoding="utf-8")
    v = Verifier(load_config(cfg, environ={}, cwd=cfg.parent))
    sparql = hostile_query(args.triples, args.seed)
    v.verify(QUESTION, "SELECT ?x WHERE { wd:Q76 wdt:P26 ?x }")  # warm up
    prof = cProfile.Profile() if args.profile else None
    w, c = time.perf_counter(), time.process_time()
    if prof:
        prof.enable()
    r = v.verify(QUESTION, sparql)
    if prof:
        prof.disable()
    wall, cpu = time.perf_counter() - w, time.process_time() - c
    if prof:
        pstats.Stats(prof).sort_stats("cumulative").print_stats(30)
    reason = (r.deductive.reason if r.deductive else r.error) or ""
    print(f"triples={args.triples} chars={len(sparql)} decision={r.decision} reason={reason[:200]!r}")
    print(f"timings_ms={ {k: round(x) for k, x in r.timings.items()} }")
    print(f"hostile_wall_s={wall:.2f} hostile_cpu_s={cpu:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
