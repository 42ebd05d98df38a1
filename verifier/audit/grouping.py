"""The grouping pass of an audit: candidates that share a question, and their consensus.

Lines of one question may be far apart in a log (several models, retries, days), so the audit
verifies lines one by one as always and then, once every line is stored, runs this pass over
the store (:func:`run_grouping`):

1. **keys**: every verified record (``status`` ``ok`` or ``verify_error``) without a key gets
   one in ``consensus_keys``: the value of the ``group_by`` field (``--group-by
   question_id``; ``id:<value>``) or, by default or when that field is missing or null, the
   normalised question text (:func:`question_key`; ``q:<text>``).  One ``INSERT ... SELECT``
   over the records not keyed yet, so a resumed audit keys only its new lines;
2. **groups**: ``SELECT group_key, COUNT(*) ... GROUP BY group_key HAVING COUNT(*) > 1`` (on
   an index), in pages.  A log where every question is unique stops here: no clustering, no
   rows written beyond the keys;
3. **consensus**: each group whose stored size differs from its current size (new, or grown
   by appended lines) is clustered (:func:`verifier.consensus.cluster_candidates`, candidates
   in line order, in ``workers`` processes for large audits) and its evidence written: one
   ``consensus_groups`` row (question, size, clusters as JSON) and one ``consensus`` row per
   record (:class:`verifier.consensus.ConsensusEvidence` as JSON), in batched transactions.

Resumable: everything is derived from the stored results and written per batch of groups,
so after an interruption the pass continues where it stopped; changing ``group_by``,
``score_field`` or the prover budget discards the derived tables and groups again.
"""

from __future__ import annotations

import itertools
import json
import logging
import multiprocessing as mp
import re
import sys
import time
import unicodedata
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Mapping, Sequence

from verifier.audit.store import AuditStore
from verifier.consensus import (DEFAULT_BUDGET, DEFAULT_MAX_REPRESENTATIVES, Clustering,
                                cluster_candidates, consensus_evidence, with_answers, with_verdicts)

__all__ = ["GroupingOptions", "GroupingOutcome", "question_key", "group_key", "run_grouping",
           "field_value", "recorded_answers"]

log = logging.getLogger(__name__)

#: groups clustered in the main process before a pool of ``workers`` processes takes over
_INLINE_GROUPS = 32
_TRAILING = re.compile(r"[\s?.!;:]+$")
_SPACES = re.compile(r"\s+")


@dataclass(frozen=True)
class GroupingOptions:
    """How records are grouped and clustered.

    ``group_by``: an input field holding a question id (dotted names reach into nested JSON);
    ``None``: the normalised question text.  ``score_field``: an input field holding the
    generator's score of the query (probability or log-probability), for the weighted
    agreement.  ``answers_field``: an input field saying what the line's query returned when it
    was run (:func:`recorded_answers`), for the answer agreement
    (:mod:`verifier.consensus.answers`).  ``budget`` / ``max_representatives``: see
    :mod:`verifier.consensus.cluster`.
    ``workers``: processes clustering groups in parallel (0: as many as the audit's workers).  ``labels``: a
    :class:`verifier.lexical.LabelIndex` (or mapping) naming identifiers in the sentences.
    ``batch_groups``: groups written per transaction."""

    enabled: bool = True
    group_by: str | None = None
    score_field: str | None = None
    answers_field: str | None = None
    budget: int = DEFAULT_BUDGET
    max_representatives: int = DEFAULT_MAX_REPRESENTATIVES
    workers: int = 0
    labels: Any = None
    batch_groups: int = 64

    def settings(self) -> str:
        """What the derived tables depend on (stored in ``meta``)."""
        return json.dumps({"group_by": self.group_by, "score_field": self.score_field,
                           "answers_field": self.answers_field, "budget": self.budget, "max_representatives": self.max_representatives},
                          sort_keys=True)


@dataclass(frozen=True)
class GroupingOutcome:
    """What one pass did: records keyed now, groups with more than one candidate, groups
    clustered now (the others were already done), prover checks, seconds."""

    keyed: int
    groups: int
    clustered: int
    prover_checks: int
    seconds: float


def question_key(question: str) -> str:
    """The normalised question text used as the default group key: Unicode NFKC, case
    folded, runs of white space as one space, trailing ``? . ! ; :`` dropped."""
    q = unicodedata.normalize("NFKC", question).casefold()
    return _TRAILING.sub("", _SPACES.sub(" ", q).strip())


def field_value(fields: Mapping[str, Any], name: str) -> Any:
    """The value of an input field: ``name`` as a key, else a dotted path into nested
    objects; ``None`` when absent."""
    if name in fields:
        return fields[name]
    cur: Any = fields
    for part in name.split("."):
        if not isinstance(cur, Mapping) or part not in cur:
            return None
        cur = cur[part]
    return cur


