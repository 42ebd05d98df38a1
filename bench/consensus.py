"""Semantic consensus of candidate queries on the shared LLM predictions (issue 61).

    nice python bench/consensus.py [--workers 2] [--budget UNITS] [--timing-questions 40]
        [--data DIR] [--out rows.jsonl]

(``VERIFIER_SHARED`` names the shared folder when it is not ``../shared``.)

Data: ``../shared/data/llm_predictions/grasp_*_test.jsonl`` (fields ``question_id``,
``question``, ``sparql``, ``score_f1``, ``exact``, ``model``).  Predictions are grouped by
question (``question_id``, or the question text when it is null) within a file; each
prediction's candidates are the other runs of the same question plus itself, clustered with
:func:`verifier.consensus.cluster_candidates` (a null query does not parse: its own
singleton).  A prediction's consensus share is ``others_share`` of its
:class:`verifier.consensus.ConsensusEvidence`: the share of the *other* candidates that are
equivalent to it (the issue's measure; 0 for a lone query whatever the number of runs);
``share`` (its cluster's size over the number of candidates, itself included) is printed too.

Figures, per file and overall, over the labelled predictions of questions with at least two
candidates (a lone candidate has no consensus), for two labels: ``exact`` (not null), and
the LLM benchmark's ``label_f1`` (:func:`verifier.benchmark.llm.f1_category`: answer F1 1
correct, 0 wrong, partial F1 and no query left out; the issue's figures use this one):

* ROC AUC of the share for predicting ``exact`` (``sklearn.metrics.roc_auc_score``);
* accepting when the share is >= 0.5: accept-precision (share of accepted that are exact)
  and the share of exact queries accepted;
* time to cluster 10 candidates: questions with at least 10 predictions (a seeded sample),
  10 of their predictions clustered with a fresh cache, median and p95 per question, wall
  clock and CPU time (the machine's load average is printed: wall times on a loaded machine
  are a multiple of the CPU times).

Last line: ``consensus_auc=<x> share_auc=<x> consensus_accept_precision=<x>
consensus_correct_accepted=<x>`` (label ``exact``) ``consensus_auc_f1=<x>
consensus_accept_precision_f1=<x> consensus_correct_accepted_f1=<x>`` (label ``label_f1``)
``[stacked figures] cluster10_p50_ms=<x> cluster10_p95_ms=<x> cluster10_cpu_p50_ms=<x>
cluster10_cpu_p95_ms=<x>``.

Stacked-model figures (issue 61, part 3) plug in at :func:`stacked_figures`: it receives
every labelled prediction with its consensus evidence and returns ``{name: value}`` pairs that
join the report and the last line.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from verifier.consensus import (DEFAULT_BUDGET, EquivalenceCache, cluster_candidates,  # noqa: E402
                                consensus_evidence)

PREDICTIONS = Path(os.environ.get("VERIFIER_SHARED", ROOT.parent / "shared")) / "data" / "llm_predictions"


def load_groups(folder: Path = PREDICTIONS) -> dict[tuple[str, str], list[dict[str, Any]]]:
    """``{(file name, question key): [prediction, ...]}`` in file order."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for f in sorted(folder.glob("grasp_*_test.jsonl")):
        for line in f.open(encoding="utf-8"):
            if line.strip():
                d = json.loads(line)
                groups[(f.stem, d.get("question_id") or d.get("question") or "")].append(d)
    return groups


def score_group(args: tuple[tuple[str, str], list[dict[str, Any]], int]) -> list[dict[str, Any]]:
    """The consensus evidence of every prediction of one question (a worker's unit)."""
    key, preds, budget = args
    c = cluster_candidates([p.get("sparql") for p in preds], budget=budget, cache=_CACHE)
    ev = consensus_evidence(c)
    n = len(preds)
    return [{"file": key[0], "question": key[1], "exact": p.get("exact"), "model": p.get("model"),
             "label_f1": _label_f1(p),
             "n": n, "share": e.share, "others_share": e.others_share,
             "n_clusters": e.n_clusters, "undecided": e.undecided, "parsed": e.parsed,
             "checks": c.prover_checks if i == 0 else 0} for i, (p, e) in enumerate(zip(preds, ev))]


