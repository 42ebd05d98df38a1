"""Streaming reader of query logs: JSONL, CSV and TSV, plain or gzip.

:func:`read_log` yields one :class:`~verifier.audit.records.InputRecord` per record, in file
order, holding at most one record in memory (a line longer than ``max_line_bytes`` is
skipped in pieces, never read whole).  Bad lines are not dropped: they come back as records
with ``error`` and ``error_kind`` set (invalid JSON or CSV, not an object, missing field,
empty question or query, a query that is not a string, an over-long line, bytes that are not
UTF-8), so the audit can store and count them.  Blank lines are not records.

Line numbers are 1-based physical lines of the (decompressed) file; a CSV record whose quoted
field spans several lines has the number of its first line.  ``content_hash`` is a SHA-256
prefix of the record's raw bytes without the line ending, used on ``--resume`` to make sure
a stored line is still the same line.
"""

from __future__ import annotations

import csv
import gzip
import hashlib
import json
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Iterator

from verifier.audit.records import InputRecord

__all__ = ["FieldMap", "ReaderOptions", "ReadStats", "LogFormatError", "FORMATS",
           "open_log", "detect_format", "read_log", "count_lines", "preflight"]

log = logging.getLogger(__name__)

FORMATS = ("jsonl", "csv", "tsv")
_GZIP_MAGIC = b"\x1f\x8b"
_RAW_KEEP = 2000  # characters of a bad line kept in the store (fields["raw"])


class LogFormatError(ValueError):
    """A log cannot be read at all (unknown format, header without the needed columns...)."""


@dataclass(frozen=True)
class FieldMap:
    """Which input fields hold the question, the query and the record id.

    ``id=None``: the record id is the line number.  A dotted name (``input.question``)
    reaches into nested JSON objects when no field has that exact name.
    """

    question: str = "question"
    sparql: str = "sparql"
    id: str | None = None


@dataclass(frozen=True)
class ReaderOptions:
    """How to read a log: ``format`` (``auto``, ``jsonl``, ``csv``, ``tsv``), field names,
    and the size limit of one line (bytes)."""

    format: str = "auto"
    fields: FieldMap = field(default_factory=FieldMap)
    max_line_bytes: int = 1_000_000


@dataclass
class ReadStats:
    """Counts kept while reading (owned by the caller, updated by :func:`read_log`)."""

    lines: int = 0
    blank: int = 0
    records: int = 0
    errors: int = 0


def open_log(path: str | Path) -> IO[bytes]:
    """Open a log for binary reading, decompressing gzip (detected by its magic bytes)."""
    p = Path(path)
    f = open(p, "rb")
    head = f.read(2)
    f.seek(0)
    if head == _GZIP_MAGIC:
        f.close()
        return gzip.open(p, "rb")  # type: ignore[return-value]
    return f


def detect_format(path: str | Path, declared: str = "auto") -> str:
    """``jsonl``, ``csv`` or ``tsv``: ``declared`` unless ``auto``; then by extension
    (``.jsonl``/``.ndjson``/``.json``, ``.csv``, ``.tsv``/``.tab``, before an optional
    ``.gz``); then by the first non-blank line (``{`` JSON, a tab TSV, otherwise CSV)."""
    if declared != "auto":
        if declared not in FORMATS:
            raise LogFormatError(f"unknown format {declared!r} (use one of {', '.join(FORMATS)})")
        return declared
    name = Path(path).name.lower()
    if name.endswith(".gz"):
        name = name[:-3]
    suffix = name.rsplit(".", 1)[-1] if "." in name else ""
    by_ext = {"jsonl": "jsonl", "ndjson": "jsonl", "json": "jsonl", "csv": "csv", "tsv": "tsv",
              "tab": "tsv"}
    if suffix in by_ext:
        return by_ext[suffix]
    try:
        with open_log(path) as f:
            for raw in iter(lambda: f.readline(65536), b""):
                s = raw.strip()
                if not s:
                    continue
                if s[:1] in (b"{", b"["):
                    return "jsonl"
                return "tsv" if b"\t" in s else "csv"
    except (OSError, EOFError) as e:
        raise LogFormatError(f"{path}: cannot read ({e})") from None
    return "jsonl"


def _hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:32]


@dataclass(frozen=True, slots=True)
class _Line:
    number: int
    raw: bytes | None  # None: longer than the limit (skipped)
    digest: str
    size: int


