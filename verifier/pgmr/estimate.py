"""Estimating support priors and fitting the grounding model on training pairs.

:func:`estimate_priors` measures, on correct (question, SPARQL) pairs of training data, what
:mod:`verifier.pgmr.calibrate` describes (expected supports, :class:`Statistics`, the
:class:`GroundingModel`), from the evidence of :func:`verifier.pgmr.signal.pair_evidence`
on those pairs and on wrong ones (:mod:`verifier.pgmr.perturb`).
"""

from __future__ import annotations

import logging
from types import MappingProxyType
from typing import Sequence

import numpy as np

from verifier.lexical import WordNetRelations
from verifier.pgmr.calibrate import (BINNED_FEATURES, DEFAULT_MODEL, EMPTY_STATISTICS, ID_FEATURES,
                                     GroundingModel, LinearModel, Statistics, SupportPriors,
                                     feature_value, fit_logistic)
from verifier.pgmr.memory import Memory
from verifier.pgmr.perturb import given_replacements, plausible_replacements
from verifier.pgmr.signal import id_features, pair_evidence, raw_score

__all__ = ["estimate_priors"]

log = logging.getLogger(__name__)


def _fold(n: int, folds: int) -> int:
    return (n * 7919) % folds


def estimate_priors(pairs: Sequence[tuple[str, str]], memory: "Memory", *,
                    quantile: float = 0.5, shrinkage: float = 3.0, folds: int = 5,
                    min_pairs: int = 200, seed: int = 0, neutral: bool = False,
                    wordnet: "WordNetRelations | None" = None,
                    negatives: Sequence[tuple[str, str]] | None = None,
                    binned: bool | None = None) -> SupportPriors:
    """Estimate priors from correct (question, sparql) pairs (training data, never the test
    split you evaluate on).  Identifiers absent from the memory are ignored.

    With at least ``min_pairs`` pairs the grounding model is fitted too (module docstring);
    ``neutral=True`` fits it with empty statistics (that is how :data:`DEFAULT_MODEL` was
    made).  ``wordnet`` must be what the signal will be given.

    ``negatives``: wrong (question, sparql) pairs for the same training questions, each one
    identifier away from its correct query (e.g. the benchmark's train-split
    ``wrong_entity`` / ``wrong_property`` records; matched by
    :func:`verifier.pgmr.perturb.given_replacements`).  When given, the model is fitted on
    them *instead of* the generated :func:`~verifier.pgmr.perturb.plausible_replacements`,
    so it learns the kind of mistakes it will be asked about (discriminative training).

    ``binned``: fit the identifier models over :data:`BINNED_FEATURES` (the features plus
    steps at the thresholds of :data:`ID_BINS`) instead of :data:`ID_FEATURES`; default:
    binned exactly when ``negatives`` are given (on the project benchmark, steps helped with
    its plausible wrong identifiers as negatives and hurt with generated replacements).
    """
    gold = pair_evidence(pairs, memory, wordnet=wordnet)
    per_id: dict[str, list[float]] = {}
    per_kind: dict[str, list[float]] = {}
    for pe in gold:
        for ie in pe.distinct():
            if ie.exists and ie.kind_ok and ie.kind:
                per_kind.setdefault(ie.kind, []).append(ie.support)
                per_id.setdefault(ie.id, []).append(ie.support)
    kind_default = {k: float(np.quantile(v, quantile)) for k, v in per_kind.items()}
    expected = {k: (len(v), float(np.quantile(v, quantile))) for k, v in per_id.items()}
    stats = Statistics.count(gold)
    model = None
    if len(pairs) >= min_pairs:
        if negatives is None:
            replacements = plausible_replacements(pairs, memory, seed=seed)
        else:
            replacements, skipped = given_replacements(pairs, negatives, memory)
            log.info("negatives: %d of %d matched a training pair by one replaced identifier",
                     len(replacements), len(replacements) + skipped)
        model = _fit_model(pairs, memory, gold, folds=folds, seed=seed, neutral=neutral,
                           wordnet=wordnet, replacements=replacements,
                           features=BINNED_FEATURES if (negatives is not None if binned is None
                                                        else binned) else ID_FEATURES)
    return SupportPriors(memory.encoder.identity, MappingProxyType(expected),
                         MappingProxyType(kind_default), shrinkage, quantile, len(pairs),
                         EMPTY_STATISTICS if neutral else stats, model)


def _fit_model(pairs: Sequence[tuple[str, str]], memory: "Memory", gold: Sequence, *,
               folds: int, seed: int, neutral: bool, wordnet,
               replacements: Sequence,
               features: Sequence[str] = ID_FEATURES) -> GroundingModel:
    """Fit one identifier model per kind: identifiers of the correct pairs are positives,
    the replacement identifiers of the changed pairs negatives; statistics cross-fitted."""
    wrong = pair_evidence([(pairs[r.pair][0], r.sparql) for r in replacements], memory,
                          wordnet=wordnet)
    fold_stats = [EMPTY_STATISTICS if neutral else
                  Statistics.count([pe for n, pe in enumerate(gold) if _fold(n, folds) != f])
                  for f in range(folds)]
    rows: dict[str, tuple[list[list[float]], list[float]]] = {
        g: ([], []) for g in ("item", "property")}

    def add(pe, stats: Statistics, label: float, only: str | None = None) -> None:
        for ie in pe.distinct():
            if ie.exists and ie.kind_ok and ie.kind in rows and only in (None, ie.id):
                f = id_features(ie, pe, stats)
                rows[ie.kind][0].append([feature_value(k, f) for k in features])
                rows[ie.kind][1].append(label)

    for n, pe in enumerate(gold):
        add(pe, fold_stats[_fold(n, folds)], 1.0)
    for r, pe in zip(replacements, wrong):
        add(pe, fold_stats[_fold(r.pair, folds)], 0.0, only=r.new)
    models = {}
    for g, (xs, ys) in rows.items():
        if len(set(ys)) < 2:
            models[g] = DEFAULT_MODEL.identifier[g]
            continue
        w, b = fit_logistic(np.array(xs), np.array(ys))
        models[g] = LinearModel(tuple(features), tuple(float(v) for v in w), b)
    uncalibrated = GroundingModel(MappingProxyType(models))
    # Platt scaling of the query score, right and wrong queries weighted equally
    raw, label = [], []
    for n, pe in enumerate(gold):
        raw.append(raw_score(pe, uncalibrated, fold_stats[_fold(n, folds)]))
        label.append(1.0)
    for r, pe in zip(replacements, wrong):
        raw.append(raw_score(pe, uncalibrated, fold_stats[_fold(r.pair, folds)]))
        label.append(0.0)
    keep = [i for i, v in enumerate(raw) if v is not None]
    y = np.array([label[i] for i in keep])
    calibration = (1.0, 0.0)
    if len(set(y)) == 2:
        r = np.clip(np.array([raw[i] for i in keep], dtype=float), 1e-6, 1 - 1e-6)
        sw = np.where(y == 1, 0.5 / y.sum(), 0.5 / (1 - y).sum()) * len(y)
        (a,), b = fit_logistic(np.log(r / (1 - r))[:, None], y, weights=sw, l2=0.01)
        calibration = (float(a), float(b))
    log.info("grounding model fitted on %d correct and %d changed pairs", len(gold), len(wrong))
    return GroundingModel(MappingProxyType(models), calibration)
