"""``verifier.consensus.answers``: answer agreement among executed candidates."""

from __future__ import annotations

import pytest

from verifier.consensus import (answer_agreement, cluster_candidates, consensus_evidence,
                                consensus_sentence, same_answers, with_answers)
from verifier.stacking.execution import ExecutionResult, answers_digest
from verifier.stacking.features import consensus_features


def _ok(n: int, rows=None) -> dict:
    digest = answers_digest(rows) if rows is not None else ""
    return ExecutionResult("ok", n_answers=n, answers=digest).to_dict()


def test_same_answers_by_digest_else_by_count():
    a = _ok(2, [["wd:Q1"], ["wd:Q2"]])
    assert same_answers(a, _ok(2, [["wd:Q2"], ["wd:Q1"]]))          # order does not matter
    assert not same_answers(a, _ok(2, [["wd:Q1"], ["wd:Q3"]]))      # same count, other answers
    assert same_answers(_ok(2), _ok(2)) and not same_answers(_ok(2), _ok(3))  # counts only
    assert same_answers(a, _ok(2))                                   # one side counts only
    # empty answers, errors, ASK answers and missing executions never agree
    assert not same_answers(_ok(0), _ok(0))
    assert not same_answers(ExecutionResult("error", error="x").to_dict(), _ok(1))
    assert not same_answers(ExecutionResult("ok", boolean=True).to_dict(),
                            ExecutionResult("ok", boolean=True).to_dict())
    assert not same_answers(None, _ok(1))


def test_agreement_shares_and_features():
    rows = [["wd:Q1"]]
    ex = [_ok(1, rows), _ok(1, rows), _ok(1, [["wd:Q9"]]), _ok(0), None]
    assert answer_agreement(ex) == [0.25, 0.25, 0.0, None, None]
    assert answer_agreement(ex[:1]) == [None]  # alone
    queries = ["SELECT ?x WHERE { wd:Q5 wdt:P31 ?x }", "SELECT ?x WHERE { wd:Q5 wdt:P279 ?x }",
               "SELECT ?x WHERE { wd:Q5 wdt:P361 ?x }", "SELECT ?x WHERE { wd:Q5 wdt:P17 ?x }",
               "SELECT ?x WHERE { wd:Q5 wdt:P30 ?x }"]
    ev = with_answers(consensus_evidence(cluster_candidates(queries)), ex)
    assert [e.answer_agreement for e in ev] == [0.25, 0.25, 0.0, None, None]
    assert [e.answer_plurality for e in ev] == [True, True, False, None, None]
    f = consensus_features(ev[0].to_dict())
    assert f["cons_answers"] == 0.25 and f["cons_answers_missing"] == 0.0 and f["cons_answers_top"] == 1.0
    assert consensus_features(ev[2].to_dict())["cons_answers_top"] == 0.0
    assert consensus_features(ev[3].to_dict())["cons_answers_missing"] == 1.0
    assert "1 of the 4 other candidates returned the same answers" in consensus_sentence(ev[0])
    with pytest.raises(ValueError):
        with_answers(ev, ex[:2])


def test_module_examples_run():
    import doctest

    import verifier.consensus.answers
    import verifier.stacking.execution

    for mod in (verifier.consensus.answers, verifier.stacking.execution):
        r = doctest.testmod(mod)
        assert r.failed == 0 and r.attempted >= 1
