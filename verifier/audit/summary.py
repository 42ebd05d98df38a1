"""Aggregates of an audit store: counts, rates, top symbols and reasons, per-model counts.

:func:`summarize` runs a few SQL aggregates over the store (nothing is loaded row by row,
so it is quick on millions of results); :func:`format_summary` renders the terminal
summary; :meth:`AuditSummary.to_json` is the machine form (``verifier audit summary --json``).

Rates: ``accept_rate``, ``reject_rate`` and ``abstain_rate`` are shares of the *verified*
records (``status = ok``); ``error_rate`` is the share of all records that could not be
verified (bad input lines and crashes); ``input_error_rate`` and ``verify_error_rate`` split
it.  These names (and the counts) are what ``--fail-on`` conditions use.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any, Mapping

from verifier.audit.groups import consensus_counts
from verifier.audit.store import AuditStore

__all__ = ["AuditSummary", "summarize", "format_summary", "metrics"]

DECISIONS = ("accept", "reject", "abstain")


@dataclass(frozen=True)
class AuditSummary:
    """The aggregates of one store (see the module documentation)."""

    records: int
    by_status: Mapping[str, int]
    by_decision: Mapping[str, int]
    by_verdict: Mapping[str, int]
    input_errors: Mapping[str, int]
    verify_errors: Mapping[str, int]
    query_errors: int
    top_properties: tuple[tuple[str, str, int], ...]
    top_entities: tuple[tuple[str, str, int], ...]
    top_reasons: tuple[tuple[str, int], ...]
    model_field: str | None
    by_model: Mapping[str, Mapping[str, int]]
    score_histogram: tuple[int, ...]
    timing_ms: Mapping[str, float]
    logs: tuple[Mapping[str, Any], ...]
    sessions: tuple[Mapping[str, Any], ...]
    duplicates_ignored: int
    rates: Mapping[str, float] = field(default_factory=dict)
    #: the grouping pass's figures (:func:`verifier.audit.groups.consensus_counts`): questions
    #: with several candidates, their records, split questions, minority records, undecided pairs
    consensus: Mapping[str, int] = field(default_factory=dict)

    @property
    def complete(self) -> bool:
        return bool(self.logs) and all(l["complete"] for l in self.logs)

    def to_json(self) -> dict[str, Any]:
        """A JSON-serialisable dict."""
        d = asdict(self)
        d["complete"] = self.complete
        d["top_properties"] = [{"id": i, "label": l, "count": n} for i, l, n in self.top_properties]
        d["top_entities"] = [{"id": i, "label": l, "count": n} for i, l, n in self.top_entities]
        d["top_reasons"] = [{"reason": r, "count": n} for r, n in self.top_reasons]
        return d


def metrics(s: AuditSummary) -> dict[str, float]:
    """Every number a ``--fail-on`` condition can test."""
    out: dict[str, float] = {"records": s.records, "verified": s.by_status.get("ok", 0),
                             "errors": s.by_status.get("input_error", 0) + s.by_status.get("verify_error", 0),
                             "input_errors": s.by_status.get("input_error", 0),
                             "verify_errors": s.by_status.get("verify_error", 0),
                             "query_errors": s.query_errors, "duplicates": s.duplicates_ignored}
    for d in DECISIONS:
        out[d] = s.by_decision.get(d, 0)
    for v, n in s.by_verdict.items():
        out[f"verdict_{v}"] = n
    out.update(s.rates)
    c = s.consensus
    out.update(split_questions=c.get("split", 0), minority_records=c.get("minority", 0),
               minority_rate=c.get("minority", 0) / c["records"] if c.get("records") else 0.0)
    return out


def _q(store: AuditStore, sql: str, params: tuple = ()) -> list[tuple]:
    return store.db.execute(sql, params).fetchall()


def summarize(store: AuditStore, *, model_field: str | None = "model", top: int = 10) -> AuditSummary:
    """Aggregate a store (see the module documentation).  ``model_field``: the input field
    that names the system that wrote the query (per-model counts when present)."""
    records = _q(store, "SELECT COUNT(*) FROM results")[0][0]
    by_status = dict(_q(store, "SELECT status, COUNT(*) FROM results GROUP BY status"))
    by_decision = dict(_q(store, "SELECT decision, COUNT(*) FROM results WHERE status = 'ok' GROUP BY decision"))
    by_verdict = dict(_q(store, "SELECT verdict, COUNT(*) FROM results WHERE status = 'ok' GROUP BY verdict "
                                "ORDER BY COUNT(*) DESC"))
    input_errors = dict(_q(store, "SELECT error_kind, COUNT(*) FROM results WHERE status = 'input_error' "
                                  "GROUP BY error_kind ORDER BY COUNT(*) DESC"))
    verify_errors = dict(_q(store, "SELECT error_kind, COUNT(*) FROM results WHERE status = 'verify_error' "
                                   "GROUP BY error_kind ORDER BY COUNT(*) DESC"))
    query_errors = _q(store, "SELECT COUNT(*) FROM results WHERE status = 'ok' AND error IS NOT NULL")[0][0]
    sym = _q(store, "SELECT json_extract(j.value, '$[0]') AS sym, MAX(json_extract(j.value, '$[1]')), COUNT(*) "
                    "FROM results, json_each(results.unsupported) AS j WHERE results.status = 'ok' "
                    "AND results.unsupported != '[]' GROUP BY sym ORDER BY COUNT(*) DESC, sym")
    props = tuple((i, l, n) for i, l, n in sym if str(i).startswith("P"))[:top]
    ents = tuple((i, l, n) for i, l, n in sym if str(i).startswith("Q"))[:top]
    reasons = tuple(_q(store, "SELECT j.value, COUNT(*) FROM results, json_each(results.reason_kinds) AS j "
                              "WHERE (results.decision IS NULL OR results.decision != 'accept') "
                              "GROUP BY j.value ORDER BY COUNT(*) DESC, j.value LIMIT ?", (top,)))
    by_model: dict[str, dict[str, int]] = {}
    used_model = None
    if model_field:
        path = "$." + model_field if all(c.isalnum() or c in "_." for c in model_field) else f'$."{model_field}"'
        rows = _q(store, "SELECT json_extract(fields, ?) AS m, COALESCE(decision, status), COUNT(*) FROM results "
                         "GROUP BY m, COALESCE(decision, status)", (path,))
        if any(m is not None for m, _, _ in rows):
            used_model = model_field
            for m, d, n in rows:
                by_model.setdefault("(none)" if m is None else str(m), {})[d] = n
    hist = [0] * 10
    for b, n in _q(store, "SELECT MIN(CAST(score * 10 AS INTEGER), 9), COUNT(*) FROM results "
                          "WHERE status = 'ok' AND score IS NOT NULL GROUP BY 1"):
        hist[max(0, int(b))] += n
    timing: dict[str, float] = {}
    n_ok = by_status.get("ok", 0)
    if n_ok:
        avg_w, avg_c, tot_c = _q(store, "SELECT AVG(wall_ms), AVG(cpu_ms), SUM(cpu_ms) FROM results WHERE status = 'ok'")[0]
        timing = {"mean_wall_ms": round(avg_w or 0, 1), "mean_cpu_ms": round(avg_c or 0, 1),
                  "total_cpu_s": round((tot_c or 0) / 1000, 1)}
        for p in (50, 95):
            off = min(n_ok - 1, int(n_ok * p / 100))
            v = _q(store, "SELECT wall_ms FROM results WHERE status = 'ok' ORDER BY wall_ms LIMIT 1 OFFSET ?", (off,))
            timing[f"p{p}_wall_ms"] = round(v[0][0] or 0, 1) if v else 0.0
    logs = tuple({"log_id": l.log_id, "path": l.path, "format": l.format, "records": l.records_total,
                  "stored": store.count(l.log_id), "complete": l.complete, "sha256": l.sha256}
                 for l in store.logs())
    sessions = tuple({"session_id": s.session_id, "status": s.status, "engine": s.engine, "workers": s.workers,
                      "started": s.started, "finished": s.finished, "records_written": s.records_written,
                      "duplicates_ignored": s.duplicates_ignored, "axioms_sha256": s.axioms_sha256,
                      "config_sha256": s.config_sha256, "verifier_version": s.verifier_version,
                      "notes": s.notes} for s in store.sessions())
    dup = sum(s["duplicates_ignored"] for s in sessions)
    errors = by_status.get("input_error", 0) + by_status.get("verify_error", 0)
    rates = {f"{d}_rate": (by_decision.get(d, 0) / n_ok if n_ok else 0.0) for d in DECISIONS}
    rates.update(error_rate=errors / records if records else 0.0,
                 input_error_rate=by_status.get("input_error", 0) / records if records else 0.0,
                 verify_error_rate=by_status.get("verify_error", 0) / records if records else 0.0)
    return AuditSummary(records, by_status, by_decision, by_verdict, input_errors, verify_errors, query_errors,
                        props, ents, reasons, used_model, by_model, tuple(hist), timing, logs, sessions, dup,
                        {k: round(v, 6) for k, v in rates.items()}, consensus_counts(store))


def _table(headers: list[str], rows: list[list[Any]]) -> str:
    cells = [[str(h) for h in headers]] + [[str(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    right = [all(_isnum(r[i]) for r in cells[1:]) and len(cells) > 1 for i in range(len(headers))]
    lines = []
    for k, r in enumerate(cells):
        lines.append("  ".join(c.rjust(w) if right[i] else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))).rstrip())
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join("  " + l for l in lines)


def _isnum(s: str) -> bool:
    try:
        float(s.rstrip("%"))
        return True
    except ValueError:
        return False


def _pct(n: int, d: int) -> str:
    return f"{100 * n / d:.1f}%" if d else "-"


def format_summary(s: AuditSummary) -> str:
    """The terminal summary (plain text tables)."""
    ok = s.by_status.get("ok", 0)
    out = [f"Audit of {s.records:,} record(s) in {len(s.logs)} log(s)"
           + ("" if s.complete else "  [INCOMPLETE: resume with --resume]")]
    rows = [[d, s.by_decision.get(d, 0), _pct(s.by_decision.get(d, 0), ok)] for d in DECISIONS]
    errs = s.by_status.get("input_error", 0) + s.by_status.get("verify_error", 0)
    rows.append(["error (not verified)", errs, _pct(errs, s.records)])
    out += ["", "Decisions (shares of verified records; errors: of all records)",
            _table(["decision", "count", "share"], rows)]
    if s.by_verdict:
        out += ["", "Deductive verdicts", _table(["verdict", "count", "share"],
                                                 [[v, n, _pct(n, ok)] for v, n in s.by_verdict.items()])]
    if s.input_errors or s.verify_errors or s.query_errors:
        rows = [[f"input: {k}", n] for k, n in s.input_errors.items()]
        rows += [[f"verification: {k}", n] for k, n in s.verify_errors.items()]
        if s.query_errors:
            rows.append(["query could not be checked (verdict error)", s.query_errors])
        out += ["", "Errors", _table(["kind", "count"], rows)]
    if s.top_properties:
        out += ["", "Top unsupported properties", _table(["id", "label", "count"], [list(r) for r in s.top_properties])]
    if s.top_entities:
        out += ["", "Top unsupported entities", _table(["id", "label", "count"], [list(r) for r in s.top_entities])]
    if s.top_reasons:
        out += ["", "Top reasons (records not accepted)",
                _table(["reason", "count"], [[r if len(r) <= 100 else r[:99] + "…", n] for r, n in s.top_reasons])]
    if s.by_model:
        cols = ["accept", "reject", "abstain", "input_error", "verify_error"]
        rows = []
        for m, c in sorted(s.by_model.items(), key=lambda kv: -sum(kv[1].values())):
            tot = sum(c.values())
            ver = sum(c.get(k, 0) for k in DECISIONS)
            rows.append([m, tot] + [c.get(k, 0) for k in cols] + [_pct(c.get("reject", 0), ver)])
        out += ["", f"Per model (field '{s.model_field}')",
                _table(["model", "records", *cols, "reject rate"], rows)]
    if s.consensus:
        c = s.consensus
        out += ["", f"Candidate sets: {c['questions']:,} question(s) with several candidates ({c['records']:,} "
                    f"records): {c['split']:,} split into clusters that disagree, {c['minority']:,} record(s) "
                    f"agreeing with less than half of the other candidates"
                    + (f", {c['undecided']:,} pair(s) undecided by the prover" if c["undecided"] else "")]
    if s.timing_ms:
        t = s.timing_ms
        out += ["", f"Verification time: mean {t['mean_wall_ms']:.0f} ms wall / {t['mean_cpu_ms']:.0f} ms CPU, "
                    f"p50 {t['p50_wall_ms']:.0f} ms, p95 {t['p95_wall_ms']:.0f} ms, total CPU {t['total_cpu_s']:.0f} s"]
    if s.duplicates_ignored:
        out.append(f"Warning: {s.duplicates_ignored} duplicate result(s) were offered and ignored")
    return "\n".join(out)


def to_json_text(s: AuditSummary) -> str:
    """The summary as indented JSON."""
    return json.dumps(s.to_json(), indent=2, ensure_ascii=False, default=str)
