"""Answer agreement: how many of the other candidates returned the same answers.

Two candidate queries that are not provably equivalent can still return the same answers
(another path to them; the semantic clusters of :mod:`verifier.consensus.cluster` keep them
apart).  When the candidates were executed (a knowledge graph is configured, or a query log
records what each query returned), the share of the *other* candidates whose execution gave
the same non-empty answers is evidence the stacker reads (``cons_answers``, and whether its
answers are the most common ones, ``cons_answers_top``: the majority vote of
self-consistency; :mod:`verifier.stacking.features`).

Executions are :meth:`verifier.stacking.execution.ExecutionResult.to_dict` mappings.  Two
executions agree when both ran (``status`` ``ok``), both returned at least one answer to a
SELECT, and their answers are the same: equal ``answers`` digests when both carry one (the
executors of :mod:`verifier.stacking.execution` compute it), else -- a log that records only
how many rows each query returned -- equal answer counts, a weaker test said so in the docs.
Empty answers never agree (two queries that both find nothing are not evidence for each
other), nor do ASK answers.

>>> ok = lambda n, d="": {"status": "ok", "n_answers": n, "boolean": None, "answers": d}
>>> answer_agreement([ok(2, "a"), ok(2, "a"), ok(2, "b"), ok(0), None])
[0.25, 0.25, 0.0, None, None]
>>> answer_agreement([ok(3), ok(3), ok(5)])  # counts only
[0.5, 0.5, 0.0]
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping, Sequence

from verifier.consensus.evidence import ConsensusEvidence

__all__ = ["answer_agreement", "answer_plurality", "same_answers", "with_answers"]


def _answered(ex: Mapping[str, Any] | None) -> bool:
    return bool(ex) and ex.get("status") == "ok" and ex.get("boolean") is None \
        and int(ex.get("n_answers") or 0) > 0


def same_answers(a: Mapping[str, Any] | None, b: Mapping[str, Any] | None) -> bool:
    """Whether two executions returned the same non-empty SELECT answers (module docstring)."""
    if not (_answered(a) and _answered(b)):
        return False
    da, db = a.get("answers") or "", b.get("answers") or ""
    if da and db:
        return da == db
    return int(a["n_answers"]) == int(b["n_answers"])


def answer_agreement(executions: Sequence[Mapping[str, Any] | None]) -> list[float | None]:
    """Per candidate, the share of the other candidates whose execution returned the same
    answers; ``None`` for a candidate without non-empty SELECT answers, or alone."""
    n = len(executions)
    out: list[float | None] = []
    for i, ex in enumerate(executions):
        if n < 2 or not _answered(ex):
            out.append(None)
            continue
        same = sum(1 for j, other in enumerate(executions) if j != i and same_answers(ex, other))
        out.append(same / (n - 1))
    return out


def answer_plurality(agreement: Sequence[float | None]) -> list[bool | None]:
    """Per candidate, whether its answers are the most common non-empty answers among the
    candidates (shared with at least one other; ties: all of them), from
    :func:`answer_agreement`; ``None`` where the agreement is ``None``.

    >>> answer_plurality([0.5, 0.5, 0.25, 0.0, None])
    [True, True, False, False, None]
    """
    best = max((a for a in agreement if a is not None), default=0.0)
    return [None if a is None else bool(a > 0 and a >= best) for a in agreement]


def with_answers(evidence: Sequence[ConsensusEvidence],
                 executions: Sequence[Mapping[str, Any] | None]) -> tuple[ConsensusEvidence, ...]:
    """``evidence`` (one per candidate, in candidate order) with each candidate's
    :func:`answer_agreement` and :func:`answer_plurality` among ``executions`` (the same
    order)."""
    if len(executions) != len(evidence):
        raise ValueError(f"{len(executions)} executions for {len(evidence)} candidates")
    agreement = answer_agreement(executions)
    return tuple(replace(ev, answer_agreement=a, answer_plurality=top)
                 for ev, a, top in zip(evidence, agreement, answer_plurality(agreement)))
