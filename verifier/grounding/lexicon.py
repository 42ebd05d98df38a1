"""The names of KG symbols: the KG labels and aliases (:class:`~verifier.lexical.LabelIndex`)
and the words of the pack's lexicon entries (:class:`LexiconIndex`), together
:class:`SymbolNames`."""

from __future__ import annotations

import threading
from functools import lru_cache
from typing import Iterable, Mapping

from verifier.axioms.model import LexiconEntry, Pack
from verifier.grounding.context import frozen_mapping
from verifier.grounding.symbols import SymbolUse
from verifier.grounding.units import Unit
from verifier.identity import Same
from verifier.lexical import LabelIndex, NameEntry, content_keys, label_shape
from verifier.namespaces import wikidata_id

__all__ = ["LexiconIndex", "SymbolNames"]

#: the lexicon names cached per (symbol id, symbol, part of speech) before the cache is cleared
_NAMES_CACHE_LIMIT = 200_000


class LexiconIndex:
    """The lexicon entries of a pack, looked up by symbol, by word and by template.

    What depends on the pack alone is computed once here (:attr:`keys`,
    :attr:`valued_items`); the names per symbol are cached as they are asked for (a cache of
    values that depend on the pack alone, the same whatever call fills it).
    """

    def __init__(self, pack: Pack) -> None:
        self.pack = pack
        #: lexicon names per (symbol id, symbol, part of speech): scanning every lexicon entry
        #: for each symbol of each reading was a tenth of the verification time
        self._names: dict[tuple[str, str, str | None], tuple[NameEntry, ...]] = {}
        self._lock = threading.Lock()
        #: every lexicon entry, in the pack's order, and where the entries for a symbol are:
        #: by its Wikidata id and by the symbol as written (scanning every entry for each
        #: symbol made a query of many symbols slow)
        self.entries: tuple[LexiconEntry, ...] = tuple(e for lex in pack.lexicons for e in lex.entries)
        by_id: dict[str, list[int]] = {}
        by_symbol: dict[str, list[int]] = {}
        for i, e in enumerate(self.entries):
            for s in e.symbols:
                wid = wikidata_id(s)
                if wid is not None:
                    by_id.setdefault(wid, []).append(i)
                by_symbol.setdefault(s, []).append(i)
        self._by_id = frozen_mapping((k, tuple(dict.fromkeys(v))) for k, v in by_id.items())
        self._by_symbol = frozen_mapping((k, tuple(dict.fromkeys(v))) for k, v in by_symbol.items())
        #: the matching keys of every lexicon word (lexicon words are known words: "pakistani")
        self.keys: frozenset[str] = frozenset(k for lex in pack.lexicons for e in lex.entries
                                              for w in e.words for k in content_keys(w))
        self.valued_items: Mapping[str, frozenset[str]] = self._find_valued_items()

    def entries_for(self, sym_id: str | None, symbol: str | None = None) -> list[LexiconEntry]:
        """The entries with a symbol whose Wikidata id is ``sym_id`` or that is ``symbol`` as
        written, in the pack's order (looked up, not scanned)."""
        if sym_id is None:  # every entry with a symbol that has no Wikidata id matches
            return [e for e in self.entries
                    if any(wikidata_id(s) is None or s == symbol for s in e.symbols)]
        found = set(self._by_id.get(sym_id, ()))
        if symbol is not None:
            found.update(self._by_symbol.get(symbol, ()))
        return [self.entries[i] for i in sorted(found)]

    def names(self, sym_id: str, symbol: str, pos: str | None) -> tuple[NameEntry, ...]:
        """The lexicon words for a symbol as names (only the entries for part of speech
        ``pos`` when it is given)."""
        key = (sym_id, symbol, pos)
        got = self._names.get(key)
        if got is None:
            out = []
            for e in self.entries_for(sym_id, symbol):
                if pos is not None and e.pos is not None and e.pos != pos:
                    continue
                for w in e.words:
                    keys = content_keys(w)
                    if keys:
                        out.append(NameEntry(sym_id, w, keys, label_shape(w), False))
            got = tuple(out)
            with self._lock:
                if len(self._names) > _NAMES_CACHE_LIMIT:  # bounded on audits of millions of queries
                    self._names.clear()
                self._names[key] = got
        return got

    def label(self, sym_id: str) -> str | None:
        """The first word of the first lexicon entry for a symbol."""
        for e in self.entries_for(sym_id):
            return e.words[0]
        return None

    def listed_prepositions(self, sym: SymbolUse, units: Iterable[Unit], *,
                            qualifier: bool = False) -> list[tuple[LexiconEntry, Unit, str]]:
        """(entry, unit, word) for each preposition among ``units`` whose word a lexicon entry
        for prepositions (``pos: p``) lets stand for ``sym`` ("in" -> country | continent |
        located in ...; "after" -> replaces); for a statement's ``qualifier``, which qualifies
        what a verb says, not the entries for a preposition on a thing only."""
        out = []
        for e in self.entries_for(sym.id, sym.symbol):
            if e.pos != "p":
                continue
            if qualifier and self.relates_things_only(e):
                continue  # "Jeremiah in the Nevi'im" (part of the series) qualifies no statement
            for u in units:
                word = (u.lemma.split() or [""])[0]
                if u.kind == "preposition" and word in e.words:
                    out.append((e, u, word))
        return out

    def relates_things_only(self, e: LexiconEntry) -> bool:
        """Whether a preposition entry's template applies only to a preposition on a thing
        (its first argument an instance, ``match.expressed: [1]``), never on a verb's event
        (``preposition_relation_sequence``)."""
        template = self.pack.templates.get(e.template)
        return template is not None and 1 in template.match.expressed


    def siblings(self, entry: LexiconEntry | None) -> list[LexiconEntry]:
        """``entry`` and the other entries for the same words, part of speech and symbols
        (a word may name a symbol through several templates: "marry" -> spouse as a
        transitive verb and, with a coordinated subject, reciprocally)."""
        if entry is None:
            return []
        return list(_siblings(Same(self.pack), Same(entry)))

    def entry_for(self, name: str, sym: SymbolUse, pos: str | None = None) -> LexiconEntry | None:
        """The lexicon entry that gives ``sym`` the name ``name``; with ``pos``, an entry for
        that part of speech whose word is the name or has its stem wins ("married" found for
        the verb "marry": the verb's entries, not the adjective's)."""
        keys = content_keys(name) if pos is not None else ()
        fallback = None
        for e in self.entries_for(sym.id, sym.symbol):
            same_pos = pos is not None and e.pos == pos
            named = name in e.words
            if not (named or (same_pos and any(content_keys(w) == keys for w in e.words))):
                continue
            if same_pos:
                return e
            if fallback is None and named:
                fallback = e
        return fallback

    def _find_valued_items(self) -> Mapping[str, frozenset[str]]:
        """Item id -> keys of the nouns that lexicon entries of template
        ``noun_of_item_value`` link to it (a part of a classification: "health" -> NFPA 704
        via safety classification and labelling)."""
        out: dict[str, set[str]] = {}
        for lex in self.pack.lexicons:
            for e in lex.entries:
                if e.template == "noun_of_item_value" and e.via:
                    for sym in e.symbols:
                        wid = wikidata_id(sym)
                        if wid:
                            out.setdefault(wid, set()).update(k for w in e.words for k in content_keys(w))
        return frozen_mapping((k, frozenset(v)) for k, v in out.items())


