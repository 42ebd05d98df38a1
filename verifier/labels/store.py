"""The label store: English labels, aliases and descriptions of KG ids in one SQLite file.

Tables (schema version 1):

``entities``
    One row per id: ``kind`` (item / property / class), the English ``label``, ``aliases``
    (JSON list) and ``description`` as the source gave them, ``source`` (``tsv:FILE``,
    ``dump:FILE``, ``api:URL``, ``sparql:URL``) and ``fetched_at`` (Unix time of the import or
    fetch).
``names``
    The names a :class:`~verifier.lexical.LabelIndex` indexes for each id, derived by the
    same code (:func:`verifier.lexical.name_entries`: alias expansions, shapes, matching
    keys); ``nid`` follows the order of insertion, which is the order of the in-memory index.
``keys``
    ``(key, nid)``: the matching-key index, so that a look-up by key reads only that key's
    names, in insertion order.
``initials``
    ``(letters, id)``: the acronyms of the names (:func:`verifier.lexical.initials`).
``missing``
    Ids a source said do not exist (or have no English name), with when it was asked:
    they are not asked again before the retry time has passed.
``imports``
    One row per imported file: its size and modification time, the lines committed so far
    (an interrupted import resumes there) and when it finished.
``meta``
    Schema version, the number of ids with names, and a generation counter bumped by
    imports (what an audit's run identity records).

Writes replace: storing an id again removes its old names first, so re-importing a file
is idempotent.  Each thread reads through its own connection (WAL mode: readers never wait
for the writer); writes are single transactions (``BEGIN IMMEDIATE``), safe across threads
and processes.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from verifier.lexical import NameEntry, initials, name_entries
from verifier.pgmr.symbols import Kind, Symbol

__all__ = ["LabelStore", "LabelStoreError", "StoredEntity", "StoreStats", "PutCounts",
           "ImportState", "SCHEMA_VERSION", "is_label_store"]

log = logging.getLogger(__name__)

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT);
CREATE TABLE IF NOT EXISTS entities (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    label TEXT NOT NULL,
    aliases TEXT NOT NULL,
    description TEXT NOT NULL,
    source TEXT NOT NULL,
    fetched_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS names (
    nid INTEGER PRIMARY KEY,
    id TEXT NOT NULL,
    name TEXT NOT NULL,
    keys TEXT NOT NULL,
    shape TEXT NOT NULL,
    is_label INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS names_id ON names(id, nid);
CREATE TABLE IF NOT EXISTS keys (key TEXT NOT NULL, nid INTEGER NOT NULL,
                                 PRIMARY KEY (key, nid)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS initials (letters TEXT NOT NULL, id TEXT NOT NULL,
                                     PRIMARY KEY (letters, id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS missing (id TEXT PRIMARY KEY, checked_at REAL NOT NULL,
                                    source TEXT NOT NULL, reason TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS imports (
    source TEXT PRIMARY KEY,
    size INTEGER NOT NULL,
    mtime REAL NOT NULL,
    format TEXT NOT NULL,
    lines_done INTEGER NOT NULL,
    counts TEXT NOT NULL,
    started REAL NOT NULL,
    finished REAL
);
"""

_SQLITE_MAGIC = b"SQLite format 3\x00"
#: SQLite caps the number of ``?`` of one statement; batches of ids stay below it.
_IN_CHUNK = 500


def is_label_store(path: str | Path) -> bool:
    """Whether ``path`` is an SQLite file (a label store, as opposed to a labels TSV)."""
    try:
        with open(path, "rb") as f:
            return f.read(16) == _SQLITE_MAGIC
    except OSError:
        return False


class LabelStoreError(RuntimeError):
    """The file cannot be used as a label store (another SQLite file, a newer schema ...)."""


@dataclass(frozen=True)
class StoredEntity:
    """A row of ``entities``: an id as its source named it."""

    id: str
    kind: str
    label: str
    aliases: tuple[str, ...]
    description: str
    source: str
    fetched_at: float

    def symbol(self) -> Symbol:
        """The entity as a :class:`~verifier.pgmr.symbols.Symbol` (what the TSV reader gives)."""
        return Symbol(self.id, self.label, Kind(self.kind), self.aliases, self.description)


