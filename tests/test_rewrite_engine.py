"""The conditions and outputs of the rewrite engine (``verifier/rewrite/engine.py``) beyond EP
patterns: constants, answers (``answer``, ``other_answer``, ``answers``, ``unanswer``), the
surface of the question (``written``, ``after``, ``written_lower``, ``written_before``),
``occurs``, ``only``, ``said_only``, ``answer_through``, ``abstract`` / ``not_lemma``,
equalities, ``optional`` cases, steps (``then``), ``positive_core``, note slots and word lists
by name (``words:FILE.LIST``).  Rules are written in a temporary file and run on formulas in
the text notation; uses only files of the repository.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from verifier.deductive.rules import BUILTINS
from verifier.logic import Var, atoms
from verifier.notation import parse_formula
from verifier.rewrite import check_rules, load_rules
from verifier.rewrite.engine import Subject, note_of, rewrite
from verifier.rewrite.surface import Surface, SpanEP, example_surface


def one_rule(tmp_path: Path, body: str, stage: str = "corrections"):
    f = tmp_path / "r.yaml"
    f.write_text(f"stage: {stage}\nrules:\n" + body, encoding="utf-8")
    return load_rules([f], BUILTINS).rules[0]


def run(rule, text: str, answers=("x1",), question: str = "", written=None) -> Subject:
    f = parse_formula(text)
    surface = example_surface(question, atoms(f), written) if written else Surface(question)
    return rewrite(rule, Subject(f, tuple(Var(a) for a in answers), surface))


EXAMPLE = "  examples:\n  - {formula: 'thing(x1)', unchanged: true}\n"


def test_a_constant_argument_and_written_text(tmp_path):
    rule = one_rule(tmp_path, """
- name: abbreviation
  doc: a test rule
  input:
  - {pred: named, args: [$x:var, '=Idaho'], written: [ID]}
  fresh: {i: 'i_{x}_abbr'}
  output:
  - {pred: _id_n_of, args: [$x, $i]}
""" + EXAMPLE)
    text = 'exists x3. _for_p(e2, x1, x3) & named(x3, "Idaho")'
    got = run(rule, text, question="the ID for X", written={"x3": "ID"})
    assert str(got.formula) == "exists x3. _for_p(e2, x1, x3) & exists i_x3_abbr. _id_n_of(x3, i_x3_abbr)"
    assert run(rule, text, question="the capital of Idaho", written={"x3": "Idaho"}).formula == parse_formula(text)
    assert run(rule, 'exists x3. named(x3, "Ohio")', question="the ID", written={"x3": "ID"}).formula \
        == parse_formula('exists x3. named(x3, "Ohio")')
    assert run(rule, text).formula == parse_formula(text)  # no surface: nothing is written anywhere


def test_answers_conditions_and_unanswer(tmp_path):
    rule = one_rule(tmp_path, """
- name: not_asked
  doc: a test rule
  input:
  - {pred: named, args: [$n, ...], as: N}
  where: [{answer: $n}, {other_answer: $n}]
  unanswer: [$n]
  output:
  - {like: N, args: [$n, $n]}
""" + EXAMPLE)
    got = run(rule, 'named(x2, x2) & _city_n_1(x1)', answers=("x1", "x2"))
    assert got.answers == (Var("x1"),) and str(got.formula) == "exists x2. named(x2, x2) & _city_n_1(x1)"
    # the only answer stays one
    assert run(rule, 'named(x2, x2)', answers=("x2",)).answers == (Var("x2"),)


def test_surface_order_case_and_occurrences(tmp_path):
    rule = one_rule(tmp_path, """
- name: titles
  doc: a test rule
  input:
  - {pred: compound, args: [$c, $n, $r], as: C}
  where: [{occurs: [$r, 2]}, {written_lower: $r}, {written_before: [$r, $n]}]
  output:
  - {like: C, args: [$c, $n, $r]}
  - {pred: title, args: [$r]}
""" + EXAMPLE)
    text = 'compound(e5, x3, x4) & _painter_n_1(x4) & named(x3, "Kim")'
    q = "the painter Kim"
    assert "title(x4)" in str(run(rule, text, question=q, written={"x4": "painter", "x3": "Kim"}).formula)
    # written after the name, or in upper case, or with a modifier of its own: no title
    assert "title" not in str(run(rule, text, question="Kim painter", written={"x4": "painter", "x3": "Kim"}).formula)
    assert "title" not in str(run(rule, text, question="the Painter Kim", written={"x4": "Painter", "x3": "Kim"}).formula)
    assert "title" not in str(run(rule, text + " & _old_a_1(e6, x4)", question=q,
                                  written={"x4": "painter", "x3": "Kim"}).formula)


def test_after_takes_the_first_written_after(tmp_path):
    rule = one_rule(tmp_path, """
