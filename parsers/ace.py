"""ACE integration through PyDelphin: a small pool of persistent parser processes.

* :class:`AceConfig`: binary, grammar image and limits, read from the ``[ace]`` section of
  the configuration the caller passes (:func:`verifier.config.load_config`, where
  ``VERIFIER_ACE`` / ``VERIFIER_ERG`` override ``binary`` / ``grammar``).  Keys: ``binary``, ``grammar``, ``timeout`` (seconds per
  sentence, default 10), ``pool_size`` (1), ``n`` (readings, 5), ``max_chart_megabytes``
  (1200), ``max_unpack_megabytes`` (1500), ``memory_limit_mb`` (address-space limit of each
  process, 0 = none; default 4096), ``roots`` (first pass, ``"root_strict root_informal"``),
  ``fallback`` (second pass with the grammar's default roots when the first finds nothing,
  true), ``grace`` (seconds beyond ``timeout`` before a silent process is killed, 5),
  ``retries`` (times a question is sent again to a fresh process after ACE died under it, 1).
* :class:`AceWorker`: one ``delphin.ace.ACEParser`` process; a sentence that takes longer
  than ``timeout + grace`` kills and restarts the process, as does a crash (a process that
  died, e.g. killed from outside, is replaced and the question sent again, ``retries`` times).
  Readings are re-encoded by PyDelphin (``delphin.codecs.simplemrs``), as in the shared
  corpus; readings it cannot read are dropped with a message.  ACE's own verdicts (its
  ``--timeout``, memory limits, "too many words") come back as the result's ``error``, and
  a time-out as status ``timeout``.
* :class:`AceParserPool`: several workers, :meth:`~AceParserPool.parse` for one question,
  :meth:`~AceParserPool.parse_batch` for many (in parallel over the pool); results are
  :class:`AceResult` objects, never exceptions, once the pool has started.
* :func:`ace_input` is the text ACE is given for a question; :func:`grammar_identity`
  names a grammar image (the key of parses in :class:`verifier.mrs_cache.MrsCache`).

The two-pass strategy and the options match how ``shared/data/mrs`` was produced.
"""

from __future__ import annotations

import concurrent.futures as cf
import logging
import queue
import re
import subprocess
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Sequence

from parsers.ace_grammar import GrammarInfo, grammar_identity, grammar_info

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
    retries: int = 1

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
                retries=max(0, int(sec.get("retries", 1))),
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

    ``status``: ``ok`` (readings), ``no-parse`` (none; ``error`` says why when ACE gave a
    reason such as "too many words" or "ran out of RAM"), ``timeout`` (ACE's ``--timeout``
    or the hard limit ``timeout + grace`` stopped it), ``crash`` (the process died on
    every try) or ``error``; ``roots``: ``strict`` or ``fallback`` (which pass produced the
    readings, as in the corpus); ``error``: messages prefixed by their pass; ``seconds``:
    wall-clock time.
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
    fatal: bool = False  # the process was lost (crash, or killed after the hard limit)


# ACE's own verdict on an item, in its --tsdb-notes line: (:error . "timeout, ...")
_TSDB_ERROR = re.compile(r'\(:error \. "((?:[^"\\]|\\.)*)"\)')
# stderr lines said for every sentence (not worth reporting when the process dies)
_ROUTINE = re.compile(r"NOTE: (\d+ readings, added|parsed \d+ / \d+ sentences)")
_NOTE_KEYS = ("ran out", "timeout", "timed out", "memory", "too many", "ignoring", "error")
_MAX_MESSAGE = 200


def _short(text: str) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= _MAX_MESSAGE else text[:_MAX_MESSAGE - 3] + "..."


def _interesting_note(note: str) -> bool:
    low = note.lower()
    return any(k in low for k in _NOTE_KEYS)


def _ace_messages(resp: Any) -> list[str]:
    """ACE's reasons for a response: the ``:error`` of its tsdb note ("timeout, ran out
    of time while unpacking", "too many words", "ran out of RAM while building forest"),
    other notes that look like problems, and ``ERROR:`` lines."""
    out: list[str] = []
    for note in resp.get("NOTES", ()):
        if note.startswith("tsdb parse:"):
            m = _TSDB_ERROR.search(note)
            if m:
                out.append(_short(m.group(1).replace('\\"', '"')))
        elif _interesting_note(note):
            out.append(_short(note))
    out += [_short(e) for e in resp.get("ERRORS", ())]
    return out



