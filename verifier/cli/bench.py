"""``verifier bench``: build, list and check the hallucination benchmark datasets.

    verifier bench build [--data DIR] [--out DIR] [--seed N] [--datasets a,b] [--workers N]
    verifier bench list  [--out DIR] [--json]
    verifier bench check [--out DIR] [--data DIR] [--sample N]

``build`` writes one JSONL per dataset (perturbations, unknown_uri, unknown_template,
out_of_ontology, out_of_domain, llm_predictions) plus ``manifest.json`` into ``--out``
(default ``bench/out/datasets``, git-ignored) and prints the counts per category and split.
Same seed, same code, same data: byte-identical files.  ``check`` re-verifies the built
files: perturbed queries parse and are not equivalent to their gold query (a seeded sample,
or all with ``--sample 0``), and the splits hold their defining properties.

Exit codes: 0 ok; 1 a check failed (split property, perturbation equivalent to its gold,
file hash differs from the manifest); 2 usage error (missing data folder, unknown dataset).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from verifier.cli import EXIT_FAIL, EXIT_OK, UsageError

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``verifier bench`` and its subcommands."""
    p = subparsers.add_parser(
        "bench", help="build / list / check the hallucination benchmark datasets",
        description=__doc__.split("\n\n", 2)[2].split("Exit codes")[0].strip(),
        epilog="Exit codes: 0 ok, 1 a check failed, 2 usage error. See docs/benchmark.md.",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="bench_command", metavar="SUBCOMMAND")
    p.set_defaults(func=lambda a: (p.print_help(), 2)[1])

    b = sub.add_parser("build", help="build the datasets (deterministic in --seed)",
                       description="Build the benchmark datasets from the shared data. "
                       "Long: the perturbation set runs ~10 equivalence checks per gold pair "
                       "(6.5 min for all 9.6k pairs with 1 worker on an idle 2-core machine, "
                       "about 25 min on a busy one before the chase refuter); use "
                       "--max-pairs for a quick build.")
    b.add_argument("--data", type=Path, default=None,
                   help="shared data folder (default $VERIFIER_BENCH_DATA or ../shared/data)")
    b.add_argument("--out", type=Path, default=None,
                   help="output folder (default bench/out/datasets)")
    b.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    b.add_argument("--datasets", default=None,
                   help="comma-separated subset of: perturbations, unknown_uri, "
                        "unknown_template, out_of_ontology, out_of_domain, llm_predictions")
    b.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    b.add_argument("--max-pairs", type=int, default=None,
                   help="perturb a seeded sample of this many gold pairs (default: all)")
    b.add_argument("--max-attempts", type=int, default=8,
                   help="candidates tried per category and pair (default 8)")
    b.add_argument("--timeout-ms", type=int, default=4000,
                   help="Z3 budget per equivalence check direction, in ms of solving, enforced "
                        "as a deterministic resource limit (default 4000)")
    b.add_argument("--retry-timeout-ms", type=int, default=30000,
                   help="an undecided check is retried once with this budget (default 30000)")
    b.add_argument("--ood-extra", type=int, default=1000,
                   help="out-of-domain utterances beyond the 1,000 with MRS (default 1000)")
    b.add_argument("--json", action="store_true", help="print the manifest as JSON")
    b.add_argument("--no-progress", action="store_true", help="no progress bars")
    b.set_defaults(func=_build)

    ls = sub.add_parser("list", help="list the built datasets and their counts")
    ls.add_argument("--out", type=Path, default=None, help="datasets folder")
    ls.add_argument("--json", action="store_true")
    ls.set_defaults(func=_list)

    c = sub.add_parser("check", help="re-verify built datasets (exit 1 on a violation)")
    c.add_argument("--out", type=Path, default=None, help="datasets folder")
    c.add_argument("--data", type=Path, default=None,
                   help="shared data folder, for the label file (default as for build)")
    c.add_argument("--sample", type=int, default=300,
                   help="perturbed records re-checked for equivalence (0 = all; default 300)")
    c.add_argument("--timeout-ms", type=int, default=4000)
    c.set_defaults(func=_check)


def _out(args: argparse.Namespace) -> Path:
    from verifier.benchmark.paths import default_out_dir

    return args.out if args.out is not None else default_out_dir()


