"""Support priors: what correct (question, SPARQL) pairs of *training* data say about
identifiers, and the small model that turns the evidence of :mod:`verifier.pgmr.signal` into
a grounding score.  This module holds the priors, statistics and models and their files;
:func:`verifier.pgmr.estimate.estimate_priors` estimates them from training pairs.

:func:`~verifier.pgmr.estimate.estimate_priors` takes correct training pairs (never the split
you evaluate on) and measures:

* ``expected``: each identifier's median hashed-cosine support, shrunk towards the median of
  its kind (``shrinkage`` pseudo-observations)::

      expected(id) = (n * median_id + shrinkage * median_kind) / (n + shrinkage)

  (reported as ``IdentifierSupport.expected``);
* :class:`Statistics`: how often each identifier is used although no name of it is in the
  question (``implicit``: ``instance of``, ``start time``, ``human``), which question words
  go with which identifier (``association``: P(id in the query | word in the question),
  e.g. "when" -> ``point in time``), and how often a question phrase that names some
  identifier is accounted for by the query (``keyphraseness``, as link probability in entity
  linking: "budget" almost always is, "name" or "word" rarely);
* the grounding model (:class:`GroundingModel`): one logistic regression per kind group over
  an identifier's evidence, and one over the query (its weakest item and property, and the
  phrases it leaves unexplained).  It is fitted on the training pairs and on replacements of
  their identifiers (:func:`verifier.pgmr.perturb.plausible_replacements`: random, nearest
  label, same context), or on given wrong queries for the training questions
  (``negatives=``, e.g. the benchmark's train-split wrong entities and properties); the
  statistics used as features are cross-fitted (``folds``), so no pair sees statistics
  counted on itself.

Without priors, or with fewer than ``min_pairs`` training pairs, the signal uses
:data:`DEFAULT_MODEL` (fitted the same way on LC-QuAD 2.0 train_subset + WikiWebQuestions
train, with neutral statistics) and empty statistics.  Priors depend on the encoder, so they
record its identity and refuse to be used with another one.
"""

from __future__ import annotations

import json
import logging
import math
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Iterable, Mapping, Sequence

import numpy as np

__all__ = ["SupportPriors", "Statistics", "LinearModel", "GroundingModel", "EMPTY_STATISTICS",
           "fit_logistic", "logistic", "PRIORS_FILE", "DEFAULT_MODEL", "STATISTICS_MODEL",
           "ID_FEATURES", "ID_BINS", "BINNED_FEATURES", "feature_value"]

log = logging.getLogger(__name__)

PRIORS_FILE = "priors.json"
_FORMAT = "sparql-verifier/pgmr-priors"
_VERSION = 2

# identifier evidence (see verifier.pgmr.signal.id_features)
ID_FEATURES = ("coverage", "cosine", "prepositions", "phrase", "matched", "unmatched",
               "association", "implicit", "usage", "qualifier", "class_role")
# thresholds of the indicator features "name>=t" of the binned model (a generalised additive
# model: the linear features plus one step per threshold); fixed in feature space, not fitted
ID_BINS = MappingProxyType({
    "coverage": (0.3, 0.5, 0.7, 0.9, 0.99), "cosine": (0.3, 0.5, 0.7, 0.9, 0.99),
    "prepositions": (0.5, 0.99), "matched": (0.2, 0.4, 0.6), "unmatched": (0.01, 0.34, 0.51, 0.99),
    "association": (0.02, 0.05, 0.1, 0.2, 0.35, 0.5, 0.7, 0.9),
    "implicit": (0.1, 0.2, 0.35, 0.5, 0.7, 0.9),
    "usage": (0.05, 0.15, 0.25, 0.35, 0.45, 0.55, 0.65)})
BINNED_FEATURES = ID_FEATURES + tuple(f"{k}>={t}" for k, ts in ID_BINS.items() for t in ts)

