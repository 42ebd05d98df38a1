"""Training the stacker from labelled rows (``verifier train stack``).

A training row is a JSON object with ``question``, ``sparql``, ``label`` (1 = correct /
faithful, 0 = hallucinated; other values are skipped), optionally ``model`` (which model
generated the query: HDM evidence is computed only for the scorer's model), ``group`` (rows of one group
stay in one cross-fitting fold; default: the question) and ``signals``: the outputs of the
signals that ran, ``{"deductive": {"decision", "score", "details"}, "pgmr": {...}, "hdm":
{...}, "execution": {...}, "consensus": {...}}`` (the shape of ``verifier eval``'s per-item files and of
``Verdict.signals``).  With ``compute=True`` the signals missing from a row are computed with
the configured verifier (:class:`verifier.api.Verifier` for the deductive check, the
``[pgmr]``, ``[hdm]`` and ``[kg]`` sections for the others).

To make the model robust to a missing signal, :func:`augment_missing` adds, for a share of
the rows, a copy with one signal block blanked (its ``_missing`` indicator set): the model
then knows what to do without it.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

import numpy as np

from verifier.jsonl import read_jsonl
from verifier.stacking.features import BLOCKS, FEATURE_NAMES, Evidence, feature_dict
from verifier.stacking.model import StackingModel, fit_stacker

__all__ = ["TrainRow", "read_rows", "evidence_of", "matrix", "augment_missing", "train_from_rows",
           "compute_signals", "refuted_rows"]

log = logging.getLogger(__name__)
OPTIONAL_BLOCKS = ("deductive", "pgmr", "hdm", "execution", "consensus")


@dataclass(frozen=True)
class TrainRow:
    """One labelled pair and the signal outputs known for it."""

    question: str
    sparql: str | None
    label: int
    group: str
    signals: Mapping[str, Any]


def read_rows(path: str | Path) -> list[TrainRow]:
    """Rows of a JSONL file (module docstring); unlabelled rows are skipped."""
    return [TrainRow(str(d.get("question") or ""), d.get("sparql"), int(d["label"]),
                     str(d.get("group") or d.get("question") or n), _with_model(d))
            for n, d in read_jsonl(path) if d.get("label") in (0, 1)]


def _with_model(d: Mapping[str, Any]) -> dict[str, Any]:
    """A row's signals, with its ``model`` field (which model generated the query) as
    ``signals["provenance"]``."""
    sig = dict(d.get("signals") or {})
    if isinstance(d.get("model"), str) and "provenance" not in sig:
        sig["provenance"] = {"model": d["model"]}
    return sig


def evidence_of(row: TrainRow) -> Evidence:
    s = row.signals
    return Evidence(row.question, row.sparql, s.get("deductive"), s.get("pgmr"), s.get("hdm"),
                    s.get("execution"), s.get("consensus"))


def matrix(evidence: Sequence[Evidence], names: Sequence[str] = FEATURE_NAMES) -> np.ndarray:
    """Feature matrix, one row per evidence."""
    rows = [feature_dict(e) for e in evidence]
    return np.array([[r.get(n, 0.0) for n in names] for r in rows], dtype=float).reshape(len(rows), len(names))


def augment_missing(X: np.ndarray, y: np.ndarray, groups: np.ndarray, *, share: float = 0.15,
                    seed: int = 0, names: Sequence[str] = FEATURE_NAMES,
                    weights: np.ndarray | None = None):
    """Append, for every optional signal present in a row, with probability ``share``, a copy
    of the row with that signal's block blanked as if the signal had not run.  Returns
    ``(X, y, groups)``, plus the weights (copies keep their row's weight) when ``weights``
    is given."""
    from verifier.stacking.features import (consensus_features, deductive_features,
                                            execution_features, hdm_features, pgmr_features)

    blank = {"deductive": deductive_features(None), "pgmr": pgmr_features(None),
             "hdm": hdm_features(None), "execution": execution_features(None),
             "consensus": consensus_features(None)}
    idx = {n: i for i, n in enumerate(names)}
    rng = random.Random(f"{seed}:augment")
    extra_x, extra_y, extra_g, extra_w = [], [], [], []
    for block in OPTIONAL_BLOCKS:
        miss = idx.get(BLOCKS[block][0])
        if miss is None:
            continue
        for i in range(len(y)):
            if X[i, miss] == 0.0 and rng.random() < share:
                x = X[i].copy()
                for n, v in blank[block].items():
                    if n in idx:
                        x[idx[n]] = v
                extra_x.append(x)
                extra_y.append(y[i])
                extra_g.append(groups[i])
                extra_w.append(1.0 if weights is None else weights[i])
    if not extra_x:
        return (X, y, groups) if weights is None else (X, y, groups, weights)
    out = (np.vstack([X, np.array(extra_x)]), np.concatenate([y, np.array(extra_y)]),
           np.concatenate([groups, np.array(extra_g, dtype=groups.dtype)]))
    if weights is None:
        return out
    return out + (np.concatenate([np.asarray(weights, dtype=float), np.array(extra_w)]),)


def train_from_rows(rows: Sequence[TrainRow], *, augment: float = 0.15, seed: int = 0,
                    info: Mapping[str, Any] | None = None, refutation_veto: bool = True,
                    **fit_kw: Any) -> StackingModel:
    """Fit a :class:`StackingModel` on rows (missing-signal augmentation included).
    ``refutation_veto``: the model never accepts a query the deductive check refuted
    (``ded_refuted``; its ``precision-first`` threshold is chosen with those rows never
    accepted, and ``info["refutation_veto"]`` tells the runtime)."""
    if not rows:
        raise ValueError("no labelled rows")
    ev = [evidence_of(r) for r in rows]
    X = matrix(ev)
    y = np.array([r.label for r in rows], dtype=int)
    g = np.array([r.group for r in rows], dtype=object)
    if augment > 0:
        X, y, g = augment_missing(X, y, g, share=augment, seed=seed)
    meta = dict(info or {})
    meta["augment_missing"] = augment
    if refutation_veto:
        meta["refutation_veto"] = True
        fit_kw.setdefault("never_accept", refuted_rows(X))
    return fit_stacker(X, y, FEATURE_NAMES, groups=g, seed=seed, info=meta, **fit_kw)


def refuted_rows(X: np.ndarray, names: Sequence[str] = FEATURE_NAMES) -> np.ndarray:
    """Rows of a feature matrix whose deductive check refuted the query (``ded_refuted``)."""
    return np.asarray(X)[:, list(names).index("ded_refuted")] > 0.5


def compute_signals(rows: Iterable[TrainRow], config: Any) -> list[TrainRow]:
    """Rows with the signals they lack computed by the configured verifier (module
    docstring); ``config`` is a :class:`verifier.config.Config`."""
    from verifier.api import Verifier
    from verifier.config import Config
    from verifier.stacking.runtime import SignalSuite

    sections = {k: dict(v) for k, v in config.sections.items()}
    sections.get("stacking", {}).pop("model", None)  # the deductive check alone
    cfg = Config(sections, config.files)
    ver = Verifier(cfg)
    suite = SignalSuite.from_config(cfg)
    out = []
    for r in rows:
        sig = dict(r.signals)
        if "deductive" not in sig and r.sparql:
            v = ver.verify(r.question, r.sparql, signals=("deductive",))
            sig["deductive"] = {"decision": v.decision, "score": v.score,
                                "details": {"explanation": v.explanation,
                                            "signals": {"deductive": dict(v.signals.get("deductive", {}))}}}
        ev = suite.collect(r.question, r.sparql, None, (sig.get("provenance") or {}).get("model"))
        for name in ("pgmr", "hdm", "execution"):
            if name not in sig and getattr(ev, name) is not None:
                sig[name] = getattr(ev, name)
        out.append(TrainRow(r.question, r.sparql, r.label, r.group, sig))
    return out
