"""The proof confidence: the deductive score as a calibrated probability that the query is
faithful to the question, from what the proof used (docs/confidence.md).

A deductive verdict used to map to one of five scores (:data:`TABLE_SCORES`).  The
:class:`ConfidenceModel` instead reads :func:`proof_features` of the result, what the best
reading's proof rests on: its weakest, mean and total link confidence, the share of its links
from each source (lexicon, labels, aliases, WordNet, string similarity ...), the number of
links, the rank of the reading, the checks it passed, the grounded share of the question, the
unsupported and missing atoms; and gives, per verdict kind, a logistic model's probability.
The coefficients ship as package data (``verifier/_data/proof_confidence.json``), fitted by
``bench/train_confidence.py`` on training material only.  ``[deductive] confidence =
"model" | "table"`` chooses the score (:func:`deductive_score`); the decisions stay those of
the verdicts (faithful -> accept, unknown -> abstain, else reject), unless ``[deductive]
accept_threshold`` sends faithful verdicts of a lower probability to abstain
(:func:`deductive_decision`).

The model is monotone in the weakest-link confidence: its coefficients of the link
confidences are fitted non-negative, so a weaker link never raises the probability.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from verifier.deductive.results import DeductiveResult
from verifier.grounding import LINK_SOURCES

__all__ = [
    "TABLE_SCORES", "TABLE_DECISIONS", "CONFIDENCE_MODES", "FEATURES", "MONOTONE_FEATURES",
    "DEFAULT_MODEL_PATH", "VerdictModel", "ConfidenceModel", "proof_features", "load_model",
    "default_model", "deductive_score", "deductive_decision",
]

#: The scores of the verdicts before the proof confidence ("table" mode).
TABLE_SCORES: Mapping[str, float] = {"faithful": 0.9, "weaker": 0.2, "unsupported": 0.1,
                                     "intent_mismatch": 0.15, "unknown": 0.5}
#: The decision of each verdict.
TABLE_DECISIONS: Mapping[str, str] = {"faithful": "accept", "weaker": "reject", "unsupported": "reject",
                                      "intent_mismatch": "reject", "unknown": "abstain"}
#: The values of ``[deductive] confidence``.
CONFIDENCE_MODES = ("model", "table")

#: The checks of :attr:`verifier.deductive.results.ReadingResult.passed`, each a feature.
_CHECKS = ("soundness", "consistency", "intent", "completeness", "checks")

#: The features of :func:`proof_features`, in the order of the coefficients.
FEATURES: tuple[str, ...] = (
    "has_reading", "has_links", "min_conf", "mean_conf", "log_total_conf", "log_links",
    *(f"share_{s}" for s in LINK_SOURCES),
    "min_conf_soft", "reading_rank", "log_readings", "grounded_share",
    *(f"passed_{c}" for c in _CHECKS),
    "log_atoms", "unsupported_share", "log_missing", "log_axioms",
)
#: Features whose coefficient is fitted non-negative (the probability never falls as they rise).
MONOTONE_FEATURES = ("min_conf", "mean_conf", "log_total_conf", "min_conf_soft")

#: The link sources whose confidence is graded (the others are 1 or nearly so).
_SOFT = ("wordnet", "similarity", "spelling", "alias", "label", "association")

#: The fitted model shipped with the package.
DEFAULT_MODEL_PATH = Path(__file__).resolve().parent / "_data" / "proof_confidence.json"


def proof_features(ded: DeductiveResult) -> dict[str, float]:
    """What the best reading's proof used, as numbers (:data:`FEATURES`): whether there is a
    reading and links; the weakest, mean and (log) total link confidence; the log number of
    links; the share of links from each source; the weakest confidence among the graded
    sources' links (1 without any); the reading's rank (log of its index) and the log number
    of readings tried; the grounded share of the question; one flag per check passed; the log
    number of the query's atoms diagnosed and the share not entailed; the log number of
    facts the query drops; the log number of premises the proof used."""
    f = dict.fromkeys(FEATURES, 0.0)
    b = ded.best
    f["log_readings"] = math.log1p(len(ded.readings))
    if b is None:
        f["min_conf_soft"] = 1.0
        return f
    f["has_reading"] = 1.0
    links = b.links
    if links:
        confs = [max(0.0, min(1.0, l.confidence)) for l in links]
        f["has_links"] = 1.0
        f["min_conf"] = min(confs)
        f["mean_conf"] = sum(confs) / len(confs)
        f["log_total_conf"] = sum(math.log(max(c, 1e-3)) for c in confs)
        f["log_links"] = math.log1p(len(links))
        for s in LINK_SOURCES:
            f[f"share_{s}"] = sum(1 for l in links if l.source == s) / len(links)
        f["min_conf_soft"] = min((c for c, l in zip(confs, links) if l.source in _SOFT), default=1.0)
    else:
        f["min_conf_soft"] = 1.0
    f["reading_rank"] = math.log1p(max(0, b.reading_index))
    f["grounded_share"] = float(b.grounded_share)
    for c in _CHECKS:
        f[f"passed_{c}"] = 1.0 if c in b.passed else 0.0
    n_atoms = len(b.diagnosis)
    f["log_atoms"] = math.log1p(n_atoms)
    f["unsupported_share"] = (sum(1 for d in b.diagnosis if not d.entailed) / n_atoms) if n_atoms else 0.0
    f["log_missing"] = math.log1p(len(b.missing))
    f["log_axioms"] = math.log1p(len(b.axioms_used))
    return f


@dataclass(frozen=True)
class VerdictModel:
    """The logistic model of one verdict kind: ``intercept`` and one coefficient per feature
    (of the features standardised with ``mean`` and ``scale``); without coefficients, the
    probability is ``intercept``'s logistic (the verdict's calibrated base rate)."""

    intercept: float
    coef: tuple[float, ...] = ()
    mean: tuple[float, ...] = ()
    scale: tuple[float, ...] = ()

    def logit(self, x: Mapping[str, float], features: tuple[str, ...]) -> float:
        """The model's log-odds for the feature values ``x``."""
        z = self.intercept
        for name, c, m, s in zip(features, self.coef, self.mean, self.scale):
            z += c * (x.get(name, 0.0) - m) / (s or 1.0)
        return z