IMPLICIT_BELOW = 0.5        # coverage under which a use counts as implicit
IMPLICIT_SHRINKAGE = 2.0
ASSOCIATION_SMOOTHING = 2.0  # added to a word's question count
KEYPHRASE_SHRINKAGE = 3.0
# kind-level rates when no statistics are available (LC-QuAD 2.0 train_subset +
# WikiWebQuestions train: share of implicit uses; share of phrases accounted for, by keys)
DEFAULT_IMPLICIT = MappingProxyType({"item": 0.09, "property": 0.43})
DEFAULT_KEYPHRASE = MappingProxyType({"item|1": 0.69, "item|2": 0.93, "item|3": 0.97,
                                      "property|1": 0.69, "property|2": 0.85,
                                      "property|3": 1.0})


# ------------------------------------------------------------------------------ models

@lru_cache(maxsize=4096)
def _step(name: str) -> tuple[str, float] | None:
    base, sep, t = name.partition(">=")
    return (base, float(t)) if sep else None


def feature_value(name: str, values: Mapping[str, float]) -> float:
    """``values[name]``; for an indicator ``"base>=t"`` not in ``values``, 1.0 when
    ``values[base] >= t`` else 0.0; a missing feature counts 0."""
    v = values.get(name)
    if v is not None:
        return float(v)
    step = _step(name)
    if step is None:
        return 0.0
    return float(float(values.get(step[0], 0.0)) >= step[1])


@dataclass(frozen=True)
class LinearModel:
    """``logit = bias + sum(weight * feature)`` over named features (see
    :func:`feature_value` for the indicator features ``"base>=t"``)."""

    features: tuple[str, ...]
    weights: tuple[float, ...]
    bias: float

    def logit(self, values: Mapping[str, float]) -> float:
        """The logit for ``values`` (a missing feature counts 0)."""
        return self.bias + sum(w * feature_value(f, values)
                               for f, w in zip(self.features, self.weights))

    def to_dict(self) -> dict:
        return {"features": list(self.features), "weights": [round(w, 6) for w in self.weights],
                "bias": round(self.bias, 6)}

    @classmethod
    def from_dict(cls, d: Mapping) -> "LinearModel":
        return cls(tuple(d["features"]), tuple(float(w) for w in d["weights"]), float(d["bias"]))


@dataclass(frozen=True)
class GroundingModel:
    """One :class:`LinearModel` per kind group (``item``, ``property``) over
    :data:`ID_FEATURES` or :data:`BINNED_FEATURES` (the logit that an identifier is right),
    and ``calibration`` ``(a, b)``: the query score is ``logistic(a * logit(raw) + b)`` for
    the raw score of
    :func:`verifier.pgmr.signal.combine`, so that it estimates P(query right) with right and
    wrong queries equally likely (Platt scaling on the training pairs and their
    replacements; monotone, so rankings and AUCs do not change)."""

    identifier: Mapping[str, LinearModel]
    calibration: tuple[float, float] = (1.0, 0.0)

    def calibrate(self, raw: float) -> float:
        """The calibrated query score for a raw score in [0, 1]."""
        r = min(1.0 - 1e-6, max(1e-6, raw))
        a, b = self.calibration
        return logistic(a * math.log(r / (1.0 - r)) + b)

    def to_dict(self) -> dict:
        return {"identifier": {k: m.to_dict() for k, m in sorted(self.identifier.items())},
                "calibration": [round(v, 6) for v in self.calibration]}

    @classmethod
    def from_dict(cls, d: Mapping) -> "GroundingModel":
        a, b = d.get("calibration", (1.0, 0.0))
        return cls(MappingProxyType({k: LinearModel.from_dict(m)
                                     for k, m in d["identifier"].items()}), (float(a), float(b)))


def _model(features: Sequence[str], weights: Sequence[float], bias: float) -> LinearModel:
    return LinearModel(tuple(features), tuple(weights), bias)


