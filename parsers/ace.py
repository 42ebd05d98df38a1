"""ACE integration through PyDelphin: a small pool of persistent parser processes.

* :class:`AceConfig`: binary, grammar image and limits, read from the ``[ace]`` section of
  the configuration the caller passes (:func:`verifier.config.load_config`, where
  ``VERIFIER_ACE`` / ``VERIFIER_ERG`` override ``binary`` / ``grammar``).  Keys: ``binary``, ``grammar``, ``timeout`` (seconds per
  sentence, default 10), ``pool_size`` (1), ``n`` (readings, 5), ``max_chart_megabytes``
  (1200), ``max_unpack_megabytes`` (1500), ``memory_limit_mb`` (address-space limit of each
  process, 0 = none; default 4096), ``roots`` (first pass, ``"root_strict root_informal"``),
  ``fallback`` (second pass with the grammar's default roots when the first finds nothing,
  true), ``grace`` (seconds beyond ``timeout`` before a silent process is killed, 5).
* :class:`AceWorker`: one ``delphin.ace.ACEParser`` process; a sentence that takes longer
  than ``timeout + grace`` kills and restarts the process, as does a crash.
* :class:`AceParserPool`: several workers, :meth:`~AceParserPool.parse` for one question,
  :meth:`~AceParserPool.parse_batch` for many (in parallel over the pool); results are
  :class:`AceResult` objects, never exceptions, once the pool has started.
* :func:`ace_input` is the text ACE is given for a question; :func:`grammar_identity`
  names a grammar image (the key of parses in :class:`verifier.mrs_cache.MrsCache`).

The two-pass strategy and the options match how ``shared/data/mrs`` was produced.
"""

from __future__ import annotations

import concurrent.futures as cf
import hashlib
import logging
import queue
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

__all__ = ["AceConfig", "AceResult", "AceError", "AceWorker", "AceParserPool", "LazyAce",
           "DEFAULT_ROOTS", "ace_input", "grammar_identity"]

log = logging.getLogger(__name__)

DEFAULT_ROOTS = "root_strict root_informal"


class AceError(RuntimeError):
    """ACE cannot be started (missing binary or grammar, unusable configuration)."""


def ace_input(text: str) -> str:
    """The string given to ACE: tabs and line breaks replaced by spaces one for one (so
    character offsets still point into the original question), as in the shared corpus."""
    return str(text).replace("\t", " ").replace("\r", " ").replace("\n", " ")