def _physical_lines(f: IO[bytes], limit: int) -> Iterator[_Line]:
    """Physical lines without their ending; over-long lines are hashed in pieces and come
    back with ``raw=None``."""
    n = 0
    while True:
        chunk = f.readline(limit + 2)
        if not chunk:
            return
        n += 1
        if chunk.endswith(b"\n") or len(chunk) <= limit + 1:
            body = chunk.rstrip(b"\r\n") if chunk.endswith(b"\n") else chunk
            if len(body) <= limit:
                yield _Line(n, body, _hash(body), len(body))
                continue
        # Too long: hash the whole line without holding it.
        h = hashlib.sha256()
        size = 0
        piece = chunk
        while True:
            ends = piece.endswith(b"\n")
            body = piece.rstrip(b"\r\n") if ends else piece
            h.update(body)
            size += len(body)
            if ends:
                break
            piece = f.readline(1 << 20)
            if not piece:
                break
        yield _Line(n, None, h.hexdigest()[:32], size)


def _decode(raw: bytes, first: bool) -> tuple[str | None, str | None]:
    if first and raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        return raw.decode("utf-8"), None
    except UnicodeDecodeError as e:
        return None, f"bytes that are not UTF-8 at byte {e.start + 1} (0x{raw[e.start]:02x})"


def _lookup(obj: dict[str, Any], name: str) -> tuple[bool, Any]:
    if name in obj:
        return True, obj[name]
    if "." in name:
        cur: Any = obj
        for part in name.split("."):
            if not isinstance(cur, dict) or part not in cur:
                return False, None
            cur = cur[part]
        return True, cur
    return False, None


def _type_name(v: Any) -> str:
    return "null" if v is None else {bool: "a boolean", int: "a number", float: "a number",
                                     list: "a list", dict: "an object"}.get(type(v), type(v).__name__)


def _make_record(log_id: int, line: int, digest: str, obj: dict[str, Any],
                 fm: FieldMap) -> InputRecord:
    rid_found, rid = _lookup(obj, fm.id) if fm.id else (False, None)
    record_id = str(rid) if rid_found and rid is not None and rid != "" else str(line)
    fields = {k: v for k, v in obj.items() if k not in (fm.question, fm.sparql)}
    q_found, q = _lookup(obj, fm.question)
    s_found, s = _lookup(obj, fm.sparql)

    def bad(kind: str, message: str) -> InputRecord:
        return InputRecord(log_id, line, record_id, digest, q if isinstance(q, str) else None,
                           s if isinstance(s, str) else None, fields, message, kind)

    if not q_found:
        return bad("missing_field", f"missing field {fm.question!r}")
    if not s_found:
        return bad("missing_field", f"missing field {fm.sparql!r}")
    if not isinstance(q, str):
        return bad("not_a_string", f"field {fm.question!r} is {_type_name(q)}, not a string")
    if not isinstance(s, str):
        return bad("not_a_string", f"field {fm.sparql!r} is {_type_name(s)}, not a string")
    if not q.strip():
        return bad("empty_question", "the question is empty")
    if not s.strip():
        return bad("empty_query", "the query is empty")
    return InputRecord(log_id, line, record_id, digest, q, s, fields)


def _error(log_id: int, line: int, digest: str, kind: str, message: str,
           raw: str | None = None) -> InputRecord:
    fields = {"raw": raw[:_RAW_KEEP]} if raw else {}
    return InputRecord(log_id, line, str(line), digest, None, None, fields, message, kind)


def read_log(path: str | Path, log_id: int = 1, options: ReaderOptions | None = None,
             stats: ReadStats | None = None) -> Iterator[InputRecord]:
    """Records of one log file, in order (see the module documentation)."""
    opts = options or ReaderOptions()
    fmt = detect_format(path, opts.format)
    st = stats if stats is not None else ReadStats()
    try:
        f = open_log(path)
    except OSError as e:
        raise LogFormatError(f"{path}: cannot open ({e})") from None
    with f:
        try:
            if fmt == "jsonl":
                yield from _read_jsonl(f, log_id, opts, st)
            else:
                yield from _read_delimited(f, log_id, opts, st, "\t" if fmt == "tsv" else ",")
        except (OSError, EOFError) as e:  # truncated gzip, I/O error
            raise LogFormatError(f"{path}: read error after line {st.lines} ({e})") from None


def _read_jsonl(f: IO[bytes], log_id: int, opts: ReaderOptions, st: ReadStats) -> Iterator[InputRecord]:
    for pl in _physical_lines(f, opts.max_line_bytes):
        st.lines += 1
        if pl.raw is None:
            rec = _error(log_id, pl.number, pl.digest, "line_too_long",
                         f"line of {pl.size:,} bytes is over the limit of {opts.max_line_bytes:,}")
        else:
            if not pl.raw.strip():
                st.blank += 1
                continue
            text, why = _decode(pl.raw, pl.number == 1)
            if text is None:
                rec = _error(log_id, pl.number, pl.digest, "undecodable", f"{why}",
                             pl.raw.decode("utf-8", "replace"))
            else:
                try:
                    obj = json.loads(text)
                except json.JSONDecodeError as e:
                    rec = _error(log_id, pl.number, pl.digest, "invalid_json",
                                 f"invalid JSON: {e.msg} (column {e.colno})", text)
                except RecursionError:
                    rec = _error(log_id, pl.number, pl.digest, "invalid_json",
                                 "invalid JSON: nested too deeply", text)
                else:
                    if isinstance(obj, dict):
                        rec = _make_record(log_id, pl.number, pl.digest, obj, opts.fields)
                    else:
                        rec = _error(log_id, pl.number, pl.digest, "not_an_object",
                                     f"a JSON {_type_name(obj).split()[-1]}, not an object", text)
        st.records += 1
        st.errors += rec.error is not None
        yield rec


