"""Metrics of the PGMR paper and of the grounding signal.

* query exact match: grounded query text equal to the gold text;
* URI exact match: the set of identifier IRIs equal (:func:`~verifier.pgmr.intermediate.uri_set`);
* URI hallucination: share of queries with at least one identifier absent from the memory;
* ROC AUC of a score that should be *higher* for correct queries (Mann-Whitney, ties 1/2).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from verifier.pgmr.intermediate import uri_set
from verifier.pgmr.memory import Memory
from verifier.pgmr.tokenizer import identifiers

__all__ = ["RoundTripMetrics", "round_trip_metrics", "roc_auc", "hallucinated_ids"]


def roc_auc(correct_scores: Sequence[float], wrong_scores: Sequence[float]) -> float:
    """Probability that a correct query scores higher than a wrong one (ties count 1/2).

    Raises ``ValueError`` when either list is empty.
    """
    a = np.asarray(correct_scores, dtype=np.float64)
    b = np.asarray(wrong_scores, dtype=np.float64)
    if not len(a) or not len(b):
        raise ValueError("ROC AUC needs at least one correct and one wrong score")
    allv = np.concatenate([a, b])
    order = np.argsort(allv, kind="mergesort")
    ranks = np.empty(len(allv), dtype=np.float64)
    sv = allv[order]
    i = 0
    while i < len(sv):  # average ranks over ties
        j = i
        while j + 1 < len(sv) and sv[j + 1] == sv[i]:
            j += 1
        ranks[order[i:j + 1]] = (i + j) / 2.0 + 1.0
        i = j + 1
    ra = ranks[: len(a)].sum()
    return float((ra - len(a) * (len(a) + 1) / 2.0) / (len(a) * len(b)))


def hallucinated_ids(sparql: str, memory: Memory) -> tuple[str, ...]:
    """Wikidata identifiers of ``sparql`` that the memory does not contain."""
    return tuple(dict.fromkeys(i.id for i in identifiers(sparql) if i.id not in memory))


@dataclass(frozen=True, slots=True)
class RoundTripMetrics:
    """Percentages over ``n`` queries."""

    n: int
    query_em: float
    uri_em: float
    uri_hallucination: float


def round_trip_metrics(gold: Sequence[str], predicted: Sequence[str | None], memory: Memory,
                       *, failed: Sequence[bool] | None = None) -> RoundTripMetrics:
    """Compare predicted queries with gold queries.  ``None`` predictions, and those marked
    in ``failed`` (e.g. a gold identifier that could not be written as a label), count as
    misses for both exact-match metrics."""
    n = len(gold)
    if n == 0 or len(predicted) != n:
        raise ValueError("gold and predicted must be non-empty and of the same length")
    failed = failed or [False] * n
    qem = uem = hall = 0
    for g, p, f in zip(gold, predicted, failed):
        if p is None:
            continue
        if hallucinated_ids(p, memory):
            hall += 1
        if f:
            continue
        qem += p == g
        uem += uri_set(p) == uri_set(g)
    return RoundTripMetrics(n, 100.0 * qem / n, 100.0 * uem / n, 100.0 * hall / n)
