"""MRS -> logic: conventions, intents, failures, robustness, corpus invariants."""

from __future__ import annotations

import gzip
import json
import os
import random
from pathlib import Path

import pytest
from delphin.codecs import simplemrs

from parsers.mrs import (
    QuestionLogic, TranslationFailure, best_translation, predicate_info, quantifier_kind,
    rank_translations, translate_mrs, translate_readings,
)
from parsers.mrs.question import number_literal
from verifier.logic import Atom, Literal, Var, atoms, free_vars
from verifier.notation import parse_formula, to_text

SHARED = Path(os.environ.get("VERIFIER_SHARED", Path(__file__).resolve().parents[2] / "shared"))
MRS_DIR = SHARED / "data" / "mrs"

PARIS = ('[ TOP: h0 INDEX: e2 [ e SF: ques ] RELS: < [ person<0:3> LBL: h4 ARG0: x3 ] '
         '[ which_q<0:3> LBL: h5 ARG0: x3 RSTR: h6 BODY: h7 ] [ _visit_v_1<4:11> LBL: h1 ARG0: e2 ARG1: x3 ARG2: x8 ] '
         '[ proper_q<12:17> LBL: h9 ARG0: x8 RSTR: h10 BODY: h11 ] [ named<12:17> LBL: h12 ARG0: x8 CARG: "Paris" ] '
         '[ _in_p_temp<18:20> LBL: h1 ARG0: e13 ARG1: e2 ARG2: x14 ] [ proper_q<21:25> LBL: h15 ARG0: x14 RSTR: h16 BODY: h17 ] '
         '[ yofc<21:25> LBL: h18 ARG0: x14 CARG: "2009" ] > HCONS: < h0 qeq h1 h6 qeq h4 h10 qeq h12 h16 qeq h18 > ]')


def test_predicate_info() -> None:
    i = predicate_info("_benzene/nn_u_unknown")
    assert (i.lemma, i.pos, i.is_unknown_word, i.tag, i.is_abstract) == ("benzene", "n", True, "NN", False)
    i = predicate_info("_mass_n_of")
    assert (i.lemma, i.pos, i.sense, i.is_unknown_word) == ("mass", "n", "of", False)
    assert predicate_info('"_Benzene/NN_u_unknown"').lemma == "benzene"
    assert predicate_info("_the+same_a_1").lemma == "the same"
    assert predicate_info("_the+same_a_1").words == ("the", "same")
    assert predicate_info("_allyl/jj_u_unknown").pos == "a"
    assert predicate_info("_wasj/vbd_u_unknown").pos == "v"
    n = predicate_info("named")
    assert n.is_abstract and n.pos is None
    q = predicate_info("udef_q")
    assert q.is_abstract and q.is_quantifier and q.pos == "q"
    assert predicate_info("_this_q_dem").is_quantifier
    assert predicate_info("").lemma == ""


def test_quantifier_classes() -> None:
    for q in ("udef_q", "proper_q", "pronoun_q", "_a_q", "_some_q", "def_explicit_q", "def_implicit_q",
              "number_q", "_the_q"):
        assert quantifier_kind(q) == "exists", q
    for q in ("which_q", "_which_q"):
        assert quantifier_kind(q) == "wh"
    for q in ("_every_q", "every_q", "_all_q", "_each_q"):
        assert quantifier_kind(q) == "forall"
    assert quantifier_kind("_no_q") == "no"
    for q in ("_most_q", "_few_q", "_several_q", "_zorgle_q"):
        assert quantifier_kind(q) == "unsupported"


