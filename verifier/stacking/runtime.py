"""Running the signals for one pair and turning them into the stacked decision.

:class:`SignalSuite` holds whatever is configured (a PGMR memory, an HDM scorer and detector,
a knowledge-graph executor) and collects the :class:`~verifier.stacking.features.Evidence`
of one pair; anything missing is simply absent from the evidence (its ``_missing`` feature
is 1).  :class:`StackedRuntime` adds the :class:`~verifier.stacking.model.StackingModel` and
is what :class:`verifier.api.Verifier` uses when the configuration has ``[stacking] model``::

    [stacking]
    model = "stacked-model.json"        # verifier train stack --out ...
    operating_point = "precision-first" # or "balanced", or a number (custom threshold)
    [pgmr]
    labels = "labels.tsv"               # KG labels: PGMR memory built (once) from them ...
    memory = "pgmr_memory"              # ... or an existing memory folder
    [hdm]
    model = "detector_dir"              # optional; generator from its info or [hdm] generator
    [kg]
    file = "kg.ttl"                     # optional: execution evidence on a local KG
    endpoint = "https://..."            # ... or a SPARQL endpoint (never required)
    timeout = 5
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Mapping

import numpy as np

from verifier.extras import MissingExtraError
from verifier.stacking.execution import Executor, executor_from_config
from verifier.stacking.features import Evidence, feature_vector
from verifier.stacking.model import StackingModel

__all__ = ["PgmrRunner", "HdmRunner", "SignalSuite", "StackedRuntime", "explain"]

log = logging.getLogger(__name__)


def _output(decision: str, score: float, details: Mapping[str, Any]) -> dict[str, Any]:
    from verifier.benchmark.signals import json_safe

    return {"decision": decision, "score": float(min(1.0, max(0.0, score))),
            "details": json_safe(details)}


class PgmrRunner:
    """The PGMR grounding signal with the benchmark adapter's decision rule
    (:class:`verifier.benchmark.signals.PGMRSignal`): reject a non-existent / wrong-kind
    identifier or a grounding score below the threshold, abstain without identifiers."""

    def __init__(self, memory: Any, threshold: float | None = None) -> None:
        self.memory = memory
        self.threshold = float(threshold if threshold is not None
                               else memory.encoder.default_threshold)

    @staticmethod
    def from_paths(labels: str | Path | None, memory_dir: str | Path | None,
                   threshold: float | None = None) -> "PgmrRunner":
        """Load the memory in ``memory_dir``; with ``labels``, build it there (once) or, when
        no folder is given, under ``~/.cache/sparql-verifier/pgmr/<labels hash>``."""
        from verifier.pgmr import Memory

        if labels:
            from verifier.benchmark.signals import load_or_build_memory

            if memory_dir is None:
                h = hashlib.sha256(Path(labels).read_bytes()).hexdigest()[:16]
                memory_dir = Path.home() / ".cache" / "sparql-verifier" / "pgmr" / h
            Path(memory_dir).parent.mkdir(parents=True, exist_ok=True)
            return PgmrRunner(load_or_build_memory(Path(labels), Path(memory_dir)), threshold)
        if memory_dir is None:
            raise ValueError("PGMR needs [pgmr] labels or memory")
        return PgmrRunner(Memory.load(memory_dir), threshold)

    def run(self, question: str, sparql: str | None) -> dict[str, Any]:
        from verifier.pgmr import grounding_decision, grounding_signal

        if not sparql:
            return _output("abstain", 0.5, {"reason": "no query"})
        return _output(*grounding_decision(grounding_signal(question, sparql, self.memory), self.threshold))


class HdmRunner:
    """The HDM detector; SPARQL is converted to the generator's input form through the PGMR
    memory when one is given (:func:`verifier.hdm.report.to_generator_form`)."""

    def __init__(self, detector_dir: str | Path, generator_dir: str | Path | None = None, *,
                 memory: Any = None, mc_trials: int = 30) -> None:
        from verifier.hdm import load_hdm

        self.detector_dir = Path(detector_dir)
        if generator_dir is None:
            meta = json.loads((self.detector_dir / "hdm_detector.json").read_text())
            generator_dir = (meta.get("info") or {}).get("generator")
            if not generator_dir:
                raise FileNotFoundError("the HDM detector does not name its generator; set "
                                        "[hdm] generator")
        self.generator_dir = Path(generator_dir)
        self.memory = memory
        self.mc_trials = mc_trials
        self.scorer, self.detector = load_hdm(self.generator_dir, self.detector_dir,
                                              mc_trials=mc_trials)

    def run(self, question: str, sparql: str | None) -> dict[str, Any]:
        from verifier.hdm import hdm_signal

        if not sparql or not question.strip():
            return _output("abstain", 0.5, {"reason": "no query"})
        rep = hdm_signal(question, sparql, self.scorer, self.detector, memory=self.memory)
        p = min(1.0, max(0.0, float(rep.probability)))
        return _output("reject" if rep.hallucination else "accept", 1.0 - p, rep)


@dataclass
class SignalSuite:
    """The configured non-deductive signals (each optional)."""

    pgmr: PgmrRunner | None = None
    hdm: HdmRunner | None = None
    executor: Executor | None = None

    def collect(self, question: str, sparql: str | None,
                deductive: Mapping[str, Any] | None = None) -> Evidence:
        """Evidence of one pair; a signal that fails is logged and left out (missing)."""
        out: dict[str, Any] = {}
        for name, runner in (("pgmr", self.pgmr), ("hdm", self.hdm)):
            if runner is None:
                continue
            try:
                out[name] = runner.run(question, sparql)
            except Exception as e:  # noqa: BLE001 - a failing signal is a missing signal
                log.warning("%s failed on %r: %s", name, question[:60], e)
        if self.executor is not None and sparql:
            out["execution"] = self.executor.run(sparql).to_dict()
        return Evidence(question, sparql, deductive=deductive, **out)

    @staticmethod
    def from_config(cfg: Any) -> "SignalSuite":
        """The signals named by the ``[pgmr]``, ``[hdm]`` and ``[kg]`` sections (module
        docstring); a part that cannot be loaded is logged and left out, except one whose
        extra is not installed (:class:`verifier.extras.MissingExtraError` is raised)."""
        pgmr = hdm = None
        if cfg.get("pgmr", "labels") or cfg.get("pgmr", "memory"):
            try:
                pgmr = PgmrRunner.from_paths(cfg.get("pgmr", "labels"), cfg.get("pgmr", "memory"),
                                             cfg.get("pgmr", "threshold"))
            except MissingExtraError:
                raise  # configured but not installed: a configuration error, said once
            except Exception as e:  # noqa: BLE001
                log.warning("PGMR memory not available: %s", e)
        if cfg.get("hdm", "model"):
            try:
                hdm = HdmRunner(cfg.get("hdm", "model"), cfg.get("hdm", "generator"),
                                memory=pgmr.memory if pgmr else None,
                                mc_trials=int(cfg.get("hdm", "mc_trials", 30)))
            except MissingExtraError:
                raise
            except Exception as e:  # noqa: BLE001
                log.warning("HDM model not available: %s", e)
        ex = executor_from_config(cfg.get("kg", "file"), cfg.get("kg", "endpoint"),
                                  timeout=float(cfg.get("kg", "timeout", 5.0)))
        return SignalSuite(pgmr, hdm, ex)


def _fmt_feature(name: str, value: float) -> str:
    return f"{name} ({'+' if value > 0 else '-'}{abs(value):.2f})"


def explain(decision: str, p: float, point: Any, ev: Evidence, model: StackingModel,
            x: np.ndarray, deductive_text: str = "") -> str:
    """One readable paragraph: the stacked decision, then what every signal said."""
    parts = [f"Stacked verifier: {decision} (P(correct) = {p:.2f}; operating point "
             f"{point.name}: accept >= {point.accept:.2f}, reject < {point.reject:.2f})."]
    if deductive_text:
        parts.append("Deductive: " + deductive_text.strip())
    elif ev.deductive is None:
        parts.append("Deductive: not available.")
    for name, label in (("pgmr", "PGMR grounding"), ("hdm", "HDM")):
        sig = getattr(ev, name)
        if sig is None:
            parts.append(f"{label}: not configured.")
            continue
        d = sig.get("details") or {}
        text = d.get("explanation") or d.get("reason") or ""
        parts.append(f"{label}: {sig.get('decision')} (score {float(sig.get('score', 0.5)):.2f})"
                     + (f"; {text}" if text else "") + ".")
    if ev.execution is None:
        parts.append("Execution: no knowledge graph configured.")
    else:
        from verifier.stacking.execution import ExecutionResult

        e = dict(ev.execution)
        e["sample"] = tuple(e.get("sample") or ())
        parts.append(ExecutionResult(**e).describe())
    contrib = model.contributions(x)
    if contrib:
        parts.append("Strongest evidence (logit contributions against the average training pair): "
                     + ", ".join(_fmt_feature(n, v) for n, v in contrib) + ".")
    return "\n".join(parts)


class StackedRuntime:
    """Model + signal suite, applied to a deductive :class:`verifier.api.Verdict`."""

    def __init__(self, model: StackingModel, suite: SignalSuite | None = None,
                 operating_point: str | float | None = None) -> None:
        self.model = model
        self.suite = suite or SignalSuite()
        self.point = model.point(operating_point)

    @staticmethod
    def from_config(cfg: Any) -> "StackedRuntime":
        """Build from the ``[stacking]``, ``[pgmr]``, ``[hdm]`` and ``[kg]`` sections (module
        docstring); optional parts that cannot be loaded are logged and left out."""
        from verifier.stacking.default import model_setting

        path = model_setting(cfg)
        if path is None:
            raise ValueError("[stacking] model: stacking is switched off or no model is shipped")
        model = StackingModel.load(path)
        return StackedRuntime(model, SignalSuite.from_config(cfg),
                              cfg.get("stacking", "operating_point"))

    def evaluate(self, ev: Evidence) -> tuple[str, float, np.ndarray]:
        """``(decision, calibrated P(correct), feature vector)`` of some evidence."""
        x = feature_vector(ev, self.model.feature_names)
        p = float(self.model.predict_proba(x)[0])
        if not math.isfinite(p):
            p = 0.5
        return self.point.decide(p), p, x

    def decide(self, verdict: Any, query: Any = None) -> Any:
        """The stacked version of a deductive verdict (``verifier.api.Verdict``): decision,
        calibrated probability, every signal's evidence in ``signals``, one explanation."""
        import time

        t0 = time.perf_counter()
        ded = {"decision": verdict.decision, "score": verdict.score,
               "details": {"explanation": verdict.explanation,
                           "signals": {"deductive": dict(verdict.signals.get("deductive", {}))}}}
        ev = self.suite.collect(verdict.question, verdict.sparql, ded)
        cons = verdict.signals.get("consensus")
        if cons:
            ev = replace(ev, consensus=dict(cons))
        decision, p, x = self.evaluate(ev)
        signals = {k: v for k, v in verdict.signals.items() if k in ("consensus", "provenance")}
        signals["deductive"] = dict(verdict.signals.get("deductive", {}))
        for name in ("pgmr", "hdm", "execution"):
            if getattr(ev, name) is not None:
                signals[name] = getattr(ev, name)
        signals["stacked"] = {"probability": round(p, 4), "decision": decision,
                              "operating_point": self.point.name,
                              "contributions": [[n, round(v, 3)] for n, v in
                                                self.model.contributions(x)]}
        timings = dict(verdict.timings)
        timings["stacked"] = (time.perf_counter() - t0) * 1000
        return replace(verdict, decision=decision, score=p,
                       explanation=explain(decision, p, self.point, ev, self.model, x,
                                           verdict.explanation),
                       signals=signals, timings=timings)
