"""The stages of the deductive core (:mod:`verifier.deductive`), one test class per stage
module, on real small inputs: the chemistry example's questions (its cached MRS), queries and
KG labels, and small readings written in the text notation.  The stage order itself
(:data:`verifier.deductive.STAGES`: no stage imports a later one) is checked on the source.

Uses only files of the repository (examples/chemistry), so it runs without ../shared and ACE.
"""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path
from types import SimpleNamespace

import pytest

from parsers.mrs import rank_translations, translate_readings
from parsers.mrs.simplemrs import coerce_mrs
from parsers.sparql import parse_query
from verifier.api import Verifier
from verifier.config import load_config
from verifier.logic import Atom, Var, atoms, free_vars
from verifier.notation import parse_formula
from verifier.prover import Premise, ProverContext

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "verifier" / "deductive"
EXAMPLE = ROOT / "examples" / "chemistry"
MASS_Q = "What is the mass of benzene?"
MASS = "SELECT ?v WHERE { wd:Q2270 wdt:P2067 ?v . }"
BOILING = "SELECT ?v WHERE { wd:Q2270 wdt:P2102 ?v }"


@pytest.fixture(scope="module")
def ver() -> Verifier:
    return Verifier(load_config(EXAMPLE / "verifier.toml"))


@pytest.fixture(scope="module")
def readings(ver):
    raw, _, _ = ver.readings(MASS_Q)
    return translate_readings([coerce_mrs(r) for r in raw])


@pytest.fixture(scope="module")
def reading(readings):
    return [r for r in rank_translations(readings) if r.ok][0]


@pytest.fixture(scope="module")
def background(ver):
    return [Premise(n, f) for n, f, _ in ver.pack.background]


def notation_reading(formula: str, answer: str = "x1", intent=None):
    return SimpleNamespace(formula=parse_formula(formula), intent=intent, answer_vars=(Var(answer),))


# ---- the stage order ----------------------------------------------------------------------

