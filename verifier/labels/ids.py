"""Which Wikidata ids to fetch: from words, files, SPARQL queries and query logs.

* :func:`parse_id`: ``Q42``, ``wd:Q42``, ``wdt:P31``, ``<http://www.wikidata.org/entity/Q42>``
  or the full IRI -> ``Q42`` / ``P31``;
* :func:`ids_in_sparql`: the ids of a query (read from its syntax tree, so that declared
  prefixes count; a query that does not parse is searched for Wikidata IRIs instead);
* :func:`ids_in_query`: the ids of a parsed :class:`~verifier.query.Query` (at verify time);
* :func:`ids_from_file`: ids written in a text file (whitespace or comma separated, ``#``
  comments);
* :func:`ids_from_log`: the ids of every query of a JSONL / CSV / TSV log
  (:func:`verifier.audit.reader.read_log`).
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Iterator

from verifier.audit.reader import ReaderOptions, ReadStats, read_log
from verifier.namespaces import wikidata_id

__all__ = ["parse_id", "ids_in_sparql", "ids_in_query", "ids_from_file", "ids_from_log"]

_BARE = re.compile(r"^[PQ][1-9]\d*$")
#: prefixed names and IRIs of Wikidata entities and properties, for queries that do not parse
_IN_TEXT = re.compile(
    r"\b(?:wd|wdt|wdtn|p|ps|psv|psn|pq|pqv|pqn|pr|prv|wdno):([PQ][1-9]\d*)\b"
    r"|<http://www\.wikidata\.org/(?:entity|prop(?:/[a-z-]+)*)/([PQ][1-9]\d*)>")


def parse_id(text: str) -> str | None:
    """The Wikidata ``Q``/``P`` id written as ``text`` (bare, prefixed or as an IRI), else None."""
    t = text.strip().strip(",;")
    if _BARE.match(t):
        return t
    if t.startswith("http://") or t.startswith("https://"):
        t = f"<{t.replace('https://', 'http://', 1)}>"
    wid = wikidata_id(t)
    return wid if wid and _BARE.match(wid) else None


def ids_in_sparql(text: str) -> list[str]:
    """The Wikidata ids of a SPARQL query, each once, in order."""
    from parsers.sparql import parse_tree
    from verifier.benchmark.ids import refs_in_tree

    try:
        return [r.id for r in refs_in_tree(parse_tree(text))]
    except Exception:  # malformed or unsupported: the ids written in it still count
        return list(dict.fromkeys(a or b for a, b in _IN_TEXT.findall(text)))


def ids_in_query(query) -> list[str]:
    """The Wikidata ids of a parsed query (its properties, items and classes), each once."""
    from verifier.logic import IRI, Atom, subformulas

    out: dict[str, None] = {}
    for g in itertools.chain(subformulas(query.pattern), *map(subformulas, query.optional_parts)):
        terms = []
        if isinstance(g, Atom):
            wid = wikidata_id(g.pred.rstrip("*+"))
            if wid:
                out.setdefault(wid, None)
            terms = list(g.args)
        elif hasattr(g, "left"):
            terms = [g.left, g.right]
        for t in terms:
            if isinstance(t, IRI):
                wid = wikidata_id(t.value)
                if wid:
                    out.setdefault(wid, None)
    return [i for i in out if _BARE.match(i)]


def ids_from_file(path: str | Path) -> Iterator[str]:
    """Ids written in a text file; words that are not ids are ignored."""
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            for word in re.split(r"[\s,]+", line.split("#", 1)[0]):
                wid = parse_id(word) if word else None
                if wid:
                    yield wid


def ids_from_log(path: str | Path, options: ReaderOptions | None = None,
                 stats: ReadStats | None = None) -> Iterator[str]:
    """The ids of the queries of a log, in order (repeats included: the caller dedupes)."""
    for rec in read_log(path, options=options, stats=stats):
        if isinstance(rec.sparql, str) and rec.sparql.strip():
            yield from ids_in_sparql(rec.sparql)

