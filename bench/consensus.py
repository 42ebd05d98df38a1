"""Semantic consensus and the stacked decision on the shared LLM predictions (issue 61).

    nice python bench/consensus.py [--workers 2] [--budget UNITS] [--timing-questions 40]
        [--data FILE] [--limit-questions N] [--out DIR] [--stage all|compute|fit]
        [--stacker lr|two-stage|hgb] [--fold-salt S] [--precision-z Z]

Data: ``/work/data/datasets/llm_predictions.jsonl`` (``$VERIFIER_LLM_PREDICTIONS``, or
``--data``; the built ``llm_predictions`` dataset: fields ``id``, ``question_id``,
``question``, ``sparql``, ``model``, ``label`` 1 correct / 0 wrong / null partial or no
query).  Predictions are grouped by ``question_id`` (the question text when it is null);
each prediction's candidates are the other runs of the same question plus itself, clustered
with :func:`verifier.consensus.cluster_candidates` (a null query does not parse: its own
singleton).  A prediction's consensus share is ``others_share`` of its
:class:`verifier.consensus.ConsensusEvidence`: the share of the *other* candidates that are
equivalent to it (0 for a lone query whatever the number of runs).

Every prediction also gets the weight-free signals (stage ``compute``, cached in
``<out>/signals.jsonl`` by prediction id and reused by the next run): the deductive verdict
(:class:`verifier.api.Verifier` with the shared MRS corpora and labels, ``signals=
("deductive",)``) and PGMR grounding with the weight-free encoder (memory of the shared
``wikidata/labels.tsv`` in ``bench/out/pgmr_memory``).  No HDM (weights).  There is no Wikidata
KG here, but each record says what its query returned when the run that generated it executed
it on a Wikidata endpoint (result size or error): ``--execution recorded`` (the default) gives
that to the cross-fitted stacker as execution evidence
(:func:`verifier.benchmark.llm.recorded_execution`), ``--execution none`` leaves it out.

Figures over the labelled predictions of questions with at least two candidates:

* consensus: ROC AUC of ``others_share``; accepting at ``others_share >= 0.5``:
  accept-precision (share of accepted that are correct) and the share of correct ones
  accepted;
* stacked (cross-fitted by question): 5 folds of questions; the model that scores a fold is
  :func:`verifier.stacking.fit_stacker` trained on the other four folds' predictions
  (deductive, PGMR, shape and consensus features, the consensus with each cluster's
  deductive evidence, :func:`verifier.consensus.with_verdicts`; missing-signal augmentation;
  the L2 strength chosen among ``--C`` inside each fold's training folds); ROC AUC of the
  out-of-fold probabilities; accept-precision and correct share accepted at each fold
  model's own ``precision-first`` point, chosen on its training folds only: the lowest
  threshold whose out-of-fold training precision has a Wilson lower bound (``--precision-z``
  1.28 standard deviations, one-sided 90 %) of at least ``--target-precision`` 0.90, the
  median over 50 bootstrap resamples of the questions; with the refutation veto (a query the
  deductive check refuted is never accepted, the threshold chosen so; ``--no-veto``); and at
  fixed thresholds 0.5 / 0.6 / 0.7 / 0.8 of the out-of-fold probability (with and without
  the veto); ``--drop`` leaves features out (ablations);
* the frontier: accept-precision at correct accepted 0.60 of the pooled out-of-fold
  probabilities (the highest threshold reaching that coverage, ties together, with the veto):
  what the ranking allows there whatever the threshold rule, so a shortfall of the
  precision-first point can be told apart as ranking or threshold;
* ``--stacker two-stage``: a second stage for the questions with two or more candidates; its
  inputs are the features plus cluster-level features of the first stage's probabilities of
  the question's candidates (:func:`stage_two_features`: own, own cluster's mean and max,
  best other cluster's mean, the margin, own rank, whether its cluster is best); the
  first-stage probabilities it is trained on are out of fold (nested cross-fitting by
  question inside the training folds, the first stage's C), the evaluated fold's from the
  first stage trained on the training folds; a lone candidate keeps the first stage and its
  point.  ``--stacker hgb``: scikit-learn's HistGradientBoostingClassifier with monotone
  constraints (:data:`HGB_MONOTONE`) in place of the logistic regression, AUC and frontier
  only (no operating point: every decision abstains);
* the shipped default model (``verifier/_data/stacking/default-model.json``, trained on no
  LLM prediction, ``bench/train_default_stack.py``) applied to the same evidence: AUC and its
  default point's figures;
* ``--cached-only``: no signal is computed; consensus figures over every question, the
  stacked and default-model figures over the questions whose predictions all have cached
  signals (a run stopped part-way leaves the first questions of the file);
* time to cluster 10 candidates: questions with at least 10 predictions (a seeded sample),
  10 of their predictions clustered with a fresh cache, median and p95 per question (wall
  clock and CPU; the load average is printed).

Last line: ``consensus_auc=<x> stacked_auc=<x> accept_precision=<x> correct_accepted=<x>
frontier_precision_060=<x> default_auc=<x> default_accept_precision=<x> default_correct_accepted=<x>
cluster10_p50_ms=<x> cluster10_p95_ms=<x>`` (``accept_precision`` / ``correct_accepted``:
the cross-fitted stacker at its precision-first points).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
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

PREDICTIONS = Path(os.environ.get("VERIFIER_LLM_PREDICTIONS", "/work/data/datasets/llm_predictions.jsonl"))
SHARED = Path(os.environ.get("VERIFIER_SHARED", ROOT.parent / "shared")) / "data"
OUT = ROOT / "bench" / "out" / "consensus"
log = logging.getLogger("bench.consensus")


def load_groups(path: Path = PREDICTIONS, limit_questions: int | None = None,
                seed: int = 61) -> dict[str, list[dict[str, Any]]]:
    """``{question key: [prediction, ...]}`` in file order (``limit_questions``: a seeded
    sample of the questions)."""
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    with path.open(encoding="utf-8") as f:
        for n, line in enumerate(f):
            if line.strip():
                d = json.loads(line)
                d.setdefault("id", f"line-{n}")
                groups[str(d.get("question_id") or d.get("question") or "")].append(d)
    if limit_questions is not None and limit_questions < len(groups):
        keep = set(random.Random(seed).sample(sorted(groups), limit_questions))
        groups = {k: v for k, v in groups.items() if k in keep}
    return dict(groups)


def bench_config(out: Path) -> Path:
    """A ``verifier.toml`` naming the shared MRS corpora and labels (written into ``out``)."""
    corpora = [str((SHARED / "mrs" / f).resolve()) for f in
               ("questions.jsonl.gz", "ood_sample.jsonl.gz", "chemistry.jsonl.gz")
               if (SHARED / "mrs" / f).is_file()]
    text = "[mrs]\ncorpora = " + json.dumps(corpora) + "\n"
    labels = SHARED / "wikidata" / "labels.tsv"
    if labels.is_file():
        text += "\n[grounding]\nlabels = " + json.dumps(str(labels.resolve())) + "\n"
    text += '\n[stacking]\nmodel = "none"\n'
    path = out / "verifier-bench.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


_STATE: dict[str, Any] = {}


def _init(config: str | None, budget: int) -> None:
    """A worker's state: the deductive verifier and the PGMR runner (``config`` None: no
    signals, consensus only)."""
    _STATE["verifier"] = _STATE["pgmr"] = None
    if config is not None:
        from verifier.api import Verifier
        from verifier.config import load_config
        from verifier.stacking.runtime import PgmrRunner

        _STATE["verifier"] = Verifier(load_config(config))
        labels = SHARED / "wikidata" / "labels.tsv"
        _STATE["pgmr"] = PgmrRunner.from_paths(labels, ROOT / "bench" / "out" / "pgmr_memory") \
            if labels.is_file() else None
    _STATE["budget"] = budget
    _STATE["cache"] = EquivalenceCache()


def deductive_output(v: Any) -> dict[str, Any]:
    """A deductive :class:`verifier.api.Verdict` as a stacking signal entry."""
    return {"decision": v.decision, "score": v.score,
            "details": {"explanation": v.explanation[:2000],
                        "signals": {"deductive": dict(v.signals.get("deductive", {}))}}}


def score_group(args: tuple[str, list[dict[str, Any]], set[str]]) -> list[dict[str, Any]]:
    """Consensus evidence and the weight-free signals of every prediction of one question
    (a worker's unit); ``done``: prediction ids whose signals are cached (not recomputed)."""
    key, preds, done = args
    c = cluster_candidates([p.get("sparql") for p in preds], budget=_STATE["budget"], cache=_STATE["cache"])
    ev = consensus_evidence(c)
    out = []
    for p, e in zip(preds, ev):
        row = {"id": p["id"], "question_key": key, "question": p.get("question") or "",
               "sparql": p.get("sparql"), "label": p.get("label"), "model": p.get("model"),
               "benchmark": p.get("benchmark"),
               "n": len(preds), "consensus": e.to_dict()}
        if p["id"] not in done:
            sig: dict[str, Any] = {}
            q, s = row["question"], row["sparql"]
            try:
                if s and _STATE["verifier"] is not None:
                    sig["deductive"] = deductive_output(_STATE["verifier"].verify(q, s, signals=("deductive",)))
                if _STATE["pgmr"] is not None:
                    sig["pgmr"] = _STATE["pgmr"].run(q, s)
            except Exception as exc:  # noqa: BLE001 - a failing signal is a missing signal
                log.warning("signals of %s failed: %s", p["id"], exc)
            row["signals"] = sig
        out.append(row)
    return out


def _auc(y: list[int], s: list[float]) -> float | None:
    from verifier.benchmark.metrics import roc_auc

    return roc_auc(y, s)


def accept_figures(y: list[int], accepted: list[bool]) -> tuple[float | None, float | None]:
    """(accept-precision, share of correct accepted)."""
    acc = [yy for yy, a in zip(y, accepted) if a]
    pos = sum(y)
    return (sum(acc) / len(acc) if acc else None, sum(acc) / pos if pos else None)


def _fold(key: str, k: int = 5, salt: str = "") -> int:
    return int(hashlib.sha256((salt + key).encode()).hexdigest()[:8], 16) % k


#: stage-two features (``--stacker two-stage``): from the first-stage probabilities of the
#: question's candidates (:func:`stage_two_features`)
S2_NAMES = ("s2_own", "s2_cluster_mean", "s2_cluster_max", "s2_best_other", "s2_margin", "s2_rank",
            "s2_top")


def stage_two_features(p: Any, keys: Any, clusters: Any) -> Any:
    """Cluster-level features of every row from first-stage probabilities ``p`` of all the
    candidates of each question (``keys``: question key per row, ``clusters``: the row's
    cluster index within its question; every candidate of a question must be among the rows):
    own probability, its cluster's mean and max, the best mean of another cluster (0 when
    there is none), the margin between the two, the share of the question's other candidates
    scored above it (its rank, 0 = top), whether its cluster has the best mean."""
    import numpy as np

    p = np.asarray(p, dtype=float)
    out = np.zeros((len(p), len(S2_NAMES)))
    by_q: dict[Any, list[int]] = defaultdict(list)
    for i, k in enumerate(keys):
        by_q[k].append(i)
    for idx in by_q.values():
        ps = p[idx]
        cl = np.asarray([clusters[i] for i in idx])
        means = {c: float(ps[cl == c].mean()) for c in set(cl.tolist())}
        maxs = {c: float(ps[cl == c].max()) for c in means}
        for j, i in enumerate(idx):
            c = cl[j]
            other = max((m for cc, m in means.items() if cc != c), default=0.0)
            out[i] = [ps[j], means[c], maxs[c], other, means[c] - other,
                      float((ps > ps[j]).sum()) / max(1, len(ps) - 1), float(means[c] >= max(means.values()))]
    return out


def frontier(y: list[int], p: list[float], refuted: list[bool] | None = None,
             coverage: float = 0.60) -> float | None:
    """Accept-precision at the highest threshold of ``p`` whose accepted rows hold at least
    ``coverage`` of the correct ones (ties accepted together; ``refuted`` rows never
    accepted: the refutation veto): what the ranking allows at that coverage, whatever the
    threshold rule."""
    import numpy as np

    y, p = np.asarray(y, dtype=float), np.asarray(p, dtype=float)
    if refuted is not None:
        p = np.where(np.asarray(refuted, dtype=bool), -np.inf, p)
    need = coverage * y.sum()
    for t in np.unique(p[np.isfinite(p)])[::-1]:
        acc = p >= t
        if y[acc].sum() >= need - 1e-9:
            return float(y[acc].mean())
    return None


def stacked_crossfit(rows: list[dict[str, Any]], folds: int = 5,
                     Cs: tuple[float, ...] = (0.01, 0.05, 0.3),
                     drop: tuple[str, ...] = (), target: float = 0.90,
                     z: float = 1.28, veto: bool = True, salt: str = "",
                     stacker: str = "lr") -> dict[str, Any]:
    """Out-of-fold stacked probabilities by question (module docstring); ``drop``: feature
    names held at 0 (left out: a constant column gets weight 0), for ablations.
    ``stacker`` ``two-stage``: a second stage on top of the first for the questions with
    two or more candidates (module docstring); ``hgb``: probabilities of a monotone
    gradient-boosted classifier instead (AUC and frontier only: no operating point, every
    decision ``abstain``)."""
    import numpy as np

    from verifier.stacking.train import TrainRow, augment_missing, evidence_of, matrix, refuted_rows
    from verifier.stacking import FEATURE_NAMES, fit_stacker

    if stacker not in ("lr", "two-stage", "hgb"):
        raise ValueError(f"--stacker: unknown {stacker!r}")
    trs = [TrainRow(r["question"], r["sparql"], int(r["label"]) if r["label"] in (0, 1) else -1,
                    r["question_key"],
                    {**r["signals"], **({"consensus": r["consensus"]} if r["n"] >= 2 else {}),
                     **({"execution": r["execution"]} if r.get("execution") else {})}) for r in rows]
    X = matrix([evidence_of(t) for t in trs])
    unknown = sorted(set(drop) - set(FEATURE_NAMES))
    if unknown:
        raise ValueError(f"--drop: unknown features {unknown}")
    for name in drop:
        X[:, FEATURE_NAMES.index(name)] = 0.0
    y = np.array([t.label for t in trs])
    g = np.array([t.group for t in trs], dtype=object)
    lab = y >= 0
    multi = np.array([r["n"] >= 2 for r in rows])
    clusters = [int((r.get("consensus") or {}).get("cluster_index") or 0) for r in rows]
    fold = np.array([_fold(t.group, folds, salt) for t in trs])
    p = np.full(len(y), np.nan)
    chosen: list[float] = []
    dec = np.array(["abstain"] * len(y), dtype=object)
    refuted = refuted_rows(X)

    def fit(Xt: Any, yt: Any, gt: Any, seed: int, names: tuple[str, ...], cs: tuple[float, ...],
            resamples: int = 50) -> Any:
        Xa, ya, ga = augment_missing(Xt, yt, gt, share=0.15, seed=seed, names=names)
        mask = np.arange(len(ya)) < len(yt)  # inner AUC and points: real rows only
        # C chosen inside the training folds (nested): the best inner out-of-fold AUC
        fits = [fit_stacker(Xa, ya, names, groups=ga, seed=seed, threshold_resamples=resamples, C=c,
                            point_mask=mask, target_precision=target, precision_z=z,
                            never_accept=refuted_rows(Xa, names) if veto else None) for c in cs]
        return max(fits, key=lambda f: f.info.get("auc_oof_points") or 0.0)

    for k in range(folds):
        tr, te = fold != k, fold == k
        if not (te & lab).any():
            continue
        trl = tr & lab
        if stacker == "hgb":
            p[te] = _hgb_proba(X[trl], y[trl], X[te], seed=k)
            continue
        m = fit(X[trl], y[trl], g[trl], k, FEATURE_NAMES, Cs)
        chosen.append(m.info["C"])
        p[te] = m.predict_proba(X[te])
        pt = m.point("precision-first")
        dec[te] = [pt.decide(float(v)) for v in p[te]]
        if stacker == "two-stage":
            # first-stage probabilities of the training folds' candidates, out of fold (nested
            # cross-fitting by question inside the training folds: no row scored by a model
            # that saw its question)
            tri = np.flatnonzero(tr)
            inner = np.array([_fold(str(q), folds, f"inner:{salt}:{k}") for q in g[tri]])
            p1 = np.zeros(len(tri))
            for j in range(folds):
                a = tri[inner != j]
                a = a[lab[a]]
                mj = fit(X[a], y[a], g[a], 100 * k + j, FEATURE_NAMES, (m.info["C"],), resamples=0)
                p1[inner == j] = mj.predict_proba(X[tri[inner == j]])
            names2 = tuple(FEATURE_NAMES) + S2_NAMES
            F_tr = stage_two_features(p1, g[tri], [clusters[i] for i in tri])
            tei = np.flatnonzero(te)
            F_te = stage_two_features(p[tei], g[tei], [clusters[i] for i in tei])
            sel = lab[tri] & multi[tri]
            if len(set(y[tri][sel].tolist())) < 2:
                continue  # no second stage without both labels among the candidate sets
            m2 = fit(np.hstack([X[tri], F_tr])[sel], y[tri][sel], g[tri][sel], k, names2, Cs)
            p2 = m2.predict_proba(np.hstack([X[tei], F_te]))
            pt2 = m2.point("precision-first")
            mt = multi[tei]  # a lone candidate keeps the first stage
            p[tei] = np.where(mt, p2, p[tei])
            dec[tei[mt]] = [pt2.decide(float(v)) for v in p2[mt]]
    if veto:  # the refutation veto: a deductive refutation is never accepted
        dec[(dec == "accept") & refuted] = "abstain"
    return {"y": y[lab].tolist(), "p": p[lab].tolist(), "decision": dec[lab].tolist(), "C": chosen,
            "refuted": refuted[lab].tolist(), "multi": multi[lab].tolist()}


#: monotone directions of the gradient-boosted comparison (``--stacker hgb``); others free
HGB_MONOTONE = {"cons_share": 1, "cons_cluster_share": 1, "cons_margin": 1, "cons_largest": 1,
                "cons_cluster_accept": 1, "cons_cluster_best": 1, "ded_accept": 1, "ded_reject": -1,
                "ded_refuted": -1, "ded_n_unsupported": -1, "pgmr_score": 1, "pgmr_hallucinated": -1,
                "pgmr_wrong_kind": -1}


def _hgb_proba(Xt: Any, yt: Any, Xe: Any, seed: int) -> Any:
    """P(correct) of scikit-learn's HistGradientBoostingClassifier with the monotone
    constraints :data:`HGB_MONOTONE` (200 iterations, rate 0.05, 8 leaves, 20 rows a leaf,
    L2 1.0, balanced classes), fitted on ``Xt``."""
    from sklearn.ensemble import HistGradientBoostingClassifier

    from verifier.stacking import FEATURE_NAMES

    m = HistGradientBoostingClassifier(max_iter=200, learning_rate=0.05, max_leaf_nodes=8,
                                       min_samples_leaf=20, l2_regularization=1.0, random_state=seed,
                                       monotonic_cst=[HGB_MONOTONE.get(n, 0) for n in FEATURE_NAMES],
                                       class_weight="balanced")
    m.fit(Xt, yt)
    return m.predict_proba(Xe)[:, 1]


def default_model_figures(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The shipped default model on the same evidence (module docstring)."""
    from verifier.stacking.default import load_default_model
    from verifier.stacking.runtime import StackedRuntime
    from verifier.stacking.train import TrainRow, evidence_of

    model = load_default_model()
    if model is None:
        return {}
    rt = StackedRuntime(model)
    ys, ps, decs = [], [], []
    for r in rows:
        if r["label"] not in (0, 1):
            continue
        t = TrainRow(r["question"], r["sparql"], int(r["label"]), r["question_key"],
                     {**r["signals"], **({"consensus": r["consensus"]} if r["n"] >= 2 else {})})
        d, p, _ = rt.evaluate(evidence_of(t))
        ys.append(int(r["label"]))
        ps.append(p)
        decs.append(d)
    ap, ca = accept_figures(ys, [d == "accept" for d in decs])
    return {"default_auc": _auc(ys, ps), "default_accept_precision": ap, "default_correct_accepted": ca,
            "default_point": f"{rt.point.name} accept>={rt.point.accept:.3f}"}


def time_clustering(groups: dict[str, list[dict[str, Any]]], n_questions: int, budget: int,
                    seed: int = 61) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU milliseconds to cluster 10 predictions of each sampled question
    (fresh cache)."""
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
    return sorted(xs)[max(0, int(round(0.95 * len(xs))) - 1)] if xs else float("nan")


def _fmt(v: Any) -> str:
    return "nan" if v is None else (f"{v:.3f}" if isinstance(v, float) else str(v))


def read_cache(out: Path, signals: bool = True) -> dict[str, dict[str, Any]]:
    """The cached signals of earlier runs, by prediction id."""
    cache_file = out / ("signals.jsonl" if signals else "no-signals.jsonl")
    cached: dict[str, dict[str, Any]] = {}
    if cache_file.is_file():
        for line in cache_file.open(encoding="utf-8"):
            if line.strip():
                try:
                    d = json.loads(line)
                except json.JSONDecodeError:  # a line cut by a killed run
                    continue
                cached[d["id"]] = d["signals"]
    return cached


def attach_verdicts(rows: list[dict[str, Any]]) -> None:
    """Each row's consensus evidence gains the cluster-level deductive evidence of its
    question's candidates (:func:`verifier.consensus.with_verdicts`; a row without a
    deductive signal counts as not accepted, score unknown)."""
    from verifier.consensus import ConsensusEvidence, with_verdicts

    by_q: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        by_q[r["question_key"]].append(r)
    for members in by_q.values():
        ev = [ConsensusEvidence(**r["consensus"]) for r in members]
        ded = [(r.get("signals") or {}).get("deductive") or {} for r in members]
        out = with_verdicts(ev, [d.get("decision") for d in ded], [d.get("score") for d in ded])
        for r, e in zip(members, out):
            r["consensus"] = e.to_dict()


def compute(groups: dict[str, list[dict[str, Any]]], out: Path, workers: int, budget: int,
            signals: bool = True) -> list[dict[str, Any]]:
    """Rows of every prediction (consensus always recomputed; signals from the cache;
    ``signals`` False: consensus and query shape only)."""
    out.mkdir(parents=True, exist_ok=True)
    cache_file = out / ("signals.jsonl" if signals else "no-signals.jsonl")
    cached = read_cache(out, signals)
    done = set(cached)
    if all(p["id"] in done for v in groups.values() for p in v):
        signals = False  # nothing to compute: no verifier to load
    config = str(bench_config(out)) if signals else None
    work = [(k, v, done) for k, v in groups.items()]
    t0 = time.perf_counter()
    rows: list[dict[str, Any]] = []
    with cache_file.open("a", encoding="utf-8") as cf:
        def take(batch: list[dict[str, Any]]) -> None:
            for r in batch:
                if "signals" in r:
                    cf.write(json.dumps({"id": r["id"], "signals": r["signals"]}) + "\n")
                else:
                    r["signals"] = cached.get(r["id"], {})
                rows.append(r)
            cf.flush()
        if workers > 1:
            with ProcessPoolExecutor(workers, initializer=_init, initargs=(config, budget)) as ex:
                for batch in ex.map(score_group, work, chunksize=1):
                    take(batch)
        else:
            _init(config, budget)
            for w in work:
                take(score_group(w))
    attach_verdicts(rows)
    print(f"{len(rows)} predictions, {len(groups)} questions: consensus and signals in "
          f"{time.perf_counter() - t0:.1f} s ({len(rows) - sum(r['id'] in done for r in rows)} computed, "
          f"{workers} worker(s), budget {budget} units)")
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--budget", type=int, default=DEFAULT_BUDGET, help="Z3 resource units per direction")
    ap.add_argument("--timing-questions", type=int, default=40)
    ap.add_argument("--data", type=Path, default=PREDICTIONS)
    ap.add_argument("--limit-questions", type=int, default=None, help="a seeded sample of N questions")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--C", default="0.001,0.003,0.01,0.05,0.3",
                    help="inverse L2 strengths tried by the cross-fitted stacker; each fold keeps the "
                         "one with the best out-of-fold AUC inside its training folds (nested)")
    ap.add_argument("--target-precision", type=float, default=0.90,
                    help="accept precision each fold model's precision-first point aims at on its "
                         "training folds (out-of-fold)")
    ap.add_argument("--precision-z", type=float, default=1.28,
                    help="that precision's Wilson lower bound at this many standard deviations must "
                         "reach the target (0: the precision itself)")
    ap.add_argument("--fold-salt", default="",
                    help="a string mixed into the question hash that assigns the folds (another split)")
    ap.add_argument("--stacker", choices=("lr", "two-stage", "hgb"), default="lr",
                    help="lr: the stacker of the package (one stage); two-stage: a second stage on the "
                         "cluster-level features of the first stage's probabilities (nested cross-fitting); "
                         "hgb: a monotone gradient-boosted classifier (AUC and frontier only)")
    ap.add_argument("--no-veto", action="store_true",
                    help="without the refutation veto (by default the stacked decision never accepts "
                         "a query the deductive check refuted, and the thresholds are chosen so)")
    ap.add_argument("--drop", default="", metavar="FEATURES",
                    help="comma-separated feature names the cross-fitted stacker leaves out (held at 0), "
                         "for ablations")
    ap.add_argument("--cached-only", action="store_true",
                    help="compute no signal: consensus figures over every question, stacked and "
                         "default-model figures over the questions with cached signals")
    ap.add_argument("--stage", choices=("all", "compute", "fit"), default="all",
                    help="compute: the consensus and signals of every prediction into <out>/signals.jsonl, "
                         "then stop; fit: no signal is computed (the questions whose predictions all have "
                         "cached signals), the figures only; all: both")
    ap.add_argument("--execution", choices=("recorded", "none"), default="recorded",
                    help="recorded: the cross-fitted stacker gets each prediction's execution evidence "
                         "from its record (the result size or error of the run that generated it, "
                         "verifier.benchmark.llm.recorded_execution); none: no execution evidence")
    ap.add_argument("--no-signals", action="store_true",
                    help="consensus and query shape only (no deductive / PGMR; for tests)")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    if not args.data.is_file():
        print(f"no predictions at {args.data}", file=sys.stderr)
        return 2
    groups = load_groups(args.data, args.limit_questions)
    if args.stage == "compute":
        compute(groups, args.out, args.workers, args.budget, not args.no_signals)
        return 0
    if args.stage == "fit" and not args.cached_only:
        cached = read_cache(args.out, not args.no_signals)
        full = {k for k, v in groups.items() if all(p["id"] in cached for p in v)}
        if len(full) < len(groups):
            print(f"--stage fit: {len(full)} of {len(groups)} questions have cached signals (the others are left out)")
        groups = {k: v for k, v in groups.items() if k in full}
    if args.cached_only:
        # consensus over every question; the stacked figures over the questions whose
        # predictions all have cached signals
        cached = read_cache(args.out, not args.no_signals)
        full = {k for k, v in groups.items() if all(p["id"] in cached for p in v)}
        print(f"--cached-only: {len(full)} of {len(groups)} questions "
              f"({sum(len(groups[k]) for k in full)} predictions) have cached signals")
        all_rows = compute(groups, args.out / "all", args.workers, args.budget, False)
        groups = {k: v for k, v in groups.items() if k in full}
    rows = compute(groups, args.out, args.workers, args.budget, not args.no_signals)
    if args.execution == "recorded":
        from verifier.benchmark.llm import recorded_execution
        from verifier.consensus import answer_agreement, answer_plurality

        record = {p["id"]: p for v in groups.values() for p in v}
        for r in rows:
            r["execution"] = recorded_execution(record[r["id"]])
        # the answer agreement of each question's candidates, from what their runs returned
        by_q: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for r in rows:
            by_q[r["question_key"]].append(r)
        for members in by_q.values():
            agreement = answer_agreement([m["execution"] for m in members])
            for r, a, top in zip(members, agreement, answer_plurality(agreement)):
                r["consensus"] = {**r["consensus"], "answer_agreement": a, "answer_plurality": top}
        print(f"execution evidence recorded for {sum(r['execution'] is not None for r in rows)} of "
              f"{len(rows)} predictions (the stacked figures use it; the shipped default model does not)")
    (args.out / "rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))

    multi = [r for r in (all_rows if args.cached_only else rows) if r["label"] in (0, 1) and r["n"] >= 2]
    y = [int(r["label"]) for r in multi]
    share = [float(r["consensus"].get("others_share") or 0.0) for r in multi]
    cons_auc = _auc(y, share)
    c_ap, c_ca = accept_figures(y, [s >= 0.5 for s in share])
    print(f"\nconsensus ({len(multi)} labelled predictions of questions with >= 2 candidates, "
          f"{sum(y)} correct): AUC {_fmt(cons_auc)}; accepting at others_share >= 0.5: "
          f"accept-precision {_fmt(c_ap)}, correct accepted {_fmt(c_ca)}")

    if args.cached_only:
        from collections import Counter

        sub = [r for r in rows if r["label"] in (0, 1) and r["n"] >= 2]
        print(f"subset with cached signals: {len(rows)} predictions, by benchmark "
              f"{dict(Counter(r['benchmark'] for r in rows))}; consensus AUC on its labelled "
              f"predictions of questions with >= 2 candidates ({len(sub)}): "
              f"{_fmt(_auc([int(r['label']) for r in sub], [float(r['consensus'].get('others_share') or 0) for r in sub]))}")
    st = stacked_crossfit(rows, Cs=tuple(float(c) for c in args.C.split(",")),
                          drop=tuple(f for f in args.drop.split(",") if f),
                          target=args.target_precision, z=args.precision_z, veto=not args.no_veto, salt=args.fold_salt,
                          stacker=args.stacker)
    sy, sp, sd = st["y"], st["p"], st["decision"]
    s_auc = _auc(sy, sp)
    s_ap, s_ca = accept_figures(sy, [d == "accept" for d in sd])
    print(f"\nstacked ({args.stacker}), cross-fitted by question (5 folds; {len(sy)} labelled predictions, {sum(sy)} correct): "
          f"AUC {_fmt(s_auc)}; precision-first points of the fold models: accept-precision {_fmt(s_ap)}, "
          f"correct accepted {_fmt(s_ca)}, abstain {sum(d == 'abstain' for d in sd) / max(1, len(sd)):.3f}; "
          f"C chosen per fold {st['C']}")
    front = frontier(sy, sp, st["refuted"] if not args.no_veto else None)
    print(f"  frontier: accept-precision {_fmt(front)} at correct accepted 0.60 (the highest threshold of the "
          f"pooled out-of-fold probabilities reaching it{', refutation veto' if not args.no_veto else ''})")
    m_idx = [i for i, m in enumerate(st["multi"]) if m]
    print(f"  on the {len(m_idx)} of questions with >= 2 candidates: AUC "
          f"{_fmt(_auc([sy[i] for i in m_idx], [sp[i] for i in m_idx]))}")
    for t in (0.5, 0.6, 0.7, 0.8):
        a, c = accept_figures(sy, [p >= t for p in sp])
        av, cv = accept_figures(sy, [p >= t and not r for p, r in zip(sp, st["refuted"])])
        print(f"  accept at p >= {t}: accept-precision {_fmt(a)}, correct accepted {_fmt(c)}; "
              f"with the refutation veto {_fmt(av)}, {_fmt(cv)}")

    dflt = default_model_figures(rows)
    if dflt:
        print(f"\nshipped default model (trained on no LLM prediction), {dflt['default_point']}: "
              f"AUC {_fmt(dflt['default_auc'])}, accept-precision {_fmt(dflt['default_accept_precision'])}, "
              f"correct accepted {_fmt(dflt['default_correct_accepted'])}")
    times, cpu = time_clustering(groups, args.timing_questions, args.budget)
    p50, p95 = (statistics.median(times), _p95(times)) if times else (float("nan"), float("nan"))
    if times:
        print(f"\nclustering 10 candidates ({len(times)} questions, fresh cache): median {p50:.0f} ms, "
              f"p95 {p95:.0f} ms, max {max(times):.0f} ms wall; CPU median {statistics.median(cpu):.0f} ms, "
              f"p95 {_p95(cpu):.0f} ms (load average {os.getloadavg()[0]:.1f})")
    extra = " ".join(f"{k}={_fmt(dflt.get(k))}" for k in
                     ("default_auc", "default_accept_precision", "default_correct_accepted"))
    print(f"consensus_auc={_fmt(cons_auc)} stacked_auc={_fmt(s_auc)} accept_precision={_fmt(s_ap)} "
          f"correct_accepted={_fmt(s_ca)} frontier_precision_060={_fmt(front)} {extra} cluster10_p50_ms={p50:.0f} cluster10_p95_ms={p95:.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
