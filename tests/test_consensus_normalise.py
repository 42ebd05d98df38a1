"""Normal forms of candidate queries (verifier.consensus.normalise, verifier.query.normal_form):
the cheap step of clustering, before the prover."""

from __future__ import annotations

import random

import pytest

from parsers.sparql import parse_query, parse_tree
from parsers.sparql_generate import generate
from parsers.sparql_transform import renamed_and_shuffled
from verifier.consensus.normalise import normal_key, normalise, parse_candidate
from verifier.query import normal_form

BASE = "SELECT ?x WHERE { ?x wdt:P31 wd:Q5 . ?x wdt:P27 wd:Q30 . ?x wdt:P106 ?job }"


@pytest.mark.parametrize("variant", [
    "SELECT ?person WHERE { ?person wdt:P27 wd:Q30 ; wdt:P106 ?o ; wdt:P31 wd:Q5 }",
    "PREFIX wdt: <http://www.wikidata.org/prop/direct/>\nSELECT ?x WHERE {\n ?x wdt:P106 ?j .\n"
    " ?x wdt:P31 wd:Q5 .\n ?x wdt:P27 wd:Q30 .\n}",
    "SELECT ?x WHERE { ?x <http://www.wikidata.org/prop/direct/P31> wd:Q5 . ?x wdt:P27 wd:Q30 . ?x wdt:P106 [] }",
])
def test_renamed_reordered_and_respelled_queries_share_the_normal_form(variant):
    assert normal_key(parse_query(variant)) == normal_key(parse_query(BASE))


@pytest.mark.parametrize("variant", [
    "SELECT ?x WHERE { ?x wdt:P31 wd:Q5 . ?x wdt:P27 wd:Q142 . ?x wdt:P106 ?job }",   # other item
    "SELECT ?x WHERE { ?x wdt:P31 wd:Q5 . wd:Q30 wdt:P27 ?x . ?x wdt:P106 ?job }",   # direction
    "SELECT ?job WHERE { ?x wdt:P31 wd:Q5 . ?x wdt:P27 wd:Q30 . ?x wdt:P106 ?job }",  # other answer
    "SELECT ?x WHERE { ?x wdt:P31 wd:Q5 . ?x wdt:P27 wd:Q30 . ?x wdt:P106 ?job } LIMIT 1",
    "ASK { ?x wdt:P31 wd:Q5 . ?x wdt:P27 wd:Q30 . ?x wdt:P106 ?job }",
    "SELECT (COUNT(?x) AS ?n) WHERE { ?x wdt:P31 wd:Q5 . ?x wdt:P27 wd:Q30 . ?x wdt:P106 ?job }",
    "SELECT ?x WHERE { ?x wdt:P31 wd:Q5 . ?x wdt:P27 wd:Q30 . ?x wdt:P106 ?job } ORDER BY ?x",
])
def test_different_queries_have_different_normal_forms(variant):
    assert normal_form(parse_query(variant)) != normal_form(parse_query(BASE))


def test_normal_form_of_aggregates_and_optional_groups():
    a = ("SELECT ?p (COUNT(?o) AS ?n) WHERE { ?p wdt:P106 ?o ; wdt:P31 wd:Q5 "
         "OPTIONAL { ?p rdfs:label ?l } } GROUP BY ?p ORDER BY DESC(?n) LIMIT 3")
    b = ("SELECT ?who (COUNT(?job) AS ?c) WHERE { ?who wdt:P31 wd:Q5 . ?who wdt:P106 ?job "
         "OPTIONAL { ?who rdfs:label ?name } } GROUP BY ?who ORDER BY DESC(?c) LIMIT 3")
    assert normal_form(parse_query(a)) == normal_form(parse_query(b))
    text = normal_form(parse_query(a))
    assert "count(_k0)" in text and "order desc count(_k0)" in text and "slice 3 None" in text
    assert normal_form(parse_query(a.replace("DESC", "ASC"))) != text


def test_renamed_and_shuffled_gold_queries_share_the_normal_form():
    """The benchmark's own variants (renamed variables, shuffled triples) of a few shapes."""
    rng = random.Random(7)
    for text in (BASE, "SELECT ?v WHERE { wd:Q2270 wdt:P2067 ?v . ?v wdt:P31 ?c FILTER(?v > 3) }",
                 "SELECT DISTINCT ?a ?b WHERE { ?a wdt:P26 ?b . ?b wdt:P26 ?a . ?a wdt:P31 wd:Q5 }"):
        for _ in range(5):
            variant = generate(renamed_and_shuffled(parse_tree(text), rng))
            assert normal_key(parse_query(variant)) == normal_key(parse_query(text)), variant


@pytest.mark.parametrize("text, error", [(None, "no query"), ("   ", "the query is empty"),
                                         (12, "the query is not a string")])
def test_missing_queries_have_no_key(text, error):
    c = parse_candidate(0, text)
    assert c.key is None and c.query is None and c.error == error and not c.parsed


def test_syntax_errors_and_unsupported_constructs_have_no_key():
    bad, unsupported = normalise(["SELEC ?x WHERE {}", "CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }"])
    assert bad.key is None and bad.syntax and "line 1" in bad.error
    assert unsupported.key is None and not unsupported.syntax and "CONSTRUCT" in unsupported.error
    assert [c.index for c in normalise([BASE, None, BASE])] == [0, 1, 2]
