"""SPARQL front end: one test per feature with the expected formula, errors, fuzzing."""

from __future__ import annotations

import random
import string

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from parsers.sparql import (
    SparqlError, SparqlSyntaxError, TranslationError, UnsupportedFeature, parse_query, parse_tree,
    warm_up,
)
from parsers.sparql_generate import generate
from verifier.logic import Var, free_vars
from verifier.normal_form import alpha_equivalent
from verifier.notation import parse_formula

PFX = ("PREFIX wd: <http://www.wikidata.org/entity/> "
       "PREFIX wdt: <http://www.wikidata.org/prop/direct/> ")

# (feature, query, expected pattern in the logic notation, expected answer variables)
FEATURES = [
    ("basic triple", "SELECT ?v WHERE { wd:Q2270 wdt:P2067 ?v . }",
     "wdt:P2067(wd:Q2270, v)", ["v"]),
    ("implicit prefixes", "SELECT ?v WHERE { wd:Q2270 wdt:P2067 ?v }",
     "wdt:P2067(wd:Q2270, v)", ["v"]),
    ("declared prefixes", PFX + "SELECT ?v WHERE { wd:Q2270 wdt:P2067 ?v }",
     "wdt:P2067(wd:Q2270, v)", ["v"]),
    ("other prefix names for the same namespace",
     "PREFIX e: <http://www.wikidata.org/entity/> PREFIX d: <http://www.wikidata.org/prop/direct/> "
     "SELECT ?v WHERE { e:Q2270 d:P2067 ?v }", "wdt:P2067(wd:Q2270, v)", ["v"]),
    ("full IRIs", "SELECT ?v WHERE { <http://www.wikidata.org/entity/Q2270> "
     "<http://www.wikidata.org/prop/direct/P2067> ?v }", "wdt:P2067(wd:Q2270, v)", ["v"]),
    ("BASE and relative IRIs", "BASE <http://www.wikidata.org/entity/> SELECT ?v WHERE { <Q2270> ?p ?v }",
     "exists p. triple(wd:Q2270, p, v)", ["v"]),
    ("semicolon and comma", "SELECT ?x WHERE { ?x wdt:P31 wd:Q5 ; wdt:P27 wd:Q142, wd:Q183 }",
     "wdt:P31(x, wd:Q5) & wdt:P27(x, wd:Q142) & wdt:P27(x, wd:Q183)", ["x"]),
    ("a is rdf:type", "SELECT ?x WHERE { ?x a wd:Q5 }", "rdf:type(x, wd:Q5)", ["x"]),
    ("blank node label", "SELECT ?x WHERE { ?x wdt:P40 _:c . _:c wdt:P21 wd:Q6581072 }",
     "exists c. wdt:P40(x, c) & wdt:P21(c, wd:Q6581072)", ["x"]),
    ("blank node property list", "SELECT ?x WHERE { ?x wdt:P40 [ wdt:P21 wd:Q6581072 ] }",
     "exists c. wdt:P21(c, wd:Q6581072) & wdt:P40(x, c)", ["x"]),
    ("variable predicate", "SELECT ?p WHERE { wd:Q42 ?p wd:Q5 }", "triple(wd:Q42, p, wd:Q5)", ["p"]),
    ("path sequence", "SELECT ?x WHERE { ?x wdt:P19/wdt:P17 wd:Q142 }",
     "exists m. wdt:P19(x, m) & wdt:P17(m, wd:Q142)", ["x"]),
    ("path alternative", "SELECT ?x WHERE { ?x wdt:P19|wdt:P20 wd:Q90 }",
     "wdt:P19(x, wd:Q90) | wdt:P20(x, wd:Q90)", ["x"]),
    ("inverse path", "SELECT ?x WHERE { ?x ^wdt:P40 wd:Q1 }", "wdt:P40(wd:Q1, x)", ["x"]),
    ("zero or more", "SELECT ?x WHERE { ?x wdt:P279* wd:Q11173 }", "wdt:P279*(x, wd:Q11173)", ["x"]),
    ("one or more", "SELECT ?x WHERE { ?x wdt:P279+ wd:Q11173 }", "wdt:P279+(x, wd:Q11173)", ["x"]),
    ("zero or one", "SELECT ?x WHERE { ?x wdt:P279? wd:Q11173 }",
     "x = wd:Q11173 | wdt:P279(x, wd:Q11173)", ["x"]),
    ("instance of a subclass", "SELECT ?x WHERE { ?x wdt:P31/wdt:P279* wd:Q11173 }",
     "exists m. wdt:P31(x, m) & wdt:P279*(m, wd:Q11173)", ["x"]),
    ("negated property set", "SELECT ?x WHERE { ?x !wdt:P31 wd:Q5 }",
     "exists r. triple(x, r, wd:Q5) & r != wdt:P31", ["x"]),
    ("OPTIONAL adds nothing required", "SELECT ?x ?d WHERE { ?x wdt:P31 wd:Q5 OPTIONAL { ?x wdt:P569 ?d } }",
     "wdt:P31(x, wd:Q5)", ["x", "d"]),
    ("OPTIONAL with !BOUND is negation",
     "SELECT ?x WHERE { ?x wdt:P31 wd:Q5 OPTIONAL { ?x wdt:P570 ?d } FILTER(!BOUND(?d)) }",
     "wdt:P31(x, wd:Q5) & ~(exists d. wdt:P570(x, d))", ["x"]),
    ("UNION", "SELECT ?x WHERE { { ?x wdt:P31 wd:Q5 } UNION { ?x wdt:P31 wd:Q515 } }",
     "wdt:P31(x, wd:Q5) | wdt:P31(x, wd:Q515)", ["x"]),
    ("MINUS", "SELECT ?x WHERE { ?x wdt:P31 wd:Q5 MINUS { ?x wdt:P27 wd:Q30 } }",
     "wdt:P31(x, wd:Q5) & ~wdt:P27(x, wd:Q30)", ["x"]),
    ("MINUS without shared variables", "SELECT ?x WHERE { ?x wdt:P31 wd:Q5 MINUS { ?y wdt:P27 wd:Q30 } }",
     "wdt:P31(x, wd:Q5)", ["x"]),
    ("FILTER NOT EXISTS", "SELECT ?x WHERE { ?x wdt:P31 wd:Q5 FILTER NOT EXISTS { ?x wdt:P570 ?d } }",
     "wdt:P31(x, wd:Q5) & ~(exists d. wdt:P570(x, d))", ["x"]),
    ("FILTER EXISTS", "SELECT ?x WHERE { ?x wdt:P31 wd:Q5 FILTER EXISTS { ?x wdt:P570 ?d } }",
     "wdt:P31(x, wd:Q5) & exists d. wdt:P570(x, d)", ["x"]),
    ("numeric comparison", "SELECT ?x WHERE { ?x wdt:P2177 ?s FILTER(?s < 0.07) }",
     "exists s. wdt:P2177(x, s) & s < 0.07", ["x"]),
    ("comparison operators", "SELECT ?x WHERE { ?x wdt:P1 ?a FILTER(?a >= 1 && ?a <= 9 && ?a != 5 || ?a > 100) }",
     "exists a. wdt:P1(x, a) & (a >= 1 & a <= 9 & a != 5 | a > 100)", ["x"]),
    ("negation", "SELECT ?x WHERE { ?x wdt:P1 ?a FILTER(!(?a = 3)) }",
     "exists a. wdt:P1(x, a) & a != 3", ["x"]),
    ("arithmetic", "SELECT ?x WHERE { ?x wdt:P1 ?a FILTER(?a * 2 + 1 > 7 / 2 - 1) }",
     "exists a. wdt:P1(x, a) & add(mul(a, 2), 1) > sub(div(7, 2), 1)", ["x"]),
    ("IN", "SELECT ?x WHERE { ?x wdt:P31 ?t FILTER(?t IN (wd:Q5, wd:Q515)) }",
     "exists t. wdt:P31(x, t) & (t = wd:Q5 | t = wd:Q515)", ["x"]),
    ("NOT IN", "SELECT ?x WHERE { ?x wdt:P31 ?t FILTER(?t NOT IN (wd:Q5)) }",
     "exists t. wdt:P31(x, t) & t != wd:Q5", ["x"]),
    ("date comparison", 'SELECT ?x WHERE { ?x wdt:P569 ?d FILTER(?d > "1900-01-01"^^xsd:date) }',
     'exists d. wdt:P569(x, d) & d > "1900-01-01"^^xsd:date', ["x"]),
    ("year", "SELECT ?x WHERE { ?x wdt:P569 ?d FILTER(YEAR(?d) = 1900) }",
     "exists d. wdt:P569(x, d) & year(d) = 1900", ["x"]),
    ("month and day", "SELECT ?x WHERE { ?x wdt:P569 ?d FILTER(MONTH(?d) = 2 && DAY(?d) = 29) }",
     "exists d. wdt:P569(x, d) & month(d) = 2 & day(d) = 29", ["x"]),
    ("contains and lcase", "SELECT ?x WHERE { ?x rdfs:label ?l FILTER(CONTAINS(LCASE(?l), 'acid')) }",
     'exists l. rdfs:label(x, l) & contains(lcase(l), "acid")', ["x"]),
    ("strstarts / strends / regex",
     "SELECT ?x WHERE { ?x rdfs:label ?l FILTER(STRSTARTS(?l, 'a') && STRENDS(?l, 'b') && REGEX(?l, 'c', 'i')) }",
     'exists l. rdfs:label(x, l) & strstarts(l, "a") & strends(l, "b") & regex(l, "c", "i")', ["x"]),
    ("lang and str", "SELECT ?x WHERE { ?x wdt:P1476 ?t FILTER(LANG(?t) = 'en' && STR(?t) = 'X') }",
     'exists t. wdt:P1476(x, t) & lang(t) = "en" & str(t) = "X"', ["x"]),
    ("langMatches, datatype, isIRI, now, bound",
     "SELECT ?x WHERE { ?x wdt:P1 ?t FILTER(LANGMATCHES(LANG(?t), 'en') && DATATYPE(?t) = xsd:string && ISIRI(?x) && ?t < NOW() && BOUND(?t)) }",
     'exists t. wdt:P1(x, t) & langmatches(lang(t), "en") & datatype(t) = xsd:string & isiri(x) & t < now()', ["x"]),
    ("BIND", "SELECT ?x ?y WHERE { ?x wdt:P569 ?d BIND(YEAR(?d) AS ?y) }",
     "exists d. wdt:P569(x, d) & y = year(d)", ["x", "y"]),
    ("VALUES", "SELECT ?x WHERE { VALUES ?x { wd:Q1 wd:Q2 } ?x wdt:P31 wd:Q5 }",
     "(x = wd:Q1 | x = wd:Q2) & wdt:P31(x, wd:Q5)", ["x"]),
    ("VALUES with several variables and UNDEF",
     "SELECT ?x ?y WHERE { VALUES (?x ?y) { (wd:Q1 1) (wd:Q2 UNDEF) } }",
     "x = wd:Q1 & y = 1 | x = wd:Q2", ["x", "y"]),
    ("label service carries no meaning",
     "SELECT ?x ?xLabel WHERE { ?x wdt:P31 wd:Q5 SERVICE wikibase:label { bd:serviceParam wikibase:language 'en' } }",
     "wdt:P31(x, wd:Q5)", ["x"]),
    ("label-only patterns carry no meaning",
     "SELECT ?x ?l WHERE { ?x wdt:P31 wd:Q5 . ?x rdfs:label ?l FILTER(LANG(?l) = 'en') }",
     "wdt:P31(x, wd:Q5)", ["x"]),
    ("a label asked for keeps its meaning",
     "SELECT ?l WHERE { wd:Q42 rdfs:label ?l FILTER(LANG(?l) = 'en') }",
     'rdfs:label(wd:Q42, l) & lang(l) = "en"', ["l"]),
    ("ASK", "ASK { wd:Q42 wdt:P31 wd:Q5 }", "wdt:P31(wd:Q42, wd:Q5)", []),
    ("ASK closes its variables", "ASK WHERE { wd:Q740 wdt:P2404 ?o FILTER(?o = 0.1) }",
     "exists o. wdt:P2404(wd:Q740, o) & o = 0.1", []),
    ("subquery", "SELECT ?x WHERE { ?x wdt:P31 wd:Q5 { SELECT ?x WHERE { ?x wdt:P27 ?c } } }",
     "wdt:P31(x, wd:Q5) & exists c. wdt:P27(x, c)", ["x"]),
    ("named subquery (WDQS extension)",
     "SELECT ?x WITH { SELECT ?x WHERE { ?x wdt:P27 wd:Q142 } } AS %fr WHERE { INCLUDE %fr ?x wdt:P31 wd:Q5 }",
     "wdt:P27(x, wd:Q142) & wdt:P31(x, wd:Q5)", ["x"]),
    ("IF as a value", "SELECT ?x ?k WHERE { ?x wdt:P1 ?a BIND(IF(?a > 3, 'big', 'small') AS ?k) }",
     'exists a v. wdt:P1(x, a) & (a > 3 & v = "big" | ~(a > 3) & v = "small") & k = v', ["x", "k"]),
    ("comments and case-insensitive keywords", "select ?v where { # a comment\n wd:Q2270 wdt:P2067 ?v }",
     "wdt:P2067(wd:Q2270, v)", ["v"]),
    ("literals", 'SELECT ?x WHERE { ?x wdt:P1 "a"@en ; wdt:P2 "b"^^xsd:string ; wdt:P3 -5 ; wdt:P4 1e3 ; wdt:P5 true }',
     'wdt:P1(x, "a"@en) & wdt:P2(x, "b"^^xsd:string) & wdt:P3(x, -5) & wdt:P4(x, 1e3) & wdt:P5(x, "true"^^xsd:boolean)', ["x"]),
    ("query hints carry no meaning", "SELECT ?x WHERE { hint:Query hint:optimizer 'None' . ?x wdt:P31 wd:Q5 }",
     "wdt:P31(x, wd:Q5)", ["x"]),
]