- name: possessed
  doc: a test rule
  input:
  - {pred: poss_verb, args: [$e, $x, $i:i], as: S}
  context:
  - {pos: n, args: [$n:x, ...], after: S}
  output:
  - {pred: poss, args: [$e, $n, $x]}
""" + EXAMPLE)
    text = "poss_verb(e2, x3, i5) & _dog_n_1(x3) & _bone_n_1(x4) & _cat_n_1(x6)"
    got = run(rule, text, question="dog's cat's bone", written={"x3": "dog", "e2": "'s", "x6": "cat", "x4": "bone"})
    assert "poss(e2, x6, x3)" in str(got.formula)
    assert run(rule, text).formula == parse_formula(text)


def test_only_one_completion(tmp_path):
    rule = one_rule(tmp_path, """
- name: one_of
  doc: a test rule
  input:
  - {pred: _kind_n_1, args: [$x], as: K}
  - {pred: _of_p, args: [_, $x, $y:x], only: true}
  context:
  - {pos: n, abstract: false, not_lemma: [kind], args: [$y]}
  output:
  - {pred: '=', args: [$x, $y], at: K}
""" + EXAMPLE)
    assert str(run(rule, "_kind_n_1(x1) & _of_p(e2, x1, x3) & _music_n_1(x3)").formula) == "x1 = x3 & _music_n_1(x3)"
    # two objects that complete the match: none is taken
    two = "_kind_n_1(x1) & _of_p(e2, x1, x3) & _music_n_1(x3) & _of_p(e4, x1, x5) & _art_n_1(x5)"
    assert run(rule, two).formula == parse_formula(two)
    # ... but an object that does not complete it does not count
    one = "_kind_n_1(x1) & _of_p(e2, x1, x3) & _music_n_1(x3) & _of_p(e4, x1, x5) & named(x5, \"X\")"
    assert "x1 = x3" in str(run(rule, one).formula)


def test_optional_cases_give_way_to_scope(tmp_path):
    rule = one_rule(tmp_path, """
- name: two_cases
  doc: a test rule
  cases:
  - input: [{pred: a, args: [$x]}]
    output: [{pred: b, args: [$x]}]
  - input: [{pred: c, args: [$x, $y]}]
    optional: true
    context: [{pred: d, args: [$z]}]
    output: [{pred: c, args: [$x, $z]}]
""" + EXAMPLE)
    # the optional case would free z: it is left out, the other case made
    got = run(rule, "a(x1) & c(x1, x2) & (exists x9. d(x9))")
    assert str(got.formula) == "b(x1) & c(x1, x2) & exists x9. d(x9)"


def test_steps_positive_core_and_note(tmp_path):
    rule = one_rule(tmp_path, """
- name: marks
  doc: a test rule
  note: "'{lemma:K|kind} of N'"
  positive_core: true
  input:
  - {pos: n, lemma: 'words:views.kind_nouns', args: [$x:var, $y], as: K}
  output:
  - {pred: kind_of, args: [$y]}
  - {pred: mark, args: [$x]}
  then:
  - cases:
    - input: [{pred: _be_v_id, args: [$e, $k, $z]}]
      context: [{pred: mark, args: [$k]}]
      output: [{pred: _of_p, args: [$e, $k, $z]}]
  - cases:
    - input: [{pred: mark, args: [_]}]
""" + EXAMPLE, stage="views")
    got = run(rule, "_type_n_of-n(x1, x2) & _be_v_id(e3, x1, x4)")
    assert str(got.formula) == "kind_of(x2) & _of_p(e3, x1, x4)"
    assert note_of(rule.note, got.matches) == "'type of N'"
    # under a negation: not in the positive core
    neg = "~_type_n_of-n(x1, x2) & _be_v_id(e3, x1, x4)"
    assert run(rule, neg).formula == parse_formula(neg)


def test_answer_through_identities_and_said_only(tmp_path):
    rule = one_rule(tmp_path, """
- name: name_of
  doc: a test rule
  positive_core: true
  input:
  - {pred: _name_n_of, args: [$n, $y:x]}
  where:
  - {answers: 1}
  - {answer_through: [$n, 'words:views.identity_copula', appos]}
  - {said_only: [$n, 'words:views.name_answer_predicates']}
  output:
  - {pred: '=', args: [$n, $y]}
