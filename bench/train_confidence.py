"""Fit the proof confidence model (verifier/confidence.py, docs/confidence.md) on training
material only, and write its coefficients to verifier/_data/proof_confidence.json.

Training material (never the shared LLM predictions, never the LC-QuAD 2.0 test pairs outside
the seed-0 sample):

* the seed-0 LC-QuAD 2.0 sample of ``--lcquad-n`` pairs (``bench/deductive_lcquad.py``'s
  ``load_pairs``) with its three perturbations per gold query (``perturbations``), less the
  questions that the LLM predictions also ask (so that the graded bench measures on
  questions the model never saw);
* the training splits in ``../shared/data``: QALD-10 train, QALD-9-plus train (questions not
  already in QALD-10), WikiWebQuestions train (a seed-0 sample of ``--wwq-n``) and the
  LC-QuAD 2.0 train subset, each gold query with the same three perturbations.

Gold pairs are label 1, perturbations label 0.  Every pair is verified once (cached MRS, no
ACE) and its :func:`verifier.confidence.proof_features` stored in ``--cache``; then, per
verdict kind, a logistic model is fitted (L2, balanced classes, the link-confidence
coefficients bounded non-negative so the probability is monotone in them); a verdict with
fewer than ``--min-per-verdict`` pairs of either label gets its (balanced) base rate only,
shrunk towards its table score.
Five-fold cross-validated probabilities on the training material are used to report its
AUC and, for faithful verdicts, the precision and coverage at a few accept thresholds.

    python bench/train_confidence.py [--workers 2] [--reuse] [--out verifier/_data/proof_confidence.json]
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

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

SHARED = ROOT.parent / "shared" / "data"
LLM = Path("/work/data/datasets/llm_predictions.jsonl")

_STATE: dict = {}


def init_worker(corpus_path: str, labels_path: str, sections: dict | None = None) -> None:
    """A worker's verifier: cached MRS, the shared labels, table scores (the model is applied
    afterwards to the stored features), and the configuration ``sections`` on top."""
    from verifier.api import Verifier
    from verifier.config import Config
    from verifier.lexical import LabelIndex
    from verifier.mrs_cache import MrsCorpus

    merged = {"deductive": {"confidence": "table"}, "stacking": {"model": "none"}}  # the deductive signal alone
    for k, v in (sections or {}).items():
        merged.setdefault(k, {}).update(v)
    labels = LabelIndex.cached(labels_path)
    _STATE["v"] = Verifier(Config(merged), labels=labels, mrs=MrsCorpus([corpus_path]))


def run_item(item: dict) -> dict:
    """Verify one pair: its verdict, decision, table score, proof features and links."""
    from verifier.confidence import proof_features

    v = _STATE["v"]
    r = v.verify(item["question"], item["sparql"])
    ded = r.deductive
    out = {"id": item["id"], "verdict": r.verdict, "decision": r.decision, "table": r.score,
           "reason": ((ded.reason if ded else r.error) or "")[:300]}
    if ded is not None:
        out["features"] = proof_features(ded)
        b = ded.best
        if b is not None:
            out["reading"] = b.reading_index
            out["links"] = [f"{l.describe(v.grounder.label(l.symbol.id))}" for l in b.links]
            w = b.weakest_link
            out["weakest"] = w.describe(v.grounder.label(w.symbol.id)) if w is not None else ""
    else:
        out["features"] = None
    return out


def verify_all(items: list[dict], workers: int, sections: dict | None = None,
               sink: Path | None = None) -> list[dict]:
    """Verify the items in ``workers`` processes; results in item order, merged with the
    items, each also appended to ``sink`` as it comes (a partial run can be fitted on)."""
    out = []
    f = sink.open("a", encoding="utf-8") if sink is not None else None
    try:
        with ProcessPoolExecutor(workers, initializer=init_worker,
                                 initargs=(str(SHARED / "mrs" / "questions.jsonl.gz"),
                                           str(SHARED / "wikidata" / "labels.tsv"), sections)) as ex:
            for it, r in zip(items, ex.map(run_item, items, chunksize=8)):
                out.append({**it, **r})
                if f is not None:
                    f.write(json.dumps(out[-1], ensure_ascii=False) + "\n")
                    f.flush()
    finally:
        if f is not None:
            f.close()
    return out


def llm_questions() -> set[str]:
    """The questions of the shared LLM predictions (kept out of training)."""
    out = set()
    if LLM.is_file():
        for line in LLM.open(encoding="utf-8"):
            if line.strip():
                out.add(json.loads(line)["question"])
    return out


def training_items(lcquad_n: int, wwq_n: int, seed: int = 0) -> list[dict]:
    """Gold pairs (label 1) and their perturbations (label 0) of the training material."""
    from deductive_lcquad import load_pairs, perturbations

    held = llm_questions()
    pairs, _, _ = load_pairs(lcquad_n, seed)
    groups: list[tuple[str, list[dict]]] = [("lcquad2_seed0", [d for d in pairs if d["question"] not in held])]
    seen = {d["question"] for d in pairs}

    def read(name: str) -> list[dict]:
        out = []
        for line in (SHARED / name).open(encoding="utf-8"):
            d = json.loads(line)
            if d.get("question") and d.get("sparql") and d["question"] not in seen and d["question"] not in held:
                seen.add(d["question"])
                out.append({"id": d["id"], "question": d["question"], "sparql": d["sparql"]})
        return out

    groups.append(("qald10_train", read("qald10/train.jsonl")))
    groups.append(("qald9plus_train", read("qald9plus/train.jsonl")))
    wwq = read("wikiwebquestions/train.jsonl")
    groups.append(("wwq_train", random.Random(seed).sample(wwq, min(wwq_n, len(wwq)))))
    groups.append(("lcquad2_train_subset", read("lcquad2/train_subset.jsonl")))
    items = []
    for name, gold in groups:
        items += [{"id": d["id"], "question": d["question"], "sparql": d["sparql"], "category": "gold",
                   "label": 1, "group": name} for d in gold]
        items += [{**p, "group": name} for p in perturbations(gold, seed)]
    return items


def _sigmoid(z):
    return 1.0 / (1.0 + np.exp(-np.clip(z, -40, 40)))


def fit_logistic(X: np.ndarray, y: np.ndarray, features: tuple[str, ...], monotone: tuple[str, ...],
                 l2: float = 1.0, class_weight: tuple[float, float] = (1.0, 1.0)
                 ) -> tuple[float, np.ndarray, np.ndarray, np.ndarray]:
    """L2-regularised logistic regression on standardised features, each pair weighted by its
    class (``class_weight``: negative, positive); the coefficients of ``monotone`` features
    bounded non-negative (L-BFGS-B).  Returns (intercept, coef, mean, scale)."""
    from scipy.optimize import minimize

    mean = X.mean(axis=0)
    scale = X.std(axis=0)
    scale[scale < 1e-9] = 1.0
    Z = (X - mean) / scale
    w = np.where(y == 1, class_weight[1], class_weight[0])
    d = Z.shape[1]

    def loss(theta):
        b, c = theta[0], theta[1:]
        z = b + Z @ c
        p = _sigmoid(z)
        eps = 1e-12
        ll = -(w * (y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps))).sum() / len(y)
        reg = 0.5 * l2 * (c @ c) / len(y)
        g = w * (p - y) / len(y)
        grad = np.concatenate([[g.sum()], Z.T @ g + l2 * c / len(y)])
        return ll + reg, grad

    bounds = [(None, None)] + [((0.0, None) if f in monotone else (None, None)) for f in features]
    # a feature constant in this verdict's training pairs carries nothing: its coefficient is 0
    for j in range(d):
        if X[:, j].std() < 1e-9:
            bounds[j + 1] = (0.0, 0.0)
    res = minimize(loss, np.zeros(d + 1), jac=True, method="L-BFGS-B", bounds=bounds)
    return float(res.x[0]), res.x[1:], mean, scale


def fit(rows: list[dict], min_per_verdict: int = 25, l2: float = 1.0):
    """The model's JSON form fitted on ``rows`` (verified training items with features)."""
    from verifier.confidence import FEATURES, MONOTONE_FEATURES, TABLE_SCORES

    models = {}
    counts = {}
    # classes balanced over all the material (gold and perturbed weigh the same in total: a
    # prior of one half), the same weights in every verdict's model
    n_pos = max(1, sum(r["label"] for r in rows))
    n_neg = max(1, len(rows) - n_pos)
    cw = (len(rows) / (2 * n_neg), len(rows) / (2 * n_pos))
    for verdict in sorted({r["verdict"] for r in rows}):
        rs = [r for r in rows if r["verdict"] == verdict]
        y = np.array([r["label"] for r in rs], dtype=float)
        pos, neg = int(y.sum()), int(len(y) - y.sum())
        counts[verdict] = {"gold": pos, "perturbed": neg}
        if pos < min_per_verdict or neg < min_per_verdict:
            # the verdict's weighted base rate, shrunk towards its table score by ten pseudo-pairs
            # (a verdict the training material rarely gives: "weaker" is 11 gold pairs and 2
            # perturbations there, too few to say that real queries of that verdict are right)
            t = TABLE_SCORES[verdict]
            p = (pos * cw[1] + 10 * t) / (pos * cw[1] + neg * cw[0] + 10)
            models[verdict] = {"intercept": float(np.log(p / (1 - p)))}
            continue
        X = np.array([[r["features"].get(f, 0.0) for f in FEATURES] for r in rs], dtype=float)
        b, c, m, s = fit_logistic(X, y, FEATURES, MONOTONE_FEATURES, l2, cw)
        models[verdict] = {"intercept": b, "coef": [round(float(v), 6) for v in c],
                           "mean": [round(float(v), 6) for v in m], "scale": [round(float(v), 6) for v in s]}
    return {"features": list(FEATURES), "models": models, "info": {"pairs_per_verdict": counts}}


