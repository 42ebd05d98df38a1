"""Wikidata identifiers inside SPARQL syntax trees: resolve an IRI token (any spelling: ``wdt:P31``,
``<http://www.wikidata.org/prop/direct/P31>``, a custom declared prefix) to its compact form
and Wikidata id, and rewrite the id while keeping the spelling.

Used by the perturbation builder and the corpus statistics; pure functions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping

from verifier.namespaces import WIKIDATA_PREFIXES, compact_iri

__all__ = ["WikidataRef", "prefix_map", "compact", "wikidata_ref", "refs_in_tree", "with_id",
           "ITEM_FAMILIES", "PROPERTY_FAMILIES"]

#: compact prefixes whose local name is an item id
ITEM_FAMILIES = frozenset({"wd"})
#: compact prefixes whose local name is a property id
PROPERTY_FAMILIES = frozenset({"wdt", "wdtn", "p", "ps", "psv", "psn", "pq", "pqv", "pqn", "pr",
                               "prv", "wdno"})
_ID_AT_END = re.compile(r"([PQ])([1-9]\d*)(>?)$")
_LOCAL_ID = re.compile(r"^([PQ])[1-9]\d*$")


@dataclass(frozen=True, slots=True)
class WikidataRef:
    """A Wikidata IRI: ``family`` is its compact prefix (``wd``, ``wdt``, ``p``, ``ps``,
    ``pq`` ...), ``id`` the ``Q``/``P`` id, ``text`` the IRI as written."""

    family: str
    id: str
    text: str

    @property
    def is_item(self) -> bool:
        return self.family in ITEM_FAMILIES

    @property
    def is_property(self) -> bool:
        return self.family in PROPERTY_FAMILIES


def prefix_map(tree: tuple) -> dict[str, str]:
    """Prefixes of the query (declared ones override the implicit Wikidata prefixes):
    ``{"wd": "http://www.wikidata.org/entity/", ...}``."""
    out = dict(WIKIDATA_PREFIXES)
    for decl in tree[0]:
        if decl[0] == "prefix":
            out[str(decl[1])[:-1]] = str(decl[2])[1:-1]
    return out


def compact(text: str, prefixes: Mapping[str, str]) -> str:
    """The IRI ``text`` compacted with the standard prefixes (``wdt:P31``); unknown prefixes
    and non-IRIs are returned unchanged."""
    if text.startswith("<") and text.endswith(">"):
        return compact_iri(text[1:-1])
    pfx, sep, local = text.partition(":")
    if not sep or pfx not in prefixes:
        return text
    return compact_iri(prefixes[pfx] + local)


def wikidata_ref(node: Any, prefixes: Mapping[str, str]) -> WikidataRef | None:
    """The Wikidata item/property reference of an IRI node ``("iri", token)`` or IRI text,
    else ``None``."""
    if isinstance(node, tuple):
        if len(node) != 2 or node[0] != "iri":
            return None
        node = str(node[1])
    if not isinstance(node, str):
        return None
    c = compact(node, prefixes)
    fam, sep, local = c.partition(":")
    if not sep or not _LOCAL_ID.match(local):
        return None
    if fam in ITEM_FAMILIES and local[0] == "Q":
        return WikidataRef(fam, local, node)
    if fam in PROPERTY_FAMILIES and local[0] == "P":
        return WikidataRef(fam, local, node)
    return None


def refs_in_tree(tree: tuple) -> list[WikidataRef]:
    """The Wikidata references of a parsed query (``parsers.sparql.parse_tree``), in the order
    of their first occurrence, one per id."""
    from parsers.sparql_transform import find_nodes

    prefixes = prefix_map(tree)
    out: dict[str, WikidataRef] = {}
    for _, node in find_nodes(tree[1:], lambda n: isinstance(n, tuple) and len(n) == 2 and n[0] == "iri"):
        ref = wikidata_ref(node, prefixes)
        if ref is not None:
            out.setdefault(ref.id, ref)
    return list(out.values())


def with_id(text: str, new_id: str) -> str:
    """``text`` (an IRI ending with a Wikidata id, either spelling) with that id replaced."""
    m = _ID_AT_END.search(text)
    if not m:
        raise ValueError(f"no Wikidata id at the end of {text!r}")
    return text[:m.start()] + new_id + m.group(3)