def group_key(question: str | None, fields: Mapping[str, Any], group_by: str | None) -> str | None:
    """The group key of one record (module documentation); ``None`` without a question."""
    if group_by:
        v = field_value(fields, group_by)
        if v is not None and v != "":
            return "id:" + (v if isinstance(v, str) else json.dumps(v, sort_keys=True))
    if not question or not question.strip():
        return None
    return "q:" + question_key(question)


def _clear(store: AuditStore) -> None:
    for t in ("consensus", "consensus_groups", "consensus_keys"):
        store.db.execute(f"DELETE FROM {t}")


def _key_records(store: AuditStore, opts: GroupingOptions) -> int:
    """Key the records not keyed yet; returns how many."""

    def udf(question: str | None, fields: str | None) -> str | None:
        try:
            return group_key(question, json.loads(fields) if fields else {}, opts.group_by)
        except (ValueError, TypeError):
            return group_key(question, {}, None)

    store.db.create_function("verifier_group_key", 2, udf, deterministic=True)
    store.db.execute("BEGIN IMMEDIATE")
    try:
        before = store.db.total_changes
        store.db.execute(
            "INSERT OR IGNORE INTO consensus_keys (log_id, line, group_key) "
            "SELECT r.log_id, r.line, verifier_group_key(r.question, r.fields) FROM results r "
            "LEFT JOIN consensus_keys k ON k.log_id = r.log_id AND k.line = r.line "
            "WHERE k.log_id IS NULL AND r.status IN ('ok', 'verify_error') AND r.sparql IS NOT NULL "
            "AND verifier_group_key(r.question, r.fields) IS NOT NULL")
        n = store.db.total_changes - before
        store.db.execute("COMMIT")
    except BaseException:
        store.db.execute("ROLLBACK")
        raise
    return n


def _groups(store: AuditStore, page: int = 1000) -> Iterator[tuple[str, int]]:
    """``(group_key, size)`` of the groups with more than one record, by key, in pages."""
    last = ""
    while True:
        rows = store.db.execute(
            "SELECT group_key, COUNT(*) FROM consensus_keys WHERE group_key > ? GROUP BY group_key "
            "HAVING COUNT(*) > 1 ORDER BY group_key LIMIT ?", (last, page)).fetchall()
        if not rows:
            return
        yield from rows
        last = rows[-1][0]


@dataclass(frozen=True)
class _Task:
    key: str
    members: tuple[tuple[int, int], ...]
    question: str
    sparqls: tuple[str | None, ...]
    scores: tuple[Any, ...] | None
    verdicts: tuple[str | None, ...] = ()
    answers: tuple[Any, ...] | None = None


def _load_task(store: AuditStore, key: str, opts: GroupingOptions) -> _Task:
    rows = store.db.execute(
        "SELECT k.log_id, k.line, r.question, r.sparql, r.fields, r.verdict FROM consensus_keys k "
        "JOIN results r ON r.log_id = k.log_id AND r.line = k.line WHERE k.group_key = ? "
        "ORDER BY k.log_id, k.line", (key,)).fetchall()
    scores = None
    if opts.score_field:
        scores = tuple(field_value(json.loads(r[4]) if r[4] else {}, opts.score_field) for r in rows)
    answers = None
    if opts.answers_field:
        answers = tuple(field_value(json.loads(r[4]) if r[4] else {}, opts.answers_field) for r in rows)
    return _Task(key, tuple((r[0], r[1]) for r in rows), rows[0][2] or "", tuple(r[3] for r in rows), scores,
                 tuple(r[5] for r in rows), answers)


def recorded_answers(value: Any) -> dict[str, Any] | None:
    """The execution a log line records (its ``--answers-field``), as
    :meth:`verifier.stacking.execution.ExecutionResult.to_dict`: a number is how many rows
    the query returned (compared by count), a list is the answers themselves (each a value or
    a list of values; compared by digest); anything else (absent, null, text) is unknown."""
    from verifier.stacking.execution import ExecutionResult, answers_digest

    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        return ExecutionResult("ok", n_answers=int(value), backend="the log").to_dict()
    if isinstance(value, list):
        rows = [v if isinstance(v, list) else [v] for v in value]
        rows = [[None if x is None else (x if isinstance(x, str) else json.dumps(x, sort_keys=True))
                 for x in r] for r in rows]
        return ExecutionResult("ok", n_answers=len(rows), answers=answers_digest(rows) if rows else "",
                               backend="the log").to_dict()
    return None


