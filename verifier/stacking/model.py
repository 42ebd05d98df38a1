"""The stacking model: logistic regression, calibration, abstain band, operating points.

:func:`fit_stacker` standardises the features (training mean / standard deviation; a constant
column gets scale 1 and, with L2 regularisation, weight 0), fits an L2 logistic regression
(scikit-learn, balanced class weights unless told otherwise) and calibrates its output:
out-of-fold raw scores from ``folds``-fold cross-fitting on the training rows are used to fit
both a Platt scaling (1-D logistic regression on the logit) and an isotonic regression; the
one with the lower out-of-fold Brier score (in a nested split) is kept.  The probability is
``P(query is correct / faithful)``.

Optionally the regression also gets derived columns (:class:`Term`): bin steps of the numeric
features (``bins``: ``1[x >= edge]`` at quantile edges, so each numeric feature gets a
piecewise-constant shape function, a generalised additive model) and products of named
features (``interactions``).  Each derived column is listed in the JSON with its coefficient.

Operating points (:class:`OperatingPoint`): accept when ``p >= accept``, reject when
``p < reject``, abstain in between (the abstain band).

* ``precision-first`` (default): ``accept`` = the smallest threshold whose out-of-fold accept
  precision on the training rows (or the ``point_mask`` rows) is >= ``target_precision``
  (0.95), ``reject`` = the largest threshold whose reject precision (share of hallucinations
  among rejected) is >= 0.95 (never above ``accept``); each is the median of that rule over
  bootstrap resamples of the rows' groups (``threshold_resamples``), since the first
  crossing of a noisy precision curve moves from refit to refit;
* ``balanced``: one threshold, no band: the one maximising balanced accuracy (share of
  correct rows accepted minus share of hallucinated rows accepted) on the out-of-fold
  probabilities, so it does not depend on the class mix of the training rows;
* custom: ``OperatingPoint.custom(t, band=0.0)``.

:meth:`StackingModel.save` writes one JSON file (``format`` = :data:`FORMAT`) with the
feature names (and derived terms) next to their standardisation and coefficients, so the model
can be read by a person; :meth:`StackingModel.load` checks the format version (it reads
version 1 files, which have no terms).
"""

from __future__ import annotations

import json
import logging
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

__all__ = ["FORMAT", "OperatingPoint", "Calibrator", "Term", "StackingModel", "fit_stacker",
           "expand", "step_terms", "wilson_lower",
           "expected_calibration_error", "reliability_bins"]

log = logging.getLogger(__name__)
FORMAT = "sparql-verifier/stacking-model/2"
#: formats :meth:`StackingModel.load` reads (version 1 has no derived terms)
READABLE_FORMATS = ("sparql-verifier/stacking-model/1", FORMAT)


@dataclass(frozen=True)
class OperatingPoint:
    """Accept when ``p >= accept``, reject when ``p < reject``, abstain in between."""

    name: str
    accept: float
    reject: float

    def __post_init__(self) -> None:
        if not 0.0 <= self.reject <= self.accept <= 1.0:
            raise ValueError(f"need 0 <= reject <= accept <= 1, got {self.reject}, {self.accept}")

    @staticmethod
    def custom(threshold: float, band: float = 0.0) -> "OperatingPoint":
        """Accept from ``threshold``, reject below ``threshold - band``."""
        t = min(1.0, max(0.0, float(threshold)))
        return OperatingPoint(f"custom:{t:g}", t, max(0.0, t - float(band)))

    def decide(self, p: float) -> str:
        if p >= self.accept:
            return "accept"
        if p < self.reject:
            return "reject"
        return "abstain"


