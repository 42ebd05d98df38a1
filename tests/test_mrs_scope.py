"""Scope resolution: readings, constraints, repairs, failures."""

from __future__ import annotations

import pytest

from parsers.mrs import ScopeError, read_simplemrs, scope_problem, solve, translate_mrs

EVERY = ('[ TOP: h0 INDEX: e2 [ e SF: ques ] RELS: < [ _every_q<5:10> LBL: h4 ARG0: x3 RSTR: h5 BODY: h6 ] '
         '[ _compound_n_1<11:19> LBL: h7 ARG0: x3 ] [ _contain_v_1<20:27> LBL: h1 ARG0: e2 ARG1: x3 ARG2: x8 ] '
         '[ udef_q<28:34> LBL: h9 ARG0: x8 RSTR: h10 BODY: h11 ] [ _carbon_n_1<28:34> LBL: h12 ARG0: x8 ] > '
         'HCONS: < h0 qeq h1 h5 qeq h7 h10 qeq h12 > ]')

# "every dog chases a cat that no mouse fears": three quantifiers, nested restriction
THREE = ('[ TOP: h0 INDEX: e2 [ e SF: prop ] RELS: < [ _every_q<0:5> LBL: h4 ARG0: x3 RSTR: h5 BODY: h6 ] '
         '[ _dog_n_1<6:9> LBL: h7 ARG0: x3 ] [ _chase_v_1<10:16> LBL: h1 ARG0: e2 ARG1: x3 ARG2: x8 ] '
         '[ _a_q<17:18> LBL: h9 ARG0: x8 RSTR: h10 BODY: h11 ] [ _cat_n_1<19:22> LBL: h12 ARG0: x8 ] '
         '[ _fear_v_1<36:41> LBL: h12 ARG0: e13 ARG1: x14 ARG2: x8 ] '
         '[ _no_q<28:30> LBL: h15 ARG0: x14 RSTR: h16 BODY: h17 ] [ _mouse_n_1<31:36> LBL: h18 ARG0: x14 ] > '
         'HCONS: < h0 qeq h1 h5 qeq h7 h10 qeq h12 h16 qeq h18 > ]')


def _check_solution(m, p, plug) -> None:
    """Every hole plugged once, qeq: only quantifiers (through BODY) between hole and target,
    every variable inside its quantifier."""
    nf = len(p.frag_eps)
    assert sorted(f for f in plug if f >= 0) == list(range(nf))
    parent = {}
    for h, f in enumerate(plug):
        parent[f] = h
    for h, t in enumerate(p.hole_target):
        if t < 0:
            continue
        f = plug[h]
        while f != t:  # walk down through quantifier bodies
            assert p.frag_quant[f] >= 0, "non-quantifier between a qeq hole and its target"
            f = plug[p.body_hole[f]]

    def ancestors(f):
        out = []
        while f in parent and p.hole_owner[parent[f]] >= 0:
            f = p.hole_owner[parent[f]]
            out.append(f)
        return out

    for f, members in enumerate(p.frag_eps):
        for i in members:
            ep = m.eps[i]
            for role, v in ep.args:
                if ep.is_quantifier and role == "ARG0":
                    continue
                binder = [g for g in range(nf) if p.frag_var[g] == v]
                if binder and binder[0] != f:
                    assert binder[0] in ancestors(f), f"{v} used outside its quantifier"


def test_every_has_two_scopes_in_surface_order() -> None:
    m = read_simplemrs(EVERY)
    p = scope_problem(m)
    sols = solve(p, 10)
    assert len(sols) == 2
    for s in sols:
        _check_solution(m, p, s)
    first = sols[0]
    # surface order: _every_q takes widest scope first
    assert p.labels[first[p.top_hole]] == "h4"
    res = translate_mrs(EVERY, max_scopes=10)
    assert [str(r.formula) for r in res] == [
        "forall x3. _compound_n_1(x3) -> exists e2 x8. _contain_v_1(e2, x3, x8) & _carbon_n_1(x8)",
        "exists x8. (forall x3. _compound_n_1(x3) -> exists e2. _contain_v_1(e2, x3, x8)) & _carbon_n_1(x8)",
    ]


def test_nested_restriction_readings_are_valid() -> None:
    m = read_simplemrs(THREE)
    p = scope_problem(m)
    sols = solve(p, 50)
    # every > a > no, a > every > no, a > no > every?  no_q must stay inside _a_q's restriction
    # (its variable is used only there) or scope over it: all solutions satisfy the constraints
    assert 2 <= len(sols) <= 6
    assert len(set(sols)) == len(sols)
    for s in sols:
        _check_solution(m, p, s)


def test_existential_only_readings_collapse_to_one_formula() -> None:
    text = ('[ TOP: h0 INDEX: e2 [ e SF: ques ] RELS: < [ thing<0:4> LBL: h4 ARG0: x3 ] [ which_q<0:4> LBL: h5 ARG0: x3 RSTR: h6 BODY: h7 ] '
            '[ _be_v_id<5:7> LBL: h1 ARG0: e2 ARG1: x3 ARG2: x8 ] [ _the_q<8:11> LBL: h9 ARG0: x8 RSTR: h10 BODY: h11 ] '
            '[ _mass_n_of<12:16> LBL: h12 ARG0: x8 ARG1: x13 ] [ udef_q<20:28> LBL: h14 ARG0: x13 RSTR: h15 BODY: h16 ] '
            '[ _benzene_n_1<20:27> LBL: h17 ARG0: x13 ] > HCONS: < h0 qeq h1 h6 qeq h4 h10 qeq h12 h15 qeq h17 > ]')
    p = scope_problem(read_simplemrs(text))
    assert len(solve(p, 20)) > 1  # several scopings exist ...
    res = translate_mrs(text, max_scopes=20)
    assert len(res) == 1  # ... but they mean the same
    assert str(res[0].formula) == ("exists e2 x8 x13. thing(x3) & _be_v_id(e2, x3, x8) & "
                                   "_mass_n_of(x8, x13) & _benzene_n_1(x13)")


