"""The audit store: one SQLite file (WAL mode) holding every result of an audit.

Tables (schema version 1):

``logs``
    One row per input log: ``log_id``, resolved ``path``, ``format``, ``field_map`` (JSON),
    the fingerprint read at the last (re)start (``size``, ``mtime``, ``sha256``),
    ``records_total``/``lines_total``/``blank_lines`` and ``complete`` once every record is
    stored.
``sessions``
    One row per invocation (first run and every ``--resume``): times, ``status``
    (``running``, ``complete``, ``interrupted``, ``failed``; a ``running`` row left by a killed
    process is marked ``killed`` by the next session), engine and workers, host and pid,
    command line, the run identity (``verifier_version``, ``axioms_sha256``,
    ``config_sha256`` and the full ``identity`` JSON), ``records_written`` and
    ``duplicates_ignored`` (results offered twice for one line; 0 in a correct run).
``results``
    One row per record, unique on ``(log_id, line)``: ``record_id``, ``content_hash`` of
    the raw line, ``status`` (``ok``, ``input_error``, ``verify_error``), the input
    (``question``, ``sparql``, other ``fields`` as JSON), ``decision``, ``score``,
    ``verdict``, ``explanation``, ``error``, ``error_kind``, ``reason`` (deductive reason),
    ``reason_kinds`` and ``unsupported`` (JSON lists derived for summaries),
    ``verdict_json`` (``Verdict.to_dict()``: later signals appear here without schema
    changes), ``timings`` (JSON, ms per stage), ``wall_ms``/``cpu_ms`` of the verification,
    ``worker``, ``session_id`` and ``written`` (Unix time).
``consensus_keys``, ``consensus_groups``, ``consensus``
    Derived from ``results`` by the grouping pass (:mod:`verifier.audit.grouping`): each
    verified record's question key; each question with more than one candidate (question,
    size, number of clusters, undecided pairs, the clustering and its members as JSON); each
    such record's consensus evidence (JSON) and cluster.  Emptied with the results; stores
    written before they existed get them when opened for writing.

Results are written in batched transactions with ``INSERT OR IGNORE``: a record is either
fully stored or absent, and storing it again is a no-op, so a resume after any interruption
neither loses nor duplicates records.
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
import socket
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

from verifier.audit.records import Result

__all__ = ["AuditStore", "StoreError", "StoreBusy", "count_results", "LogRow", "SessionRow", "SCHEMA_VERSION",
           "RESULT_COLUMNS", "CONSENSUS_TABLES"]

log = logging.getLogger(__name__)

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT);
CREATE TABLE IF NOT EXISTS logs (
    log_id INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE,
    format TEXT NOT NULL,
    field_map TEXT NOT NULL,
    size INTEGER, mtime REAL, sha256 TEXT,
    records_total INTEGER, lines_total INTEGER, blank_lines INTEGER,
    complete INTEGER NOT NULL DEFAULT 0,
    added REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
    session_id INTEGER PRIMARY KEY,
    started REAL NOT NULL,
    finished REAL,
    status TEXT NOT NULL,
    engine TEXT, workers INTEGER, host TEXT, pid INTEGER, argv TEXT,
    verifier_version TEXT, axioms_sha256 TEXT, config_sha256 TEXT, identity TEXT,
    records_written INTEGER NOT NULL DEFAULT 0,
    duplicates_ignored INTEGER NOT NULL DEFAULT 0,
    notes TEXT
);
CREATE TABLE IF NOT EXISTS results (
    log_id INTEGER NOT NULL REFERENCES logs(log_id),
    line INTEGER NOT NULL,
    record_id TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    status TEXT NOT NULL,
    question TEXT,
    sparql TEXT,
    fields TEXT NOT NULL,
    decision TEXT,
    score REAL,
    verdict TEXT,
    explanation TEXT,
    error TEXT,
    error_kind TEXT,
    reason TEXT,
    reason_kinds TEXT,
    unsupported TEXT,
    verdict_json TEXT,
    timings TEXT,
    wall_ms REAL,
    cpu_ms REAL,
    worker TEXT,
    session_id INTEGER NOT NULL,
    written REAL NOT NULL,
    PRIMARY KEY (log_id, line)
);
CREATE INDEX IF NOT EXISTS results_status ON results(status, decision);
CREATE TABLE IF NOT EXISTS consensus_keys (
    log_id INTEGER NOT NULL,
    line INTEGER NOT NULL,
    group_key TEXT NOT NULL,
    PRIMARY KEY (log_id, line)
);
CREATE INDEX IF NOT EXISTS consensus_keys_group ON consensus_keys(group_key);
CREATE TABLE IF NOT EXISTS consensus_groups (
    group_key TEXT PRIMARY KEY,
    question TEXT,
    n INTEGER NOT NULL,
    n_clusters INTEGER NOT NULL,
    undecided INTEGER NOT NULL,
    clustering TEXT NOT NULL,
    members TEXT NOT NULL,
    written REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS consensus (
    log_id INTEGER NOT NULL,
    line INTEGER NOT NULL,
    group_key TEXT NOT NULL,
    cluster INTEGER NOT NULL,
    evidence TEXT NOT NULL,
    PRIMARY KEY (log_id, line)
);
CREATE INDEX IF NOT EXISTS consensus_group ON consensus(group_key);
"""

