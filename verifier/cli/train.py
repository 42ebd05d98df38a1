"""``verifier train MODEL ...``: the training subcommands, grouped under one ``train`` command.

Sub-subcommands defined here:

* ``verifier train generator``: a seq2seq generator (question -> PGMR intermediate query),
  from a config with a tokenizer built from the data, or fine-tuning a checkpoint;
* ``verifier train hdm``: the hallucination detector over a generator's features;
* ``verifier train stack``: the stacked verifier (``verifier.stacking.train``).

Adding one (e.g. ``verifier train stack``): write a function ``_add_stack(sub)`` that calls
``sub.add_parser("stack", ...)``, adds its options and ``set_defaults(func=handler)`` where
``handler(args) -> int`` imports what it needs lazily and returns an exit code (raise
:class:`verifier.cli.UsageError` for bad arguments); then append it to :data:`TRAINERS`.
Common options (``--seed``, ``--device``, ``--threads``, ``--resume``, ``--no-progress``) can
be added with :func:`add_common_options`.

Exit codes: 0 trained, 1 trained but below ``--fail-under`` (hdm), 2 usage error (missing
file or directory, existing run without ``--resume`` ...).
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path
from typing import Callable

from verifier.cli import EXIT_FAIL, EXIT_OK, EXIT_USAGE, UsageError

__all__ = ["register", "TRAINERS", "add_common_options"]

log = logging.getLogger(__name__)


def add_common_options(p: argparse.ArgumentParser) -> None:
    """``--seed --device --threads --resume --no-progress``."""
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("--device", default=None, help="cpu, cuda, cuda:1 ... (default: automatic)")
    p.add_argument("--threads", type=int, default=None,
                   help="CPU threads for torch (default $HDM_THREADS or 1)")
    p.add_argument("--resume", action="store_true",
                   help="continue the run found in the output directory")
    p.add_argument("--no-progress", action="store_true", help="no progress bars")


def _need_file(path: str, what: str) -> Path:
    p = Path(path)
    if not p.is_file():
        raise UsageError(f"{what} not found: {path}")
    return p


# -- train generator ------------------------------------------------------------------------

def _add_generator(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "generator", help="train a seq2seq generator (question -> intermediate query)",
        description="Train a small seq2seq model from a config (tokenizer built from the "
        "training data, no pretrained weights) or fine-tune --init CHECKPOINT. Writes the best "
        "model (lowest dev loss) to --out, a checkpoint every epoch, and resumes with --resume.")
    p.add_argument("--train", required=True, help="JSONL with question and target fields")
    p.add_argument("--dev", required=True, help="JSONL dev pairs (model selection)")
    p.add_argument("--out", required=True, help="output directory")
    p.add_argument("--target-field", default=None,
                   help="target field (default: first of target, intermediate, query, sparql)")
    p.add_argument("--config", default=None,
                   help="JSON file of generator architecture (GeneratorConfig fields: arch, "
                   "d_model, num_layers, num_decoder_layers, num_heads, d_ff, dropout, "
                   "max_source_len, max_target_len)")
    p.add_argument("--init", default=None,
                   help="fine-tune this checkpoint (directory or hub name) instead")
    p.add_argument("--epochs", type=int, default=12)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--warmup-steps", type=int, default=200)
    p.add_argument("--vocab-size", type=int, default=4000, help="tokenizer size (from scratch)")
    p.add_argument("--checkpoint-every", type=int, default=0,
                   help="also checkpoint every N steps (default: every epoch)")
    p.add_argument("--max-steps", type=int, default=None,
                   help="stop this session after N steps (resume later with --resume)")
    add_common_options(p)
    p.set_defaults(func=_run_generator)


def _run_generator(args: argparse.Namespace) -> int:
    from verifier.hdm.data import DataError, read_pairs
    from verifier.hdm.device import set_cpu_threads
    from verifier.hdm.seq2seq import GeneratorConfig, ModelNotFoundError
    from verifier.hdm.train_generator import TrainConfig, train_generator

    set_cpu_threads(args.threads)
    if args.config and args.init:
        raise UsageError("--config and --init exclude each other")
    try:
        train = read_pairs(_need_file(args.train, "training file"), args.target_field)
        dev = read_pairs(_need_file(args.dev, "dev file"), args.target_field)
        gcfg = GeneratorConfig.from_json(_need_file(args.config, "config")) if args.config else None
    except (DataError, ValueError) as e:
        raise UsageError(str(e)) from e
    if not train:
        raise UsageError(f"no training pairs in {args.train}")
    tcfg = TrainConfig(epochs=args.epochs, batch_size=args.batch_size, lr=args.lr,
                       warmup_steps=args.warmup_steps, seed=args.seed,
                       checkpoint_every=args.checkpoint_every, vocab_size=args.vocab_size)
    try:
        res = train_generator(train, dev, args.out, model_config=gcfg, init=args.init,
                              config=tcfg, resume=args.resume, device=args.device,
                              progress=not args.no_progress, stop_after=args.max_steps)
    except (FileExistsError, FileNotFoundError, ModelNotFoundError) as e:
        raise UsageError(str(e)) from e
    print(json.dumps({"out": str(res.out_dir), "epochs": res.epochs_run, "steps": res.steps,
                      "train_loss": round(res.train_loss, 4),
                      "best_dev_loss": round(res.best_dev_loss, 4),
                      "dev_exact_match_greedy": res.dev_exact_match,
                      "seconds": round(res.seconds, 1)}))
    return EXIT_OK


# -- train hdm ------------------------------------------------------------------------------

QUERY_FIELDS = ("pred_query", "query", "intermediate", "sparql")


def _add_hdm(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "hdm", help="train the hallucination detector (HDM)",
        description="Extract features (confidence score by teacher forcing, MC-dropout "
        "variance, pooled encoder activations) of (question, query) pairs with the generator "
        "--model, then train the HDM with early stopping on dev macro-F1. Input JSONL rows: "
        "question, a query field, and a 0/1 label (1 = hallucination).")
    p.add_argument("--train", required=True, help="JSONL: question, query, label")
    p.add_argument("--dev", required=True, help="JSONL dev rows (early stopping)")
    p.add_argument("--model", required=True, help="generator/scorer model directory")
    p.add_argument("--out", required=True, help="detector output directory")
    p.add_argument("--features", default="act+cs+mcd",
                   choices=["cs", "act", "act+cs", "act+cs+mcd"])
    p.add_argument("--query-field", default=None,
                   help=f"query field (default: first of {', '.join(QUERY_FIELDS)})")
    p.add_argument("--label-field", default="label")
    p.add_argument("--mc-trials", type=int, default=30)
    p.add_argument("--patience", type=int, default=50)
    p.add_argument("--max-epochs", type=int, default=100)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--fail-under", type=float, default=None,
                   help="exit 1 when the dev macro-F1 is below this value")
    add_common_options(p)
    p.set_defaults(func=_run_hdm)


def _labelled_rows(path: Path, query_field: str | None, label_field: str
                   ) -> tuple[list[str], list[str], list[str], list[int]]:
    from verifier.hdm.data import DataError, read_jsonl

    ids, qs, queries, labels = [], [], [], []
    for n, r in read_jsonl(path):
        field = query_field or next((f for f in QUERY_FIELDS if f in r), None)
        if field is None or field not in r:
            raise DataError(f"{path}:{n}: no query field")
        lab = r.get(label_field)
        if isinstance(lab, bool):
            lab = int(lab)
        if lab not in (0, 1):
            raise DataError(f"{path}:{n}: label must be 0/1, got {lab!r}")
        if not isinstance(r.get("question"), str):
            raise DataError(f"{path}:{n}: missing 'question'")
        ids.append(str(r.get("id", f"{path.stem}-{n}")))
        qs.append(r["question"])
        queries.append(r[field] or "")
        labels.append(int(lab))
    return ids, qs, queries, labels


def _run_hdm(args: argparse.Namespace) -> int:
    from verifier.hdm.data import DataError
    from verifier.hdm.detector import DetectorConfig, HDMDetector
    from verifier.hdm.device import set_cpu_threads
    from verifier.hdm.features import FeatureTable, Scorer
    from verifier.hdm.seq2seq import ModelNotFoundError, load_seq2seq

    set_cpu_threads(args.threads)
    out = Path(args.out)
    if (out / "hdm_detector.json").exists() and not args.resume:
        raise UsageError(f"{out} already holds a detector; pass --resume or choose another "
                         "directory")
    try:
        data = {name: _labelled_rows(_need_file(getattr(args, name), f"{name} file"),
                                     args.query_field, args.label_field)
                for name in ("train", "dev")}
        s2s = load_seq2seq(args.model, args.device)
        cfg = DetectorConfig(feature_set=args.features, patience=args.patience,
                             max_epochs=args.max_epochs, batch_size=args.batch_size,
                             seed=args.seed)
    except (DataError, ModelNotFoundError, ValueError) as e:
        raise UsageError(str(e)) from e
    mc = args.mc_trials if cfg.feature_set == "act+cs+mcd" else 0
    scorer = Scorer(s2s, mc_trials=mc, pools=cfg.pools, seed=args.seed)
    tables = {}
    for name, (ids, qs, queries, _) in data.items():
        cache = out / f"features_{name}.npz"
        if args.resume and cache.is_file():
            t = FeatureTable.load(cache)
            if t.ids == tuple(ids) and set(scorer.columns) <= set(t.columns):
                tables[name] = t
                log.info("reusing cached features %s", cache)
                continue
        tables[name] = scorer.score(qs, queries, ids, progress=not args.no_progress)
        tables[name].save(cache)
    try:
        det = HDMDetector.fit(tables["train"], data["train"][3], tables["dev"], data["dev"][3],
                              cfg, device=args.device, progress=not args.no_progress)
    except ValueError as e:
        raise UsageError(str(e)) from e
    det.info["generator"] = str(Path(args.model).resolve()) if Path(args.model).exists() \
        else args.model
    det.save(out)
    f1 = float(det.info["dev_macro_f1"])
    print(json.dumps({"out": str(out), "features": cfg.feature_set, "dev_macro_f1": round(f1, 4),
                      "best_epoch": det.info["best_epoch"], "epochs_run": det.info["epochs_run"]}))
    if args.fail_under is not None and f1 < args.fail_under:
        print(f"dev macro-F1 {f1:.4f} below --fail-under {args.fail_under}", file=sys.stderr)
        return EXIT_FAIL
    return EXIT_OK


# -- train stack ----------------------------------------------------------------------------

def _add_stack(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "stack", help="train the stacked verifier (calibrated decision over all signals)",
        description="Fit the stacked verifier (logistic regression + calibration + operating "
        "points, docs/stacking.md) on labelled rows: JSONL with question, sparql, label "
        "(1 correct, 0 hallucinated) and optionally signals {deductive, pgmr, hdm, execution}. "
        "With --compute the missing signals are computed with --config's verifier "
        "([pgmr], [hdm], [kg] sections). Writes one inspectable JSON model.")
    p.add_argument("--train", required=True, help="labelled rows (JSONL)")
    p.add_argument("--out", required=True, help="model file to write (JSON)")
    p.add_argument("--config", default=None, help="verifier.toml for --compute")
    p.add_argument("--compute", action="store_true",
                   help="compute the signals a row lacks with the configured verifier")
    p.add_argument("--kg", default=None,
                   help="with --compute: a .ttl/.nt knowledge graph for execution evidence "
                        "(overrides [kg] file)")
    p.add_argument("--endpoint", default=None,
                   help="with --compute: a SPARQL endpoint URL instead (never required)")
    p.add_argument("--calibration", default="auto", choices=("auto", "platt", "isotonic", "identity"))
    p.add_argument("--target-precision", type=float, default=0.95,
                   help="accept precision of the precision-first operating point (default 0.95)")
    p.add_argument("--C", type=float, default=0.3, help="inverse L2 strength (default 0.3)")
    p.add_argument("--augment-missing", type=float, default=0.15,
                   help="share of rows copied with one signal blanked (default 0.15)")
    p.add_argument("--folds", type=int, default=5, help="cross-fitting folds (default 5)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.set_defaults(func=_run_stack)


def _run_stack(args: argparse.Namespace) -> int:
    from verifier.stacking.train import compute_signals, read_rows, train_from_rows

    path = _need_file(args.train, "training rows")
    try:
        rows = read_rows(path)
    except ValueError as e:
        raise UsageError(str(e)) from None
    if len({r.label for r in rows}) < 2:
        raise UsageError(f"{path}: need labelled rows of both classes (label 0 and 1)")
    if args.compute:
        from verifier.config import load_config

        if args.config:
            _need_file(args.config, "configuration")
        cfg = load_config(args.config)
        if args.kg or args.endpoint:
            if args.kg:
                _need_file(args.kg, "knowledge graph")
            cfg = cfg.with_values("kg", file=str(Path(args.kg).resolve()) if args.kg else None,
                                  endpoint=args.endpoint)
        rows = compute_signals(rows, cfg)
    model = train_from_rows(rows, augment=args.augment_missing, seed=args.seed,
                            C=args.C, folds=args.folds, calibration=args.calibration,
                            target_precision=args.target_precision,
                            info={"train_file": str(path), "rows": len(rows)})
    out = model.save(args.out)
    pf = model.point("precision-first")
    print(json.dumps({"model": str(out), "rows": len(rows), "calibration":
                      model.info.get("calibration"), "ece_oof": model.info.get("ece_oof"),
                      "precision_first": {"accept": pf.accept, "reject": pf.reject}}, indent=1))
    return EXIT_OK


#: sub-subcommands of ``verifier train``; append ``_add_<model>`` functions here
TRAINERS: list[Callable[[argparse._SubParsersAction], None]] = [_add_generator, _add_hdm, _add_stack]


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``verifier train`` and its sub-subcommands."""
    p = subparsers.add_parser("train", help="train a model (generator, hdm, ...)",
                              description="Train a model. Run 'verifier train MODEL --help'.")
    sub = p.add_subparsers(dest="train_command", metavar="MODEL")
    for add in TRAINERS:
        add(sub)

    def _missing(args: argparse.Namespace) -> int:
        p.print_help(sys.stderr)
        return EXIT_USAGE

    p.set_defaults(func=_missing)