@dataclass(frozen=True)
class ConfidenceModel:
    """Per verdict kind a :class:`VerdictModel` over :data:`FEATURES` (``features`` as
    fitted); a verdict without a model of its own uses the table score."""

    features: tuple[str, ...]
    models: Mapping[str, VerdictModel]
    info: Mapping[str, Any] = field(default_factory=dict)

    def probability(self, ded: DeductiveResult) -> float:
        """The calibrated probability that the query is faithful to the question."""
        return self.probability_of(ded.verdict, proof_features(ded))

    def probability_of(self, verdict: str, features: Mapping[str, float]) -> float:
        """The probability for a verdict and its :func:`proof_features` (as stored by a bench)."""
        m = self.models.get(verdict)
        if m is None:
            return TABLE_SCORES.get(verdict, 0.5)
        z = m.logit(features, self.features)
        return 1.0 / (1.0 + math.exp(-max(-40.0, min(40.0, z))))

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (what :func:`load_model` reads)."""
        return {"features": list(self.features), "info": dict(self.info),
                "models": {k: {"intercept": m.intercept, "coef": list(m.coef), "mean": list(m.mean),
                               "scale": list(m.scale)} for k, m in self.models.items()}}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "ConfidenceModel":
        """The model of its JSON form; a feature this version does not compute is an error."""
        features = tuple(d["features"])
        unknown = set(features) - set(FEATURES)
        if unknown:
            raise ValueError(f"proof confidence model: unknown features {sorted(unknown)}")
        models = {}
        for k, m in d["models"].items():
            coef = tuple(float(c) for c in m.get("coef", ()))
            if coef and len(coef) != len(features):
                raise ValueError(f"proof confidence model: {len(coef)} coefficients for {len(features)} features ({k})")
            models[k] = VerdictModel(float(m["intercept"]), coef, tuple(float(v) for v in m.get("mean", ())),
                                     tuple(float(v) for v in m.get("scale", ())))
        return cls(features, models, dict(d.get("info", {})))


def load_model(path: str | Path | None = None) -> ConfidenceModel:
    """The proof confidence model of a JSON file (default: the one shipped with the package)."""
    p = Path(path) if path is not None else DEFAULT_MODEL_PATH
    return ConfidenceModel.from_dict(json.loads(p.read_text(encoding="utf-8")))


@lru_cache(maxsize=1)
def default_model() -> ConfidenceModel:
    """The shipped model, read once."""
    return load_model()


def deductive_score(ded: DeductiveResult, mode: str = "model", model: ConfidenceModel | None = None) -> float:
    """The deductive score of a result: the table's (``mode="table"``) or the model's
    probability (``"model"``; ``model`` defaults to the shipped one)."""
    if mode == "table":
        return TABLE_SCORES[ded.verdict]
    if mode != "model":
        raise ValueError(f"[deductive] confidence must be one of {CONFIDENCE_MODES}, not {mode!r}")
    return (model or default_model()).probability(ded)


def deductive_decision(verdict: str, score: float, accept_threshold: float | None = None) -> str:
    """The decision of a verdict: :data:`TABLE_DECISIONS`, except that with an
    ``accept_threshold`` a faithful verdict whose score is below it abstains."""
    decision = TABLE_DECISIONS[verdict]
    if decision == "accept" and accept_threshold is not None and score < accept_threshold:
        return "abstain"
    return decision
