"""Rewrite rules as data (``verifier/rewrite``, ``axioms/rewrites``, ``verifier.deductive.rules``):
the engine and its conditions on written readings, every shipped rule's examples, the checks
of rule files, disabling rules by name, the stand-in grammar's repairs switched by grammar,
rules of one's own, and the rules a verdict records.

Uses only files of the repository (examples/chemistry), so it runs without ../shared and ACE.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from verifier.axioms import default_pack_dirs, load_pack
from verifier.config import Config, load_config
from verifier.deductive.corrections import CorrectionInputs
from verifier.deductive.rules import (
    BUILTINS, CORRECTIONS, VIEWS, correct, example_apply, rules_for, shipped_rules, views_for,
)
from verifier.lexical import LabelIndex
from verifier.logic import Var
from verifier.notation import parse_formula
from verifier.rewrite import check_rules, load_rules, rewrite_formula
from verifier.rewrite.examples import ExampleReading, run_examples
from verifier.rewrite.loader import rule_files

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "chemistry"
SHIPPED = shipped_rules()


def reading(formula: str, *answers: str) -> ExampleReading:
    return ExampleReading(parse_formula(formula), tuple(Var(a) for a in answers or ("x1",)))


def one_rule(tmp_path: Path, body: str, stage: str = "corrections"):
    """The single rule of a rule file written from ``body`` (the YAML of one rule)."""
    f = tmp_path / "r.yaml"
    f.write_text(f"stage: {stage}\nrules:\n" + body, encoding="utf-8")
    return load_rules([f], BUILTINS).rules[0]


def _drop_thing(expect: str) -> str:
    """A rule file of one's own: a correction dropping ``thing(x)`` of a noun's variable, its
    example expecting ``expect``."""
    return """stage: corrections
rules:
- name: drop_thing
  doc: drop thing() of a variable that a noun describes
  input:
  - {pred: thing, args: [$x]}
  context:
  - {pos: n, args: [$x, ...]}
  examples:
  - {formula: 'thing(x1) & _city_n_1(x1)', expect: '%s'}
