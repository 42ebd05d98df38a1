"""The transform functions added to parsers/sparql_transform.py for the benchmark builder:
each result is regenerated, re-parsed and compared with the prover."""

from __future__ import annotations

import pytest

from parsers.sparql import parse_query, parse_tree
from parsers.sparql_generate import generate
from parsers.sparql_transform import (
    COMPARISON_OPS, add_triple, comparison_sites, find_nodes, get_at, iri_token, literal_sites,
    meaningful_sites, normalize, replace_at, replace_comparison, replace_iris,
    with_solution_modifiers)
from verifier.logic import Literal, Var
from verifier.prover import equivalent

Q = ('PREFIX wdt: <http://www.wikidata.org/prop/direct/> '
     'SELECT (COUNT(DISTINCT ?x) AS ?c) WHERE { ?x wdt:P31 wd:Q5 ; rdfs:label ?l . '
     '?x wdt:P569 ?d ; wdt:P1082 ?n FILTER(?d > "2000-01-01"^^xsd:dateTime && ?n < 5) '
     'FILTER(LANG(?l) = "en") } ORDER BY DESC(?c) LIMIT 5')


def _same(a: str, b: str) -> bool | None:
    return equivalent(parse_query(a), parse_query(b)).equivalent


def test_find_nodes_paths_point_at_the_nodes():
    t = parse_tree(Q)
    found = find_nodes(t, lambda n: isinstance(n, Var))
    assert found and all(get_at(t, p) == n for p, n in found)
    assert [n.name for _, n in found][:2] == ["x", "c"]
    # IRI leaves are not entered: no Token inside an ("iri", tok) is reported
    assert not find_nodes(t, lambda n: type(n).__name__ == "Token" and str(n) == "wd:Q5")


def test_literal_sites_and_replacement():
    t = parse_tree(Q)
    sites = literal_sites(t)
    kinds = [n[0] if isinstance(n, tuple) else n.lexical for _, n in sites]
    assert kinds == ["typed", "5", "en"]
    path = sites[1][0]
    changed = generate(replace_at(t, path, Literal("7", "xsd:integer")))
    assert "?n < 7" in changed
    assert _same(generate(t), changed) is False


def test_comparison_sites_and_replace_comparison():
    t = parse_tree(Q)
    sites = comparison_sites(t)
    assert [op for _, op in sites] == [">", "<", "="]
    flipped = generate(replace_comparison(t, sites[0][0], "<="))
    assert '?d <= "2000-01-01"' in flipped
    assert _same(generate(t), flipped) is False
    with pytest.raises(ValueError):
        replace_comparison(t, sites[0][0], "=~")
    with pytest.raises(ValueError):
        replace_comparison(t, (1,), "<")
    assert set(COMPARISON_OPS) == {"=", "!=", "<", "<=", ">", ">="}


def test_replace_iris_keeps_the_prologue_and_full_iris():
    q = ("PREFIX e: <http://www.wikidata.org/entity/> SELECT ?x WHERE { ?x "
         "<http://www.wikidata.org/prop/direct/P31> e:Q5 . ?y wdt:P31 e:Q6 }")
    t = parse_tree(q)
    out = replace_iris(t, lambda s: s.replace("P31", "P279") if "P31" in s else None)
    text = generate(out)
    assert "<http://www.wikidata.org/prop/direct/P279>" in text and "wdt:P279" in text
    assert "PREFIX e: <http://www.wikidata.org/entity/>" in text
    assert replace_iris(t, lambda s: None) == t
    assert _same(q, text) is False


def test_add_triple_after_last_triples_block():
    t = parse_tree(Q)
    out = add_triple(t, Var("x"), iri_token("wdt:P27"), iri_token("wd:Q30"))
    text = generate(out)
    assert "?x wdt:P27 wd:Q30 ." in text
    assert text.index("wdt:P27") < text.index("FILTER")
    assert _same(generate(t), text) is False
    empty = parse_tree("SELECT * WHERE { FILTER(1 = 1) }")
    assert "?a wdt:P1 ?b" in generate(add_triple(empty, Var("a"), iri_token("wdt:P1"), Var("b")))
    with pytest.raises(ValueError):
        add_triple(parse_tree("SELECT ?x WHERE { SELECT ?x WHERE { ?x ?p ?o } }"),
                   Var("x"), iri_token("wdt:P1"), Var("b"))


def test_with_solution_modifiers():
    t = parse_tree(Q)
    text = generate(with_solution_modifiers(t, order_by=[], limit=None))
    assert "ORDER BY" not in text and "LIMIT" not in text
    asc = generate(with_solution_modifiers(t, order_by=[(False, Var("c"))]))
    assert "ORDER BY ASC(?c)" in asc
    assert _same(generate(t), asc) is False
    assert with_solution_modifiers(t) == t


def test_meaningful_sites_skip_label_triples():
    t = normalize(parse_tree(Q))
    verbs = [str(s.verb[1]) for s in meaningful_sites(t)]
    assert verbs == ["wdt:P31", "wdt:P569", "wdt:P1082"]
