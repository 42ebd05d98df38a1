"""Hallucination benchmark: dataset builder, generalisation splits and the evaluation harness.

Public API (imported lazily, so ``import verifier.benchmark.ontology_split`` stays light)::

    load_dataset(name_or_path, datasets_dir=None) -> Dataset        (records.py)
    BenchRecord, Dataset, list_datasets, DATASET_FILES
    BuildConfig, build_all(config) -> manifest dict                 (build.py)
    Signal, SignalOutput, Availability, SignalOptions, make_signal  (signals.py)
    EvalConfig, SignalRun                                           (evaluate.py)
    verifier.benchmark.evaluate.evaluate(dataset, config, cache, signals=None)
        (import it from the module: the package attribute ``evaluate`` is the submodule)
    ResultCache                                                     (cache.py)
    summarize, write_report, markdown                               (report.py)
    binary_metrics, BinaryMetrics                                   (metrics.py)

See ``docs/benchmark.md``.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "BenchRecord": "records", "Dataset": "records", "load_dataset": "records",
    "list_datasets": "records", "DATASET_FILES": "records",
    "BuildConfig": "build", "build_all": "build",
    "Signal": "signals", "SignalOutput": "signals", "Availability": "signals",
    "SignalOptions": "signals", "make_signal": "signals",
    "EvalConfig": "evaluate", "SignalRun": "evaluate",
    "ResultCache": "cache",
    "summarize": "report", "write_report": "report", "markdown": "report",
    "binary_metrics": "metrics", "BinaryMetrics": "metrics",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(f"{__name__}.{_EXPORTS[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
