"""KG symbols (identifier, label, aliases, description, kind) and the table that holds them.

A :class:`SymbolTable` is the plain, encoder-free part of the PGMR memory: it answers "does
this identifier exist?", "what is its label?" and "which identifiers share this surface
string?" (label collisions).  Identifiers are Wikidata ids (``Q42``, ``P31``) for Wikidata
and full IRIs (``http://example.org/x``) for any other KG.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType
from typing import Iterable, Iterator, Mapping

__all__ = ["Kind", "Symbol", "SymbolTable", "Collision", "surface_key", "kind_of_wikidata_id",
           "id_rank"]


class Kind(str, Enum):
    """What an identifier denotes.  Classes are items that are used as types; for grounding
    an item position (``wd:``) accepts items and classes, a property position properties."""

    ITEM = "item"
    PROPERTY = "property"
    CLASS = "class"

    @property
    def group(self) -> str:
        """``"property"`` or ``"item"`` (items and classes share one index partition)."""
        return "property" if self is Kind.PROPERTY else "item"


_WS = re.compile(r"\s+")
_WD_ID = re.compile(r"^([PQL])(\d+)$")


def surface_key(text: str) -> str:
    """The key under which two surface strings count as the same label: Unicode NFKC,
    case-folded, whitespace collapsed.  Punctuation and accents are kept (``C`` and ``C++``
    are different labels)."""
    return _WS.sub(" ", unicodedata.normalize("NFKC", text).casefold()).strip()


def kind_of_wikidata_id(identifier: str) -> Kind | None:
    """``Kind.PROPERTY`` for ``P…``, ``Kind.ITEM`` for ``Q…`` (and lexemes ``L…``), else None."""
    m = _WD_ID.match(identifier)
    if not m:
        return None
    return Kind.PROPERTY if m.group(1) == "P" else Kind.ITEM


def id_rank(identifier: str) -> tuple[int, int, str]:
    """Tie-break prior among identifiers with the same label: Wikidata ids with a smaller
    number first (older ids are on average the more central ones), then everything else in
    lexicographic order.  Smaller is preferred."""
    m = _WD_ID.match(identifier)
    if m:
        return (0, int(m.group(2)), identifier)
    return (1, 0, identifier)


@dataclass(frozen=True, slots=True)
class Symbol:
    """One KG identifier with its English names."""

    id: str
    label: str
    kind: Kind
    aliases: tuple[str, ...] = ()
    description: str = ""

    @property
    def names(self) -> tuple[str, ...]:
        """Label first, then aliases (duplicates by :func:`surface_key` removed)."""
        seen: set[str] = set()
        out: list[str] = []
        for n in (self.label, *self.aliases):
            k = surface_key(n)
            if k and k not in seen:
                seen.add(k)
                out.append(n)
        return tuple(out)


@dataclass(frozen=True, slots=True)
class Collision:
    """Several identifiers named by the same surface string (as label or alias)."""

    key: str
    ids: tuple[str, ...]
    as_label: tuple[str, ...]

    @property
    def kinds(self) -> frozenset[str]:
        return frozenset(i[:1] for i in self.ids)


@dataclass(frozen=True)
class SymbolTable:
    """An immutable collection of :class:`Symbol` with look-ups by id and by surface string.

    Build with :meth:`from_symbols`; later symbols with an id already present are ignored
    (first one wins) and counted in ``duplicates``.
    """

    symbols: tuple[Symbol, ...]
    by_id: Mapping[str, int] = field(repr=False)
    by_surface: Mapping[str, tuple[tuple[int, bool], ...]] = field(repr=False)
    duplicates: int = 0

    @classmethod
    def from_symbols(cls, symbols: Iterable[Symbol]) -> "SymbolTable":
        """Index ``symbols`` by id and by the surface key of every label and alias."""
        kept: list[Symbol] = []
        by_id: dict[str, int] = {}
        dup = 0
        for s in symbols:
            if s.id in by_id:
                dup += 1
                continue
            by_id[s.id] = len(kept)
            kept.append(s)
        surf: dict[str, list[tuple[int, bool]]] = defaultdict(list)
        for i, s in enumerate(kept):
            for j, name in enumerate(s.names):
                surf[surface_key(name)].append((i, j == 0))
        frozen = {k: tuple(v) for k, v in surf.items()}
        return cls(tuple(kept), MappingProxyType(by_id), MappingProxyType(frozen), dup)

    def __len__(self) -> int:
        return len(self.symbols)

    def __contains__(self, identifier: object) -> bool:
        return identifier in self.by_id

    def __iter__(self) -> Iterator[Symbol]:
        return iter(self.symbols)

    def get(self, identifier: str) -> Symbol | None:
        """The symbol with this id, or ``None``."""
        i = self.by_id.get(identifier)
        return None if i is None else self.symbols[i]

    def named(self, text: str) -> tuple[tuple[Symbol, bool], ...]:
        """Symbols having ``text`` as label (flag ``True``) or alias (``False``)."""
        return tuple((self.symbols[i], is_label)
                     for i, is_label in self.by_surface.get(surface_key(text), ()))

    def collisions(self, *, labels_only: bool = False) -> list[Collision]:
        """Surface strings that name more than one identifier.  With ``labels_only`` only
        strings that are the label of at least two identifiers."""
        out: list[Collision] = []
        for key, entries in self.by_surface.items():
            ids = tuple(self.symbols[i].id for i, _ in entries)
            as_label = tuple(self.symbols[i].id for i, lab in entries if lab)
            if (len(as_label) if labels_only else len(ids)) > 1:
                out.append(Collision(key, ids, as_label))
        return out

    def label_collision(self, identifier: str, *, same_kind: bool = True) -> tuple[str, ...]:
        """Other identifiers whose label equals this identifier's label (same kind group by
        default)."""
        s = self.get(identifier)
        if s is None:
            return ()
        out = []
        for other, is_label in self.named(s.label):
            if other.id != identifier and is_label and (
                    not same_kind or other.kind.group == s.kind.group):
                out.append(other.id)
        return tuple(out)

    def fingerprint(self) -> str:
        """A short content hash (ids, labels, aliases, kinds) used to check that a saved
        index belongs to this table."""
        import hashlib

        h = hashlib.blake2b(digest_size=12)
        for s in self.symbols:
            h.update("\x1f".join((s.id, s.kind.value, *s.names)).encode("utf-8"))
            h.update(b"\x1e")
        return h.hexdigest()
