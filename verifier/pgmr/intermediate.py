"""The PGMR intermediate form and grounding it back to SPARQL.

Each KG identifier of a query is replaced by its label between ``starturi`` and ``enduri``,
keeping what says where it came from, so that grounding restores the same token shape:

=========================================  ============================================
SPARQL                                     intermediate
=========================================  ============================================
``wdt:P2067``                              ``wdt:starturi mass enduri``
``wd:Q2270``                               ``wd:starturi benzene enduri``
``<http://www.wikidata.org/entity/Q42>``   ``<http://www.wikidata.org/entity/starturi Douglas Adams enduri>``
``ex:foo`` (non-Wikidata, in the memory)   ``ex:starturi foo label enduri``
=========================================  ============================================

The kind to retrieve follows from the namespace: the Wikidata property namespaces (``wdt: p:
ps: pq:`` …) ask for a property, ``wd:`` for an item (or class); other namespaces and the bare
paper form ``starturi label enduri`` (no prefix) search both kinds, and a bare marker is
grounded to ``wd:Q…`` / ``wdt:P…``.  Everything outside the markers is copied unchanged, and
markers inside string literals or comments are left alone.

Identifiers that are not in the memory are left as they are by :func:`to_intermediate` and
reported by :func:`intermediate_form`.
"""

from __future__ import annotations

import logging
import re
from collections import defaultdict
from dataclasses import dataclass
from typing import Callable, Sequence

from verifier.namespaces import WIKIDATA_PREFIXES
from verifier.pgmr.memory import Candidate, Memory
from verifier.pgmr.symbols import Kind, Symbol, kind_of_wikidata_id
from verifier.pgmr.tokenizer import (PN_PREFIX, Identifier, declared_prefixes, identifiers,
                                     namespace_kind, scan)

__all__ = ["START", "END", "IntermediateForm", "IntermediateSyntaxError", "Marker",
           "LabelGrounding", "GroundingResult", "to_intermediate", "intermediate_form",
           "markers", "ground", "ground_many", "uri_set"]

log = logging.getLogger(__name__)

START, END = "starturi", "enduri"
_MARKER_HEAD = re.compile(r"(?:(?P<pfx>" + PN_PREFIX + r")?(?P<colon>:)"
                          r"|<(?P<ns>[^<>\"{}|^`\\\x00-\x20]*))?" + START + r"(?=\s)")
_MARKER_TAIL = re.compile(r"\s+(?P<label>.*?)\s*(?<![\w\-])" + END + r"(?![\w\-])", re.DOTALL)
_NAME_CHAR = re.compile(r"[\w\-.:]")
_SAFE_LOCAL = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_\-]*")


class IntermediateSyntaxError(ValueError):
    """A ``starturi`` without its ``enduri``."""


@dataclass(frozen=True, slots=True)
class IntermediateForm:
    """Result of :func:`intermediate_form`: the text, the identifiers replaced by their
    label, and those left as they were because the memory does not know them."""

    text: str
    replaced: tuple[Identifier, ...]
    missing: tuple[Identifier, ...]


def _marker_for(ident: Identifier, label: str) -> str:
    tok = ident.token
    if tok.prefix is not None:
        return f"{tok.prefix}:{START} {label} {END}"
    if ident.namespace is not None:
        return f"<{ident.namespace}{START} {label} {END}>"
    return f"<{START} {label} {END}>"


def intermediate_form(sparql: str, memory: Memory, *,
                      label_of: Callable[[Identifier, Symbol], str] | None = None
                      ) -> IntermediateForm:
    """Replace every identifier of ``sparql`` known to ``memory`` by its label marker.

    ``label_of(identifier, symbol)`` chooses the text written for an identifier (default:
    its label); benchmarks use it to write degraded labels.
    """
    idents = identifiers(sparql, known=memory.__contains__)
    out: list[str] = []
    pos = 0
    replaced: list[Identifier] = []
    missing: list[Identifier] = []
    for ident in idents:
        sym = memory.get(ident.id)
        if sym is None:
            label = None
        else:
            label = " ".join((sym.label if label_of is None else label_of(ident, sym)).split())
        if label is None or re.search(r"(?<![\w\-])(?:" + START + "|" + END + r")(?![\w\-])",
                                      label):
            if label is not None:
                log.warning("label of %s contains a marker word; left as is", ident.id)
            missing.append(ident)
            continue
        out.append(sparql[pos:ident.token.start])
        out.append(_marker_for(ident, label))
        pos = ident.token.end
        replaced.append(ident)
    out.append(sparql[pos:])
    return IntermediateForm("".join(out), tuple(replaced), tuple(missing))