def _label_f1(p: dict[str, Any]) -> bool | None:
    """The LLM benchmark's label (:func:`verifier.benchmark.llm.f1_category`): answer F1 1 ->
    correct, 0 -> wrong, partial F1 or no query -> none."""
    f1 = p.get("score_f1")
    if not p.get("sparql") or f1 is None or 0 < f1 < 1:
        return None
    return f1 >= 1


_CACHE = EquivalenceCache()  # one per process: reused across the questions a worker scores


def figures(rows: list[dict[str, Any]], key: str = "share", label: str = "exact") -> dict[str, float | int | None]:
    """AUC, accept-precision and correct share accepted at ``key >= 0.5`` (``label``: the
    field that says a prediction is correct)."""
    from sklearn.metrics import roc_auc_score

    y = [bool(r[label]) for r in rows]
    s = [float(r[key]) for r in rows]
    acc = [yy for yy, v in zip(y, s) if v >= 0.5]
    n_pos = sum(y)
    return {"n": len(rows), "correct": n_pos,
            "auc": roc_auc_score(y, s) if 0 < n_pos < len(rows) else None,
            "accept_precision": sum(acc) / len(acc) if acc else None,
            "correct_accepted": sum(acc) / n_pos if n_pos else None}


def report(scored: list[dict[str, Any]], label: str) -> tuple[dict, dict, list[dict[str, Any]]]:
    """Print the per-file table for one label; returns the overall figures (others_share,
    share) and the rows used."""
    usable = [r for r in scored if r[label] is not None and r["n"] >= 2]
    print(f"\n{'file':<28} {'preds':>6} {'correct':>7} {'AUC':>6} {'acc.prec':>8} {'correct acc.':>12} "
          f"{'AUC share':>9} {'acc.prec':>8} {'correct acc.':>12} {'undecided':>9}")
    o = f = {}
    for name in sorted({r["file"] for r in scored}) + ["overall"]:
        rows = usable if name == "overall" else [r for r in usable if r["file"] == name]
        if not rows:
            n = sum(1 for r in scored if r["file"] == name)
            print(f"{name:<28} {n:>6}  (one candidate per question: no consensus)")
            continue
        o, f = figures(rows, "others_share", label), figures(rows, "share", label)
        und = sum(1 for r in rows if r["undecided"])
        print(f"{name:<28} {o['n']:>6} {o['correct']:>7} {_fmt(o['auc']):>6} {_fmt(o['accept_precision']):>8} "
              f"{_fmt(o['correct_accepted']):>12} {_fmt(f['auc']):>9} {_fmt(f['accept_precision']):>8} "
              f"{_fmt(f['correct_accepted']):>12} {und:>9}")
    return o, f, usable


def stacked_figures(rows: list[dict[str, Any]]) -> dict[str, float]:
    """Figures of the stacked model with consensus features (issue 61, part 3): filled in by
    the stacking work.  ``rows``: every prediction of a question with at least two candidates
    labelled ``exact``, with ``file``, ``question``, ``exact``, ``label_f1``, ``share``,
    ``others_share`` ...;
    return e.g. ``{"stacked_auc": ..., "accept_precision": ..., "correct_accepted": ...}``."""
    return {}


