"""Logic IR: constructors, free variables, substitution, alpha-renaming, notation round trip."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings, strategies as st

from verifier.logic import (
    FALSE, TRUE, And, Atom, Compare, Eq, Exists, Forall, Func, Iff, Implies, IRI, Literal, Not,
    Or, Var, conj, constants, disj, exists, free_vars, neg, predicates, substitute,
)
from verifier.normal_form import alpha_equivalent, canonical
from verifier.notation import LogicSyntaxError, parse_formula, parse_term, to_text

x, y, z, v = Var("x"), Var("y"), Var("z"), Var("v")
Q2270, P2067 = IRI("wd:Q2270"), "wdt:P2067"


def test_printer_matches_documented_example():
    f = Exists((v,), Atom(P2067, (Q2270, v)))
    assert to_text(f) == "exists v. wdt:P2067(wd:Q2270, v)"
    assert parse_formula("exists v. wdt:P2067(wd:Q2270, v)") == f


def test_template_notation_with_placeholders():
    f = parse_formula("forall x y. _mass_n_of(x, y) -> exists v. $prop(y, v)")
    assert isinstance(f, Forall) and f.vars == (x, y)
    assert isinstance(f.body, Implies)
    assert f.body.right == Exists((v,), Atom("$prop", (y, v)))


def test_literals_and_functions_parse_to_typed_terms():
    f = parse_formula('year(d) = "2009"^^xsd:gYear & s < 0.07 & n >= 3 & l = "Benzol"@de & w = 1e3')
    assert isinstance(f, And)
    assert f.args[0] == Eq(Func("year", (Var("d"),)), Literal("2009", "xsd:gYear"))
    assert f.args[1] == Compare("<", Var("s"), Literal("0.07", "xsd:decimal"))
    assert f.args[2].right == Literal("3", "xsd:integer")
    assert f.args[3].right == Literal("Benzol", None, "de")
    assert f.args[4].right == Literal("1e3", "xsd:double")


def test_quantifier_body_extends_right():
    f = parse_formula("p(x) & exists y. q(y) & r(y)")
    assert f == And((Atom("p", (x,)), Exists((y,), And((Atom("q", (y,)), Atom("r", (y,)))))))


def test_precedence_and_associativity():
    assert parse_formula("a() | b() & c()") == Or((Atom("a", ()), And((Atom("b", ()), Atom("c", ())))))
    assert parse_formula("a() -> b() -> c()") == Implies(Atom("a", ()), Implies(Atom("b", ()), Atom("c", ())))
    assert parse_formula("x != y") == Not(Eq(x, y))
    assert parse_formula("~p(x) & q(x)") == And((Not(Atom("p", (x,))), Atom("q", (x,))))


def test_syntax_error_has_position_expected_and_caret():
    with pytest.raises(LogicSyntaxError) as ei:
        parse_formula("exists x. p(x) &\n  & q(x)")
    e = ei.value
    assert (e.line, e.column) == (2, 3)
    assert "'('" in e.expected and "SYMBOL" in e.expected
    assert e.snippet.endswith("^")


def test_free_vars_and_substitution_avoid_capture():
    f = parse_formula("exists y. p(x, y)")
    assert free_vars(f) == {x}
    g = substitute(f, {x: y})
    assert free_vars(g) == {y}
    assert isinstance(g, Exists) and g.vars[0] != y
    # substitution does not touch bound occurrences
    assert substitute(f, {y: Q2270}) == f


def test_alpha_equivalence():
    a = parse_formula("exists u. p(x, u) & forall w. q(u, w)")
    b = parse_formula("exists k. p(x, k) & forall m. q(k, m)")
    c = parse_formula("exists k. p(y, k) & forall m. q(k, m)")
    assert alpha_equivalent(a, b)
    assert not alpha_equivalent(a, c)
    assert canonical(a) == canonical(b)


def test_smart_constructors_simplify():
    p = Atom("p", (x,))
    assert conj() == TRUE and disj() == FALSE
    assert conj(p, TRUE) == p and conj(p, FALSE) == FALSE
    assert conj(conj(p, p), p) == And((p, p, p))
    assert neg(neg(p)) == p
    assert exists([x, z], p) == Exists((x,), p)
    assert exists([z], p) == p
    with pytest.raises(ValueError):
        And((p,))


def test_constants_and_predicates():
    f = parse_formula('exists v. wdt:P2067(wd:Q2270, v) & v > 3')
    assert constants(f) == {Q2270, Literal("3", "xsd:integer")}
    assert predicates(f) == {P2067}


def test_literal_values():
    assert Literal("0.07", "xsd:decimal").numeric_value == Decimal("0.07")
    assert Literal("abc").numeric_value is None
    d1 = Literal("2009-01-01T00:00:00Z", "xsd:dateTime").date_value
    d2 = Literal("2009-0-0", "xsd:date").date_value  # Wikidata's lenient dates
    d3 = Literal("2010", "xsd:gYear").date_value
    assert d1 == d2 < d3


def test_parse_term():
    assert parse_term("wd:Q2270") == Q2270
    assert parse_term('"x"@en') == Literal("x", None, "en")
    assert parse_term("?true") == Var("true")


# ----------------------------------------------------------------------------- hypothesis

_names = st.sampled_from(["x", "y", "z", "x5", "obj", "true", "v_1"])
_vars = _names.map(Var)
_iris = st.sampled_from(["wd:Q2270", "wdt:P31", "<http://example.org/a#b>", "$item", "rdfs:label"]).map(IRI)
_lits = st.one_of(
    st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=8).map(Literal),
    st.tuples(st.text(max_size=5), st.sampled_from(["en", "de-AT"])).map(lambda t: Literal(t[0], None, t[1])),
    st.integers(-10**6, 10**6).map(lambda i: Literal(str(i), "xsd:integer")),
    st.decimals(allow_nan=False, allow_infinity=False, places=3).map(lambda d: Literal(str(d), "xsd:decimal")),
    st.sampled_from(["2009", "2009-01-01"]).map(lambda s: Literal(s, "xsd:date")),
)
_terms = st.recursive(
    st.one_of(_vars, _iris, _lits),
    lambda inner: st.tuples(st.sampled_from(["year", "lcase", "add"]), st.lists(inner, min_size=1, max_size=2))
    .map(lambda t: Func(t[0], tuple(t[1]))),
    max_leaves=4,
)
_preds = st.sampled_from(["wdt:P2067", "_mass_n_of", "_benzene/nn_u_unknown", "wdt:P279*", "$prop", "named"])
_atomic = st.one_of(
    st.tuples(_preds, st.lists(_terms, max_size=3)).map(lambda t: Atom(t[0], tuple(t[1]))),
    st.tuples(_terms, _terms).map(lambda t: Eq(*t)),
    st.tuples(st.sampled_from(["<", "<=", ">", ">="]), _terms, _terms).map(lambda t: Compare(*t)),
    st.sampled_from([TRUE, FALSE]),
)


def _extend(inner):
    vs = st.lists(_vars, min_size=1, max_size=2, unique=True).map(tuple)
    return st.one_of(
        inner.map(Not),
        st.lists(inner, min_size=2, max_size=3).map(lambda a: And(tuple(a))),
        st.lists(inner, min_size=2, max_size=3).map(lambda a: Or(tuple(a))),
        st.tuples(inner, inner).map(lambda t: Implies(*t)),
        st.tuples(inner, inner).map(lambda t: Iff(*t)),
        st.tuples(vs, inner).map(lambda t: Exists(*t)),
        st.tuples(vs, inner).map(lambda t: Forall(*t)),
    )


formulas = st.recursive(_atomic, _extend, max_leaves=12)


def test_quantifier_inside_the_left_operand_of_an_iff_is_parenthesised():
    """Found by the property test below: ``(true -> exists x. P) <-> true`` was printed without
    parentheses, so the quantifier took ``<-> true`` into its body."""
    f = And((Atom("wdt:P2067", ()),
             Iff(Implies(TRUE, Exists((Var("x"),), Atom("wdt:P2067", ()))), TRUE)))
    assert parse_formula(to_text(f)) == f
    g = Implies(Implies(TRUE, Forall((Var("x"),), Atom("p", (Var("x"),)))), FALSE)
    assert parse_formula(to_text(g)) == g


@settings(max_examples=400, deadline=None)
@given(formulas)
def test_printer_parser_round_trip(f):
    text = to_text(f)
    assert parse_formula(text) == f
    assert to_text(parse_formula(text)) == text


@settings(max_examples=200, deadline=None)
@given(formulas, _vars, _terms)
def test_substitution_leaves_no_replaced_free_variable(f, var, term):
    g = substitute(f, {var: term})
    fv = free_vars(g)
    if var not in free_vars(term):
        assert var not in fv
    # variables of the replacement that were free stay free (no capture)
    if var in free_vars(f):
        assert free_vars(term) <= fv


@settings(max_examples=200, deadline=None)
@given(formulas)
def test_canonical_is_idempotent_and_alpha_invariant(f):
    c = canonical(f)
    assert canonical(c) == c
    assert free_vars(c) == free_vars(f)


def test_value_key_identifies_equal_values():
    assert Literal("1.0", "xsd:decimal").value_key == Literal("1", "xsd:integer").value_key
    assert Literal("2020-01-01", "xsd:date").value_key == Literal("2020-01-01T00:00:00Z", "xsd:dateTime").value_key
    assert Literal("abc", None, "en").value_key != Literal("abc").value_key
    assert Literal("abc").value_key == ("lit", "abc", None, None)