@pytest.mark.parametrize("feature,query,expected,answers", FEATURES, ids=[f[0] for f in FEATURES])
def test_feature_translation(feature, query, expected, answers):
    q = parse_query(query)
    want = parse_formula(expected)
    assert alpha_equivalent(q.pattern, want), f"{feature}:\n got  {q.pattern}\n want {want}"
    assert [v.name for v in q.answer_vars] == answers
    q.check()
    # the generator writes an equivalent query
    again = parse_query(generate(parse_tree(query)))
    assert alpha_equivalent(again.pattern, q.pattern)


def test_aggregates_and_modifiers():
    q = parse_query("SELECT ?c (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x wdt:P27 ?c } GROUP BY ?c "
                    "HAVING (COUNT(?x) > 10) ORDER BY DESC(?n) LIMIT 5 OFFSET 2")
    assert q.shape == "superlative"
    assert [v.name for v in q.answer_vars] == ["c"]
    assert [v.name for v in q.key_vars] == ["c", "x"]
    agg = q.projection[1].aggregate
    assert (agg.func, agg.arg, agg.distinct) == ("count", Var("x"), True)
    assert q.group_by == (Var("c"),)
    assert str(q.having) == "agg_count(x) > 10"
    assert q.order_by[0].descending and q.order_by[0].expr == agg  # ORDER BY the aliased COUNT
    assert (q.limit, q.offset) == (5, 2)