""" + EXAMPLE, stage="views")
    got = run(rule, "thing(x1) & _be_v_id(e2, x1, x3) & _name_n_of(x3, x4) & _game_n_1(x4)")
    assert str(got.formula) == "thing(x1) & _be_v_id(e2, x1, x3) & x3 = x4 & _game_n_1(x4)"
    said = "_name_n_of(x1, x4) & _official_a_1(e5, x1)"
    assert run(rule, said).formula == parse_formula(said)
    apart = "_name_n_of(x3, x4) & _game_n_1(x1)"
    assert run(rule, apart).formula == parse_formula(apart)
    assert run(rule, "_name_n_of(x1, x4)", answers=("x1", "x2")).formula == parse_formula("_name_n_of(x1, x4)")


@pytest.mark.parametrize("body, code", [
    ("  input: [{pred: a, args: [$x], lemma: 'words:views.no_such_list'}]\n", "words"),
    ("  input: [{pred: a, args: [$x]}]\n  unanswer: [$y]\n", "variable"),
    ("  input: [{pred: a, args: [$x], after: S}]\n", "reference"),
    ("  input: [{pred: a, args: [$x]}]\n  output: [{pred: '=', args: [$x]}]\n", "output"),
    ("  input: [{pred: a, args: [$x]}]\n  then: [{input: []}]\n", "then"),
])
def test_lint_of_the_extensions(tmp_path, body, code):
    f = tmp_path / "r.yaml"
    f.write_text("stage: corrections\nrules:\n- name: r\n  doc: a test rule\n" + body + EXAMPLE, encoding="utf-8")
    assert code in {i.code for i in check_rules([f], BUILTINS)}


def test_known_predicates_by_lemma_and_arity(tmp_path):
    from verifier.rewrite.known import Known

    rule = one_rule(tmp_path, """
- name: known
  doc: a test rule
  cases:
  - input: [{pos: v, unknown_word: true, known: true, known_arities: [2], known_not_arities: [3], args: [$e, $a, _:i], as: V}]
    output: [{pred: '{known:V}', args: [$e, $a]}]
  - input: [{pos: v, unknown_word: true, known: true, args: [$e, $a, $o], as: V}]
    output: [{pred: '{known:V}', args: [$e, $a, $o]}]
""" + EXAMPLE)
    known = Known({"use": "_use_v_1", "go": "_go_v_1", "write": "_write_v_1"},
                  {"_use_v_1": frozenset({3}), "_go_v_1": frozenset({2}), "_write_v_1": frozenset({3})})

    def go(text):
        return str(rewrite(rule, Subject(parse_formula(text), (), Surface(), known)).formula)
    assert go("_use/vb_u_unknown(e2, x3, x1)") == "_use_v_1(e2, x3, x1)"
    assert go("_wrote/vb_u_unknown(e2, x3, x1)") == "_write_v_1(e2, x3, x1)"  # a past form: its verb
    assert go("_go/vb_u_unknown(e2, x3, i4)") == "_go_v_1(e2, x3)"  # no object in the axioms
    assert go("_frob/vb_u_unknown(e2, x3, x1)") == "_frob/vb_u_unknown(e2, x3, x1)"
    # nothing known: nothing read
    assert str(run(rule, "_use/vb_u_unknown(e2, x3, x1)").formula) == "_use/vb_u_unknown(e2, x3, x1)"


def test_phrases_closed_and_covered(tmp_path):
    rule = one_rule(tmp_path, """
- name: who
  doc: a test rule
  note: single
  positive_core: true
  cases:
  - input: [{pred: _be_v_id, args: [$e, $w, $n:var], as: B}, {pred: person, args: [$w], as: P}]
    where: [{answers: 1}, {first_answer: $w}, {said_only: [$w]}, {covered: [$n]}]
    parts: [{pred: [named, compound], args: [...]}]
    around: [{pos: p, args: [_, $e, $y:var]}]
    output: [{pred: _do_v_1, args: [$e, $n, $w], at: B}, {pred: thing, args: [$w], at: P}]
  - input: [{pred: _be_v_id, args: [$e, $w, $n:var]}, {pred: person, args: [$w]}]
    where: [{first_answer: $w}, {other_answer: $w}, {said_only: [$w]}, {closed: [$n]}]
    parts: [{pred: [named, compound], args: [...]}]
    unanswer: [$w]
    case_note: second
""" + EXAMPLE, stage="views")
    got = run(rule, 'person(x1) & _be_v_id(e2, x1, x3) & named(x3, "Kim") & _in_p(e4, e2, x5) & named(x5, "Bible")')
    assert str(got.formula).startswith("thing(x1) & _do_v_1(e2, x3, x1)") and note_of(rule.note, got.matches) == "single"
    # something else said of the name, or a word on the copula that is no place: no view
    for text in ('person(x1) & _be_v_id(e2, x1, x3) & named(x3, "Kim") & _sing_v_1(e4, x3)',
                 'person(x1) & _be_v_id(e2, x1, x3) & named(x3, "Kim") & _kobe/rb_u_unknown(i9, e2)'):
        assert run(rule, text).formula == parse_formula(text)
    two = run(rule, 'person(x1) & _be_v_id(e2, x1, x3) & named(x3, "Kim") & _do_v_1(e6, x8, x7)', answers=("x1", "x7"))
    assert two.answers == (Var("x7"),) and note_of(rule.note, two.matches) == "second"
    assert str(two.formula) == 'named(x3, "Kim") & _do_v_1(e6, x8, x7)'