def _reencode(raw: Iterable[str]) -> tuple[tuple[str, ...], str | None]:
    """Readings as PyDelphin writes them (one-line SimpleMRS, ``TOP:``), as in the shared
    corpus; readings PyDelphin cannot read are dropped, with a message saying so."""
    from delphin.codecs import simplemrs

    out: list[str] = []
    bad: list[str] = []
    for r in raw:
        try:
            out.append(simplemrs.encode(simplemrs.decode(r)))
        except Exception as e:  # PyDelphin raises several types for odd MRSs
            bad.append(type(e).__name__)
    if not bad:
        return tuple(out), None
    kinds = ", ".join(sorted(set(bad)))
    return tuple(out), f"{len(bad)} reading(s) dropped, PyDelphin could not read the MRS ({kinds})"


def _startup_reason(config: AceConfig) -> str:
    """What ACE says on its standard error when it will not start with this grammar (run
    once more to hear it, e.g. "this does not appear to be a grammar image")."""
    try:
        r = subprocess.run([config.binary, "-g", config.grammar], input="", capture_output=True,
                           text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    lines = [l.strip() for l in r.stderr.splitlines() if l.strip()]
    return _short(lines[-1]) if lines else ""


class AceWorker:
    """One persistent ACE process (``delphin.ace.ACEParser``) with a hard time limit.

    ``parse`` sends one sentence; if no answer arrives within ``timeout + grace`` seconds
    the process is killed and restarted, and the result has status ``timeout``; if the
    process dies (a crash, or killed from outside) it is restarted and the sentence sent
    again (``config.retries`` times) before the result says ``crash``.  ACE's last words
    on its standard error (e.g. "this does not appear to be a grammar image") go into the
    crash message.
    """

    def __init__(self, config: AceConfig, roots: str | None, *, name: str = "ace") -> None:
        self.config = config
        self.roots = roots
        self.name = name
        self.restarts = 0
        self.parsed = 0
        self._parser: Any = None
        self._lock = threading.Lock()
        self._io = cf.ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"{name}-io")
        # each process's own standard error, read by its own thread (pid -> lines, reader);
        # per process, so a new process never takes, or clears, the words of a dying one
        self._stderr: dict[int, tuple[deque[str], threading.Thread]] = {}
        self._start()

    # process management ------------------------------------------------------------------
    def _start(self) -> None:
        from delphin import ace as dace

        try:
            self._parser = dace.ACEParser(
                self.config.grammar, cmdargs=self.config.cmdargs(self.roots),
                executable=self.config.binary, tsdbinfo=False, stderr=subprocess.PIPE)
        except (OSError, subprocess.CalledProcessError, ValueError, dace.ACEProcessError) as e:
            why = _startup_reason(self.config) if isinstance(e, dace.ACEProcessError) else ""
            raise AceError(f"cannot start ACE ({self.config.binary}): {e}"
                           + (f": {why}" if why else "")) from None
        self._adopt(self._parser._p)

    def _adopt(self, proc: subprocess.Popen) -> None:
        """Memory limit and standard-error reader of a new process."""
        limit = self.config.memory_limit_mb
        if limit and limit > 0:
            try:
                import resource

                b = int(limit) * 1024 * 1024
                resource.prlimit(proc.pid, resource.RLIMIT_AS, (b, b))
            except (ImportError, AttributeError, OSError, ValueError) as e:
                log.debug("could not set the memory limit of ACE: %s", e)
        if proc.stderr is not None:
            lines: deque[str] = deque(maxlen=8)
            drain = threading.Thread(target=self._read_stderr, args=(proc.stderr, lines),
                                     name=f"{self.name}-stderr", daemon=True)
            for pid in list(self._stderr)[:-2]:  # the words of long-gone processes
                del self._stderr[pid]
            self._stderr[proc.pid] = (lines, drain)
            drain.start()

    @staticmethod
    def _read_stderr(stream: Any, into: deque[str]) -> None:
        try:
            for line in stream:
                line = line.rstrip()
                if line and not _ROUTINE.match(line):
                    into.append(line)
        except (OSError, ValueError):  # the stream was closed under us
            pass

    def _last_words(self, proc: Any) -> str:
        """What the dead process ``proc`` said last on its standard error."""
        if proc is None or proc.pid not in self._stderr:
            return ""
        said, drain = self._stderr[proc.pid]
        drain.join(timeout=1.0)  # the pipe ends with the process
        lines = [l for l in said if not l.startswith("NOTE: tsdb")]
        # "ERROR: DEADLY SIGNAL! sent = `<the whole sentence>`": the sentence is known
        return _short(re.sub(r"\s*sent = `.*$", "", lines[-1])) if lines else ""

    def _words_of_failed(self, before: Any, error: Exception) -> str:
        """Why an interaction raised: the last words of a process pydelphin re-opened on its
        own (its standard error is nobody's to drain, and it is dead), else of the process
        the sentence went to, else -- when a re-opened process closed on startup before it
        said anything we could read -- what ACE says when started once more."""
        proc = getattr(self._parser, "_p", None)
        if proc is not None and proc is not before and proc.poll() is not None and proc.stderr:
            try:
                lines = [l.strip() for l in proc.stderr.read().splitlines() if l.strip()]
            except (OSError, ValueError):
                lines = []
            lines = [l for l in lines if not _ROUTINE.match(l) and not l.startswith("NOTE: tsdb")]
            if lines:
                return _short(lines[-1])
        if before is not None and before.poll() is not None:
            why = self._last_words(before)
            if why:
                return why
        from delphin import ace as dace

        return _startup_reason(self.config) if isinstance(error, dace.ACEProcessError) else ""

    @property
    def pid(self) -> int | None:
        """Process id of the running ACE (``None`` before it starts)."""
        p = getattr(self._parser, "_p", None)
        return p.pid if p is not None else None

    @staticmethod
    def _reap(p: Any) -> None:
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

    def _kill(self) -> None:
        self._reap(getattr(self._parser, "_p", None))

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
        """Parse one sentence (already cleaned of tabs and line breaks); ``parsed`` counts
        the sentences this worker answered."""
        with self._lock:
            self.parsed += 1
            result = self._attempt(sentence)
            tries = 1
            while result.status == "crash" and tries <= self.config.retries:
                log.warning("%s: ACE died on %r (%s); sending it again to a new process", self.name,
                            _short(sentence)[:80], "; ".join(result.messages))
                result = self._attempt(sentence)
                tries += 1
            if result.status == "crash" and tries > 1:
                result = _PassResult((), "crash", result.messages + (f"crashed on each of {tries} tries",),
                                     fatal=True)
            return result

    def _attempt(self, sentence: str) -> _PassResult:
        if self._parser is None or self._parser._p.poll() is not None:
            self._restart()
        before = self._parser._p
        limit = self.config.timeout + self.config.grace
        fut = self._io.submit(self._parser.interact, sentence)
        try:
            resp = fut.result(timeout=limit)
        except cf.TimeoutError:
            log.warning("%s: no answer after %.1fs; killing pid %s", self.name, limit, self.pid)
            self._kill()
            try:
                fut.result(timeout=10)
            except Exception:  # the reader thread ends with the process
                pass
            self._restart()
            return _PassResult((), "timeout", (f"timeout: no answer within {limit:g}s; the ACE "
                                               "process was killed and replaced",), fatal=True)
        except Exception as e:  # pydelphin raised while reading: treat as a crash
            log.warning("%s: ACE interaction failed: %s", self.name, e)
            why = self._words_of_failed(before, e)
            self._restart()
            return _PassResult((), "crash", (_short(f"ACE failed: {e}" + (f": {why}" if why else "")),),
                               fatal=True)
        proc = self._parser._p
        if proc is not before:
            # pydelphin re-opened a process that had died before the sentence was sent
            log.warning("%s: ACE (pid %s) had died; pydelphin started pid %s", self.name,
                        before.pid, proc.pid)
            self._reap(before)
            self.restarts += 1
            self._adopt(proc)
        answered = bool(resp.get("results")) or resp.get("surface") is not None
        if not answered and proc.poll() is None:
            # an empty answer: the process is dying (or out of step); give it a moment
            try:
                proc.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                self._kill()
        crashed = proc.poll() is not None
        code = proc.returncode
        why = ""
        if crashed:
            why = self._last_words(proc)
            log.warning("%s: ACE exited with code %s%s; restarting", self.name, code,
                        f" ({why})" if why else "")
            self._restart()
        readings, dropped = _reencode(r["mrs"] for r in resp.get("results", ()) if r.get("mrs"))
        messages = _ace_messages(resp) + ([dropped] if dropped else [])
        if crashed and not readings:
            return _PassResult((), "crash", tuple(messages) + (
                f"ACE exited with code {code}" + (f": {why}" if why else ""),), fatal=True)
        if readings:
            status = "ok"
        elif any(m.startswith("timeout") or "out of time" in m for m in messages):
            status = "timeout"
        else:
            status = "no-parse"
        return _PassResult(readings, status, tuple(messages))