# Fitted by estimate_priors(..., neutral=True) on LC-QuAD 2.0 train_subset +
# WikiWebQuestions train (2,631 pairs, seed 0); regenerate with
# `python bench/pgmr_perturbations.py --default-model`.
DEFAULT_MODEL = GroundingModel(MappingProxyType({
    "item": _model(ID_FEATURES, (
        1.0413, 0.7712, 0.5961, 1.2825, 5.2277, 0.4477, 0.0000, 0.0000, 0.0000, 0.0000,
        1.9122
    ), -4.6911),
    "property": _model(ID_FEATURES, (
        2.1532, 2.7388, -0.0294, -0.1648, -1.8302, 0.4844, 0.0000, 0.0000, 0.0000, 0.5165,
        0.0000
    ), -2.3137),
}), (0.8230, 1.9975))


# Fitted by estimate_priors(...) on LC-QuAD 2.0 train_subset +
# WikiWebQuestions train (2,631 pairs, seed 0); regenerate with
# `python bench/pgmr_perturbations.py --default-model`.
STATISTICS_MODEL = GroundingModel(MappingProxyType({
    "item": _model(ID_FEATURES, (
        0.1113, 0.2886, -0.0032, 1.5617, 6.1447, -0.3075, 7.3407, 2.6338, -0.4736, 0.0000,
        1.2714
    ), -4.2394),
    "property": _model(ID_FEATURES, (
        1.9925, -0.3229, 0.3248, 1.2882, 3.2106, 1.2201, 7.2835, 1.4537, 3.6843, -0.3098,
        0.0000
    ), -5.4406),
}), (0.9318, 2.4066))


def fit_logistic(x: np.ndarray, y: np.ndarray, *, weights: np.ndarray | None = None,
                 l2: float = 1.0, iterations: int = 50) -> tuple[np.ndarray, float]:
    """L2-regularised logistic regression by Newton's method (the bias is not penalised).
    Returns ``(weights, bias)``; deterministic."""
    n, d = x.shape
    sw = np.ones(n) if weights is None else np.asarray(weights, dtype=float)
    xb = np.hstack([x, np.ones((n, 1))])
    beta = np.zeros(d + 1)
    reg = np.full(d + 1, l2)
    reg[-1] = 0.0
    for _ in range(iterations):
        z = np.clip(xb @ beta, -30, 30)
        p = 1.0 / (1.0 + np.exp(-z))
        grad = xb.T @ (sw * (p - y)) + reg * beta
        h = (xb * (sw * p * (1 - p))[:, None]).T @ xb + np.diag(reg) + 1e-9 * np.eye(d + 1)
        step = np.linalg.solve(h, grad)
        beta -= step
        if float(np.max(np.abs(step))) < 1e-8:
            break
    return beta[:-1], float(beta[-1])


# ------------------------------------------------------------------------------ statistics

def _phrase_key(group: str, keys: Iterable[str]) -> str:
    return f"{group}|{' '.join(sorted(keys))}"


