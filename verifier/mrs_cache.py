"""Where the MRS readings of a question come from: a SQLite cache, corpus files, ACE.

* :class:`MrsCache` is a SQLite store keyed by the normalised question text and the
  grammar identity, holding all readings of a parse (plus which root pass produced them,
  the error messages and the parse time).
* :func:`read_corpus` / :func:`write_corpus` read and write the corpus format of
  ``shared/data/mrs/*.jsonl.gz`` (one JSON object per line: ``question``, ``readings``,
  ``roots``, ``error``, ``seconds``); :class:`MrsCorpus` holds such files in memory.
* :class:`MrsProvider` is what the verifier calls: :meth:`MrsProvider.lookup` answers from
  the corpora, then the cache, then ACE (storing what ACE returns), and otherwise says
  clearly that no parser is available.  :meth:`MrsProvider.readings` is the short form
  (a list of SimpleMRS strings, ``None`` when the question is unknown), the ``MrsSource``
  protocol of :mod:`verifier.api`.

Every reading carries the identity of the grammar that produced it
(:attr:`ReadingsResult.grammar`: :data:`CORPUS_GRAMMAR` for the shared corpus, the image's
:func:`grammar_identity` for ACE) and its family (:attr:`ReadingsResult.family`,
:func:`grammar_family`: ``erg-standin``, ``erg`` or ``unknown``).  The cache also keeps,
per identity, what is known of the image (header version, family, SHA-256, path:
:meth:`MrsCache.grammar_record`).

Question keys are normalised by :func:`normalize_question`: every run of whitespace
(including the tabs and line breaks that the corpus replaced by spaces before parsing)
becomes one space, and the ends are stripped.
"""

from __future__ import annotations

import gzip
import json
import logging
import sqlite3
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Iterable, Iterator, Sequence

from parsers.ace import AceConfig, LazyAce
from parsers.ace_grammar import grammar_family, grammar_identity

__all__ = [
    "normalize_question", "ParseRecord", "ReadingsResult", "MrsCache", "MrsCorpus",
    "MrsProvider", "read_corpus", "write_corpus", "grammar_identity", "grammar_family",
    "CORPUS_GRAMMAR", "CorpusFormatError",
]

log = logging.getLogger(__name__)

#: Grammar identity recorded for imported corpus files (the shared corpus was parsed with
#: ACE 0.9.34, ERG 2025 rules and the 2007 lexicon; see shared/data/mrs/README.md).
CORPUS_GRAMMAR = "corpus:ace-0.9.34:erg-2025-rules+2007-lexicon"


class CorpusFormatError(ValueError):
    """A corpus file could not be read at all (bad lines are skipped and logged)."""


def normalize_question(text: str) -> str:
    """The lookup key of a question: whitespace runs (tabs, line breaks) collapsed to one
    space, ends stripped.  Case and punctuation are kept (the ERG is sensitive to both)."""
    return " ".join(str(text).split())


@dataclass(frozen=True, slots=True)
class ParseRecord:
    """All readings of one question under one grammar."""

    question: str
    readings: tuple[str, ...]
    roots: str | None = None
    error: str | None = None
    seconds: float | None = None
    grammar: str = CORPUS_GRAMMAR

    @property
    def key(self) -> str:
        return normalize_question(self.question)

    def to_json(self) -> dict[str, Any]:
        """The corpus-file object of this record."""
        return {"question": self.question, "readings": list(self.readings), "roots": self.roots,
                "error": self.error, "seconds": self.seconds}


@dataclass(frozen=True, slots=True)
class ReadingsResult:
    """The answer of :meth:`MrsProvider.lookup`.

    ``status``: ``ok`` (readings found), ``no-parse`` (the parser ran and found none),
    ``no-parser`` (the question is unknown and no parser is configured), ``error`` (the
    parser failed: crash, timeout...).  ``source``: ``corpus``, ``cache``, ``ace`` or
    ``none``.  ``grammar``: identity of the grammar that produced the readings;
    ``family``: its :func:`grammar_family` (``erg-standin``, ``erg``, ``unknown``).
    """

    question: str
    readings: tuple[str, ...]
    status: str
    source: str
    message: str = ""
    grammar: str | None = None
    family: str = "unknown"

    @property
    def ok(self) -> bool:
        return self.status == "ok"


