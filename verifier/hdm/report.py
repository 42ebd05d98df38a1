"""The HDM signal for the stacked verifier: one (question, query) pair in, one report out."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from verifier.hdm.detector import HDMDetector
from verifier.hdm.features import Scorer

__all__ = ["HDMReport", "hdm_signal", "load_hdm", "to_generator_form"]


@dataclass(frozen=True)
class HDMReport:
    """What the HDM says about one query.

    Attributes:
        probability: probability that the query is a hallucination (detector output).
        confidence: the scorer model's length-normalised probability of the query.
        mc_variance: variance of ``confidence`` under Monte Carlo dropout (NaN if unused).
        hallucination: ``probability >= threshold``.
        threshold: the detector's decision threshold.
        explanation: one short sentence for humans.
    """

    probability: float
    confidence: float
    mc_variance: float
    hallucination: bool
    threshold: float
    explanation: str


def _explain(p: float, cs: float, var: float, flagged: bool) -> str:
    verdict = "likely hallucination" if flagged else "no hallucination detected"
    mc = f", MC-dropout variance {var:.2e}" if not math.isnan(var) else ""
    return f"{verdict} (p={p:.2f}; model confidence {cs:.3f}{mc})"


def to_generator_form(query: str, memory: Any | None = None) -> str:
    """The form the bench generator reads: a SPARQL query is turned into the PGMR
    intermediate form through ``memory`` (a :class:`verifier.pgmr.Memory`) unless it already
    holds ``starturi`` markers; then PREFIX lines and comments are dropped and whitespace
    collapsed (:func:`verifier.hdm.data.compact_query`).  Without a memory only the
    compaction is done."""
    from verifier.hdm.data import compact_query

    if memory is not None and "starturi" not in query:
        from verifier.pgmr import to_intermediate
        query = to_intermediate(query, memory)
    return compact_query(query)


def hdm_signal(question: str, sparql_or_intermediate: str, scorer: Scorer,
               detector: HDMDetector, *, memory: Any | None = None) -> HDMReport:
    """Score one query against its question.

    The query is brought to the scorer's input form by :func:`to_generator_form` (pass the
    PGMR ``memory`` when giving SPARQL with KG identifiers to a scorer trained on the
    intermediate form).  MC dropout runs only when the detector uses it.
    """
    if not question.strip():
        raise ValueError("empty question")
    query = to_generator_form(sparql_or_intermediate, memory)
    sc = scorer
    if not detector.needs_mc and scorer.mc_trials:
        sc = Scorer(scorer.s2s, mc_trials=0, pools=scorer.pools, batch_size=scorer.batch_size,
                    seed=scorer.seed)
    table = sc.score([question], [query])
    p = float(detector.predict_proba(table)[0])
    cs = float(table.column("cs")[0])
    var = float(table.column("mcd_var")[0])
    flagged = p >= detector.threshold
    return HDMReport(p, cs, var, flagged, detector.threshold, _explain(p, cs, var, flagged))


def load_hdm(generator_dir: str | Path, detector_dir: str | Path, *, mc_trials: int = 30,
             device: str | None = None) -> tuple[Scorer, HDMDetector]:
    """The scorer (over the generator at ``generator_dir``) and detector for
    :func:`hdm_signal`."""
    from verifier.hdm.seq2seq import load_seq2seq

    det = HDMDetector.load(detector_dir, device)
    s2s = load_seq2seq(generator_dir, device)
    return Scorer(s2s, mc_trials=mc_trials if det.needs_mc else 0,
                  pools=det.config.pools), det