def auc(scores, labels) -> float:
    """ROC AUC (ties count a half; :func:`verifier.benchmark.metrics.roc_auc`), NaN with one class."""
    from verifier.benchmark.metrics import roc_auc

    v = roc_auc(labels, scores)
    return float("nan") if v is None else v


def cross_validated(rows: list[dict], folds: int = 5, seed: int = 0, **kw) -> list[float]:
    """Out-of-fold probabilities of every row (folds by question, so a gold query and its
    perturbations stay together)."""
    from verifier.confidence import ConfidenceModel

    questions = sorted({r["question"] for r in rows})
    random.Random(seed).shuffle(questions)
    fold_of = {q: i % folds for i, q in enumerate(questions)}
    out = [0.0] * len(rows)
    for k in range(folds):
        train = [r for r in rows if fold_of[r["question"]] != k]
        model = ConfidenceModel.from_dict(fit(train, **kw))
        for i, r in enumerate(rows):
            if fold_of[r["question"]] == k:
                out[i] = model.probability_of(r["verdict"], r["features"])
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lcquad-n", type=int, default=1000)
    ap.add_argument("--wwq-n", type=int, default=800)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cache", default=str(ROOT / "bench" / "out" / "confidence_train.jsonl"))
    ap.add_argument("--reuse", action="store_true",
                    help="fit on the cached verified pairs (also those of a run cut short)")
    ap.add_argument("--l2", type=float, default=1.0)
    ap.add_argument("--min-per-verdict", type=int, default=25)
    ap.add_argument("--out", default=str(ROOT / "verifier" / "_data" / "proof_confidence.json"))
    args = ap.parse_args(argv)
    if not SHARED.is_dir():
        print(f"shared data not found at {SHARED}", file=sys.stderr)
        return 2
    cache = Path(args.cache)
    if args.reuse and cache.is_file():
        rows = [json.loads(l) for l in cache.open(encoding="utf-8") if l.strip()]
    else:
        t0 = time.time()
        items = training_items(args.lcquad_n, args.wwq_n, args.seed)
        # in random order, so that a run cut short leaves a sample of every group in the cache
        random.Random(args.seed).shuffle(items)
        print(f"{len(items)} training pairs {dict(Counter((i['group'], i['label']) for i in items))}, "
              f"built in {time.time() - t0:.0f} s", flush=True)
        t1 = time.time()
        cache.parent.mkdir(parents=True, exist_ok=True)
        cache.write_text("", encoding="utf-8")
        rows = verify_all(items, args.workers, sink=cache)
        print(f"verified in {time.time() - t1:.0f} s")
    rows = [r for r in rows if r.get("features") is not None]
    print(f"{len(rows)} pairs with a deductive result; verdicts by label: "
          f"{dict(Counter((r['verdict'], r['label']) for r in rows))}")
    kw = {"min_per_verdict": args.min_per_verdict, "l2": args.l2}
    oof = cross_validated(rows, seed=args.seed, **kw)
    labels = [r["label"] for r in rows]
    print(f"training material, 5-fold: auc_model={auc(oof, labels):.3f} "
          f"auc_table={auc([r['table'] for r in rows], labels):.3f}")
    faithful = [(p, r["label"]) for p, r in zip(oof, rows) if r["verdict"] == "faithful"]
    n_gold = sum(labels)
    print("accept threshold on faithful verdicts (out-of-fold): threshold precision gold_accepted")
    for t in (0.0, 0.3, 0.5, 0.6, 0.7, 0.8, 0.9):
        acc = [l for p, l in faithful if p >= t]
        prec = sum(acc) / len(acc) if acc else float("nan")
        print(f"  {t:.1f}  {prec:.3f}  {sum(acc) / max(1, n_gold):.3f}")
    model = fit(rows, **kw)
    model["info"].update({
        "fitted_by": "bench/train_confidence.py", "pairs": len(rows),
        "material": "seed-0 LC-QuAD 2.0 sample (less questions of the LLM predictions), QALD-10 train, "
                    "QALD-9-plus train, WikiWebQuestions train sample, LC-QuAD 2.0 train subset; "
                    "gold = 1, three perturbations each = 0",
        "cv_auc": round(auc(oof, labels), 4)})
    Path(args.out).write_text(json.dumps(model, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
