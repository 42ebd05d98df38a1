#!/usr/bin/env python
"""HDM pipeline bench (issue 8): out-of-ontology split -> small generator trained on known
symbols only -> beam search on the detection splits -> features -> detectors -> the paper's
table (Bacciu et al., background doc section 2).

Stages (outputs under ``--out``, default ``bench/out/hdm``; ``--reuse`` skips a stage whose
output exists, for development only; the timed run starts from an empty folder):

1. the out-of-ontology split (:mod:`verifier.benchmark.ontology_split`, seed ``--split-seed``);
2. gold queries -> PGMR intermediate form (:func:`verifier.pgmr.to_intermediate` over
   ``Memory.from_labels_tsv(shared/data/wikidata/labels.tsv)``), compacted
   (:func:`verifier.hdm.data.compact_query`: no PREFIX lines);
3. a small BART (``--arch``) with a copy head (pointer-generator,
   :mod:`verifier.hdm.copy_bart`; ``--no-copy`` for plain BART) trained from scratch on
   ``parser_train`` with a lower-casing byte-level BPE tokenizer built from the data; model
   selection and early stopping on greedy exact match over the parser's validation split
   (in-ontology pairs of detect_train + detect_dev, ``--dev-em-pairs`` of them), at most
   ``--epochs`` epochs and ``--train-minutes`` of training (no new epoch starts that would
   end later);
4. beam search for every detection example (in-ontology, out-of-ontology, out-of-domain);
5. features of (question, generated query) with the :class:`~verifier.hdm.features.Scorer`
   (teacher-forced confidence, MC-dropout variance, pooled encoder activations);
6. three binary tasks, each with its own train/dev/test rows from detect_train/dev/test:

   * out-of-ontology: in-ontology inputs (0) vs out-of-ontology inputs (1);
   * parser errors: in-ontology inputs, 1 when the generated intermediate query differs from
     the gold one (:func:`verifier.hdm.train_generator.exact_match`: equal up to whitespace,
     case and variable names);
   * out-of-domain: in-ontology inputs (0) vs out-of-domain utterances (1);

   For each: a threshold on the confidence score (chosen on dev for best macro-F1, applied
   to test) and the HDM with feature sets CS, Activations, Activations+CS,
   Activations+CS+MCD (trained on train, early stopping on dev macro-F1, threshold 0.5),
   over ``--seeds`` detector seeds.  Test macro-F1, mean and std over the seeds.

Last line: ``hdm_oo_f1=<x> cs_threshold_oo_f1=<x> hdm_nsp_f1=<x> hdm_ood_f1=<x>`` where
``hdm`` is the full HDM (Activations+CS+MCD) and ``nsp`` the parser-error task.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

TASKS = ("out_of_ontology", "parser_errors", "out_of_domain")
TASK_TITLES = {"out_of_ontology": "out-of-ontology", "parser_errors": "parser errors",
               "out_of_domain": "out-of-domain"}
FEATURE_SETS = (("cs", "HDM: CS"), ("act", "HDM: Activations"), ("act+cs", "HDM: Activations+CS"),
                ("act+cs+mcd", "HDM: Activations+CS+MCD"))


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


def parse_args() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=str(ROOT.parent / "shared" / "data"))
    ap.add_argument("--out", default=str(ROOT / "bench" / "out" / "hdm"))
    ap.add_argument("--split-seed", type=int, default=0)
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2], help="detector seeds")
    ap.add_argument("--unknown-pairs", type=int, nargs=3, default=[400, 200, 400])
    ap.add_argument("--validation-pairs", type=int, default=600)
    ap.add_argument("--test-pairs", type=int, default=400)
    ap.add_argument("--ood-pairs", type=int, nargs=3, default=[400, 200, 400])
    ap.add_argument("--arch", default="bart", choices=["bart", "t5"])
    ap.add_argument("--d-model", type=int, default=128)
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--epochs", type=int, default=14)
    ap.add_argument("--train-minutes", type=float, default=36.0,
                    help="time budget of generator training (0: none)")
    ap.add_argument("--gen-patience", type=int, default=4,
                    help="generator epochs without better dev exact match before stopping")
    ap.add_argument("--dev-em-pairs", type=int, default=600,
                    help="dev pairs decoded greedily after each epoch (model selection)")
    ap.add_argument("--no-copy", action="store_true", help="plain BART, no copy head")
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--no-lowercase", action="store_true",
                    help="keep case (default: a lower-casing tokenizer)")
    ap.add_argument("--vocab-size", type=int, default=4000)
    ap.add_argument("--max-target-len", type=int, default=80)
    ap.add_argument("--beams", type=int, default=4)
    ap.add_argument("--mc-trials", type=int, default=10)
    ap.add_argument("--patience", type=int, default=10)
    ap.add_argument("--max-epochs", type=int, default=40)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--reuse", action="store_true", help="reuse stage outputs (development)")
    return ap.parse_args()


def gold_intermediates(split, data_dir: Path, out: Path, reuse: bool) -> dict[str, str]:
    """id -> compact intermediate form of the gold query (in-ontology examples)."""
    from verifier.hdm.data import compact_query
    from verifier.pgmr import Memory, intermediate_form

    path = out / "gold_intermediate.json"
    if reuse and path.is_file():
        return json.loads(path.read_text())
    memory = Memory.from_labels_tsv(data_dir / "wikidata" / "labels.tsv")
    gold, missing = {}, 0
    for e in split.examples:
        if e.category != "in_ontology":
            continue
        form = intermediate_form(e.sparql, memory)
        missing += bool(form.missing)
        gold[e.id] = compact_query(form.text)
    log(f"intermediate form: {len(gold)} gold queries, {missing} with an id not in the "
        "label memory (kept as id)")
    path.write_text(json.dumps(gold))
    return gold


def main() -> int:
    args = parse_args()
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    import logging
    logging.basicConfig(level=logging.WARNING, format="[%(asctime)s] %(name)s: %(message)s",
                        datefmt="%H:%M:%S")
    logging.getLogger("verifier.hdm.train_generator").setLevel(logging.INFO)
    import torch

    from verifier.benchmark.ontology_split import (SplitConfig, build_ontology_split,
                                                   check_split, load_ood_utterances, load_pairs,
                                                   read_ontology_split)
    from verifier.hdm import (DetectorConfig, FeatureTable, GeneratorConfig, HDMDetector, Pair,
                              Scorer, TrainConfig, best_threshold, generate, load_seq2seq,
                              macro_f1, train_generator)
    from verifier.hdm.train_generator import exact_match

    torch.set_num_threads(args.threads)
    data_dir, out = Path(args.data), Path(args.out)
    if not data_dir.is_dir():
        print(f"data directory not found: {data_dir}", file=sys.stderr)
        return 2
    out.mkdir(parents=True, exist_ok=True)
    t_start = time.monotonic()
    cpu_start = time.process_time()
    timings: dict[str, float] = {}

    def lap(name: str, t0: float) -> None:
        timings[name] = time.monotonic() - t0
        log(f"{name}: {timings[name]:.0f}s")

    # 1. split ----------------------------------------------------------------------------
    t0 = time.monotonic()
    split_dir = out / "split"
    if args.reuse and (split_dir / "manifest.json").is_file():
        split = read_ontology_split(split_dir)
    else:
        cfg = SplitConfig(seed=args.split_seed, unknown_pairs=tuple(args.unknown_pairs),
                          validation_pairs=args.validation_pairs, test_pairs=args.test_pairs,
                          ood_pairs=tuple(args.ood_pairs))
        split = build_ontology_split(load_pairs(data_dir), load_ood_utterances(data_dir), cfg)
        split.write(split_dir)
    check_split(split)
    sizes = split.sizes()
    lap("split", t0)

    # 2. intermediate form ----------------------------------------------------------------
    t0 = time.monotonic()
    gold = gold_intermediates(split, data_dir, out, args.reuse)
    lap("intermediate", t0)

    # 3. generator ------------------------------------------------------------------------
    t0 = time.monotonic()
    gen_dir = out / "generator"
    train_pairs = [Pair(e.question, gold[e.id], e.id) for e in split.by_split("parser_train")]
    dev_pairs = [Pair(e.question, gold[e.id], e.id) for s in ("detect_train", "detect_dev")
                 for e in split.by_split(s) if e.category == "in_ontology"]
    gcfg = GeneratorConfig(arch=args.arch, d_model=args.d_model, num_layers=args.layers,
                           num_decoder_layers=args.layers, num_heads=4, d_ff=4 * args.d_model,
                           dropout=0.1, max_source_len=64, max_target_len=args.max_target_len,
                           copy=args.arch == "bart" and not args.no_copy)
    tcfg = TrainConfig(epochs=args.epochs, batch_size=32, lr=args.lr, warmup_steps=100,
                       vocab_size=args.vocab_size, seed=args.split_seed,
                       dev_em_sample=args.dev_em_pairs, select_on="exact_match",
                       patience=args.gen_patience, time_budget=60.0 * args.train_minutes,
                       lowercase=not args.no_lowercase)
    state_path = gen_dir / "checkpoint" / "state.pt"
    state = (torch.load(state_path, weights_only=False)
             if args.reuse and state_path.is_file() else None)
    if not (state is not None and (gen_dir / "hdm_generator.json").is_file()
            and (state["epoch"] >= args.epochs or state.get("stop_reason"))):
        resume = args.reuse and (gen_dir / "checkpoint" / "state.pt").is_file()
        if not resume and gen_dir.exists():
            import shutil
            shutil.rmtree(gen_dir)
        train_generator(train_pairs, dev_pairs, gen_dir, model_config=gcfg, config=tcfg,
                        resume=resume, device="cpu", progress=False)
    s2s = load_seq2seq(gen_dir, "cpu")
    gen_summary = json.loads((gen_dir / "hdm_generator.json").read_text()).get("training", {})
    lap("generator training", t0)

    # 4. generation -----------------------------------------------------------------------
    t0 = time.monotonic()
    det_examples = [e for s in ("detect_train", "detect_dev", "detect_test")
                    for e in split.by_split(s)]
    pred_path = out / "predictions.jsonl"
    if args.reuse and pred_path.is_file():
        preds = [json.loads(line) for line in pred_path.open()]
    else:
        gen = generate(s2s, [e.question for e in det_examples], num_beams=args.beams,
                       batch_size=64, ids=[e.id for e in det_examples])
        preds = [{"id": p.id, "query": p.query, "confidence": p.confidence,
                  "log_prob": p.log_prob} for p in gen]
        pred_path.write_text("".join(json.dumps(p) + "\n" for p in preds))
    lap("generation", t0)

    # 5. features -------------------------------------------------------------------------
    t0 = time.monotonic()
    feat_path = out / f"features_mc{args.mc_trials}.npz"
    if args.reuse and feat_path.is_file():
        table = FeatureTable.load(feat_path)
    else:
        scorer = Scorer(s2s, mc_trials=args.mc_trials, batch_size=32, seed=args.split_seed)
        table = scorer.score([e.question for e in det_examples], [p["query"] for p in preds],
                             [e.id for e in det_examples])
        table.save(feat_path)
    beam_cs = np.array([p["confidence"] for p in preds])
    tf_cs = table.column("cs").astype(np.float64)
    agree = float(np.mean(np.abs(beam_cs - tf_cs) <= 1e-3 * np.maximum(beam_cs, 1e-9) + 1e-6))
    lap("features", t0)

    # 6. tasks and detectors --------------------------------------------------------------
    t0 = time.monotonic()
    cat = np.array([e.category for e in det_examples])
    spl = np.array([e.split for e in det_examples])
    wrong = np.array([e.category == "in_ontology" and not exact_match(p["query"], gold[e.id])
                      for e, p in zip(det_examples, preds)])
    inont = cat == "in_ontology"
    task_rows = {"out_of_ontology": (inont | (cat == "out_of_ontology"), cat == "out_of_ontology"),
                 "parser_errors": (inont, wrong),
                 "out_of_domain": (inont | (cat == "out_of_domain"), cat == "out_of_domain")}
    results: dict[tuple[str, str], list[float]] = {}
    task_sizes: dict[str, dict[str, tuple[int, int]]] = {}
    for task, (rows, labels) in task_rows.items():
        idx = {s: np.where(rows & (spl == f"detect_{s}"))[0] for s in ("train", "dev", "test")}
        y = {s: labels[idx[s]].astype(int) for s in idx}
        task_sizes[task] = {s: (len(idx[s]), int(y[s].sum())) for s in idx}
        cs = {s: tf_cs[idx[s]] for s in idx}
        t = best_threshold(cs["dev"], y["dev"], below=True)
        f = macro_f1(y["test"], (cs["test"] < t).astype(int))
        results[("CS threshold", task)] = [f] * len(args.seeds)
        tabs = {s: table.rows(idx[s]) for s in idx}
        if len(set(y["train"].tolist())) < 2 or len(set(y["dev"].tolist())) < 2:
            log(f"task {task}: a single class in train or dev; detectors skipped")
            for _, name in FEATURE_SETS:
                results[(name, task)] = [float("nan")] * len(args.seeds)
            continue
        for fs, name in FEATURE_SETS:
            scores = []
            for seed in args.seeds:
                dcfg = DetectorConfig(feature_set=fs, patience=args.patience,
                                      max_epochs=args.max_epochs, seed=seed)
                det = HDMDetector.fit(tabs["train"], y["train"], tabs["dev"], y["dev"], dcfg)
                scores.append(macro_f1(y["test"], det.predict(tabs["test"])))
                if task == "out_of_ontology" and fs == "act+cs+mcd" and seed == args.seeds[0]:
                    det.info.update(task=task, generator=str(gen_dir.resolve()))
                    det.save(out / "detector_oo")
            results[(name, task)] = scores
        log(f"task {task}: done")
    lap("detectors", t0)
    total = time.monotonic() - t_start
    cpu_total = time.process_time() - cpu_start

    # report ------------------------------------------------------------------------------
    print()
    print("== split sizes (in-ontology / out-of-ontology / out-of-domain / total) ==")
    for s, d in sizes.items():
        print(f"  {s:13s} {d['in_ontology']:5d} {d['out_of_ontology']:5d} "
              f"{d['out_of_domain']:5d} {d['total']:6d}")
    print(f"  unknown symbols: " + ", ".join(f"{k} {len(v)}" for k, v in split.unknown.items()))
    n_in = {s: int((inont & (spl == f"detect_{s}")).sum()) for s in ("train", "dev", "test")}
    n_ok = {s: int((inont & ~wrong & (spl == f"detect_{s}")).sum()) for s in n_in}
    print(f"== generator: {args.arch}{' + copy head' if gcfg.copy else ''}, "
          f"d_model {args.d_model}, {args.layers}+{args.layers} layers, vocab {len(s2s.tokenizer)}, "
          f"{len(train_pairs)} training pairs; {gen_summary.get('epochs_run')} of {args.epochs} "
          f"epochs run ({gen_summary.get('stopped_early') or 'all'}), best epoch "
          f"{gen_summary.get('best_epoch')} by greedy dev exact match "
          f"{gen_summary.get('dev_exact_match_greedy') or 0:.3f} "
          f"({gen_summary.get('dev_exact_match_pairs')} pairs)")
    print("== exact match of the beam-search output on in-ontology inputs: "
          + ", ".join(f"{s} {n_ok[s] / max(n_in[s], 1):.3f} ({n_ok[s]}/{n_in[s]})" for s in n_in))
    print(f"== confidence score: teacher forcing agrees with the beam score on "
          f"{agree:.1%} of {len(preds)} predictions (re-tokenised text; rel. tol. 1e-3)")
    print("== task sizes (rows, positives) train / dev / test ==")
    for task, d in task_sizes.items():
        print(f"  {TASK_TITLES[task]:16s} " + "  ".join(f"{s} {n}/{p}" for s, (n, p) in d.items()))
    print()
    print(f"Macro-F1 on the test split, mean ± std over detector seeds {args.seeds} "
          f"(MC dropout {args.mc_trials} trials, beam {args.beams})")
    header = f"{'method':28s}" + "".join(f"{TASK_TITLES[t]:>20s}" for t in TASKS)
    print(header)
    print("-" * len(header))
    for name in ["CS threshold"] + [n for _, n in FEATURE_SETS]:
        cells = []
        for task in TASKS:
            v = np.array(results[(name, task)])
            cells.append(f"{v.mean():.3f} ± {v.std():.3f}")
        print(f"{name:28s}" + "".join(f"{c:>20s}" for c in cells))
    print()
    print("timings: " + ", ".join(f"{k} {v:.0f}s" for k, v in timings.items())
          + f"; total wall {total:.0f}s ({total / 60:.1f} min), process CPU {cpu_total:.0f}s "
          f"({cpu_total / 60:.1f} min), torch threads {args.threads}")
    full = "HDM: Activations+CS+MCD"
    m = {t: float(np.mean(results[(full, t)])) for t in TASKS}
    cs_oo = float(np.mean(results[("CS threshold", "out_of_ontology")]))
    print(f"hdm_oo_f1={m['out_of_ontology']:.3f} cs_threshold_oo_f1={cs_oo:.3f} "
          f"hdm_nsp_f1={m['parser_errors']:.3f} hdm_ood_f1={m['out_of_domain']:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