def _imports(path: Path) -> list[tuple[str, tuple[str, ...]]]:
    """Every import of a module (lazy ones too): (module, names imported from it)."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            out.append((node.module, tuple(a.name for a in node.names)))
        elif isinstance(node, ast.Import):
            out += [(a.name, ()) for a in node.names]
    return out


def _stage(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if parts[:2] == ["verifier", "deductive"] and len(parts) > 2 else None


class TestStageOrder:
    def test_no_stage_imports_a_later_one(self):
        from verifier.deductive import STAGES

        files = sorted(p for p in PACKAGE.rglob("*.py") if p.name != "__init__.py" or p.parent != PACKAGE)
        assert {_stage("verifier.deductive." + p.relative_to(PACKAGE).with_suffix("").parts[0]) for p in files} \
            == set(STAGES)
        for path in files:
            own = path.relative_to(PACKAGE).with_suffix("").parts[0]
            for module, _ in _imports(path):
                other = _stage(module)
                if other is not None and other != own:
                    assert STAGES.index(other) < STAGES.index(own), f"{path.name}: {own} imports {other}"

    def test_modules_are_small_public_and_declare_all(self):
        for path in PACKAGE.rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            assert len(text.splitlines()) <= 800, path
            tree = ast.parse(text)
            assert any(isinstance(n, ast.Assign) and any(getattr(t, "id", "") == "__all__" for t in n.targets)
                       for n in tree.body), f"{path} has no __all__"
            for module, names in _imports(path):
                if module.startswith("verifier.deductive"):
                    assert not [n for n in names if n.startswith("_")], f"{path}: private import from {module}"

    def test_the_names_callers_import_stay_importable(self):
        import verifier.deductive as d

        for name in ("DeductiveResult", "ReadingResult", "AtomDiagnosis", "check_readings", "VERDICT_ORDER",
                     "negation_kg_readings", "KIND_OF", "kind_of_view", "attachment_view", "known_verbs",
                     "distinguish_repeated", "SUPERLATIVE_VALUE", "_kind_of_view", "_attachment_view",
                     "_known_verbs", "_distinguish_repeated"):
            assert hasattr(d, name), name


# ---- the stages ---------------------------------------------------------------------------

class TestResults:
    def test_verdict_order_and_unsupported_atoms(self, ver):
        from verifier.deductive.results import VERDICT_ORDER, DeductiveResult

        assert VERDICT_ORDER[0] == "faithful" and VERDICT_ORDER[-1] == "unknown"
        res = ver.verify(MASS_Q, BOILING).deductive
        assert isinstance(res, DeductiveResult) and res.verdict == "unsupported"
        assert res.unsupported_atoms == ("wdt:P2102(wd:Q2270, x3)",)


class TestReading:
    def test_a_view_is_frozen_and_keeps_the_reading(self, reading):
        from verifier.deductive.reading import ReadingView, mended, open_vars

        t, opened = open_vars(reading.formula, {Var("x8")})
        assert opened == {Var("x8")} and Var("x8") in free_vars(t)
        view = ReadingView.of(reading, t, set(), note="read so")
        assert view.intent is reading.intent and view.answer_vars == reading.answer_vars and view.note == "read so"
        with pytest.raises(dataclasses.FrozenInstanceError):
            view.formula = reading.formula
        assert mended(reading, reading.formula) is reading

    def test_conjuncts_and_identities(self, reading):
        from verifier.deductive.reading import Identities, conjuncts, identified_with

        facts = conjuncts(reading.formula)
        assert Atom("_mass_n_of", (Var("x8"), Var("x13"))) in facts
        assert identified_with(facts, Var("x3")) == {Var("x3"), Var("x8")}
        assert Identities(facts).find(Var("x3")) == Identities(facts).find(Var("x8"))


class TestPrepared:
    def test_the_query_is_prepared_once(self):
        from verifier.deductive.prepared import prepare_query

        q = "Who was Robert Shaw's spouse in 1950?"
        prep = prepare_query(parse_query(
            "SELECT ?obj WHERE { wd:Q313727 p:P26 ?s . ?s ps:P26 ?obj . ?s pq:P580 ?x }"), q)
        assert "wdt:P26" in str(prep.pattern) and "pq:" not in str(prep.pattern)
        assert [str(q.atom) for q in prep.qualifiers] and "P580" in str(prep.qualifiers[0].atom)
        assert prep.reification  # the statement's reification axioms
        with pytest.raises(dataclasses.FrozenInstanceError):
            prep.pattern = None
        plain = prepare_query(parse_query(MASS), MASS_Q)
        assert plain.predicates == frozenset({"wdt:P2067"}) and plain.qualifiers == ()


class TestCorrections:
    def test_the_passes_in_their_declared_order(self, ver, reading):
        from verifier.deductive.corrections import CorrectionInputs
        from verifier.deductive.rules import CORRECTIONS, correct

        assert [c.name for c in CORRECTIONS] == [
            "parser_defects", "pied_piped_relatives", "adjective_compounds", "absolute_with",
            "relative_participles", "grand_kin", "split_name_appositions", "known_verbs", "passive_agents",
            "role_titles", "distinguish_repeated", "coordinated_objects"]
        inputs = CorrectionInputs(MASS_Q, ver.pack, ver.labels)
        assert correct(reading, inputs) is reading  # nothing to correct

    def test_a_pass_reads_a_written_reading(self, ver):
        from verifier.deductive.corrections import CorrectionInputs
        from verifier.deductive.rules import correct, rules_for

        r = notation_reading('exists e1 e2 x9 x37. _year_n_1(x5) & _in_p_temp(e1, x9, x5) & '
                             '_in_p_temp(e2, x37, x9) & named(x9, "Award") & _year_n_1(x37)', "x5")
        got = correct(r, CorrectionInputs("In which year ... of the Year?", ver.pack, ver.labels))
        assert "_year_n_1~2(x37)" in {str(a) for a in atoms(got.formula)}
        assert got.rules == ("distinguish_repeated",)  # the pass that changed it is recorded
        off = correct(r, CorrectionInputs("In which year ... of the Year?", ver.pack, ver.labels),
                      rules_for(disabled={"distinguish_repeated"}))
        assert off is r  # disabled by name: nothing changed, nothing recorded


class TestViews:
    def test_views_declared_in_order_and_applied_by_question(self):
        from verifier.deductive.results import DEGENERATE_ANSWER
        from verifier.deductive.rules import VIEWS, views_for

        assert [v.name for v in VIEWS] == ["name_of_description", "who_is", "kind_of", "attachment",
                                           "predicative_prepositions"]
        assert [v.after_reason for v in VIEWS if v.after_reason] == [DEGENERATE_ANSWER]
        applies = {v.name: a for v, a in views_for("What kind of music did Lou Reed play?")}
        assert applies == {"name_of_description": False, "who_is": False, "kind_of": True, "attachment": True,
                           "predicative_prepositions": True}
        assert dict((v.name, a) for v, a in views_for("Who is Lou Reed?"))["who_is"]

    def test_a_view_of_a_written_reading(self):
        from verifier.deductive.rules import VIEWS
        from verifier.deductive.views import KIND_OF

        kind_of = next(v for v in VIEWS if v.name == "kind_of")
        view = kind_of.make(notation_reading('exists e2 x3 x9. _kind_n_of-n(x5, x9) & _music_n_1(x9) '
                                             '& named(x3, "Lou Reed") & _play_v_1(e2, x3, x5)', "x5"))
        assert {a.pred for a in atoms(view.formula)} >= {KIND_OF} and "read as N" in view.note


class TestPremises:
    def test_structural_axioms_and_background(self, ver, reading, background):
        from verifier.deductive.premises import (
            abstract_units, dedupe_axioms, is_relevant_background, kg_rule, structural_axioms,
        )
        from verifier.grounding import question_units

        units = question_units(reading, MASS_Q)
        axioms = structural_axioms(ver.pack, units + abstract_units(reading))
        assert dedupe_axioms(axioms + axioms) == dedupe_axioms(axioms)
        kg = [p for p in background if kg_rule(p.formula)]
        assert kg and all(not is_relevant_background(p.formula, set()) for p in kg)

    def test_a_closure_states_its_property(self):
        from verifier.deductive.premises import closures_state_their_property

        pinned = parse_query("SELECT ?x WHERE { ?x wdt:P131+ wd:Q1 . ?x wdt:P31 wd:Q515 }").pattern
        assert [p.name for p in closures_state_their_property(pinned)] == ["wdt:P131+ states wdt:P131"]
        # a closure to anything reaches every level above: it states nothing
        loose = parse_query("SELECT ?x WHERE { ?x wdt:P131+ ?y }").pattern
        assert closures_state_their_property(loose) == []


class TestConsequences:
    def test_kg_consequences_of_a_reading(self, ver, reading, background):
        from verifier.deductive.consequences import kg_consequences
        from verifier.deductive.prepared import prepare_query
        from verifier.deductive.problem import build_problem

        problem = build_problem(MASS_Q, reading, prepare_query(parse_query(MASS), MASS_Q), ver.pack, ver.grounder,
                                background)
        got = [str(f) for f in kg_consequences(problem.reading.formula, problem.kg_axioms())]
        assert got == ["x13 = wd:Q2270", "wdt:P2067(x13, x8)", "x3 = x8"]

    def test_negations_without_a_kg_reading(self, ver):
        from verifier.deductive.consequences import negation_kg_readings, negations_of

        r = notation_reading("exists x2. _compound_n_1(x1) & ~_toxic_a_1(e3, x1)")
        assert negations_of(r.formula)
        assert negation_kg_readings(r, [], []) == {}


class TestAlignment:
    def test_the_answer_is_aligned_with_the_column(self, reading):
        from verifier.deductive.alignment import aligned_pattern, alignment_of

        query = parse_query(MASS)
        mapping, unaligned = alignment_of(reading, query)
        assert mapping == {Var("v"): Var("x3")} and unaligned == []
        assert str(aligned_pattern(reading, query)) == "wdt:P2067(wd:Q2270, x3)"


class TestProblem:
    def test_the_proof_problem_of_a_reading(self, ver, reading, background):
        from verifier.deductive.prepared import prepare_query
        from verifier.deductive.problem import build_problem

        problem = build_problem(MASS_Q, reading, prepare_query(parse_query(MASS), MASS_Q), ver.pack, ver.grounder,
                                background)
        assert str(problem.g) == "wdt:P2067(wd:Q2270, x3)"
        assert {l.symbol.id for l in problem.grounding.links} == {"Q2270", "P2067"}
        assert problem.premises[problem.t_index].name == "T(question)"
        with pytest.raises(dataclasses.FrozenInstanceError):
            problem.g = None


class TestDecide:
    def test_the_first_check_that_fires_decides(self, ver, reading, background):
        from verifier.deductive.checks import Check, context_of, with_proof
        from verifier.deductive.decide import decide, faithful_reason
        from verifier.deductive.prepared import prepare_query
        from verifier.deductive.problem import build_problem

        problem = build_problem(MASS_Q, reading, prepare_query(parse_query(MASS), MASS_Q), ver.pack, ver.grounder,
                                background)
        ctx = with_proof(context_of(problem, ver.grounder), entailed=lambda f: False)
        assert decide(ctx) is None
        assert decide(with_proof(ctx, intent_failure="a count")) == ("intent_mismatch", "a count")
        ran = []
        order = (Check("first", "weaker", lambda c: ran.append("first") or "first fired"),
                 Check("late", "unsupported", lambda c: ran.append("late") or None, always=True))
        assert decide(ctx, order) == ("weaker", "first fired") and ran == ["late", "first"]
        assert faithful_reason(None, "", ()) == "the question entails the query"


class TestDiagnose:
    def test_a_refuted_reading_is_diagnosed_from_its_kept_problem(self, ver, reading, background):
        from verifier.deductive.pipeline import check_reading, diagnosed
        from verifier.deductive.prepared import prepare_query

        checked = check_reading(MASS_Q, reading, prepare_query(parse_query(BOILING), MASS_Q), ver.pack, ver.grounder,
                                background, 2000, ProverContext())
        assert checked.result.verdict == "unsupported" and checked.refuted is not None
        best = diagnosed(checked, MASS_Q, ver.grounder, 2000, ProverContext())
        (bad,) = [d for d in best.diagnosis if not d.entailed]
        assert bad.symbols == ("P2102", "Q2270") and "boiling point" in bad.explanation
        assert best.reason == ver.verify(MASS_Q, BOILING).deductive.reason


class TestExplain:
    def test_the_explanation_says_the_verdict_and_the_links(self, ver):
        res = ver.verify(MASS_Q, MASS).deductive
        assert res.explanation.startswith("The query follows from the question (reading")
        assert "'benzene' -> wd:Q2270 (benzene)" in res.explanation


class TestPipeline:
    def test_each_reading_is_checked_once(self, ver, readings, monkeypatch):
        import verifier.deductive.pipeline as pipeline

        calls = []
        real = pipeline.check_reading

        def counted(*args, **kwargs):
            calls.append(args[1])
            return real(*args, **kwargs)

        monkeypatch.setattr(pipeline, "check_reading", counted)
        res = pipeline.check_readings(MASS_Q, parse_query(BOILING), readings, ver.pack, ver.grounder)
        assert res.verdict == "unsupported" and res.best.diagnosis
        assert len(calls) == len(res.readings)  # the best reading is diagnosed, not checked again
        ok = pipeline.check_readings(MASS_Q, parse_query(MASS), readings, ver.pack, ver.grounder)
        assert ok.verdict == "faithful" and ok.best.reading_index == 0
