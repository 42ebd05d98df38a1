"""Run signals over a dataset with a result cache, a progress bar and worker processes.

:func:`evaluate` returns one :class:`SignalRun` per requested signal: unavailable signals are
reported with their reason and not run; available ones are run on every selected item that
is not already in the cache (:class:`~verifier.benchmark.cache.ResultCache`).  Results are
written to the cache in small transactions as they arrive, so Ctrl-C (or a crash) loses at
most the items in flight, and a re-run continues where it stopped.

A signal that raises on an item, or exceeds ``item_timeout`` seconds, gives ``abstain``
(score 0.5) with the error recorded; such results are cached too and retried only with
``retry_errors``.  A signal whose ``run`` takes ``model=`` (:func:`reads_provenance`: the
HDM and stacked signals) gets each record's ``model`` field, the provenance of its query
(which model generated it; ``None`` when the record has none), and its cached results are
keyed by it too.  Workers are forked after every signal's optional ``prepare()`` hook ran in
the parent (e.g. loading the PGMR memory once), so they share its memory; each worker first
runs :func:`verifier.forksafe.child_init` (torch and OpenMP on one thread: a forked child of a
process that ran torch otherwise hangs in its first parallel region).
"""

from __future__ import annotations

import logging
import random
import signal as _signal
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Iterator, Mapping, Sequence

from verifier.benchmark.cache import CachedResult, ResultCache, input_hash
from verifier.benchmark.records import BenchRecord, Dataset
from verifier.benchmark.signals import (Signal, SignalOptions, SignalOutput, config_hash,
                                        json_safe, make_signal)
from verifier.forksafe import pool_context, wrap_initializer

