"""The query side of grounding: the KG symbols of a query (properties, items, classes,
literals, qualifiers), each once (:func:`query_symbols`)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Collection

from verifier.logic import Atom, IRI, Literal, Term, subformulas
from verifier.namespaces import wikidata_id
from verifier.query import Query

__all__ = ["SymbolUse", "CLASS_PROPS", "query_symbols"]


@dataclass(frozen=True)
class SymbolUse:
    """A KG symbol of the query: ``symbol`` as written (``wdt:P2067``), ``id`` (``P2067``),
    ``kind`` (property / item / class / literal)."""

    symbol: str
    id: str
    kind: str
    term: Term | None = None
    #: for a class: the query property it is the object of (``wdt:P31``, ``wdt:P106``)
    via: str | None = None



_PROPERTY_PREFIXES = ("wdt", "p", "ps", "pq", "psv", "pqv", "wdtn", "psn", "pqn", "pr", "prv")
#: Wikidata's *instance of* and *subclass of*: their named objects are classes.
CLASS_PROPS = frozenset({"P31", "P279"})


def query_symbols(query: Query, class_props: Collection[str] = CLASS_PROPS) -> list[SymbolUse]:
    """Properties, items, classes and literals of a query (its pattern and its ``OPTIONAL``
    groups), each once.  The named objects of ``class_props`` (Wikidata ids: instance of,
    subclass of, and the classifying properties of class templates such as occupation) are
    classes, supported by the class link."""
    out: dict[tuple[str, str], SymbolUse] = {}
    for g in itertools.chain(subformulas(query.pattern), *map(subformulas, query.optional_parts)):
        if isinstance(g, Atom):
            base = g.pred.rstrip("*+")
            pfx = base.partition(":")[0]
            wid = wikidata_id(base)
            if wid and pfx in ("pq", "pqv", "pqn", "pr", "prv"):
                out.setdefault(("qualifier", wid), SymbolUse(base, wid, "qualifier"))
            elif wid and pfx in _PROPERTY_PREFIXES:
                if wid in class_props and len(g.args) == 2 and isinstance(g.args[1], IRI):
                    pass  # instance of / occupation ... a named class: supported by the class link
                else:
                    out.setdefault(("property", wid), SymbolUse(base, wid, "property"))
            for i, t in enumerate(g.args):
                _term_symbol(t, out, is_class=(wid in class_props and i == 1),
                             via=f"wdt:{wid}" if wid else None)
        elif hasattr(g, "left"):
            for t in (g.left, g.right):
                if isinstance(t, (IRI, Literal)):
                    _term_symbol(t, out, False)
    return list(out.values())


def _term_symbol(t: Term, out: dict, is_class: bool, via: str | None = None) -> None:
    if isinstance(t, IRI):
        wid = wikidata_id(t.value)
        if wid and t.value.startswith("wd:"):
            kind = "class" if is_class else "item"
            key = (kind, wid)
            if ("item", wid) in out and kind == "class":
                del out[("item", wid)]
            if ("class", wid) not in out:
                out.setdefault(key, SymbolUse(t.value, wid, kind, t, via if is_class else None))
    elif isinstance(t, Literal):
        out.setdefault(("literal", t.lexical), SymbolUse(t.lexical, t.lexical, "literal", t))
