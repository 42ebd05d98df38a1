"""PGMR lexical evidence, unexplained phrases, training statistics and the fitted model."""

from __future__ import annotations

import json

import numpy as np
import pytest

from verifier.lexical import WordNetRelations
from verifier.pgmr import (Kind, Memory, Symbol, SupportPriors, estimate_priors,
                           grounding_signal, grounding_signals)
from verifier.pgmr.calibrate import (BINNED_FEATURES, DEFAULT_MODEL, ID_FEATURES,
                                     STATISTICS_MODEL, LinearModel, Statistics, feature_value,
                                     fit_logistic, logistic)
from verifier.pgmr.evidence import (MentionIndex, QuestionTerms, covered_keys, match_names,
                                    maximal, mentions, near_spelling, unexplained_mentions)
from verifier.pgmr.perturb import given_replacements, plausible_replacements
from verifier.pgmr.signal import _roles, pair_evidence
from verifier.pgmr.tokenizer import identifiers

SYMBOLS = [
    Symbol("P31", "instance of", Kind.PROPERTY, ("is a",)),
    Symbol("P1082", "population", Kind.PROPERTY, ("inhabitants",)),
    Symbol("P1540", "male population", Kind.PROPERTY),
    Symbol("P2769", "budget", Kind.PROPERTY),
    Symbol("P585", "point in time", Kind.PROPERTY, ("as of", "at time")),
    Symbol("P1411", "nominated for", Kind.PROPERTY),
    Symbol("P4353", "nominated by", Kind.PROPERTY),
    Symbol("P19", "place of birth", Kind.PROPERTY, ("born in", "birthplace")),
    Symbol("Q1045", "Somalia", Kind.ITEM),
    Symbol("Q7825", "World Trade Organization", Kind.ITEM, ("WTO",)),
    Symbol("Q189540", "Seven Samurai", Kind.ITEM),
    Symbol("Q5", "human", Kind.CLASS),
    Symbol("Q90", "Paris", Kind.ITEM),
    Symbol("Q42", "Douglas Adams", Kind.ITEM),
]


@pytest.fixture(scope="module")
def memory():
    return Memory.build(SYMBOLS)


def test_match_names_words_prepositions_phrase():
    t = QuestionTerms.of("Was Neil Young nominated for a Juno Award?")
    good = match_names(t, ["nominated for"])
    bad = match_names(t, ["nominated by"])
    assert good.coverage == bad.coverage == 1.0 and good.matched == 1
    assert good.prepositions == 1.0 and bad.prepositions == 0.0
    assert good.phrase and not bad.phrase
    t = QuestionTerms.of("Who directed the movie Seven Samourai?")
    m = match_names(t, ["Seven Samurai"])
    assert m.coverage == pytest.approx(0.9) and m.matched == 2 and m.unmatched == 0
    t = QuestionTerms.of("What is the flag of Ukraine?")
    assert match_names(t, ["Ukrainian People's Republic"]).coverage == pytest.approx(0.8 / 3)
    none = match_names(t, ["of"])  # only stop words: no evidence
    assert none.name is None and none.coverage == 0.0 and none.keys == 0


def test_near_spelling_and_wordnet_credit():
    assert near_spelling("samourai", "samurai") and near_spelling("ferninand", "ferdinand")
    assert not near_spelling("death", "depth") and not near_spelling("place", "plate")
    wn = WordNetRelations({"died": {"v": ["death"]}})
    assert QuestionTerms.of("When was he born and when died?", wn).key_credit("death") == 0.7
    assert QuestionTerms.of("When was he born and when died?").key_credit("death") == 0.0


def test_mentions_and_unexplained_phrases(memory):
    index = MentionIndex.for_memory(memory)
    assert MentionIndex.for_memory(memory) is index
    q = "What is the male population of Somalia?"
    ms = mentions(q, index)
    texts = {m.text for m in ms}
    assert {"male population", "population", "somalia"} <= texts
    assert [m.text for m in maximal(ms, "property")] == ["male population"]
    right = covered_keys(["male population", "Somalia"])
    wrong = covered_keys(["population", "inhabitants", "Somalia"])
    assert unexplained_mentions(ms, right, "property") == []
    assert [m.text for m in unexplained_mentions(ms, wrong, "property")] == ["male population"]
    # literals of the query account for words too; numbers and letters are no mentions
    assert "somalia" in covered_keys([], 'SELECT * { ?x rdfs:label "Somalia"@en }')
    assert not mentions("What happened in 2009 in P?", index)