""" % expect


@pytest.fixture(scope="module")
def pack():
    return load_pack(default_pack_dirs())


# ---- the shipped rules ----------------------------------------------------------------------

class TestShipped:
    def test_order_grammars_and_kinds(self):
        assert [c.name for c in CORRECTIONS] == [
            "parser_defects", "pied_piped_relatives", "adjective_compounds", "absolute_with",
            "relative_participles", "grand_kin", "split_name_appositions", "known_verbs", "passive_agents",
            "role_titles", "distinguish_repeated", "coordinated_objects"]
        assert [v.name for v in VIEWS] == ["name_of_description", "who_is", "kind_of", "attachment",
                                           "predicative_prepositions"]
        declarative = {r.name for r in SHIPPED.rules if r.declarative}
        assert declarative == {"adjective_compounds", "absolute_with", "relative_participles", "grand_kin",
                               "passive_agents", "predicative_prepositions", "parser_defects", "role_titles", "pied_piped_relatives",
                               "kind_of", "name_of_description", "known_verbs", "who_is"}
        assert {r.name for r in SHIPPED.rules if r.grammars == "standin"} == {"adjective_compounds", "passive_agents"}
        # every builtin of a rule file is in the one registry, with the stage of its file
        assert all(BUILTINS[r.builtin].stage == r.stage for r in SHIPPED.rules if r.builtin)

    def test_the_shipped_files_lint_clean(self):
        from verifier.rewrite import default_rule_dirs

        assert check_rules(default_rule_dirs(), BUILTINS) == []

    @pytest.mark.parametrize("rule", SHIPPED.rules, ids=lambda r: r.name)
    def test_each_rules_examples(self, rule, pack):
        from verifier.rewrite.model import RuleSet

        results = run_examples(RuleSet((rule,)), example_apply(pack, LabelIndex()))
        assert results and all(r.ok for r in results), [str(r) for r in results if not r.ok]

    def test_views_by_question(self):
        from verifier.deductive.results import DEGENERATE_ANSWER

        applies = {v.name: a for v, a in views_for("What kind of music did Lou Reed play?")}
        assert applies == {"name_of_description": False, "who_is": False, "kind_of": True, "attachment": True,
                           "predicative_prepositions": True}
        assert dict((v.name, a) for v, a in views_for("Who is Lou Reed?"))["who_is"]
        assert dict((v.name, a) for v, a in views_for("What is the name of the game published by Nintendo?"))[
            "name_of_description"]
        assert [v.after_reason for v in VIEWS if v.after_reason] == [DEGENERATE_ANSWER]


# ---- the engine -----------------------------------------------------------------------------

class TestEngine:
    def test_input_replaced_context_kept(self):
        rule = SHIPPED.rule("adjective_compounds")
        f = parse_formula("compound(e5, e2, x4) & _grammatical_a_1(e2, x1) & _gender_n_1(x1)")
        assert str(rewrite_formula(rule, f)) == "compound(e5, x1, x4) & _grammatical_a_1(e2, x1) & _gender_n_1(x1)"

    def test_sorts_restrict_arguments(self):
        rule = SHIPPED.rule("adjective_compounds")
        # the adjective's ARG1 is an event, not an instance: no noun to move the compound to
        f = parse_formula("compound(e5, e2, x4) & _grammatical_a_1(e2, e7)")
        assert rewrite_formula(rule, f) is f

    def test_cases_in_order_and_inputs_used_once(self):
        rule = SHIPPED.rule("passive_agents")
        # two "by" phrases on one verb: the first (in order) is its doer, the second stays
        f = parse_formula("_hold_v_1(e2, i3, x1) & _by_p(e4, e2, x5) & _by_p(e6, e2, x7)")
        assert str(rewrite_formula(rule, f)) == "_hold_v_1(e2, x5, x1) & _by_p(e6, e2, x7)"
        # the second case: "by" on the noun the participle modifies
        g = parse_formula("_direct_v_to(e2, i3, x1) & _by_p_loc(e4, x1, x5)")
        assert str(rewrite_formula(rule, g)) == "_direct_v_to(e2, x5, x1)"
        # ... the last participle of that noun (last: true), not the first
        h = parse_formula("_write_v_to(e2, i3, x1) & _follow_v_1(e4, i5, x1) & _by_p(e6, x1, x7)")
        assert str(rewrite_formula(rule, h)) == "_write_v_to(e2, i3, x1) & _follow_v_1(e4, x7, x1)"

    def test_a_rewrite_out_of_scope_is_not_made(self):
        rule = SHIPPED.rule("passive_agents")
        # the doer is quantified inside the "by" phrase: moving it to the verb would free it
        f = parse_formula("_hold_v_1(e2, i3, x1) & (exists x5. _by_p(e4, e2, x5) & named(x5, \"X\"))")
        assert rewrite_formula(rule, f) is f

    def test_fresh_variables_quantified_where_written(self):
        rule = SHIPPED.rule("predicative_prepositions")
        f = parse_formula("_play_v_1(e2, x4, e3) & _for_p(e3, x4, x1)")
        assert str(rewrite_formula(rule, f)) == "(exists i_e2_pp. _play_v_1(e2, x4, i_e2_pp)) & _for_p(e3, e2, x1)"

    def test_conditions_unless_where_pred_re_lemma(self, tmp_path):
        rule = one_rule(tmp_path, """
- name: tall_people
  doc: a test rule
  input:
  - {lemma: [tall, high], pos: a, args: [$e:e, $x:x]}
  context:
  - {pred_re: '_person_n_.*', args: [$x]}
  unless:
  - {pred: neg, args: [_, $e]}
  where:
  - {not_named: $x}
  output:
  - {pred: _tall_person_a, args: [$e, $x]}
  examples:
  - {formula: '_tall_a_1(e2, x1) & _person_n_1(x1)', expect: '_tall_person_a(e2, x1) & _person_n_1(x1)'}