def grammar_identity(path: str | Path) -> str:
    """A stable identity of a compiled grammar image: file name, size and SHA-256 prefix
    of its content (so a rebuilt or different image gets a different cache key)."""
    p = Path(path).expanduser()
    h = hashlib.sha256()
    with open(p, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return f"{p.name}:{p.stat().st_size}:{h.hexdigest()[:16]}"


@dataclass(frozen=True, slots=True)
class AceConfig:
    """How to run ACE (see the module docstring for the ``[ace]`` keys)."""

    binary: str
    grammar: str
    timeout: float = 10.0
    pool_size: int = 1
    n: int = 5
    max_chart_megabytes: int = 1200
    max_unpack_megabytes: int = 1500
    memory_limit_mb: int = 4096
    roots: str | None = DEFAULT_ROOTS
    fallback: bool = True
    grace: float = 5.0
    extra_args: tuple[str, ...] = ()

    @classmethod
    def from_config(cls, config: Any) -> "AceConfig | None":
        """The ``[ace]`` section of ``config`` (a :class:`verifier.config.Config`, or any
        object whose ``section("ace")`` gives a mapping) as an :class:`AceConfig`, or
        ``None`` when ``binary`` or ``grammar`` is not set.  Raises ``ValueError`` for
        malformed values."""
        sec = dict(config.section("ace"))
        if not sec.get("binary") or not sec.get("grammar"):
            return None
        try:
            return cls(
                binary=str(sec["binary"]), grammar=str(sec["grammar"]),
                timeout=float(sec.get("timeout", 10.0)),
                pool_size=max(1, int(sec.get("pool_size", 1))),
                n=max(1, int(sec.get("n", 5))),
                max_chart_megabytes=int(sec.get("max_chart_megabytes", 1200)),
                max_unpack_megabytes=int(sec.get("max_unpack_megabytes", 1500)),
                memory_limit_mb=int(sec.get("memory_limit_mb", 4096)),
                roots=(str(sec["roots"]) or None) if "roots" in sec else DEFAULT_ROOTS,
                fallback=bool(sec.get("fallback", True)),
                grace=float(sec.get("grace", 5.0)),
                extra_args=tuple(str(a) for a in sec.get("extra_args", ()) or ()),
            )
        except (TypeError, ValueError) as e:
            raise ValueError(f"bad [ace] configuration: {e}") from None

    def cmdargs(self, roots: str | None) -> list[str]:
        """ACE command-line arguments (besides ``-g``) for one pass."""
        args = ["-n", str(self.n), f"--timeout={max(1, int(round(self.timeout)))}",
                f"--max-chart-megabytes={self.max_chart_megabytes}",
                f"--max-unpack-megabytes={self.max_unpack_megabytes}"]
        if roots:
            args += ["-r", roots]
        return args + list(self.extra_args)

    def check(self) -> None:
        """Raise :class:`AceError` when the binary or the grammar image is missing."""
        if not Path(self.binary).expanduser().exists() and not _on_path(self.binary):
            raise AceError(f"ACE binary not found: {self.binary}")
        if not Path(self.grammar).expanduser().is_file():
            raise AceError(f"grammar image not found: {self.grammar}")


def _on_path(name: str) -> bool:
    import shutil

    return "/" not in name and shutil.which(name) is not None


@dataclass(frozen=True, slots=True)
class AceResult:
    """The parse of one question.

    ``status``: ``ok`` (readings), ``no-parse``, ``timeout``, ``crash`` or ``error``;
    ``roots``: ``strict`` or ``fallback`` (which pass produced the readings, as in the
    corpus), ``error``: messages prefixed by their pass; ``seconds``: wall-clock time.
    """

    question: str
    readings: tuple[str, ...]
    status: str
    roots: str | None = None
    error: str | None = None
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.status == "ok"


@dataclass(frozen=True, slots=True)
class _PassResult:
    readings: tuple[str, ...]
    status: str
    messages: tuple[str, ...] = ()


class AceWorker:
    """One persistent ACE process (``delphin.ace.ACEParser``) with a hard time limit.

    ``parse`` sends one sentence; if no answer arrives within ``timeout + grace`` seconds
    the process is killed and restarted, and the result has status ``timeout``; if the
    process dies it is restarted and the result has status ``crash``.
    """

    def __init__(self, config: AceConfig, roots: str | None, *, name: str = "ace") -> None:
        self.config = config
        self.roots = roots
        self.name = name
        self.restarts = 0
        self._parser: Any = None
        self._lock = threading.Lock()
        self._io = cf.ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"{name}-io")
        self._start()

    # process management ------------------------------------------------------------------
    def _start(self) -> None:
        from delphin import ace as dace

        try:
            self._parser = dace.ACEParser(
                self.config.grammar, cmdargs=self.config.cmdargs(self.roots),
                executable=self.config.binary, tsdbinfo=False, stderr=subprocess.DEVNULL)
        except (OSError, subprocess.CalledProcessError, ValueError, dace.ACEProcessError) as e:
            raise AceError(f"cannot start ACE ({self.config.binary}): {e}") from None
        limit = self.config.memory_limit_mb
        if limit and limit > 0:
            try:
                import resource

                b = int(limit) * 1024 * 1024
                resource.prlimit(self._parser._p.pid, resource.RLIMIT_AS, (b, b))
            except (ImportError, AttributeError, OSError, ValueError) as e:
                log.debug("could not set the memory limit of ACE: %s", e)

    @property
    def pid(self) -> int | None:
        p = getattr(self._parser, "_p", None)
        return p.pid if p is not None else None

    def _kill(self) -> None:
        p = getattr(self._parser, "_p", None)
        if p is None:
            return
        try:
            p.kill()
        except OSError:
            pass
        try:
            p.wait(timeout=5)
        except (subprocess.TimeoutExpired, OSError):
            pass

    def _restart(self) -> None:
        self._kill()
        self.restarts += 1
        self._start()

    def close(self) -> None:
        """Stop the process."""
        with self._lock:
            p = getattr(self._parser, "_p", None)
            if p is not None and p.poll() is None:
                try:
                    if p.stdin:
                        p.stdin.close()
                    p.wait(timeout=2)
                except (OSError, subprocess.TimeoutExpired, ValueError):
                    self._kill()
            self._io.shutdown(wait=False, cancel_futures=True)

    # parsing -------------------------------------------------------------------------------
    def parse(self, sentence: str) -> _PassResult:
        """Parse one sentence (already cleaned of tabs and line breaks)."""
        with self._lock:
            if self._parser is None or self._parser._p.poll() is not None:
                self._restart()
            fut = self._io.submit(self._parser.interact, sentence)
            try:
                resp = fut.result(timeout=self.config.timeout + self.config.grace)
            except cf.TimeoutError:
                log.warning("%s: no answer after %.1fs; killing pid %s", self.name,
                            self.config.timeout + self.config.grace, self.pid)
                self._kill()
                try:
                    fut.result(timeout=10)
                except Exception:  # the reader thread ends with the process
                    pass
                self._restart()
                return _PassResult((), "timeout", (f"timeout after {self.config.timeout + self.config.grace:g}s; process restarted",))
            except Exception as e:  # pydelphin raised while reading: treat as a crash
                log.warning("%s: ACE interaction failed: %s", self.name, e)
                self._restart()
                return _PassResult((), "crash", (f"ACE failed: {e}",))
            proc = self._parser._p
            answered = bool(resp.get("results")) or resp.get("surface") is not None
            if not answered and proc.poll() is None:
                # an empty answer: the process is dying (or out of step); give it a moment
                try:
                    proc.wait(timeout=1.0)
                except subprocess.TimeoutExpired:
                    self._kill()
            crashed = proc.poll() is not None
            code = proc.returncode
            if crashed:
                log.warning("%s: ACE exited with code %s; restarting", self.name, code)
                self._restart()
            readings = tuple(r["mrs"] for r in resp.get("results", ()) if r.get("mrs"))
            messages = tuple(resp.get("ERRORS", ())) + tuple(
                n for n in resp.get("NOTES", ()) if _interesting_note(n))
            if crashed and not readings:
                return _PassResult((), "crash", messages + (f"ACE exited with code {code}",))
            return _PassResult(readings, "ok" if readings else "no-parse", messages)


