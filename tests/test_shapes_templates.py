"""The template language of the question shapes (parsers.mrs.shapes.template, template_spec):
the tests, conditions, spans, slots and steps added to write the former Python builders as
data, on shapes of one's own and on shipped shapes whose readings are pinned to what the
deleted builders wrote."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from parsers.mrs.shapes import BUILDERS, check_shapes, default_shape_dirs, engine_for, load_shapes
from parsers.mrs.shapes.data import using
from parsers.mrs.shapes.engine import reader_of
from parsers.mrs.shapes.examples import reading_preds
from parsers.mrs.shapes.template import MatchView, holds, run_template
from parsers.mrs.shapes.template_spec import TemplateError, template_from

# a shape of one's own using the additions: two patterns (``matched``), one reading per split
# (``each``), combined tests, a word test, spans cut by patterns, ``{G:last}`` / ``{G:base}``
# slots, a CARG value, a ``qeq`` and step blocks
MINE = textwrap.dedent("""\
    family: mine
    words:
      NOT_HEADS:
        doc: Words that head no noun phrase here.
        words: [nothing]
    shapes:
    - name: np_of_name
      doc: '"What is the NP of NAME?" once per "of" / "for", at most two readings; "Tell me NP of NAME" too.'
      order: 5
      patterns:
        NP_OF_NAME: '^\\s*(?P<wh>what)\\s+is\\s+the\\s+(?P<rest>[^?]+?)\\s*\\??$'
        TELL_NP_OF_NAME: '^\\s*tell\\s+me\\s+(?P<rest>[^?]+?)\\s*\\??$'
      template:
        match: [NP_OF_NAME, TELL_NP_OF_NAME]
        each: {split: rest, at: SPLIT, as: [np, prep, name], max: 2, clean: true}
        require:
        - {plain_np: np}
        - {nonempty: name}
        - {word_test: np, max: 5, letters: true, none_in: [NOT_HEADS]}
        - any:
          - {not_search: name, pattern: VALUE, anchored: true}
          - {not: {nonempty: name}}
        steps:
        - {if: {matched: NP_OF_NAME}, wh: '{wh}', span: wh, as: x_wh}
        - {if: {matched: TELL_NP_OF_NAME}, wh: what, span: [0, 0], as: x_wh}
        - {noun_phrase: np, quant: _the_q, as: x_np, label_as: l_np}
        - {ep: '_{prep}_p', span: prep, label: $l_np, args: {ARG0: 'new:e', ARG1: $x_np, ARG2: {name: name}}}
        - {new: h, as: top}
        - {ep: _be_v_id, span: [0, np.start], label: $top, args: {ARG0: e2, ARG1: $x_wh, ARG2: $x_np}}
        result: {index: e2, top: $top}
      examples:
      - question: What is the capital of France?
        readings: 1
        preds: [_be_v_id, _capital/nn_u_unknown, _of_p, _the_q, named, proper_q, thing, which_q]
    - name: verbed_value
      doc: '"Who VERBed X in N?": the verb''s base form, the value as a CARG, the last word of X as a noun.'
      order: 6
      patterns:
        VERBED_VALUE: '^\\s*who\\s+(?P<verb>[a-z]+ed)\\s+(?:the\\s+)?(?P<np>[a-z ]+?)\\s+in\\s+(?P<value>\\d+)\\s*\\??$'
      template:
        steps:
        - {new: x, as: x_who}
        - {new: h, as: l_who}
        - {ep: person, span: [0, 3], label: $l_who, args: {ARG0: $x_who}}
        - {new: x, as: x_np}
        - {new: h, as: l_np}
        - {ep: '_{np:last}_n_1', span: {after: LEADING_THE, in: np}, label: $l_np, args: {ARG0: $x_np}}
        - {new: h, as: top}
        - if: {group: verb, endswith: [ed]}
          steps:
          - {ep: '_{verb:base}_v_1', span: verb, label: $top, args: {ARG0: e2, ARG1: $x_who, ARG2: $x_np}}
          - {new: x, as: x_val}
          - {new: h, as: l_val}
          - {ep: card, span: value, label: $l_val, args: {ARG0: 'new:e', ARG1: $x_val, CARG: {carg: value}}}
          - {new: h, as: h_arg}
          - {qeq: $h_arg, to: $l_val}
        result: {index: e2, top: $top}
      examples:
      - question: Who invented the telephone in 1876?
        readings: 1
        preds: [_invent_v_1, _telephone_n_1, card, person]
    """)


def _shapes(tmp_path: Path):
    d = tmp_path / "shapes"
    d.mkdir(exist_ok=True)
    (d / "mine.yaml").write_text(MINE, encoding="utf-8")
    return d, load_shapes([*default_shape_dirs(), d], BUILDERS)


def test_each_gives_one_reading_per_split_up_to_max(tmp_path):
    d, shape_set = _shapes(tmp_path)
    assert [str(i) for i in check_shapes([*default_shape_dirs(), d], BUILDERS)] == []
    t = shape_set.shape("np_of_name").template
    with using(shape_set):
        one = run_template(t, "What is the capital of France?")
        two = run_template(t, "What is the name of capital of France?")
        three = run_template(t, "What is the x of y of z of Texas?")
    assert len(one) == 1 and 'CARG: "France"' in one[0]
    # the first split at the first "of" (NP "name", name "capital of France"), the second at the next
    # (NP "name of capital", its "of" a function word of the compound, name "France")
    assert "[ _of_p<17:19> LBL: h9 ARG0: e13 ARG1: x8 ARG2: x14 ]" in two[0]
    assert "[ _the_q<12:16> LBL: h12 ARG0: x8 RSTR: h10 BODY: h11 ]" in two[0]
    assert "[ _of_p<28:30> LBL: h9 ARG0: e19 ARG1: x8 ARG2: x20 ]" in two[1]
    assert "[ compound<12:27> LBL: h9 ARG0: e18 ARG1: x8 ARG2: x13 ]" in two[1]
    assert len(two) == 2 and len(three) == 2  # max: 2 splits (of the 3 that pass)
    assert 'CARG: "y of z of Texas"' in three[0] and 'CARG: "z of Texas"' in three[1]


def test_each_items_are_filtered_by_the_tests(tmp_path):
    _, shape_set = _shapes(tmp_path)
    t = shape_set.shape("np_of_name").template
    with using(shape_set):
        # a value after "of": refused (any: not a VALUE ...); the NP "nothing": refused by the word test
        assert run_template(t, "What is the population of 1900?") == []
        assert run_template(t, "What is the nothing of France?") == []
        assert run_template(t, "What is the one two three four five six of France?") == []  # six words
        # the second pattern: no wh word, the answer a thing at (0, 0)
        (r,) = run_template(t, "Tell me capital of Peru")
    assert "[ thing<0:0>" in r and 'CARG: "Peru"' in r and "_capital/nn_u_unknown" in r


def test_slots_carg_spans_blocks_and_qeq(tmp_path):
    _, shape_set = _shapes(tmp_path)
    t = shape_set.shape("verbed_value").template
    with using(shape_set):
        (r,) = run_template(t, "Who invented the telephone in 1876?")
    assert "[ _invent_v_1<4:12> LBL: h7 ARG0: e2 ARG1: x3 ARG2: x5 ]" in r  # {verb:base}
    assert "_telephone_n_1<17:26>" in r  # {np:last}; the span past "the " ({after: LEADING_THE, in: np})
    assert 'CARG: "1876"' in r  # {carg: value}
    assert r.endswith("HCONS: < h0 qeq h7 h11 qeq h9 > ]")  # {qeq: $h_arg, to: $l_val}


def test_shipped_templates_write_what_the_deleted_builders_wrote():
    """Readings pinned to the output of the Python builders they replace (how_many, relative)."""
    (r,) = reader_of("how_many")("How many performers are there for Thor?")
    assert r == ('[ TOP: h0 INDEX: e2 [ e SF: ques ] RELS: < [ _performers/nn_u_unknown<9:19> LBL: h4 ARG0: x3 ] '
                 '[ udef_q<4:19> LBL: h7 ARG0: x3 RSTR: h5 BODY: h6 ] [ abstr_deg<0:3> LBL: h9 ARG0: x8 ] '
                 '[ which_q<0:3> LBL: h12 ARG0: x8 RSTR: h10 BODY: h11 ] [ much-many_a<4:8> LBL: h4 ARG0: e13 '
                 'ARG1: x3 ] [ measure<0:8> LBL: h4 ARG0: e14 ARG1: e13 ARG2: x8 ] [ named<34:38> LBL: h16 '
                 'ARG0: x15 CARG: "Thor" ] [ proper_q<34:38> LBL: h19 ARG0: x15 RSTR: h17 BODY: h18 ] '
                 '[ _for_p<30:33> LBL: h4 ARG0: e20 ARG1: x3 ARG2: x15 ] [ _be_v_there<20:30> LBL: h21 ARG0: e2 '
                 'ARG1: x3 ] > HCONS: < h0 qeq h21 h5 qeq h4 h10 qeq h9 h17 qeq h16 > ]')
    # relative: the whole NP first, then its split at "of" (each with whole: true)
    whole, split = reader_of("relative")("what is the supplement of ibm that equals 100?")
    assert "[ compound<12:29> LBL: h9 ARG0: e18 ARG1: x8 ARG2: x13 ]" in whole
    assert "[ _of_p<23:25> LBL: h9 ARG0: e13 ARG1: x8 ARG2: x14 ]" in split
    assert "[ _equals/vbz_u_unknown<35:41> LBL: h9 ARG0: e24 ARG1: x8 ARG2: x19 ]" in split


def test_conditions_added_for_the_builders():
    m = MatchView(re.match(r"(?P<wh>where)\s+is\s+(?P<name>[^?]+?)\s*(?P<tail>from)?\??$", "Where is 'Big Ben' from?",
                           re.I), "Where is 'Big Ben' from?")
    assert holds(m, {"any": [{"group": "nope"}, {"group": "tail"}]})
    assert not holds(m, {"group": "nope"})  # a group the pattern lacks
    assert holds(m, {"group": "name", "contains": "big"})
    assert holds(m, {"group": "tail", "endswith": ["xx", "om"]})
    assert holds(m, {"group": "name", "matches": "LEADING_THE"}) is False
    assert not holds(m, {"matched": "VALUE"})
    view = MatchView(m.m, m.q, {"np": (10, 17), "prep": None})
    assert view.group("np") == "Big Ben" and view.group("prep") is None and view.span("prep") == (-1, -1)
    assert holds(view, {"group": "np", "is": "big ben"}) and not holds(view, {"group": "prep"})


@pytest.mark.parametrize("raw,message", [
    ({"each": {"split": "rest"}, "result": {"index": "e2", "top": "h1"}}, "each is"),
    ({"match": [3], "result": {"index": "e2", "top": "h1"}}, "names the pattern"),
    ({"steps": [{"steps": [{"ep": "_x", "span": "a", "label": "$top"}]}], "result": {"index": "e2", "top": "$top"}},
     "used before it is bound"),
    ({"require": [{"fly": "x"}], "result": {"index": "e2", "top": "h1"}}, "a test is one of"),
])
def test_template_errors(raw, message):
    with pytest.raises(TemplateError, match=message):
        template_from(raw, ("P",))


def test_lint_sees_references_inside_each_blocks_and_combined_tests(tmp_path):
    text = MINE.replace("at: SPLIT", "at: NO_SUCH_SPLIT").replace("none_in: [NOT_HEADS]", "none_in: [NO_SUCH_LIST]")
    d = tmp_path / "bad"
    d.mkdir()
    (d / "mine.yaml").write_text(text, encoding="utf-8")
    issues = [str(i) for i in check_shapes([*default_shape_dirs(), d], BUILDERS)]
    assert any("NO_SUCH_SPLIT" in i for i in issues) and any("NO_SUCH_LIST" in i for i in issues)


def test_converted_builders_are_gone_and_the_shapes_still_read():
    engine = engine_for()
    shapes = engine.shape_set.shapes
    assert all(s.template is not None for s in shapes if s.kind == "shape")  # every shape is data
    assert not {"possessive", "copula", "how_many", "relative", "two_hop", "where_is_name"} & set(BUILDERS)
    assert {s.builder for s in shapes if s.template is None and s.rewrite is None and s.wrap is None} == set(BUILDERS)  # wrappers
    assert engine.readings("How many performers are there for Thor?")


def test_copula_and_ask_value_templates_pinned_to_the_builders():
    """copula: "the CLASS for the NP of NAME" read three ways (chain, "is", "has": cases of one
    item); ask_value: "NAME's NP" from a sub-match within the rest (``each: {within: ...}``)."""
    chain, is_, has = reader_of("copula")("Who is the human for field work of Sioux?")
    assert "[ _for_p<17:20> LBL: h9 ARG0: e30 ARG1: x8 ARG2: x13 ]" in chain
    assert "[ _of_p<32:34> LBL: h14 ARG0: e31 ARG1: x13 ARG2: x24 ]" in chain
    assert "[ appos<11:40> LBL: h9 ARG0: e29 ARG1: x8 ARG2: x13 ] [ _of_p<31:35> LBL: h14 ARG0: e30 ARG1: x13" in is_
    assert "[ poss<16:31> LBL: h14 ARG0: e29 ARG1: x13 ARG2: x8 ] [ appos<21:40> LBL: h14 ARG0: e30 ARG1: x13" in has
    (r,) = reader_of("ask_value")("Is a horse's heart rate 46.5?")
    assert "[ poss<10:13> LBL: h4 ARG0: e19 ARG1: x3 ARG2: x14 ]" in r
    assert r.endswith("[ _be_v_id<23:24> LBL: h26 ARG0: e2 ARG1: x3 ARG2: x20 ] > HCONS: < h0 qeq h26 h5 qeq h4 "
                      "h10 qeq h9 h16 qeq h15 h23 qeq h21 > ]")


SOURCES = textwrap.dedent("""\
    family: sources
    shapes:
    - name: pairs
      doc: 'Sources of one reading each: "A, B and C" pairs (nested each with tests), a sub-match, cases.'
      order: 5
      patterns:
        LIST_Q: '^\\s*(?P<wh>list)\\s+(?P<items>[a-z ,]+?)\\s+(?:from|in)\\s+(?P<name>[A-Z][a-z]+)\\s*$'
        COMMA: '(,)\\s*'
        AND_PAIR: '^(?P<a>[a-z]+) and (?P<b>[a-z]+)$'
        OTHER_Q: '^\\s*(?P<wh>show)\\s+(?P<items>[a-z ,]+?)\\s*$'
      template:
        match: [LIST_Q, OTHER_Q]
        all_patterns: true
        groups:
        - {as: first_item, span: {before: COMMA, in: items}}
        each:
        - split: items
          at: COMMA
          as: [left, comma, right]
          max: 2
          require: [{not_search: left, pattern: COMMA}]
          each: {cases: [one, {name: two, if: {group: right, contains: ' and '}}], as: how}
        - {within: items, match: AND_PAIR}
        require:
        - {if: {matched: OTHER_Q}, not: {match: LIST_Q}}
        steps:
        - {new: x, as: x}
        - {new: h, as: l}
        - {if: {group: how, is: one}, ep: '_{left}_n_1', span: left, label: $l, args: {ARG0: $x}}
        - {if: {group: how, is: two}, ep: '_{right:last}_n_1', span: right, label: $l, args: {ARG0: $x}}
        - {if: {matched: AND_PAIR}, ep: '_{a}_n_1', span: a, label: $l, args: {ARG0: $x}}
        - {if: {matched: OTHER_Q}, ep: '_{first_item}_n_1', span: first_item, label: $l, args: {ARG0: $x}}
        result: {index: $x, top: $l}
      examples:
      - question: list cats, dogs and mice from Rome
        readings: 2
        preds: [_cats_n_1]
    """)


def test_each_sources_nested_cases_sub_matches_and_all_patterns(tmp_path):
    d = tmp_path / "src"
    d.mkdir()
    (d / "s.yaml").write_text(SOURCES, encoding="utf-8")
    assert [str(i) for i in check_shapes([*default_shape_dirs(), d], BUILDERS)] == []
    shape_set = load_shapes([*default_shape_dirs(), d], BUILDERS)
    t = shape_set.shape("pairs").template
    with using(shape_set):
        # the first split: left "cats" (case one) and, its right holding " and ", right's last word
        # "mice" (case two); the sub-match AND_PAIR does not match "cats, dogs and mice"
        both = [reading_preds(r)[0] for r in run_template(t, "list cats, dogs and mice from Rome")]
        pair = [reading_preds(r)[0] for r in run_template(t, "list cats and dogs from Rome")]
        (other,) = run_template(t, "show cats, dogs")
    assert both == ["_cats_n_1", "_mice_n_1"]
    assert pair == ["_cats_n_1"]  # no comma: no split; the sub-match AND_PAIR gives "cats"
    assert other.count("_cats_n_1<5:9>") == 2  # OTHER_Q (all_patterns): the split, and its virtual group first_item


def test_virtual_groups_and_new_tests_of_shipped_shapes():
    # groups: "where did rihanna grow up?": the verb is the name's last word (wh_event_alone)
    (r,) = reader_of("wh_event_alone")("where did rihanna grow up?")
    assert "_grow/vb_u_unknown<18:22>" in r and 'CARG: "rihanna"' in r
    # match tests and all_patterns: with a common verb "what kind of NP does X VERB?" has one reading only
    assert len(reader_of("wh_object")("what kind of government does italy have?")) == 1
    # word_test some_capitalised / some_lower: "did Rosalind Franklin study physical chemistry" is refused
    assert reader_of("in_which")("In which university did Rosalind Franklin study physical chemistry?") == []
