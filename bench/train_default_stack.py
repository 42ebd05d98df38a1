"""Train the stacking model shipped with the package (``verifier/_data/stacking/default-model.json``).

    nice python bench/train_default_stack.py [--pairs-per-source 60] [--out PATH] [--stage all|compute|fit]

Training material: shared *training* splits only, never an LLM prediction and never an
LC-QuAD test pair: gold pairs of ``lcquad2/train_subset``, ``qald10/train``,
``qald9plus/train``, ``qald7/train`` and ``wikiwebquestions/train`` (de-duplicated by
question; questions that also occur among the LLM predictions are dropped), a seeded sample
of ``--pairs-per-source`` pairs of each file (``random.Random("0:default-stack:<file>")``);
every sampled pair is perturbed with the benchmark's perturbations
(:func:`verifier.benchmark.perturb.perturb_pair`, seed 0, each perturbation proven
non-equivalent to the gold query): the gold query is a correct row (label 1), up to four
perturbations of seeded categories are hallucinated rows (label 0).

Signals: weight-free only.  The deductive verdict (:class:`verifier.api.Verifier`, the shared
MRS corpora and labels, stacking off), PGMR grounding with the weight-free encoder (memory of
the shared ``wikidata/labels.tsv``), the query shape, and consensus.  There are no candidate
sets in the training material, so consensus is *simulated* for two thirds of the pairs (the
other third keeps it missing, as for a single ``verify()``): a set of candidates made of
``k`` copies of the gold query (``k`` uniform in 1..9) and the perturbations filling the
other slots (each at least once, 10 slots in all when there are enough perturbations); each
row's consensus evidence is computed from those clusters (equivalence known by construction),
with the cluster-level deductive evidence of its copies' verdicts (``with_verdicts``); the
cluster-level features (:data:`UNSIMULATED`) are held at 0 in training all the same (weight
0): in simulated sets they follow the label by construction and did not transfer.
This is a prior (a correct query is as likely as not to be the majority; a wrong one shares
the other slots), not a measurement: ``bench/consensus.py`` reports how the shipped model
does on the real candidate sets of the LLM predictions.  HDM (weights) and execution (no
Wikidata KG) are missing in every row, so the model gives them no weight.

Rows with their signals are cached in ``bench/out/default_stack/rows.jsonl`` (``--stage
fit`` re-fits from it).  Fit: :func:`verifier.stacking.train.train_from_rows` (groups: the
gold pair, missing-signal augmentation 0.3 so that a missing PGMR memory or a lone query is
well covered; the refutation veto: a deductive refutation is never accepted, and the
``precision-first`` threshold is chosen so; ``--target-precision`` / ``--precision-z``: that
threshold's rule, :func:`verifier.stacking.model.fit_stacker`).  Prints the out-of-fold AUC (5 folds by gold pair) and the operating points;
last line ``oof_auc=<x> oof_auc_no_consensus=<x> rows=<n> correct=<n> accept=<x> reject=<x> balanced=<x>``.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SHARED = Path(os.environ.get("VERIFIER_SHARED", ROOT.parent / "shared")) / "data"
PREDICTIONS = Path(os.environ.get("VERIFIER_LLM_PREDICTIONS", "/work/data/datasets/llm_predictions.jsonl"))
#: consensus features the default model is trained without (held at 0: weight 0): in the
#: simulated candidate sets they follow the label by construction, and with them the model's
#: AUC on the LLM predictions fell from 0.848 to 0.797 (bench/consensus.py, issue 61)
UNSIMULATED = ("cons_margin", "cons_cluster_accept", "cons_elsewhere_accept", "cons_cluster_best",
               "cons_verdicts_missing")
SOURCES = ("lcquad2/train_subset.jsonl", "qald10/train.jsonl", "qald9plus/train.jsonl",
           "qald7/train.jsonl", "wikiwebquestions/train.jsonl")
OUT_DIR = ROOT / "bench" / "out" / "default_stack"
MODEL = ROOT / "verifier" / "_data" / "stacking" / "default-model.json"
log = logging.getLogger("bench.train_default_stack")


def _norm(q: str) -> str:
    return " ".join(q.casefold().split())


def sample_pairs(per_source: int) -> list[Any]:
    """The sampled gold pairs (module docstring)."""
    from verifier.benchmark.gold import load_gold_pairs

    banned: set[str] = set()
    if PREDICTIONS.is_file():
        for line in PREDICTIONS.open(encoding="utf-8"):
            if line.strip():
                banned.add(_norm(json.loads(line).get("question") or ""))
    pairs = [p for p in load_gold_pairs(SHARED, SOURCES) if _norm(p.question) not in banned]
    out = []
    for src in SOURCES:
        mine = [p for p in pairs if p.dataset == src.split("/")[0]]  # every source is a train split
        rng = random.Random(f"0:default-stack:{src}")
        out += rng.sample(mine, min(per_source, len(mine)))
    return out


def simulated_consensus(n_wrong: int, rng: random.Random,
                        verdicts: list[tuple[str | None, float | None]] | None = None
                        ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Consensus evidence of the gold query and of each of ``n_wrong`` perturbations in a
    simulated candidate set (module docstring).  ``verdicts``: the deductive ``(decision,
    score)`` of the gold query, then of each perturbation (every copy in a cluster shares its
    query's), for the cluster-level evidence of :func:`verifier.consensus.with_verdicts`."""
    from verifier.consensus import ConsensusEvidence, with_verdicts

    k = rng.randint(1, 9)
    slots = max(n_wrong, 10 - k)
    sizes = [1] * n_wrong
    for _ in range(slots - n_wrong):
        sizes[rng.randrange(n_wrong)] += 1
    n = k + slots
    all_sizes = [k] + sizes
    ranked = sorted(all_sizes, reverse=True)
    # a cluster's position: that of the first cluster of its size (a tie favours no one)
    index = {c: ranked.index(size) for c, size in enumerate(all_sizes)}

    def ev(c: int) -> ConsensusEvidence:
        size = all_sizes[c]
        other = max((s for j, s in enumerate(all_sizes) if j != c), default=0)
        return ConsensusEvidence(size / n, n, len(all_sizes), None, index[c], "", 0, size, True,
                                 (size - 1) / (n - 1), other)
    evs = [ev(c) for c in range(len(all_sizes))]
    if verdicts is not None:
        # every candidate of the simulated set: the copies of each query, with its verdict
        cands = [(c, verdicts[c]) for c in range(len(all_sizes)) for _ in range(all_sizes[c])]
        full = with_verdicts([evs[c] for c, _ in cands], [v[0] for _, v in cands], [v[1] for _, v in cands])
        first = {}
        for (c, _), e in zip(cands, full):
            first.setdefault(c, e)
        evs = [first[c] for c in range(len(all_sizes))]
    return evs[0].to_dict(), [e.to_dict() for e in evs[1:]]