class SymbolNames:
    """Every name of a KG symbol: its KG labels and aliases, then its lexicon words."""

    def __init__(self, labels: LabelIndex, lexicon: LexiconIndex) -> None:
        self.labels = labels
        self.lexicon = lexicon
        self._demonyms: Mapping[str, frozenset[str]] | None = None

    def names_of(self, sym: SymbolUse, pos: str | None = None) -> list[NameEntry]:
        """KG labels and aliases of a symbol and the lexicon words for it (only the entries
        for part of speech ``pos`` when it is given: "record" the verb, not the noun)."""
        return list(self.labels.names.get(sym.id, ())) + list(self.lexicon.names(sym.id, sym.symbol, pos))

    def label(self, sym_id: str) -> str:
        """The KG label of a symbol, else its first lexicon word, else its id."""
        return self.labels.label(sym_id) or self.lexicon.label(sym_id) or sym_id

    def demonym_keys(self) -> Mapping[str, frozenset[str]]:
        """Matching key of each word that a lexicon entry reads as "of COUNTRY" (template
        ``adjective_item_of``: "the French president" is the president of France) -> the keys
        of the country's label: "the Australian Senate" writes the name *Senate of Australia*,
        "the Brazilian national soccer team" *Brazil national football team*.  Computed on the
        first use (from the labels as they are then) and kept: it depends on the pack and the
        labels only."""
        if self._demonyms is None:
            out: dict[str, set[str]] = {}
            for lex in self.lexicon.pack.lexicons:
                for e in lex.entries:
                    if e.template != "adjective_item_of":
                        continue
                    for sym in e.symbols:
                        label = self.labels.label(wikidata_id(sym) or sym)
                        if not label:
                            continue
                        for w in e.words:
                            for k in content_keys(w):
                                out.setdefault(k, set()).update(content_keys(label))
            self._demonyms = frozen_mapping((k, frozenset(v)) for k, v in out.items())
        return self._demonyms


@lru_cache(maxsize=4096)
def _siblings(pack: Same, key: Same) -> tuple[LexiconEntry, ...]:
    """:meth:`LexiconIndex.siblings` of the entry ``key.obj`` among the lexicons of
    ``pack.obj`` (found once per entry: the pack does not change)."""
    entry = key.obj
    out = [entry]
    for lex in pack.obj.lexicons:
        for e in lex.entries:
            if (e is not entry and e.symbols == entry.symbols and e.pos == entry.pos
                    and set(e.words) & set(entry.words)):
                out.append(e)
    return tuple(out)