def test_atom_conventions_named_carg_and_events() -> None:
    [r] = translate_mrs(PARIS)
    assert isinstance(r, QuestionLogic)
    assert r.answer_vars == (Var("x3"),)
    assert free_vars(r.formula) == {Var("x3")}
    got = {a.pred: a for a in atoms(r.formula)}
    assert got["named"].args == (Var("x8"), Literal("Paris"))
    assert got["yofc"].args == (Var("x14"), Literal("2009"))
    assert got["_visit_v_1"].args == (Var("e2"), Var("x3"), Var("x8"))
    assert got["_in_p_temp"].args == (Var("e13"), Var("e2"), Var("x14"))
    assert "which_q" not in got and "proper_q" not in got
    assert str(r.formula) == ('exists e2 x8 e13 x14. person(x3) & _visit_v_1(e2, x3, x8) & named(x8, "Paris") & '
                              '_in_p_temp(e13, e2, x14) & yofc(x14, "2009")')
    # the notation round-trips
    assert parse_formula(to_text(r.formula)) == r.formula
    assert r.intent.kind == "select" and r.intent.var == Var("x3") and r.sentence_force == "ques"


def test_pydelphin_mrs_input_gives_the_same_result() -> None:
    a = translate_mrs(PARIS)[0]
    b = translate_mrs(simplemrs.decode(PARIS))[0]
    assert a.formula == b.formula and a.answer_vars == b.answer_vars


def test_handle_argument_becomes_the_head_event() -> None:
    text = ('[ TOP: h0 INDEX: e2 [ e SF: ques ] RELS: < [ thing<0:4> LBL: h4 ARG0: x3 ] [ which_q<0:4> LBL: h5 ARG0: x3 RSTR: h6 BODY: h7 ] '
            '[ _be_v_id<5:7> LBL: h1 ARG0: e2 ARG1: x3 ARG2: x8 ] [ udef_q<8:15> LBL: h9 ARG0: x8 RSTR: h10 BODY: h11 ] '
            '[ nominalization<8:15> LBL: h12 ARG0: x8 ARG1: h13 ] [ _boil_v_1<8:15> LBL: h14 ARG0: e15 ARG1: i16 ] > '
            'HCONS: < h0 qeq h1 h6 qeq h4 h10 qeq h12 h13 qeq h14 > ]')
    [r] = translate_mrs(text)
    assert "nominalization(x8, e15)" in str(r.formula)
    assert "_boil_v_1(e15, i16)" in str(r.formula)
    assert free_vars(r.formula) == {Var("x3")}


def test_command_answer_is_the_requested_thing() -> None:
    text = ('[ TOP: h0 INDEX: e2 [ e SF: comm ] RELS: < [ pronoun_q<0:4> LBL: h4 ARG0: x3 RSTR: h5 BODY: h6 ] [ pron<0:4> LBL: h7 ARG0: x3 ] '
            '[ _give_v_1<0:4> LBL: h1 ARG0: e2 ARG1: x3 ARG2: x8 ARG3: x9 ] [ pronoun_q<5:7> LBL: h10 ARG0: x9 RSTR: h11 BODY: h12 ] '
            '[ pron<5:7> LBL: h13 ARG0: x9 ] [ _the_q<8:11> LBL: h14 ARG0: x8 RSTR: h15 BODY: h16 ] '
            '[ _density_n_1<12:19> LBL: h17 ARG0: x8 ] > HCONS: < h0 qeq h1 h5 qeq h7 h11 qeq h13 h15 qeq h17 > ]')
    [r] = translate_mrs(text)
    assert r.sentence_force == "comm" and r.answer_vars == (Var("x8"),) and r.intent.kind == "select"


