"""The entries shown in reports: a bounded selection of stored results.

Reports list at most ``limit`` entries: all of them when the store is small enough,
otherwise errors first, then rejected, abstained and accepted records (each group in line
order), so the entries that need a look are never cut.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from verifier.audit.store import AuditStore

__all__ = ["Entry", "select_entries"]

_PRIORITY = ("verify_error", "input_error", "reject", "abstain", "accept")


@dataclass(frozen=True)
class Entry:
    """One row of a report's table."""

    log: str
    line: int
    record_id: str
    status: str
    decision: str
    verdict: str
    score: float | None
    question: str
    sparql: str
    explanation: str
    reason: str
    error: str
    model: str
    fields: dict[str, Any]
    wall_ms: float | None
    #: the record's consensus evidence (:mod:`verifier.audit.grouping`), when its question
    #: has several candidates
    consensus: dict[str, Any] | None = None

    @property
    def consensus_text(self) -> str:
        """The consensus evidence in words ("" without it)."""
        c = self.consensus
        if not c:
            return ""
        text = (f"cluster {c.get('cluster_index', 0) + 1} of {c.get('n_clusters')}, "
                f"{c.get('cluster_size')} of {c.get('n_candidates')} candidates: {c.get('difference', '')}")
        agree, n = c.get("answer_agreement"), c.get("n_candidates")
        if isinstance(agree, (int, float)) and isinstance(n, int) and n > 1:
            text += f"; {round(agree * (n - 1))} of the {n - 1} others returned the same answers"
        return text

    def to_json(self) -> dict[str, Any]:
        return {"log": self.log, "line": self.line, "id": self.record_id, "status": self.status,
                "decision": self.decision, "verdict": self.verdict, "score": self.score,
                "question": self.question, "sparql": self.sparql, "explanation": self.explanation,
                "reason": self.reason, "error": self.error, "model": self.model, "fields": self.fields,
                "ms": None if self.wall_ms is None else round(self.wall_ms, 1),
                "consensus": self.consensus_text}


def select_entries(store: AuditStore, limit: int = 5000, model_field: str | None = "model") -> tuple[list[Entry], int]:
    """``(entries, total)``: at most ``limit`` entries (see the module documentation)."""
    total = store.count()
    names = {l.log_id: l.path.rsplit("/", 1)[-1] for l in store.logs()}
    cols = ("log_id", "line", "record_id", "status", "decision", "verdict", "score", "question", "sparql",
            "explanation", "reason", "error", "fields", "wall_ms")
    rows: list[dict[str, Any]] = []
    left = limit
    if total <= limit:
        rows = list(store.iter_rows(cols))
    else:
        for group in _PRIORITY:
            if left <= 0:
                break
            where = "status = ?" if group in ("verify_error", "input_error") else "status = 'ok' AND decision = ?"
            for r in store.iter_rows(cols, where=where, params=(group,)):
                rows.append(r)
                left -= 1
                if left <= 0:
                    break
        rows.sort(key=lambda r: (r["log_id"], r["line"]))
    grouped = store.has_table("consensus") and store.db.execute("SELECT 1 FROM consensus LIMIT 1").fetchone()
    out = []
    for r in rows:
        fields = json.loads(r["fields"]) if r["fields"] else {}
        model = fields.get(model_field) if model_field else None
        out.append(Entry(names.get(r["log_id"], str(r["log_id"])), r["line"], r["record_id"], r["status"],
                         r["decision"] or ("error" if r["status"] != "ok" else ""), r["verdict"] or "",
                         r["score"], r["question"] or "", r["sparql"] or "", r["explanation"] or "",
                         r["reason"] or "", r["error"] or "", "" if model is None else str(model), fields,
                         r["wall_ms"], store.consensus(r["log_id"], r["line"]) if grouped else None))
    return out, total
