"""The downgrade checks of the deductive core, one test per module of
:mod:`verifier.deductive.checks`, on real proof problems: readings of the chemistry example
(its cached MRS) or small readings written in the text notation, grounded with the example's
axiom pack and KG labels (:func:`verifier.deductive.problem.build_problem`).

Uses only files of the repository (examples/chemistry), so it runs without ../shared and ACE.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest

from parsers.mrs import rank_translations, translate_readings
from parsers.mrs.simplemrs import coerce_mrs
from parsers.sparql import parse_query
from verifier.api import Verifier
from verifier.config import load_config
from verifier.deductive.checks import (
    PRE_PROOF, PRECEDENCE, alternatives, context_of, degenerate, dropped_class, ignored_names,
    ignored_times, incomplete, intent, mentions, no_labels, not_a_time, unlinked_doers,
    unlinked_names, unmentioned, with_proof,
)
from verifier.deductive.prepared import prepare_query
from verifier.deductive.problem import build_problem
from verifier.grounding import Grounder
from verifier.lexical import LabelIndex
from verifier.logic import Var
from verifier.notation import parse_formula
from verifier.prover import Premise, ProofResult

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "chemistry"
MASS = "SELECT ?v WHERE { wd:Q2270 wdt:P2067 ?v }"
#: "What is the mass of benzene?" as the grammar reads it, with room for more conjuncts
MASS_OF_BENZENE = "thing(x3) & _be_v_id(e2, x3, x8) & _mass_n_of(x8, x13) & _benzene/nn_u_unknown(x13)"


@pytest.fixture(scope="module")
def ver() -> Verifier:
    return Verifier(load_config(EXAMPLE / "verifier.toml"))


def grammar_reading(ver, question):
    raw, _, _ = ver.readings(question)
    return [r for r in rank_translations(translate_readings([coerce_mrs(r) for r in raw])) if r.ok][0]


def written(ver, formula, answer="x3"):
    """A reading written in the notation, with the intent of the grammar's "What is ...?"."""
    intent = grammar_reading(ver, "What is the mass of benzene?").intent
    return SimpleNamespace(formula=parse_formula(formula), intent=intent, answer_vars=(Var(answer),),
                           mrs=None, reading_index=0)


def context(ver, question, reading, sparql=MASS, grounder=None):
    """The checks' context of a reading's proof problem (``entailed`` says nothing follows)."""
    grounder = grounder or ver.grounder
    background = [Premise(n, f) for n, f, _ in ver.pack.background]
    problem = build_problem(question, reading, prepare_query(parse_query(sparql), question), ver.pack,
                            grounder, background)
    return with_proof(context_of(problem, grounder), entailed=lambda f: False)


def test_the_precedence_is_declared_once_and_names_each_check():
    assert [c.name for c in PRE_PROOF] == ["no_labels", "unmentioned_symbols", "degenerate"]
    assert [c.name for c in PRECEDENCE] == ["intent", "alternatives", "ignored_names", "ignored_times",
                                           "unlinked_names", "unlinked_doers", "dropped_class", "incomplete"]
    assert [c.name for c in PRECEDENCE if c.always] == ["alternatives"]


def test_alternatives_flags_an_alternative_no_word_names(ver):
    q = "What is the mass of benzene?"
    ctx = context(ver, q, grammar_reading(ver, q), "SELECT ?v WHERE { wd:Q2270 wdt:P2067|wdt:P2102 ?v }")
    reason = alternatives.check(ctx)
    assert reason and "wdt:P2102 (boiling point), an alternative of wdt:P2067|wdt:P2102" in reason
    assert alternatives.check(context(ver, q, grammar_reading(ver, q))) is None


def test_degenerate_refuses_a_reading_whose_answer_is_a_named_item(ver):
    ctx = context(ver, "What is benzene?",
                  written(ver, "exists e2 x13. thing(x3) & _be_v_id(e2, x3, x13) & _benzene/nn_u_unknown(x13)"))
    assert degenerate.check(ctx) == "the reading makes the answer x3 one of the items the question names"
    q = "What is the mass of benzene?"
    assert degenerate.check(context(ver, q, grammar_reading(ver, q))) is None