#: Tables derived from ``results`` by the grouping pass (:mod:`verifier.audit.grouping`).
CONSENSUS_TABLES = ("consensus", "consensus_groups", "consensus_keys")

#: Columns of ``results`` in table order (the export formats use this order).
RESULT_COLUMNS = ("log_id", "line", "record_id", "content_hash", "status", "question", "sparql",
                  "fields", "decision", "score", "verdict", "explanation", "error", "error_kind",
                  "reason", "reason_kinds", "unsupported", "verdict_json", "timings", "wall_ms",
                  "cpu_ms", "worker", "session_id", "written")

_INSERT = (f"INSERT OR IGNORE INTO results ({', '.join(RESULT_COLUMNS)}) "
           f"VALUES ({', '.join('?' for _ in RESULT_COLUMNS)})")


def count_results(path: str | Path, timeout: float = 10.0) -> int:
    """Number of results in a store, read without locking it (for progress checks while an
    audit writes); 0 when the file is missing or not yet a store."""
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=timeout)
        try:
            return db.execute("SELECT COUNT(*) FROM results").fetchone()[0]
        finally:
            db.close()
    except sqlite3.Error:
        return 0


class StoreError(RuntimeError):
    """The store cannot be used (not an audit store, newer schema ...)."""


class StoreBusy(StoreError):
    """Another process is auditing into the same store."""


@dataclass(frozen=True)
class LogRow:
    """A row of ``logs``."""

    log_id: int
    path: str
    format: str
    field_map: Mapping[str, Any]
    size: int | None
    mtime: float | None
    sha256: str | None
    records_total: int | None
    lines_total: int | None
    blank_lines: int | None
    complete: bool


@dataclass(frozen=True)
class SessionRow:
    """A row of ``sessions``."""

    session_id: int
    started: float
    finished: float | None
    status: str
    engine: str | None
    workers: int | None
    verifier_version: str | None
    axioms_sha256: str | None
    config_sha256: str | None
    identity: Mapping[str, Any]
    records_written: int
    duplicates_ignored: int
    notes: str | None


def _dumps(v: Any) -> str:
    return json.dumps(v, ensure_ascii=False, separators=(",", ":"), default=str)


