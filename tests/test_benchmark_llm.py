"""``verifier.benchmark.llm``: what a prediction record says of its run's execution."""

from __future__ import annotations

from verifier.benchmark.llm import recorded_execution
from verifier.stacking.features import execution_features


def test_recorded_result_size_is_execution_evidence():
    ex = recorded_execution({"sparql": "SELECT ?x WHERE { ?x ?p ?o }", "prediction_error": None,
                             "prediction_result_size": 0})
    assert ex["status"] == "ok" and ex["n_answers"] == 0 and ex["boolean"] is None
    f = execution_features(ex)
    assert f["exec_ok"] == 1.0 and f["exec_empty"] == 1.0 and f["exec_missing"] == 0.0
    f = execution_features(recorded_execution({"sparql": "SELECT ?x {}", "prediction_result_size": 42}))
    assert f["exec_nonempty"] == 1.0 and f["exec_ans_gt10"] == 1.0


def test_recorded_error_and_nothing_recorded():
    ex = recorded_execution({"sparql": "SELECT ?x {}", "prediction_error": "500 Server Error: Internal",
                             "prediction_result_size": None})
    assert ex["status"] == "error" and "500" in ex["error"]
    assert execution_features(ex)["exec_error"] == 1.0
    # no query, or a record that says nothing: no evidence (the stacker sees a missing signal)
    assert recorded_execution({"sparql": None, "prediction_result_size": 3}) is None
    assert recorded_execution({"sparql": "ASK {}", "prediction_error": None}) is None
    assert recorded_execution({"sparql": "ASK {}", "prediction_error": "None",
                               "prediction_result_size": "None"}) is None
