"""Detection metrics: macro-F1 and the best confidence-score threshold."""

from __future__ import annotations

import numpy as np

__all__ = ["macro_f1", "best_threshold"]


def _f1(tp: np.ndarray, fp: np.ndarray, fn: np.ndarray) -> np.ndarray:
    den = 2 * tp + fp + fn
    return np.where(den > 0, 2 * tp / np.maximum(den, 1), 0.0)


def macro_f1(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """Macro-averaged F1 over the two classes 0 and 1 (a class absent from both vectors
    counts as F1 = 0, as scikit-learn does with ``labels=[0, 1], zero_division=0``)."""
    y = np.asarray(y_true).astype(int)
    p = np.asarray(y_pred).astype(int)
    if y.shape != p.shape:
        raise ValueError("y_true and y_pred differ in shape")
    tp1 = np.sum((y == 1) & (p == 1))
    fp1 = np.sum((y == 0) & (p == 1))
    fn1 = np.sum((y == 1) & (p == 0))
    tp0 = np.sum((y == 0) & (p == 0))
    return float((_f1(tp1, fp1, fn1) + _f1(tp0, fn1, fp1)) / 2)


def best_threshold(scores: np.ndarray, labels: np.ndarray, *, below: bool = True) -> float:
    """The threshold ``t`` maximising macro-F1 of ``pred = scores < t`` (``below=True``: a low
    confidence means hallucination) or ``scores >= t``; searched over the midpoints of the
    sorted unique scores and both extremes (ties: the first best)."""
    s = np.asarray(scores, dtype=np.float64)
    y = np.asarray(labels).astype(int)
    if s.shape != y.shape or s.ndim != 1:
        raise ValueError("scores and labels must be vectors of the same length")
    if not len(s):
        return 0.0
    u = np.unique(s)
    cands = np.concatenate([[u[0] - 1e-9], (u[:-1] + u[1:]) / 2, [u[-1] + 1e-9]])
    order = np.argsort(s, kind="stable")
    ss, yy = s[order], y[order]
    k = np.searchsorted(ss, cands, side="left")  # number of scores < t
    cpos = np.concatenate([[0], np.cumsum(yy)])
    P, N = yy.sum(), len(yy) - yy.sum()
    below_pos, below_n = cpos[k], k
    if below:
        tp1, fp1 = below_pos, below_n - below_pos
    else:
        tp1, fp1 = P - below_pos, (len(yy) - below_n) - (P - below_pos)
    fn1 = P - tp1
    tp0 = N - fp1
    f = (_f1(tp1, fp1, fn1) + _f1(tp0, fn1, fp1)) / 2
    return float(cands[int(np.argmax(f))])
