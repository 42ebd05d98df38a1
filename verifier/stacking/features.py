"""Numeric features of one (question, query) pair for the stacked verifier.

Every signal contributes a fixed block of columns (:data:`FEATURE_NAMES`), with a
``<block>_missing`` indicator set to 1 (and the other columns of the block at neutral
values) when the signal did not run: no deductive result, no PGMR memory, no HDM model, no
knowledge graph.  The model is trained with those indicators, so it degrades gracefully when a
signal is absent at prediction time.

Blocks (inputs are the JSON ``details`` the signals write, see
:mod:`verifier.benchmark.signals`, or the evidence ``verify()`` collects):

* ``ded_``: deductive decision one-hot, verdict one-hot (faithful, weaker, unsupported,
  intent_mismatch, unknown), unsupported atoms (log1p), links (log1p), grounded share of the
  question (with its own missing flag: results computed before the field existed lack it),
  intent agreement, refutation (``reject`` with a proof of the contrary,
  :func:`deductive_refutation`).
* ``pgmr_``: PGMR decision one-hot and :meth:`verifier.pgmr.GroundingReport.features`
  (grounding score, hallucinated / wrong-kind identifier counts, weakest supports ...).
* ``hdm_``: HDM probability of hallucination, confidence score, log10 MC-dropout variance.
* ``q_``: query shape from the text and :func:`parsers.sparql.parse_query`: parse error,
  triples, form (ASK / COUNT / other aggregate), ORDER BY, LIMIT, FILTER, OPTIONAL / UNION,
  number of KG identifiers and variables.
* ``exec_``: execution evidence (:mod:`verifier.stacking.execution`): ran / error / timeout,
  empty or not, answer-count bucket, ASK true / false.
* ``cons_``: consensus of the candidate set the query came with
  (:class:`verifier.consensus.ConsensusEvidence`, ``Verdict.signals["consensus"]`` of
  :meth:`verifier.api.Verifier.verify_candidates`): the share of the *other* candidates
  equivalent to it, the share of its cluster, the number of clusters over the number of
  candidates, whether its cluster is the largest, the generator-score mass of its cluster
  (with its own missing flag), the margin of its cluster over the largest other one (sizes
  over the number of candidates); from the deductive verdicts of the other candidates
  (:func:`verifier.consensus.with_verdicts`, with their own missing flag): whether another
  member of its cluster was accepted by the deductive check, whether a candidate of another
  cluster was, the best deductive score in its cluster; when the candidates were executed
  (:func:`verifier.consensus.with_answers`, with its own missing flag): the share of the
  other candidates whose execution returned the same answers, and whether its answers are the
  most common ones (``cons_answers_top``).  Missing when the query came alone (one
  candidate).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any, Mapping

import numpy as np

__all__ = ["FEATURE_NAMES", "BLOCKS", "Evidence", "feature_vector", "feature_dict",
           "deductive_features", "pgmr_features", "hdm_features", "shape_features",
           "execution_features", "consensus_features", "deductive_refutation"]

VERDICTS = ("faithful", "weaker", "unsupported", "intent_mismatch", "unknown")
_PGMR_KEYS = ("pgmr_score", "pgmr_hallucinated", "pgmr_wrong_kind", "pgmr_n_ids",
              "pgmr_min_item_score", "pgmr_min_property_score", "pgmr_mean_support",
              "pgmr_min_support", "pgmr_max_alternative_gap", "pgmr_min_coverage",
              "pgmr_unexplained_item", "pgmr_unexplained_property")

BLOCKS: Mapping[str, tuple[str, ...]] = {
    "deductive": ("ded_missing", "ded_accept", "ded_reject", "ded_abstain")
    + tuple(f"ded_v_{v}" for v in VERDICTS)
    + ("ded_n_unsupported", "ded_n_links", "ded_grounded_share", "ded_grounded_missing",
       "ded_intent_ok", "ded_refuted"),
    "pgmr": ("pgmr_missing", "pgmr_accept", "pgmr_reject", "pgmr_abstain") + _PGMR_KEYS,
    "hdm": ("hdm_missing", "hdm_prob", "hdm_confidence", "hdm_log_mcd_var", "hdm_mcd_missing"),
    "shape": ("q_missing", "q_parse_error", "q_n_triples", "q_ask", "q_count", "q_other_agg",
              "q_order", "q_limit", "q_filter", "q_optional_union", "q_n_ids", "q_n_vars"),
    "execution": ("exec_missing", "exec_ok", "exec_error", "exec_timeout", "exec_empty",
                  "exec_nonempty", "exec_ans_1", "exec_ans_2_10", "exec_ans_gt10",
                  "exec_ask_true"),
    "consensus": ("cons_missing", "cons_share", "cons_cluster_share", "cons_clusters",
                  "cons_largest", "cons_weighted", "cons_weighted_missing", "cons_margin",
                  "cons_cluster_accept", "cons_elsewhere_accept", "cons_cluster_best",
                  "cons_verdicts_missing", "cons_answers", "cons_answers_missing", "cons_answers_top"),
}
FEATURE_NAMES: tuple[str, ...] = tuple(n for names in BLOCKS.values() for n in names)


@dataclass(frozen=True)
class Evidence:
    """What the signals said about one pair; ``None`` for a signal that did not run.

    Each signal entry is ``{"decision": ..., "score": ..., "details": {...}}`` (the shape of
    :class:`verifier.benchmark.signals.SignalOutput`); ``execution`` is
    :meth:`verifier.stacking.execution.ExecutionResult.to_dict`; ``consensus`` is
    :meth:`verifier.consensus.ConsensusEvidence.to_dict`.
    """

    question: str
    sparql: str | None
    deductive: Mapping[str, Any] | None = None
    pgmr: Mapping[str, Any] | None = None
    hdm: Mapping[str, Any] | None = None
    execution: Mapping[str, Any] | None = None
    consensus: Mapping[str, Any] | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)


def _onehot(value: str, options: tuple[str, ...], prefix: str) -> dict[str, float]:
    return {f"{prefix}{o}": float(value == o) for o in options}


def deductive_features(sig: Mapping[str, Any] | None) -> dict[str, float]:
    """The ``ded_`` block (module docstring)."""
    names = BLOCKS["deductive"]
    if not sig:
        out = {n: 0.0 for n in names}
        out.update(ded_missing=1.0, ded_grounded_missing=1.0)
        return out
    details = sig.get("details") or {}
    ev = (details.get("signals") or {}).get("deductive") or details.get("deductive") or details
    verdict = str(ev.get("verdict") or "unknown")
    if verdict not in VERDICTS:
        verdict = "unknown"
    reason = str(ev.get("reason") or "")
    out = {"ded_missing": 0.0}
    out.update(_onehot(str(sig.get("decision")), ("accept", "reject", "abstain"), "ded_"))
    out.update(_onehot(verdict, VERDICTS, "ded_v_"))
    n_uns = ev.get("n_unsupported")
    if n_uns is None:  # results stored before the field existed: count the reason's clauses
        n_uns = len([p for p in reason.split("; ") if p.strip()]) if verdict == "unsupported" else 0
    out["ded_n_unsupported"] = math.log1p(float(n_uns))
    n_links = ev.get("n_links")
    if n_links is None:
        expl = str(details.get("explanation") or "")
        m = re.search(r"^Links: (.*)$", expl, re.M)
        n_links = len(m.group(1).split("; ")) if m else 0
    out["ded_n_links"] = math.log1p(float(n_links))
    share = ev.get("grounded_share")
    out["ded_grounded_share"] = float(share) if isinstance(share, (int, float)) else 0.0
    out["ded_grounded_missing"] = 0.0 if isinstance(share, (int, float)) else 1.0
    intent_ok = ev.get("intent_ok")
    if intent_ok is None:
        intent_ok = verdict != "intent_mismatch"
    out["ded_intent_ok"] = float(bool(intent_ok))
    out["ded_refuted"] = float(deductive_refutation(sig))
    return out


def deductive_refutation(sig: Mapping[str, Any] | None) -> bool:
    """Whether a deductive signal entry is a refutation: ``reject`` with a proof of the
    contrary (``proof`` = ``refuted``).  A model trained with the refutation veto never
    accepts such a query (:class:`verifier.stacking.runtime.StackedRuntime`)."""
    if not sig or sig.get("decision") != "reject":
        return False
    details = sig.get("details") or {}
    ev = (details.get("signals") or {}).get("deductive") or details.get("deductive") or details
    return ev.get("proof") == "refuted"


def pgmr_features(sig: Mapping[str, Any] | None) -> dict[str, float]:
    """The ``pgmr_`` block (module docstring)."""
    if not sig:
        out = {n: 0.0 for n in BLOCKS["pgmr"]}
        out["pgmr_missing"] = 1.0
        return out
    feats = (sig.get("details") or {}).get("features") or {}
    out = {"pgmr_missing": 0.0}
    out.update(_onehot(str(sig.get("decision")), ("accept", "reject", "abstain"), "pgmr_"))
    defaults = {"pgmr_score": 1.0, "pgmr_min_item_score": 1.0, "pgmr_min_property_score": 1.0,
                "pgmr_mean_support": 1.0, "pgmr_min_support": 1.0, "pgmr_min_coverage": 1.0}
    for k in _PGMR_KEYS:
        v = feats.get(k, defaults.get(k, 0.0))
        v = float(v) if isinstance(v, (int, float)) and math.isfinite(float(v)) else defaults.get(k, 0.0)
        out[k] = math.log1p(v) if k in ("pgmr_hallucinated", "pgmr_wrong_kind", "pgmr_n_ids") else v
    return out


def hdm_features(sig: Mapping[str, Any] | None) -> dict[str, float]:
    """The ``hdm_`` block (module docstring)."""
    out = {n: 0.0 for n in BLOCKS["hdm"]}
    d = (sig or {}).get("details") or {}
    p = d.get("probability")
    if not sig or not isinstance(p, (int, float)):
        out.update(hdm_missing=1.0, hdm_mcd_missing=1.0)
        return out
    out["hdm_prob"] = float(p)
    cs = d.get("confidence")
    out["hdm_confidence"] = float(cs) if isinstance(cs, (int, float)) and math.isfinite(cs) else 0.0
    var = d.get("mc_variance")
    if isinstance(var, (int, float)) and math.isfinite(var):
        out["hdm_log_mcd_var"] = math.log10(max(float(var), 1e-12))
    else:
        out["hdm_mcd_missing"] = 1.0
    return out


_ID = re.compile(r"\b(?:wd|wdt|p|ps|pq|psv|pqv|wdtn):[PQL]\d+\b|<http://www\.wikidata\.org/[^>]+>")
_VAR = re.compile(r"[?$][A-Za-z_][A-Za-z0-9_]*")


def shape_features(sparql: str | None) -> dict[str, float]:
    """The ``q_`` block (module docstring); never raises."""
    out = {n: 0.0 for n in BLOCKS["shape"]}
    if not sparql or not sparql.strip():
        out["q_missing"] = 1.0
        return out
    text = re.sub(r"#[^\n]*", " ", sparql)
    up = text.upper()
    out["q_ask"] = float(bool(re.search(r"\bASK\b", up)))
    out["q_count"] = float("COUNT(" in up.replace(" ", ""))
    out["q_other_agg"] = float(bool(re.search(r"\b(SUM|AVG|MIN|MAX|GROUP_CONCAT|SAMPLE)\s*\(", up)))
    out["q_order"] = float("ORDER BY" in re.sub(r"\s+", " ", up))
    out["q_limit"] = float(bool(re.search(r"\bLIMIT\b", up)))
    out["q_filter"] = float(bool(re.search(r"\bFILTER\b", up)))
    out["q_optional_union"] = float(bool(re.search(r"\b(OPTIONAL|UNION|MINUS)\b", up)))
    out["q_n_ids"] = math.log1p(len(set(_ID.findall(text))))
    out["q_n_vars"] = math.log1p(len(set(_VAR.findall(text))))
    try:
        from parsers.sparql import parse_query
        from verifier.logic import atoms

        q = parse_query(sparql)
        out["q_n_triples"] = math.log1p(sum(1 for _ in atoms(q.pattern)))
    except Exception:  # noqa: BLE001 - a malformed or unsupported query is a feature
        out["q_parse_error"] = 1.0
    return out


def execution_features(ex: Mapping[str, Any] | None) -> dict[str, float]:
    """The ``exec_`` block (module docstring)."""
    out = {n: 0.0 for n in BLOCKS["execution"]}
    status = (ex or {}).get("status")
    if not ex or status in (None, "skipped"):
        out["exec_missing"] = 1.0
        return out
    if status == "ok":
        out["exec_ok"] = 1.0
        n = int(ex.get("n_answers") or 0)
        if ex.get("boolean") is not None:
            out["exec_ask_true"] = float(bool(ex["boolean"]))
            out["exec_nonempty" if ex["boolean"] else "exec_empty"] = 1.0
        else:
            out["exec_empty" if n == 0 else "exec_nonempty"] = 1.0
            out["exec_ans_1"] = float(n == 1)
            out["exec_ans_2_10"] = float(2 <= n <= 10)
            out["exec_ans_gt10"] = float(n > 10)
    elif status == "timeout":
        out["exec_timeout"] = 1.0
    else:
        out["exec_error"] = 1.0
    return out


def consensus_features(cons: Mapping[str, Any] | None) -> dict[str, float]:
    """The ``cons_`` block (module docstring); missing without a candidate set of two or
    more."""
    out = {n: 0.0 for n in BLOCKS["consensus"]}
    n = (cons or {}).get("n_candidates")
    if not cons or not isinstance(n, (int, float)) or n < 2:
        out.update(cons_missing=1.0, cons_weighted_missing=1.0, cons_verdicts_missing=1.0,
                   cons_answers_missing=1.0)
        return out
    n = float(n)
    size = cons.get("cluster_size")
    size = float(size) if isinstance(size, (int, float)) else float(cons.get("share") or 0.0) * n
    others = cons.get("others_share")
    out["cons_share"] = float(others) if isinstance(others, (int, float)) else max(0.0, (size - 1) / (n - 1))
    out["cons_cluster_share"] = float(cons.get("share") or size / n)
    k = cons.get("n_clusters")
    out["cons_clusters"] = float(k) / n if isinstance(k, (int, float)) else 0.0
    out["cons_largest"] = float(cons.get("cluster_index") == 0 and size > 1)
    w = cons.get("weighted_agreement")
    if isinstance(w, (int, float)) and math.isfinite(float(w)):
        out["cons_weighted"] = float(w)
    else:
        out["cons_weighted_missing"] = 1.0
    other = cons.get("largest_other")
    if isinstance(other, (int, float)):
        out["cons_margin"] = (size - float(other)) / n
    acc, elsewhere = cons.get("cluster_accepted"), cons.get("elsewhere_accepted")
    if isinstance(acc, (int, float)) and isinstance(elsewhere, (int, float)):
        out["cons_cluster_accept"] = float(acc > 0)
        out["cons_elsewhere_accept"] = float(elsewhere > 0)
        best = cons.get("cluster_best_score")
        out["cons_cluster_best"] = float(best) if isinstance(best, (int, float)) else 0.0
    else:
        out["cons_verdicts_missing"] = 1.0
    agree = cons.get("answer_agreement")
    if isinstance(agree, (int, float)) and math.isfinite(float(agree)):
        out["cons_answers"] = float(agree)
        out["cons_answers_top"] = float(bool(cons.get("answer_plurality")))
    else:
        out["cons_answers_missing"] = 1.0
    return out


def feature_dict(ev: Evidence) -> dict[str, float]:
    """All features of one pair by name."""
    out: dict[str, float] = {}
    out.update(deductive_features(ev.deductive))
    out.update(pgmr_features(ev.pgmr))
    out.update(hdm_features(ev.hdm))
    out.update(shape_features(ev.sparql))
    out.update(execution_features(ev.execution))
    out.update(consensus_features(ev.consensus))
    return out


def feature_vector(ev: Evidence, names: tuple[str, ...] = FEATURE_NAMES) -> np.ndarray:
    """The features of ``ev`` in the order of ``names`` (unknown names are 0)."""
    d = feature_dict(ev)
    return np.array([d.get(n, 0.0) for n in names], dtype=float)