@dataclass(frozen=True)
class Calibrator:
    """Maps a raw logistic-regression probability to a calibrated one.

    ``kind`` ``platt``: ``sigmoid(a * logit(p) + b)``; ``isotonic``: piecewise-linear
    interpolation through ``(xs, ys)`` (non-decreasing), clipped at the ends; ``identity``.
    """

    kind: str
    a: float = 1.0
    b: float = 0.0
    xs: tuple[float, ...] = ()
    ys: tuple[float, ...] = ()

    def __call__(self, p: np.ndarray | float) -> np.ndarray:
        p = np.clip(np.asarray(p, dtype=float), 1e-9, 1 - 1e-9)
        if self.kind == "platt":
            z = self.a * np.log(p / (1 - p)) + self.b
            return 1.0 / (1.0 + np.exp(-z))
        if self.kind == "isotonic":
            return np.interp(p, np.array(self.xs), np.array(self.ys))
        return p


@dataclass(frozen=True)
class Term:
    """One derived column of the model, computed from the input features.

    ``kind`` ``step``: ``1.0`` when feature ``of[0]`` is ``>= at`` (a bin edge: the steps of
    one feature make a piecewise-constant shape function, as in a generalised additive
    model); ``product``: the product of the features ``of`` (an interaction).
    """

    kind: str
    of: tuple[str, ...]
    at: float = 0.0

    @property
    def name(self) -> str:
        if self.kind == "step":
            return f"{self.of[0]}>={self.at:g}"
        return "*".join(self.of)

    def column(self, X: np.ndarray, index: Mapping[str, int]) -> np.ndarray:
        if self.kind == "step":
            return (X[:, index[self.of[0]]] >= self.at).astype(float)
        if self.kind == "product":
            out = np.ones(len(X))
            for f in self.of:
                out = out * X[:, index[f]]
            return out
        raise ValueError(f"unknown term kind {self.kind!r}")

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "of": list(self.of)}
        if self.kind == "step":
            d["at"] = self.at
        return d

    @staticmethod
    def from_dict(d: Mapping[str, Any]) -> "Term":
        return Term(str(d["kind"]), tuple(d["of"]), float(d.get("at", 0.0)))


def expand(X: np.ndarray, feature_names: Sequence[str], terms: Sequence[Term]) -> np.ndarray:
    """The input features of ``X`` followed by one column per derived term."""
    X = np.atleast_2d(np.asarray(X, dtype=float))
    if not terms:
        return X
    index = {n: i for i, n in enumerate(feature_names)}
    return np.hstack([X] + [t.column(X, index).reshape(-1, 1) for t in terms])


def step_terms(X: np.ndarray, feature_names: Sequence[str], bins: int, *,
               only: Sequence[str] | None = None, min_share: float = 0.01) -> list[Term]:
    """Bin edges of the numeric features (more than two distinct values): the distinct
    ``k / bins`` quantiles (k = 1 .. bins - 1) of the feature's values, each edge kept when
    at least ``min_share`` of the rows lie on either side of it."""
    X = np.asarray(X, dtype=float)
    out: list[Term] = []
    if bins < 2:
        return out
    for j, name in enumerate(feature_names):
        if only is not None and name not in only:
            continue
        col = X[:, j]
        if len(np.unique(col)) <= 2:
            continue
        qs = np.unique(np.round(np.quantile(col, [k / bins for k in range(1, bins)]), 4))
        for q in qs:
            share = float(np.mean(col >= q))
            if min_share <= share <= 1 - min_share:
                out.append(Term("step", (name,), float(q)))
    return out


def _logit(p: np.ndarray) -> np.ndarray:
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return np.log(p / (1 - p))


def _fit_platt(p: np.ndarray, y: np.ndarray, w: np.ndarray | None = None) -> Calibrator:
    from sklearn.linear_model import LogisticRegression

    lr = LogisticRegression(C=1e4, max_iter=1000)
    lr.fit(_logit(p).reshape(-1, 1), y, sample_weight=w)
    return Calibrator("platt", float(lr.coef_[0, 0]), float(lr.intercept_[0]))


