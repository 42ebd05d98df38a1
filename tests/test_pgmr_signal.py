"""PGMR grounding signal, support priors, perturbations, degradations and metrics."""

from __future__ import annotations

import pytest

from verifier.pgmr import (HashedNgramEncoder, Kind, Memory, Symbol, SupportPriors,
                           estimate_priors, grounding_signal, grounding_signals, roc_auc,
                           round_trip_metrics)
from verifier.pgmr.degrade import alias_instead, rng_for, typo, word_order
from verifier.pgmr.perturb import Perturber, replace_identifier
from verifier.pgmr.signal import question_spans

SYMBOLS = [
    Symbol("P31", "instance of", Kind.PROPERTY, ("is a",)),
    Symbol("P2067", "mass", Kind.PROPERTY, ("weight",)),
    Symbol("P1082", "population", Kind.PROPERTY, ("inhabitants",)),
    Symbol("P585", "point in time", Kind.PROPERTY, ("as of", "at time")),
    Symbol("P19", "place of birth", Kind.PROPERTY, ("born in", "birthplace")),
    Symbol("Q2270", "benzene", Kind.ITEM, ("benzol",)),
    Symbol("Q5", "human", Kind.ITEM),
    Symbol("Q42", "Douglas Adams", Kind.ITEM),
    Symbol("Q1045", "Somalia", Kind.ITEM),
    Symbol("Q90", "Paris", Kind.ITEM),
    Symbol("Q11173", "chemical compound", Kind.CLASS),
]
Q = "What was the population of Somalia in 2009?"
S = ("SELECT ?obj WHERE { wd:Q1045 p:P1082 ?s . ?s ps:P1082 ?obj . ?s pq:P585 ?x "
     "FILTER(contains(YEAR(?x), '2009')) }")


@pytest.fixture(scope="module")
def memory():
    return Memory.build(SYMBOLS)


def test_question_spans():
    spans = question_spans("Where was Douglas Adams born?", max_words=2)
    assert spans == ["Where", "Where was", "was", "was Douglas", "Douglas", "Douglas Adams",
                     "Adams", "Adams born", "born"]


def test_signal_on_correct_query(memory):
    rep = grounding_signal(Q, S, memory)
    assert [i.id for i in rep.identifiers] == ["Q1045", "P1082", "P1082", "P585"]
    somalia = rep.identifiers[0]
    assert somalia.exists and somalia.kind_ok and somalia.span == "Somalia"
    assert somalia.support == pytest.approx(1.0, abs=1e-5)
    assert somalia.alternative is not None and somalia.alternative != "Q1045"
    assert rep.identifiers[1].span == "population"
    assert not rep.hallucinated and not rep.flagged
    assert 0.0 <= rep.score <= 1.0
    assert "Somalia" in rep.explanation


def test_identifier_support_reports_its_evidence(memory):
    import json

    from verifier.pgmr.signal import IdEvidence, pair_evidence

    rep = grounding_signal(Q, S, memory)
    ev = pair_evidence([(Q, S)], memory)[0]
    for ident, ie in zip(rep.identifiers, ev.ids):
        assert isinstance(ident.evidence, IdEvidence) and ident.evidence == ie
        assert (ident.id, ident.written, ident.kind, ident.span) == (ie.id, ie.written,
                                                                      ie.kind, ie.span)
        assert ident.coverage == ie.match.coverage and ident.lexical_name == ie.match.name
    pop = rep.identifiers[1]
    assert pop.written == "p:P1082" and pop.coverage == 1.0 and pop.lexical_name == "population"
    d = rep.to_dict()
    json.dumps(d)  # JSON-ready
    assert set(d["identifiers"][0]) == {
        "id", "written", "kind", "label", "exists", "kind_ok", "support", "span",
        "matched_name", "alternative", "alternative_label", "alternative_score", "expected",
        "score", "coverage", "lexical_name", "association", "implicit"}
    assert d["identifiers"][0]["label"] == "Somalia" and d["flagged"] is False
    missing = grounding_signal(Q, S.replace("Q1045", "Q99999999"), memory).identifiers[0]
    assert not missing.exists and missing.score == 0.0 and missing.label is None
    assert missing.to_dict()["coverage"] == 0.0


def test_signal_flags_hallucinated_and_wrong_kind(memory):
    rep = grounding_signal(Q, S.replace("Q1045", "Q99999999"), memory)
    assert rep.hallucinated == ("Q99999999",) and rep.flagged and rep.score == 0.0
    assert "does not exist" in rep.explanation
    rep = grounding_signal(Q, S.replace("pq:P585", "pq:Q90"), memory)
    assert rep.wrong_kind == ("Q90",) and rep.flagged and rep.score == 0.0


def test_wrong_entity_scores_lower_than_gold(memory):
    gold = grounding_signal(Q, S, memory)
    wrong = grounding_signal(Q, S.replace("Q1045", "Q2270"), memory)
    assert wrong.score < gold.score
    assert wrong.weakest.id == "Q2270" and wrong.weakest.support < 0.4
    wrong_p = grounding_signal(Q, S.replace("P1082", "P19"), memory)
    assert wrong_p.score < gold.score


def test_features_are_numeric_and_named(memory):
    f = grounding_signal(Q, S, memory).features()
    assert set(f) >= {"pgmr_score", "pgmr_hallucinated", "pgmr_min_item_score",
                      "pgmr_min_property_score"}
    assert all(isinstance(v, float) for v in f.values())
    assert grounding_signal("Hi?", "SELECT * { ?s ?p ?o }", memory).score == 1.0


