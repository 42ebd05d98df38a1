"""Worker processes that may run torch: safe after ``fork``.

A process that has run a torch operation holds an OpenMP thread pool; a child forked from it
inherits the pool's state but not its threads, and its next parallel region (e.g. the layer
norm of the HDM scorer's forward pass) waits forever for them: ``verifier eval --signals hdm
--workers 2`` hung.  :func:`child_init` runs first in every forked worker: it makes torch (when
it is imported) and OpenMP use one thread in the child, so no parallel region waits for the
parent's threads; with several workers, one thread each is also what the machine wants.
:func:`pool_context` is the start method to use: ``fork`` (workers inherit the warm state)
where it exists, else ``spawn``.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import sys
from typing import Any, Callable

__all__ = ["child_init", "pool_context", "wrap_initializer"]


def child_init() -> None:
    """Make this (forked) process safe for torch: one intra-op and one inter-op thread, and
    ``OMP_NUM_THREADS=1`` / ``MKL_NUM_THREADS=1`` for libraries that read them later.  Does
    not import torch when the parent had not."""
    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = "1"
    torch = sys.modules.get("torch")
    if torch is None:
        return
    try:
        torch.set_num_threads(1)
    except Exception:  # noqa: BLE001 - an odd build: the environment variables still apply
        pass
    try:
        torch.set_num_interop_threads(1)
    except RuntimeError:  # already set, or parallel work already started in this process
        pass


def _run_both(init: Callable[..., Any] | None, args: tuple) -> None:
    child_init()
    if init is not None:
        init(*args)


def wrap_initializer(init: Callable[..., Any] | None, args: tuple = ()) -> tuple[Callable[..., Any], tuple]:
    """``(initializer, initargs)`` for a pool: :func:`child_init`, then ``init(*args)``."""
    return _run_both, (init, tuple(args))


def pool_context() -> Any:
    """The multiprocessing context for worker pools: ``fork`` where available (pair it with
    :func:`child_init` through :func:`wrap_initializer`), else ``spawn``."""
    return mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