# --------------------------------------------------------------------------------------------
# Corpus files
# --------------------------------------------------------------------------------------------


def _open_text(path: str | Path, mode: str) -> IO[str]:
    p = str(path)
    if p == "-":
        return sys.stdin if "r" in mode else sys.stdout  # type: ignore[return-value]
    if p.endswith(".gz"):
        return gzip.open(p, mode + "t", encoding="utf-8")  # type: ignore[return-value]
    return open(p, mode, encoding="utf-8")


def _record_from(d: Any, grammar: str) -> ParseRecord | None:
    if not isinstance(d, dict):
        return None
    q = d.get("question")
    rs = d.get("readings")
    if not isinstance(q, str) or not isinstance(rs, list) or not all(isinstance(r, str) for r in rs):
        return None
    seconds = d.get("seconds")
    return ParseRecord(q, tuple(rs), d.get("roots") if isinstance(d.get("roots"), str) else None,
                       d.get("error") if isinstance(d.get("error"), str) else None,
                       float(seconds) if isinstance(seconds, (int, float)) else None, grammar)


def read_corpus(path: str | Path, *, grammar: str = CORPUS_GRAMMAR) -> Iterator[ParseRecord]:
    """Records of a corpus file (``.jsonl`` or ``.jsonl.gz``, ``-`` for stdin).

    Malformed lines are skipped with a warning; an unreadable file raises
    :class:`CorpusFormatError` (``FileNotFoundError`` when it does not exist).
    """
    bad = 0
    try:
        with _open_text(path, "r") as f:
            for n, line in enumerate(f, 1):
                line = line.strip()
                if not line:
                    continue
                try:
                    rec = _record_from(json.loads(line), grammar)
                except json.JSONDecodeError:
                    rec = None
                if rec is None:
                    bad += 1
                    if bad <= 5:
                        log.warning("%s:%d: not a corpus record; skipped", path, n)
                    continue
                yield rec
    except (OSError, EOFError, UnicodeDecodeError) as e:
        if isinstance(e, FileNotFoundError):
            raise
        raise CorpusFormatError(f"{path}: {e}") from None
    if bad:
        log.warning("%s: %d malformed line(s) skipped", path, bad)


def write_corpus(records: Iterable[ParseRecord], path: str | Path | IO[str]) -> int:
    """Write records in the corpus format (gzip when the name ends in ``.gz``, ``-`` for
    stdout, or an open text stream); returns the number written."""
    n = 0
    if isinstance(path, (str, Path)):
        f = _open_text(path, "w")
        close = str(path) != "-"
    else:
        f, close = path, False
    try:
        for r in records:
            f.write(json.dumps(r.to_json(), ensure_ascii=False) + "\n")
            n += 1
    finally:
        if close:
            f.close()
        else:
            f.flush()
    return n


class MrsCorpus:
    """Corpus files held in memory (``shared/data/mrs/*.jsonl.gz`` can be loaded directly)."""

    def __init__(self, paths: Iterable[str | Path] = (), *, grammar: str = CORPUS_GRAMMAR) -> None:
        self.grammar = grammar
        self._records: dict[str, ParseRecord] = {}
        for p in paths:
            self.load(p)

    def load(self, path: str | Path) -> int:
        """Add the records of a file (later files win for duplicate questions)."""
        n = 0
        for rec in read_corpus(path, grammar=self.grammar):
            self._records[rec.key] = rec
            n += 1
        return n

    def add(self, record: ParseRecord) -> None:
        self._records[record.key] = record

    def get(self, question: str) -> ParseRecord | None:
        """The record of a question (``None`` when unknown)."""
        return self._records.get(normalize_question(question))

    def readings(self, question: str) -> list[str] | None:
        """SimpleMRS readings (``[]`` when the parser found none, ``None`` when unknown)."""
        r = self.get(question)
        return list(r.readings) if r is not None else None

    def __iter__(self) -> Iterator[ParseRecord]:
        return iter(self._records.values())

    def __len__(self) -> int:
        return len(self._records)

    def __contains__(self, question: object) -> bool:
        return isinstance(question, str) and normalize_question(question) in self._records