def test_count_shape_and_select_star():
    assert parse_query("SELECT (COUNT(?x) AS ?n) WHERE { ?x wdt:P31 wd:Q5 }").shape == "count"
    q = parse_query("SELECT * WHERE { ?s wdt:P31 ?o . ?o wdt:P279 ?c }")
    assert [v.name for v in q.answer_vars] == ["s", "o", "c"]
    assert parse_query("SELECT DISTINCT ?x WHERE { ?x ?p ?o }").distinct


def test_complex_path_closure_gets_a_definition():
    q = parse_query("SELECT ?x WHERE { ?x (wdt:P31/wdt:P279)* wd:Q5 }")
    assert len(q.axioms) == 1
    name = next(iter(q.pattern.pred for _ in [0])) if hasattr(q.pattern, "pred") else ""
    assert name.startswith("_path_") and name.endswith("*")
    assert "wdt:P31" in str(q.axioms[0]) and "wdt:P279" in str(q.axioms[0])


def test_pattern_free_variables_are_key_variables():
    q = parse_query("SELECT ?x WHERE { ?x wdt:P31 ?t . ?t wdt:P279 ?u }")
    assert free_vars(q.pattern) == {Var("x")}


# ------------------------------------------------------------------------------- errors


def test_syntax_error_reports_position_expected_and_caret():
    with pytest.raises(SparqlSyntaxError) as ei:
        parse_query("SELECT ?x WHERE {\n  ?x wdt:P31 wd:Q5 .\n  ?x wdt:P27 }")
    e = ei.value
    assert (e.line, e.column) == (3, 14)  # the "}"
    assert e.expected and "variable" in e.expected
    assert e.snippet.splitlines()[-1].strip() == "^"
    assert "line 3, column 14" in str(e)