def to_intermediate(sparql: str, memory: Memory) -> str:
    """The intermediate form of ``sparql`` (identifiers unknown to ``memory`` kept as is)."""
    return intermediate_form(sparql, memory).text


@dataclass(frozen=True, slots=True)
class Marker:
    """One ``starturi … enduri`` marker of an intermediate query."""

    start: int
    end: int
    text: str
    label: str
    prefix: str | None       # "wdt" for ``wdt:starturi``, "" for ``:starturi``, None otherwise
    namespace: str | None    # expansion of the prefix, or the ``<ns`` part
    angle: bool              # written as ``<nsstarturi … enduri>``
    kind: Kind | None        # kind asked for (None: any)


def _match_marker(text: str, i: int, prefixes: dict[str, str]) -> Marker | None:
    if i > 0 and _NAME_CHAR.match(text[i - 1]) and text[i] != "<":
        return None
    head = _MARKER_HEAD.match(text, i)
    if not head:
        return None
    tail = _MARKER_TAIL.match(text, head.end())
    if not tail:
        raise IntermediateSyntaxError(f"'{START}' at offset {i} has no matching '{END}'")
    end = tail.end()
    angle = head.group("ns") is not None
    if angle:
        if end < len(text) and text[end] == ">":
            end += 1
        ns: str | None = head.group("ns") or None
        prefix = None
    elif head.group("colon"):
        prefix = head.group("pfx") or ""
        ns = prefixes.get(prefix)
    else:
        prefix, ns = None, None
    return Marker(i, end, text[i:end], " ".join(tail.group("label").split()), prefix, ns,
                  angle, namespace_kind(ns))


def markers(intermediate: str) -> list[Marker]:
    """The markers of an intermediate query, in order (string literals and comments skipped).

    Raises :class:`IntermediateSyntaxError` for an unterminated marker.
    """
    prefixes = dict(WIKIDATA_PREFIXES)
    prefixes.update(declared_prefixes(intermediate))
    found: list[Marker] = []

    def hook(text: str, i: int) -> int | None:
        m = _match_marker(text, i, prefixes)
        if m is None:
            return None
        found.append(m)
        return m.end

    for _ in scan(intermediate, prefixes, hook=hook):
        pass
    return found


@dataclass(frozen=True, slots=True)
class LabelGrounding:
    """How one marker was grounded: ``candidates`` best first; ``chosen`` is ``None`` when
    the best score is below the threshold (refusal); ``collisions`` are other identifiers
    (any kind) with the same surface string as the chosen one."""

    marker: Marker
    candidates: tuple[Candidate, ...]
    chosen: Candidate | None
    replacement: str | None
    collisions: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        return self.marker.label

    @property
    def refused(self) -> bool:
        return self.chosen is None


@dataclass(frozen=True, slots=True)
class GroundingResult:
    """The grounded query.  ``sparql`` has every accepted marker replaced by an identifier;
    refused markers are left in place (so ``sparql`` is only valid SPARQL when ``ok``)."""

    intermediate: str
    sparql: str
    labels: tuple[LabelGrounding, ...]
    threshold: float

    @property
    def ok(self) -> bool:
        """Every label was grounded."""
        return all(not g.refused for g in self.labels)

    @property
    def ungrounded(self) -> tuple[str, ...]:
        """Labels below the refusal threshold."""
        return tuple(g.label for g in self.labels if g.refused)

    @property
    def ids(self) -> tuple[str, ...]:
        """Chosen identifiers, in marker order."""
        return tuple(g.chosen.id for g in self.labels if g.chosen is not None)

    def to_dict(self) -> dict:
        """JSON-ready summary."""
        return {
            "sparql": self.sparql, "ok": self.ok, "threshold": self.threshold,
            "labels": [{
                "label": g.label, "kind": g.marker.kind.value if g.marker.kind else None,
                "chosen": g.chosen.id if g.chosen else None,
                "score": round(g.candidates[0].score, 4) if g.candidates else None,
                "replacement": g.replacement, "collisions": list(g.collisions),
                "candidates": [{"id": c.id, "label": c.label, "kind": c.kind.value,
                                "score": round(c.score, 4), "matched": c.matched,
                                "via_alias": c.via_alias} for c in g.candidates],
            } for g in self.labels],
        }


