"""Execution engines: how tasks reach warm verifiers and outcomes come back.

An engine is a :class:`Scheduler` driving a :class:`Backend` (a fixed number of *slots*,
each a worker process or a Ray actor holding one warm verifier).  The scheduler

* pulls tasks lazily from the caller's iterator, in chunks, keeping at most ``prefetch``
  chunks in flight per slot (memory does not grow with the log);
* yields lists of outcomes as they complete (an empty list at least every ``tick`` seconds,
  so the caller can flush its writes and update progress);
* survives a slot dying (segfault, OOM kill, ``ray.kill``): the chunk that was running is
  split and its records retried one by one in a fresh slot; a record that kills a slot twice,
  or runs longer than ``record_timeout`` seconds twice, becomes a ``verify_error`` outcome.

:func:`verifier.audit.backends.make_engine` builds the local (multiprocessing) or Ray engine.
"""

from __future__ import annotations

import itertools
import logging
import time
from collections import deque
from dataclasses import dataclass
from typing import Iterable, Iterator, Protocol, Sequence

from verifier.audit.records import Outcome, Task
from verifier.audit.work import crash_outcome

__all__ = ["Chunk", "Ready", "Done", "Died", "InitFailed", "Backend", "Scheduler", "EngineError",
           "EngineOptions"]

log = logging.getLogger(__name__)

class EngineError(RuntimeError):
    """The engine cannot go on (a worker cannot be initialised, Ray is unavailable ...)."""


@dataclass(frozen=True, slots=True)
class Chunk:
    """Tasks sent to one slot together; ``attempt`` counts earlier failures of its records."""

    id: int
    tasks: tuple[Task, ...]
    attempt: int = 0


@dataclass(frozen=True, slots=True)
class Ready:
    """A slot finished building its verifier."""

    slot: int
    worker: str


@dataclass(frozen=True, slots=True)
class Done:
    """A slot finished a chunk."""

    slot: int
    chunk_id: int
    outcomes: tuple[Outcome, ...]


@dataclass(frozen=True, slots=True)
class Died:
    """A slot's worker died (its in-flight chunks are lost)."""

    slot: int
    why: str


@dataclass(frozen=True, slots=True)
class InitFailed:
    """A slot could not build its verifier (configuration error ...)."""

    slot: int
    why: str


Event = Ready | Done | Died | InitFailed


class Backend(Protocol):
    """Slots holding warm verifiers (see :mod:`verifier.audit.local_engine` and
    :mod:`verifier.audit.ray_engine`)."""

    name: str

    def size(self) -> int:
        """Number of slots."""

    def start(self) -> None:
        """Start every slot (building verifiers may go on in the background)."""

    def submit(self, slot: int, chunk: Chunk) -> None:
        """Queue a chunk on a slot (slots run their chunks in order)."""

    def poll(self, timeout: float) -> list[Event]:
        """Events that happened, waiting at most ``timeout`` seconds for the first."""

    def kill(self, slot: int) -> None:
        """Kill a slot's worker (a :class:`Died` event follows)."""

    def restart(self, slot: int) -> None:
        """Replace a dead slot's worker by a fresh one."""

    def close(self) -> None:
        """Stop every worker."""


@dataclass(frozen=True)
class EngineOptions:
    """Settings shared by the engines."""

    workers: int = 1
    chunk_size: int = 4
    prefetch: int = 2
    tick: float = 1.0
    record_timeout: float = 600.0
    max_restarts: int = 100
    factory: str | None = None
    ray_address: str | None = None