# --------------------------------------------------------------------------------------------
# SQLite cache
# --------------------------------------------------------------------------------------------

_SCHEMA = """
CREATE TABLE IF NOT EXISTS parses (
    key TEXT NOT NULL,
    grammar TEXT NOT NULL,
    question TEXT NOT NULL,
    readings TEXT NOT NULL,
    roots TEXT,
    error TEXT,
    seconds REAL,
    added REAL NOT NULL,
    PRIMARY KEY (key, grammar)
);
CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT);
"""


class MrsCache:
    """SQLite store of parses keyed by (normalised question, grammar identity).

    ``MrsCache(":memory:")`` gives a private in-memory store.  Safe to share between
    threads (one connection behind a lock).  Use as a context manager or call
    :meth:`close`.
    """

    def __init__(self, path: str | Path = ":memory:") -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).expanduser().parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = sqlite3.connect(str(Path(self.path).expanduser()) if self.path != ":memory:"
                                       else self.path, check_same_thread=False, timeout=30)
            self._db.executescript(_SCHEMA)
        except sqlite3.DatabaseError as e:
            raise ValueError(f"{self.path}: not a usable MRS cache ({e})") from None
        self._lock = threading.Lock()

    def __enter__(self) -> "MrsCache":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._db.close()

    @staticmethod
    def _row(row: tuple) -> ParseRecord:
        question, readings, roots, error, seconds, grammar = row
        try:
            rs = tuple(json.loads(readings))
        except (json.JSONDecodeError, TypeError):
            rs = ()
        return ParseRecord(question, rs, roots, error, seconds, grammar)

    def get(self, question: str, grammar: str | None = None) -> ParseRecord | None:
        """The record for ``question`` under ``grammar`` (any grammar, newest first, when
        ``grammar`` is ``None``)."""
        key = normalize_question(question)
        sql = "SELECT question, readings, roots, error, seconds, grammar FROM parses WHERE key = ?"
        args: tuple = (key,)
        if grammar is not None:
            sql += " AND grammar = ?"
            args += (grammar,)
        sql += " ORDER BY added DESC LIMIT 1"
        with self._lock:
            row = self._db.execute(sql, args).fetchone()
        return self._row(row) if row else None

    def put(self, record: ParseRecord) -> None:
        """Store (or replace) one record."""
        self.put_many([record])

    def put_many(self, records: Iterable[ParseRecord], *, replace: bool = True) -> int:
        """Store records in one transaction; returns how many were written."""
        verb = "INSERT OR REPLACE" if replace else "INSERT OR IGNORE"
        now = time.time()
        rows = [(r.key, r.grammar, r.question, json.dumps(list(r.readings), ensure_ascii=False),
                 r.roots, r.error, r.seconds, now) for r in records]
        with self._lock:
            with self._db:
                cur = self._db.executemany(
                    f"{verb} INTO parses (key, grammar, question, readings, roots, error, seconds, added)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
        return cur.rowcount if cur.rowcount >= 0 else len(rows)

    def import_corpus(self, path: str | Path, *, grammar: str = CORPUS_GRAMMAR,
                      replace: bool = True) -> int:
        """Load a corpus file; returns the number of records stored."""
        n = 0
        batch: list[ParseRecord] = []
        for rec in read_corpus(path, grammar=grammar):
            batch.append(rec)
            if len(batch) >= 2000:
                n += self.put_many(batch, replace=replace)
                batch = []
        if batch:
            n += self.put_many(batch, replace=replace)
        return n

    def records(self, grammar: str | None = None) -> Iterator[ParseRecord]:
        """All records (of one grammar), in insertion order."""
        sql = "SELECT question, readings, roots, error, seconds, grammar FROM parses"
        args: tuple = ()
        if grammar is not None:
            sql += " WHERE grammar = ?"
            args = (grammar,)
        sql += " ORDER BY rowid"
        with self._lock:
            rows = self._db.execute(sql, args).fetchall()
        for row in rows:
            yield self._row(row)

    def export_corpus(self, path: str | Path | IO[str], *, grammar: str | None = None) -> int:
        """Write the records (of one grammar) in the corpus format; returns the count."""
        return write_corpus(self.records(grammar), path)

    def record_grammar(self, info: Any) -> None:
        """Keep what is known of a grammar image (a :class:`parsers.ace_grammar.GrammarInfo`
        or a dict with at least ``identity``), read back by :meth:`grammar_record`."""
        d = dict(info.to_json() if hasattr(info, "to_json") else info)
        with self._lock:
            with self._db:
                self._db.execute("INSERT OR REPLACE INTO meta (k, v) VALUES (?, ?)",
                                 ("grammar:" + str(d["identity"]), json.dumps(d, ensure_ascii=False)))

    def grammar_record(self, identity: str) -> dict[str, Any] | None:
        """What :meth:`record_grammar` kept for an identity (``None`` when nothing)."""
        with self._lock:
            row = self._db.execute("SELECT v FROM meta WHERE k = ?", ("grammar:" + identity,)).fetchone()
        try:
            return dict(json.loads(row[0])) if row else None
        except (json.JSONDecodeError, TypeError, ValueError):
            return None

    def grammars(self) -> list[tuple[str, int]]:
        """Grammar identities in the store with their record counts."""
        with self._lock:
            return [(g, n) for g, n in self._db.execute(
                "SELECT grammar, COUNT(*) FROM parses GROUP BY grammar ORDER BY grammar")]

    def __len__(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM parses").fetchone()[0])


# --------------------------------------------------------------------------------------------
# Provider
# --------------------------------------------------------------------------------------------


@dataclass
class MrsProvider:
    """Readings of a question: corpora, then the cache, then ACE.

    ``cache``: an :class:`MrsCache` (ACE results are stored there); ``corpora``: in-memory
    corpus files; ``ace``: an object with ``parse(question) -> AceResult`` (see
    :class:`parsers.ace.AceParserPool`) and a ``grammar_id`` (and, when it has one, a
    ``grammar_info``: :class:`parsers.ace_grammar.GrammarInfo`, recorded in the cache with the
    first parse stored); ``any_grammar``: whether
    cached parses made with another grammar may answer (default: only when no ACE is
    configured).
    """

    cache: MrsCache | None = None
    corpora: Sequence[MrsCorpus] = ()
    ace: Any = None
    any_grammar: bool | None = None
    _ace_grammar: str | None = field(default=None, init=False, repr=False)
    _ace_info: Any = field(default=None, init=False, repr=False)
    _recorded: bool = field(default=False, init=False, repr=False)

    @classmethod
    def from_config(cls, config: Any = None, *, use_ace: bool = True) -> "MrsProvider":
        """Build from :func:`verifier.config.load_config`: ``[mrs] cache`` (SQLite path),
        ``[mrs] corpora`` (a path or list of corpus files), ``[ace]`` (see
        :class:`parsers.ace.AceConfig`).  ACE is started lazily, on the first question
        missing from the corpora and the cache."""
        if config is None:
            from verifier.config import load_config

            config = load_config()
        mrs = config.section("mrs")
        cache = MrsCache(mrs["cache"]) if mrs.get("cache") else None
        corpora_paths = mrs.get("corpora") or []
        if isinstance(corpora_paths, (str, Path)):
            corpora_paths = [corpora_paths]
        corpora = [MrsCorpus(corpora_paths)] if corpora_paths else []
        ace = None
        if use_ace:
            ace_cfg = AceConfig.from_config(config)
            if ace_cfg is not None:
                ace = LazyAce(ace_cfg)
        return cls(cache, corpora, ace)

    def _grammar(self) -> str | None:
        if self.ace is None:
            return None
        if self._ace_grammar is None:
            try:
                info = getattr(self.ace, "grammar_info", None)
                if info is not None:
                    self._ace_info = info
                    self._ace_grammar = str(info.identity)
                else:
                    self._ace_grammar = str(self.ace.grammar_id)
            except OSError as e:
                log.warning("cannot identify the ACE grammar image: %s", e)
                self._ace_grammar = "unknown-grammar"
        return self._ace_grammar

    def family(self, identity: str | None) -> str:
        """The :func:`grammar_family` of an identity, using the image header of the running
        ACE grammar or the record kept in the cache when there is one."""
        if not identity:
            return "unknown"
        if self._ace_info is not None and identity == self._ace_info.identity:
            return str(self._ace_info.family)
        rec = self.cache.grammar_record(identity) if self.cache is not None else None
        return grammar_family(identity, (rec or {}).get("version"))

    def _store(self, question: str, res: Any, grammar: str | None) -> None:
        if self.cache is None:
            return
        self.cache.put(ParseRecord(question, tuple(res.readings), res.roots, res.error,
                                   res.seconds, grammar or "unknown-grammar"))
        if not self._recorded and self._ace_info is not None:
            try:
                self.cache.record_grammar(self._ace_info)
                self._recorded = True
            except Exception as e:  # a record is a convenience: never lose the parse for it
                log.warning("could not record the grammar in the MRS cache: %s", e)

    def lookup(self, question: str) -> ReadingsResult:
        """Readings of ``question`` with where they came from and the grammar that produced
        them; never raises for a failing parser (the result says what went wrong)."""
        if not isinstance(question, str) or not question.strip():
            return ReadingsResult(str(question), (), "error", "none", "the question is empty")
        for corpus in self.corpora:
            rec = corpus.get(question)
            if rec is not None:
                return ReadingsResult(question, rec.readings, "ok" if rec.readings else "no-parse",
                                      "corpus", rec.error or "", rec.grammar, self.family(rec.grammar))
        grammar = self._grammar()
        any_grammar = self.any_grammar if self.any_grammar is not None else self.ace is None
        if self.cache is not None:
            rec = self.cache.get(question, None if any_grammar else grammar)
            if rec is not None:
                return ReadingsResult(question, rec.readings, "ok" if rec.readings else "no-parse",
                                      "cache", rec.error or "", rec.grammar, self.family(rec.grammar))
        if self.ace is None:
            return ReadingsResult(question, (), "no-parser", "none",
                                  "no parser available: the question is not in the MRS cache or "
                                  "corpora and ACE is not configured (set VERIFIER_ACE and "
                                  "VERIFIER_ERG, or run 'verifier setup ace')")
        res = self.ace.parse(question)
        if res.status in ("ok", "no-parse"):
            self._store(question, res, grammar)
        status = res.status if res.status in ("ok", "no-parse") else "error"
        message = res.error or ("" if status != "error" else f"ACE: {res.status}")
        return ReadingsResult(question, tuple(res.readings), status, "ace", message,
                              grammar, self.family(grammar))

    def readings(self, question: str) -> list[str] | None:
        """SimpleMRS readings; ``[]`` when the parser found none; ``None`` when no source
        knows the question (no parser, or the parser failed)."""
        r = self.lookup(question)
        if r.status in ("ok", "no-parse"):
            return list(r.readings)
        return None

    def close(self) -> None:
        """Stop ACE processes and close the cache."""
        if self.ace is not None and hasattr(self.ace, "close"):
            self.ace.close()
        if self.cache is not None:
            self.cache.close()