@dataclass(frozen=True)
class Statistics:
    """Counts from correct training pairs (see the module docstring).

    ``implicit[id] = (uses, implicit uses)``; ``association[id][word]`` = questions with
    ``word`` whose query uses ``id``; ``word_questions[word]`` = questions with ``word``;
    ``keyphrase["group|keys"] = (occurrences, accounted for)``.
    """

    implicit: Mapping[str, tuple[int, int]] = field(default_factory=dict, repr=False)
    implicit_default: Mapping[str, float] = field(default_factory=lambda: DEFAULT_IMPLICIT)
    association: Mapping[str, Mapping[str, int]] = field(default_factory=dict, repr=False)
    word_questions: Mapping[str, int] = field(default_factory=dict, repr=False)
    keyphrase: Mapping[str, tuple[int, int]] = field(default_factory=dict, repr=False)
    keyphrase_default: Mapping[str, float] = field(
        default_factory=lambda: DEFAULT_KEYPHRASE)
    questions: int = 0

    def implicit_rate(self, identifier: str, group: str | None) -> float:
        """How often a correct use of ``identifier`` has no name in the question (shrunk
        towards its kind's rate)."""
        d = self.implicit_default.get(group or "", 0.25)
        n, k = self.implicit.get(identifier, (0, 0))
        return (k + IMPLICIT_SHRINKAGE * d) / (n + IMPLICIT_SHRINKAGE)

    def usage(self, identifier: str) -> float:
        """How common ``identifier`` is in correct training queries, in [0, 1]:
        ``log(1 + uses) / log(1 + questions)``."""
        n = self.implicit.get(identifier, (0, 0))[0]
        return math.log1p(n) / math.log1p(self.questions) if n and self.questions else 0.0

    def association_of(self, identifier: str, words: Iterable[str]) -> float:
        """max over the question's words of P(identifier in the query | word), smoothed."""
        counts = self.association.get(identifier)
        if not counts:
            return 0.0
        best = 0.0
        for w in words:
            c = counts.get(w, 0)
            if c:
                best = max(best, c / (self.word_questions.get(w, c) + ASSOCIATION_SMOOTHING))
        return best

    def keyphraseness(self, group: str, keys: frozenset[str]) -> float:
        """How often a question phrase with these keys (naming some ``group`` id) is
        accounted for by the correct query."""
        d = self.keyphrase_default.get(f"{group}|{min(len(keys), 3)}", 0.8)
        n, c = self.keyphrase.get(_phrase_key(group, keys), (0, 0))
        return (c + KEYPHRASE_SHRINKAGE * d) / (n + KEYPHRASE_SHRINKAGE)

    def to_dict(self) -> dict:
        return {"implicit": {k: list(v) for k, v in sorted(self.implicit.items())},
                "implicit_default": dict(self.implicit_default),
                "association": {k: dict(sorted(v.items())) for k, v in
                                sorted(self.association.items())},
                "word_questions": dict(sorted(self.word_questions.items())),
                "keyphrase": {k: list(v) for k, v in sorted(self.keyphrase.items())},
                "keyphrase_default": dict(self.keyphrase_default),
                "questions": self.questions}

    @classmethod
    def from_dict(cls, d: Mapping) -> "Statistics":
        return cls(MappingProxyType({k: (int(a), int(b)) for k, (a, b) in d["implicit"].items()}),
                   MappingProxyType(dict(d["implicit_default"])),
                   MappingProxyType({k: MappingProxyType(dict(v))
                                     for k, v in d["association"].items()}),
                   MappingProxyType(dict(d["word_questions"])),
                   MappingProxyType({k: (int(a), int(b)) for k, (a, b) in
                                     d["keyphrase"].items()}),
                   MappingProxyType(dict(d["keyphrase_default"])), int(d["questions"]))

    @classmethod
    def count(cls, evidence: Sequence) -> "Statistics":
        """Count over the evidence (:class:`verifier.pgmr.signal.PairEvidence`) of correct
        pairs."""
        from verifier.pgmr.evidence import maximal

        implicit: dict[str, list[int]] = {}
        kind_imp: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        assoc: dict[str, Counter] = defaultdict(Counter)
        wq: Counter = Counter()
        kp: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        kp_kind: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for pe in evidence:
            wq.update(pe.words)
            for ie in pe.distinct():
                if not (ie.exists and ie.kind_ok and ie.kind):
                    continue
                imp = int(ie.match.coverage < IMPLICIT_BELOW)
                c = implicit.setdefault(ie.id, [0, 0])
                c[0] += 1
                c[1] += imp
                kind_imp[ie.kind][0] += 1
                kind_imp[ie.kind][1] += imp
                assoc[ie.id].update(pe.words)
            for group in ("item", "property"):
                for m in maximal(pe.mentions, group):
                    ok = int(m.keys <= pe.covered)
                    for key, acc in ((_phrase_key(group, m.keys), kp),
                                     (f"{group}|{min(len(m.keys), 3)}", kp_kind)):
                        acc[key][0] += 1
                        acc[key][1] += ok
        imp_default = dict(DEFAULT_IMPLICIT)
        imp_default.update({k: v[1] / v[0] for k, v in kind_imp.items() if v[0] >= 20})
        kp_default = dict(DEFAULT_KEYPHRASE)
        kp_default.update({k: v[1] / v[0] for k, v in kp_kind.items() if v[0] >= 20})
        return cls(MappingProxyType({k: (v[0], v[1]) for k, v in implicit.items()}),
                   MappingProxyType(imp_default),
                   MappingProxyType({k: MappingProxyType(dict(v)) for k, v in assoc.items()}),
                   MappingProxyType(dict(wq)),
                   MappingProxyType({k: (v[0], v[1]) for k, v in kp.items()}),
                   MappingProxyType(kp_default), len(evidence))