def _read_delimited(f: IO[bytes], log_id: int, opts: ReaderOptions, st: ReadStats,
                    delimiter: str) -> Iterator[InputRecord]:
    limit = opts.max_line_bytes
    if csv.field_size_limit() < limit:
        csv.field_size_limit(limit)
    consumed: list[_Line] = []

    def texts() -> Iterator[str]:
        for pl in _physical_lines(f, limit):
            st.lines += 1
            consumed.append(pl)
            if pl.raw is None:
                yield "\n"
            else:
                raw = pl.raw[3:] if pl.number == 1 and pl.raw.startswith(b"\xef\xbb\xbf") else pl.raw
                yield raw.decode("utf-8", "surrogateescape") + "\n"

    reader = csv.reader(texts(), delimiter=delimiter, strict=False)
    header: list[str] | None = None
    while True:
        try:
            row = next(reader)
            err = None
        except StopIteration:
            return
        except csv.Error as e:
            row, err = None, str(e)
        lines, consumed[:] = list(consumed), []
        if not lines:
            continue
        first = lines[0]
        digest = first.digest if len(lines) == 1 else _hash("\n".join(l.digest for l in lines).encode())
        if row is not None and (not row or all(not c.strip() for c in row)) and err is None:
            st.blank += len(lines)
            continue
        if header is None:
            if err is not None or row is None:
                raise LogFormatError(f"line {first.number}: cannot read the header ({err})")
            header = [h.strip() for h in row]
            missing = [c for c in (opts.fields.question, opts.fields.sparql) if c not in header]
            if missing:
                raise LogFormatError(
                    f"no column {', '.join(repr(m) for m in missing)} in the header (columns: "
                    f"{', '.join(header)}); name the columns with --question-field/--sparql-field")
            continue
        st.records += 1
        if any(l.raw is None for l in lines):
            big = max(l.size for l in lines)
            rec = _error(log_id, first.number, digest, "line_too_long",
                         f"line of {big:,} bytes is over the limit of {limit:,}")
        elif err is not None or row is None:
            rec = _error(log_id, first.number, digest, "invalid_csv", f"invalid CSV: {err}")
        elif any(any("\udc80" <= ch <= "\udcff" for ch in c) for c in row):
            raw = "\n".join(c.encode("utf-8", "surrogateescape").decode("utf-8", "replace") for c in row)
            rec = _error(log_id, first.number, digest, "undecodable", "bytes that are not UTF-8", raw)
        else:
            obj: dict[str, Any] = {}
            for i, name in enumerate(header):
                if i < len(row):
                    obj[name] = row[i]
            if len(row) > len(header):
                obj["_extra_columns"] = row[len(header):]
            rec = _make_record(log_id, first.number, digest, obj, opts.fields)
        st.errors += rec.error is not None
        yield rec


def count_lines(path: str | Path) -> int:
    """Number of physical lines (a fast pass over the file, for progress estimates)."""
    n = 0
    last = b"\n"
    with open_log(path) as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            n += block.count(b"\n")
            last = block[-1:]
    return n + (last != b"\n")


def preflight(path: str | Path, options: ReaderOptions | None = None, sample: int = 50) -> str:
    """Check that a log is readable and has the needed fields; returns its format.

    Raises :class:`LogFormatError` when the file cannot be opened, when a CSV/TSV header
    lacks the columns, or when none of the first ``sample`` JSON records has the question
    and query fields (the message lists the fields that were seen).
    """
    opts = options or ReaderOptions()
    fmt = detect_format(path, opts.format)
    seen: dict[str, None] = {}
    n = good = 0
    gen = read_log(path, 0, opts)
    try:
        for rec in gen:
            n += 1
            if rec.error_kind in (None, "empty_question", "empty_query", "not_a_string"):
                good += 1
            seen.update(dict.fromkeys(rec.fields))
            if n >= sample:
                break
    finally:
        gen.close()
    if n and not good and fmt == "jsonl":
        fm = opts.fields
        raise LogFormatError(
            f"none of the first {n} records has the fields {fm.question!r} and {fm.sparql!r} "
            f"(fields seen: {', '.join(k for k in seen if k != 'raw') or 'none'}); name them with "
            "--question-field/--sparql-field")
    return fmt
