"""Rewrites and wrappers as data: a rewrite (parsers.mrs.shapes.rewrite) reads a question first
as another question, groups of a match blanked or replaced; a wrapper's ``wrap``
(parsers.mrs.shapes.template.run_wrapper) sets a phrase aside and adds EPs on the main event.
The shipped ones pinned to what the deleted Python builders wrote, ones of one's own, and the
loader's checks."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from parsers.mrs.shapes import BUILDERS, check_shapes, default_shape_dirs, engine_for, load_shapes
from parsers.mrs.shapes.data import shipped_shapes
from parsers.mrs.shapes.engine import REWRITE_BUILDERS, rewrite_question
from parsers.mrs.shapes.examples import run_examples
from parsers.mrs.shapes.rewrite import Rewrite, RewriteError, rewrite_from, rewritten

SHIPPED = shipped_shapes()


def test_every_shipped_rewrite_is_data():
    rewrites = [s for s in SHIPPED.shapes if s.kind == "rewrite"]
    assert {s.name for s in rewrites} >= {"name_of_description", "on_a_map", "where_is_place"}
    assert all(s.rewrite is not None for s in rewrites)
    assert REWRITE_BUILDERS == {} and not {"name_of_description", "on_a_map", "where_is_place"} & BUILDERS


@pytest.mark.parametrize("name,question,expected", [
    # what the deleted builders wrote (the same length: spans keep their offsets)
    ("name_of_description", "What is the name of the chemical compound that treats chickenpox?",
     "What is             the chemical compound that treats chickenpox?"),
    ("on_a_map", "where is rome italy located on a map?", "where is rome italy located         ?"),
    ("where_is_place", "Where is the headquarters of the NRA located?",
     "What  is the headquarters of the NRA        ?"),
    ("where_is_place", "Where was the birth place of Grazia Deledda?", "What  was the birth place of Grazia Deledda?"),
    ("where_is_place", "Who is the headquarters of the NRA?", None),
    ("on_a_map", "Where is Rome?", None),
])
def test_shipped_rewrites_write_what_the_builders_wrote(name, question, expected):
    got = rewrite_question(SHIPPED.shape(name), question)
    assert got == expected
    assert got is None or len(got) == len(question)


def test_rewritten_blanks_and_replaces_from_the_end():
    rx = re.compile(r"(?P<a>where)\s+is\s+(?P<b>\w+)(?P<c>\s+located)?")
    rw = Rewrite("P", blank=("c",), replace=(("a", "What"), ("b", "the {b} of it")))
    assert rewritten(rw, rx, "where is Rome located?") == "What is the Rome of it        ?"
    assert rewritten(rw, rx, "where is Rome?") == "What is the Rome of it?"  # c did not match: left alone
    assert rewritten(rw, rx, "so where is Rome?") is None  # match: at the start only
    assert rewritten(Rewrite("P", search=True, blank=(0,)), rx, "so where is Rome?") == "so " + " " * 13 + "?"


def test_rewrite_from_reads_and_refuses():
    assert rewrite_from({"blank": ["x"]}, ("P",)) == Rewrite("P", blank=("x",))
    assert rewrite_from({"match": "Q", "search": True, "replace": [{"group": "g", "with": "T"}]}, ("P", "Q")) == \
        Rewrite("Q", True, (), (("g", "T"),))
    for raw in ({"blank": ["x"]}, {"match": "P"}, {"match": "P", "blank": "x"}, {"match": "P", "fly": 1, "blank": [0]},
                {"match": "P", "replace": [{"group": "g"}]}, {"match": "P", "blank": [True]}, "P"):
        with pytest.raises(RewriteError):
            rewrite_from(raw, ("P", "Q"))


MINE = textwrap.dedent("""\
    family: mine
    shapes:
    - name: tell_me_who
      doc: '"Tell me who wrote Hamlet?" read as "Who wrote Hamlet?"'
      kind: rewrite
      order: 1
      patterns:
        TELL_ME_WHO: '^\\s*(?P<tell>tell\\s+me\\s+)(?P<wh>who)\\b'
      rewrite: {blank: [tell], replace: [{group: wh, with: 'Who'}]}
      examples:
      - question: Tell me who did axl rose marry?
        readings: 1
        preds: [_marry_v_1, named, person, proper_q, which_q]
    """)


def _write(tmp_path: Path, text: str) -> Path:
    d = tmp_path / "shapes"
    d.mkdir(exist_ok=True)
    (d / "mine.yaml").write_text(text, encoding="utf-8")
    return d


def test_a_rewrite_of_ones_own(tmp_path):
    d = _write(tmp_path, MINE)
    shape_set = load_shapes([*default_shape_dirs(), d], BUILDERS)
    assert shape_set.shape("tell_me_who").rewrite == Rewrite("TELL_ME_WHO", blank=("tell",), replace=(("wh", "Who"),))
    failed = [r for r in run_examples(shape_set) if not r.ok]
    assert failed == []
    q = "Tell me who did axl rose marry?"
    assert engine_for().readings(q) == []  # the shipped shapes do not read it
    (r,) = engine_for([str(d)]).readings(q)
    assert 'CARG: "axl rose"' in r and "[ person<8:11>" in r  # spans of the question as written


@pytest.mark.parametrize("rewrite,message", [
    ("{match: NOPE, blank: [tell]}", "unknown pattern NOPE"),
    ("{blank: [nope]}", "unknown group 'nope'"),
    ("{blank: [tell], fly: 1}", "unknown rewrite field"),
])
def test_the_loader_checks_rewrites(tmp_path, rewrite, message):
    text = MINE.replace("{blank: [tell], replace: [{group: wh, with: 'Who'}]}", rewrite)
    issues = [str(i) for i in check_shapes([*default_shape_dirs(), _write(tmp_path, text)], BUILDERS)]
    assert any(message in i for i in issues), issues


def test_a_rewrite_is_of_kind_rewrite_and_has_no_builder(tmp_path):
    text = MINE.replace("  kind: rewrite\n", "  kind: rewrite\n  builder: on_a_map\n")
    assert any("one of them" in str(i) for i in check_shapes([*default_shape_dirs(), _write(tmp_path, text)], BUILDERS))
    text = MINE.replace("  kind: rewrite\n", "")
    assert any("only a shape of kind rewrite" in str(i)
               for i in check_shapes([*default_shape_dirs(), _write(tmp_path, text)], BUILDERS))


# ------------------------------------------------------------------------- wrappers as data


def test_data_wrappers_are_run_by_the_engine():
    from parsers.mrs.shapes.engine import WRAPPER_BUILDERS

    assert all(SHIPPED.shape(n).wrap is not None and n not in WRAPPER_BUILDERS
               for n in ("name_tail", "time_phrase", "together", "when_clause", "without_name_test"))
    name_tail = SHIPPED.shape("name_tail")
    assert name_tail.wrap is not None and "name_tail" not in WRAPPER_BUILDERS
    assert name_tail.wrap.number_from == 920 and name_tail.wrap.search == frozenset({"NAME_TAIL"})


@pytest.mark.parametrize("question,modifier", [
    # what the deleted builder wrote: the modifier on the main event's label, the name under proper_q
    ("What award did Elia Kazan receive at the 27th Academy Awards?",
     '[ _at_p<34:60> LBL: MAIN ARG0: e920 ARG1: e2 ARG2: x921 ] [ named<41:60> LBL: h922 ARG0: x921 '
     'CARG: "27th Academy Awards" ] [ proper_q<41:60> LBL: h923 ARG0: x921 RSTR: h924 BODY: h925 ]'),
])
def test_name_tail_writes_what_the_builder_wrote(question, modifier):
    from parsers.mrs.shapes.data import using
    from parsers.mrs.shapes.engine import ShapeEngine, shape_reader, wrap_question

    with using(SHIPPED):
        shapes = [shape_reader(s) for s in ShapeEngine(SHIPPED).active("shape")]
        (r, *_) = wrap_question(SHIPPED.shape("name_tail"), question, shapes)
    main = re.search(r"LBL: (h\d+) ARG0: e2 ", r).group(1)
    assert modifier.replace("LBL: MAIN", f"LBL: {main}") in r and "h924 qeq h922" in r


@pytest.mark.parametrize("question", [
    "WHAT AWARD DID ELIA KAZAN RECEIVE AT THE 27TH ACADEMY AWARDS?",  # in capitals
    "Which city has the highest population in Europe?",  # no name before the phrase
    "When was the statue built in 524 BC?",  # a time, no name
])
def test_name_tail_refuses(question):
    from parsers.mrs.shapes.data import using
    from parsers.mrs.shapes.engine import ShapeEngine, shape_reader, wrap_question

    with using(SHIPPED):
        shapes = [shape_reader(s) for s in ShapeEngine(SHIPPED).active("shape")]
        assert wrap_question(SHIPPED.shape("name_tail"), question, shapes) == []


def test_the_loader_checks_wraps(tmp_path):
    text = MINE.replace("  kind: rewrite\n", "  kind: wrapper\n").replace(
        "  rewrite: {blank: [tell], replace: [{group: wh, with: 'Who'}]}\n",
        "  wrap: {blank: [0], steps: [{ep: _x_p, span: tell, label: hMAIN, args: {ARG0: $nope}}]}\n")
    assert any("used before it is bound" in str(i)
               for i in check_shapes([*default_shape_dirs(), _write(tmp_path, text)], BUILDERS))


def _wrapped(name, question):
    from parsers.mrs.shapes.data import using
    from parsers.mrs.shapes.engine import ShapeEngine, shape_reader, wrap_question

    with using(SHIPPED):
        shapes = [shape_reader(s) for s in ShapeEngine(SHIPPED).active("shape")]
        return wrap_question(SHIPPED.shape(name), question, shapes)


@pytest.mark.parametrize("question,pred,time,year", [
    # what the deleted builder wrote: the time phrase from its preposition, the year of the date
    ("What was the population of Somalia in 2009-0-0?", "_in_p_temp", "35:46", "2009"),
    ("What was the population of Clermont-Ferrand on 1-1-2013?", "_on_p_temp", "44:55", "2013"),
    ("Who was the president of France until 1975?", "_until_p", "32:42", "1975"),
    ("Who was the president of France in 1975?", "_in_p_temp", "32:39", "1975"),
])
def test_time_phrase_writes_what_the_builder_wrote(question, pred, time, year):
    (r, *_) = _wrapped("time_phrase", question)
    main = re.search(r"LBL: (h\d+) ARG0: e2 ", r).group(1)
    assert (f"[ {pred}<{time}> LBL: {main} ARG0: e900 ARG1: e2 ARG2: x901 ] [ yofc<{time}> LBL: h902 ARG0: x901 "
            f'CARG: "{year}" ] [ def_implicit_q<{time}> LBL: h903 ARG0: x901 RSTR: h904 BODY: h905 ]') in r
    assert "h904 qeq h902" in r


def test_together_writes_what_the_builder_wrote():
    q = "What award did Kanye West and Fergie win together?"
    (r,) = _wrapped("together", q)
    assert "[ _together+with_p<41:49> " in r and 'CARG: "Fergie"' in r and "[ proper_q<30:36> LBL: h913 ARG0: x911" in r
    assert "Kanye West" in r  # the pair's first name read by the shapes, "and Fergie" and "together" blanked


def test_when_clause_writes_what_the_builder_wrote():
    q = "Who was Herbert von Karajan employed by when he was replaced by Paul van Kempen?"
    (r,) = _wrapped("when_clause", q)
    main = re.search(r"LBL: (h\d+) ARG0: e2 ", r).group(1)
    assert (f"[ _when_x_subord<40:44> LBL: {main} ARG0: e990 ARG1: e2 ARG2: e906 ] [ pron<45:47> LBL: h902 ARG0: x901 ] "
            "[ pronoun_q<45:47> LBL: h905 ARG0: x901 RSTR: h903 BODY: h904 ] [ named<64:79> LBL: h908 ARG0: x907 "
            'CARG: "Paul van Kempen" ] [ proper_q<64:79> LBL: h911 ARG0: x907 RSTR: h909 BODY: h910 ] '
            f"[ _replaced/vbn_u_unknown<52:60> LBL: {main} ARG0: e906 ARG1: x907 ARG2: x901 ]") in r
    assert "h903 qeq h902 h909 qeq h908" in r
    (r,) = _wrapped("when_clause", "Mention the life span duration of Roald Dahl when he was a professional writer")
    assert "[ _a_q<59:78> LBL: h911 ARG0: x907" in r and "[ _be_v_id<50:78> " in r


def test_without_name_test_blanks_the_test_and_adds_nothing():
    q = "What is the isotope of hydrogen that follows deuterium that contains the word \"tritium\" in its name"
    readings = _wrapped("without_name_test", q)
    assert len(readings) == 2 and all("tritium" not in r and "e900" not in r for r in readings)
    # the first occurrence spans the whole relative clause and fails the test; the next is the name test
    with using_shipped() as read:
        assert read(q[:q.index(" that contains")]) == readings
    assert _wrapped("without_name_test", "What is the isotope of hydrogen that follows deuterium?") == []


def using_shipped():
    import contextlib

    from parsers.mrs.shapes.data import using
    from parsers.mrs.shapes.engine import ShapeEngine, shape_reader

    @contextlib.contextmanager
    def ctx():
        with using(SHIPPED):
            shapes = [shape_reader(s) for s in ShapeEngine(SHIPPED).active("shape")]
            yield lambda text: [r for f in shapes for r in f(text)]
    return ctx()
