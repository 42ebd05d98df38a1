"""Real LLM predictions (``llm_predictions/*.jsonl``) as benchmark records.

Two labels per prediction:

* ``label`` (= ``label_f1``) from ``score_f1``, the F1 of the prediction's answers against the
  gold answers: 1.0 -> 1 (category ``correct``), 0.0 -> 0 (``wrong``), in between -> ``None``
  (category ``partial``, its own class); no query -> ``None`` (``no_query``);
* ``label_equiv`` from :func:`verifier.prover.equivalent` against ``gold_sparql``: 1 when
  proved equivalent, 0 when proved not equivalent, ``None`` when undecided or when one of
  the queries does not parse (``equivalence_reason`` says why).

A score-1 prediction can be non-equivalent (another path to the same answers, or KG drift of
the scoring endpoint) and a score-0 one equivalent (endpoint errors); the manifest reports
the cross-table.  ``source`` is ``<benchmark>/<split>``; ``model`` and ``config`` name the run.

Each record also keeps what the run's execution of its query returned (``prediction_error``,
``prediction_result_size``: the query was run on a Wikidata endpoint when it was generated);
:func:`recorded_execution` reads that as the stacker's execution evidence, as if the verifier
had run the query on that KG itself.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator, Mapping

from verifier.benchmark.gold import has_mrs
from verifier.benchmark.records import BenchRecord

__all__ = ["LLM_DIR", "iter_prediction_rows", "prediction_record", "f1_category",
           "LLM_CATEGORIES", "recorded_execution"]

LLM_DIR = "llm_predictions"
LLM_CATEGORIES = ("correct", "partial", "wrong", "no_query")


def iter_prediction_rows(data_dir: str | Path) -> Iterator[tuple[str, dict[str, Any]]]:
    """``(file name, raw row)`` of every prediction file, files in sorted order."""
    base = Path(data_dir) / LLM_DIR
    if not base.is_dir():
        raise FileNotFoundError(f"no LLM predictions folder: {base}")
    for path in sorted(base.glob("*.jsonl")):
        with path.open(encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    yield path.name, json.loads(line)


def f1_category(sparql: str | None, score: float | None) -> tuple[str, int | None]:
    """``(category, label)`` from the prediction and its answer F1."""
    if not sparql:
        return "no_query", None
    if score is None:
        return "no_query", None
    if score >= 1.0:
        return "correct", 1
    if score <= 0.0:
        return "wrong", 0
    return "partial", None


def prediction_record(row: Mapping[str, Any], *, timeout_ms: int = 4000,
                      retry_timeout_ms: int = 30000,
                      mrs_index: frozenset[str] = frozenset()) -> BenchRecord:
    """One benchmark record of a raw prediction row (runs the equivalence check; an
    undecided check is retried once with ``retry_timeout_ms``)."""
    from parsers.sparql import SparqlError, parse_query
    from verifier.benchmark.perturb import decide_equivalence

    sparql, gold = row.get("sparql"), row.get("gold_sparql")
    category, label = f1_category(sparql, row.get("score_f1"))
    eq: bool | None = None
    reason = ""
    if sparql and gold:
        try:
            gq = parse_query(gold)
        except SparqlError as e:
            reason = "gold does not parse: " + str(e).splitlines()[0][:150]
        else:
            try:
                pq = parse_query(sparql)
            except SparqlError as e:
                reason = "prediction does not parse: " + str(e).splitlines()[0][:150]
            else:
                res = decide_equivalence(gq, pq, timeout_ms, retry_timeout_ms)
                eq, reason = res.equivalent, res.reason[:200]
    else:
        reason = "no prediction" if not sparql else "no gold query"
    extra = {
        "model": row.get("model"), "config": row.get("config"), "system": row.get("system"),
        "benchmark": row.get("benchmark"), "question_id": row.get("question_id"),
        "score_f1": row.get("score_f1"), "label_f1": label,
        "label_equiv": None if eq is None else int(eq), "equivalent_to_gold": eq,
        "equivalence_reason": reason, "prediction_error": row.get("prediction_error"),
        "prediction_result_size": row.get("prediction_result_size"),
    }
    return BenchRecord(id=str(row["id"]), question=row.get("question") or "", sparql=sparql,
                       gold_sparql=gold, label=label, category=category,
                       source=f"{row.get('benchmark')}/{row.get('split')}",
                       detail={"score_f1": row.get("score_f1")},
                       has_mrs=has_mrs(row.get("question") or "", mrs_index), extra=extra)


RECORDED_BACKEND = "Wikidata endpoint of the recorded run"


def recorded_execution(record: Mapping[str, Any]) -> dict[str, Any] | None:
    """The execution evidence a prediction record carries from its run
    (:meth:`verifier.stacking.execution.ExecutionResult.to_dict`), or ``None`` when the record
    says nothing (no query, or neither a result size nor an error).

    A recorded error (endpoint 500s and time-outs included: that is what the run saw) is
    ``error``; otherwise ``ok`` with the recorded number of result rows (an ASK query's row count is 1 and its truth value is not
    recorded, so ``boolean`` stays unknown)."""
    from verifier.stacking.execution import ExecutionResult

    if not record.get("sparql"):
        return None
    err, size = record.get("prediction_error"), record.get("prediction_result_size")
    if err not in (None, "", "None"):
        return ExecutionResult("error", error=str(err)[:300], backend=RECORDED_BACKEND).to_dict()
    if size in (None, "", "None"):
        return None
    return ExecutionResult("ok", n_answers=int(size), backend=RECORDED_BACKEND).to_dict()