def _deductive_decision(verdict: str | None) -> str | None:
    """The deductive decision a stored deductive verdict stands for (faithful: accepted;
    ``None`` when the line has no verdict yet)."""
    if verdict is None:
        return None
    return "accept" if verdict == "faithful" else \
        "reject" if verdict in ("weaker", "unsupported", "intent_mismatch") else "abstain"


def _cluster_task(args: tuple[_Task, int, int]) -> dict[str, Any]:
    """Cluster one group (in a worker process, or inline): no cache of checks across groups,
    so a group's clusters depend on its candidates only, wherever it is clustered."""
    task, budget, k = args
    return cluster_candidates(task.sparqls, budget=budget, max_representatives=k).to_dict()


def _numeric(scores: Sequence[Any] | None) -> list[float] | None:
    if scores is None:
        return None
    try:
        return [float(s) for s in scores]
    except (TypeError, ValueError):
        return None


def _write(store: AuditStore, done: list[tuple[_Task, Clustering]], labels: Any) -> None:
    now = time.time()
    store.db.execute("BEGIN IMMEDIATE")
    try:
        for task, c in done:
            evidence = consensus_evidence(c, _numeric(task.scores), labels)
            if task.verdicts and all(v is not None for v in task.verdicts):
                # each cluster's deductive evidence (the lines' stored deductive verdicts)
                evidence = with_verdicts(evidence, [_deductive_decision(v) for v in task.verdicts])
            if task.answers is not None:
                evidence = with_answers(evidence, [recorded_answers(a) for a in task.answers])
            store.db.execute("DELETE FROM consensus WHERE group_key = ?", (task.key,))
            store.db.executemany(
                "INSERT OR REPLACE INTO consensus (log_id, line, group_key, cluster, evidence) "
                "VALUES (?, ?, ?, ?, ?)",
                [(lid, line, task.key, ev.cluster_index, json.dumps(ev.to_dict(), ensure_ascii=False))
                 for (lid, line), ev in zip(task.members, evidence)])
            store.db.execute(
                "INSERT OR REPLACE INTO consensus_groups (group_key, question, n, n_clusters, undecided, "
                "clustering, members, written) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (task.key, task.question, len(task.members), len(c.clusters), len(c.undecided),
                 json.dumps(c.to_dict()), json.dumps([list(m) for m in task.members]), now))
        store.db.execute("COMMIT")
    except BaseException:
        store.db.execute("ROLLBACK")
        raise


def _todo(store: AuditStore, opts: GroupingOptions) -> Iterator[_Task]:
    for key, n in _groups(store):
        row = store.db.execute("SELECT n FROM consensus_groups WHERE group_key = ?", (key,)).fetchone()
        if row is not None and row[0] == n:
            continue
        yield _load_task(store, key, opts)


def run_grouping(store: AuditStore, opts: GroupingOptions,
                 progress: Callable[[int], Any] | None = None) -> GroupingOutcome:
    """Run (or continue) the grouping pass on a store whose writer lock the caller holds
    (module documentation).  ``progress(n)`` is called with the number of groups written."""
    t0 = time.monotonic()
    if store.meta("consensus_settings") != opts.settings():
        _clear(store)
        store.set_meta("consensus_settings", opts.settings())
    keyed = _key_records(store, opts)
    clustered = checks = 0
    buffer: list[tuple[_Task, Clustering]] = []

    def flush() -> None:
        if buffer:
            _write(store, buffer, opts.labels)
            if progress is not None:
                progress(len(buffer))
            buffer.clear()

    def results() -> Iterator[tuple[_Task, dict[str, Any]]]:
        tasks = _todo(store, opts)
        # the first groups inline: a small audit never starts a pool of processes
        for t in itertools.islice(tasks, _INLINE_GROUPS if opts.workers > 1 else None):
            yield t, _cluster_task((t, opts.budget, opts.max_representatives))
        if opts.workers <= 1:
            return
        ctx = mp.get_context("fork" if sys.platform.startswith("linux") else "spawn")
        with ProcessPoolExecutor(opts.workers, mp_context=ctx) as ex:
            window: deque[tuple[_Task, Any]] = deque()
            for t in tasks:
                window.append((t, ex.submit(_cluster_task, (t, opts.budget, opts.max_representatives))))
                if len(window) >= 4 * opts.workers:
                    first, fut = window.popleft()
                    yield first, fut.result()
            for t, fut in window:
                yield t, fut.result()

    for task, cdict in results():
        c = Clustering.from_dict(cdict)
        buffer.append((task, c))
        clustered += 1
        checks += c.prover_checks
        if len(buffer) >= opts.batch_groups:
            flush()
    flush()
    groups = int(store.db.execute("SELECT COUNT(*) FROM consensus_groups").fetchone()[0])
    return GroupingOutcome(keyed, groups, clustered, checks, time.monotonic() - t0)