def compute(per_source: int, out_dir: Path) -> list[dict[str, Any]]:
    """Perturb the sampled pairs and compute their signals (cached, module docstring)."""
    from parsers.sparql import SparqlError, parse_tree
    from verifier.api import Verifier
    from verifier.benchmark.perturb import PerturbConfig, perturb_pair
    from verifier.benchmark.plausible import build_stats, read_labels
    from verifier.config import load_config
    from verifier.stacking.runtime import PgmrRunner

    out_dir.mkdir(parents=True, exist_ok=True)
    cache = out_dir / "rows.jsonl"
    done: dict[str, list[dict[str, Any]]] = {}
    if cache.is_file():
        for line in cache.open(encoding="utf-8"):
            if line.strip():
                d = json.loads(line)
                done.setdefault(d["group"], []).append(d)
    pairs = sample_pairs(per_source)
    todo = [p for p in pairs if p.id not in done]
    random.Random("0:default-stack:order").shuffle(todo)  # sources interleaved: any prefix is a fair sample
    print(f"{len(pairs)} gold pairs sampled ({per_source} per file), {len(todo)} to compute")
    if todo:
        labels_path = SHARED / "wikidata" / "labels.tsv"
        labels = read_labels(labels_path)
        from verifier.benchmark.gold import load_gold_pairs

        trees = []
        for p in load_gold_pairs(SHARED, SOURCES):
            try:
                trees.append(parse_tree(p.sparql))
            except SparqlError:
                pass
        stats = build_stats(trees, labels, labels.keys())
        cfg_path = out_dir / "verifier.toml"
        corpora = [str((SHARED / "mrs" / f).resolve()) for f in ("questions.jsonl.gz", "chemistry.jsonl.gz")]
        cfg_path.write_text("[mrs]\ncorpora = " + json.dumps(corpora) + "\n[grounding]\nlabels = "
                            + json.dumps(str(labels_path.resolve())) + '\n[stacking]\nmodel = "none"\n')
        ver = Verifier(load_config(cfg_path))
        pgmr = PgmrRunner.from_paths(labels_path, ROOT / "bench" / "out" / "pgmr_memory")
        conf = PerturbConfig(seed=0, max_attempts=4, timeout_ms=1000, retry_timeout_ms=4000)
        t0 = time.perf_counter()
        with cache.open("a", encoding="utf-8") as f:
            for i, pair in enumerate(todo):
                try:
                    outcome = perturb_pair(pair, stats, conf)
                except Exception as e:  # noqa: BLE001 - a bad pair never loses the others
                    log.warning("perturbing %s failed: %s", pair.id, e)
                    continue
                recs = list(outcome.records)
                if len(recs) < 2:
                    continue
                rng = random.Random(f"0:default-stack:{pair.id}")
                wrong = recs[1:]
                rng.shuffle(wrong)
                recs = [recs[0]] + sorted(wrong[:4], key=lambda r: r.category)
                for r in recs:
                    v = ver.verify(r.question, r.sparql, signals=("deductive",))
                    sig = {"deductive": {"decision": v.decision, "score": v.score,
                                         "details": {"explanation": v.explanation[:2000],
                                                     "signals": {"deductive": dict(v.signals.get("deductive", {}))}}},
                           "pgmr": pgmr.run(r.question, r.sparql)}
                    row = {"group": pair.id, "source": f"{pair.dataset}/{pair.split}", "category": r.category,
                           "question": r.question, "sparql": r.sparql, "label": int(r.label), "signals": sig}
                    f.write(json.dumps(row) + "\n")
                    done.setdefault(pair.id, []).append(row)
                f.flush()
                if (i + 1) % 20 == 0:
                    print(f"  {i + 1}/{len(todo)} pairs in {time.perf_counter() - t0:.0f} s", flush=True)
    return [r for p in pairs for r in done.get(p.id, [])]