class Scheduler:
    """Runs tasks on a backend (see the module documentation)."""

    def __init__(self, backend: Backend, options: EngineOptions) -> None:
        self.backend = backend
        self.options = options
        self.restarts = 0
        self._ids = itertools.count(1)
        self._started = False

    @property
    def name(self) -> str:
        return self.backend.name

    def start(self) -> None:
        """Start the backend's slots."""
        if not self._started:
            self.backend.start()
            self._started = True

    def close(self) -> None:
        """Stop the backend (if it was started)."""
        if self._started:
            self.backend.close()

    def process(self, tasks: Iterable[Task]) -> Iterator[list[Outcome]]:
        """Outcomes of ``tasks`` (in completion order), in lists; see the module doc.  The
        backend is started when the first task arrives (not at all when there is none)."""
        opts = self.options
        it = iter(tasks)
        exhausted = False
        n = self.backend.size()
        inflight: dict[int, deque[Chunk]] = {s: deque() for s in range(n)}
        ready: dict[int, bool] = {s: False for s in range(n)}
        head_since: dict[int, float] = {}
        retry: deque[Chunk] = deque()
        timed_out: set[int] = set()

        def next_chunk() -> Chunk | None:
            nonlocal exhausted
            if retry:
                return retry.popleft()
            if exhausted:
                return None
            batch = list(itertools.islice(it, opts.chunk_size))
            if not batch:
                exhausted = True
                return None
            self.start()
            return Chunk(next(self._ids), tuple(batch))

        def fill() -> None:
            for s in range(n):
                while len(inflight[s]) < opts.prefetch:
                    c = next_chunk()
                    if c is None:
                        return
                    inflight[s].append(c)
                    self.backend.submit(s, c)
                    if len(inflight[s]) == 1 and ready[s]:
                        head_since[s] = time.monotonic()

        while True:
            fill()
            if exhausted and not retry and not any(inflight.values()):
                return
            out: list[Outcome] = []
            for ev in self.backend.poll(opts.tick):
                if isinstance(ev, Ready):
                    ready[ev.slot] = True
                    if inflight[ev.slot]:
                        head_since[ev.slot] = time.monotonic()
                elif isinstance(ev, InitFailed):
                    raise EngineError(f"worker {ev.slot} could not build its verifier: {ev.why}")
                elif isinstance(ev, Done):
                    q = inflight[ev.slot]
                    match = next((c for c in q if c.id == ev.chunk_id), None)
                    if match is not None:
                        was_head = q[0] is match
                        q.remove(match)
                        out.extend(ev.outcomes)
                        if was_head:
                            head_since[ev.slot] = time.monotonic()
                    else:  # a late answer of a slot already written off
                        log.debug("ignoring outcome of chunk %d from slot %d", ev.chunk_id, ev.slot)
                elif isinstance(ev, Died):
                    why = "timed out" if ev.slot in timed_out else ev.why
                    timed_out.discard(ev.slot)
                    out.extend(self._handle_death(ev.slot, why, inflight[ev.slot], retry))
                    inflight[ev.slot].clear()
                    ready[ev.slot] = False
                    head_since.pop(ev.slot, None)
                    self.restarts += 1
                    if self.restarts > opts.max_restarts:
                        raise EngineError(f"workers died {self.restarts} times; giving up (last: {why})")
                    self.backend.restart(ev.slot)
            now = time.monotonic()
            for s, since in list(head_since.items()):
                q = inflight[s]
                if q and ready[s] and s not in timed_out and now - since > opts.record_timeout * len(q[0].tasks):
                    log.warning("slot %d exceeded %.0f s per record; killing it", s, opts.record_timeout)
                    timed_out.add(s)
                    self.backend.kill(s)
            yield out

    def _handle_death(self, slot: int, why: str, chunks: Sequence[Chunk], retry: deque[Chunk]) -> list[Outcome]:
        """Requeue a dead slot's chunks; returns crash outcomes of records that failed twice."""
        out: list[Outcome] = []
        if not chunks:
            return out
        running, waiting = chunks[0], list(chunks)[1:]
        log.warning("worker %d died (%s) while verifying lines %s", slot, why,
                    ", ".join(str(t.line) for t in running.tasks))
        # Chunks that had not started go back first, unchanged.
        for c in reversed(waiting):
            retry.appendleft(c)
        if len(running.tasks) > 1 or running.attempt == 0:
            singles = [Chunk(next(self._ids), (t,), running.attempt + 1) for t in running.tasks]
            retry.extend(singles)
        else:
            t = running.tasks[0]
            reason = ("verification timed out twice (over "
                      f"{self.options.record_timeout:.0f} s)" if why == "timed out"
                      else f"the worker process died twice while verifying this record ({why})")
            out.append(crash_outcome(t, reason))
        return out