_NOTE_KEYS = ("ran out", "timeout", "timed out", "memory", "too many", "ignoring", "error")


def _interesting_note(note: str) -> bool:
    low = note.lower()
    return any(k in low for k in _NOTE_KEYS)


class AceParserPool:
    """A pool of :class:`AceWorker` processes.

    ``parse(question)`` runs the first pass (``config.roots``) and, when it finds nothing
    and ``config.fallback`` is set, a second pass with the grammar's default roots (its
    workers start on first use).  Thread-safe; ``parse_batch`` spreads questions over the
    pool.  Raises :class:`AceError` at construction when ACE cannot start.
    """

    def __init__(self, config: AceConfig) -> None:
        config.check()
        self.config = config
        self._workers: queue.Queue[AceWorker] = queue.Queue()
        self._all: list[AceWorker] = []
        self._fallback: queue.Queue[AceWorker] | None = None
        self._fallback_lock = threading.Lock()
        self._grammar_id: str | None = None
        for k in range(config.pool_size):
            w = AceWorker(config, config.roots, name=f"ace{k}")
            self._all.append(w)
            self._workers.put(w)

    def __enter__(self) -> "AceParserPool":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def grammar_id(self) -> str:
        """Identity of the grammar image (for the MRS cache key)."""
        if self._grammar_id is None:
            self._grammar_id = grammar_identity(self.config.grammar)
        return self._grammar_id

    @property
    def restarts(self) -> int:
        """Process restarts so far (crashes and hangs)."""
        return sum(w.restarts for w in self._all)

    def _fallback_pool(self) -> "queue.Queue[AceWorker]":
        with self._fallback_lock:
            if self._fallback is None:
                self._fallback = queue.Queue()
                w = AceWorker(self.config, None, name="ace-fallback")
                self._all.append(w)
                self._fallback.put(w)
            return self._fallback

    def _run(self, pool: "queue.Queue[AceWorker]", sentence: str) -> _PassResult:
        w = pool.get()
        try:
            return w.parse(sentence)
        except AceError as e:  # the process could not be restarted
            return _PassResult((), "error", (str(e),))
        finally:
            pool.put(w)

    def parse(self, question: str) -> AceResult:
        """Parse one question (never raises once the pool runs)."""
        t0 = time.perf_counter()
        sentence = ace_input(question)
        if not sentence.strip():
            return AceResult(question, (), "error", None, "empty input", 0.0)
        first = self._run(self._workers, sentence)
        errors = [f"strict: {m}" for m in first.messages]
        result, roots = first, "strict"
        if not first.readings and self.config.fallback and self.config.roots:
            second = self._run(self._fallback_pool(), sentence)
            errors += [f"fallback: {m}" for m in second.messages]
            result, roots = second, "fallback"
            if not second.readings and first.status in ("timeout", "crash", "error") \
                    and second.status == "no-parse":
                result = first
        status = result.status
        return AceResult(question, result.readings, status, roots,
                         "; ".join(errors) or None, round(time.perf_counter() - t0, 4))

    def parse_batch(self, questions: Sequence[str]) -> list[AceResult]:
        """Parse many questions over the pool; results in input order."""
        if not questions:
            return []
        with cf.ThreadPoolExecutor(max_workers=self.config.pool_size,
                                   thread_name_prefix="ace-batch") as ex:
            return list(ex.map(self.parse, questions))

    def close(self) -> None:
        """Stop every process."""
        for w in self._all:
            w.close()


@dataclass
class LazyAce:
    """An :class:`AceParserPool` started on first use (for :class:`verifier.mrs_cache.MrsProvider`).
    A pool that cannot start gives ``error`` results saying why."""

    config: AceConfig
    _pool: AceParserPool | None = field(default=None, init=False, repr=False)
    _failure: str | None = field(default=None, init=False, repr=False)

    @property
    def grammar_id(self) -> str:
        return grammar_identity(self.config.grammar)

    def parse(self, question: str) -> AceResult:
        """Parse one question (starting the pool on first use)."""
        if self._pool is None and self._failure is None:
            try:
                self._pool = AceParserPool(self.config)
            except AceError as e:
                self._failure = str(e)
        if self._pool is None:
            return AceResult(question, (), "error", None, self._failure)
        return self._pool.parse(question)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()