@dataclass(frozen=True)
class StoreStats:
    """Sizes of a store: ids (and those with names), names, missing ids, ids per source,
    imported files, the file size in bytes."""

    path: str
    entities: int
    named: int
    names: int
    missing: int
    sources: Mapping[str, int]
    imports: tuple[Mapping[str, Any], ...]
    size_bytes: int

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "entities": self.entities, "named": self.named,
                "names": self.names, "missing": self.missing, "sources": dict(self.sources),
                "imports": [dict(i) for i in self.imports], "size_bytes": self.size_bytes}


@dataclass
class PutCounts:
    """What :meth:`LabelStore.put` did: ids stored (new), replaced, and the matching keys and
    acronyms they touched (readers drop those from their caches)."""

    stored: int = 0
    replaced: int = 0
    keys: set[str] = field(default_factory=set)
    letters: set[str] = field(default_factory=set)


@dataclass(frozen=True)
class ImportState:
    """A row of ``imports``: how far the import of one file got."""

    source: str
    size: int
    mtime: float
    format: str
    lines_done: int
    counts: Mapping[str, Any]
    started: float
    finished: float | None


def _kind_text(kind: Any) -> str:
    return getattr(kind, "value", str(kind))


def _chunks(seq: Sequence[str], n: int = _IN_CHUNK) -> Iterator[Sequence[str]]:
    for i in range(0, len(seq), n):
        yield seq[i:i + n]


