"""Stream the English names out of a Wikidata JSON dump.

The dump (``latest-all.json.gz`` / ``.bz2`` of https://dumps.wikimedia.org/wikidatawiki/entities/)
is one JSON array with one entity per line: a ``[`` line, entity lines ending with ``,`` and
a ``]`` line.  :func:`read_dump` reads it line by line (plain, gzip or bzip2, told apart by
their first bytes), so memory stays bounded however large the file, and yields the English
label, aliases and description of each item and property as a
:class:`~verifier.pgmr.symbols.Symbol`.  Entities without an English name, lexemes and
other entity types are counted and skipped; a line that is not JSON is counted, never fatal.
A file holding one JSON entity per line without the array brackets reads the same.
"""

from __future__ import annotations

import bz2
import gzip
import json
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Iterator

from verifier.pgmr.symbols import Kind, Symbol

__all__ = ["DumpCounts", "read_dump", "open_compressed", "entity_symbol", "sniff_format"]

log = logging.getLogger(__name__)

_GZIP = b"\x1f\x8b"
_BZ2 = b"BZh"
_KINDS = {"item": Kind.ITEM, "property": Kind.PROPERTY}


@dataclass
class DumpCounts:
    """What :func:`read_dump` read so far (owned by the caller): lines, entities, those
    yielded, skipped for want of an English name or for their type, unreadable lines (with
    the first few line numbers), and the position in the (compressed) file."""

    lines: int = 0
    entities: int = 0
    yielded: int = 0
    no_english: int = 0
    other_type: int = 0
    errors: int = 0
    first_errors: list[int] = field(default_factory=list)
    position: int = 0


class _Counting:
    """A binary file wrapper that remembers how many bytes were read (the progress of a
    compressed file is the position in the compressed bytes)."""

    def __init__(self, f: IO[bytes]) -> None:
        self.f = f
        self.position = 0

    def read(self, n: int = -1) -> bytes:
        b = self.f.read(n)
        self.position += len(b)
        return b

    def readinto(self, buf: Any) -> int:
        n = self.f.readinto(buf)
        self.position += n or 0
        return n

    def readable(self) -> bool:
        return True

    def close(self) -> None:
        self.f.close()

    @property
    def closed(self) -> bool:
        return self.f.closed


def open_compressed(path: str | Path) -> tuple[IO[bytes], _Counting | None]:
    """``(decompressed binary stream, counting raw file)`` of a gzip or bzip2 file, or
    ``(file, None)`` of a plain one (told apart by the first bytes, not by the name)."""
    raw = open(path, "rb")
    head = raw.read(3)
    raw.seek(0)
    counting = _Counting(raw)
    if head[:2] == _GZIP:
        return gzip.GzipFile(fileobj=counting, mode="rb"), counting  # type: ignore[arg-type]
    if head == _BZ2:
        return bz2.BZ2File(counting, mode="rb"), counting  # type: ignore[arg-type]
    return raw, None


def _close(stream: IO[bytes], raw: _Counting | None) -> None:
    stream.close()
    if raw is not None:
        raw.close()


def sniff_format(path: str | Path) -> str:
    """``"json"`` for a Wikidata JSON dump (first non-blank character ``[`` or ``{``), else
    ``"tsv"`` (the labels TSV format)."""
    stream, raw = open_compressed(path)
    try:
        head = stream.read(4096).lstrip()
    finally:
        _close(stream, raw)
    return "json" if head[:1] in (b"[", b"{") else "tsv"


def entity_symbol(entity: Any, lang: str = "en") -> Symbol | str:
    """The :class:`Symbol` of one dump entity (or of a ``wbgetentities`` entity, the same
    JSON), else why it has none: ``"type"`` (not an item or property) or ``"no-english"``.
    An entity with English aliases but no English label is named by its first alias."""
    if not isinstance(entity, dict):
        return "type"
    kind = _KINDS.get(entity.get("type", ""))
    ident = entity.get("id")
    if kind is None or not isinstance(ident, str):
        return "type"
    label = _value(_lang_map(entity.get("labels")).get(lang))
    listed = _lang_map(entity.get("aliases")).get(lang)
    aliases = [v for v in map(_value, listed if isinstance(listed, list) else ()) if v]
    if not label:
        if not aliases:
            return "no-english"
        label, aliases = aliases[0], aliases[1:]
    desc = _value(_lang_map(entity.get("descriptions")).get(lang)) or ""
    return Symbol(ident, _one_line(label), kind, tuple(_one_line(a) for a in aliases), _one_line(desc))


def _lang_map(v: Any) -> dict:
    return v if isinstance(v, dict) else {}  # PHP writes an empty map as []


def _value(v: Any) -> str:
    s = v.get("value") if isinstance(v, dict) else None
    return s.strip() if isinstance(s, str) else ""


def _one_line(s: str) -> str:
    """Labels hold no tabs or line breaks (a store row exports as one TSV line)."""
    return " ".join(s.split()) if any(c in s for c in "\t\r\n") else s


def read_dump(path: str | Path, counts: DumpCounts | None = None, *, lang: str = "en",
              start_line: int = 0) -> Iterator[tuple[int, Symbol]]:
    """``(line number, symbol)`` of every item and property with an English name, in file
    order.  Lines up to ``start_line`` are skipped without being parsed (a resumed import)."""
    st = counts if counts is not None else DumpCounts()
    stream, raw = open_compressed(path)
    try:
        for lineno, line in enumerate(stream, 1):
            st.lines = lineno
            st.position = raw.position if raw is not None else st.position + len(line)
            if lineno <= start_line:
                continue
            text = line.strip()
            if text.endswith(b","):
                text = text[:-1]
            if not text or text in (b"[", b"]"):
                continue
            try:
                entity = json.loads(text)
            except ValueError:
                st.errors += 1
                if len(st.first_errors) < 5:
                    st.first_errors.append(lineno)
                continue
            st.entities += 1
            sym = entity_symbol(entity, lang)
            if isinstance(sym, str):
                if sym == "no-english":
                    st.no_english += 1
                else:
                    st.other_type += 1
                continue
            st.yielded += 1
            yield lineno, sym
    finally:
        _close(stream, raw)
    if st.errors:
        log.warning("%s: %d line(s) are not JSON entities (first: line %s)", path, st.errors,
                    ", ".join(map(str, st.first_errors)))