def test_dropped_class_asks_for_the_kind_of_thing_asked_for(ver):
    q = "What chemical compounds have less than 0.07 g/kg of solubility?"
    reading = grammar_reading(ver, q)
    dropped = context(ver, q, reading, "SELECT ?c WHERE { ?c wdt:P2177 ?s . FILTER(?s < 0.07) }")
    assert "does not restrict its answer to what the question asks for ('chemical')" in dropped_class.check(dropped)
    kept = context(ver, q, reading, "SELECT ?c WHERE { ?c wdt:P31 wd:Q11173 ; wdt:P2177 ?s . FILTER(?s < 0.07) }")
    assert dropped_class.check(kept) is None


def test_ignored_names_finds_a_named_item_the_query_leaves_out(ver):
    ctx = context(ver, "What is the mass of benzene and Ethanol?", written(
        ver, "exists e2 x8 x13 x21 x22. thing(x3) & _be_v_id(e2, x3, x8) & _mass_n_of(x8, x22) "
             '& _and_c(x22, x13, x21) & _benzene/nn_u_unknown(x13) & named(x21, "Ethanol")'))
    assert ignored_names.check(ctx) == "the query ignores what the question names: 'Ethanol' (Q153 ethanol)"
    # a name a negation's KG reading accounts for is not ignored
    assert ignored_names.check(replace(ctx, explained=frozenset({"ethanol"}))) is None


def test_ignored_times_finds_a_stated_year_the_query_drops(ver):
    ctx = context(ver, "What is the mass of benzene in 1990?", written(
        ver, f'exists e2 x8 x13 e20 x21. {MASS_OF_BENZENE} & _in_p_temp(e20, x8, x21) & yofc(x21, "1990")'))
    assert ignored_times.check(ctx) == "the query ignores the time the question states: 'in 1990'"
    q = "What is the mass of benzene?"
    assert ignored_times.check(context(ver, q, grammar_reading(ver, q))) is None


def test_incomplete_lists_the_constraints_the_query_drops(ver):
    q = "What is the mass of benzene?"
    ctx = context(ver, q, grammar_reading(ver, q))
    assert incomplete.check(ctx) is None  # no completeness proof yet
    refuted = with_proof(ctx, completeness=ProofResult("refuted", "countermodel"), missing=("wdt:P31(x3, wd:Q11173)",))
    assert incomplete.check(refuted) == "the query drops constraints the question states: wdt:P31(x3, wd:Q11173)"
    together = with_proof(ctx, completeness=ProofResult("refuted", "countermodel"))
    assert "each statement alone is implied" in incomplete.check(together)
    assert incomplete.check(with_proof(ctx, completeness=ProofResult("proved", ""))) is None


def test_intent_hands_on_the_intent_failure(ver, ):
    q = "What is the mass of benzene?"
    ctx = context(ver, q, grammar_reading(ver, q))
    assert intent.check(ctx) is None
    assert intent.check(with_proof(ctx, intent_failure="COUNT answers how many")) == "COUNT answers how many"
    # end to end: a count answers another question
    v = ver.verify(q, "SELECT (COUNT(?v) AS ?n) WHERE { wd:Q2270 wdt:P2067 ?v }")
    assert v.deductive.verdict == "intent_mismatch"


def test_no_labels_says_the_configuration_lacks_labels(ver):
    q = "What is the mass of benzene?"
    bare = Grounder(ver.pack, LabelIndex())
    ctx = context(ver, q, grammar_reading(ver, q), "SELECT ?v WHERE { wd:Q42 wdt:P2067 ?v }", grounder=bare)
    assert no_labels.check(ctx) == ("no KG labels are configured for Q42 ([grounding] labels in verifier.toml, "
                                    "or --labels)")
    assert no_labels.check(context(ver, q, grammar_reading(ver, q), "SELECT ?v WHERE { wd:Q42 wdt:P2067 ?v }")) is None


