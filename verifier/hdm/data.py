"""Reading question -> query pairs and question lists (JSONL or plain text)."""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from verifier.jsonl import DataError, read_jsonl

__all__ = ["Pair", "compact_query", "read_pairs", "read_questions", "read_jsonl", "write_jsonl", "DataError",
           "TARGET_FIELDS"]

#: fields tried, in order, for the target query when none is named
TARGET_FIELDS: tuple[str, ...] = ("target", "intermediate", "query", "sparql")


_DECL = re.compile(r"\s*(?:PREFIX\s+[\w\-.]*:\s*<[^>]*>|BASE\s*<[^>]*>)", re.I)
_LEX = re.compile(r""""(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|<[^\s<>]*>|(?P<c>#[^\n]*)|[^"'<#]+|.""")


def _strip_comments(query: str) -> str:
    return _LEX.sub(lambda m: " " if m.group("c") is not None else m.group(0), query)


def compact_query(query: str) -> str:
    """A query as a generator target: comments and the prologue's ``PREFIX``/``BASE``
    declarations dropped (the standard Wikidata prefixes are implied), NFKC-normalised,
    whitespace collapsed to single spaces."""
    query = _strip_comments(query)
    pos = 0
    while m := _DECL.match(query, pos):
        if m.end() == pos:
            break
        pos = m.end()
    return " ".join(unicodedata.normalize("NFKC", query[pos:]).split())


@dataclass(frozen=True)
class Pair:
    """A question and its target query text (intermediate or SPARQL)."""

    question: str
    target: str
    id: str = ""


def write_jsonl(path: str | Path, rows: Sequence[dict]) -> None:
    """Write ``rows`` as JSONL (parent folders created)."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    with p.open("w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")


def read_pairs(path: str | Path, target_field: str | None = None) -> list[Pair]:
    """Pairs from a JSONL file with ``question`` and a target field (``target_field``, or the
    first of :data:`TARGET_FIELDS` present).  Records with an empty target are skipped."""
    out: list[Pair] = []
    fields = (target_field,) if target_field else TARGET_FIELDS
    for n, obj in read_jsonl(path):
        q = obj.get("question")
        if not isinstance(q, str) or not q.strip():
            raise DataError(f"{path}:{n}: missing 'question'")
        field = next((f for f in fields if f in obj), None)
        if field is None:
            raise DataError(f"{path}:{n}: none of the target fields {list(fields)} present")
        t = obj[field]
        if not t:
            continue
        out.append(Pair(q.strip(), str(t).strip(), str(obj.get("id", f"{Path(path).stem}-{n}"))))
    return out


def read_questions(path: str | Path) -> list[tuple[str, str, dict]]:
    """``(id, question, record)`` from a JSONL file (field ``question``) or a text file (one
    question per line; ``record`` is then ``{}``)."""
    p = Path(path)
    if not p.is_file():
        raise FileNotFoundError(f"no such file: {p}")
    if p.suffix in (".jsonl", ".json"):
        rows = []
        for n, obj in read_jsonl(p):
            q = obj.get("question")
            if not isinstance(q, str) or not q.strip():
                raise DataError(f"{p}:{n}: missing 'question'")
            rows.append((str(obj.get("id", f"{p.stem}-{n}")), q.strip(), obj))
        return rows
    lines = [ln.strip() for ln in p.read_text(encoding="utf-8").splitlines()]
    return [(f"{p.stem}-{i}", ln, {}) for i, ln in enumerate(lines, 1) if ln]