def _fit_isotonic(p: np.ndarray, y: np.ndarray, w: np.ndarray | None = None) -> Calibrator:
    from sklearn.isotonic import IsotonicRegression

    iso = IsotonicRegression(y_min=0.0, y_max=1.0, out_of_bounds="clip")
    iso.fit(p, y, sample_weight=w)
    xs = np.asarray(iso.X_thresholds_, dtype=float)
    ys = np.asarray(iso.y_thresholds_, dtype=float)
    return Calibrator("isotonic", xs=tuple(round(float(x), 6) for x in xs),
                      ys=tuple(round(float(v), 6) for v in ys))


def expected_calibration_error(y: Sequence[int], p: Sequence[float], bins: int = 10,
                               weights: Sequence[float] | None = None) -> float:
    """ECE with ``bins`` equal-width bins: sum over bins of (share of items) x |mean p -
    share of label 1| (items weighted by ``weights`` when given)."""
    y, p = np.asarray(y, dtype=float), np.asarray(p, dtype=float)
    if len(y) == 0:
        return float("nan")
    w = np.ones(len(y)) if weights is None else np.asarray(weights, dtype=float)
    idx = np.minimum((p * bins).astype(int), bins - 1)
    ece = 0.0
    for b in range(bins):
        m = idx == b
        if m.any():
            wm = w[m]
            ece += wm.sum() / w.sum() * abs(np.average(p[m], weights=wm) - np.average(y[m], weights=wm))
    return float(ece)


def reliability_bins(y: Sequence[int], p: Sequence[float], bins: int = 10
                     ) -> list[tuple[float, float, int]]:
    """``(mean predicted, observed share of 1, count)`` per non-empty equal-width bin."""
    y, p = np.asarray(y, dtype=float), np.asarray(p, dtype=float)
    idx = np.minimum((p * bins).astype(int), bins - 1)
    return [(float(p[idx == b].mean()), float(y[idx == b].mean()), int((idx == b).sum()))
            for b in range(bins) if (idx == b).any()]