""")
        def run(text):
            return str(rewrite_formula(rule, parse_formula(text)))
        assert run("_high_a_1(e2, x1) & _person_n_1(x1)") == "_tall_person_a(e2, x1) & _person_n_1(x1)"
        assert run("_tall_a_1(e2, x1) & _person_n_1(x1) & neg(e9, e2)") == \
            "_tall_person_a(e2, x1) & _person_n_1(x1) & neg(e9, e2)".replace("_tall_person_a", "_tall_a_1")
        assert run("_tall_a_1(e2, x1) & _person_n_1(x1) & named(x1, \"Kim\")").startswith("_tall_a_1")
        assert run("_tall_a_1(e2, x1) & _dog_n_1(x1)").startswith("_tall_a_1")  # no context
        assert run("_short_a_1(e2, x1) & _person_n_1(x1)").startswith("_short_a_1")  # lemma
        assert run("_tall_a_1(e2, x1, x3) & _person_n_1(x1)").startswith("_tall_a_1")  # arity (no '...')

    def test_a_dropped_input(self, tmp_path):
        rule = one_rule(tmp_path, """
- name: drop_thing
  doc: drop thing() of a variable that a noun describes
  input:
  - {pred: thing, args: [$x]}
  context:
  - {pos: n, args: [$x, ...]}
  examples:
  - {formula: 'thing(x1) & _city_n_1(x1)', expect: '_city_n_1(x1)'}
""")
        assert str(rewrite_formula(rule, parse_formula("thing(x1) & _city_n_1(x1) & thing(x2)"))) == \
            "_city_n_1(x1) & thing(x2)"


# ---- checks of rule files -------------------------------------------------------------------

class TestLint:
    def test_problems_are_reported_with_lines(self, tmp_path):
        f = tmp_path / "bad.yaml"
        f.write_text("""stage: corrections
rules:
- name: no_examples
  doc: a rule without examples
  input:
  - {pred: p, args: [$x]}
  output:
  - {pred: q, args: [$y]}
- name: bad_sort
  doc: an argument of an unknown sort
  colour: red
  input:
  - {pred: p, args: [$x:z]}
  examples:
  - {formula: 'p(x1)', unchanged: true}
- name: unknown_builtin
  doc: a builtin nobody wrote
  builtin: does_not_exist
  examples:
  - {formula: 'p(x1)', unchanged: true}
- name: no_examples
  doc: twice
  builtin: attachment
  examples:
  - {formula: 'p(x1)', unchanged: true}
