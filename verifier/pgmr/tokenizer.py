"""A small SPARQL scanner that finds IRIs (prefixed names and ``<...>``) in query text.

It does not parse SPARQL; it walks the text once, skipping string literals (all four quote
forms, with escapes), comments (``#`` to end of line), variables, and the IRIs of
``PREFIX``/``BASE`` declarations, and reports every other IRI token with its character span
and its expansion (declared prefixes override the implicit Wikidata ones of
:data:`verifier.namespaces.WIKIDATA_PREFIXES`).  ``<`` starts an IRI only when it matches the
SPARQL ``IRIREF`` production (no spaces), so ``?x < 5`` is an operator.

:func:`identifiers` keeps the IRIs that are KG identifiers: Wikidata entity/property IRIs in
any Wikidata namespace, and any IRI the caller's ``known`` predicate accepts (for other KGs).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterator, Mapping

from verifier.namespaces import WIKIDATA_PREFIXES
from verifier.pgmr.loaders import identifier_of_iri
from verifier.pgmr.symbols import Kind, kind_of_wikidata_id

__all__ = ["IriToken", "Identifier", "scan", "identifiers", "declared_prefixes",
           "expected_kind", "PN_PREFIX", "IRIREF"]

IRIREF = re.compile(r"<([^<>\"{}|^`\\\x00-\x20]*)>")
PN_PREFIX = r"[A-Za-z\u00C0-\uFFFF](?:[\w\-.]*[\w\-])?"
_PNAME = re.compile(r"(" + PN_PREFIX + r")?:((?:[\w:]|%[0-9A-Fa-f]{2}|\\[_~.\-!$&'()*+,;=/?#@%])"
                    r"(?:[\w\-.:]|%[0-9A-Fa-f]{2}|\\[_~.\-!$&'()*+,;=/?#@%])*)?")
_PREFIX_DECL = re.compile(r"PREFIX\s+(" + PN_PREFIX + r")?:\s*<([^<>\"{}|^`\\\x00-\x20]*)>",
                          re.IGNORECASE)
_BASE_DECL = re.compile(r"BASE\s*<[^<>\"{}|^`\\\x00-\x20]*>", re.IGNORECASE)
_VAR = re.compile(r"[?$][\w\u00B7]+")
_NAME_CHAR = re.compile(r"[\w\-.:]")

_WD_ENTITY = WIKIDATA_PREFIXES["wd"]
_WD_PROPERTY_NS = frozenset(WIKIDATA_PREFIXES[p] for p in (
    "wdt", "wdtn", "p", "ps", "psv", "psn", "pq", "pqv", "pqn", "pr", "prv", "wdno"))


@dataclass(frozen=True, slots=True)
class IriToken:
    """An IRI as written: ``text`` spans ``start:end`` of the query; ``prefix`` is the prefix
    of a prefixed name (``""`` for the empty prefix ``:x``) or ``None`` for ``<...>``;
    ``iri`` the expansion (``None`` when the prefix is undeclared and unknown)."""

    start: int
    end: int
    text: str
    prefix: str | None
    local: str
    iri: str | None


@dataclass(frozen=True, slots=True)
class Identifier:
    """A KG identifier occurring in a query: ``id`` is the memory identifier (``Q42``, or the
    full IRI for other KGs), ``namespace`` the IRI part before it (``None`` when the memory
    id is the full IRI), ``kind`` what the position expects (``None`` when unknown)."""

    token: IriToken
    id: str
    namespace: str | None
    kind: Kind | None


def _skip_string(text: str, i: int) -> int:
    q = text[i]
    if text.startswith(q * 3, i):
        j = i + 3
        while j < len(text):
            if text[j] == "\\":
                j += 2
                continue
            if text.startswith(q * 3, j):
                return j + 3
            j += 1
        return len(text)
    j = i + 1
    while j < len(text):
        c = text[j]
        if c == "\\":
            j += 2
            continue
        if c == q or c == "\n":
            return j + 1
        j += 1
    return len(text)


def scan(text: str, prefixes: Mapping[str, str] | None = None,
         hook: Callable[[str, int], int | None] | None = None) -> Iterator[IriToken]:
    """Yield the IRI tokens of ``text`` in order (declaration IRIs excluded).

    ``prefixes`` maps prefix to namespace (default: the Wikidata prefixes plus the query's
    own declarations).  ``hook(text, i)`` is tried first at every token position; when it
    returns an end offset the scanner jumps there (used to skip intermediate-form markers).
    """
    pfx = dict(WIKIDATA_PREFIXES) if prefixes is None else dict(prefixes)
    if prefixes is None:
        pfx.update(declared_prefixes(text))
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
            continue
        if hook is not None:
            end = hook(text, i)
            if end is not None:
                i = max(end, i + 1)
                continue
        if c == "#":
            j = text.find("\n", i)
            i = n if j < 0 else j + 1
            continue
        if c in "'\"":
            i = _skip_string(text, i)
            continue
        if c in "?$":
            m = _VAR.match(text, i)
            i = m.end() if m else i + 1
            continue
        if c == "<":
            m = IRIREF.match(text, i)
            if m:
                yield IriToken(i, m.end(), m.group(0), None, m.group(1), m.group(1))
                i = m.end()
            else:
                i += 1
            continue
        if c in "Pp" and (m := _PREFIX_DECL.match(text, i)) and (i == 0 or not
                                                                   _NAME_CHAR.match(text[i - 1])):
            i = m.end()
            continue
        if c in "Bb" and (m := _BASE_DECL.match(text, i)):
            i = m.end()
            continue
        if (c.isalpha() or c == ":") and (i == 0 or not _NAME_CHAR.match(text[i - 1])):
            m = _PNAME.match(text, i)
            if m:
                local = (m.group(2) or "")
                stripped = local.rstrip(".")
                end = m.end() - (len(local) - len(stripped))
                p = m.group(1) or ""
                ns = pfx.get(p)
                yield IriToken(i, end, text[i:end], p, stripped,
                               None if ns is None else ns + stripped.replace("\\", ""))
                i = end
                continue
            j = i
            while j < n and (text[j].isalnum() or text[j] == "_"):
                j += 1
            i = max(j, i + 1)
            continue
        i += 1


def declared_prefixes(text: str) -> dict[str, str]:
    """``PREFIX`` declarations of a query (outside strings and comments)."""
    out: dict[str, str] = {}
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "#":
            j = text.find("\n", i)
            i = n if j < 0 else j + 1
        elif c in "'\"":
            i = _skip_string(text, i)
        elif c == "<":
            m = IRIREF.match(text, i)
            i = m.end() if m else i + 1
        elif c in "Pp" and (i == 0 or not _NAME_CHAR.match(text[i - 1])) and (
                m := _PREFIX_DECL.match(text, i)):
            out[m.group(1) or ""] = m.group(2)
            i = m.end()
        else:
            i += 1
    return out


def expected_kind(namespace: str | None, identifier: str) -> Kind | None:
    """The kind a Wikidata namespace expects: property for the ``wdt: p: ps: pq:`` …
    namespaces, item for ``wd:`` (property for ``wd:P…``); ``None`` elsewhere."""
    if namespace in _WD_PROPERTY_NS:
        return Kind.PROPERTY
    if namespace == _WD_ENTITY:
        return kind_of_wikidata_id(identifier) or Kind.ITEM
    return None


def namespace_kind(namespace: str | None) -> Kind | None:
    """Kind expected by a namespace alone (for the intermediate form): property namespaces
    give property, the entity namespace item, anything else ``None``."""
    if namespace in _WD_PROPERTY_NS:
        return Kind.PROPERTY
    if namespace == _WD_ENTITY:
        return Kind.ITEM
    return None


def identifiers(text: str, known: Callable[[str], bool] | None = None) -> list[Identifier]:
    """The KG identifiers of a query, in order (see the module docstring)."""
    out: list[Identifier] = []
    for tok in scan(text):
        if tok.iri is None:
            continue
        ident = identifier_of_iri(tok.iri)
        if ident != tok.iri:
            ns = tok.iri[: len(tok.iri) - len(ident)]
            out.append(Identifier(tok, ident, ns, expected_kind(ns, ident)))
        elif known is not None and known(tok.iri):
            out.append(Identifier(tok, tok.iri, None, None))
    return out