EMPTY_STATISTICS = Statistics()


# ------------------------------------------------------------------------------ priors

@dataclass(frozen=True)
class SupportPriors:
    """Expected support per identifier (``expected[id] = (n, quantile)``) and per kind, the
    training :class:`Statistics`, and the fitted :class:`GroundingModel` (``None``: the
    default model)."""

    encoder: str
    expected: Mapping[str, tuple[int, float]] = field(repr=False)
    kind_default: Mapping[str, float]
    shrinkage: float = 3.0
    quantile: float = 0.5
    pairs: int = 0
    statistics: Statistics = field(default_factory=Statistics)
    model: GroundingModel | None = None

    def expected_support(self, identifier: str, kind: str | None) -> float:
        """The support a correct use of ``identifier`` usually gets (in (0, 1])."""
        d = self.kind_default.get(kind or "", 1.0)
        n, q = self.expected.get(identifier, (0, 0.0))
        e = (n * q + self.shrinkage * d) / (n + self.shrinkage) if n + self.shrinkage else d
        return float(min(1.0, max(e, 0.05)))

    @property
    def grounding_model(self) -> GroundingModel:
        """The fitted model; without one (fewer than ``min_pairs`` pairs),
        :data:`STATISTICS_MODEL` when there are statistics, else :data:`DEFAULT_MODEL`."""
        if self.model is not None:
            return self.model
        return STATISTICS_MODEL if self.statistics.questions else DEFAULT_MODEL

    def check_encoder(self, identity: str) -> None:
        """Raise ``ValueError`` naming both encoders when they differ."""
        if identity != self.encoder:
            raise ValueError(f"support priors were estimated with encoder {self.encoder!r} "
                             f"but the memory uses {identity!r}; re-run calibration")

    def save(self, path: str | Path) -> None:
        """Write as JSON."""
        Path(path).write_text(json.dumps({
            "format": _FORMAT, "format_version": _VERSION, "encoder": self.encoder,
            "shrinkage": self.shrinkage, "quantile": self.quantile, "pairs": self.pairs,
            "kind_default": dict(self.kind_default),
            "expected": {k: [n, round(q, 5)] for k, (n, q) in sorted(self.expected.items())},
            "statistics": self.statistics.to_dict(),
            "model": self.model.to_dict() if self.model is not None else None,
        }, indent=1), encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> "SupportPriors":
        """Read a file written by :meth:`save` (version 1 files, without statistics and
        model, are read too; ``ValueError`` on a format mismatch)."""
        p = Path(path)
        if not p.is_file():
            raise FileNotFoundError(f"priors file not found: {p}")
        d = json.loads(p.read_text(encoding="utf-8"))
        if d.get("format") != _FORMAT or d.get("format_version") not in (1, _VERSION):
            raise ValueError(f"{p}: not a version-1 or version-{_VERSION} PGMR priors file")
        stats = Statistics.from_dict(d["statistics"]) if d.get("statistics") else EMPTY_STATISTICS
        model = GroundingModel.from_dict(d["model"]) if d.get("model") else None
        return cls(d["encoder"], MappingProxyType({k: (int(n), float(q)) for k, (n, q) in
                                                  d["expected"].items()}),
                   MappingProxyType(dict(d["kind_default"])), float(d["shrinkage"]),
                   float(d["quantile"]), int(d.get("pairs", 0)), stats, model)


def logistic(z: float) -> float:
    """The logistic function, safe for large ``|z|``."""
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)
