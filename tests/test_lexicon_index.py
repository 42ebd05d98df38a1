"""The lexicon entries looked up by symbol (:meth:`LexiconIndex.entries_for`, issue 58
latency) are those a scan of every entry finds, in the same order, for every symbol of the
shipped pack; the names, labels and entries built from them are the same."""

from __future__ import annotations

import pytest

from verifier.axioms import default_pack_dirs, load_pack
from verifier.grounding import query_symbols
from verifier.grounding.lexicon import LexiconIndex
from verifier.namespaces import wikidata_id


@pytest.fixture(scope="module")
def index() -> LexiconIndex:
    return LexiconIndex(load_pack(default_pack_dirs([])))


def _scan(index: LexiconIndex, sym_id, symbol):
    return [e for lex in index.pack.lexicons for e in lex.entries
            if any(wikidata_id(s) == sym_id or s == symbol for s in e.symbols)]


def test_entries_for_every_symbol_are_those_of_a_scan(index):
    symbols = {s for e in index.entries for s in e.symbols}
    assert symbols
    for s in sorted(symbols):
        wid = wikidata_id(s)
        assert index.entries_for(wid, s) == _scan(index, wid, s), s
        if wid is not None:
            assert index.entries_for(wid) == _scan(index, wid, None), s
    assert index.entries_for("Q0", "wd:Q0") == []
    assert index.entries_for(None, "no:such") == _scan(index, None, "no:such")


def test_names_label_and_entry_for_a_query_symbol(index):
    from parsers.sparql import parse_query

    q = parse_query("SELECT ?x WHERE { wd:Q76 wdt:P26 ?x . ?x wdt:P19 ?p }")
    for sym in query_symbols(q):
        names = index.names(sym.id, sym.symbol, None)
        scanned = [w for e in _scan(index, sym.id, sym.symbol) for w in e.words]
        assert [n.name for n in names] == [w for w in scanned if n_keys(w)]
        first = _scan(index, sym.id, None)
        assert index.label(sym.id) == (first[0].words[0] if first else None)


def n_keys(w: str) -> bool:
    from verifier.lexical import content_keys

    return bool(content_keys(w))