def test_wrong_property_leaves_its_phrase_unexplained(memory):
    q = "What is the male population of Somalia?"
    gold = grounding_signal(q, "SELECT ?v { wd:Q1045 wdt:P1540 ?v }", memory)
    wrong = grounding_signal(q, "SELECT ?v { wd:Q1045 wdt:P1082 ?v }", memory)
    assert gold.unexplained == ()
    assert [(u.text, u.kind) for u in wrong.unexplained] == [("male population", "property")]
    assert wrong.score < gold.score
    assert "does not account for 'male population'" in wrong.explanation
    f = wrong.features()
    assert f["pgmr_unexplained_property"] == wrong.unexplained[0].keyphraseness > 0.5
    q = "Is the budget of the World Trade Organization equal to 5?"
    gold = grounding_signal(q, "ASK { wd:Q7825 wdt:P2769 5 }", memory)
    implicit = grounding_signal(q, "ASK { wd:Q7825 wdt:P31 5 }", memory)
    assert implicit.score < gold.score and implicit.unexplained[0].text == "budget"


def test_roles_of_identifiers():
    q = ("PREFIX pq: <http://www.wikidata.org/prop/qualifier/> SELECT * { "
         "?x wdt:P31/wdt:P279* wd:Q5 . ?s pq:P585 ?t . wd:Q42 wdt:P19 wd:Q90 }")
    ids = identifiers(q)
    assert list(zip([i.id for i in ids], _roles(q, ids))) == [
        ("P31", ""), ("P279", ""), ("Q5", "class"), ("P585", "qualifier"), ("Q42", ""),
        ("P19", ""), ("Q90", "")]


def test_statistics_count(memory):
    train = [("How many inhabitants does Somalia have?", "SELECT ?v { wd:Q1045 wdt:P1082 ?v }"),
             ("When was the population of Somalia counted?",
              "SELECT ?t { wd:Q1045 p:P1082 ?s . ?s pq:P585 ?t }"),
             ("Who is Douglas Adams?", "SELECT ?c { wd:Q42 wdt:P31 ?c }")]
    st = Statistics.count(pair_evidence(train, memory))
    assert st.questions == 3
    assert st.implicit["P31"] == (1, 1) and st.implicit["P1082"] == (2, 0)
    assert st.implicit_rate("P31", "property") > st.implicit_rate("P1082", "property")
    # "when" goes with point in time in every question that has it
    assert st.association["P585"]["when"] == 1 and st.word_questions["when"] == 1
    assert st.association_of("P585", {"when"}) == pytest.approx(1 / 3)
    assert st.association_of("P585", {"who"}) == 0.0
    # "population" was named and accounted for once, as a maximal property phrase
    assert st.keyphrase["property|popul"] == (1, 1)
    assert st.keyphraseness("property", frozenset({"popul"})) > st.keyphraseness(
        "property", frozenset({"unknown"})) - 1e-9
    assert st.usage("P1082") > st.usage("P31") > st.usage("P2769") == 0.0
    again = Statistics.from_dict(json.loads(json.dumps(st.to_dict())))
    assert again.to_dict() == st.to_dict()


def test_fit_logistic_recovers_a_sign():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(400, 2))
    y = (x[:, 0] + 0.1 * rng.normal(size=400) > 0).astype(float)
    w, b = fit_logistic(x, y)
    assert w[0] > 3 and abs(w[1]) < 1 and abs(b) < 1
    assert logistic(0.0) == 0.5 and logistic(-800) == 0.0 and logistic(800) == 1.0


def test_plausible_replacements(memory):
    pairs = [("What is the population of Somalia?", "SELECT ?v { wd:Q1045 wdt:P1082 ?v }"),
             ("What is the budget of the WTO?", "SELECT ?v { wd:Q7825 wdt:P2769 ?v }"),
             ("Who is Douglas Adams?", "SELECT ?c { wd:Q42 wdt:P31 ?c }"),
             ("How many people live in Paris?", "SELECT ?v { wd:Q90 wdt:P1082 ?v }")]
    reps = plausible_replacements(pairs, memory, seed=0)
    assert reps == plausible_replacements(pairs, memory, seed=0)
    assert {r.via for r in reps} == {"random", "near", "context"}
    for r in reps:
        used = {i.id for i in identifiers(pairs[r.pair][1])}
        assert r.old in used and r.new not in used
        assert memory.get(r.new).kind.group == memory.get(r.old).kind.group
        assert r.new in r.sparql and r.old not in r.sparql
    near = {(r.pair, r.old): r.new for r in reps if r.via == "near"}
    assert near[(0, "P1082")] == "P1540"  # 'male population' is nearest to 'population'
    # context: an item used with the same property in another training pair
    # (a pick already made by another strategy is not repeated)
    ctx = {(r.pair, r.old): r.new for r in reps if r.via == "context"}
    assert ctx and set(ctx.items()) <= {((0, "Q1045"), "Q90"), ((3, "Q90"), "Q1045")}