def _build(args: argparse.Namespace) -> int:
    import time

    from verifier.benchmark.build import DATASET_NAMES, BuildConfig, BuildError, build_all
    from verifier.benchmark.paths import default_data_dir

    data = args.data if args.data is not None else default_data_dir()
    if not data.is_dir():
        raise UsageError(f"shared data folder not found: {data} (pass --data)")
    names = tuple(x.strip() for x in args.datasets.split(",") if x.strip()) if args.datasets \
        else DATASET_NAMES
    try:
        cfg = BuildConfig(data, _out(args), seed=args.seed, datasets=names, workers=args.workers,
                          max_pairs=args.max_pairs, max_attempts=args.max_attempts,
                          timeout_ms=args.timeout_ms, retry_timeout_ms=args.retry_timeout_ms,
                          ood_extra=args.ood_extra,
                          progress=not args.no_progress)
    except ValueError as e:
        raise UsageError(str(e)) from None
    t0 = time.perf_counter()
    try:
        manifest = build_all(cfg)
    except FileNotFoundError as e:
        raise UsageError(str(e)) from None
    except BuildError as e:
        print(f"verifier bench build: check failed:\n{e}", file=sys.stderr)
        return EXIT_FAIL
    if args.json:
        print(json.dumps(manifest, indent=1, sort_keys=True))
    else:
        print(summary_text(manifest, only=names))
        print(f"\nwritten to {cfg.out_dir} in {time.perf_counter() - t0:.0f} s")
    return EXIT_OK


def summary_text(manifest: dict, only: tuple[str, ...] | None = None) -> str:
    """Human-readable counts of a manifest (per dataset: category x split/source)."""
    lines = [f"seed {manifest['config']['seed']}, code {manifest['code_version']['source_sha256'][:12]}, "
             f"{manifest['gold_pairs']['total']} gold pairs "
             f"({manifest['gold_pairs']['with_mrs_reading']} with an MRS reading)"]
    for name, d in manifest["datasets"].items():
        if only and name not in only:
            continue
        lines.append(f"\n== {name}: {d['records']} records, labels {d['labels']}, "
                     f"has_mrs {d['has_mrs']}")
        counts = d.get("counts", {})
        cols = sorted({c for row in counts.values() for c in row})
        if len(cols) > 8:  # many sources: show totals per row
            for row, v in counts.items():
                lines.append(f"  {row:<22} {sum(v.values()):>6}  " + ", ".join(
                    f"{k} {n}" for k, n in sorted(v.items(), key=lambda kv: -kv[1])[:6]))
        else:
            lines.append("  " + " " * 22 + "".join(f"{c[:18]:>20}" for c in cols) + f"{'total':>8}")
            for row, v in counts.items():
                lines.append(f"  {row:<22}" + "".join(f"{v.get(c, 0):>20}" for c in cols)
                             + f"{sum(v.values()):>8}")
        if "dropped_candidates" in d:
            lines.append(f"  dropped candidates: {d['dropped_candidates']}")
            lines.append(f"  gold pairs: {d['gold_pairs_used']} used, status {d['pair_status']}")
        if "f1_vs_equivalence" in d:
            lines.append(f"  score_f1 class vs equivalent(): {d['f1_vs_equivalence']}")
        if "stats" in d:
            lines.append(f"  stats: {d['stats']}")
    return "\n".join(lines)


def _list(args: argparse.Namespace) -> int:
    from verifier.benchmark.records import list_datasets

    m = list_datasets(_out(args))
    if not m:
        print(f"no datasets in {_out(args)} (run 'verifier bench build')")
        return EXIT_OK
    if args.json:
        print(json.dumps(m, indent=1, sort_keys=True))
    else:
        print(summary_text(m))
    return EXIT_OK


def _check(args: argparse.Namespace) -> int:
    from verifier.benchmark.check import check_datasets

    out = _out(args)
    if not out.is_dir():
        raise UsageError(f"datasets folder not found: {out}")
    from verifier.benchmark.paths import default_data_dir

    data = args.data if args.data is not None else default_data_dir()
    problems, notes = check_datasets(out, sample=args.sample, timeout_ms=args.timeout_ms,
                                     labels_path=data / "wikidata" / "labels.tsv")
    for n in notes:
        print(n)
    if problems:
        print(f"{len(problems)} problem(s):", file=sys.stderr)
        for p in problems[:50]:
            print("  " + p, file=sys.stderr)
        return EXIT_FAIL
    print("all checks passed")
    return EXIT_OK
