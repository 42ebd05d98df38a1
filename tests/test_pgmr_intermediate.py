"""PGMR intermediate form: tokenizer, SPARQL -> intermediate -> SPARQL, refusal, collisions."""

from __future__ import annotations

import pytest

from verifier.pgmr import (IntermediateSyntaxError, Kind, Memory, Symbol, ground, ground_many,
                           intermediate_form, markers, to_intermediate, uri_set)
from verifier.pgmr.tokenizer import declared_prefixes, identifiers, scan

SYMBOLS = [
    Symbol("P31", "instance of", Kind.PROPERTY, ("is a",)),
    Symbol("P2067", "mass", Kind.PROPERTY, ("weight",)),
    Symbol("P1082", "population", Kind.PROPERTY),
    Symbol("P585", "point in time", Kind.PROPERTY),
    Symbol("P17", "country", Kind.PROPERTY),
    Symbol("Q2270", "benzene", Kind.ITEM, ("benzol",)),
    Symbol("Q11", "mass", Kind.ITEM),
    Symbol("Q5", "human", Kind.ITEM),
    Symbol("Q42", "Douglas Adams", Kind.ITEM),
    Symbol("Q1045", "Somalia", Kind.ITEM),
    Symbol("Q6256", "country", Kind.CLASS),
    Symbol("Q1754454", "country", Kind.ITEM),
    Symbol("http://example.org/foo", "foo thing", Kind.ITEM),
]


@pytest.fixture(scope="module")
def memory():
    return Memory.build(SYMBOLS)


TRICKY = r'''PREFIX ex: <http://example.org/>
SELECT ?x WHERE { wd:Q42 wdt:P31 ?x . # wd:Q999 in a comment
  ?x rdfs:label 'wd:Q1 \' Tag:x' . FILTER(?y < 5 && ?z > 3)
  <http://www.wikidata.org/entity/Q5> ps:P2067. ex:foo """a
wd:Q7""" . ?s pq:P585 ?t . FILTER(?v<?w) wd:P31 <http://www.wikidata.org/prop/direct/P17> ?c }'''


def test_scanner_skips_strings_comments_and_operators():
    texts = [t.text for t in scan(TRICKY)]
    assert texts == ["wd:Q42", "wdt:P31", "rdfs:label", "<http://www.wikidata.org/entity/Q5>",
                     "ps:P2067", "ex:foo", "pq:P585", "wd:P31",
                     "<http://www.wikidata.org/prop/direct/P17>"]
    assert declared_prefixes(TRICKY) == {"ex": "http://example.org/"}


def test_identifiers_kinds_from_namespaces():
    got = [(i.id, i.kind) for i in identifiers(TRICKY)]
    assert got == [("Q42", Kind.ITEM), ("P31", Kind.PROPERTY), ("Q5", Kind.ITEM),
                   ("P2067", Kind.PROPERTY), ("P585", Kind.PROPERTY), ("P31", Kind.PROPERTY),
                   ("P17", Kind.PROPERTY)]
    # a non-Wikidata IRI counts only when the memory knows it
    ex = [i.id for i in identifiers(TRICKY, known=lambda iri: iri == "http://example.org/foo")]
    assert "http://example.org/foo" in ex


def test_declared_prefix_overrides_default():
    q = "PREFIX wd: <http://example.org/> SELECT * { wd:Q42 ?p ?o }"
    assert identifiers(q) == []


def test_intermediate_keeps_prefix_and_round_trips(memory):
    q = ("PREFIX ex: <http://example.org/> SELECT ?v WHERE { wd:Q2270 wdt:P2067 ?v . "
         "<http://www.wikidata.org/entity/Q42> wdt:P31 wd:Q5 . ex:foo ?p 'wd:Q5' . "
         "?s p:P1082 ?st . ?st ps:P1082 ?n ; pq:P585 ?t . ?z wdt:P31 <http://example.org/foo> }")
    inter = to_intermediate(q, memory)
    assert "wd:starturi benzene enduri wdt:starturi mass enduri" in inter
    assert "<http://www.wikidata.org/entity/starturi Douglas Adams enduri>" in inter
    assert "ex:starturi foo thing enduri" in inter and "<starturi foo thing enduri>" in inter
    assert "p:starturi population enduri" in inter and "pq:starturi point in time enduri" in inter
    assert "'wd:Q5'" in inter                       # string literal untouched
    res = ground(inter, memory)
    assert res.ok and res.sparql == q
    assert res.ids[:2] == ("Q2270", "P2067")
    assert uri_set(res.sparql) == uri_set(q)