def test_unexpected_end_and_character():
    with pytest.raises(SparqlSyntaxError, match="unexpected end of query"):
        parse_query("SELECT ?x WHERE { ?x wdt:P31 wd:Q5")
    with pytest.raises(SparqlSyntaxError, match="unexpected character"):
        parse_query("SELECT ?x WHERE { ?x wdt:P31 wd:Q5 ~ }")


def test_undeclared_prefix_is_a_syntax_error():
    with pytest.raises(SparqlSyntaxError, match="undeclared prefix 'foo:'"):
        parse_query("SELECT ?x WHERE { ?x foo:bar wd:Q5 }")


@pytest.mark.parametrize("query,feature", [
    ("CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }", "CONSTRUCT"),
    ("DESCRIBE wd:Q42", "DESCRIBE"),
    ("INSERT DATA { wd:Q1 wdt:P31 wd:Q5 }", "INSERT"),
    ("PREFIX x: <http://x/> DELETE WHERE { ?s ?p ?o }", "DELETE"),
    ("SELECT ?x WHERE { SERVICE <http://other/sparql> { ?x ?p ?o } }", "SERVICE"),
    ("SELECT ?x WHERE { GRAPH ?g { ?x ?p ?o } }", "GRAPH"),
])
def test_unsupported_constructs_are_named(query, feature):
    with pytest.raises(UnsupportedFeature) as ei:
        parse_query(query)
    assert feature in str(ei.value)