@dataclass(frozen=True)
class StackingModel:
    """A trained stacker (module docstring).

    ``feature_names`` are the inputs (a row of :func:`verifier.stacking.features.feature_vector`);
    the model's columns are those inputs followed by the derived ``terms`` (bin steps,
    interactions); ``mean``, ``scale`` and ``coef`` have one entry per column."""

    feature_names: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    coef: tuple[float, ...]
    intercept: float
    calibrator: Calibrator
    operating_points: Mapping[str, OperatingPoint]
    default_point: str = "precision-first"
    info: Mapping[str, Any] = field(default_factory=dict)
    terms: tuple[Term, ...] = ()

    @property
    def column_names(self) -> tuple[str, ...]:
        """Names of the model's columns: the inputs, then the derived terms."""
        return self.feature_names + tuple(t.name for t in self.terms)

    def columns(self, X: np.ndarray) -> np.ndarray:
        """The model's columns of input rows ``X`` (inputs plus derived terms)."""
        return expand(X, self.feature_names, self.terms)

    def raw_proba(self, X: np.ndarray) -> np.ndarray:
        """Uncalibrated P(correct) of the logistic regression."""
        X = self.columns(X)
        z = ((X - np.array(self.mean)) / np.array(self.scale)) @ np.array(self.coef) + self.intercept
        return 1.0 / (1.0 + np.exp(-np.clip(z, -50, 50)))

    def predict_proba(self, X: np.ndarray) -> np.ndarray:
        """Calibrated P(correct), in [0, 1]."""
        return np.clip(self.calibrator(self.raw_proba(X)), 0.0, 1.0)

    def point(self, name: str | float | None = None) -> OperatingPoint:
        """An operating point by name (``precision-first``, ``balanced``), a number (custom
        threshold) or ``custom:<t>``; ``None``: the default."""
        if name is None:
            return self.operating_points[self.default_point]
        if isinstance(name, (int, float)):
            return OperatingPoint.custom(float(name))
        if name in self.operating_points:
            return self.operating_points[name]
        if name.startswith("custom:"):
            return OperatingPoint.custom(float(name.split(":", 1)[1]))
        try:
            return OperatingPoint.custom(float(name))
        except ValueError:
            raise KeyError(f"unknown operating point {name!r}; known: "
                           f"{sorted(self.operating_points)} or a number") from None

    def decide(self, p: float, point: str | float | None = None) -> str:
        return self.point(point).decide(float(p))

    def contributions(self, x: np.ndarray, top: int = 4) -> list[tuple[str, float]]:
        """The columns (input features or derived terms) pushing this pair's logit most
        (name, contribution), largest first."""
        z = (self.columns(x)[0] - np.array(self.mean)) / np.array(self.scale) * np.array(self.coef)
        order = np.argsort(-np.abs(z))[:top]
        names = self.column_names
        return [(names[i], float(z[i])) for i in order if abs(z[i]) > 1e-6]

    # -- persistence ------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        k = len(self.feature_names)
        stats = list(zip(self.mean, self.scale, self.coef))
        return {
            "format": FORMAT,
            "features": [{"name": n, "mean": round(m, 6), "scale": round(s, 6),
                          "coef": round(c, 6)} for n, (m, s, c) in
                         zip(self.feature_names, stats[:k])],
            "terms": [{"name": t.name, **t.to_dict(), "mean": round(m, 6), "scale": round(s, 6),
                       "coef": round(c, 6)} for t, (m, s, c) in zip(self.terms, stats[k:])],
            "intercept": self.intercept,
            "calibrator": asdict(self.calibrator),
            "operating_points": {k: asdict(v) for k, v in self.operating_points.items()},
            "default_point": self.default_point,
            "info": dict(self.info),
        }

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(self.to_dict(), indent=1) + "\n", encoding="utf-8")
        tmp.replace(path)
        return path

    @staticmethod
    def from_dict(d: Mapping[str, Any]) -> "StackingModel":
        if d.get("format") not in READABLE_FORMATS:
            raise ValueError(f"not a stacking model of format {FORMAT!r}: {d.get('format')!r}")
        feats = d["features"]
        terms = d.get("terms") or []
        cols = list(feats) + list(terms)
        c = d["calibrator"]
        cal = Calibrator(c["kind"], float(c.get("a", 1.0)), float(c.get("b", 0.0)),
                         tuple(c.get("xs", ())), tuple(c.get("ys", ())))
        return StackingModel(
            tuple(f["name"] for f in feats), tuple(float(f["mean"]) for f in cols),
            tuple(float(f["scale"]) for f in cols), tuple(float(f["coef"]) for f in cols),
            float(d["intercept"]), cal,
            {k: OperatingPoint(v["name"], float(v["accept"]), float(v["reject"]))
             for k, v in d["operating_points"].items()},
            d.get("default_point", "precision-first"), d.get("info", {}),
            tuple(Term.from_dict(t) for t in terms))

    @staticmethod
    def load(path: str | Path) -> "StackingModel":
        return StackingModel.from_dict(json.loads(Path(path).read_text(encoding="utf-8")))


# ------------------------------------------------------------------------------------------
# Training
# ------------------------------------------------------------------------------------------


def _fit_lr(X: np.ndarray, y: np.ndarray, C: float, balanced: bool, w: np.ndarray | None):
    from sklearn.linear_model import LogisticRegression

    mean = X.mean(axis=0)
    scale = X.std(axis=0)
    scale[scale < 1e-9] = 1.0
    lr = LogisticRegression(C=C, max_iter=2000, class_weight="balanced" if balanced else None)
    lr.fit((X - mean) / scale, y, sample_weight=w)
    return mean, scale, lr.coef_[0].astype(float), float(lr.intercept_[0])


def _raw(X: np.ndarray, mean, scale, coef, b) -> np.ndarray:
    z = ((X - mean) / scale) @ coef + b
    return 1.0 / (1.0 + np.exp(-np.clip(z, -50, 50)))


