"""Rewrites as data (parsers.mrs.shapes.rewrite): a question read first as another question,
groups of a match blanked or replaced; the shipped rewrites pinned to what the deleted Python
builders wrote, a rewrite of one's own, and the loader's checks."""

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
