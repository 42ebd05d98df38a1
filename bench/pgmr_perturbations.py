"""Grounding signal on perturbed LC-QuAD 2.0 test queries.

Without ``--perturbations``, builds its own deterministic perturbations (seed 0) of the gold
test queries (:mod:`verifier.pgmr.perturb`): per query the gold pair (label 0) and one
``wrong_entity``, ``wrong_property`` and ``nonexistent_id`` pair (label 1).  With ``--near``
(default on) it adds ``wrong_entity_near`` / ``wrong_property_near``: the replacement is the
identifier of the same kind whose label is closest to the original's (harder cases).

With ``--perturbations FILE`` it reads JSONL records with fields ``question``, ``sparql``,
``category`` and ``label`` (1 = wrong query, 0 = correct) instead, e.g. from the project's
benchmark builder.  ``--benchmark-test FILE`` takes the benchmark's own ``perturbations.jsonl``
(``verifier bench build``) and evaluates on its test-split extract: ``--sample`` (1,500)
test-split gold pairs (sorted ids, ``random.Random(seed).sample``), each with its wrong entity,
wrong property and non-existent id records; this is the issue's official figure.  With it,
``--audit`` (default: ``bench/data/lcquad2_gold_audit.jsonl`` and
``bench/data/pgmr_extract_gold_audit.jsonl``, blind judgements of the gold queries as
faithful / loose / wrong) adds the AUCs with the gold pairs restricted by judgement and the
wrong pairs made from them, and the AUC a perfect detector of faithful queries would get over
all gold pairs.

Reports, per category: the share of pairs the signal flags (an identifier absent from the
memory or of the wrong kind; must be 100% for ``nonexistent_id``) and the ROC AUC of the
grounding score between correct pairs and that category.  Support priors (statistics and
the fitted grounding model) are estimated on training data only (LC-QuAD 2.0 train sample +
WikiWebQuestions train), never on the test split; figures without priors (the built-in
default model) are printed too, and the latency of one pair at a time (``--latency N``
pairs, p50 / p95 in ms).

``--train-perturbations FILE`` takes the training data from the project benchmark's
``perturbations.jsonl`` instead of ``--calibration``: its *train-split* gold pairs are the
correct pairs, and their train-split ``wrong_entity`` / ``wrong_property`` records the
negatives the grounding model is fitted on (``estimate_priors(..., negatives=)``); records
of other splits are never read.

``--default-model`` fits the model on the calibration files with neutral statistics and
with statistics, and prints them as the ``DEFAULT_MODEL`` and ``STATISTICS_MODEL`` literals
of ``verifier/pgmr/calibrate.py``.

Last line: flag_nonexistent=<percent> auc_wrong_entity=<x> auc_wrong_property=<x>
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

from pgmr_common import (LCQUAD_TEST, REPO, SHARED, add_memory_args, load_memory, read_jsonl,
                         setup_logging)

from verifier.pgmr import (SupportPriors, estimate_priors, grounding_signal, grounding_signals,
                           roc_auc)
from verifier.pgmr.degrade import rng_for
from verifier.pgmr.perturb import Perturbation, Perturber, replace_identifier
from verifier.pgmr.tokenizer import identifiers

CALIBRATION = [SHARED / "lcquad2" / "train_subset.jsonl",
               SHARED / "wikiwebquestions" / "train.jsonl"]


def near_perturbations(recs, mem, seed):
    """Replace one id by the same-kind id with the most similar label (not in the query)."""
    jobs = []
    for r in recs:
        idents = identifiers(r["sparql"])
        used = {i.id for i in idents}
        for cat, letter in (("wrong_entity_near", "Q"), ("wrong_property_near", "P")):
            ids = sorted({i.id for i in idents if i.id.startswith(letter) and i.id in mem})
            if ids:
                old = rng_for(seed, r["id"], cat).choice(ids)
                jobs.append((r, cat, old, used, idents))
    out = []
    for group in ("item", "property"):
        sel = [j for j in jobs if (j[2][0] == "Q") == (group == "item")]
        results = mem.search([mem.get(j[2]).label for j in sel], kind=group, k=10)
        for (r, cat, old, used, idents), cands in zip(sel, results):
            new = next((c.id for c in cands if c.id not in used and c.id[0] == old[0]), None)
            if new:
                out.append(Perturbation(r["question"], replace_identifier(r["sparql"], old, new,
                                                                          idents),
                                        cat, 1, r["id"], old, new))
    return out


NEGATIVE_CATEGORIES = ("wrong_entity", "wrong_property")


def benchmark_training(path: Path) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """Correct pairs and wrong (entity / property) pairs of the train split of a benchmark
    ``perturbations.jsonl`` (benchmark convention: label 1 = correct)."""
    cal, neg = [], []
    for r in read_jsonl(path):
        if r.get("split") != "train" or not r.get("sparql"):
            continue
        if r.get("category") == "gold" and int(r.get("label", 0)) == 1:
            cal.append((r["question"], r["sparql"]))
        elif r.get("category") in NEGATIVE_CATEGORIES and int(r.get("label", 1)) == 0:
            neg.append((r["question"], r["sparql"]))
    if not cal:
        raise SystemExit(f"{path}: no train-split gold pairs")
    return cal, neg


TEST_CATEGORIES = ("gold", "wrong_entity", "wrong_property", "nonexistent_id")


def benchmark_test_sample(path: Path, n: int, seed: int = 0) -> list[Perturbation]:
    """The benchmark's test-split extract: ``n`` test-split gold pairs of a benchmark
    ``perturbations.jsonl`` (their ids sorted, ``random.Random(seed).sample``), each with its
    ``wrong_entity``, ``wrong_property`` and ``nonexistent_id`` records (by ``gold_id``),
    labels flipped to this script's convention (1 = wrong).  ``source`` is the gold pair's id
    for every record of the pair (the gold record's own id)."""
    import random

    by_gold: dict[str, list[dict]] = defaultdict(list)
    golds = []
    for r in read_jsonl(path):
        if r.get("split") != "test" or r.get("category") not in TEST_CATEGORIES or not r.get("sparql"):
            continue
        if r["category"] == "gold":
            golds.append(r["id"])
            by_gold[r["id"]].append(r)
        elif r.get("gold_id"):
            by_gold[r["gold_id"]].append(r)
    ids = sorted(golds)
    if not ids:
        raise SystemExit(f"{path}: no test-split gold pairs")
    chosen = random.Random(seed).sample(ids, min(n, len(ids)))
    return [Perturbation(r["question"], r["sparql"], r["category"], 1 - int(r["label"]), g)
            for g in chosen for r in by_gold[g]]


AUDITS = [REPO / "bench" / "data" / "lcquad2_gold_audit.jsonl",
          REPO / "bench" / "data" / "pgmr_extract_gold_audit.jsonl"]
AUDIT_GROUPS = (("faithful",), ("faithful", "loose"), ("faithful", "loose", "wrong"))


def read_audits(paths: list[Path]) -> dict[str, str]:
    """Gold pair id -> judgement (faithful / loose / wrong) from audit JSONL files (fields
    ``id``, ``judgement``; later files do not override earlier ones).  Missing files are
    skipped with a note."""
    judged: dict[str, str] = {}
    for path in paths:
        if not path.is_file():
            print(f"audit file not found, skipped: {path}")
            continue
        for r in read_jsonl(path):
            if r.get("judgement") not in AUDIT_GROUPS[-1]:
                raise SystemExit(f"{path}: record {r.get('id')!r} has no valid judgement")
            judged.setdefault(str(r["id"]), r["judgement"])
    return judged


def fmt_auc(auc: float | None) -> str:
    """An AUC with four decimals, or nothing when it is undefined."""
    return "" if auc is None else f"{auc:.4f}"


def audited_aucs(pairs: list[Perturbation], reports, judged: dict[str, str]) -> dict:
    """AUC per category with the gold pairs restricted by audit judgement: for each group of
    judgements, the correct pairs judged so and the wrong pairs made from them (both sides
    restricted; ``source`` is the gold pair's id, as ``benchmark_test_sample`` sets it)."""
    out: dict = {}
    for group in AUDIT_GROUPS:
        keep = [(p, r) for p, r in zip(pairs, reports) if judged.get(p.source) in group]
        correct = [r.score for p, r in keep if p.label == 0]
        row = {"gold": len(correct)}
        for cat in ("wrong_entity", "wrong_property"):
            wrong = [r.score for p, r in keep if p.category == cat and p.label == 1]
            row[cat] = {"n": len(wrong),
                        "auc": roc_auc(correct, wrong) if correct and wrong else None}
        out["+".join(group)] = row
    return out


def model_literal(name: str, model, how: str, n_pairs: int,
                  source: str = "LC-QuAD 2.0 train_subset + WikiWebQuestions train") -> str:
    """``model`` as the ``name`` literal of ``verifier/pgmr/calibrate.py``."""
    import textwrap

    lines = [f"# Fitted by estimate_priors({how}) on {source}",
             f"# ({n_pairs:,} pairs, seed 0); regenerate with",
             "# `python bench/pgmr_perturbations.py --default-model`.",
             f"{name} = GroundingModel(MappingProxyType({{"]
    for kind, m in sorted(model.identifier.items()):
        ws = ", ".join(f"{w:.4f}" for w in m.weights)
        lines.append(f'    "{kind}": _model(ID_FEATURES, (')
        lines.extend(textwrap.wrap(ws, 90, initial_indent=" " * 8, subsequent_indent=" " * 8))
        lines.append(f"    ), {m.bias:.4f}),")
    a, b = model.calibration
    lines.append(f"}}), ({a:.4f}, {b:.4f}))")
    return "\n".join(lines)


def evaluate(pairs, reports):
    """Flag rate and AUC per category."""
    by = defaultdict(list)
    for p, rep in zip(pairs, reports):
        by[(p.category, p.label)].append(rep)
    correct = [rep.score for (c, l), reps in by.items() if l == 0 for rep in reps]
    rows = {}
    for (cat, lab), reps in sorted(by.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        flag = 100.0 * sum(r.flagged for r in reps) / len(reps)
        auc = roc_auc(correct, [r.score for r in reps]) if lab == 1 and correct else None
        rows[cat] = {"n": len(reps), "label": lab, "flagged_pct": flag, "auc": auc}
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=LCQUAD_TEST)
    ap.add_argument("--perturbations", type=Path, default=None,
                    help="JSONL with question, sparql, category, label (1 = wrong)")
    add_memory_args(ap)
    ap.add_argument("--benchmark-test", type=Path, default=None, metavar="FILE",
                    help="benchmark perturbations.jsonl: evaluate on its test-split extract "
                         "(--sample gold pairs with their wrong entity / property and "
                         "non-existent id records)")
    ap.add_argument("--audit", type=Path, nargs="*", default=AUDITS, metavar="FILE",
                    help="with --benchmark-test: audit files of the gold pairs (id, judgement); "
                         "prints the AUCs with the gold pairs restricted to those judged faithful "
                         "(and loose) and the wrong pairs made from them (default: "
                         "bench/data/lcquad2_gold_audit.jsonl and pgmr_extract_gold_audit.jsonl; "
                         "none: --audit with no file)")
    ap.add_argument("--sample", type=int, default=1500,
                    help="gold pairs of the --benchmark-test extract (default 1500)")
    ap.add_argument("--priors", type=Path, default=None, help="load support priors (JSON)")
    ap.add_argument("--calibration", type=Path, nargs="*", default=CALIBRATION,
                    help="correct pairs (JSONL with question, sparql) for the support priors")
    ap.add_argument("--train-perturbations", type=Path, default=None,
                    help="benchmark perturbations.jsonl: fit on its train-split gold pairs and "
                         "their wrong_entity / wrong_property records (instead of --calibration)")
    ap.add_argument("--no-near", action="store_true", help="skip the nearest-label variants")
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--dump", type=Path, default=None,
                    help="write the perturbations used as JSONL (same fields as --perturbations)")
    ap.add_argument("--wordnet", type=Path, default=None,
                    help="WordNet relations table (verifier setup wordnet) for the lexical match")
    ap.add_argument("--latency", type=int, default=300,
                    help="time this many pairs one at a time (0: skip)")
    ap.add_argument("--default-model", action="store_true",
                    help="print the built-in models fitted on the calibration files and exit")
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    setup_logging(args.verbose)

    mem = load_memory(args)
    wordnet = None
    if args.wordnet:
        from verifier.lexical import WordNetRelations

        wordnet = WordNetRelations.load(args.wordnet)
    negatives = None
    if args.train_perturbations:
        cal, negatives = benchmark_training(args.train_perturbations)
        cal_source = (f"train split of {args.train_perturbations} ({len(negatives)} wrong "
                      "entity / property pairs as negatives)")
    else:
        cal = [(r["question"], r["sparql"]) for f in args.calibration for r in read_jsonl(f)]
        cal_source = ", ".join(f.name for f in args.calibration)
    if args.default_model:
        for name, neutral, how in (("DEFAULT_MODEL", True, "..., neutral=True"),
                                   ("STATISTICS_MODEL", False, "...")):
            model = estimate_priors(cal, mem, neutral=neutral, wordnet=wordnet,
                                    negatives=negatives).grounding_model
            print(model_literal(name, model, how, len(cal),
                                *([cal_source] if args.train_perturbations else [])) + "\n\n")
        return 0
    if args.benchmark_test:
        pairs = benchmark_test_sample(args.benchmark_test, args.sample, args.seed)
        source = f"test-split extract of {args.benchmark_test} ({args.sample} gold pairs, seed {args.seed})"
    elif args.perturbations:
        raw = read_jsonl(args.perturbations, args.limit)
        try:
            pairs = [Perturbation(r["question"], r["sparql"], str(r["category"]), int(r["label"]),
                                  str(r.get("id", ""))) for r in raw]
        except KeyError as e:
            raise SystemExit(f"{args.perturbations}: record without field {e}") from None
        source = str(args.perturbations)
    else:
        recs = read_jsonl(args.data, args.limit)
        pert = Perturber.for_memory(mem, seed=args.seed)
        pairs = [p for r in recs for p in pert.perturb(r["question"], r["sparql"], r["id"])]
        if not args.no_near:
            pairs += near_perturbations(recs, mem, args.seed)
        source = f"own perturbations of {args.data} ({len(recs)} queries, seed {args.seed})"
    if args.dump:
        with args.dump.open("w", encoding="utf-8") as f:
            for p in pairs:
                f.write(json.dumps(p.to_dict(), ensure_ascii=False) + "\n")
    print(f"pairs: {len(pairs)} from {source}; memory {len(mem)} symbols, "
          f"encoder {mem.encoder.identity}")

    if args.priors:
        priors = SupportPriors.load(args.priors)
    elif cal:
        t = time.perf_counter()
        priors = estimate_priors(cal, mem, wordnet=wordnet, negatives=negatives)
        print(f"support priors from {len(cal)} training pairs "
              f"({cal_source}): {len(priors.expected)} ids, "
              f"kind medians {dict((k, round(v, 3)) for k, v in priors.kind_default.items())} "
              f"({time.perf_counter() - t:.1f}s)")
    else:
        priors = None

    t = time.perf_counter()
    qs = [(p.question, p.sparql) for p in pairs]
    plain_reports = grounding_signals(qs, mem, wordnet=wordnet)
    reports = (grounding_signals(qs, mem, priors=priors, wordnet=wordnet)
               if priors else plain_reports)
    plain, withp = evaluate(pairs, plain_reports), evaluate(pairs, reports)
    print(f"signals computed in {time.perf_counter() - t:.1f}s")
    if args.latency:
        step = max(1, len(qs) // args.latency)
        times = []
        for q, s in qs[::step][:args.latency]:
            t = time.perf_counter()
            grounding_signal(q, s, mem, priors=priors, wordnet=wordnet)
            times.append(1000.0 * (time.perf_counter() - t))
        print(f"latency per pair (one at a time, {len(times)} pairs): "
              f"p50 {np.percentile(times, 50):.1f} ms, p95 {np.percentile(times, 95):.1f} ms")
    print(f"{'category':<22} {'n':>6} {'label':>5} {'flagged':>8} {'AUC':>7} "
          f"{'AUC (no priors)':>16}")
    for cat, row in withp.items():
        auc = "" if row["auc"] is None else f"{row['auc']:.4f}"
        auc0 = "" if plain[cat]["auc"] is None else f"{plain[cat]['auc']:.4f}"
        print(f"{cat:<22} {row['n']:6d} {row['label']:5d} {row['flagged_pct']:7.2f}% {auc:>7} "
              f"{auc0:>16}")
    audited = None
    if args.benchmark_test and args.audit:
        judged = read_audits(args.audit)
        golds = {p.source for p in pairs if p.label == 0}
        counts = {j: sum(judged.get(g) == j for g in golds) for j in AUDIT_GROUPS[-1]}
        audited = audited_aucs(pairs, reports, judged)
        print(f"audited gold pairs: {sum(counts.values())} of {len(golds)} "
              f"({', '.join(f'{j} {n}' for j, n in counts.items())}); AUC with the gold pairs "
              "restricted by judgement and the wrong pairs made from them:")
        print(f"{'gold judged':<24} {'gold':>5} {'wrong_entity':>13} {'AUC':>7} "
              f"{'wrong_property':>15} {'AUC':>7}")
        for name, row in audited.items():
            cells = [f"{row[c]['n']:>{w}d} {fmt_auc(row[c]['auc']):>7}"
                     for c, w in (("wrong_entity", 13), ("wrong_property", 15))]
            print(f"{name:<24} {row['gold']:5d} {' '.join(cells)}")
        if all(g in judged for g in golds):
            bounds = [roc_auc([float(judged[g] in group) for g in golds], [0.0])
                      for group in AUDIT_GROUPS[:2]]
            print(f"over all gold pairs, a perfect detector (1 for the gold pairs judged faithful, "
                  f"0 for the others and every wrong pair) would score AUC {bounds[0]:.4f}; "
                  f"counting loose as right {bounds[1]:.4f}")
    if args.json:
        args.json.write_text(json.dumps({"with_priors": withp, "without_priors": plain,
                                         "audited": audited}, indent=2), encoding="utf-8")

    def get(cat, key):
        v = withp.get(cat, {}).get(key)
        return float("nan") if v is None else v

    print(f"flag_nonexistent={get('nonexistent_id', 'flagged_pct'):.2f} "
          f"auc_wrong_entity={get('wrong_entity', 'auc'):.4f} "
          f"auc_wrong_property={get('wrong_property', 'auc'):.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