def _oof(X: np.ndarray, y: np.ndarray, groups: np.ndarray, folds: int, C: float,
         balanced: bool, w: np.ndarray | None, seed: int) -> np.ndarray:
    from sklearn.model_selection import GroupKFold

    out = np.zeros(len(y))
    rng = np.random.default_rng(seed)
    uniq = np.unique(groups)
    perm = {g: i for i, g in enumerate(rng.permutation(uniq))}
    g = np.array([perm[x] for x in groups])
    for tr, te in GroupKFold(n_splits=folds).split(X, y, g):
        m = _fit_lr(X[tr], y[tr], C, balanced, None if w is None else w[tr])
        out[te] = _raw(X[te], *m)
    return out


def wilson_lower(hits: np.ndarray, n: np.ndarray, z: float) -> np.ndarray:
    """The Wilson score lower bound of a share ``hits / n`` at ``z`` standard deviations
    (``z`` 0: the share itself)."""
    hits, n = np.asarray(hits, dtype=float), np.maximum(np.asarray(n, dtype=float), 1e-12)
    ph = hits / n
    if z <= 0:
        return ph
    z2 = z * z
    return (ph + z2 / (2 * n) - z * np.sqrt(np.maximum(ph * (1 - ph) / n + z2 / (4 * n * n), 0.0))) \
        / (1 + z2 / n)


def _threshold_for_precision(p: np.ndarray, y: np.ndarray, target: float, accept: bool,
                             min_count: int = 20, w: np.ndarray | None = None,
                             z: float = 0.0) -> float | None:
    """Smallest t with (weighted) precision(p >= t) >= target (accept), or largest t with
    share of 0 among (p < t) >= target (reject), over the values of ``p`` and keeping at
    least ``min_count`` rows; ``None`` when unreachable.  ``z`` > 0: the precision's Wilson
    lower bound at ``z`` (:func:`wilson_lower`, the weight sums as counts) must reach the
    target, a margin that shrinks as the accepted rows grow."""
    p = np.asarray(p, dtype=float)
    y = np.asarray(y, dtype=float)
    w = np.ones(len(y)) if w is None else np.asarray(w, dtype=float)
    if not len(p):
        return None
    if accept:
        order = np.argsort(-p, kind="stable")
        ps, cw, cpos = p[order], np.cumsum(w[order]), np.cumsum((w * y)[order])
        ends = np.flatnonzero(np.r_[ps[1:] < ps[:-1], True])   # last row of each value
        ok = (ends + 1 >= min_count) & (wilson_lower(cpos[ends], cw[ends], z) >= target - 1e-12)
        return float(ps[ends[ok][-1]]) if ok.any() else None
    order = np.argsort(p, kind="stable")
    ps, cw, cneg = p[order], np.cumsum(w[order]), np.cumsum((w * (1 - y))[order])
    starts = np.flatnonzero(np.r_[True, ps[1:] > ps[:-1]])   # first row of each value
    below = starts - 1                                        # last row under that value
    ok = (starts >= min_count) & (below >= 0)
    ok[ok] &= wilson_lower(cneg[below[ok]], cw[below[ok]], z) >= target - 1e-12
    return float(ps[starts[ok][-1]]) if ok.any() else None


def _stable_threshold(p: np.ndarray, y: np.ndarray, groups: np.ndarray, target: float,
                      accept: bool, min_count: int, w: np.ndarray | None = None,
                      resamples: int = 200, seed: int = 0, z: float = 0.0) -> float | None:
    """The median over ``resamples`` bootstrap resamples (of ``groups``, with replacement)
    of :func:`_threshold_for_precision`.

    The plain rule takes the first value where a noisy precision curve crosses the target,
    so a handful of high-scored rows decides it and it moves from refit to refit; the
    median of the resampled thresholds is the stable summary of the same rule.  ``None``
    when fewer than half of the resamples reach the target (the rule's own answer is then
    returned instead when it has one, so a small clean set still gets a threshold)."""
    base = _threshold_for_precision(p, y, target, accept, min_count, w, z)
    if resamples <= 0 or base is None:
        return base
    w = np.ones(len(y)) if w is None else np.asarray(w, dtype=float)
    uniq, inv = np.unique(np.asarray(groups).astype(str), return_inverse=True)
    rows = np.arange(len(y))
    rng = np.random.default_rng(seed)
    found = []
    for _ in range(resamples):
        # each row as often as its group is drawn
        drawn = np.bincount(rng.integers(0, len(uniq), len(uniq)), minlength=len(uniq))
        idx = np.repeat(rows, drawn[inv])
        t = _threshold_for_precision(p[idx], y[idx], target, accept, min_count, w[idx], z)
        if t is not None:
            found.append(t)
    if len(found) * 2 < resamples:
        return base
    return float(np.median(found))


