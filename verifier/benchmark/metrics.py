"""Metrics of a signal's decisions against benchmark labels.

Conventions (also in ``docs/benchmark.md``):

* **positive = hallucination** (``label`` 0); a ``reject`` decision predicts positive, an
  ``accept`` negative.  ``abstain`` decisions are excluded from precision, recall and F1 and
  counted in ``abstain_rate``.
* ``precision_reject`` / ``recall_reject`` / ``f1_reject``: of rejecting hallucinations;
  ``f1_accept``: the same for the correct class (accepting correct queries);
  ``macro_f1`` = mean of the two (over non-abstained items; a class without items or
  predictions contributes F1 = 0, as in scikit-learn with ``zero_division=0``).
* ``accept_precision``: share of accepted queries that are correct.
* ``acceptance_correct``: share of *all* correct queries that are accepted (an abstention
  is not an acceptance).
* ``auc``: ROC AUC of ``1 - score`` for detecting hallucinations, over every labelled item
  (abstentions keep their score); ``None`` with a single class.
* Items with ``label`` ``None`` (partial-credit LLM predictions, missing predictions) are
  not in the binary metrics; :func:`decision_profile` describes them as their own class.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass
from typing import Any, Iterable, Sequence

__all__ = ["BinaryMetrics", "binary_metrics", "DecisionProfile", "decision_profile",
           "roc_auc", "precision_acceptance_curve", "by_key"]


def _div(a: float, b: float) -> float | None:
    return a / b if b else None


def _f1(p: float | None, r: float | None) -> float:
    if not p or not r:
        return 0.0
    return 2 * p * r / (p + r)


def roc_auc(labels: Sequence[int], scores: Sequence[float]) -> float | None:
    """Area under the ROC curve of ``scores`` for ``labels`` (1 = positive), ties counted
    half; ``None`` when one class is absent."""
    pos = [s for y, s in zip(labels, scores) if y == 1]
    neg = [s for y, s in zip(labels, scores) if y == 0]
    if not pos or not neg:
        return None
    ranked = sorted([(s, 1) for s in pos] + [(s, 0) for s in neg])
    # average ranks with ties
    rank_sum = 0.0
    i = 0
    n = len(ranked)
    while i < n:
        j = i
        while j + 1 < n and ranked[j + 1][0] == ranked[i][0]:
            j += 1
        avg = (i + j) / 2 + 1
        rank_sum += avg * sum(1 for k in range(i, j + 1) if ranked[k][1] == 1)
        i = j + 1
    return (rank_sum - len(pos) * (len(pos) + 1) / 2) / (len(pos) * len(neg))


@dataclass(frozen=True)
class BinaryMetrics:
    """Decision metrics on labelled items (module docstring)."""

    n: int
    n_hallucinated: int
    n_correct: int
    accepted: int
    rejected: int
    abstained: int
    tp: int
    fp: int
    fn: int
    tn: int
    precision_reject: float | None
    recall_reject: float | None
    f1_reject: float
    f1_accept: float
    macro_f1: float
    accept_precision: float | None
    acceptance_correct: float | None
    abstain_rate: float | None
    auc: float | None
    confusion: dict[str, dict[str, int]]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def binary_metrics(labels: Sequence[int], decisions: Sequence[str],
                   scores: Sequence[float]) -> BinaryMetrics:
    """Metrics of ``decisions`` against ``labels`` (1 correct, 0 hallucinated)."""
    if not len(labels) == len(decisions) == len(scores):
        raise ValueError("labels, decisions and scores differ in length")
    bad = {y for y in labels if y not in (0, 1)}
    if bad:
        raise ValueError(f"labels must be 0 or 1, got {sorted(map(str, bad))}")
    conf = {"hallucinated": Counter(), "correct": Counter()}
    for y, d in zip(labels, decisions):
        conf["correct" if y == 1 else "hallucinated"][d] += 1
    h, c = conf["hallucinated"], conf["correct"]
    tp, fn = h["reject"], h["accept"]
    fp, tn = c["reject"], c["accept"]
    p_rej, r_rej = _div(tp, tp + fp), _div(tp, tp + fn)
    p_acc, r_acc = _div(tn, tn + fn), _div(tn, tn + fp)
    f_rej, f_acc = _f1(p_rej, r_rej), _f1(p_acc, r_acc)
    n = len(labels)
    n_h = sum(1 for y in labels if y == 0)
    abst = h["abstain"] + c["abstain"]
    return BinaryMetrics(
        n=n, n_hallucinated=n_h, n_correct=n - n_h, accepted=tn + fn, rejected=tp + fp,
        abstained=abst, tp=tp, fp=fp, fn=fn, tn=tn, precision_reject=p_rej, recall_reject=r_rej,
        f1_reject=f_rej, f1_accept=f_acc, macro_f1=(f_rej + f_acc) / 2,
        accept_precision=p_acc, acceptance_correct=_div(tn, n - n_h),
        abstain_rate=_div(abst, n),
        auc=roc_auc([1 - y for y in labels], [1.0 - s for s in scores]),
        confusion={k: {d: v[d] for d in ("reject", "accept", "abstain")} for k, v in conf.items()})


@dataclass(frozen=True)
class DecisionProfile:
    """How a signal treats items of one class without a binary label (e.g. partial credit)."""

    n: int
    accept_rate: float | None
    reject_rate: float | None
    abstain_rate: float | None
    mean_score: float | None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def decision_profile(decisions: Sequence[str], scores: Sequence[float]) -> DecisionProfile:
    """Shares of each decision and the mean score."""
    n = len(decisions)
    c = Counter(decisions)
    return DecisionProfile(n, _div(c["accept"], n), _div(c["reject"], n), _div(c["abstain"], n),
                           _div(sum(scores), n))


def precision_acceptance_curve(labels: Sequence[int], scores: Sequence[float],
                               points: int = 101) -> list[tuple[float, float, float | None]]:
    """``(threshold, acceptance rate, accept precision)`` when accepting ``score >=
    threshold``, for ``points`` thresholds in [0, 1] (acceptance over all items)."""
    n = len(labels)
    out = []
    for k in range(points):
        t = k / (points - 1)
        acc = [y for y, s in zip(labels, scores) if s >= t]
        out.append((t, len(acc) / n if n else 0.0, _div(sum(acc), len(acc))))
    return out


def by_key(items: Iterable[Any], key) -> dict[Any, list[Any]]:
    """Group items by ``key(item)`` (insertion order)."""
    out: dict[Any, list[Any]] = {}
    for it in items:
        out.setdefault(key(it), []).append(it)
    return out