def test_non_string_and_huge_input():
    with pytest.raises(SparqlSyntaxError):
        parse_query(None)  # type: ignore[arg-type]
    with pytest.raises(UnsupportedFeature):
        parse_query("SELECT ?x WHERE { " + "?x wdt:P1 ?y . " * 20000 + "}")


def test_deep_nesting_is_refused_cleanly():
    q = "SELECT ?x WHERE { FILTER(" + "(" * 3000 + "?x" + ")" * 3000 + ") }"
    try:
        parse_query(q)
    except SparqlError as e:
        assert not isinstance(e, TranslationError)


# ------------------------------------------------------------------------------- fuzzing

_SEEDS = [f[1] for f in FEATURES] + [
    "SELECT ?c (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x wdt:P27 ?c } GROUP BY ?c ORDER BY DESC(?n) LIMIT 5",
]


def _mutate(text: str, rng: random.Random) -> str:
    ops = rng.randint(1, 4)
    chars = list(text)
    for _ in range(ops):
        k = rng.randrange(4)
        i = rng.randrange(len(chars) + 1)
        if k == 0 and chars:
            del chars[min(i, len(chars) - 1)]
        elif k == 1:
            chars.insert(i, rng.choice("{}()<>?.;,*+/|^!=\"' \n#:_@-" + string.ascii_letters[:6]))
        elif k == 2 and chars:
            j = rng.randrange(len(chars))
            chars[i % len(chars)], chars[j] = chars[j], chars[i % len(chars)]
        else:
            chars[i:i] = list(rng.choice(["FILTER", "OPTIONAL", "UNION", "{", "}", "SELECT", "?x", "wd:Q1", "a"]))
    return "".join(chars)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9))
def test_mutated_queries_only_raise_documented_errors(seed):
    rng = random.Random(seed)
    text = _mutate(rng.choice(_SEEDS), rng)
    try:
        parse_query(text)
    except (SparqlSyntaxError, UnsupportedFeature) as e:
        assert not isinstance(e, TranslationError), f"internal error on {text!r}: {e}"


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80))
def test_random_text_only_raises_documented_errors(text):
    try:
        parse_query(text)
    except (SparqlSyntaxError, UnsupportedFeature) as e:
        assert not isinstance(e, TranslationError), f"internal error on {text!r}: {e}"


def test_select_star_column_order_does_not_matter_for_equivalence():
    from verifier.prover import equivalent

    a = parse_query("SELECT * WHERE { ?s wdt:P31 ?o . ?o wdt:P279 ?c }")
    b = parse_query("SELECT * WHERE { ?y wdt:P279 ?z . ?x wdt:P31 ?y }")
    assert [v.name for v in b.answer_vars] == ["y", "z", "x"]      # columns as written
    assert equivalent(a, b).equivalent is True
    c = parse_query("SELECT * WHERE { ?y wdt:P279 ?z . ?z wdt:P31 ?x }")  # direction swapped
    assert equivalent(a, c).equivalent is False