def test_request_verb_without_subject_asks_for_its_object_despite_a_question_mark() -> None:
    """ "Name the chemical substance ?": SF ques, but the request verb has no subject."""
    text = ('[ TOP: h0 INDEX: e2 [ e SF: ques ] RELS: < [ _name_v_1<0:4> LBL: h1 ARG0: e2 ARG1: i3 ARG2: x4 ] '
            '[ _the_q<5:8> LBL: h5 ARG0: x4 RSTR: h6 BODY: h7 ] [ _substance_n_1<9:18> LBL: h8 ARG0: x4 ] '
            '> HCONS: < h0 qeq h1 h6 qeq h8 > ]')
    [r] = translate_mrs(text)
    assert r.answer_vars == (Var("x4"),) and r.intent.kind == "select"
    # with a subject of its own ("Did they name the substance?") it stays a yes/no question
    text2 = text.replace("ARG1: i3", "ARG1: x3").replace(
        "> HCONS: < h0", "[ pronoun_q<0:0> LBL: h9 ARG0: x3 RSTR: h10 BODY: h11 ] "
        "[ pron<0:0> LBL: h12 ARG0: x3 ] > HCONS: < h10 qeq h12 h0")
    [r2] = translate_mrs(text2)
    assert r2.answer_vars == () and r2.intent.kind == "ask"


@pytest.mark.parametrize("bad", [None, 3, "", "garbage", "[ TOP: h0 INDEX: e2 RELS: < > HCONS: < > ]",
                                 "[ TOP: h0 RELS: < [ _x_n_1<0:1> LBL: h1 ARG0: x2 ] > HCONS: < h0 qeq h9 h0 qeq h1 > ]",
                                 "[ TOP: h0 INDEX: e2 RELS: < [ _p_q<0:1> LBL: h1 ARG0: x3 RSTR: h1 BODY: h4 ] > HCONS: < h0 qeq h1 > ]",
                                 ])
def test_bad_input_gives_a_failure_not_an_exception(bad) -> None:
    res = translate_mrs(bad)
    assert len(res) == 1 and isinstance(res[0], TranslationFailure)
    assert res[0].reason and not res[0].ok


def test_unsupported_quantifier_and_opaque_predicate() -> None:
    most = ('[ TOP: h0 INDEX: e2 RELS: < [ _most_q<0:4> LBL: h4 ARG0: x3 RSTR: h5 BODY: h6 ] [ _dog_n_1<5:9> LBL: h7 ARG0: x3 ] '
            '[ _bark_v_1<10:15> LBL: h1 ARG0: e2 ARG1: x3 ] > HCONS: < h0 qeq h1 h5 qeq h7 > ]')
    [f] = translate_mrs(most)
    assert f.kind == "unsupported" and f.reason == "unsupported quantifier _most_q"
    want = ('[ TOP: h0 INDEX: e2 RELS: < [ _want_v_1<0:4> LBL: h1 ARG0: e2 ARG1: x3 ARG2: h4 ] [ pronoun_q<0:1> LBL: h5 ARG0: x3 RSTR: h6 BODY: h7 ] '
            '[ pron<0:1> LBL: h8 ARG0: x3 ] [ _leave_v_1<5:10> LBL: h9 ARG0: e10 ARG1: x3 ] > HCONS: < h0 qeq h1 h4 qeq h9 h6 qeq h8 > ]')
    [f] = translate_mrs(want)
    assert f.kind == "unsupported" and f.reason == "unsupported scopal predicate _want_v_1"


def test_translate_readings_keeps_reading_indices_and_ranking() -> None:
    frag = ('[ TOP: h0 INDEX: e2 RELS: < [ unknown<0:5> LBL: h1 ARG0: e2 ARG: x3 ] [ udef_q<0:5> LBL: h4 ARG0: x3 RSTR: h5 BODY: h6 ] '
            '[ _dog_n_1<0:5> LBL: h7 ARG0: x3 ] > HCONS: < h0 qeq h1 h5 qeq h7 > ]')
    res = translate_readings(["garbage", frag, PARIS])
    assert [r.reading_index for r in res] == [0, 1, 2]
    assert not res[0].ok and res[1].ok and res[1].fragment and res[2].ok
    assert res[1].answer_vars == (Var("x3"),)  # an NP fragment answers with its NP
    ranked = rank_translations(res)
    assert ranked[0].reading_index == 2 and not ranked[-1].ok
    assert best_translation(res).reading_index == 2
    assert best_translation([res[0]]) is None


