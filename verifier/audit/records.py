"""The records that flow through an audit: input lines, tasks for workers, stored results."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

__all__ = ["InputRecord", "Task", "Outcome", "Result", "STATUSES", "INPUT_ERROR_KINDS"]

#: ``ok``: verified (the verdict may still carry an error, e.g. malformed SPARQL);
#: ``input_error``: the line could not be read as a record (never verified);
#: ``verify_error``: verification crashed (exception, worker death, time-out).
STATUSES = ("ok", "input_error", "verify_error")

#: Kinds of bad input lines, as stored in ``results.error_kind``.
INPUT_ERROR_KINDS = ("invalid_json", "invalid_csv", "not_an_object", "missing_field",
                     "empty_question", "empty_query", "not_a_string", "line_too_long",
                     "undecodable")


@dataclass(frozen=True, slots=True)
class InputRecord:
    """One record of a log: where it is, what it says, or why it cannot be used.

    ``line``: 1-based number of the (first) physical line; ``content_hash``: SHA-256 prefix
    of the raw bytes of the record; ``fields``: every field other than question and query
    (model, timestamp ...), JSON-serialisable; ``error``/``error_kind``: set for bad lines.
    """

    log_id: int
    line: int
    record_id: str
    content_hash: str
    question: str | None
    sparql: str | None
    fields: Mapping[str, Any] = field(default_factory=dict)
    error: str | None = None
    error_kind: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def key(self) -> tuple[int, int]:
        return (self.log_id, self.line)


@dataclass(frozen=True, slots=True)
class Task:
    """What a worker needs to verify one record (kept small: it crosses process borders)."""

    log_id: int
    line: int
    question: str
    sparql: str
    #: which model generated the query (the record's ``model`` field), when known
    model: str | None = None

    @property
    def key(self) -> tuple[int, int]:
        return (self.log_id, self.line)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a worker returns for one task (see :func:`verifier.audit.work.verify_task`).

    ``verdict`` is ``Verdict.to_dict()`` (``None`` when verification crashed, then
    ``status`` is ``verify_error`` and ``error`` says why).
    """

    log_id: int
    line: int
    status: str
    verdict: Mapping[str, Any] | None
    error: str | None
    wall_ms: float
    cpu_ms: float
    worker: str

    @property
    def key(self) -> tuple[int, int]:
        return (self.log_id, self.line)


@dataclass(frozen=True, slots=True)
class Result:
    """One row of the store's ``results`` table (see :mod:`verifier.audit.store`)."""

    log_id: int
    line: int
    record_id: str
    content_hash: str
    status: str
    question: str | None
    sparql: str | None
    fields: Mapping[str, Any]
    decision: str | None = None
    score: float | None = None
    verdict: str | None = None
    explanation: str | None = None
    error: str | None = None
    error_kind: str | None = None
    reason: str | None = None
    reason_kinds: tuple[str, ...] = ()
    unsupported: tuple[tuple[str, str], ...] = ()
    verdict_json: Mapping[str, Any] | None = None
    timings: Mapping[str, float] = field(default_factory=dict)
    wall_ms: float | None = None
    cpu_ms: float | None = None
    worker: str | None = None

    @property
    def key(self) -> tuple[int, int]:
        return (self.log_id, self.line)