def test_kind_follows_prefix_for_colliding_labels(memory):
    res = ground("SELECT * { ?x wdt:starturi mass enduri ?m . ?x wd:starturi mass enduri ?y }",
                 memory)
    assert res.ids == ("P2067", "Q11")
    res = ground("SELECT * { ?x wdt:starturi country enduri wd:starturi country enduri }", memory)
    assert res.ids == ("P17", "Q6256")              # item tie broken by the smaller id
    lg = res.labels[1]
    assert set(lg.collisions) == {"P17", "Q1754454"}


def test_missing_ids_are_kept_and_reported(memory):
    form = intermediate_form("SELECT * { wd:Q999999 wdt:P31 wd:Q5 }", memory)
    assert form.text == ("SELECT * { wd:Q999999 wdt:starturi instance of enduri "
                         "wd:starturi human enduri }")
    assert [i.id for i in form.missing] == ["Q999999"]
    assert [i.id for i in form.replaced] == ["P31", "Q5"]


def test_refusal_threshold_and_topk(memory):
    res = ground("SELECT * { ?x wdt:starturi instance of enduri wd:starturi xyzzy qwv enduri . "
                 "?x wdt:starturi masss enduri ?m }", memory, k=3)
    assert not res.ok and res.ungrounded == ("xyzzy qwv",)
    assert "wd:starturi xyzzy qwv enduri" in res.sparql
    assert "wdt:P31" in res.sparql and "wdt:P2067" in res.sparql     # typo grounded
    assert all(len(g.candidates) <= 3 for g in res.labels)
    assert res.labels[1].candidates[0].score < 0.4
    strict = ground("SELECT * { ?x wdt:starturi masss enduri ?m }", memory, threshold=0.99)
    assert strict.ungrounded == ("masss",)
    d = res.to_dict()
    assert d["ok"] is False and d["labels"][0]["chosen"] == "P31"


def test_bare_paper_markers_search_both_kinds(memory):
    res = ground("SELECT ?x WHERE { ?x starturi instance of enduri starturi human enduri }",
                 memory)
    assert res.sparql == "SELECT ?x WHERE { ?x wdt:P31 wd:Q5 }"


def test_markers_in_strings_are_ignored_and_unterminated_is_an_error(memory):
    text = "SELECT * { ?x rdfs:label 'wd:starturi human enduri' . ?x wdt:starturi mass enduri ?m }"
    ms = markers(text)
    assert [m.label for m in ms] == ["mass"]
    with pytest.raises(IntermediateSyntaxError, match="enduri"):
        markers("SELECT * { ?x wdt:starturi mass ?m }")


def test_ground_many_matches_single(memory):
    texts = [to_intermediate(q, memory) for q in (
        "SELECT * { wd:Q1045 p:P1082 ?s }", "ASK { wd:Q2270 wdt:P31 wd:Q5 }")]
    many = ground_many(texts, memory)
    assert [r.sparql for r in many] == [ground(t, memory).sparql for t in texts]
    assert many[1].sparql == "ASK { wd:Q2270 wdt:P31 wd:Q5 }"


def test_round_trip_with_awkward_labels():
    weird = [Symbol("Q17738", "Star Wars: Episode IV – A New Hope", Kind.ITEM),
             Symbol("Q2407", "C++", Kind.ITEM), Symbol("Q15777", "C", Kind.ITEM),
             Symbol("Q1", "\"quoted\" 'label' # not a comment <x> {y}", Kind.ITEM),
             Symbol("P31", "instance of", Kind.PROPERTY), Symbol("Q3", "Zürich", Kind.ITEM)]
    mem = Memory.build(weird)
    q = ("SELECT * { wd:Q17738 wdt:P31 ?x . <http://www.wikidata.org/entity/Q1> wdt:P31 wd:Q2407 ."
         " wd:Q15777 wdt:P31 wd:Q3 . FILTER(?x != 'wd:Q3') }")
    inter = to_intermediate(q, mem)
    assert "wd:starturi C++ enduri" in inter and "wd:starturi C enduri" in inter
    assert [m.label for m in markers(inter)][:2] == ["Star Wars: Episode IV – A New Hope",
                                                      "instance of"]
    res = ground(inter, mem)
    assert res.ok and res.sparql == q