class AceParserPool:
    """A pool of :class:`AceWorker` processes.

    ``parse(question)`` runs the first pass (``config.roots``) and, when it finds nothing
    and ``config.fallback`` is set, a second pass with the grammar's default roots (its
    workers start on first use, up to ``pool_size``); no second pass follows a lost process
    (a crash on every try, or a kill after the hard limit).  Thread-safe; ``parse_batch``
    spreads questions over the pool.  Raises :class:`AceError` at construction when ACE
    cannot start.
    """

    def __init__(self, config: AceConfig) -> None:
        config.check()
        self.config = config
        self._workers: queue.Queue[AceWorker] = queue.Queue()
        self._fallback: queue.Queue[AceWorker] = queue.Queue()
        self._n_fallback = 0
        self._all: list[AceWorker] = []
        self._lock = threading.Lock()
        self._grammar_info: GrammarInfo | None = None
        try:
            for k in range(config.pool_size):
                w = AceWorker(config, config.roots, name=f"ace{k}")
                self._all.append(w)
                self._workers.put(w)
        except AceError:
            self.close()
            raise

    def __enter__(self) -> "AceParserPool":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def grammar_info(self) -> GrammarInfo:
        """The grammar image's :class:`parsers.ace_grammar.GrammarInfo` (identity, header
        version, family)."""
        if self._grammar_info is None:
            self._grammar_info = grammar_info(self.config.grammar)
        return self._grammar_info

    @property
    def grammar_id(self) -> str:
        """Identity of the grammar image (for the MRS cache key)."""
        return str(self.grammar_info.identity)

    @property
    def workers(self) -> tuple[AceWorker, ...]:
        """Every worker started so far (first-pass ones first)."""
        with self._lock:
            return tuple(self._all)

    @property
    def restarts(self) -> int:
        """Process restarts so far (crashes and hangs)."""
        return sum(w.restarts for w in self.workers)

    def _take_fallback(self) -> AceWorker:
        with self._lock:
            try:
                return self._fallback.get_nowait()
            except queue.Empty:
                start = self._n_fallback < self.config.pool_size
                if start:
                    self._n_fallback += 1
                    k = self._n_fallback - 1
        if not start:
            return self._fallback.get()
        try:
            w = AceWorker(self.config, None, name=f"ace-fallback{k}")
        except AceError:
            with self._lock:
                self._n_fallback -= 1
            raise
        with self._lock:
            self._all.append(w)
        return w

    def _run(self, fallback: bool, sentence: str) -> _PassResult:
        pool = self._fallback if fallback else self._workers
        try:
            w = self._take_fallback() if fallback else pool.get()
        except AceError as e:
            return _PassResult((), "error", (str(e),), fatal=True)
        try:
            return w.parse(sentence)
        except AceError as e:  # the process could not be restarted
            return _PassResult((), "error", (str(e),), fatal=True)
        finally:
            pool.put(w)

    def parse(self, question: str) -> AceResult:
        """Parse one question (never raises once the pool runs)."""
        t0 = time.perf_counter()
        sentence = ace_input(question)
        if not sentence.strip():
            return AceResult(question, (), "error", None, "empty input", 0.0)
        first = self._run(False, sentence)
        errors = [f"strict: {m}" for m in first.messages]
        result, roots = first, "strict"
        if not first.readings and self.config.fallback and self.config.roots and not first.fatal:
            second = self._run(True, sentence)
            errors += [f"fallback: {m}" for m in second.messages]
            result, roots = second, "fallback"
            if not second.readings and first.status in ("timeout", "crash", "error") \
                    and second.status == "no-parse":
                result = first
        return AceResult(question, result.readings, result.status, roots,
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
        for w in self.workers:
            w.close()


@dataclass
class LazyAce:
    """An :class:`AceParserPool` started on first use (for :class:`verifier.mrs_cache.MrsProvider`).
    A pool that cannot start gives ``error`` results saying why."""

    config: AceConfig
    _pool: AceParserPool | None = field(default=None, init=False, repr=False)
    _failure: str | None = field(default=None, init=False, repr=False)
    _info: Any = field(default=None, init=False, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    @property
    def started(self) -> bool:
        """Whether the ACE processes have been started."""
        return self._pool is not None

    @property
    def grammar_info(self) -> GrammarInfo:
        """The grammar image's :class:`parsers.ace_grammar.GrammarInfo` (without starting ACE)."""
        if self._info is None:
            self._info = grammar_info(self.config.grammar)
        return self._info

    @property
    def grammar_id(self) -> str:
        return str(self.grammar_info.identity)

    def parse(self, question: str) -> AceResult:
        """Parse one question (starting the pool on first use)."""
        with self._lock:
            if self._pool is None and self._failure is None:
                try:
                    self._pool = AceParserPool(self.config)
                except AceError as e:
                    self._failure = str(e)
        if self._pool is None:
            return AceResult(question, (), "error", None, self._failure)
        return self._pool.parse(question)

    def close(self) -> None:
        """Stop the ACE processes (if started)."""
        if self._pool is not None:
            self._pool.close()