__all__ = ["EvalConfig", "SignalRun", "evaluate", "select_items", "reads_provenance"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class EvalConfig:
    """How to evaluate.

    Attributes:
        signals: signal names (see :func:`~verifier.benchmark.signals.make_signal`).
        options: adapter settings.
        limit: evaluate a seeded sample of this many items (``None``: all).
        workers: processes.
        item_timeout: seconds per item and signal (``None``: no limit).
        retry_errors: recompute cached error results.
        progress: show a progress bar.
        seed: seeds the ``limit`` sample.
    """

    signals: tuple[str, ...]
    options: SignalOptions = field(default_factory=SignalOptions)
    limit: int | None = None
    workers: int = 1
    item_timeout: float | None = 600.0
    retry_errors: bool = False
    progress: bool = True
    seed: int = 0

    def __post_init__(self) -> None:
        if not self.signals:
            raise ValueError("no signals given")
        if self.workers < 1:
            raise ValueError("workers must be >= 1")
        if self.limit is not None and self.limit < 1:
            raise ValueError("limit must be >= 1")


@dataclass(frozen=True)
class SignalRun:
    """The outcome of one signal on a dataset."""

    signal: str
    available: bool
    reason: str = ""
    config_hash: str = ""
    config: Mapping[str, Any] = field(default_factory=dict)
    results: Mapping[str, CachedResult] = field(default_factory=dict)
    computed: int = 0
    cached: int = 0
    errors: int = 0
    interrupted: bool = False


def select_items(dataset: Dataset, limit: int | None, seed: int = 0) -> list[BenchRecord]:
    """All records, or a seeded sample of about ``limit`` of them in file order.  Records
    sharing a ``gold_id`` (a gold pair and its perturbations) are sampled together, so each
    sampled perturbation keeps its gold reference; the sample stops at the first group that
    reaches ``limit``."""
    recs = list(dataset.records)
    if limit is None or limit >= len(recs):
        return recs
    groups: dict[str, list[int]] = {}
    for i, r in enumerate(recs):
        groups.setdefault(str(r.get("gold_id") or r.id), []).append(i)
    keys = list(groups)
    random.Random(f"{seed}:{dataset.name}:limit").shuffle(keys)
    keep: set[int] = set()
    for k in keys:
        if len(keep) >= limit:
            break
        keep.update(groups[k])
    return [r for i, r in enumerate(recs) if i in keep]


# --------------------------------------------------------------------------------------------
# Running one item (in a worker or in-process)
# --------------------------------------------------------------------------------------------

_EVAL_CTX: dict[str, Any] = {}  # process-local: {"signals": {name: Signal}, "timeout": float}


def _init(ctx: Mapping[str, Any]) -> None:
    _EVAL_CTX.clear()
    _EVAL_CTX.update(ctx)


class _ItemTimeout(BaseException):  # not Exception: library catch-alls must not swallow it
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _ItemTimeout()


def _run_one(task: tuple) -> tuple[str, CachedResult]:
    name, item_id, question, sparql, ih, *rest = task
    model = rest[0] if rest else None
    sig: Signal = _EVAL_CTX["signals"][name]
    timeout = _EVAL_CTX.get("timeout")
    use_alarm = bool(timeout) and threading.current_thread() is threading.main_thread() \
        and hasattr(_signal, "SIGALRM")
    t0 = time.perf_counter()
    old = None
    try:
        if use_alarm:
            old = _signal.signal(_signal.SIGALRM, _alarm)
            _signal.setitimer(_signal.ITIMER_REAL, float(timeout))
        out: SignalOutput = sig.run(question, sparql, model=model) if reads_provenance(sig) \
            else sig.run(question, sparql)
        res = CachedResult(item_id, ih, out.decision, float(out.score), json_safe(out.details),
                           None, time.perf_counter() - t0)
    except _ItemTimeout:
        res = CachedResult(item_id, ih, "abstain", 0.5, {}, f"timeout after {timeout} s",
                           time.perf_counter() - t0)
    except KeyboardInterrupt:
        raise
    except Exception as e:  # noqa: BLE001 - a failing item must not stop the run
        res = CachedResult(item_id, ih, "abstain", 0.5, {},
                           f"{type(e).__name__}: {str(e)[:500]}", time.perf_counter() - t0)
    finally:
        if use_alarm:
            _signal.setitimer(_signal.ITIMER_REAL, 0)
            if old is not None:
                _signal.signal(_signal.SIGALRM, old)
    return name, res


# --------------------------------------------------------------------------------------------
# The evaluation
# --------------------------------------------------------------------------------------------


def evaluate(dataset: Dataset, config: EvalConfig, cache: ResultCache, *,
             signals: Mapping[str, Signal] | None = None) -> dict[str, SignalRun]:
    """Run the signals of ``config`` over ``dataset`` (module docstring).

    ``signals`` supplies ready :class:`Signal` objects by name (used instead of
    :func:`~verifier.benchmark.signals.make_signal` for those names).  Raises
    ``KeyboardInterrupt`` after storing every finished result when interrupted.
    """
    from verifier.benchmark.progress import progress_bar

    items = select_items(dataset, config.limit, config.seed)
    hashes = {r.id: input_hash(r.question, r.sparql) for r in items}
    models = {r.id: _provenance(r) for r in items}
    runs: dict[str, SignalRun] = {}
    given = dict(signals or {})
    signals = {}
    todo: list[tuple] = []
    cached: dict[str, dict[str, CachedResult]] = {}
    for name in dict.fromkeys(config.signals):
        sig = given[name] if name in given else make_signal(name, config.options)
        av = sig.availability()
        if not av.available:
            runs[name] = SignalRun(name, False, av.reason)
            log.warning("signal %s not available: %s", name, av.reason)
            continue
        prepare = getattr(sig, "prepare", None)
        if callable(prepare):
            prepare()
        cfg = config_hash(sig)
        if config.retry_errors:
            cache.delete_errors(dataset.name, name, cfg)
        ih = hashes
        if reads_provenance(sig):  # its output depends on the record's model too
            ih = {r.id: input_hash(r.question, r.sparql, models[r.id] or "") for r in items}
        have = cache.get_many(dataset.name, name, cfg, [(r.id, ih[r.id]) for r in items])
        cached[name] = dict(have)
        signals[name] = sig
        todo += [(name, r.id, r.question, r.sparql, ih[r.id], models[r.id]) for r in items
                 if r.id not in have]
        runs[name] = SignalRun(name, True, "", cfg, json_safe(sig.config()))
    new: dict[str, dict[str, CachedResult]] = {n: {} for n in signals}
    pending: dict[str, list[CachedResult]] = {n: [] for n in signals}
    interrupted = False

    def flush() -> None:
        for n, rows in pending.items():
            if rows:
                cache.put_many(dataset.name, n, runs[n].config_hash, rows)
                rows.clear()

    ctx = {"signals": signals, "timeout": config.item_timeout}
    bar = progress_bar(len(todo), f"eval {dataset.name}", config.progress and bool(todo))
    last = time.monotonic()
    try:
        for name, res in _results(todo, ctx, config.workers):
            new[name][res.item_id] = res
            pending[name].append(res)
            bar.update()
            if sum(map(len, pending.values())) >= 25 or time.monotonic() - last > 10:
                flush()
                last = time.monotonic()
    except KeyboardInterrupt:
        interrupted = True
        raise
    finally:
        flush()
        bar.close()
        for name in signals:
            allres = {**cached[name], **new[name]}
            errors = sum(1 for r in allres.values() if r.error)
            old = runs[name]
            runs[name] = SignalRun(name, True, "", old.config_hash, old.config, allres,
                                   computed=len(new[name]), cached=len(cached[name]),
                                   errors=errors, interrupted=interrupted)
    return runs


def reads_provenance(sig: Any) -> bool:
    """Whether a signal's ``run`` takes the query's provenance (``model=``, the record's
    ``model`` field: which model generated the query), as the HDM and stacked signals do."""
    import inspect

    try:
        return "model" in inspect.signature(sig.run).parameters
    except (TypeError, ValueError, AttributeError):
        return False


def _provenance(record: BenchRecord) -> str | None:
    m = record.get("model")
    return str(m) if isinstance(m, str) and m.strip() else None


def _results(todo: Sequence[tuple], ctx: Mapping[str, Any], workers: int
             ) -> Iterator[tuple[str, CachedResult]]:
    if not todo:
        return
    if workers <= 1 or len(todo) < 2:
        saved = dict(_EVAL_CTX)
        _init(ctx)
        try:
            for t in todo:
                yield _run_one(t)
        finally:
            _init(saved)
        return
    # forked workers may run torch (the HDM signal): verifier.forksafe makes them safe
    init, initargs = wrap_initializer(_init, (ctx,))
    pool = pool_context().Pool(workers, init, initargs)
    try:
        yield from pool.imap_unordered(_run_one, todo, chunksize=1)
        pool.close()
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()