def test_not_a_time_answers_when_with_a_time(ver):
    ctx = context(ver, "When was the mass of benzene?", written(
        ver, "exists e2 x8 x13. time_n(x3) & _be_v_id(e2, x3, x8) & _mass_n_of(x8, x13) & _benzene/nn_u_unknown(x13)"))
    assert not_a_time.check(ctx) == ("the question asks when, but the query's answer is the mass (P2067) of "
                                     "something, not a time")
    q = "What is the mass of benzene?"
    assert not_a_time.check(context(ver, q, grammar_reading(ver, q))) is None


def test_unlinked_doers_finds_a_nickname_no_item_stands_for(ver):
    labels = LabelIndex()
    for sid, names, kind in [("Q2270", ["benzene"], "item"), ("P61", ["discoverer or inventor"], "property"),
                             ("Q308966", ["San Francisco Giants"], "item")]:
        labels.add(sid, names, kind)
    ctx = context(ver, "Did the giants discover benzene?", written(
        ver, "exists e2 x5 x13. _giants/nn_u_unknown(x5) & _discover_v_1(e2, x5, x13) & _benzene/nn_u_unknown(x13)",
        "x5"), "ASK { wd:Q2270 wdt:P61 ?x }", grounder=Grounder(ver.pack, labels))
    assert unlinked_doers.check(ctx) == "the query uses no item for what the question names: 'giants'"


def test_unlinked_names_finds_a_name_no_item_stands_for(ver):
    ctx = context(ver, "What is the mass of benzene in Lower Saxony?", written(
        ver, f'exists e2 x8 x13 e20 x21. {MASS_OF_BENZENE} & _in_p(e20, x8, x21) & named(x21, "Lower Saxony")'))
    assert unlinked_names.check(ctx) == "the query uses no item for what the question names: 'Lower Saxony'"
    assert ignored_names.check(ctx) is None  # no item is labelled so


def test_unmentioned_names_query_symbols_no_premise_mentions(ver):
    q = "What is the mass of benzene?"
    reading = grammar_reading(ver, q)
    assert unmentioned.check(context(ver, q, reading, "SELECT ?v WHERE { wd:Q2270 wdt:P9999 ?v }")) == \
        "query symbols no premise mentions: wdt:P9999"
    assert unmentioned.check(context(ver, q, reading)) is None


def test_mentions_helpers_read_dates_and_spellings():
    assert mentions.letters("U.S. Route 66") == "usroute66"
    in_dates, in_filters, first = mentions.not_names("Who was born on December 12, 1991 in a city starting with Ber?")
    assert "december" in in_dates and first == "who"
    assert "ber" in in_filters


def test_a_reading_names_the_check_that_decided_it_and_a_configuration_can_disable_it(ver):
    q, count = "What is the mass of benzene?", "SELECT (COUNT(?v) AS ?n) WHERE { wd:Q2270 wdt:P2067 ?v }"
    res = ver.verify(q, count).deductive
    assert res.verdict == "intent_mismatch" and res.best.check == "intent"
    assert ver.verify(q, MASS).deductive.best.check == ""  # faithful: no check decided
    off = Verifier(load_config(EXAMPLE / "verifier.toml").with_values("deductive", disabled_checks=["intent"]))
    res_off = off.verify(q, count).deductive
    assert res_off.verdict != "intent_mismatch" and all(r.check != "intent" for r in res_off.readings)


def test_enabled_checks_leaves_out_the_named_checks_and_rejects_unknown_names():
    from verifier.deductive.checks import CHECK_NAMES, enabled_checks

    assert set(CHECK_NAMES) >= {"no_labels", "intent", "incomplete"}
    checks = enabled_checks(["incomplete", "degenerate"])
    assert [c.name for c in checks.precedence] == [c.name for c in PRECEDENCE][:-1]
    assert [c.name for c in checks.pre_proof] == ["no_labels", "unmentioned_symbols"]
    assert enabled_checks().precedence == PRECEDENCE
    with pytest.raises(ValueError, match="unknown check"):
        enabled_checks(["no_such_check"])