def test_priors_raise_scores_of_rarely_verbalized_ids(memory, tmp_path):
    train = [("Which chemical compound is benzene?", "SELECT * { wd:Q2270 wdt:P31 ?c }"),
             ("What is benzol?", "SELECT * { wd:Q2270 wdt:P31 ?c }"),
             ("Who is Douglas Adams?", "SELECT * { wd:Q42 wdt:P31 ?c }")]
    pri = estimate_priors(train, memory)
    assert pri.expected["P31"][0] == 3
    assert pri.expected_support("P31", "property") < 1.0
    q, s = "What is Paris?", "SELECT * { wd:Q90 wdt:P31 ?c }"
    plain = grounding_signal(q, s, memory)
    with_p = grounding_signal(q, s, memory, priors=pri)
    # instance of is never named but always right in the training pairs
    assert pri.statistics.implicit["P31"] == (3, 3) and pri.model is None
    assert with_p.identifiers[1].implicit > plain.identifiers[1].implicit
    assert with_p.identifiers[1].score > plain.identifiers[1].score
    pri.save(tmp_path / "p.json")
    again = SupportPriors.load(tmp_path / "p.json")
    assert again.expected_support("P31", "property") == pytest.approx(
        pri.expected_support("P31", "property"), abs=1e-4)
    other = Memory.build(SYMBOLS, HashedNgramEncoder(dim=64))
    with pytest.raises(ValueError, match="re-run calibration"):
        grounding_signal(q, s, other, priors=pri)


def test_batch_equals_single(memory):
    pairs = [(Q, S), (Q, S.replace("Q1045", "Q42")), ("Is benzene a chemical compound?",
                                                       "ASK { wd:Q2270 wdt:P31 wd:Q11173 }")]
    batch = grounding_signals(pairs, memory)
    single = [grounding_signal(q, s, memory) for q, s in pairs]
    assert [r.score for r in batch] == pytest.approx([r.score for r in single])


def test_replace_identifier_keeps_token_shape():
    q = "SELECT * { wd:Q1 p:P2 ?s . ?s ps:P2 <http://www.wikidata.org/entity/Q1> . wd:Q10 ?p ?o }"
    assert replace_identifier(q, "Q1", "Q7") == (
        "SELECT * { wd:Q7 p:P2 ?s . ?s ps:P2 <http://www.wikidata.org/entity/Q7> . wd:Q10 ?p ?o }")
    assert replace_identifier(q, "P2", "P9").count("P9") == 2


def test_perturber_is_deterministic_and_typed(memory):
    p = Perturber.for_memory(memory, seed=0)
    a = p.perturb(Q, S, "rec-1")
    b = Perturber.for_memory(memory, seed=0).perturb(Q, S, "rec-1")
    assert a == b
    cats = {x.category: x for x in a}
    assert set(cats) == {"gold", "wrong_entity", "wrong_property", "nonexistent_id"}
    assert cats["gold"].label == 0 and cats["gold"].sparql == S
    we = cats["wrong_entity"]
    assert we.original == "Q1045" and we.replacement in memory and we.replacement.startswith("Q")
    wp = cats["wrong_property"]
    assert wp.replacement in memory and memory.get(wp.replacement).kind is Kind.PROPERTY
    assert wp.sparql.count(wp.replacement) == S.count(wp.original)
    ne = cats["nonexistent_id"]
    assert ne.replacement not in memory and ne.replacement[0] == ne.original[0]
    assert grounding_signal(Q, ne.sparql, memory).hallucinated == (ne.replacement,)


def test_degradations():
    s = Symbol("P19", "place of birth", Kind.PROPERTY, ("born in", "birthplace"))
    t = typo(s.label, rng_for(0, "x"))
    assert t != s.label and abs(len(t) - len(s.label)) <= 1
    assert typo(s.label, rng_for(0, "x")) == t
    assert alias_instead(s, rng_for(0, "y")) in s.aliases
    assert alias_instead(Symbol("Q1", "one", Kind.ITEM), rng_for(0, "y")) == "one"
    w = word_order(s.label, rng_for(0, "z"))
    assert w != s.label and sorted(w.split()) == sorted(s.label.split())
    assert word_order("benzene", rng_for(0, "z")) == "benzene"


def test_roc_auc_and_round_trip_metrics(memory):
    assert roc_auc([1, 2, 3], [0, 0.5]) == 1.0
    assert roc_auc([0, 0], [1, 1]) == 0.0
    assert roc_auc([1, 0], [1, 0]) == 0.5
    with pytest.raises(ValueError):
        roc_auc([], [1])
    gold = ["SELECT * { wd:Q1045 wdt:P31 ?x }", "SELECT * { wd:Q42 wdt:P31 ?x }"]
    pred = ["SELECT * { <http://www.wikidata.org/entity/Q1045> wdt:P31 ?x }",
            "SELECT * { wd:Q4242424 wdt:P31 ?x }"]
    m = round_trip_metrics(gold, pred, memory)
    assert (m.query_em, m.uri_em, m.uri_hallucination) == (0.0, 50.0, 50.0)
    m = round_trip_metrics(gold, gold, memory, failed=[True, False])
    assert (m.query_em, m.uri_em) == (50.0, 50.0)