def test_number_literals() -> None:
    assert number_literal("0.07") == Literal("0.07", "xsd:decimal")
    assert number_literal("1,000") == Literal("1000", "xsd:integer")
    assert number_literal("2013", "yofc") == Literal("2013", "xsd:gYear")
    assert number_literal("2.5e-10") == Literal("2.5e-10", "xsd:double")
    assert number_literal("VI") == Literal("VI")


def _corpus_readings(n: int, seed: int) -> list[str]:
    readings = []
    with gzip.open(MRS_DIR / "questions.jsonl.gz", "rt", encoding="utf-8") as f:
        for line in f:
            readings.extend(json.loads(line)["readings"])
    return random.Random(seed).sample(readings, n)


@pytest.mark.skipif(not (MRS_DIR / "questions.jsonl.gz").is_file(), reason="shared corpus absent")
def test_corpus_sample_translation_share_and_invariants() -> None:
    sample = _corpus_readings(1500, 11)
    ok = 0
    for text in sample:
        res = translate_mrs(text, max_scopes=2)
        assert res
        for r in res:
            if not r.ok:
                assert len(res) == 1 and r.reason
                continue
            ok += 1
            # answer variables free, everything else closed; predicates are normalised strings
            assert free_vars(r.formula) == set(r.answer_vars), str(r)
            assert all(isinstance(a, Atom) and a.pred == a.pred.lower() and not a.pred.endswith("_q")
                       for a in atoms(r.formula))
            assert r.intent.kind in ("select", "ask", "count", "superlative", "comparative")
            assert r.intent.base == ("select" if r.answer_vars else "ask")
        if res[0].ok and res[0].answer_vars:
            assert res[0].intent.var is not None
    # goal: >= 97 % of the readings translate (first scoped reading of each MRS)
    first_ok = sum(translate_mrs(t, max_scopes=1)[0].ok for t in sample)
    assert first_ok / len(sample) >= 0.97


@pytest.mark.skipif(not (MRS_DIR / "questions.jsonl.gz").is_file(), reason="shared corpus absent")
def test_flat_shortcut_equals_the_scoped_translation() -> None:
    """For scope-insensitive readings the translator skips walking the scope tree; the
    shortcut must give exactly the formula of the walk."""
    from parsers.mrs import read_simplemrs, scope_problem, solve
    from parsers.mrs.question import analyse_question
    from parsers.mrs import translate as T

    checked = 0
    for text in _corpus_readings(600, 5):
        m = read_simplemrs(text)
        try:
            p = scope_problem(m)
            prep = T._Prepared(m, p, analyse_question(m))
        except Exception:
            continue
        sols = solve(p, 3) or solve(p, 1, relaxed=True)
        if prep.sensitive or not sols:
            continue
        for plug in sols:
            assert T._build(prep, plug) == T._flat(prep)
        checked += 1
    assert checked > 500


# "What is the name, which is the same as Jane?" as a robust parse writes it: the relative
# clause is about a generic_entity that nothing else mentions (relative_mod).
DETACHED = ('[ TOP: h0 INDEX: e2 [ e SF: ques ] RELS: < [ thing<0:4> LBL: h4 ARG0: x3 ] '
            '[ which_q<0:4> LBL: h5 ARG0: x3 RSTR: h6 BODY: h7 ] '
            '[ relative_mod<5:40> LBL: h1 ARG0: i8 ARG1: x9 ARG2: h10 ] '
            '[ udef_q<5:40> LBL: h11 ARG0: x9 RSTR: h12 BODY: h13 ] '
            '[ generic_entity<5:40> LBL: h14 ARG0: x9 ] '
            '[ _be_v_id<5:7> LBL: h1 ARG0: e2 ARG1: x3 ARG2: x15 ] '
            '[ _the_q<8:11> LBL: h18 ARG0: x15 RSTR: h19 BODY: h20 ] '
            '[ _name_n_of<12:16> LBL: h21 ARG0: x15 ARG1: i31 ] '
            '[ _the+same_a_1<24:32> LBL: h10 ARG0: e39 ARG1: e40 ] '
            '[ _as_p<33:35> LBL: h10 ARG0: e40 ARG1: x9 ARG2: x41 ] '
            '[ proper_q<36:40> LBL: h42 ARG0: x41 RSTR: h43 BODY: h44 ] '
            '[ named<36:40> LBL: h45 ARG0: x41 CARG: "Jane" ] > '
            'HCONS: < h0 qeq h1 h6 qeq h4 h12 qeq h14 h19 qeq h21 h43 qeq h45 > ]')