class AuditStore:
    """An audit store (see the module documentation).

    ``AuditStore(path)`` opens or creates the file; ``lock()`` takes the single-writer lock
    (released automatically when the process dies).  Use as a
    context manager or call :meth:`close`.
    """

    def __init__(self, path: str | Path, *, create: bool = True) -> None:
        self.path = Path(path)
        if not create and not self.path.exists():
            raise StoreError(f"{self.path}: no such audit store")
        if create:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self.db = sqlite3.connect(str(self.path), timeout=60, isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.execute("PRAGMA busy_timeout=60000")
            tables = {r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if tables and "results" not in tables:
                raise StoreError(f"{self.path}: an SQLite file, but not an audit store")
            if create:
                self.db.executescript(_SCHEMA)
                self.db.execute("INSERT OR IGNORE INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
                self.db.execute("INSERT OR IGNORE INTO meta VALUES ('created', ?)", (str(time.time()),))
            version = self.meta("schema_version")
            if version is not None and int(version) > SCHEMA_VERSION:
                raise StoreError(f"{self.path}: schema version {version} is newer than this "
                                 f"verifier's ({SCHEMA_VERSION}); upgrade sparql-verifier")
        except sqlite3.DatabaseError as e:
            raise StoreError(f"{self.path}: not a usable audit store ({e})") from None
        self._lock_fd: int | None = None

    # -- lifecycle -------------------------------------------------------------------------
    def __enter__(self) -> "AuditStore":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the database, then release the lock."""
        self.db.close()
        if self._lock_fd is not None:
            os.close(self._lock_fd)  # after SQLite's own descriptor: its POSIX locks are untouched
            self._lock_fd = None

    def lock(self) -> None:
        """Take the single-writer lock (``flock`` on the store file, released when the process
        dies); raises :class:`StoreBusy` when another process holds it."""
        fd = os.open(self.path, os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise StoreBusy(f"{self.path}: another audit is writing to this store") from None
        self._lock_fd = fd

    # -- meta, logs, sessions --------------------------------------------------------------
    def meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT v FROM meta WHERE k = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def logs(self) -> list[LogRow]:
        """Every registered log, by ``log_id``."""
        rows = self.db.execute(
            "SELECT log_id, path, format, field_map, size, mtime, sha256, records_total, lines_total, "
            "blank_lines, complete FROM logs ORDER BY log_id").fetchall()
        return [LogRow(r[0], r[1], r[2], json.loads(r[3]), r[4], r[5], r[6], r[7], r[8], r[9], bool(r[10]))
                for r in rows]

    def add_log(self, path: str, fmt: str, field_map: Mapping[str, Any], size: int, mtime: float,
                sha256: str) -> int:
        """Register a log; returns its ``log_id``."""
        cur = self.db.execute(
            "INSERT INTO logs (path, format, field_map, size, mtime, sha256, added) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (path, fmt, _dumps(dict(field_map)), size, mtime, sha256, time.time()))
        return int(cur.lastrowid)

    def update_log(self, log_id: int, **values: Any) -> None:
        """Set columns of a ``logs`` row (``size``, ``sha256``, ``complete`` ...)."""
        allowed = {"size", "mtime", "sha256", "records_total", "lines_total", "blank_lines", "complete"}
        bad = set(values) - allowed
        if bad:
            raise ValueError(f"not a logs column: {', '.join(sorted(bad))}")
        sets = ", ".join(f"{k} = ?" for k in values)
        self.db.execute(f"UPDATE logs SET {sets} WHERE log_id = ?", (*values.values(), log_id))

    def start_session(self, identity: Mapping[str, Any], *, engine: str, workers: int,
                      argv: Sequence[str] = ()) -> int:
        """Open a session row (marking sessions left ``running`` by a dead process ``killed``)."""
        self.db.execute("UPDATE sessions SET status = 'killed' WHERE status = 'running'")
        cur = self.db.execute(
            "INSERT INTO sessions (started, status, engine, workers, host, pid, argv, verifier_version, "
            "axioms_sha256, config_sha256, identity) VALUES (?, 'running', ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (time.time(), engine, workers, socket.gethostname(), os.getpid(), _dumps(list(argv)),
             identity.get("verifier_version"), identity.get("axioms_sha256"),
             identity.get("config_sha256"), _dumps(dict(identity))))
        return int(cur.lastrowid)

    def end_session(self, session_id: int, status: str, notes: str | None = None) -> None:
        """Close a session with its final status."""
        self.db.execute("UPDATE sessions SET status = ?, finished = ?, notes = COALESCE(?, notes) "
                        "WHERE session_id = ?", (status, time.time(), notes, session_id))

    def sessions(self) -> list[SessionRow]:
        """Every session, oldest first."""
        rows = self.db.execute(
            "SELECT session_id, started, finished, status, engine, workers, verifier_version, axioms_sha256, "
            "config_sha256, identity, records_written, duplicates_ignored, notes FROM sessions "
            "ORDER BY session_id").fetchall()
        return [SessionRow(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8],
                           json.loads(r[9]) if r[9] else {}, r[10], r[11], r[12]) for r in rows]

    # -- results ---------------------------------------------------------------------------
    def write(self, results: Sequence[Result], session_id: int) -> tuple[int, int]:
        """Store results in one transaction; returns ``(written, ignored)`` where ``ignored``
        counts results whose ``(log_id, line)`` was already stored."""
        if not results:
            return 0, 0
        now = time.time()
        rows = [self._row(r, session_id, now) for r in results]
        self.db.execute("BEGIN IMMEDIATE")
        try:
            before = self.db.total_changes
            self.db.executemany(_INSERT, rows)
            written = self.db.total_changes - before
            ignored = len(rows) - written
            self.db.execute("UPDATE sessions SET records_written = records_written + ?, "
                            "duplicates_ignored = duplicates_ignored + ? WHERE session_id = ?",
                            (written, ignored, session_id))
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        if ignored:
            log.warning("%d result(s) were already stored and were ignored", ignored)
        return written, ignored

    @staticmethod
    def _row(r: Result, session_id: int, now: float) -> tuple:
        return (r.log_id, r.line, r.record_id, r.content_hash, r.status, r.question, r.sparql,
                _dumps(dict(r.fields)), r.decision, r.score, r.verdict, r.explanation, r.error,
                r.error_kind, r.reason, _dumps(list(r.reason_kinds)),
                _dumps([list(u) for u in r.unsupported]),
                _dumps(r.verdict_json) if r.verdict_json is not None else None,
                _dumps(dict(r.timings)), r.wall_ms, r.cpu_ms, r.worker, session_id, now)

    def stored_lines(self, log_id: int, page: int = 20000) -> Iterator[tuple[int, str]]:
        """``(line, content_hash)`` of the stored results of a log, by line number, read in
        short pages (no long read transaction holds back WAL checkpoints)."""
        last = -1
        while True:
            rows = self.db.execute(
                "SELECT line, content_hash FROM results WHERE log_id = ? AND line > ? ORDER BY line LIMIT ?",
                (log_id, last, page)).fetchall()
            if not rows:
                return
            yield from rows
            last = rows[-1][0]

    def count(self, log_id: int | None = None) -> int:
        """Number of stored results (of one log)."""
        if log_id is None:
            return int(self.db.execute("SELECT COUNT(*) FROM results").fetchone()[0])
        return int(self.db.execute("SELECT COUNT(*) FROM results WHERE log_id = ?", (log_id,)).fetchone()[0])

    def iter_rows(self, columns: Sequence[str] = RESULT_COLUMNS, *, where: str = "",
                  params: Sequence[Any] = (), order: str = "log_id, line",
                  page: int = 5000) -> Iterator[dict[str, Any]]:
        """Result rows as dicts (JSON columns left as text), streamed in pages by key."""
        bad = [c for c in columns if c not in RESULT_COLUMNS]
        if bad:
            raise ValueError(f"not a results column: {', '.join(bad)}")
        cols = ", ".join(columns)
        if order != "log_id, line":
            sql = f"SELECT {cols} FROM results {('WHERE ' + where) if where else ''} ORDER BY {order}"
            cur = self.db.execute(sql, tuple(params))
            for row in cur:
                yield dict(zip(columns, row))
            return
        key = (-1, -1)
        cond = f"({where}) AND " if where else ""
        sel = f"SELECT log_id, line, {cols} FROM results WHERE {cond}(log_id > ? OR (log_id = ? AND line > ?)) " \
              f"ORDER BY log_id, line LIMIT ?"
        while True:
            rows = self.db.execute(sel, (*params, key[0], key[0], key[1], page)).fetchall()
            if not rows:
                return
            for row in rows:
                yield dict(zip(columns, row[2:]))
            key = (rows[-1][0], rows[-1][1])

    def has_table(self, name: str) -> bool:
        """Whether the store has a table (stores written before a table existed lack it)."""
        return self.db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                               (name,)).fetchone() is not None

    def consensus(self, log_id: int, line: int) -> dict[str, Any] | None:
        """The consensus evidence of a record (:mod:`verifier.audit.grouping`), or ``None``."""
        if not self.has_table("consensus"):
            return None
        row = self.db.execute("SELECT evidence FROM consensus WHERE log_id = ? AND line = ?",
                              (log_id, line)).fetchone()
        return json.loads(row[0]) if row else None

    def delete_results(self, log_id: int | None = None) -> int:
        """Delete stored results (of one log); returns how many.  The tables derived from
        them (:data:`CONSENSUS_TABLES`) are emptied too."""
        for t in CONSENSUS_TABLES:
            if self.has_table(t):
                self.db.execute(f"DELETE FROM {t}")
        if log_id is None:
            cur = self.db.execute("DELETE FROM results")
        else:
            cur = self.db.execute("DELETE FROM results WHERE log_id = ?", (log_id,))
        return cur.rowcount
