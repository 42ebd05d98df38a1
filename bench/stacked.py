"""Stacked verifier bench: train on the benchmark's dev splits, evaluate on the test splits.

    nice python bench/stacked.py [--workers 1] [--stage all|compute|fit] [--hdm-model DIR]
        [--current-only | --pin SIGNAL=HASH ...] [--C C] [--bins N] [--interactions A*B ...]
        [--llm-weight R] [--out DIR]

Samples (all seeded, ``random.Random(f"{seed}:...")``; see ``select_samples``):

* **train** (dev splits): every ``perturbations`` dev record; ``out_of_ontology`` ``detect_dev``;
  ``out_of_domain`` dev gold controls plus the out-of-domain utterances whose id hashes into
  the dev third (those records have no split); 120 ``unknown_uri`` and 120
  ``unknown_template`` dev records.
* **test**: ~1,500 ``perturbations`` test records: 170 whole gold pairs (the gold record and
  all its perturbations) plus, for the rare categories (``wrong_literal``,
  ``wrong_operator``, ``dropped_triple``), extra perturbations with their gold records so that
  every category has at least 60 items; 600 ``out_of_ontology`` ``detect_test`` (200 per
  category); ``out_of_domain`` test: 250 gold controls and 250 utterances of the test
  two-thirds; 200 ``unknown_uri`` and 200 ``unknown_template`` test records.
* ``llm_predictions`` (no split): every labelled prediction, in two folds by a hash of the
  question text (all predictions for one question in one fold).  Cross-fitting: the model
  that scores fold k was trained on the dev splits plus the *other* fold only, so no reported
  LLM row was seen in training.  The other test splits are scored by the model trained on the
  dev splits plus all LLM rows (disjoint from them).

Signals are read from / written to the evaluation cache ``bench/out/eval/cache.sqlite``:
the rows of the current signal configuration when they cover the whole sample, else, item by
item, the rows of the configurations with most rows for that dataset (e.g. the deductive
results on ``llm_predictions`` computed before the deductive code last changed), so a re-run
computes nothing.  ``--current-only``: only the current configuration; ``--pin
SIGNAL=HASH``: only that configuration (e.g. the rows an earlier run computed, when the code
of a signal has changed since).  ``report.json`` lists the configuration hashes used (read or
computed).

Fitting (``--stage fit`` re-fits from the cache in about a minute): ``--C``, ``--bins``
(quantile step columns of the numeric features), ``--interactions A*B ...`` and
``--llm-weight`` (see :class:`FitSpec`).  The report's per-category table also gives the
largest gain macro-F1 <= 1 allows (1 - best single) and, as a diagnostic that looks at the
test labels, the best macro-F1 of the stacked probability with a per-category threshold.

Outputs in ``bench/out/stacked/``: ``model.json`` (the shipped model), ``report.json``,
``report.md``, ``reliability.png``.  The last line printed is
``accept_precision=<x> correct_accepted=<x> ece=<x> macro_f1_gain=<x>``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import random
import sqlite3
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from verifier.benchmark.cache import CachedResult, ResultCache, input_hash  # noqa: E402
from verifier.benchmark.records import BenchRecord, Dataset, load_dataset  # noqa: E402

log = logging.getLogger("bench.stacked")
OUT = REPO / "bench" / "out" / "stacked"
CACHE = REPO / "bench" / "out" / "eval" / "cache.sqlite"
SEED = 0
DATASETS = ("perturbations", "out_of_ontology", "out_of_domain", "unknown_uri",
            "unknown_template", "llm_predictions")


def _rng(*parts: Any) -> random.Random:
    return random.Random(":".join(str(p) for p in (SEED,) + parts))


def _hash_fraction(text: str) -> float:
    return int(hashlib.sha256(text.encode()).hexdigest()[:8], 16) / 0xFFFFFFFF


@dataclass(frozen=True)
class Samples:
    """Records per dataset for training (``train``) and evaluation (``test``); LLM
    predictions carry their cross-fitting fold in ``llm_fold``."""

    train: Mapping[str, tuple[BenchRecord, ...]]
    test: Mapping[str, tuple[BenchRecord, ...]]
    llm_fold: Mapping[str, int]


def _sample(recs: Sequence[BenchRecord], n: int, *key: Any) -> list[BenchRecord]:
    recs = list(recs)
    if len(recs) <= n:
        return recs
    idx = sorted(_rng(*key).sample(range(len(recs)), n))
    return [recs[i] for i in idx]


def _perturbation_test(recs: Sequence[BenchRecord]) -> list[BenchRecord]:
    test = [r for r in recs if r.get("split") == "test"]
    groups: dict[str, list[BenchRecord]] = defaultdict(list)
    for r in test:
        groups[str(r.get("gold_id") or r.id)].append(r)
    keys = sorted(groups)
    _rng("perturbations", "groups").shuffle(keys)
    chosen = set(keys[:170])
    keep = {r.id for k in chosen for r in groups[k]}
    counts = Counter(r.category for r in test if r.id in keep)
    for cat in ("wrong_literal", "wrong_operator", "dropped_triple"):
        extra = [r for r in test if r.category == cat and r.id not in keep]
        _rng("perturbations", "extra", cat).shuffle(extra)
        for r in extra[:max(0, 60 - counts[cat])]:
            keep.add(r.id)
            g = str(r.get("gold_id"))
            keep.update(x.id for x in groups[g] if x.category == "gold")
    return [r for r in test if r.id in keep]


def select_samples() -> Samples:
    """The seeded train / test samples described in the module docstring."""
    ds = {name: load_dataset(name) for name in DATASETS}
    train: dict[str, list[BenchRecord]] = {}
    test: dict[str, list[BenchRecord]] = {}
    pert = ds["perturbations"].records
    train["perturbations"] = [r for r in pert if r.get("split") == "dev"]
    test["perturbations"] = _perturbation_test(pert)
    oo = ds["out_of_ontology"].records
    train["out_of_ontology"] = [r for r in oo if r.get("split") == "detect_dev"]
    test["out_of_ontology"] = [x for cat in ("in_ontology", "out_of_ontology", "out_of_domain")
                               for x in _sample([r for r in oo if r.get("split") == "detect_test"
                                                 and r.category == cat], 200, "oo", cat)]
    od = ds["out_of_domain"].records
    ood_dev = [r for r in od if r.label == 0 and _hash_fraction("ood-split:" + r.id) < 1 / 3]
    ood_test = [r for r in od if r.label == 0 and _hash_fraction("ood-split:" + r.id) >= 1 / 3]
    train["out_of_domain"] = [r for r in od if r.label == 1 and r.get("split") == "dev"] + ood_dev
    test["out_of_domain"] = _sample([r for r in od if r.label == 1 and r.get("split") == "test"],
                                    250, "od", "gold") + _sample(ood_test, 250, "od", "ood")
    for name in ("unknown_uri", "unknown_template"):
        recs = ds[name].records
        train[name] = _sample([r for r in recs if r.get("split") == "dev"], 120, name, "dev")
        test[name] = _sample([r for r in recs if r.get("split") == "test"], 200, name, "test")
    llm = [r for r in ds["llm_predictions"].records if r.label in (0, 1)]
    fold = {r.id: int(_hash_fraction("llm-fold:" + r.question.strip().lower()) >= 0.5)
            for r in llm}
    test["llm_predictions"] = llm
    return Samples({k: tuple(v) for k, v in train.items()},
                   {k: tuple(v) for k, v in test.items()}, fold)


# --------------------------------------------------------------------------------------------
# Signal outputs: the evaluation cache, computing what is missing
# --------------------------------------------------------------------------------------------


HASHES_USED: dict[str, Counter] = defaultdict(Counter)


#: only rows of the current signal configurations (``--current-only``)
CURRENT_ONLY = False
#: signal name -> the one configuration hash to read (``--pin SIGNAL=HASH``): the rows of an
#: earlier run, when the code has changed since (another signal configuration is current)
PINNED: dict[str, str] = {}


def cached_rows(dataset: str, signal: str, current: str | None,
                ids: Iterable[str]) -> dict[str, CachedResult]:
    """Rows of ``signal`` on ``dataset`` for ``ids``: all under the ``current`` config hash
    when it covers every id, else, item by item, from the config hashes in order of their
    row count for the dataset (so a run of someone else filling the cache under a new
    configuration does not change the figures until it is complete).  Rows with an error
    are never used; the caller checks the input hashes."""
    want = set(ids)
    if not CACHE.is_file():
        return {}
    db = sqlite3.connect(str(CACHE), timeout=60)
    try:
        hashes = [h for h, _ in db.execute(
            "SELECT config_hash, COUNT(*) c FROM results WHERE dataset=? AND signal=? "
            "GROUP BY config_hash ORDER BY c DESC, config_hash", (dataset, signal))]
        if current in hashes:
            have = {r[0] for r in db.execute(
                "SELECT item_id FROM results WHERE dataset=? AND signal=? AND config_hash=? "
                "AND error IS NULL", (dataset, signal, current))}
            hashes.remove(current)
            if want <= have:
                hashes.insert(0, current)
            else:
                hashes.append(current)
        if signal in PINNED:
            hashes = [PINNED[signal]]
        elif CURRENT_ONLY:
            hashes = [current] if current is not None else []
        out: dict[str, CachedResult] = {}
        for h in hashes:
            for r in db.execute("SELECT item_id, input_hash, decision, score, details, error, "
                                "seconds FROM results WHERE dataset=? AND signal=? AND "
                                "config_hash=?", (dataset, signal, h)):
                if r[0] in want and r[0] not in out and r[5] is None:
                    out[r[0]] = CachedResult(r[0], r[1], r[2], float(r[3]), json.loads(r[4]),
                                             r[5], r[6])
                    HASHES_USED[f"{dataset}/{signal}"][h] += 1
        return out
    finally:
        db.close()


def gather(records: Mapping[str, Sequence[BenchRecord]], signals: Sequence[Any], *,
           options: Any, workers: int, compute: bool) -> dict[str, dict[str, dict[str, CachedResult]]]:
    """``{dataset: {signal: {item id: result}}}`` for the records, computing (when
    ``compute``) the items missing from the cache with ``verifier.benchmark.evaluate``.
    ``signals``: names (built with ``make_signal``) or ready signal objects."""
    from verifier.benchmark.evaluate import EvalConfig, evaluate
    from verifier.benchmark.signals import config_hash, make_signal

    out: dict[str, dict[str, dict[str, CachedResult]]] = {}
    sigs = {}
    for s in signals:
        obj = make_signal(s, options) if isinstance(s, str) else s
        sigs[obj.name] = obj
    # settle config hashes (PGMR's threshold is read on load, the deductive check's warm-up
    # loads its configuration): needed to read the cache too (``--stage fit``)
    for obj in sigs.values():
        if obj.availability().available and hasattr(obj, "prepare"):
            obj.prepare()
    for ds_name, recs in records.items():
        out[ds_name] = {}
        for name, sig in sigs.items():
            av = sig.availability()
            if not av.available:
                log.warning("%s unavailable: %s", name, av.reason)
                out[ds_name][name] = {}
                continue
            cur = config_hash(sig)
            rows = cached_rows(ds_name, name, cur, (r.id for r in recs))
            ihs = {r.id: input_hash(r.question, r.sparql) for r in recs}
            rows = {k: v for k, v in rows.items() if v.input_hash == ihs[k]}
            missing = [r for r in recs if r.id not in rows]
            if missing and compute:
                log.info("%s/%s: %d cached, computing %d", ds_name, name, len(rows), len(missing))
                sub = Dataset(ds_name, tuple(missing), Path(ds_name))
                with ResultCache(CACHE) as cache:
                    run = evaluate(sub, EvalConfig((name,), options, workers=workers,
                                                   item_timeout=60.0, progress=False), cache,
                                   signals={name: sig})
                done = {k: v for k, v in run[name].results.items() if not v.error}
                rows.update(done)
                HASHES_USED[f"{ds_name}/{name}"][cur] += len(done)
            out[ds_name][name] = rows
    return out


def _norm_q(q: str) -> str:
    return " ".join(q.split()).strip().lower()


def hdm_seen_questions(detector_dir: Path | None = None) -> set[str]:
    """Questions the HDM generator or detector was trained or model-selected on
    (``parser_train``, ``detect_train``, ``detect_dev`` of the split next to the detector,
    ``<pipeline out>/split``, else ``bench/out/hdm/split``): the HDM signal is treated as
    missing for them (it has seen their gold query), in training and in evaluation alike, so
    no HDM score used here is on a question it was fitted to."""
    path = REPO / "bench" / "out" / "hdm" / "split" / "ontology_split.jsonl"
    if detector_dir is not None and (Path(detector_dir).parent / "split" / "ontology_split.jsonl").is_file():
        path = Path(detector_dir).parent / "split" / "ontology_split.jsonl"
    if not path.is_file():
        log.warning("no HDM split found (%s): every HDM row is used", path)
        return set()
    out = set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            if d.get("split") in ("parser_train", "detect_train", "detect_dev"):
                out.add(_norm_q(d["question"]))
    return out


def gather_hdm(records: Mapping[str, Sequence[BenchRecord]], sig: Any, *, compute: bool,
               seen: set[str], batch: int = 64) -> dict[str, dict[str, CachedResult]]:
    """HDM rows for the records whose question the HDM has not seen, computed in batches
    (one scorer call per ``batch`` pairs instead of one per pair) and stored in the
    evaluation cache under the :class:`verifier.stacking.signal.HdmSignal` configuration."""
    import math as _m

    from verifier.benchmark.signals import config_hash
    from verifier.hdm.report import _explain, to_generator_form

    out: dict[str, dict[str, CachedResult]] = {}
    if not sig.availability().available:
        log.warning("hdm unavailable: %s", sig.availability().reason)
        return {ds: {} for ds in records}
    cur = config_hash(sig)
    runner = sig._runner  # loaded by availability()
    for ds, recs in records.items():
        todo_recs = [r for r in recs if r.sparql and _norm_q(r.question) not in seen]
        ihs = {r.id: input_hash(r.question, r.sparql) for r in todo_recs}
        rows = cached_rows(ds, "hdm", cur, ihs)
        rows = {k: v for k, v in rows.items() if v.input_hash == ihs[k]}
        missing = [r for r in todo_recs if r.id not in rows]
        if missing and compute:
            log.info("%s/hdm: %d cached, computing %d (%d of %d records seen by the HDM: "
                     "missing)", ds, len(rows), len(missing), len(recs) - len(todo_recs), len(recs))
            det, scorer = runner.detector, runner.scorer
            for i in range(0, len(missing), batch):
                chunk, qs, ys = [], [], []
                for r in missing[i:i + batch]:
                    try:
                        ys.append(to_generator_form(r.sparql, runner.memory))
                    except Exception as e:  # noqa: BLE001 - left out: HDM missing for it
                        log.debug("no generator form for %s: %s", r.id, e)
                        continue
                    chunk.append(r)
                    qs.append(r.question)
                if not chunk:
                    continue
                t0 = time.perf_counter()
                table = scorer.score(qs, ys)
                probs = det.predict_proba(table)
                cs, var = table.column("cs"), table.column("mcd_var")
                dt = (time.perf_counter() - t0) / len(chunk)
                res = []
                for r, pr, c, v in zip(chunk, probs, cs, var):
                    pr, c, v = float(pr), float(c), float(v)
                    flagged = pr >= det.threshold
                    res.append(CachedResult(r.id, ihs[r.id], "reject" if flagged else "accept",
                                            min(1.0, max(0.0, 1.0 - pr)),
                                            {"probability": pr, "confidence": c,
                                             "mc_variance": v if _m.isfinite(v) else None,
                                             "hallucination": flagged, "threshold": det.threshold,
                                             "explanation": _explain(pr, c, v, flagged)}, None, dt))
                with ResultCache(CACHE) as cache:
                    cache.put_many(ds, "hdm", cur, res)
                rows.update({x.item_id: x for x in res})
                HASHES_USED[f"{ds}/hdm"][cur] += len(res)
        out[ds] = rows
    return out


# --------------------------------------------------------------------------------------------
# Features, training, evaluation
# --------------------------------------------------------------------------------------------

SINGLE = ("deductive", "pgmr", "hdm")


def _out(res: CachedResult | None) -> dict[str, Any] | None:
    if res is None:
        return None
    return {"decision": res.decision, "score": res.score, "details": res.details}


def _deductive(res: CachedResult | None) -> dict[str, Any] | None:
    """The deductive output without ``grounded_share``: the LLM rows were cached before the
    field existed, so keeping it where present would make "grounded share missing" a proxy
    for "LLM prediction" (a train/serve skew: verify() always has it).  The feature stays in
    the model with weight 0 here."""
    out = _out(res)
    if out is None:
        return None
    det = dict(out["details"])
    sig = dict(det.get("signals") or {})
    ded = {k: v for k, v in (sig.get("deductive") or {}).items() if k != "grounded_share"}
    sig["deductive"] = ded
    det["signals"] = sig
    out["details"] = det
    return out


def evidence(recs: Sequence[BenchRecord], rows: Mapping[str, Mapping[str, CachedResult]]):
    from verifier.stacking.features import Evidence

    return [Evidence(r.question, r.sparql, _deductive(rows.get("deductive", {}).get(r.id)),
                     _out(rows.get("pgmr", {}).get(r.id)), _out(rows.get("hdm", {}).get(r.id)),
                     None) for r in recs]


def _group(ds: str, r: BenchRecord) -> str:
    if ds == "perturbations":
        return f"p:{r.get('gold_id') or r.id}"
    return f"{ds}:{r.question.strip().lower()}"


@dataclass(frozen=True)
class FitSpec:
    """How the stacker is fitted (command-line options ``--C``, ``--bins``, ``--interactions``,
    ``--llm-weight``)."""

    C: float = 0.3
    bins: int = 0
    interactions: tuple[tuple[str, ...], ...] = ()
    llm_weight: float = 1.0  # the LLM rows together weigh this many times all synthetic rows
    #: ``--llm-weight auto``: candidates; each model keeps the one with the best out-of-fold
    #: ROC AUC on its own training LLM rows (never on the rows it is evaluated on)
    llm_weight_candidates: tuple[float, ...] = ()

    def describe(self) -> dict[str, Any]:
        return {"C": self.C, "bins": self.bins,
                "interactions": ["*".join(t) for t in self.interactions],
                "llm_weight": f"LLM rows together weigh {self.llm_weight:g} x all other rows"}


def row_weights(is_llm: Sequence[bool], llm_weight: float = 1.0):
    """Synthetic rows weigh 1; the LLM predictions (real system outputs) together weigh
    ``llm_weight`` times all synthetic rows."""
    import numpy as np

    m = np.asarray(is_llm, dtype=bool)
    w = np.ones(len(m))
    if m.any() and (~m).any():
        w[m] = llm_weight * (~m).sum() / m.sum()
    return w


_MATRICES: dict[tuple[str, str], Any] = {}


def features_of(ds: str, recs: Sequence[BenchRecord], rows) -> Any:
    """Feature matrix of ``recs`` (rows computed once per record and kept)."""
    import numpy as np

    from verifier.stacking.features import FEATURE_NAMES
    from verifier.stacking.train import matrix

    todo = [r for r in recs if (ds, r.id) not in _MATRICES]
    if todo:
        for r, x in zip(todo, matrix(evidence(todo, rows[ds]))):
            _MATRICES[(ds, r.id)] = x
    return np.array([_MATRICES[(ds, r.id)] for r in recs]).reshape(len(recs), len(FEATURE_NAMES))


def design(parts: Sequence[tuple[str, Sequence[BenchRecord]]], rows,
           llm_weight: float = 1.0) -> tuple[Any, Any, Any, Any]:
    """``(X, y, groups, weights)``: every labelled record of ``parts``, weighted by
    :func:`row_weights`."""
    import numpy as np

    X, y, g, is_llm = [], [], [], []
    for ds, recs in parts:
        recs = [r for r in recs if r.label in (0, 1)]
        if not recs:
            continue
        X.append(features_of(ds, recs, rows))
        y += [int(r.label) for r in recs]
        g += [_group(ds, r) for r in recs]
        is_llm += [ds == "llm_predictions"] * len(recs)
    return np.vstack(X), np.array(y), np.array(g, dtype=object), row_weights(is_llm, llm_weight)


def fit_matrix(X, y, g, w, info: Mapping[str, Any], spec: FitSpec = FitSpec()):
    """The stacker of design matrix ``(X, y, g, w)``: missing-signal augmentation, then
    :func:`verifier.stacking.model.fit_stacker` with ``spec``; the precision-first
    thresholds are chosen on the out-of-fold LLM rows (the real ones, not the augmented
    copies)."""
    import numpy as np

    from verifier.stacking.features import FEATURE_NAMES
    from verifier.stacking.model import fit_stacker
    from verifier.stacking.train import augment_missing

    n = len(y)
    X, y, g, w = augment_missing(X, y, g, share=0.15, seed=SEED, weights=w)
    # precision-first thresholds on the real LLM rows (not their copies with a signal blanked)
    llm = np.array([str(x).startswith("llm_predictions:") for x in g]) & (np.arange(len(y)) < n)
    return fit_stacker(X, y, FEATURE_NAMES, groups=g, sample_weight=w, seed=SEED, C=spec.C,
                       bins=spec.bins, interactions=spec.interactions,
                       point_mask=llm if llm.any() else None,
                       info={**info, **spec.describe(),
                             "precision_first_on": "out-of-fold LLM rows of the training set"})


def fit(parts, rows, info: Mapping[str, Any], spec: FitSpec = FitSpec()):
    """The stacker of ``parts``; with ``spec.llm_weight_candidates``, the candidate LLM
    weight whose model has the best out-of-fold AUC on its training LLM rows."""
    if not spec.llm_weight_candidates:
        return fit_matrix(*design(parts, rows, spec.llm_weight), info, spec)
    from dataclasses import replace

    best, aucs = None, {}
    for wt in spec.llm_weight_candidates:
        sp = replace(spec, llm_weight=wt, llm_weight_candidates=())
        m = fit_matrix(*design(parts, rows, wt), info, sp)
        aucs[wt] = m.info.get("auc_oof_points") or 0.0
        if best is None or aucs[wt] > best.info.get("auc_oof_points", 0.0):
            best = m
    log.info("LLM weight by out-of-fold AUC on the training LLM rows: %s -> %s", aucs,
             best.info["llm_weight"])
    return replace(best, info={**best.info, "llm_weight_oof_auc": {str(k): v for k, v in aucs.items()}})


def _res(decision: str, score: float) -> CachedResult:
    return CachedResult("", "", decision, float(score), {})


def bootstrap_ci(labels: Sequence[int], accepted: Sequence[bool], groups: Sequence[str], *,
                 n: int = 1000, seed: int = SEED) -> dict[str, tuple[float, float]]:
    """95 % percentile intervals of accept-precision and of the share of correct items
    accepted, resampling ``groups`` (questions) with replacement; the decisions are fixed
    (the thresholds are not re-chosen), so this is the noise of the evaluation rows only."""
    import numpy as np

    y = np.asarray(labels, dtype=float)
    a = np.asarray(accepted, dtype=bool)
    keys = sorted(set(groups))
    idx = {k: i for i, k in enumerate(keys)}
    gi = np.array([idx[g] for g in groups])
    # per group: accepted correct, accepted, correct
    acc_ok = np.bincount(gi, weights=y * a, minlength=len(keys))
    accd = np.bincount(gi, weights=a.astype(float), minlength=len(keys))
    ok = np.bincount(gi, weights=y, minlength=len(keys))
    rng = np.random.default_rng(seed)
    prec, share = [], []
    for _ in range(n):
        c = np.bincount(rng.integers(0, len(keys), len(keys)), minlength=len(keys))
        if (c * accd).sum() > 0:
            prec.append((c * acc_ok).sum() / (c * accd).sum())
        if (c * ok).sum() > 0:
            share.append((c * acc_ok).sum() / (c * ok).sum())

    def pct(v: list[float]) -> tuple[float, float]:
        return (float(np.percentile(v, 2.5)), float(np.percentile(v, 97.5))) if v else \
            (float("nan"), float("nan"))

    return {"accept_precision": pct(prec), "correct_accepted": pct(share)}


def best_threshold_f1(test: Mapping[str, Sequence[BenchRecord]],
                      probs: Mapping[str, Mapping[str, float]],
                      grid: Sequence[float] = tuple(i / 40 for i in range(1, 40))
                      ) -> dict[tuple[str, str], float]:
    """Diagnostic only (it looks at the test labels; nothing is chosen with it): per
    ``(dataset, category)``, the best macro-F1 the stacked probability reaches with one
    accept threshold from ``grid`` chosen for that category alone: how far a better threshold
    (rather than a better score) could take the stacked model."""
    from verifier.benchmark.evaluate import SignalRun
    from verifier.benchmark.report import summarize

    best: dict[tuple[str, str], float] = {}
    for ds, recs in test.items():
        for t in grid:
            res = {r.id: _res("accept" if probs[ds][r.id] >= t else "reject", probs[ds][r.id])
                   for r in recs}
            summ = summarize(Dataset(ds, tuple(recs), Path(ds)),
                             {"s": SignalRun("s", True, results=res)}, groups=())
            for cat, c in summ["signals"]["s"]["categories"].items():
                if c.get("kind") == "vs_correct" and c.get("metrics"):
                    key = (ds, cat)
                    best[key] = max(best.get(key, 0.0), c["metrics"]["macro_f1"])
    return best


def run_bench(args: argparse.Namespace) -> int:
    import numpy as np

    global OUT
    OUT = Path(args.out)

    from verifier.benchmark.evaluate import SignalRun
    from verifier.benchmark.report import summarize
    from verifier.benchmark.signals import SignalOptions
    from verifier.stacking.model import expected_calibration_error, reliability_bins
    from verifier.stacking.signal import HdmSignal

    t0 = time.time()
    samples = select_samples()
    opts = SignalOptions(hdm_model=args.hdm_model, hdm_mc_trials=args.mc_trials)
    sigs: list[Any] = ["deductive", "pgmr"]
    allrecs: dict[str, list[BenchRecord]] = defaultdict(list)
    for part in (samples.train, samples.test):
        for k, v in part.items():
            allrecs[k].extend(v)
    rows = gather(allrecs, sigs, options=opts, workers=args.workers, compute=args.stage != "fit")
    hdm_info: dict[str, Any] = {"used": False}
    if args.hdm_model:
        seen = hdm_seen_questions(args.hdm_model)
        hrows = gather_hdm(allrecs, HdmSignal(opts), compute=args.stage != "fit", seen=seen)
        for ds in rows:
            rows[ds]["hdm"] = hrows.get(ds, {})
        sigs.append("hdm")
        hdm_info = {"used": True, "model": str(args.hdm_model), "seen_questions": len(seen),
                    "coverage": {ds: f"{len(hrows.get(ds, {}))}/{len(v)}" for ds, v in allrecs.items()}}
    cover = {ds: {s: len(v) for s, v in m.items()} for ds, m in rows.items()}
    log.info("signal rows: %s", cover)
    if args.stage == "compute":
        print(json.dumps(cover, indent=1))
        return 0
    llm = list(samples.test["llm_predictions"])
    folds = [[r for r in llm if samples.llm_fold[r.id] == k] for k in (0, 1)]
    train_parts = [(ds, recs) for ds, recs in samples.train.items()]
    info = {"bench": "bench/stacked.py", "seed": SEED, "signals": [s if isinstance(s, str) else s.name for s in sigs],
            "train": {ds: len(r) for ds, r in samples.train.items()}}
    auto = args.llm_weight == "auto"
    spec = FitSpec(args.C, args.bins, tuple(tuple(t.split("*")) for t in args.interactions),
                   1.0 if auto else float(args.llm_weight), (1.0, 2.0, 3.0, 5.0) if auto else ())
    full = fit(train_parts + [("llm_predictions", llm)], rows, {**info, "llm_rows": len(llm)},
               spec)
    OUT.mkdir(parents=True, exist_ok=True)
    full.save(OUT / "model.json")
    fold_models = [fit(train_parts + [("llm_predictions", folds[1 - k])], rows,
                       {**info, "llm_fold_trained": 1 - k}, spec) for k in (0, 1)]
    # stacked outputs on the test samples
    stacked: dict[str, dict[str, CachedResult]] = {}
    probs: dict[str, dict[str, float]] = {}
    for ds, recs in samples.test.items():
        X = features_of(ds, recs, rows)
        if ds == "llm_predictions":
            p = np.array([fold_models[samples.llm_fold[r.id]].predict_proba(X[i:i + 1])[0]
                          for i, r in enumerate(recs)])
            dec = [fold_models[samples.llm_fold[r.id]].decide(p[i]) for i, r in enumerate(recs)]
        else:
            p = full.predict_proba(X)
            dec = [full.decide(x) for x in p]
        stacked[ds] = {r.id: _res(d, x) for r, d, x in zip(recs, dec, p)}
        probs[ds] = {r.id: float(x) for r, x in zip(recs, p)}
    # balanced operating point, for the table
    table: list[dict[str, Any]] = []
    names = [s if isinstance(s, str) else s.name for s in sigs]
    summaries = {}
    for ds, recs in samples.test.items():
        runs = {}
        for name in names:
            res = rows[ds].get(name, {})
            if not res:
                continue
            # a signal that did not run on an item abstains there (excluded from F1, counted
            # in the abstention rate), as the evaluation harness does for errors
            runs[name] = SignalRun(name, True, results={r.id: res.get(r.id) or _res("abstain", 0.5)
                                                        for r in recs})
        runs["stacked"] = SignalRun("stacked", True, results=stacked[ds])
        bal = {}
        for r in recs:
            m = fold_models[samples.llm_fold[r.id]] if ds == "llm_predictions" else full
            bal[r.id] = _res(m.decide(probs[ds][r.id], "balanced"), probs[ds][r.id])
        runs["stacked_balanced"] = SignalRun("stacked_balanced", True, results=bal)
        summ = summarize(Dataset(ds, tuple(recs), Path(ds)), runs)
        summaries[ds] = summ
        cats = list(dict.fromkeys(r.category for r in recs))
        for cat in cats:
            row: dict[str, Any] = {"dataset": ds, "category": cat}
            for name, s in summ["signals"].items():
                c = s["categories"].get(cat) or {}
                m = c.get("metrics") or {}
                row[name] = m.get("macro_f1") if c.get("kind") == "vs_correct" else None
                row[name + ":acc"] = m.get("acceptance_correct")
                row[name + ":abst"] = m.get("abstain_rate")
                row[name + ":auc"] = m.get("auc") if c.get("kind") == "vs_correct" else None
                row["n"] = c.get("n")
                row["kind"] = c.get("kind")
            table.append(row)
    # calibration on the pooled test rows
    ys, ps = [], []
    for ds, recs in samples.test.items():
        for r in recs:
            if r.label in (0, 1):
                ys.append(int(r.label))
                ps.append(probs[ds][r.id])
    ece = expected_calibration_error(ys, ps)
    ece_by = {ds: expected_calibration_error([int(r.label) for r in recs if r.label in (0, 1)],
                                             [probs[ds][r.id] for r in recs if r.label in (0, 1)])
              for ds, recs in samples.test.items()}
    _plot_reliability(ys, ps, {ds: ([int(r.label) for r in recs if r.label in (0, 1)],
                                    [probs[ds][r.id] for r in recs if r.label in (0, 1)])
                               for ds, recs in samples.test.items()}, OUT / "reliability.png")
    # LLM predictions at the default operating point
    lab = [r for r in llm]
    acc = [r for r in lab if stacked["llm_predictions"][r.id].decision == "accept"]
    accept_precision = (sum(r.label for r in acc) / len(acc)) if acc else float("nan")
    n_correct = sum(r.label for r in lab)
    correct_accepted = sum(r.label for r in acc) / n_correct if n_correct else float("nan")
    ci = bootstrap_ci([r.label for r in lab],
                      [stacked["llm_predictions"][r.id].decision == "accept" for r in lab],
                      [r.question.strip().lower() for r in lab])
    # LLM: operating curve of the stacked probability (cross-fitted)
    curve = []
    for t in [x / 20 for x in range(21)]:
        a = [r for r in lab if probs["llm_predictions"][r.id] >= t]
        curve.append((t, len(a), (sum(r.label for r in a) / len(a)) if a else None,
                      sum(r.label for r in a) / n_correct))
    gains = []
    for row in table:
        if row["kind"] != "vs_correct":
            continue
        singles = [row[n] for n in names if row.get(n) is not None]
        if row.get("stacked_balanced") is None or not singles:
            continue
        row["best_single"] = max(singles)
        row["gain"] = row["stacked_balanced"] - row["best_single"]
        # goal (1) needs stacked >= best single + 0.05; macro-F1 <= 1 caps the gain
        row["max_gain"] = 1.0 - row["best_single"]
        gains.append(row["gain"])
    gain = min(gains) if gains else float("nan")
    oracle = best_threshold_f1(samples.test, probs)
    for row in table:
        if row["kind"] == "vs_correct" and "best_single" in row:
            row["oracle_f1"] = oracle.get((row["dataset"], row["category"]))
            row["oracle_gain"] = row["oracle_f1"] - row["best_single"]
    report = {"table": table, "ece": ece, "ece_by_dataset": ece_by,
              "reliability": reliability_bins(ys, ps),
              "llm": {"accept_precision": accept_precision, "correct_accepted": correct_accepted,
                      "accepted": len(acc), "n": len(lab), "n_correct": n_correct, "ci95": ci,
                      "curve": curve},
              "models": {"full": full.info, "folds": [m.info for m in fold_models]},
              "operating_points": {k: vars(v) for k, v in full.operating_points.items()},
              "signal_rows": cover, "hdm": hdm_info, "macro_f1_gain": gain,
              "config_hashes_read": {k: dict(v) for k, v in HASHES_USED.items()},
              "seconds": time.time() - t0}
    (OUT / "report.json").write_text(json.dumps(report, indent=1, default=str) + "\n")
    md = _markdown(table, names, report)
    (OUT / "report.md").write_text(md)
    print(md)
    print(f"accept_precision={accept_precision:.3f} correct_accepted={correct_accepted:.3f} "
          f"ece={ece:.3f} macro_f1_gain={gain:.3f}")
    return 0


def _f(x: Any) -> str:
    return "–" if x is None or (isinstance(x, float) and x != x) else (f"{x:.3f}" if isinstance(x, float) else str(x))


def _markdown(table, names, rep) -> str:
    cols = list(names) + ["stacked", "stacked_balanced"]
    lines = ["Macro-F1 per category (hallucinations of the category vs the correct items they "
             "are compared with; abstentions excluded; a signal that did not run on an item "
             "abstains there), stacked at the precision-first (default, with abstain band) and "
             "balanced (one threshold, no abstention) operating points; gain = stacked balanced "
             "minus the best single signal.", "",
             "max gain = 1 - best single (macro-F1 <= 1: the +0.05 goal is impossible where it "
             "is below 0.05); oracle = the best macro-F1 of the stacked probability with a "
             "threshold chosen on this category's test items (diagnostic only, looks at the "
             "test labels).", "",
             "| dataset | category | n | " + " | ".join(cols) + " | gain | max gain | oracle |",
             "|---|---|---|" + "---|" * (len(cols) + 3)]
    for row in table:
        if row["kind"] == "vs_correct":
            vals = [_f(row.get(c)) for c in cols] + [_f(row.get(k)) for k in
                                                      ("gain", "max_gain", "oracle_f1")]
        else:
            vals = [f"acc {_f(row.get(c + ':acc'))}" for c in cols] + ["(correct only)", "", ""]
        lines.append(f"| {row['dataset']} | {row['category']} | {row['n']} | " + " | ".join(vals) + " |")
    lines += ["", "ROC AUC per category (ranking by score, every item; threshold-free):", "",
              "| dataset | category | " + " | ".join(names) + " | stacked |",
              "|---|---|" + "---|" * (len(names) + 1)]
    for row in table:
        if row["kind"] == "vs_correct":
            lines.append(f"| {row['dataset']} | {row['category']} | "
                         + " | ".join(_f(row.get(c + ':auc')) for c in list(names) + ["stacked"]) + " |")
    lines += ["", "Abstention rate of the stacked verifier (precision-first) per category: " +
              ", ".join(f"{r['dataset']}/{r['category']} {_f(r.get('stacked:abst'))}" for r in table), ""]
    lines.append(f"ECE (10 bins, pooled test rows): {rep['ece']:.3f}; by dataset: " +
                 ", ".join(f"{k} {v:.3f}" for k, v in rep["ece_by_dataset"].items()))
    llm = rep["llm"]
    lines.append(f"LLM predictions (cross-fitted, precision-first): accepted {llm['accepted']} of "
                 f"{llm['n']}, accept-precision {_f(llm['accept_precision'])}, correct accepted "
                 f"{_f(llm['correct_accepted'])} of {llm['n_correct']} (95 % bootstrap intervals "
                 f"over questions: accept-precision {_f(llm['ci95']['accept_precision'][0])}-"
                 f"{_f(llm['ci95']['accept_precision'][1])}, correct accepted "
                 f"{_f(llm['ci95']['correct_accepted'][0])}-{_f(llm['ci95']['correct_accepted'][1])})")
    lines.append("LLM operating curve (threshold: accepted, precision, share of correct accepted): "
                 + "; ".join(f"{t:.2f}: {n}, {_f(p)}, {_f(c)}" for t, n, p, c in llm["curve"][::2]))
    pf = rep["operating_points"]["precision-first"]
    lines.append(f"precision-first operating point (shipped model): accept >= {pf['accept']:.3f}, "
                 f"reject < {pf['reject']:.3f}")
    return "\n".join(lines) + "\n"


def _plot_reliability(ys, ps, by_ds, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from verifier.stacking.model import reliability_bins

    fig, ax = plt.subplots(1, 2, figsize=(10, 4.5))
    ax[0].plot([0, 1], [0, 1], "k:", lw=1)
    b = reliability_bins(ys, ps)
    ax[0].plot([x for x, _, _ in b], [y for _, y, _ in b], "o-", label="all test rows")
    for ds, (y, p) in by_ds.items():
        if len(set(y)) > 1:
            bb = reliability_bins(y, p)
            ax[0].plot([x for x, _, _ in bb], [v for _, v, _ in bb], ".--", lw=0.8, label=ds)
    ax[0].set_xlabel("predicted P(correct)")
    ax[0].set_ylabel("observed share correct")
    ax[0].set_title("Stacked verifier: reliability (10 bins)")
    ax[0].legend(fontsize=7)
    ax[1].hist([p for p, y in zip(ps, ys) if y == 1], bins=20, alpha=0.6, label="correct")
    ax[1].hist([p for p, y in zip(ps, ys) if y == 0], bins=20, alpha=0.6, label="hallucinated")
    ax[1].set_xlabel("predicted P(correct)")
    ax[1].set_title("score histogram (test rows)")
    ax[1].legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--stage", choices=("all", "compute", "fit"), default="all",
                    help="compute: only fill the cache; fit: only use what is cached")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--hdm-model", type=Path, default=None,
                    help="HDM detector folder (default bench/out/hdm/detector_oo when present)")
    ap.add_argument("--no-hdm", action="store_true")
    ap.add_argument("--current-only", action="store_true",
                    help="use only rows of the current signal configurations (compute the rest), "
                         "not rows of earlier code")
    ap.add_argument("--pin", action="append", default=[], metavar="SIGNAL=HASH",
                    help="read only the cached rows of this configuration hash for the signal "
                         "(e.g. the rows an earlier run computed, listed in its report.json)")
    ap.add_argument("--out", type=Path, default=OUT, help="output folder (default bench/out/stacked)")
    ap.add_argument("--C", type=float, default=FitSpec.C, help="inverse L2 strength (default 0.3)")
    ap.add_argument("--bins", type=int, default=FitSpec.bins,
                    help="quantile bins of the numeric features as step columns (0: none)")
    ap.add_argument("--interactions", nargs="*", default=[], metavar="A*B",
                    help="feature products added as columns, e.g. pgmr_score*ded_reject")
    ap.add_argument("--llm-weight", default=str(FitSpec.llm_weight),
                    help="the LLM rows together weigh this many times all synthetic rows "
                         "(default 1); 'auto': 1, 2, 3 or 5, chosen per model by the out-of-fold "
                         "AUC on its own training LLM rows")
    ap.add_argument("--mc-trials", type=int, default=10,
                    help="HDM MC-dropout trials (default 10, as bench/hdm_pipeline.py)")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="[%(asctime)s] %(message)s", datefmt="%H:%M:%S")
    default_hdm = REPO / "bench" / "out" / "hdm" / "detector_oo"
    if args.hdm_model is None and not args.no_hdm and (default_hdm / "hdm_detector.json").is_file():
        args.hdm_model = default_hdm
    if args.no_hdm:
        args.hdm_model = None
    global CURRENT_ONLY
    CURRENT_ONLY = args.current_only
    for item in args.pin:
        sig, _, h = item.partition("=")
        if not h:
            ap.error(f"--pin needs SIGNAL=HASH, got {item!r}")
        PINNED[sig.strip()] = h.strip()
    return run_bench(args)


if __name__ == "__main__":
    sys.exit(main())