def test_qeq_to_missing_label_and_double_binding_are_repaired() -> None:
    text = ('[ TOP: h0 INDEX: e2 RELS: < [ _make_v_1<0:4> LBL: h1 ARG0: e2 ARG1: x3 ARG2: x4 ] '
            '[ udef_q<0:1> LBL: h5 ARG0: x3 RSTR: h6 BODY: h7 ] [ _thing_n_1<0:1> LBL: h8 ARG0: x3 ] '
            '[ udef_q<5:9> LBL: h9 ARG0: x4 RSTR: h10 BODY: h11 ] '
            '[ proper_q<5:9> LBL: h12 ARG0: x4 RSTR: h13 BODY: h14 ] > '
            'HCONS: < h0 qeq h1 h6 qeq h8 h10 qeq h50 h13 qeq h8 > ]')
    p = scope_problem(read_simplemrs(text))
    assert any("no predication has label h50" in r for r in p.repairs)
    assert any("bound twice" in r for r in p.repairs)
    res = translate_mrs(text)
    assert res[0].ok, res[0]
    assert res[0].warnings  # repairs are reported
    assert str(res[0].formula) == "exists e2 x3 x4. _make_v_1(e2, x3, x4) & _thing_n_1(x3)"


def test_stray_fragment_is_conjoined() -> None:
    # appos at its own label h20, reachable from no hole: merged with the head noun's label
    text = ('[ TOP: h0 INDEX: e2 [ e SF: ques ] RELS: < [ _be_v_there<0:5> LBL: h1 ARG0: e2 ARG1: x3 ] '
            '[ udef_q<6:9> LBL: h4 ARG0: x3 RSTR: h5 BODY: h6 ] [ _dog_n_1<6:9> LBL: h7 ARG0: x3 ] '
            '[ appos<6:20> LBL: h20 ARG0: e21 ARG1: x3 ARG2: x22 ] [ proper_q<10:20> LBL: h23 ARG0: x22 RSTR: h24 BODY: h25 ] '
            '[ named<10:20> LBL: h26 ARG0: x22 CARG: "Rex" ] > HCONS: < h0 qeq h1 h5 qeq h7 h24 qeq h26 > ]')
    res = translate_mrs(text)
    assert res[0].ok, res[0]
    assert "appos(e21, x3, x22)" in str(res[0].formula)
    assert any("stray" in w for w in res[0].warnings)


def test_unscopable_reading_is_reported_not_dropped() -> None:
    # two RSTRs qeq the same label whose predications share one variable: no reading
    text = ('[ TOP: h0 INDEX: e2 RELS: < [ _be_v_there<0:2> LBL: h1 ARG0: e2 ARG1: x3 ] '
            '[ udef_q<0:1> LBL: h4 ARG0: x3 RSTR: h5 BODY: h6 ] [ _a_q<0:1> LBL: h7 ARG0: x8 RSTR: h9 BODY: h10 ] '
            '[ _dog_n_1<3:6> LBL: h11 ARG0: x3 ] [ _of_p<3:6> LBL: h11 ARG0: e12 ARG1: x3 ARG2: x8 ] > '
            'HCONS: < h0 qeq h1 h5 qeq h11 h9 qeq h11 > ]')
    res = translate_mrs(text)
    assert len(res) == 1 and not res[0].ok
    assert res[0].kind == "unscopable"
    assert res[0].reason.startswith("unscopable")


def test_malformed_structures_raise_scope_error() -> None:
    with pytest.raises(ScopeError):
        scope_problem(read_simplemrs('[ TOP: h0 INDEX: e2 RELS: < > HCONS: < > ]'))
    two = ('[ TOP: h0 INDEX: e2 RELS: < [ _a_q<0:1> LBL: h1 ARG0: x3 RSTR: h4 BODY: h5 ] '
           '[ _b_q<0:1> LBL: h1 ARG0: x6 RSTR: h7 BODY: h8 ] > HCONS: < > ]')
    with pytest.raises(ScopeError):
        scope_problem(read_simplemrs(two))
    res = translate_mrs(two)
    assert not res[0].ok and res[0].reason == "unscopable: two quantifiers share a label"


def test_relaxed_mode_fills_empty_holes_with_true() -> None:
    # a scopal argument with no qeq and nothing to fill it: one hole more than fragments
    text = ('[ TOP: h0 INDEX: e2 [ e SF: prop ] RELS: < [ _say_v_to<0:3> LBL: h1 ARG0: e2 ARG1: x3 ARG2: h4 ] '
            '[ pronoun_q<4:6> LBL: h5 ARG0: x3 RSTR: h6 BODY: h7 ] [ pron<4:6> LBL: h8 ARG0: x3 ] > '
            'HCONS: < h0 qeq h1 h6 qeq h8 > ]')
    p = scope_problem(read_simplemrs(text))
    assert solve(p, 5) == []
    assert len(solve(p, 5, relaxed=True)) >= 1
    res = translate_mrs(text)
    assert res[0].ok and res[0].relaxed
    assert str(res[0].formula) == "exists e2 x3 h4. _say_v_to(e2, x3, h4) & pron(x3)"


def test_search_budget() -> None:
    m = read_simplemrs(THREE)
    with pytest.raises(ScopeError):
        solve(scope_problem(m), 100, budget=1)