def test_normalize_keeps_a_shared_anonymous_node_shared():
    from parsers.sparql import parse_tree
    from parsers.sparql_generate import generate
    from parsers.sparql_transform import normalize
    from verifier.prover import equivalent

    q = 'SELECT ?p WHERE { [] wdt:P1 ?p ; wdt:P2 "x" . [ wdt:P3 ?p ] wdt:P4 1 ; wdt:P5 2 }'
    g = generate(normalize(parse_tree(q)))
    assert "[]" not in g and g.count("_:anon0") == 2 and g.count("_:anon1") == 3
    assert equivalent(parse_query(q), parse_query(g)).equivalent is True


def test_renaming_keeps_label_service_variables_attached():
    import random

    from parsers.sparql import parse_tree
    from parsers.sparql_generate import generate
    from parsers.sparql_transform import renamed_and_shuffled
    from verifier.prover import equivalent

    q = ('SELECT ?item ?itemLabel ?otherLabel WHERE { ?item wdt:P31 wd:Q5 . '
         'SERVICE wikibase:label { bd:serviceParam wikibase:language "en" . } }')
    g = generate(renamed_and_shuffled(parse_tree(q), random.Random(0)))
    assert "?item" not in g.replace("?r0_meti", "")
    assert "?r0_metiLabel" in g and "Label" in g.split("?r0_metiLabel", 1)[1].split("WHERE")[0]
    assert equivalent(parse_query(q), parse_query(g)).equivalent is True


def test_negative_number_is_one_literal():
    """"-166" is the number -166 (so comparisons with it are comparisons with a value), while
    the negation of a variable stays an expression."""
    q = parse_query("ASK WHERE { wd:Q61457 wdt:P3078 ?obj FILTER(?obj = -166) }")
    assert "obj = -166" in str(q.pattern)
    assert "neg(" not in str(q.pattern)
    q2 = parse_query("ASK WHERE { wd:Q61457 wdt:P3078 ?obj FILTER(?obj = -(?obj)) }")
    assert "neg(obj)" in str(q2.pattern)


def test_count_star_over_one_variable_counts_it():
    """COUNT(*) over the solutions of a one-variable pattern counts that variable (so "How
    many countries are there in Europe?" can be aligned); over several variables it stays *."""
    q = parse_query("SELECT (COUNT(*) AS ?n) WHERE { ?c wdt:P31 wd:Q6256 . ?c wdt:P30 wd:Q46 }")
    assert q.projection[0].aggregate.arg == Var("c") and q.key_vars == (Var("c"),)
    q = parse_query("SELECT (COUNT(*) AS ?n) WHERE { ?a wdt:P1 ?b }")
    assert q.projection[0].aggregate.arg is None


def test_unbound_projected_variable_is_no_answer():
    """A projected variable that nothing binds is dropped from the answer when another one is
    bound (an LLM's "SELECT ?ming ?end WHERE { wd:Q9903 wdt:P576 ?end }"); a variable bound
    only in an OPTIONAL is kept; when no projected variable is bound, nothing is dropped."""
    assert parse_query("SELECT ?ming ?end WHERE { wd:Q9903 wdt:P576 ?end }").answer_vars == (Var("end"),)
    q = parse_query("SELECT ?x ?d WHERE { ?x wdt:P31 wd:Q5 OPTIONAL { ?x wdt:P569 ?d } }")
    assert q.answer_vars == (Var("x"), Var("d"))
    assert parse_query("SELECT ?x WHERE { wd:Q9903 wdt:P576 ?end }").answer_vars == (Var("x"),)


def test_warm_up_builds_the_parser_once_and_errors_keep_their_home():
    from parsers import sparql, sparql_errors

    warm_up()
    warm_up()
    assert sparql._parser.cache_info().currsize == 1 and sparql._driver.cache_info().currsize == 1
    assert SparqlSyntaxError is sparql_errors.SparqlSyntaxError
    with pytest.raises(SparqlSyntaxError):
        parse_query("SELECT ?x WHERE {")