def time_clustering(groups: dict[tuple[str, str], list[dict[str, Any]]], n_questions: int, budget: int,
                    seed: int = 61) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU milliseconds to cluster 10 predictions of each sampled question
    (fresh cache; CPU time is what a loaded machine does not inflate much)."""
    eligible = sorted(k for k, v in groups.items() if len(v) >= 10)
    rng = random.Random(seed)
    sample = rng.sample(eligible, min(n_questions, len(eligible)))
    times, cpu = [], []
    cluster_candidates(["SELECT ?x WHERE { ?x ?p ?o }"])  # build the parser outside the timings
    for k in sample:
        preds = rng.sample(groups[k], 10)
        t0, c0 = time.perf_counter(), time.process_time()
        cluster_candidates([p.get("sparql") for p in preds], budget=budget, cache=EquivalenceCache())
        times.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    return times, cpu


def _p95(xs: list[float]) -> float:
    return sorted(xs)[max(0, int(round(0.95 * len(xs))) - 1)]


def _fmt(v: Any) -> str:
    return "nan" if v is None else (f"{v:.3f}" if isinstance(v, float) else str(v))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--budget", type=int, default=DEFAULT_BUDGET, help="Z3 resource units per direction")
    ap.add_argument("--timing-questions", type=int, default=40)
    ap.add_argument("--data", type=Path, default=PREDICTIONS)
    ap.add_argument("--out", type=Path, default=None, help="write the per-prediction rows (JSONL)")
    args = ap.parse_args(argv)
    if not args.data.is_dir():
        print(f"no predictions at {args.data}", file=sys.stderr)
        return 2
    groups = load_groups(args.data)
    t0 = time.perf_counter()
    work = [(k, v, args.budget) for k, v in groups.items()]
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as ex:
            scored = [r for rows in ex.map(score_group, work, chunksize=4) for r in rows]
    else:
        scored = [r for w in work for r in score_group(w)]
    seconds = time.perf_counter() - t0
    n_checks = sum(r["checks"] for r in scored)
    print(f"{len(scored)} predictions, {len(groups)} questions clustered in {seconds:.1f} s "
          f"({n_checks} prover checks, {args.workers} worker(s), budget {args.budget} units)")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text("".join(json.dumps(r) + "\n" for r in scored))
    print("\nLabel `exact` (the prediction's answers equal the gold answers):")
    o, f, usable = report(scored, "exact")
    print("(AUC, acc.prec, correct acc.: others_share, accepting at >= 0.5; then the same for share = "
          "cluster size / candidates; undecided: predictions with an undecided pair)")
    print("\nLabel `label_f1` (the LLM benchmark's: answer F1 1 correct, 0 wrong; partial F1 and no query "
          "left out):")
    o1, _, _ = report(scored, "label_f1")
    stacked = stacked_figures(usable)
    for k, v in stacked.items():
        print(f"{k}: {_fmt(v)}")
    times, cpu = time_clustering(groups, args.timing_questions, args.budget)
    p50, p95 = statistics.median(times), _p95(times)
    print(f"\nclustering 10 candidates ({len(times)} questions, fresh cache): median {p50:.0f} ms, "
          f"p95 {p95:.0f} ms, max {max(times):.0f} ms wall; CPU median {statistics.median(cpu):.0f} ms, "
          f"p95 {_p95(cpu):.0f} ms (load average {os.getloadavg()[0]:.1f})")
    extra = " ".join(f"{k}={_fmt(v)}" for k, v in stacked.items())
    print(f"consensus_auc={_fmt(o['auc'])} share_auc={_fmt(f['auc'])} "
          f"consensus_accept_precision={_fmt(o['accept_precision'])} "
          f"consensus_correct_accepted={_fmt(o['correct_accepted'])} consensus_auc_f1={_fmt(o1['auc'])} "
          f"consensus_accept_precision_f1={_fmt(o1['accept_precision'])} "
          f"consensus_correct_accepted_f1={_fmt(o1['correct_accepted'])} " + (extra + " " if extra else "")
          + f"cluster10_p50_ms={p50:.0f} cluster10_p95_ms={p95:.0f} "
          f"cluster10_cpu_p50_ms={statistics.median(cpu):.0f} cluster10_cpu_p95_ms={_p95(cpu):.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
