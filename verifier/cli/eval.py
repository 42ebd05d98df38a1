"""``verifier eval``: run verification signals over a benchmark dataset and report.

    verifier eval --dataset perturbations --signals deductive,pgmr --out bench/out/eval
    verifier eval --dataset llm_predictions --signals deductive,pgmr,hdm --hdm-model DIR

Computes per category (and overall, per source, per model, by MRS coverage): macro-F1,
precision and recall of rejecting hallucinations (positive = hallucination), accept-precision
(share of accepted queries that are correct), acceptance of correct queries, abstain rate
(abstentions are left out of precision/recall), ROC AUC of the score, and the confusion
matrix.  Partial-credit LLM predictions are reported as their own class.

Writes into --out: <dataset>.json, <dataset>.md (the tables), <dataset>.<signal>.items.jsonl
(per-item decisions and details) and PNG plots (score per category, precision-acceptance
curve); results are cached in --out/cache.sqlite keyed by (dataset, item, signal, signal
config), so a re-run after a crash or Ctrl-C skips finished items.

Signals: deductive (verifier.verify), pgmr (grounding, memory of wikidata/labels.tsv),
hdm (needs --hdm-model; it judges only records whose `model` field is the HDM scorer's model,
--hdm-model-name or its generator's folder, and abstains with `missing` on the others; the
stacked signal leaves HDM missing for them), stacked (needs verifier.stacked.benchmark_signal), syntax
(baseline: accept what parses).  A signal that is not available is reported as such.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from verifier.cli import EXIT_FAIL, EXIT_OK, UsageError

__all__ = ["register", "mc_trials", "hdm_model_name"]


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``verifier eval``."""
    p = subparsers.add_parser(
        "eval", help="evaluate verification signals on a benchmark dataset",
        description=__doc__.split("\n\n", 2)[2].strip(),
        epilog="Exit codes: 0 ok; 1 --fail-under not met or (with --require-all) a signal "
               "unavailable; 2 usage error (unknown dataset, dataset not built, bad option).",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--dataset", required=True,
                   help="perturbations, unknown_uri, unknown_template, out_of_ontology, "
                        "out_of_domain, llm_predictions, or a JSONL path")
    p.add_argument("--signals", default="deductive",
                   help="comma-separated: deductive, hdm, pgmr, stacked, syntax "
                        "(default deductive)")
    p.add_argument("--datasets-dir", type=Path, default=None,
                   help="built datasets (default bench/out/datasets)")
    p.add_argument("--out", type=Path, default=None, help="report folder (default bench/out/eval)")
    p.add_argument("--label", default="label", choices=("label", "label_equiv"),
                   help="label field: 'label' (score_f1 for LLM predictions) or "
                        "'label_equiv' (equivalent() against the gold query)")
    p.add_argument("--limit", type=int, default=None, help="evaluate a seeded sample of N items")
    p.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    p.add_argument("--item-timeout", type=float, default=600.0,
                   help="seconds per item and signal before it counts as abstain (default 600)")
    p.add_argument("--retry-errors", action="store_true", help="recompute cached errors")
    p.add_argument("--labels", type=Path, default=None,
                   help="labels TSV for the PGMR memory (default shared wikidata/labels.tsv)")
    p.add_argument("--pgmr-memory", type=Path, default=None,
                   help="PGMR memory cache folder (default bench/out/pgmr_memory)")
    p.add_argument("--pgmr-threshold", type=float, default=None,
                   help="grounding-score threshold (default: the encoder's, 0.4)")
    p.add_argument("--pgmr-priors", type=Path, default=None, help="support priors JSON")
    p.add_argument("--hdm-model", type=Path, default=None, help="trained HDM detector folder")
    p.add_argument("--hdm-generator", type=Path, default=None,
                   help="its generator folder (default: named in the detector)")
    p.add_argument("--hdm-trials", type=int, default=None, metavar="N",
                   help="MC-dropout passes of the HDM scorer (default: [hdm] mc_trials of the "
                        "configuration, else 30)")
    p.add_argument("--hdm-model-name", default=None, metavar="NAME",
                   help="the model whose queries HDM judges: a record's 'model' field must be it "
                        "(or the generator's folder), else HDM is missing for it (default: [hdm] "
                        "model_name of the configuration, else verifier-generator)")
    p.add_argument("--stacking-model", type=Path, default=None,
                   help="stacked verifier model (default $VERIFIER_STACKING_MODEL or "
                        "bench/out/stacked/model.json)")
    p.add_argument("--verifier-config", type=Path, default=None,
                   help="verifier.toml for the deductive signal (default: bench/out/"
                        "verifier-bench.toml, written to name the shared MRS corpora and labels)")
    p.add_argument("--data", type=Path, default=None,
                   help="shared data folder (default $VERIFIER_BENCH_DATA or ../shared/data)")
    p.add_argument("--tag", default="", help="free text in the signal config (new cache key)")
    p.add_argument("--fail-under", type=float, default=None,
                   help="exit 1 when a signal's overall macro-F1 is below this")
    p.add_argument("--require-all", action="store_true",
                   help="exit 1 when a requested signal is not available")
    p.add_argument("--no-plots", action="store_true")
    p.add_argument("--no-progress", action="store_true")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from verifier.benchmark.cache import CACHE_FILE, ResultCache
    from verifier.benchmark.evaluate import EvalConfig, evaluate
    from verifier.benchmark.paths import REPO_ROOT
    from verifier.benchmark.records import load_dataset
    from verifier.benchmark.report import markdown, summarize, write_report
    from verifier.benchmark.signals import SignalOptions

    names = tuple(dict.fromkeys(s.strip() for s in args.signals.split(",") if s.strip()))
    if not names:
        raise UsageError("no signals given")
    try:
        ds = load_dataset(args.dataset, args.datasets_dir)
    except FileNotFoundError as e:
        raise UsageError(str(e)) from None
    trials = mc_trials(args.hdm_trials, args.verifier_config)
    if trials < 0:
        raise UsageError("--hdm-trials must be >= 0")
    opts = SignalOptions(labels=args.labels, hdm_mc_trials=trials, pgmr_memory=args.pgmr_memory,
                         pgmr_threshold=args.pgmr_threshold, pgmr_priors=args.pgmr_priors,
                         hdm_model=args.hdm_model, hdm_generator=args.hdm_generator,
                         verifier_config=args.verifier_config, data_dir=args.data, tag=args.tag,
                         stacking_model=args.stacking_model,
                         hdm_model_name=hdm_model_name(args.hdm_model_name, args.verifier_config))
    try:
        cfg = EvalConfig(names, opts, limit=args.limit, workers=args.workers,
                         item_timeout=args.item_timeout or None, retry_errors=args.retry_errors,
                         progress=not args.no_progress)
    except ValueError as e:
        raise UsageError(str(e)) from None
    out = args.out if args.out is not None else REPO_ROOT / "bench" / "out" / "eval"
    with ResultCache(out / CACHE_FILE) as cache:
        runs = evaluate(ds, cfg, cache)
    summary = summarize(ds, runs, label_field=args.label)
    paths = write_report(ds, runs, summary, out, plots=not args.no_plots)
    print(markdown(summary))
    print("written: " + ", ".join(str(p) for p in paths), file=sys.stderr)
    code = EXIT_OK
    if args.require_all and any(not r.available for r in runs.values()):
        code = EXIT_FAIL
    if args.fail_under is not None:
        for name, s in summary["signals"].items():
            if s.get("available") and (s.get("overall") or {}).get("macro_f1", 0.0) < args.fail_under:
                print(f"{name}: macro-F1 below {args.fail_under}", file=sys.stderr)
                code = EXIT_FAIL
    return code


def mc_trials(given: int | None, config_path: Path | None = None) -> int:
    """The HDM scorer's MC-dropout passes: ``--hdm-trials`` when given, else ``[hdm]
    mc_trials`` of the configuration (the file of ``--verifier-config`` on top of the usual
    ones), else 30."""
    if given is not None:
        return given
    from verifier.config import load_config

    return int(load_config(config_path).get("hdm", "mc_trials", 30))


def hdm_model_name(given: str | None, config_path: Path | None = None) -> str:
    """The model whose queries the HDM signal judges: ``--hdm-model-name`` when given, else
    ``[hdm] model_name`` of the configuration (the file of ``--verifier-config`` on top of the
    usual ones), else :data:`verifier.provenance.GENERATOR_NAME`."""
    from verifier.provenance import GENERATOR_NAME

    if given is not None and given.strip():
        return given.strip()
    from verifier.config import load_config

    return str(load_config(config_path).get("hdm", "model_name", GENERATOR_NAME))
