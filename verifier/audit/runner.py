"""Run an audit: read logs, verify on an engine, store every result, resume safely.

:func:`run_audit` is the whole pipeline behind ``verifier audit LOG...``:

1. open the store (creating it) and take its single-writer lock;
2. fresh store: register the logs (format, field map, fingerprint).  ``resume``: check
   that the logs are the same files (``appended`` logs are fine: the old content is a prefix
   of the new file) and that the run identity (verifier version, axiom pack, configuration)
   did not change; otherwise raise :class:`AuditConflict` saying what changed;
3. stream every log, skipping the lines already stored (a merge with the stored line
   numbers, in pages, so memory does not grow) and checking that each skipped line still
   has its stored content hash;
4. bad input lines become ``input_error`` results directly; good ones go to the engine;
   outcomes are joined with their input and written in batched transactions
   (``batch_size`` results or ``flush_seconds``, whichever comes first);
5. on Ctrl-C / SIGTERM the results received so far are written and the session is marked
   ``interrupted``; after ``kill -9`` or power loss at most the last unwritten batch and the
   in-flight records are lost, and ``--resume`` verifies exactly those again.
6. once every line is stored, the grouping pass (:mod:`verifier.audit.grouping`) groups the
   records by question and stores the consensus of each question's queries; it is resumable
   too (an interrupted pass is finished by ``--resume``).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from verifier.audit.backends import make_engine
from verifier.audit.engines import EngineOptions
from verifier.audit.identity import RunIdentity, compare_log, log_fingerprint, run_identity
from verifier.audit.reader import ReaderOptions, ReadStats, count_lines, preflight, read_log
from verifier.audit.records import InputRecord, Outcome, Result, Task
from verifier.audit.grouping import GroupingOptions, GroupingOutcome, run_grouping
from verifier.audit.store import AuditStore
from verifier.audit.work import summarise_verdict

__all__ = ["AuditOptions", "AuditOutcome", "AuditConflict", "run_audit", "default_store_path",
           "result_from_input", "result_from_outcome"]

log = logging.getLogger(__name__)


class AuditConflict(RuntimeError):
    """The store does not match the request (existing results without ``resume``, a changed
    log, changed axioms ...): nothing was verified, nothing was mixed."""


@dataclass(frozen=True)
class AuditOptions:
    """Everything :func:`run_audit` needs.

    ``config``: the :class:`verifier.config.Config` the workers build their verifier from;
    ``engine``: ``local`` or ``ray``; ``resume``: continue an interrupted audit;
    ``restart``: discard the store's results first; ``allow_changes``: resume even when the
    verifier version, axioms or configuration changed (recorded per session);
    ``progress``: a callable ``(total, initial) -> progress bar`` with ``update(n)`` and
    ``close()``, or ``None``; ``grouping``: how the grouping pass that follows a complete
    audit groups records by question and clusters their queries
    (:mod:`verifier.audit.grouping`; ``GroupingOptions(enabled=False)`` skips it).
    """

    logs: tuple[Path, ...]
    store: Path
    config: Any
    reader: ReaderOptions = field(default_factory=ReaderOptions)
    engine: str = "local"
    engine_options: EngineOptions = field(default_factory=EngineOptions)
    resume: bool = False
    restart: bool = False
    allow_changes: bool = False
    batch_size: int = 256
    flush_seconds: float = 2.0
    argv: tuple[str, ...] = ()
    progress: Callable[[int | None, int], Any] | None = None
    grouping: GroupingOptions = field(default_factory=GroupingOptions)


@dataclass(frozen=True)
class AuditOutcome:
    """What one invocation did: ``status`` is ``complete`` or ``interrupted``."""

    store: Path
    session_id: int
    status: str
    written: int
    skipped: int
    input_errors: int
    verify_errors: int
    duplicates_ignored: int
    seconds: float
    restarts: int
    notes: tuple[str, ...] = ()
    grouping: GroupingOutcome | None = None


def default_store_path(log_path: str | Path) -> Path:
    """``<log name without .gz and extension>.audit.sqlite`` beside the log."""
    p = Path(log_path)
    name = p.name
    if name.endswith(".gz"):
        name = name[:-3]
    stem = name.rsplit(".", 1)[0] if "." in name else name
    return p.with_name(f"{stem}.audit.sqlite")


def result_from_input(rec: InputRecord) -> Result:
    """The stored result of a bad input line."""
    return Result(rec.log_id, rec.line, rec.record_id, rec.content_hash, "input_error", rec.question,
                  rec.sparql, rec.fields, error=rec.error, error_kind=rec.error_kind,
                  reason=rec.error, reason_kinds=(f"input: {rec.error_kind}",))


def result_from_outcome(rec: InputRecord, o: Outcome) -> Result:
    """The stored result of a verified (or crashed) record."""
    d = dict(o.verdict) if o.verdict is not None else None
    if d is None:
        kind = "timeout" if o.error and "timed out" in o.error else "crash"
        first = (o.error or "verification failed").splitlines()[0]
        return Result(rec.log_id, rec.line, rec.record_id, rec.content_hash, "verify_error", rec.question,
                      rec.sparql, rec.fields, error=o.error, error_kind=kind, reason=first,
                      reason_kinds=(f"verification {kind}",), wall_ms=o.wall_ms, cpu_ms=o.cpu_ms,
                      worker=o.worker)
    reason, kinds, unsupported = summarise_verdict(d)
    score = d.get("score")
    return Result(rec.log_id, rec.line, rec.record_id, rec.content_hash, o.status, rec.question,
                  rec.sparql, rec.fields, decision=d.get("decision"),
                  score=float(score) if isinstance(score, (int, float)) else None,
                  verdict=d.get("verdict"), explanation=d.get("explanation"), error=d.get("error"),
                  error_kind="query_error" if d.get("error") else None, reason=reason,
                  reason_kinds=kinds, unsupported=unsupported, verdict_json=d,
                  timings=d.get("timings_ms") or {}, wall_ms=o.wall_ms, cpu_ms=o.cpu_ms, worker=o.worker)


class _Stats:
    def __init__(self) -> None:
        self.written = self.skipped = self.input_errors = self.verify_errors = self.ignored = 0


def _identity_json(ident: RunIdentity) -> dict[str, Any]:
    return {"verifier_version": ident.verifier_version, "axioms_sha256": ident.axioms_sha256,
            "config_sha256": ident.config_sha256, "axioms": dict(ident.axioms), "config": dict(ident.config)}


def _prepare(store: AuditStore, opts: AuditOptions, ident: RunIdentity) -> tuple[list[tuple[int, Path, str]], list[str]]:
    """Check or register the logs; returns ``[(log_id, path, format)]`` and notes."""
    notes: list[str] = []
    paths = [p.resolve() for p in opts.logs]
    if len(set(paths)) != len(paths):
        raise AuditConflict("the same log is given twice")
    existing = store.logs()
    if existing and opts.restart:
        n = store.delete_results()
        store.db.execute("DELETE FROM logs")
        notes.append(f"--restart: discarded {n} stored result(s)")
        existing = []
    if existing and not opts.resume:
        n = store.count()
        raise AuditConflict(
            f"{store.path} already holds {n} result(s) of this or another audit; use --resume to "
            "continue it, --restart to discard them and start again, or --store for a new store")
    out: list[tuple[int, Path, str]] = []
    if existing:
        stored = {Path(r.path): r for r in existing}
        if set(stored) != set(paths):
            raise AuditConflict(
                "--resume needs the same logs as the audit in the store: it has "
                + ", ".join(str(p) for p in stored) + "; given " + ", ".join(str(p) for p in paths))
        sessions = store.sessions()
        if sessions and sessions[-1].identity:
            old = sessions[-1].identity
            prev = RunIdentity(old.get("verifier_version", "?"), old.get("axioms_sha256", "?"),
                               old.get("config_sha256", "?"), old.get("axioms", {}), old.get("config", {}))
            diffs = ident.differences(prev)
            if diffs and not opts.allow_changes:
                raise AuditConflict(
                    "the verifier changed since this audit started (" + "; ".join(diffs) + "): resuming "
                    "would mix verdicts of two set-ups. Use --restart to audit again with the new set-up, "
                    "or --allow-changes to continue anyway (each result records its session)")
            if diffs:
                notes.append("continuing with a changed set-up: " + "; ".join(diffs))
        for p in paths:
            row = stored[p]
            if not p.exists():
                raise AuditConflict(f"{p}: the log no longer exists")
            from verifier.audit.identity import LogFingerprint

            state, fp = compare_log(LogFingerprint(row.path, row.size or 0, row.mtime or 0.0, row.sha256 or ""), p)
            if state == "changed":
                raise AuditConflict(
                    f"{p} changed since the audit started (size {row.size} -> {fp.size} bytes, content "
                    "differs, not only appended): its stored results would not match its lines. Use "
                    "--restart to audit it again, or --store for a separate audit")
            if state == "appended":
                notes.append(f"{p.name}: {fp.size - (row.size or 0)} byte(s) appended since the last run; "
                             "auditing the new lines too")
                store.update_log(row.log_id, size=fp.size, mtime=fp.mtime, sha256=fp.sha256, complete=0)
            if state == "same" and row.complete:
                continue  # every record of this log is stored
            out.append((row.log_id, p, row.format))
        return out, notes
    for p in paths:
        fmt = preflight(p, opts.reader)
        fp = log_fingerprint(p)
        fm = {"question": opts.reader.fields.question, "sparql": opts.reader.fields.sparql,
              "id": opts.reader.fields.id, "max_line_bytes": opts.reader.max_line_bytes}
        out.append((store.add_log(str(p), fmt, fm, fp.size, fp.mtime, fp.sha256), p, fmt))
    return out, notes


def run_audit(opts: AuditOptions) -> AuditOutcome:
    """Run (or resume) an audit; see the module documentation.

    Raises :class:`AuditConflict` (nothing done), :class:`~verifier.audit.reader.LogFormatError`,
    :class:`~verifier.audit.store.StoreError` / ``StoreBusy``, or
    :class:`~verifier.audit.engines.EngineError` (results written so far are kept).
    ``KeyboardInterrupt`` is caught: the outcome's status is then ``interrupted``.
    """
    t0 = time.monotonic()
    ident = run_identity(opts.config)
    store = AuditStore(opts.store)
    try:
        store.lock()
        logs, notes = _prepare(store, opts, ident)
        session = store.start_session(_identity_json(ident), engine=opts.engine,
                                      workers=opts.engine_options.workers, argv=opts.argv)
        for n in notes:
            log.warning("%s", n)
        return _run(store, opts, logs, session, notes, t0)
    finally:
        store.close()


def _run(store: AuditStore, opts: AuditOptions, logs: list[tuple[int, Path, str]], session: int,
         notes: list[str], t0: float) -> AuditOutcome:
    from dataclasses import replace

    st = _Stats()
    pending: dict[tuple[int, int], InputRecord] = {}
    buffer: list[Result] = []
    last_flush = time.monotonic()
    stats_by_log: dict[int, ReadStats] = {}
    engine = make_engine(opts.engine, opts.config, opts.engine_options)
    bar = None

    def flush() -> None:
        nonlocal last_flush
        if buffer:
            w, ign = store.write(buffer, session)
            st.written += w
            st.ignored += ign
            if bar is not None:
                bar.update(len(buffer))
            buffer.clear()
        last_flush = time.monotonic()

    def tasks() -> Iterator[Task]:
        for log_id, path, fmt in logs:
            rs = ReadStats()
            stats_by_log[log_id] = rs
            stored = store.stored_lines(log_id)
            cur = next(stored, None)
            reader = read_log(path, log_id, replace(opts.reader, format=fmt), rs)
            for rec in reader:
                while cur is not None and cur[0] < rec.line:
                    raise _LogMismatch(f"{path}: line {cur[0]} is stored but is no longer a record of the log")
                if cur is not None and cur[0] == rec.line:
                    if cur[1] != rec.content_hash:
                        raise _LogMismatch(f"{path}: line {rec.line} differs from the stored line "
                                           "(the log changed); use --restart")
                    st.skipped += 1
                    cur = next(stored, None)
                    continue
                if rec.error is not None:
                    buffer.append(result_from_input(rec))
                    st.input_errors += 1
                    if len(buffer) >= opts.batch_size:
                        flush()
                    continue
                pending[rec.key] = rec
                model = rec.fields.get("model")
                yield Task(rec.log_id, rec.line, rec.question or "", rec.sparql or "",
                           model if isinstance(model, str) and model.strip() else None)
            if cur is not None:
                raise _LogMismatch(f"{path}: line {cur[0]} is stored but the log now ends before it")
            store.update_log(log_id, records_total=rs.records, lines_total=rs.lines, blank_lines=rs.blank)

    status = "complete"
    try:
        if opts.progress is not None:
            total = 0
            for _, path, fmt in logs:
                total += count_lines(path) - (1 if fmt in ("csv", "tsv") else 0)
            bar = opts.progress(total, store.count())
        for outcomes in engine.process(tasks()):
            for o in outcomes:
                rec = pending.pop(o.key, None)
                if rec is None:
                    log.warning("outcome for unknown line %s ignored", o.key)
                    continue
                r = result_from_outcome(rec, o)
                st.verify_errors += r.status == "verify_error"
                buffer.append(r)
            if len(buffer) >= opts.batch_size or time.monotonic() - last_flush >= opts.flush_seconds:
                flush()
        flush()
        for log_id, _, _ in logs:
            rs = stats_by_log.get(log_id)
            if rs is not None and store.count(log_id) == rs.records:
                store.update_log(log_id, complete=1)
    except KeyboardInterrupt:
        status = "interrupted"
        flush()
    except _LogMismatch as e:
        flush()
        store.end_session(session, "failed", str(e))
        raise AuditConflict(str(e)) from None
    except BaseException as e:
        try:
            flush()
        finally:
            store.end_session(session, "failed", f"{type(e).__name__}: {e}")
        raise
    finally:
        if bar is not None:
            bar.close()
        engine.close()
    grouped = None
    if status == "complete" and opts.grouping.enabled:
        try:
            grouped = run_grouping(store, _grouping_options(opts))
        except KeyboardInterrupt:
            status = "interrupted"
            notes.append("the grouping pass was interrupted; --resume finishes it")
    note = "; ".join(notes) or None
    if status == "interrupted" and pending:
        note = ((note + "; ") if note else "") + f"{len(pending)} in-flight record(s) left for --resume"
    store.end_session(session, status, note)
    return AuditOutcome(opts.store, session, status, st.written, st.skipped, st.input_errors,
                        st.verify_errors, st.ignored, time.monotonic() - t0, engine.restarts, tuple(notes),
                        grouped)


def _grouping_options(opts: AuditOptions) -> GroupingOptions:
    """The grouping options with the audit's workers and the configured KG labels (which
    name identifiers in the difference sentences)."""
    from dataclasses import replace

    labels = opts.grouping.labels
    path = opts.config.get("grounding", "labels") if labels is None and opts.config is not None else None
    if path:
        try:
            from verifier.lexical import LabelIndex

            labels = LabelIndex.cached(path)
        except (OSError, ValueError) as e:
            log.warning("labels %s not read for the consensus sentences: %s", path, e)
    return replace(opts.grouping, labels=labels,
                   workers=max(1, opts.grouping.workers or opts.engine_options.workers))


class _LogMismatch(Exception):
    pass
