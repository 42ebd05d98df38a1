"""SPARQL front end over every query of ../shared/data (issue 2, done-when 1 and 3).

Parses and translates every `sparql` / `gold_sparql` field of every shared file, reports
per-file counts (translated, unsupported with the construct, syntax errors), and in the same
run times rdflib's `prepareQuery` on the same queries (with the same implicit Wikidata
prefixes).  Times are CPU times of this process (`time.process_time`), best of `--repeat`
interleaved rounds, so that other load on the machine affects both sides alike.  The last line
is exactly `translated=<percent> ratio_vs_rdflib=<x>` (rdflib time / our time).

    python bench/sparql_frontend.py [--repeat 3] [--rdflib-sample N]
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from parsers.sparql import SparqlSyntaxError, UnsupportedFeature, parse_query  # noqa: E402
from parsers.sparql import TranslationError  # noqa: E402

SHARED = ROOT.parent / "shared" / "data"


def shared_queries(shared: Path = SHARED) -> list[tuple[str, str, str]]:
    """(file, field, query) for every query string under ``shared``."""
    out = []
    for f in sorted(shared.glob("**/*.jsonl")):
        rel = str(f.relative_to(shared))
        for line in f.open(encoding="utf-8"):
            d = json.loads(line)
            for field in ("sparql", "gold_sparql"):
                if isinstance(d.get(field), str):
                    out.append((rel, field, d[field]))
    return out


def ours(queries: list[str]) -> float:
    t = time.process_time()
    for q in queries:
        try:
            parse_query(q)
        except (SparqlSyntaxError, UnsupportedFeature):
            pass
    return time.process_time() - t


def theirs(queries: list[str]) -> float:
    from rdflib import Namespace
    from rdflib.plugins.sparql import prepareQuery

    from verifier.namespaces import WIKIDATA_PREFIXES

    # rdflib logs a traceback for every ill-formed typed literal ("1990-00-00"^^xsd:date)
    logging.getLogger("rdflib.term").setLevel(logging.CRITICAL)
    ns = {k: Namespace(v) for k, v in WIKIDATA_PREFIXES.items()}
    t = time.process_time()
    for q in queries:
        try:
            prepareQuery(q, initNs=ns)
        except Exception:  # rdflib raises many types; only the time matters here
            pass
    return time.process_time() - t


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3, help="interleaved timing rounds (best is kept)")
    ap.add_argument("--rdflib-sample", type=int, default=0,
                    help="time both on a random sample of N queries instead of all (faster)")
    args = ap.parse_args(argv)
    if not SHARED.is_dir():
        print(f"shared data not found at {SHARED}", file=sys.stderr)
        return 2
    items = shared_queries()
    per_file: dict[str, Counter] = defaultdict(Counter)
    unsupported: Counter = Counter()
    syntax: list[str] = []
    unexpected = 0
    for f, field, q in items:
        try:
            parse_query(q)
            per_file[f]["translated"] += 1
        except TranslationError as e:
            per_file[f]["internal_error"] += 1
            unexpected += 1
            print(f"INTERNAL ERROR in {f}: {e}", file=sys.stderr)
        except UnsupportedFeature as e:
            per_file[f]["unsupported"] += 1
            unsupported[e.feature] += 1
        except SparqlSyntaxError as e:
            per_file[f]["syntax_error"] += 1
            syntax.append(f"{f}: {str(e).splitlines()[0]}")
        except Exception as e:  # must never happen: counted as unexpected
            per_file[f]["unexpected_exception"] += 1
            unexpected += 1
            print(f"UNEXPECTED {type(e).__name__} in {f}: {e}", file=sys.stderr)
    total = Counter()
    print(f"{'file':48} {'queries':>8} {'translated':>10} {'unsupported':>11} {'syntax':>7}")
    for f in sorted(per_file):
        c = per_file[f]
        total.update(c)
        n = sum(c.values())
        print(f"{f:48} {n:8d} {c['translated']:10d} {c['unsupported']:11d} {c['syntax_error']:7d}")
    n = sum(total.values())
    print(f"{'TOTAL':48} {n:8d} {total['translated']:10d} {total['unsupported']:11d} {total['syntax_error']:7d}")
    print(f"unexpected exceptions: {unexpected}")
    print("unsupported constructs:", dict(unsupported.most_common()))
    print(f"syntax errors ({len(syntax)}):")
    for s in syntax:
        print("   ", s)

    queries = [q for _, _, q in items]
    if args.rdflib_sample:
        queries = random.Random(0).sample(queries, min(args.rdflib_sample, len(queries)))
    ours(queries[:200])  # warm up (grammar and parser tables are built once per process)
    best_ours = best_theirs = float("inf")
    for r in range(args.repeat):
        best_ours = min(best_ours, ours(queries))
        best_theirs = min(best_theirs, theirs(queries))
        print(f"round {r + 1}: ours {1000 * best_ours / len(queries):.3f} ms/query, "
              f"rdflib {1000 * best_theirs / len(queries):.3f} ms/query (best so far)")
    translated = 100 * total["translated"] / max(1, n)
    print(f"translated={translated:.2f} ratio_vs_rdflib={best_theirs / best_ours:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
