"""IRI prefixes: the usual Wikidata/RDF ones, compaction and expansion.

The logic IR stores IRIs compacted with these prefixes (``wd:Q2270``) so that formulas from
queries written with full IRIs, with declared prefixes or with the implicit Wikidata prefixes
all compare equal.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Mapping

__all__ = ["WIKIDATA_PREFIXES", "compact_iri", "expand", "wikidata_id", "local_name"]

#: Prefixes assumed when a query uses them without declaring them (as the Wikidata Query
#: Service does).
WIKIDATA_PREFIXES: Mapping[str, str] = {
    "wd": "http://www.wikidata.org/entity/",
    "wdt": "http://www.wikidata.org/prop/direct/",
    "wdtn": "http://www.wikidata.org/prop/direct-normalized/",
    "p": "http://www.wikidata.org/prop/",
    "ps": "http://www.wikidata.org/prop/statement/",
    "psv": "http://www.wikidata.org/prop/statement/value/",
    "psn": "http://www.wikidata.org/prop/statement/value-normalized/",
    "pq": "http://www.wikidata.org/prop/qualifier/",
    "pqv": "http://www.wikidata.org/prop/qualifier/value/",
    "pqn": "http://www.wikidata.org/prop/qualifier/value-normalized/",
    "pr": "http://www.wikidata.org/prop/reference/",
    "prv": "http://www.wikidata.org/prop/reference/value/",
    "wdno": "http://www.wikidata.org/prop/novalue/",
    "wds": "http://www.wikidata.org/entity/statement/",
    "wdv": "http://www.wikidata.org/value/",
    "wdref": "http://www.wikidata.org/reference/",
    "wikibase": "http://wikiba.se/ontology#",
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
    "owl": "http://www.w3.org/2002/07/owl#",
    "xsd": "http://www.w3.org/2001/XMLSchema#",
    "schema": "http://schema.org/",
    "skos": "http://www.w3.org/2004/02/skos/core#",
    "bd": "http://www.bigdata.com/rdf#",
    "prov": "http://www.w3.org/ns/prov#",
    "geo": "http://www.opengis.net/ont/geosparql#",
    "ontolex": "http://www.w3.org/ns/lemon/ontolex#",
    "dct": "http://purl.org/dc/terms/",
    "hint": "http://www.bigdata.com/queryHints#",
    "geof": "http://www.opengis.net/def/function/geosparql/",
    "mwapi": "https://www.mediawiki.org/ontology#API/",
    "gas": "http://www.bigdata.com/rdf/gas#",
    "wdata": "http://www.wikidata.org/wiki/Special:EntityData/",
    "cc": "http://creativecommons.org/ns#",
}

# Longest namespace first so that ``p:`` does not swallow ``ps:`` IRIs.
_BY_LENGTH = sorted(((ns, pfx) for pfx, ns in WIKIDATA_PREFIXES.items()), key=lambda x: -len(x[0]))
_SAFE_LOCAL = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_\-]*")
_WD_ID = re.compile(r"^(?:[a-z]+:)?([PQL]\d+)$")


@lru_cache(maxsize=1 << 16)
def compact_iri(iri: str) -> str:
    """Compact a full IRI (without angle brackets) to ``prefix:local`` with the standard
    prefixes when the local part is a plain name; otherwise return ``<iri>``."""
    for ns, pfx in _BY_LENGTH:
        if iri.startswith(ns):
            local = iri[len(ns):]
            if _SAFE_LOCAL.fullmatch(local):
                return f"{pfx}:{local}"
            break
    return f"<{iri}>"


def expand(value: str, prefixes: Mapping[str, str] = WIKIDATA_PREFIXES) -> str:
    """Full IRI of a compact ``prefix:local`` or ``<iri>`` (unknown prefixes raise KeyError)."""
    if value.startswith("<") and value.endswith(">"):
        return value[1:-1]
    pfx, _, local = value.partition(":")
    return prefixes[pfx] + local


def local_name(value: str) -> str:
    """The local part of a compact IRI (``wdt:P31`` -> ``P31``)."""
    if value.startswith("<"):
        v = value[1:-1]
        return re.split(r"[/#]", v)[-1]
    return value.partition(":")[2]


def wikidata_id(value: str) -> str | None:
    """``Q2270`` / ``P2067`` for Wikidata IRIs in any prefix (``wd:``, ``wdt:``, ``p:``,
    ``ps:``, ``pq:`` ...), else ``None``."""
    if value.startswith("<"):
        value = compact_iri(value[1:-1])
    m = _WD_ID.match(value)
    return m.group(1) if m else None
