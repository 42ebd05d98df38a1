"""Worker-side code shared by every engine: build the warm verifier, verify one task.

:func:`build_verifier` runs once per worker process (local engine) or actor (Ray engine);
:func:`verify_task` never raises: an exception inside the verifier becomes an outcome with
``status="verify_error"`` so one bad record cannot stop an audit.
"""

from __future__ import annotations

import importlib
import logging
import os
import socket
import time
import traceback
from typing import Any, Callable

from verifier.audit.derive import reason_kinds, reason_of, unsupported_symbols
from verifier.audit.records import Outcome, Task

__all__ = ["build_verifier", "verify_task", "crash_outcome", "worker_name", "preload", "accepts_model"]

log = logging.getLogger(__name__)


def _resolve(spec: str) -> Callable[[Any], Any]:
    mod, _, name = spec.partition(":")
    if not mod or not name:
        raise ValueError(f"verifier factory {spec!r} is not of the form 'module:function'")
    return getattr(importlib.import_module(mod), name)


def build_verifier(config: Any, factory: str | None = None) -> Any:
    """The warm verifier of a worker: ``verifier.api.Verifier(config)``, or
    ``factory(config)`` when a ``module:function`` factory is given (an object with
    ``verify(question, sparql)`` returning a :class:`verifier.api.Verdict`)."""
    if factory:
        return _resolve(factory)(config)
    from verifier.api import Verifier

    return Verifier(config)


def accepts_model(verifier: Any) -> bool:
    """Whether ``verifier.verify`` takes the query's provenance (``model=``): the toolkit's
    :class:`verifier.api.Verifier` does; a factory's verifier may not."""
    import inspect

    try:
        params = inspect.signature(verifier.verify).parameters
    except (TypeError, ValueError, AttributeError):
        return False
    return "model" in params or any(p.kind is p.VAR_KEYWORD for p in params.values())


def preload() -> None:
    """Import the verifier and build its module-level parsers (fork-safe, read-only state).

    Called in the main process before worker processes are forked, so that every worker
    starts with these ready instead of importing and building them again; each worker still
    builds its own :class:`verifier.api.Verifier` (labels, axioms, MRS source, ACE).
    """
    import verifier.api  # noqa: F401
    from parsers.sparql import SparqlError, parse_query
    from verifier.notation import parse_formula

    try:
        parse_query("ASK { ?s ?p ?o }")
        parse_formula("forall x. p(x) -> q(x)")
    except (SparqlError, ValueError) as e:  # never fatal: the workers would build them anyway
        log.debug("preload: %s", e)


def worker_name() -> str:
    """``host:pid`` of this process."""
    return f"{socket.gethostname()}:{os.getpid()}"


def crash_outcome(task: Task, why: str, worker: str = "") -> Outcome:
    """The outcome stored for a task whose verification crashed."""
    return Outcome(task.log_id, task.line, "verify_error", None, why, 0.0, 0.0, worker)


def verify_task(verifier: Any, task: Task, worker: str = "") -> Outcome:
    """Verify one task; returns its outcome (never raises, except for KeyboardInterrupt)."""
    t0 = time.perf_counter()
    c0 = time.process_time()
    try:
        if task.model is not None and accepts_model(verifier):
            verdict = verifier.verify(task.question, task.sparql, model=task.model)
        else:
            verdict = verifier.verify(task.question, task.sparql)
        d = verdict.to_dict()
    except Exception as e:  # one record must never stop the audit
        log.warning("verification of line %d crashed: %s", task.line, e)
        tb = traceback.format_exc(limit=6)
        return Outcome(task.log_id, task.line, "verify_error", None,
                       f"verification crashed: {type(e).__name__}: {e}\n{tb}",
                       (time.perf_counter() - t0) * 1000, (time.process_time() - c0) * 1000, worker)
    return Outcome(task.log_id, task.line, "ok", d, d.get("error"),
                   (time.perf_counter() - t0) * 1000, (time.process_time() - c0) * 1000, worker)


def summarise_verdict(d: dict[str, Any]) -> tuple[str, tuple[str, ...], tuple[tuple[str, str], ...]]:
    """``(reason, reason kinds, unsupported symbols)`` of a ``Verdict.to_dict()``."""
    return reason_of(d), reason_kinds(d), unsupported_symbols(d)
