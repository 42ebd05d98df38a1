"""Query equivalence over the shared gold queries (issue 2, done-when 2).

For every distinct gold query of ../shared/data that translates: a copy with variables
renamed and triples reordered must be `equivalent`; copies with one required triple's
subject/object swapped, its property replaced by another property, or one required triple
dropped must not be.  Prints the rates; the last line is
`renamed_equivalent=<percent> mutated_not_equivalent=<percent>`.

    python bench/equivalence.py [--limit N] [--workers 2]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from parsers.sparql import SparqlError, parse_query, parse_tree  # noqa: E402
from parsers.sparql_generate import generate  # noqa: E402
from parsers.sparql_transform import (  # noqa: E402
    dropped_triple, renamed_and_shuffled, replaced_property, swapped_direction,
)
from verifier.prover import equivalent  # noqa: E402

SHARED = ROOT.parent / "shared" / "data"


def gold_queries(shared: Path = SHARED) -> list[str]:
    """Distinct gold queries (`sparql` of the datasets, `gold_sparql` of the predictions)."""
    seen: dict[str, None] = {}
    for f in sorted(shared.glob("**/*.jsonl")):
        for line in f.open(encoding="utf-8"):
            d = json.loads(line)
            key = "gold_sparql" if "llm_predictions" in f.parts else "sparql"
            q = d.get(key)
            if isinstance(q, str) and q.strip():
                seen.setdefault(q, None)
    return list(seen)


def properties_of(queries: list[str]) -> list[str]:
    import re

    return sorted({m for q in queries for m in re.findall(r"\b(P\d+)\b", q)})


def check(args: tuple[int, str, list[str]]) -> dict:
    i, text, props = args
    rng = random.Random(i)
    out = {"ok": False}
    try:
        tree = parse_tree(text)
        base = parse_query(text)
    except SparqlError:
        return out
    out["ok"] = True
    variant = parse_query(generate(renamed_and_shuffled(tree, rng)))
    r = equivalent(base, variant)
    out["renamed"] = r.equivalent
    for name, fn in (("swap", lambda: swapped_direction(tree, rng)),
                     ("property", lambda: replaced_property(tree, rng, props)),
                     ("drop", lambda: dropped_triple(tree, rng))):
        mutated = fn()
        if mutated is None:
            continue
        try:
            mq = parse_query(generate(mutated))
        except SparqlError as e:
            out[name] = f"error: {e}"
            continue
        out[name] = equivalent(base, mq).equivalent
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=0, help="only the first N distinct queries")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args(argv)
    if not SHARED.is_dir():
        print(f"shared data not found at {SHARED}", file=sys.stderr)
        return 2
    queries = gold_queries()
    if args.limit:
        queries = queries[: args.limit]
    props = properties_of(queries)
    t0 = time.time()
    with ProcessPoolExecutor(args.workers) as ex:
        results = list(ex.map(check, [(i, q, props) for i, q in enumerate(queries)], chunksize=20))
    counts: Counter = Counter()
    for r in results:
        if not r["ok"]:
            counts["untranslatable"] += 1
            continue
        counts["translated"] += 1
        counts[f"renamed={r['renamed']}"] += 1
        for k in ("swap", "property", "drop"):
            if k in r:
                counts[f"{k}={r[k]}"] += 1
    print(f"distinct gold queries: {len(queries)}  translated: {counts['translated']}  "
          f"({time.time() - t0:.0f} s)")
    for k in sorted(counts):
        print(f"  {k}: {counts[k]}")
    ren_ok = counts["renamed=True"]
    ren_total = sum(v for k, v in counts.items() if k.startswith("renamed="))
    mut_not = sum(counts[f"{k}=False"] for k in ("swap", "property", "drop"))
    mut_total = sum(v for k, v in counts.items() if k.split("=")[0] in ("swap", "property", "drop"))
    print(f"renamed_equivalent={100 * ren_ok / max(1, ren_total):.2f} "
          f"mutated_not_equivalent={100 * mut_not / max(1, mut_total):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
