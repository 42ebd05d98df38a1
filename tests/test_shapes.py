"""The question-shape engine (parsers.mrs.shapes): loading and linting shape files, templates,
selection by configuration, the example runner and the CLI."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from parsers.mrs.patterns import pattern_readings
from parsers.mrs.shapes import (
    BUILDERS, ShapeError, check_shapes, default_shape_dirs, engine_for, load_shapes, select_shapes,
)
from parsers.mrs.shapes.data import shipped_shapes
from parsers.mrs.shapes.examples import reading_preds, run_example, run_examples
from parsers.mrs.shapes.model import ShapeExample
from parsers.mrs.shapes.template import run_template
from parsers.mrs.shapes.template_spec import TemplateError, template_from
from verifier.cli import main as cli_main

SHIPPED = shipped_shapes()

# a shape of one's own: "what is the capital city of NAME?" read with a template; the
# preposition from a table, the name refused when it is in a word list
MINE = textwrap.dedent("""\
    family: mine
    words:
      NOT_CAPITALS:
        doc: Names that are no place.
        words: [nobody]
      PREPS:
        doc: The predicate of each preposition.
        table: {of: _of_p, in: _in_p}
    shapes:
    - name: capital_city
      doc: '"What is the capital city of NAME?": the city that is the capital of the name.'
      order: 5
      patterns:
        CAPITAL_CITY: '^\\s*(?P<wh>what)\\s+is\\s+the\\s+(?P<np>capital)\\s+(?P<city>city)\\s+(?P<prep>of|in)\\s+(?P<name>[^?]+?){{END}}'
      template:
        require:
        - {plain_name: name}
        - {not_in: name, words: NOT_CAPITALS}
        steps:
        - {wh: '{wh}', span: wh, as: x_wh}
        - {which_noun: '_{city}_n_1', span: city, wh_span: np, as: x_city}
        - {name: name, as: x_name}
        - {new: h, as: top}
        - {ep: _be_v_id, span: [wh.end, np.start], label: $top, args: {ARG0: e2, ARG1: $x_wh, ARG2: $x_city}}
        - {if: {group: prep, in: [of, in]}, ep: '{prep|PREPS}', span: prep, label: $top,
           args: {ARG0: 'new:e', ARG1: $x_city, ARG2: $x_name}}
        result: {index: e2, top: $top}
      examples:
      - question: What is the capital city of Peru?
        readings: 1
        preds: [_be_v_id, _city_n_1, _of_p, _which_q, named, proper_q, thing, which_q]
    """)


def _write(tmp_path: Path, text: str, name: str = "mine.yaml") -> Path:
    d = tmp_path / "shapes"
    d.mkdir(exist_ok=True)
    (d / name).write_text(text, encoding="utf-8")
    return d


def _codes(paths) -> list[str]:
    return [i.code for i in check_shapes([*default_shape_dirs(), *paths], BUILDERS)]


# ------------------------------------------------------------------------- shipped files


def test_shipped_shapes_lint_clean_and_cover_every_builder():
    assert [str(i) for i in check_shapes(None, BUILDERS)] == []
    assert len(SHIPPED.shapes) >= 50
    used = {s.builder for s in SHIPPED.shapes if s.template is None and s.rewrite is None and s.wrap is None}
    assert used == set(BUILDERS), set(BUILDERS) ^ used  # no builder without a shape
    assert sum(s.template is not None for s in SHIPPED.shapes) >= 14
    assert {"informal", "questions", "wrappers", "rewrites"} <= set(SHIPPED.families)
    for s in SHIPPED.shapes:
        assert s.doc and s.examples, s.name


@pytest.mark.parametrize("shape,example", [(s, ex) for s in SHIPPED.shapes for ex in s.examples],
                         ids=lambda v: getattr(v, "name", None) or getattr(v, "question", "")[:40])
def test_shipped_examples(shape, example):
    r = run_example(SHIPPED, shape, example)
    assert r.ok, r.message


def test_a_wrong_example_fails_with_what_differed():
    shape = SHIPPED.shape("who_did_marry")
    bad = ShapeExample("who did axl rose marry?", 2, ("_marry_v_1",))
    r = run_example(SHIPPED, shape, bad)
    assert not r.ok and "expected 2 reading(s), got 1" in r.message
    bad = ShapeExample("who did axl rose marry?", 1, ("_wed_v_1",))
    assert "expected predicates" in run_example(SHIPPED, shape, bad).message


def test_templated_shape_reads_as_the_builder_did():
    """who_did_marry is a template now; its reading is the one the Python shape wrote."""
    (r,) = engine_for().readings("who did axl rose marry?")
    assert r == ('[ TOP: h0 INDEX: e2 [ e SF: ques ] RELS: < [ person<0:3> LBL: h4 ARG0: x3 ] '
                 '[ which_q<0:3> LBL: h7 ARG0: x3 RSTR: h5 BODY: h6 ] [ named<8:16> LBL: h9 ARG0: x8 '
                 'CARG: "axl rose" ] [ proper_q<8:16> LBL: h12 ARG0: x8 RSTR: h10 BODY: h11 ] '
                 '[ _marry_v_1<17:22> LBL: h13 ARG0: e2 ARG1: x8 ARG2: x3 ] > HCONS: < h0 qeq h13 '
                 'h5 qeq h4 h10 qeq h9 > ]')


# ------------------------------------------------------------------------- loader errors


@pytest.mark.parametrize("text,code", [
    ("shapes: [\n", "yaml"),
    ("colour: red\n", "field"),
    ("shapes:\n- name: x1\n  order: 1\n  builder: copula\n  examples: [{question: q}]\n", "doc"),
    ("shapes:\n- name: x1\n  doc: d\n  builder: copula\n  colour: red\n  examples: [{question: q}]\n", "field"),
    ("shapes:\n- name: x1\n  doc: d\n  builder: copula\n", "examples"),
    ("shapes:\n- name: x1\n  doc: d\n  builder: nothing\n  examples: [{question: q}]\n", "builder"),
    ("shapes:\n- name: x1\n  doc: d\n  kind: odd\n  builder: copula\n  examples: [{question: q}]\n", "kind"),
    ("shapes:\n- name: X-1\n  doc: d\n", "name"),
    ("shapes:\n- name: copula\n  doc: d\n  builder: copula\n  examples: [{question: q}]\n", "duplicate"),
    ("shapes:\n- name: x1\n  doc: d\n  builder: copula\n  patterns: {P1: '(unclosed'}\n"
     "  examples: [{question: q}]\n", "regex"),
    ("shapes:\n- name: x1\n  doc: d\n  builder: copula\n  patterns: {P1: 'a{{NOPE}}'}\n"
     "  examples: [{question: q}]\n", "reference"),
    ("shapes:\n- name: x1\n  doc: d\n  builder: copula\n  patterns: {P1: '{{words:NOPE}}'}\n"
     "  examples: [{question: q}]\n", "reference"),
    ("shapes:\n- name: x1\n  doc: d\n  builder: copula\n  words: [NOPE]\n  examples: [{question: q}]\n", "reference"),
    ("shapes:\n- name: x1\n  doc: d\n  patterns: {P1: 'a'}\n  template: {steps: [{fly: x}], result: {index: e2, top: h1}}\n"
     "  examples: [{question: q}]\n", "template"),
    ("shapes:\n- name: x1\n  doc: d\n  patterns: {P1: 'a'}\n  template: {steps: [{new: h, as: t}]}\n"
     "  examples: [{question: q}]\n", "template"),
    ("shapes:\n- name: x1\n  doc: d\n  patterns: {P1: 'a'}\n  template: {match: P9, result: {index: e2, top: h1}}\n"
     "  examples: [{question: q}]\n", "reference"),
    ("words:\n  W1: {doc: d}\n", "words"),
    ("patterns:\n  P1: {regex: a}\n", "patterns"),
    ("fragments:\n  F1: {regex: a}\n", "fragments"),
    ("shapes:\n- name: x1\n  doc: d\n  builder: copula\n  examples: [{question: q, readings: many}]\n", "examples"),
])
def test_loader_reports_errors(tmp_path, text, code):
    d = _write(tmp_path, text)
    assert code in _codes([d])
    with pytest.raises(ShapeError) as e:
        load_shapes([*default_shape_dirs(), d], BUILDERS)
    assert any(i.code == code for i in e.value.issues)
    assert "mine.yaml" in str(e.value)


def test_safe_yaml_only(tmp_path):
    d = _write(tmp_path, "shapes: !!python/object/apply:os.system ['echo pwned']\n")
    assert "yaml" in _codes([d])


def test_template_variables_must_be_bound_before_use():
    with pytest.raises(TemplateError, match="used before it is bound"):
        template_from({"steps": [{"ep": "_x", "span": "a", "label": "$top"}],
                       "result": {"index": "e2", "top": "$top"}}, ("P",))


# ------------------------------------------------------------------------- templates and engine


def test_a_template_of_ones_own(tmp_path):
    d = _write(tmp_path, MINE)
    shape_set = load_shapes([*default_shape_dirs(), d], BUILDERS)
    shape = shape_set.shape("capital_city")
    assert shape.family == "mine" and shape.template is not None
    assert all(r.ok for r in run_examples(shape_set)), [r for r in run_examples(shape_set) if not r.ok]
    engine = engine_for([str(d)])
    (r, *_) = engine.readings("What is the capital city of Peru?")
    assert reading_preds(r) == ("_be_v_id", "_city_n_1", "_of_p", "_which_q", "named", "proper_q", "thing",
                                "which_q")
    assert "[ _of_p<25:27> LBL: h18 ARG0: e19 ARG1: x8 ARG2: x13 ]" in r  # the table's predicate on "of"
    assert 'CARG: "Peru"' in r
    # the word list refuses a name; a shipped shape may still read the question
    assert all("_city_n_1" not in r for r in engine.readings("What is the capital city of nobody?"))
    # the shipped engine does not know the shape
    assert all("_city_n_1" not in r for r in pattern_readings("What is the capital city of Peru?"))


def test_run_template_does_not_apply_when_a_test_fails(tmp_path):
    from parsers.mrs.shapes.data import using

    shape_set = load_shapes([*default_shape_dirs(), _write(tmp_path, MINE)], BUILDERS)
    t = shape_set.shape("capital_city").template
    with using(shape_set):
        assert run_template(t, "What is the capital city of Peru?")
        assert run_template(t, "What is the capital city of the war in Peru?") == []  # no plain name
        assert run_template(t, "Who is the capital city of Peru?") == []  # no match


def test_disabled_shapes_and_families():
    q = "who did axl rose marry?"
    assert pattern_readings(q)
    assert engine_for(disabled=["who_did_marry"]).readings(q) == []
    assert engine_for(disabled=["informal"]).readings(q) == []
    assert engine_for(["informal"]).readings(q) == pattern_readings(q)
    assert engine_for(["questions"]).readings(q) == []
    assert engine_for("all").readings(q) == pattern_readings(q)
    # a wrapper can be left out: the time phrase is then not set aside
    q2 = "What was the population of Somalia in 2009?"
    assert any("yofc" in r for r in pattern_readings(q2))
    assert not any("yofc" in r for r in engine_for(disabled=["time_phrase"]).readings(q2))


def test_unknown_shape_names_are_refused():
    with pytest.raises(ValueError, match="unknown shape"):
        select_shapes(SHIPPED, ["no_such_shape"])
    with pytest.raises(ValueError, match="unknown shape"):
        engine_for(disabled=["no_such_shape"])


def test_the_verifier_reads_its_shapes_from_the_configuration(tmp_path):
    from verifier.api import Verifier
    from verifier.config import load_config

    (tmp_path / "verifier.toml").write_text(
        '[deductive]\nshapes = ["all", "shapes/mine.yaml"]\ndisabled_shapes = ["informal"]\n', encoding="utf-8")
    _write(tmp_path, MINE)
    cfg = load_config(tmp_path / "verifier.toml", environ={}, cwd=tmp_path)
    assert cfg.get("deductive", "shapes") == ["all", str(tmp_path / "shapes" / "mine.yaml")]
    v = Verifier(cfg)
    assert v.shape_engine.readings("who did axl rose marry?") == []
    assert v.shape_engine.readings("What is the capital city of Peru?")


# ------------------------------------------------------------------------- CLI


def test_cli_lint_covers_shape_files(tmp_path, capsys):
    pack = tmp_path / "pack"
    pack.mkdir()
    _write(pack, "shapes:\n- name: x1\n  doc: d\n  builder: nothing\n  examples: [{question: q}]\n")
    assert cli_main(["axioms", "lint", str(pack)]) == 1
    assert "unknown builder 'nothing'" in capsys.readouterr().out


def test_cli_test_runs_shape_examples(tmp_path, capsys):
    from verifier.cli.axioms import run_shape_examples

    class Args:
        dirs: list = []

    assert run_shape_examples(Args()) == 0
    assert "shape examples: " in capsys.readouterr().out
    pack = tmp_path / "pack"
    pack.mkdir()
    _write(pack, MINE.replace("readings: 1", "readings: 3"))
    Args.dirs = [str(pack)]
    assert run_shape_examples(Args()) == 1
    out = capsys.readouterr().out
    assert "FAIL shape capital_city" in out and "1 failed" in out


def test_reader_of_one_shape():
    from parsers.mrs.shapes.engine import reader_of

    read = reader_of("who_did_marry")
    assert read("who did axl rose marry?") == pattern_readings("who did axl rose marry?")
    assert read("What is the mass of benzene?") == []
    with pytest.raises(KeyError):
        reader_of("no_such_shape")
    with pytest.raises(KeyError):
        reader_of("time_phrase")  # a wrapper reads with the shapes, not alone


def test_engines_of_different_configurations_run_concurrently():
    """The shape set in use is a context variable: threads reading with different engines at
    once get what each engine gives alone."""
    from concurrent.futures import ThreadPoolExecutor

    questions = [ex.question for s in SHIPPED.shapes for ex in s.examples] * 2
    engines = [engine_for(), engine_for(disabled=["informal"]), engine_for(["questions"]),
               engine_for(disabled=["time_phrase", "together"])]
    alone = [[e.readings(q) for q in questions] for e in engines]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda e: [e.readings(q) for q in questions], engines))
    assert together == alone
    assert alone[0] != alone[1] != alone[2]


def test_template_conditions():
    import re as _re

    from parsers.mrs.shapes.template import holds

    m = _re.match(r"(?P<wh>who)\s+(?P<verb>\w+)(?:\s+(?P<prep>by))?", "Who directs", _re.I)
    assert holds(m, {"group": "verb"}) and not holds(m, {"group": "prep"})
    assert holds(m, {"group": "verb", "is": "directs"}) and holds(m, {"group": "verb", "endswith": "s"})
    assert holds(m, {"group": "verb", "startswith": "dir"}) and holds(m, {"group": "wh", "in": ["who", "what"]})
    assert holds(m, {"group": "verb", "in_words": "STATE_VERBS"}) == ("directs" in SHIPPED.words["STATE_VERBS"].words)
    assert holds(m, {"not": {"group": "prep"}})
    assert not holds(m, {"all": [{"group": "verb"}, {"group": "prep"}]})
    # the template of who_verbed: a past verb is a deed, a present one only among the state verbs
    assert pattern_readings("Who directed Kishen Kanhaiya?")
    assert reading_preds(pattern_readings("Who directed Kishen Kanhaiya?")[0])[0] == "_directed/vbd_u_unknown"