def fit(rows: list[dict[str, Any]], out: Path | None, augment: float = 0.3,
        consensus_share: float = 2 / 3, Cs: tuple[float, ...] = (0.01, 0.05, 0.3),
        target: float = 0.95, z: float = 0.0) -> Any:
    """Fit the model on the rows with simulated consensus for ``consensus_share`` of the
    gold pairs (module docstring) and save it to ``out`` (``None``: not saved)."""
    from verifier.stacking.train import TrainRow

    by_group: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        by_group.setdefault(r["group"], []).append(r)
    train = []
    for g in sorted(by_group):
        rs = by_group[g]
        rng = random.Random(f"0:default-stack:consensus:{g}")
        gold = [r for r in rs if r["label"] == 1]
        wrong = [r for r in rs if r["label"] == 0]
        cons: dict[int, dict[str, Any]] = {}
        if gold and wrong and rng.random() < consensus_share:
            ded = [(r["signals"].get("deductive") or {}) for r in [gold[0]] + wrong]
            gev, wev = simulated_consensus(len(wrong), rng, [(d.get("decision"), d.get("score")) for d in ded])
            cons[id(gold[0])] = gev
            for r, e in zip(wrong, wev):
                cons[id(r)] = e
        for r in rs:
            sig = dict(r["signals"])
            if id(r) in cons:
                sig["consensus"] = cons[id(r)]
            train.append(TrainRow(r["question"], r["sparql"], int(r["label"]), g, sig))
    import numpy as np

    from verifier.stacking import FEATURE_NAMES, fit_stacker
    from verifier.stacking.train import augment_missing, evidence_of, matrix, refuted_rows

    info = {"trained_by": "bench/train_default_stack.py", "sources": list(SOURCES),
            "signals": ["deductive", "pgmr (weight-free encoder)", "shape", "consensus (simulated)"],
            "n_pairs": len(by_group), "llm_predictions": "none", "augment_missing": augment,
            "class_weights": "equal total weight per class", "refutation_veto": True,
            "features_held_at_zero": list(UNSIMULATED)}
    X = matrix([evidence_of(t) for t in train])
    for name in UNSIMULATED:
        X[:, FEATURE_NAMES.index(name)] = 0.0
    y = np.array([t.label for t in train])
    g = np.array([t.group for t in train], dtype=object)
    # each class weighs the same in total (a neutral prior: one gold query per 4 perturbations)
    w = np.where(y == 1, 0.5 / max(1, int(y.sum())), 0.5 / max(1, int((1 - y).sum()))) * len(y)
    n = len(y)
    X, y, g, w = augment_missing(X, y, g, share=augment, seed=0, weights=w)
    mask = np.arange(len(y)) < n  # operating points and the reported AUC: the real rows only
    # the L2 strength with the best out-of-fold AUC on these rows
    fits = [fit_stacker(X, y, FEATURE_NAMES, groups=g, sample_weight=w, balanced=False, seed=0,
                        info=info, point_mask=mask, C=c, target_precision=target, precision_z=z,
                        never_accept=refuted_rows(X)) for c in Cs]
    for f in fits:
        log.info("C=%s: out-of-fold AUC %s", f.info["C"], f.info["auc_oof_points"])
    model = max(fits, key=lambda f: f.info.get("auc_oof_points") or 0.0)
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        model.save(out)
    return model, train


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pairs-per-source", type=int, default=60)
    ap.add_argument("--stage", choices=("all", "compute", "fit"), default="all")
    ap.add_argument("--out", type=Path, default=MODEL)
    ap.add_argument("--work", type=Path, default=OUT_DIR)
    ap.add_argument("--target-precision", type=float, default=0.95,
                    help="accept precision of the precision-first point on the training rows")
    ap.add_argument("--precision-z", type=float, default=0.0,
                    help="its Wilson lower bound at this many standard deviations must reach the target")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    if not SHARED.is_dir():
        print(f"no shared data at {SHARED}", file=sys.stderr)
        return 2
    if args.stage == "fit":
        rows = [json.loads(l) for l in (args.work / "rows.jsonl").open() if l.strip()]
    else:
        rows = compute(args.pairs_per_source, args.work)
    if args.stage == "compute":
        return 0
    model, train = fit(rows, args.out, target=args.target_precision, z=args.precision_z)
    meta = model.info
    from collections import Counter

    print(f"{len(train)} rows ({sum(r.label for r in train)} correct) from {meta['n_pairs']} gold pairs; "
          f"by source: {dict(Counter(r['source'] for r in rows))}")
    print(f"by category: {dict(Counter(r['category'] for r in rows))}")
    pf, bal = model.operating_points["precision-first"], model.operating_points["balanced"]
    print(f"C {meta['C']} (best out-of-fold AUC of 0.01, 0.05, 0.3)")
    print(f"written {args.out}: out-of-fold AUC {meta['auc_oof_points']} (5 folds by gold pair, "
          f"over the {meta['point_rows']} real rows; augmented copies only train), calibration {meta['calibration']}, ECE {meta['ece_oof']}; "
          f"precision-first accept >= {pf.accept:.3f}, reject < {pf.reject:.3f}; balanced {bal.accept:.3f}")
    # the simulated consensus is label-correlated by construction: the same fit without it
    plain, _ = fit(rows, None, consensus_share=0.0)
    print(f"without the simulated consensus (every row a lone query): out-of-fold AUC "
          f"{plain.info['auc_oof_points']}")
    print(f"oof_auc={meta['auc_oof_points']} oof_auc_no_consensus={plain.info['auc_oof_points']} rows={len(train)} correct={sum(r.label for r in train)} "
          f"accept={pf.accept:.3f} reject={pf.reject:.3f} balanced={bal.accept:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