def test_given_replacements_match_one_replaced_identifier(memory):
    pairs = [("What is the population of Somalia?", "SELECT ?v { wd:Q1045 wdt:P1082 ?v }"),
             ("What is the budget of the WTO?", "SELECT ?v { wd:Q7825 wdt:P2769 ?v }")]
    wrong = [("What is the population of Somalia?", "SELECT ?v { wd:Q1045 wdt:P1540 ?v }"),
             ("What is the budget of the WTO?", "SELECT ?v { wd:Q90 wdt:P2769 ?v }"),
             ("Who is Douglas Adams?", "SELECT ?c { wd:Q42 wdt:P31 ?c }"),         # no pair
             ("What is the budget of the WTO?", "SELECT ?v { wd:Q90 wdt:P1082 ?v }"),  # two
             ("What is the budget of the WTO?", "SELECT ?v { wd:Q7825 wdt:P99999 ?v }")]
    reps, skipped = given_replacements(pairs, wrong, memory)
    assert [(r.pair, r.old, r.new, r.via) for r in reps] == [
        (0, "P1082", "P1540", "given"), (1, "Q7825", "Q90", "given")]
    assert reps[0].sparql == wrong[0][1]
    assert skipped == 3  # unknown question, two ids changed, new id not in the memory


def test_estimate_priors_fits_on_given_negatives(memory, tmp_path):
    base = [("What is the population of {x}?", "SELECT ?v {{ wd:{i} wdt:P1082 ?v }}"),
            ("What is the budget of {x}?", "SELECT ?v {{ wd:{i} wdt:P2769 ?v }}"),
            ("Who is {x}?", "SELECT ?c {{ wd:{i} wdt:P31 ?c }}")]
    things = [("Somalia", "Q1045"), ("Paris", "Q90"), ("Douglas Adams", "Q42"),
              ("World Trade Organization", "Q7825")]
    train = [(q.format(x=x), s.format(i=i)) for q, s in base for x, i in things]
    # the mistakes to learn: a co-occurring property instead of the named one
    negatives = [(q, s.replace("P2769", "P1082")) for q, s in train if "P2769" in s]
    negatives += [(q, s.replace("P1082", "P1540")) for q, s in train if "P1082" in s]
    pri = estimate_priors(train, memory, min_pairs=10, folds=2, negatives=negatives)
    generated = estimate_priors(train, memory, min_pairs=10, folds=2)
    assert pri.model is not None and pri.model.to_dict() != generated.model.to_dict()
    assert pri.statistics.to_dict() == generated.statistics.to_dict()  # same correct pairs
    q = "What is the budget of Paris?"
    named = grounding_signal(q, "SELECT ?v { wd:Q90 wdt:P2769 ?v }", memory, priors=pri)
    other = grounding_signal(q, "SELECT ?v { wd:Q90 wdt:P1082 ?v }", memory, priors=pri)
    assert named.score > other.score
    # negatives that match no training pair leave only positives: built-in identifier models
    stray = [("Who is Seven Samurai?", "SELECT ?c { wd:Q189540 wdt:P31 ?c }")]
    none = estimate_priors(train, memory, min_pairs=10, folds=2, negatives=stray)
    assert none.model.identifier["item"] == DEFAULT_MODEL.identifier["item"]
    # given negatives: the binned model by default; generated replacements: the linear one
    assert pri.model.identifier["property"].features == BINNED_FEATURES
    assert generated.model.identifier["property"].features == ID_FEATURES
    linear = estimate_priors(train, memory, min_pairs=10, folds=2, negatives=negatives,
                             binned=False)
    assert linear.model.identifier["property"].features == ID_FEATURES
    pri.save(tmp_path / "p.json")
    again = SupportPriors.load(tmp_path / "p.json")
    pairs = [(q, "SELECT ?v { wd:Q90 wdt:P2769 ?v }"), (q, "SELECT ?v { wd:Q90 wdt:P1082 ?v }")]
    assert [r.score for r in grounding_signals(pairs, memory, priors=again)] == pytest.approx(
        [r.score for r in grounding_signals(pairs, memory, priors=pri)], abs=1e-5)


