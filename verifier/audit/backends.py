"""The engines by name: :func:`make_engine` puts a :class:`~verifier.audit.engines.Scheduler`
over the ``local`` backend (worker processes, :mod:`verifier.audit.local_engine`) or the
``ray`` backend (Ray actors, :mod:`verifier.audit.ray_engine`)."""

from __future__ import annotations

from typing import Any

from verifier.audit.engines import EngineError, EngineOptions, Scheduler
from verifier.audit.local_engine import ProcessBackend
from verifier.audit.ray_engine import RayBackend  # Ray itself is imported only when used

__all__ = ["ENGINES", "make_engine"]

ENGINES = ("local", "ray")


def make_engine(kind: str, config: Any, options: EngineOptions) -> Scheduler:
    """A scheduler over the ``local`` (processes) or ``ray`` backend."""
    if kind == "local":
        return Scheduler(ProcessBackend(config, options), options)
    if kind == "ray":
        return Scheduler(RayBackend(config, options), options)
    raise EngineError(f"unknown engine {kind!r} (use one of {', '.join(ENGINES)})")