def _render(marker: Marker, ident: str, kind: Kind) -> str:
    wd_kind = kind_of_wikidata_id(ident)
    ns = marker.namespace
    if wd_kind is not None:  # Wikidata id
        if ns is None or namespace_kind(ns) is None:
            ns = WIKIDATA_PREFIXES["wdt" if kind is Kind.PROPERTY else "wd"]
            if marker.prefix is None and not marker.angle:
                return f"{'wdt' if kind is Kind.PROPERTY else 'wd'}:{ident}"
            return f"<{ns}{ident}>"
        if marker.angle:
            return f"<{ns}{ident}>"
        return f"{marker.prefix}:{ident}"
    if marker.prefix is not None and ns and ident.startswith(ns) and _SAFE_LOCAL.fullmatch(
            ident[len(ns):]):
        return f"{marker.prefix}:{ident[len(ns):]}"
    return f"<{ident}>"


def ground_many(intermediates: Sequence[str], memory: Memory, *, k: int = 5,
                threshold: float | None = None) -> list[GroundingResult]:
    """Ground several intermediate queries (labels are encoded and searched in batches).

    ``threshold`` defaults to the encoder's ``default_threshold``.
    """
    thr = memory.encoder.default_threshold if threshold is None else threshold
    parsed = [markers(text) for text in intermediates]
    # batch by requested kind group
    by_group: dict[str | None, dict[str, list[Candidate]]] = defaultdict(dict)
    for ms in parsed:
        for m in ms:
            by_group[m.kind.group if m.kind else None].setdefault(m.label, [])
    for group, table in by_group.items():
        labels = list(table)
        results = memory.search(labels, kind=group, k=k)
        for label, cands in zip(labels, results):
            table[label] = cands
    out: list[GroundingResult] = []
    for text, ms in zip(intermediates, parsed):
        pieces: list[str] = []
        pos = 0
        gs: list[LabelGrounding] = []
        for m in ms:
            cands = tuple(by_group[m.kind.group if m.kind else None][m.label])
            chosen = cands[0] if cands and cands[0].score >= thr else None
            repl = None
            coll: tuple[str, ...] = ()
            if chosen is not None:
                repl = _render(m, chosen.id, chosen.kind)
                coll = tuple(s.id for s, _ in memory.table.named(chosen.matched)
                             if s.id != chosen.id)
            pieces.append(text[pos:m.start])
            pieces.append(repl if repl is not None else m.text)
            pos = m.end
            gs.append(LabelGrounding(m, cands, chosen, repl, coll))
        pieces.append(text[pos:])
        out.append(GroundingResult(text, "".join(pieces), tuple(gs), thr))
    return out


def ground(intermediate: str, memory: Memory, *, k: int = 5,
           threshold: float | None = None) -> GroundingResult:
    """Ground one intermediate query: each marker becomes the nearest identifier of the
    kind its namespace asks for, unless the best score is below ``threshold``."""
    return ground_many([intermediate], memory, k=k, threshold=threshold)[0]


def uri_set(sparql: str, known: Memory | None = None) -> frozenset[str]:
    """The set of identifier IRIs of a query, as full IRIs (for URI exact match).

    Prefixed names are expanded with the query's declarations and the Wikidata prefixes,
    so ``wdt:P31`` and ``<http://www.wikidata.org/prop/direct/P31>`` are equal.
    """
    idents = identifiers(sparql, known=None if known is None else known.__contains__)
    return frozenset(i.token.iri for i in idents if i.token.iri is not None)