def _balanced_threshold(p: np.ndarray, y: np.ndarray, w: np.ndarray | None = None) -> float:
    """The threshold maximising balanced accuracy (Youden's J: share of correct rows
    accepted minus share of hallucinated rows accepted) on ``p``; independent of the class
    mix of the training rows."""
    grid = np.unique(np.round(p, 4))
    w = np.ones(len(y)) if w is None else w
    pos, neg = max(1e-9, w[y == 1].sum()), max(1e-9, w[y == 0].sum())
    best, best_t = -1.0, 0.5
    for t in grid:
        acc = p >= t
        j = w[acc & (y == 1)].sum() / pos - w[acc & (y == 0)].sum() / neg
        if j > best + 1e-12:
            best, best_t = j, float(t)
    return best_t


def fit_stacker(X: np.ndarray, y: np.ndarray, feature_names: Sequence[str], *,
                groups: Sequence[Any] | None = None, sample_weight: np.ndarray | None = None,
                C: float = 0.3, balanced: bool = True, folds: int = 5,
                target_precision: float = 0.95, reject_precision: float = 0.95,
                calibration: str = "auto", seed: int = 0,
                info: Mapping[str, Any] | None = None,
                point_mask: np.ndarray | None = None, bins: int = 0,
                bin_features: Sequence[str] | None = None,
                interactions: Sequence[Sequence[str]] = (),
                threshold_resamples: int = 200, precision_z: float = 0.0,
                never_accept: np.ndarray | None = None) -> StackingModel:
    """Train the stacker (module docstring).

    ``groups``: rows of one group (e.g. a gold pair and its perturbations, or one question)
    stay in the same cross-fitting fold.  ``sample_weight``: row weights, used by the
    regression, the calibration, and the thresholds of the operating points.
    ``point_mask``: the rows whose out-of-fold probabilities choose the ``precision-first``
    thresholds (default: all), e.g. only real system outputs when synthetic rows are mixed in.
    ``calibration``: ``auto`` (lower out-of-fold Brier score), ``platt``, ``isotonic`` or
    ``identity``.  ``bins``: add :func:`step_terms` with that many quantile bins for the
    numeric features (``bin_features``: only these), so each gets a piecewise-constant shape
    function besides its linear weight; ``interactions``: tuples of feature names whose
    product is added as a column.  0 and ``()``: the plain logistic regression.
    ``threshold_resamples``: bootstrap resamples (by group) whose median threshold is the
    ``precision-first`` point (:func:`_stable_threshold`); 0: the plain first crossing.
    ``precision_z``: the ``precision-first`` accept threshold needs the Wilson lower bound
    (at ``precision_z`` standard deviations) of its out-of-fold precision to reach
    ``target_precision``, not the precision itself (0: the precision itself).
    ``never_accept``: rows the decision rule never accepts whatever their probability (e.g.
    deductive refutations under the refutation veto): the ``precision-first`` accept
    threshold is chosen with them left out of the accepted rows.
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=int)
    if X.shape != (len(y), len(feature_names)):
        raise ValueError(f"X has shape {X.shape}, expected ({len(y)}, {len(feature_names)})")
    if len(set(y.tolist())) < 2:
        raise ValueError("the training rows need both labels (0 and 1)")
    names = tuple(feature_names)
    unknown = sorted({f for t in interactions for f in t} - set(names))
    if unknown:
        raise ValueError(f"interaction of unknown features: {unknown}")
    terms = tuple(step_terms(X, names, bins, only=bin_features)
                  + [Term("product", tuple(t)) for t in interactions])
    X = expand(X, names, terms)
    g = np.asarray(groups if groups is not None else np.arange(len(y)))
    w = None if sample_weight is None else np.asarray(sample_weight, dtype=float)
    folds = max(2, min(folds, len(np.unique(g))))
    mean, scale, coef, b = _fit_lr(X, y, C, balanced, w)
    raw_oof = _oof(X, y, g, folds, C, balanced, w, seed)
    # calibration chosen by a nested split of the out-of-fold scores (by group)
    rng = np.random.default_rng(seed + 1)
    uniq = np.unique(g)
    half = set(rng.permutation(uniq)[: len(uniq) // 2].tolist())
    a = np.array([x in half for x in g])
    ww = np.ones(len(y)) if w is None else w
    briers: dict[str, float] = {}
    for kind, fit in (("platt", _fit_platt), ("isotonic", _fit_isotonic)):
        s = 0.0
        for tr, te in ((a, ~a), (~a, a)):
            cal = fit(raw_oof[tr], y[tr], ww[tr])
            s += float(np.sum(ww[te] * (cal(raw_oof[te]) - y[te]) ** 2))
        briers[kind] = s / ww.sum()
    kind = min(briers, key=briers.get) if calibration == "auto" else calibration
    fitter = {"platt": _fit_platt, "isotonic": _fit_isotonic}.get(kind)
    cal = fitter(raw_oof, y, ww) if fitter else Calibrator("identity")
    p_oof = np.clip(cal(raw_oof), 0, 1)
    pm = np.ones(len(y), dtype=bool) if point_mask is None else np.asarray(point_mask, dtype=bool)
    mc = max(5, min(20, int(pm.sum()) // 10))  # rows a threshold must keep (small sets: fewer)
    p_acc = p_oof if never_accept is None else \
        np.where(np.asarray(never_accept, dtype=bool), -1.0, p_oof)  # below every threshold
    t_acc = _stable_threshold(p_acc[pm], y[pm], g[pm], target_precision, True, mc, ww[pm],
                              resamples=threshold_resamples, seed=seed + 2, z=precision_z)
    t_rej = _stable_threshold(p_oof[pm], y[pm], g[pm], reject_precision, False, mc, ww[pm],
                              resamples=threshold_resamples, seed=seed + 3)
    if t_acc is None:
        log.warning("no threshold reaches accept precision %.2f on the training rows; "
                    "precision-first accepts nothing", target_precision)
        t_acc = 1.0
    t_rej = min(t_rej if t_rej is not None else 0.0, t_acc)
    t_bal = _balanced_threshold(p_oof, y, ww)
    points = {"precision-first": OperatingPoint("precision-first", t_acc, t_rej),
              "balanced": OperatingPoint("balanced", t_bal, t_bal)}
    meta = dict(info or {})
    from verifier.benchmark.metrics import roc_auc

    auc = roc_auc(y[pm].tolist(), p_oof[pm].tolist())
    meta.update(n_train=int(len(y)), n_correct=int(y.sum()), C=C, balanced=balanced,
                auc_oof_points=None if auc is None else round(auc, 5),
                folds=folds, calibration=kind, brier_oof={k: round(v, 5) for k, v in briers.items()},
                ece_oof=round(expected_calibration_error(y, p_oof, weights=ww), 5),
                weighted=w is not None, point_rows=int(pm.sum()),
                target_precision=target_precision, reject_precision=reject_precision,
                precision_z=precision_z,
                bins=bins, n_terms=len(terms), threshold_resamples=threshold_resamples)
    return StackingModel(names, tuple(map(float, mean)), tuple(map(float, scale)),
                         tuple(map(float, coef)), b, cal, points, "precision-first", meta, terms)
