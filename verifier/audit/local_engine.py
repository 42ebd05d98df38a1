"""The local engine's backend: worker processes, each with one warm verifier.

Each worker is a ``multiprocessing`` process (forked on Linux) talking to the main process
over its own pipe, so the main process always knows which chunk a worker was running when
it died.  Workers ignore SIGINT (the main process handles Ctrl-C and stops them) and die
with the main process (``PR_SET_PDEATHSIG`` on Linux, and a parent check as a fallback), so
a ``kill -9`` of the audit leaves no orphans behind.
"""

from __future__ import annotations

import ctypes
import logging
import multiprocessing as mp
import os
import signal
import sys
import threading
import time
import traceback
from multiprocessing.connection import Connection, wait
from typing import Any

from verifier.audit.engines import Chunk, Died, Done, EngineOptions, Event, InitFailed, Ready
from verifier.audit.work import build_verifier, preload, verify_task, worker_name

__all__ = ["ProcessBackend"]

log = logging.getLogger(__name__)


def _die_with_parent(parent: int) -> None:
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(2.0)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _worker_main(conn: Connection, config: Any, factory: str | None, parent: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with_parent(parent)
    logging.getLogger().setLevel(logging.ERROR)
    name = worker_name()
    try:
        verifier = build_verifier(config, factory)
    except BaseException as e:  # report, then exit: the main process aborts the audit
        conn.send(("init_error", f"{type(e).__name__}: {e}\n{traceback.format_exc(limit=5)}", None))
        return
    conn.send(("ready", name, None))
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        chunk_id, tasks = msg
        outcomes = tuple(verify_task(verifier, t, name) for t in tasks)
        try:
            conn.send(("done", chunk_id, outcomes))
        except (BrokenPipeError, OSError):
            return


class _Slot:
    def __init__(self, proc: Any, conn: Connection) -> None:
        self.proc = proc
        self.conn = conn
        self.dead = False


class ProcessBackend:
    """``options.workers`` worker processes (see the module documentation)."""

    name = "local"

    def __init__(self, config: Any, options: EngineOptions) -> None:
        self.config = config
        self.options = options
        method = "fork" if sys.platform.startswith("linux") else "spawn"
        self._ctx = mp.get_context(method)
        self._slots: list[_Slot | None] = [None] * max(1, options.workers)

    def size(self) -> int:
        return len(self._slots)

    def _spawn(self, i: int) -> None:
        ours, theirs = self._ctx.Pipe(duplex=True)
        proc = self._ctx.Process(target=_worker_main, name=f"audit-worker-{i}",
                                 args=(theirs, self.config, self.options.factory, os.getpid()),
                                 daemon=True)
        proc.start()
        theirs.close()
        self._slots[i] = _Slot(proc, ours)

    def start(self) -> None:
        if self._ctx.get_start_method() == "fork" and not self.options.factory:
            preload()
        for i in range(len(self._slots)):
            self._spawn(i)

    def submit(self, slot: int, chunk: Chunk) -> None:
        s = self._slots[slot]
        if s is None or s.dead:
            return
        try:
            s.conn.send((chunk.id, chunk.tasks))
        except (BrokenPipeError, OSError):
            pass  # the death is reported by poll()

    def poll(self, timeout: float) -> list[Event]:
        live = [(i, s) for i, s in enumerate(self._slots) if s is not None and not s.dead]
        waitables: dict[Any, tuple[int, str]] = {}
        for i, s in live:
            waitables[s.conn] = (i, "conn")
            waitables[s.proc.sentinel] = (i, "proc")
        if not waitables:
            time.sleep(min(timeout, 0.1))
            return []
        events: list[Event] = []
        died: set[int] = set()
        for obj in wait(list(waitables), timeout):
            i, what = waitables[obj]
            s = self._slots[i]
            assert s is not None
            if what == "conn":
                while True:
                    try:
                        if not s.conn.poll():
                            break
                        kind, a, b = s.conn.recv()
                    except (EOFError, OSError):
                        died.add(i)
                        break
                    if kind == "ready":
                        events.append(Ready(i, a))
                    elif kind == "done":
                        events.append(Done(i, a, b))
                    elif kind == "init_error":
                        events.append(InitFailed(i, a))
                        died.discard(i)
                        s.dead = True
                        break
            else:
                died.add(i)
        for i in sorted(died):
            s = self._slots[i]
            if s is None or s.dead:
                continue
            s.proc.join(timeout=5)
            code = s.proc.exitcode
            why = (f"killed by signal {-code}" if code is not None and code < 0
                   else f"exit code {code}")
            s.dead = True
            s.conn.close()
            events.append(Died(i, why))
        return events

    def kill(self, slot: int) -> None:
        s = self._slots[slot]
        if s is not None and s.proc.is_alive():
            s.proc.kill()

    def restart(self, slot: int) -> None:
        s = self._slots[slot]
        if s is not None and s.proc.is_alive():
            s.proc.kill()
            s.proc.join(timeout=5)
        self._spawn(slot)

    def close(self) -> None:
        for s in self._slots:
            if s is None or s.dead:
                continue
            try:
                s.conn.send(None)
            except (BrokenPipeError, OSError):
                pass
        deadline = time.monotonic() + 5
        for s in self._slots:
            if s is None:
                continue
            s.proc.join(timeout=max(0.0, deadline - time.monotonic()))
            if s.proc.is_alive():
                s.proc.kill()
                s.proc.join(timeout=5)
            try:
                s.conn.close()
            except OSError:
                pass