def test_feature_value_steps():
    values = {"usage": 0.4, "coverage": 1.0}
    assert feature_value("usage", values) == 0.4
    assert feature_value("usage>=0.35", values) == 1.0
    assert feature_value("usage>=0.45", values) == 0.0
    assert feature_value("association>=0.02", values) == 0.0  # missing base: 0
    assert feature_value("nothing", values) == 0.0
    m = LinearModel(("coverage", "usage>=0.35", "usage>=0.45"), (1.0, 2.0, 4.0), -1.0)
    assert m.logit(values) == pytest.approx(-1.0 + 1.0 + 2.0)
    assert m.logit({"usage": 0.5}) == pytest.approx(-1.0 + 2.0 + 4.0)
    assert set(ID_FEATURES) < set(BINNED_FEATURES)
    assert all(">=" in f for f in BINNED_FEATURES[len(ID_FEATURES):])


def test_estimate_priors_fits_a_model_and_round_trips(memory, tmp_path):
    base = [("What is the population of {x}?", "SELECT ?v {{ wd:{i} wdt:P1082 ?v }}"),
            ("What is the male population of {x}?", "SELECT ?v {{ wd:{i} wdt:P1540 ?v }}"),
            ("Who is {x}?", "SELECT ?c {{ wd:{i} wdt:P31 ?c }}"),
            ("What is the budget of {x}?", "SELECT ?v {{ wd:{i} wdt:P2769 ?v }}")]
    things = [("Somalia", "Q1045"), ("Paris", "Q90"), ("Douglas Adams", "Q42"),
              ("World Trade Organization", "Q7825")]
    train = [(q.format(x=x), s.format(i=i)) for q, s in base for x, i in things]
    pri = estimate_priors(train, memory, min_pairs=10, folds=2)
    assert pri.model is not None and pri.grounding_model is pri.model
    assert set(pri.model.identifier) == {"item", "property"}
    # the fitted model prefers the named property to the implicit one in a question that
    # names it, and keeps instance of acceptable where nothing else is named
    q = "What is the budget of Paris?"
    named = grounding_signal(q, "SELECT ?v { wd:Q90 wdt:P2769 ?v }", memory, priors=pri)
    other = grounding_signal(q, "SELECT ?v { wd:Q90 wdt:P1082 ?v }", memory, priors=pri)
    assert named.score > other.score
    pri.save(tmp_path / "p.json")
    again = SupportPriors.load(tmp_path / "p.json")
    assert again.model.to_dict() == pri.model.to_dict()
    assert again.statistics.to_dict() == pri.statistics.to_dict()
    pairs = [(q, "SELECT ?v { wd:Q90 wdt:P2769 ?v }"),
             ("Who is Paris?", "SELECT ?c { wd:Q90 wdt:P31 ?c }")]
    assert [r.score for r in grounding_signals(pairs, memory, priors=again)] == pytest.approx(
        [r.score for r in grounding_signals(pairs, memory, priors=pri)])
    # too few pairs: statistics only, with the built-in statistics model
    small = estimate_priors(train[:5], memory)
    assert small.model is None and small.grounding_model is STATISTICS_MODEL
    neutral = estimate_priors(train, memory, min_pairs=10, folds=2, neutral=True)
    assert neutral.statistics.questions == 0 and neutral.model is not None


def test_version_1_priors_still_load(memory, tmp_path):
    enc = memory.encoder.identity
    (tmp_path / "v1.json").write_text(json.dumps({
        "format": "sparql-verifier/pgmr-priors", "format_version": 1, "encoder": enc,
        "shrinkage": 3.0, "quantile": 0.5, "pairs": 3, "kind_default": {"property": 0.5},
        "expected": {"P31": [3, 0.3]}}))
    pri = SupportPriors.load(tmp_path / "v1.json")
    assert pri.grounding_model is DEFAULT_MODEL and pri.statistics.questions == 0
    assert pri.expected_support("P31", "property") == pytest.approx(0.4)
    (tmp_path / "v9.json").write_text(json.dumps({"format": "sparql-verifier/pgmr-priors",
                                                  "format_version": 9}))
    with pytest.raises(ValueError, match="version"):
        SupportPriors.load(tmp_path / "v9.json")
