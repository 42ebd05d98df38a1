"""The stacked verifier as a benchmark :class:`~verifier.benchmark.signals.Signal`
(``verifier eval --signals stacked``), and an HDM signal that reads SPARQL through the PGMR
memory (the bench generator reads the PGMR intermediate form).

The stacked signal runs the deductive and PGMR adapters of :mod:`verifier.benchmark.signals`,
the HDM detector when ``--hdm-model`` is given, builds the features and applies the model
named by ``$VERIFIER_STACKING_MODEL`` (default ``bench/out/stacked/model.json``, written by
``bench/stacked.py`` or ``verifier train stack``).  There is no knowledge graph for the
benchmark's Wikidata queries, so execution evidence is missing there (``exec_missing`` = 1);
``$VERIFIER_STACKING_KG`` names a KG file to use anyway.
"""

from __future__ import annotations

import hashlib
import logging
import os
from pathlib import Path
from typing import Any, Mapping

from verifier.benchmark.signals import (HDM_SOURCES, PGMR_SOURCES, Availability, SignalOptions,
                                        SignalOutput, json_safe, load_or_build_memory,
                                        make_signal, source_version)
from verifier.stacking.features import Evidence

__all__ = ["StackedSignal", "HdmSignal", "benchmark_signal", "default_model_path"]

log = logging.getLogger(__name__)


def default_model_path() -> Path:
    """``$VERIFIER_STACKING_MODEL`` or ``bench/out/stacked/model.json``."""
    from verifier.benchmark.paths import REPO_ROOT

    env = os.environ.get("VERIFIER_STACKING_MODEL")
    return Path(env) if env else REPO_ROOT / "bench" / "out" / "stacked" / "model.json"


def _memory(options: SignalOptions) -> Any:
    from verifier.benchmark.paths import REPO_ROOT, default_data_dir

    labels = Path(options.labels) if options.labels else default_data_dir() / "wikidata" / "labels.tsv"
    directory = Path(options.pgmr_memory) if options.pgmr_memory else \
        REPO_ROOT / "bench" / "out" / "pgmr_memory"
    return load_or_build_memory(labels, directory)


class HdmSignal:
    """HDM over SPARQL converted through the PGMR memory (module docstring)."""

    name = "hdm"

    def __init__(self, options: SignalOptions, memory: Any = None) -> None:
        self._opts = options
        self._source = source_version(HDM_SOURCES + PGMR_SOURCES + ("verifier/stacking/runtime.py",))
        self._memory = memory
        self._runner = None
        self._why = "" if options.hdm_model and Path(options.hdm_model).is_dir() else \
            f"HDM detector directory not found: {options.hdm_model}"

    def prepare(self) -> None:
        if self._runner is None and not self._why:
            from verifier.stacking.runtime import HdmRunner

            if self._memory is None:
                self._memory = _memory(self._opts)
            self._runner = HdmRunner(self._opts.hdm_model, self._opts.hdm_generator,
                                     memory=self._memory, mc_trials=self._opts.hdm_mc_trials)

    def availability(self) -> Availability:
        if self._why:
            return Availability(False, self._why)
        try:
            self.prepare()
        except Exception as e:  # noqa: BLE001
            self._why = f"cannot load the HDM model: {type(e).__name__}: {e}"
            return Availability(False, self._why)
        return Availability(True)

    def config(self) -> Mapping[str, Any]:
        det = Path(str(self._opts.hdm_model)) / "hdm_detector.json"
        h = hashlib.sha256(det.read_bytes()).hexdigest()[:16] if det.is_file() else ""
        return {"model": str(self._opts.hdm_model), "detector_sha": h,
                "generator": str(self._opts.hdm_generator), "mc_trials": self._opts.hdm_mc_trials,
                "via": "pgmr-intermediate", "tag": self._opts.tag, "source": self._source}

    def run(self, question: str, sparql: str | None) -> SignalOutput:
        self.prepare()
        out = self._runner.run(question, sparql)
        return SignalOutput(out["decision"], out["score"], out["details"])


class StackedSignal:
    """The stacked verifier for ``verifier eval`` (module docstring)."""

    name = "stacked"

    def __init__(self, options: SignalOptions = SignalOptions(),
                 model_path: str | Path | None = None) -> None:
        self._opts = options
        self._path = Path(model_path or options.stacking_model or default_model_path())
        self._model = None
        self._ded = make_signal("deductive", options)
        self._pgmr = make_signal("pgmr", options)
        self._hdm = HdmSignal(options) if options.hdm_model else None
        self._executor = None
        self._kg = os.environ.get("VERIFIER_STACKING_KG")

    def availability(self) -> Availability:
        if not self._path.is_file():
            return Availability(False, f"no stacking model at {self._path} (run bench/stacked.py "
                                       f"or 'verifier train stack', or set VERIFIER_STACKING_MODEL)")
        return Availability(True)

    def prepare(self) -> None:
        from verifier.stacking.model import StackingModel

        self._model = StackingModel.load(self._path)
        for s in (self._ded, self._pgmr, self._hdm):
            if s is not None and s.availability().available and hasattr(s, "prepare"):
                s.prepare()
        if self._kg:
            from verifier.stacking.execution import executor_from_config

            self._executor = executor_from_config(self._kg)

    def config(self) -> Mapping[str, Any]:
        from verifier.benchmark.signals import config_hash

        h = hashlib.sha256(self._path.read_bytes()).hexdigest()[:16] if self._path.is_file() else ""
        subs = {s.name: config_hash(s) for s in (self._ded, self._pgmr, self._hdm)
                if s is not None and s.availability().available}
        return {"model_sha": h, "signals": subs, "kg": self._kg or "", "tag": self._opts.tag}

    def run(self, question: str, sparql: str | None) -> SignalOutput:
        from verifier.stacking.runtime import StackedRuntime

        if self._model is None:
            self.prepare()
        outs: dict[str, Any] = {}
        for s in (self._ded, self._pgmr, self._hdm):
            if s is None or not s.availability().available:
                continue
            try:
                outs[s.name] = s.run(question, sparql).to_dict()
            except Exception as e:  # noqa: BLE001 - a failing signal is a missing signal
                log.warning("%s failed: %s", s.name, e)
        ex = self._executor.run(sparql).to_dict() if self._executor is not None and sparql else None
        ev = Evidence(question, sparql, outs.get("deductive"), outs.get("pgmr"), outs.get("hdm"), ex)
        decision, p, x = StackedRuntime(self._model).evaluate(ev)
        return SignalOutput(decision, p, {
            "signals": json_safe(outs), "execution": ex,
            "contributions": [[n, round(v, 3)] for n, v in self._model.contributions(x)]})


def benchmark_signal(options: SignalOptions) -> StackedSignal:
    """The extension point read by :func:`verifier.benchmark.signals.make_signal`."""
    return StackedSignal(options)