def test_detached_relative_clause_is_about_the_answer() -> None:
    [t] = translate_mrs(DETACHED)
    assert t.ok and t.answer_vars == (Var("x3"),)
    found = {a.pred: a.args for a in atoms(t.formula)}
    assert "generic_entity" not in found
    assert found["_as_p"][1] == Var("x3")          # the answer is the same as Jane
    assert found["relative_mod"][1] == Var("x3")
    assert free_vars(t.formula) == {Var("x3")}
    assert any("relative clause" in w for w in t.warnings)


def test_detached_relative_clause_kept_when_the_answer_is_not_unique() -> None:
    # a yes/no question has no answer variable: the clause stays about something
    yn = DETACHED.replace(
        "[ which_q<0:4> LBL: h5 ARG0: x3 RSTR: h6 BODY: h7 ]",
        "[ _a_q<0:4> LBL: h5 ARG0: x3 RSTR: h6 BODY: h7 ]")
    [t] = translate_mrs(yn)
    assert t.ok and t.answer_vars == ()
    found = {a.pred: a.args for a in atoms(t.formula)}
    assert "generic_entity" in found and found["_as_p"][1] == Var("x9")
    assert not any("relative clause" in w for w in t.warnings)


def test_detached_relative_clause_on_the_noun_before_its_pronoun() -> None:
    # "What is the name of the team which is the same as Jane?": the clause's pronoun follows
    # "team", so the extra reading makes the team the same as Jane
    from parsers.mrs import read_simplemrs
    from parsers.mrs.translate import relatives_on_nouns

    q = "What is the name of the team which is the same as Jane?"
    text = (DETACHED.replace("<36:40>", "<55:59>").replace("<33:35>", "<52:54>")
            .replace("<24:32>", "<43:51>").replace("<5:40>", "<5:59>")
            .replace("[ _name_n_of<12:16> LBL: h21 ARG0: x15 ARG1: i31 ] ",
                     "[ _name_n_of<12:16> LBL: h21 ARG0: x15 ARG1: x50 ] "
                     "[ _the_q<20:23> LBL: h51 ARG0: x50 RSTR: h52 BODY: h53 ] "
                     "[ _team_n_of<24:28> LBL: h54 ARG0: x50 ARG1: i55 ] ")
            .replace("h19 qeq h21", "h19 qeq h21 h52 qeq h54"))
    m = read_simplemrs(text)
    got = relatives_on_nouns(m, q)
    assert got is not None
    [t] = translate_mrs(got)
    found = {a.pred: a.args for a in atoms(t.formula)}
    assert "generic_entity" not in found and found["_as_p"][1] == Var("x50")
    # a name before the pronoun ("... of Jim, which ...", "of Jim which"): no extra reading
    named = text.replace("[ _team_n_of<24:28> LBL: h54 ARG0: x50 ARG1: i55 ] ",
                         '[ named<24:28> LBL: h54 ARG0: x50 CARG: "Team" ] ')
    assert relatives_on_nouns(read_simplemrs(named), q) is None
    assert relatives_on_nouns(read_simplemrs(text), q.replace("team which", "team, which")) is None
