"""SQLite cache of signal outputs, one file per evaluation output folder.

Key: ``(dataset, item id, signal, signal config hash)``; each row also stores a hash of the
input (question + query), so a rebuilt dataset whose item changed is recomputed, and rows
with the same input under the same signal config are reused for other items.  Only complete
results are written, each batch in one transaction (WAL journal), so an interrupted run
leaves the cache consistent and the next run skips what is already there.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

__all__ = ["CachedResult", "ResultCache", "input_hash", "CACHE_FILE"]

CACHE_FILE = "cache.sqlite"
_SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    dataset TEXT NOT NULL, item_id TEXT NOT NULL, signal TEXT NOT NULL,
    config_hash TEXT NOT NULL, input_hash TEXT NOT NULL, decision TEXT NOT NULL,
    score REAL NOT NULL, details TEXT NOT NULL, error TEXT, seconds REAL,
    PRIMARY KEY (dataset, item_id, signal, config_hash));
CREATE INDEX IF NOT EXISTS results_by_input ON results (signal, config_hash, input_hash);
"""


def input_hash(question: str, sparql: str | None, model: str | None = None) -> str:
    """16 hex digits of the (question, query) input; ``model`` (the query's provenance, for
    a signal that reads it) is part of the input when given."""
    text = f"{question}\x00{sparql or ''}" + (f"\x00model:{model}" if model is not None else "")
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class CachedResult:
    """One stored signal output."""

    item_id: str
    input_hash: str
    decision: str
    score: float
    details: Mapping[str, Any]
    error: str | None = None
    seconds: float | None = None


class ResultCache:
    """The cache file (created on first use).  Use as a context manager or call
    :meth:`close`."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(self.path), timeout=60)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)
        self._db.commit()

    def __enter__(self) -> "ResultCache":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Commit and close."""
        if self._db is not None:
            self._db.commit()
            self._db.close()
            self._db = None  # type: ignore[assignment]

    def get_many(self, dataset: str, signal: str, config: str,
                 items: Sequence[tuple[str, str]]) -> dict[str, CachedResult]:
        """Stored results for ``(item id, input hash)`` pairs: by key with a matching input,
        else any row of the same signal config with the same input (then copied under this
        key)."""
        out: dict[str, CachedResult] = {}
        rows = self._db.execute(
            "SELECT item_id, input_hash, decision, score, details, error, seconds FROM results "
            "WHERE dataset=? AND signal=? AND config_hash=?", (dataset, signal, config))
        stored = {r[0]: r for r in rows}
        missing: list[tuple[str, str]] = []
        for item, ih in items:
            r = stored.get(item)
            if r is not None and r[1] == ih:
                out[item] = _row(r)
            else:
                missing.append((item, ih))
        copies = []
        for item, ih in missing:
            r = self._db.execute(
                "SELECT item_id, input_hash, decision, score, details, error, seconds FROM "
                "results WHERE signal=? AND config_hash=? AND input_hash=? AND error IS NULL "
                "LIMIT 1", (signal, config, ih)).fetchone()
            if r is not None:
                res = _row(r)
                res = CachedResult(item, ih, res.decision, res.score, res.details, None,
                                   res.seconds)
                out[item] = res
                copies.append(res)
        if copies:
            self.put_many(dataset, signal, config, copies)
        return out

    def put_many(self, dataset: str, signal: str, config: str,
                 results: Iterable[CachedResult]) -> None:
        """Store complete results in one transaction."""
        with self._db:
            self._db.executemany(
                "INSERT OR REPLACE INTO results VALUES (?,?,?,?,?,?,?,?,?,?)",
                [(dataset, r.item_id, signal, config, r.input_hash, r.decision, float(r.score),
                  json.dumps(r.details, sort_keys=True, ensure_ascii=False), r.error, r.seconds)
                 for r in results])

    def count(self, dataset: str | None = None, signal: str | None = None) -> int:
        """Rows stored (optionally for one dataset / signal)."""
        q, args = "SELECT COUNT(*) FROM results WHERE 1=1", []
        if dataset is not None:
            q, args = q + " AND dataset=?", args + [dataset]
        if signal is not None:
            q, args = q + " AND signal=?", args + [signal]
        return int(self._db.execute(q, args).fetchone()[0])

    def delete_errors(self, dataset: str, signal: str, config: str) -> int:
        """Drop stored error results (so they are retried); returns how many."""
        with self._db:
            cur = self._db.execute("DELETE FROM results WHERE dataset=? AND signal=? AND "
                                   "config_hash=? AND error IS NOT NULL", (dataset, signal, config))
        return cur.rowcount


def _row(r: tuple) -> CachedResult:
    return CachedResult(r[0], r[1], r[2], float(r[3]), json.loads(r[4]), r[5], r[6])