class LabelStore:
    """An SQLite label store (see the module documentation).

    ``LabelStore(path)`` opens or creates the file (``create=False``: it must exist).  Safe to
    share between threads: each thread gets its own connection.  Picklable (a copy reopens
    the file), so worker processes can receive one.
    """

    def __init__(self, path: str | Path, *, create: bool = True) -> None:
        self.path = Path(path)
        self._create = create
        if not create and not self.path.is_file():
            raise LabelStoreError(f"{self.path}: no such label store")
        self._local = threading.local()
        self._conns: list[sqlite3.Connection] = []
        self._conns_lock = threading.Lock()
        db = self._db()  # checks the file now, in the caller's thread
        if create and self.writable:
            db.executescript(_SCHEMA)
            db.execute("INSERT OR IGNORE INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
            db.execute("INSERT OR IGNORE INTO meta VALUES ('named', '0')")
            db.execute("INSERT OR IGNORE INTO meta VALUES ('generation', '0')")
        version = self.meta("schema_version")
        if version is None:
            raise LabelStoreError(f"{self.path}: an SQLite file, but not a label store")
        if int(version) > SCHEMA_VERSION:
            raise LabelStoreError(f"{self.path}: label store schema {version} is newer than this "
                                  f"verifier's ({SCHEMA_VERSION}); upgrade sparql-verifier")

    # -- connections -------------------------------------------------------------------------
    def _db(self) -> sqlite3.Connection:
        db = getattr(self._local, "db", None)
        if db is not None:
            return db
        if self._create:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        # a store the user cannot write (shared read-only) is read as an immutable file
        readonly = not self.writable
        try:
            # one connection per thread, never used by another (check_same_thread=False only
            # so that close() can close them all)
            target = f"file:{self.path}?mode=ro&immutable=1" if readonly else str(self.path)
            db = sqlite3.connect(target, timeout=60, isolation_level=None, check_same_thread=False,
                                 uri=readonly)
            db.execute("PRAGMA busy_timeout=60000")
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if "entities" not in tables and (tables or not self._create or readonly):
                db.close()
                raise LabelStoreError(f"{self.path}: an SQLite file, but not a label store")
            if not readonly:
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=NORMAL")
            db.execute("PRAGMA cache_size=-32768")
        except sqlite3.DatabaseError as e:
            raise LabelStoreError(f"{self.path}: not a usable label store ({e})") from None
        self._local.db = db
        with self._conns_lock:
            self._conns.append(db)
        return db

    def close(self) -> None:
        """Close every thread's connection (the store reopens on the next use)."""
        with self._conns_lock:
            conns, self._conns = self._conns, []
        for db in conns:
            try:
                db.close()
            except sqlite3.Error:
                pass
        self._local = threading.local()

    def __enter__(self) -> "LabelStore":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __getstate__(self) -> dict[str, Any]:
        return {"path": str(self.path)}

    def __setstate__(self, state: Mapping[str, Any]) -> None:
        self.__init__(state["path"], create=False)  # type: ignore[misc]

    @property
    def writable(self) -> bool:
        """Whether the store can be written (else it is read as an immutable file)."""
        return not self.path.exists() or (os.access(self.path, os.W_OK) and os.access(self.path.parent, os.W_OK))

    # -- meta --------------------------------------------------------------------------------
    def meta(self, key: str) -> str | None:
        """A ``meta`` value."""
        row = self._db().execute("SELECT v FROM meta WHERE k = ?", (key,)).fetchone()
        return row[0] if row else None

    def identity(self) -> dict[str, Any]:
        """What verdicts depend on: the path and the import generation (bumped by every import,
        not by fetches of ids that were absent)."""
        return {"path": str(self.path.resolve()), "generation": int(self.meta("generation") or 0)}

    def bump_generation(self) -> None:
        """Record that imported data changed (see :meth:`identity`)."""
        self._db().execute("UPDATE meta SET v = CAST(v AS INTEGER) + 1 WHERE k = 'generation'")

    # -- writes ------------------------------------------------------------------------------
    def put(self, symbols: Iterable[Symbol], source: str, *, when: float | None = None,
            checkpoint: Callable[[PutCounts], ImportState] | None = None) -> PutCounts:
        """Store ``symbols`` in one transaction, replacing ids already there (their old names
        go first) and clearing them from ``missing``; ``checkpoint(counts)`` gives an
        import's progress, recorded in the same transaction."""
        syms = list(symbols)
        now = time.time() if when is None else when
        out = PutCounts()
        db = self._db()
        db.execute("BEGIN IMMEDIATE")
        try:
            old: set[str] = set()
            named_before: set[str] = set()
            ids = list(dict.fromkeys(s.id for s in syms))
            for part in _chunks(ids):
                marks = ",".join("?" * len(part))
                old.update(r[0] for r in db.execute(f"SELECT id FROM entities WHERE id IN ({marks})", part))
            if old:
                named_before = self._drop_names(db, sorted(old), out)
            nid = db.execute("SELECT COALESCE(MAX(nid), 0) FROM names").fetchone()[0]
            ent_rows, name_rows, key_rows, letter_rows = [], [], [], []
            named_after: set[str] = set()
            for s in syms:
                kind = _kind_text(s.kind)
                if s.id in named_after:  # the same id twice in one batch: the last one wins
                    self._forget_pending(s.id, name_rows, key_rows, letter_rows)
                    named_after.discard(s.id)
                ent_rows.append((s.id, kind, s.label, json.dumps(list(s.aliases), ensure_ascii=False),
                                 s.description, source, now))
                for e in name_entries(s.id, s.names, kind):
                    nid += 1
                    name_rows.append((nid, s.id, e.name, " ".join(e.keys), e.shape, int(e.is_label)))
                    key_rows.extend((k, nid, s.id) for k in set(e.keys))
                    a = initials(e.name)
                    if a:
                        letter_rows.append((a, s.id))
                    named_after.add(s.id)
            db.executemany("INSERT OR REPLACE INTO entities VALUES (?, ?, ?, ?, ?, ?, ?)", ent_rows)
            db.executemany("INSERT INTO names VALUES (?, ?, ?, ?, ?, ?)", name_rows)
            db.executemany("INSERT OR IGNORE INTO keys VALUES (?, ?)", [(k, n) for k, n, _ in key_rows])
            db.executemany("INSERT OR IGNORE INTO initials VALUES (?, ?)", letter_rows)
            for part in _chunks(ids):
                marks = ",".join("?" * len(part))
                db.execute(f"DELETE FROM missing WHERE id IN ({marks})", part)
            delta = len(named_after) - len(named_before)
            if delta:
                db.execute("UPDATE meta SET v = CAST(v AS INTEGER) + ? WHERE k = 'named'", (delta,))
            out.replaced = len(old)
            out.stored = len(ids) - len(old)
            out.keys.update(k for k, _, _ in key_rows)
            out.letters.update(a for a, _ in letter_rows)
            if checkpoint is not None:
                self._write_import(db, checkpoint(out))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        return out

    @staticmethod
    def _forget_pending(sid: str, name_rows: list, key_rows: list, letter_rows: list) -> None:
        nids = {r[0] for r in name_rows if r[1] == sid}
        name_rows[:] = [r for r in name_rows if r[1] != sid]
        key_rows[:] = [r for r in key_rows if r[1] not in nids]
        letter_rows[:] = [r for r in letter_rows if r[1] != sid]

    @staticmethod
    def _drop_names(db: sqlite3.Connection, ids: Sequence[str], out: PutCounts) -> set[str]:
        """Remove the names, keys and acronyms of ``ids``; returns those that had names."""
        had: set[str] = set()
        for part in _chunks(ids):
            marks = ",".join("?" * len(part))
            rows = db.execute(f"SELECT nid, id, name, keys FROM names WHERE id IN ({marks})", part).fetchall()
            db.executemany("DELETE FROM keys WHERE key = ? AND nid = ?",
                           [(k, nid) for nid, _, _, keys in rows for k in set(keys.split(" "))])
            letters = [(initials(name), sid) for _, sid, name, _ in rows]
            db.executemany("DELETE FROM initials WHERE letters = ? AND id = ?", [x for x in letters if x[0]])
            db.execute(f"DELETE FROM names WHERE id IN ({marks})", part)
            had.update(sid for _, sid, _, _ in rows)
            out.keys.update(k for _, _, _, keys in rows for k in keys.split(" "))
            out.letters.update(a for a, _ in letters if a)
        return had

    def mark_missing(self, ids: Iterable[str], source: str, reason: str = "missing", *,
                     when: float | None = None) -> int:
        """Record ids that ``source`` does not know (not asked again for a while); ids that
        are stored are left alone."""
        now = time.time() if when is None else when
        rows = [(i, now, source, reason) for i in dict.fromkeys(ids)]
        if not rows:
            return 0
        db = self._db()
        db.execute("BEGIN IMMEDIATE")
        try:
            db.executemany("INSERT OR REPLACE INTO missing SELECT ?, ?, ?, ? "
                           "WHERE NOT EXISTS (SELECT 1 FROM entities WHERE id = ?1)", rows)
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        return len(rows)

    # -- imports -----------------------------------------------------------------------------
    @staticmethod
    def _write_import(db: sqlite3.Connection, st: ImportState) -> None:
        db.execute("INSERT OR REPLACE INTO imports VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                   (st.source, st.size, st.mtime, st.format, st.lines_done,
                    json.dumps(dict(st.counts)), st.started, st.finished))

    def record_import(self, state: ImportState) -> None:
        """Write an ``imports`` row on its own (start and end of an import)."""
        self._write_import(self._db(), state)

    def import_state(self, source: str) -> ImportState | None:
        """The ``imports`` row of a file, if it was imported (or started) before."""
        r = self._db().execute("SELECT * FROM imports WHERE source = ?", (source,)).fetchone()
        if r is None:
            return None
        return ImportState(r[0], r[1], r[2], r[3], r[4], json.loads(r[5]), r[6], r[7])

    # -- reads -------------------------------------------------------------------------------
    def entity(self, sid: str) -> StoredEntity | None:
        """The stored row of an id, or None."""
        r = self._db().execute("SELECT id, kind, label, aliases, description, source, fetched_at "
                               "FROM entities WHERE id = ?", (sid,)).fetchone()
        if r is None:
            return None
        return StoredEntity(r[0], r[1], r[2], tuple(json.loads(r[3])), r[4], r[5], r[6])

    def entries(self, sid: str) -> list[NameEntry]:
        """The indexed names of an id, in insertion order (``LabelIndex.names[sid]``)."""
        rows = self._db().execute("SELECT name, keys, shape, is_label FROM names WHERE id = ? ORDER BY nid",
                                  (sid,))
        return [NameEntry(sid, n, tuple(k.split(" ")), shape, bool(lab)) for n, k, shape, lab in rows]

    def key_entries(self, key: str, limit: int | None = None) -> list[tuple[NameEntry, str]]:
        """The names with matching key ``key`` in insertion order (``LabelIndex.by_key[key]``),
        each with its id's kind; at most ``limit``."""
        sql = ("SELECT n.id, n.name, n.keys, n.shape, n.is_label, e.kind FROM keys k "
               "JOIN names n ON n.nid = k.nid JOIN entities e ON e.id = n.id "
               "WHERE k.key = ? ORDER BY k.nid")
        args: tuple = (key,)
        if limit is not None:
            sql += " LIMIT ?"
            args = (key, limit)
        return [(NameEntry(sid, n, tuple(k.split(" ")), shape, bool(lab)), kind)
                for sid, n, k, shape, lab, kind in self._db().execute(sql, args)]

    def key_count(self, key: str) -> int:
        """How many names have matching key ``key``."""
        return self._db().execute("SELECT COUNT(*) FROM keys WHERE key = ?", (key,)).fetchone()[0]

    def has_key(self, key: str) -> bool:
        """Whether some name has matching key ``key``."""
        return self._db().execute("SELECT 1 FROM keys WHERE key = ? LIMIT 1", (key,)).fetchone() is not None

    def initials_bearers(self, letters: str) -> set[str]:
        """Ids one of whose names has the acronym ``letters``."""
        return {r[0] for r in self._db().execute("SELECT id FROM initials WHERE letters = ?", (letters,))}

    def kinds_of(self, ids: Iterable[str]) -> dict[str, str]:
        """The kinds of the stored ids among ``ids``."""
        out: dict[str, str] = {}
        for part in _chunks(list(dict.fromkeys(ids))):
            marks = ",".join("?" * len(part))
            out.update(self._db().execute(f"SELECT id, kind FROM entities WHERE id IN ({marks})", part))
        return out

    def known(self, ids: Iterable[str], *, missing_since: float | None = None) -> tuple[set[str], set[str]]:
        """``(stored, recorded missing)`` among ``ids``; a missing record older than
        ``missing_since`` (Unix time) does not count."""
        stored: set[str] = set()
        missing: set[str] = set()
        db = self._db()
        for part in _chunks(list(dict.fromkeys(ids))):
            marks = ",".join("?" * len(part))
            stored.update(r[0] for r in db.execute(f"SELECT id FROM entities WHERE id IN ({marks})", part))
            rows = db.execute(f"SELECT id, checked_at FROM missing WHERE id IN ({marks})", part)
            missing.update(i for i, t in rows if missing_since is None or t >= missing_since)
        return stored, missing - stored

    def named_count(self) -> int:
        """How many ids have at least one indexed name (``len(LabelIndex)``)."""
        return int(self.meta("named") or 0)

    def iter_ids(self) -> Iterator[str]:
        """Every id with names, in id order (streamed)."""
        cur = self._db().execute("SELECT DISTINCT id FROM names ORDER BY id")
        for (sid,) in cur:
            yield sid

    def iter_keys(self) -> Iterator[str]:
        """Every matching key, in order (streamed)."""
        for (k,) in self._db().execute("SELECT DISTINCT key FROM keys ORDER BY key"):
            yield k

    def symbols(self) -> Iterator[Symbol]:
        """Every stored id as a :class:`~verifier.pgmr.symbols.Symbol` (streamed, in id
        order): what a PGMR memory or a labels TSV export is built from."""
        cur = self._db().execute("SELECT id, kind, label, aliases, description FROM entities ORDER BY id")
        for sid, kind, label, aliases, desc in cur:
            yield Symbol(sid, label, Kind(kind), tuple(json.loads(aliases)), desc)

    def stats(self) -> StoreStats:
        """Sizes of the store (counts rows: seconds on a store of many millions of ids)."""
        db = self._db()
        count = lambda sql: db.execute(sql).fetchone()[0]  # noqa: E731
        sources: dict[str, int] = dict(db.execute("SELECT source, COUNT(*) FROM entities GROUP BY source"))
        imports = tuple({"source": r[0], "format": r[3], "lines_done": r[4], **json.loads(r[5]),
                         "finished": r[7]} for r in db.execute("SELECT * FROM imports ORDER BY started"))
        size = sum(p.stat().st_size for p in (self.path, Path(f"{self.path}-wal")) if p.exists())
        return StoreStats(str(self.path), count("SELECT COUNT(*) FROM entities"), self.named_count(),
                          count("SELECT COUNT(*) FROM names"), count("SELECT COUNT(*) FROM missing"),
                          sources, imports, size)