""", encoding="utf-8")
        issues = check_rules([f], BUILTINS)
        codes = {(i.code, i.line) for i in issues}
        assert ("examples", 3) in codes and ("variable", 3) in codes  # $y is bound by nothing
        assert ("arg", 13) in codes and ("field", 9) in codes
        assert ("builtin", 16) in codes and ("duplicate", 21) in codes
        with pytest.raises(ValueError, match="problem"):
            load_rules([f], BUILTINS)

    def test_views_only_fields_and_stages(self, tmp_path):
        f = tmp_path / "x.yaml"
        f.write_text("stage: elsewhere\nrules: []\n", encoding="utf-8")
        assert [i.code for i in check_rules([f])] == ["stage"]

    def test_cli_lint_and_test_cover_rewrite_files(self, tmp_path, capsys):
        from verifier.cli.axioms import run_lint, run_rule_examples
        from types import SimpleNamespace

        pack_dir = tmp_path / "pack"
        (pack_dir / "rewrites").mkdir(parents=True)
        (pack_dir / "rewrites" / "mine.yaml").write_text(_drop_thing("_city_n_1(x1) & thing(x1)"), encoding="utf-8")
        args = SimpleNamespace(dirs=[str(pack_dir)])
        assert run_rule_examples(args) == 1  # the example is wrong
        out = capsys.readouterr().out
        assert "FAIL rule drop_thing" in out and f"rewrite rule examples: {sum(len(r.examples) for r in SHIPPED.rules)} passed, 1 failed" in out
        assert run_lint(args) == 0


# ---- enabling: by name, by grammar, rules of one's own ---------------------------------------

class TestEnabling:
    def test_disabled_by_name(self, pack):
        r = reading('exists e1 e2 x9 x37. _year_n_1(x5) & _in_p_temp(e1, x9, x5) & _in_p_temp(e2, x37, x9) & '
                    'named(x9, "Award") & _year_n_1(x37)', "x5")
        inputs = CorrectionInputs("In which year ... of the Year?", pack, LabelIndex())
        assert correct(r, inputs).rules == ("distinguish_repeated",)
        assert correct(r, inputs, rules_for(disabled={"distinguish_repeated"})) is r
        names = rules_for(disabled={"kind_of", "passive_agents"}).names
        assert "kind_of" not in names and "passive_agents" not in names and "who_is" in names

    def test_views_made_once_per_rule_set(self):
        rules = rules_for(disabled={"kind_of"})
        assert rules.active(True, frozenset()) is rules  # nothing left out: not rebuilt per pair
        a = [v for v, _ in views_for("What kind of music did Lou Reed play?", rules)]
        b = [v for v, _ in views_for("Who wrote Dune?", rules)]
        assert a and all(x is y for x, y in zip(a, b)) and "kind_of" not in [v.name for v in a]

    def test_standin_repairs_only_for_the_standin(self):
        off = rules_for(standin=False).names
        assert "adjective_compounds" not in off and "passive_agents" not in off and "absolute_with" in off
        assert set(rules_for(standin=True).names) == set(SHIPPED.names)

    def test_verifier_decides_by_the_grammars_family(self):
        from verifier.mrs_cache import CORPUS_GRAMMAR

        cfg = load_config(EXAMPLE / "verifier.toml")
        v = _verifier(cfg)
        assert v.standin_repairs_for(CORPUS_GRAMMAR) is True  # the shared corpus: the stand-in
        assert v.standin_repairs_for("erg-2025-x86-64-0.9.34.dat:1:0123456789abcdef") is False  # a released ERG
        assert v.standin_repairs_for(None) is True  # pattern readings alone: as before
        on = _verifier(cfg.with_values("rewrite", standin_repairs=True))
        off = _verifier(cfg.with_values("rewrite", standin_repairs="false"))
        assert on.standin_repairs_for("erg-2025.dat:1:0123456789abcdef") is True
        assert off.standin_repairs_for(CORPUS_GRAMMAR) is False
        assert "passive_agents" not in off.rules[False].names and "passive_agents" in off.rules[True].names
        with pytest.raises(ValueError, match="standin_repairs"):
            _verifier(cfg.with_values("rewrite", standin_repairs="sometimes"))

    def test_disabled_rules_and_own_rules_from_the_configuration(self, tmp_path):
        mine = tmp_path / "rules"
        mine.mkdir()
        (mine / "mine.yaml").write_text(_drop_thing("_city_n_1(x1)"), encoding="utf-8")
        cfg = load_config(EXAMPLE / "verifier.toml").with_values(
            "rewrite", disabled_rules=["kind_of"], rules=str(mine))
        v = _verifier(cfg)
        names = v.rules[True].names
        assert "kind_of" not in names and names.index("drop_thing") > names.index("coordinated_objects")
        assert [f.name for f in rule_files([mine])] == ["mine.yaml"]


def _verifier(cfg: Config):
    from verifier.api import Verifier

    return Verifier(cfg)


# ---- what a verdict records -----------------------------------------------------------------

def test_a_verdict_shows_the_rules_applied():
    from verifier.api import Verifier

    v = Verifier(load_config(EXAMPLE / "verifier.toml"))
    r = v.verify("What is the mass of benzene?", "SELECT ?v WHERE { wd:Q2270 wdt:P2067 ?v . }")
    d = r.to_dict()
    assert d["deductive"]["rules"] == list(r.rules) == list(r.deductive.best.rules)
    assert all(isinstance(n, str) and n in SHIPPED.names for n in r.rules)
