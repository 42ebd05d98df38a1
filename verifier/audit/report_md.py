"""The Markdown report: the summary tables, the candidate sets (questions with several
candidates and their clusters) and the records that were not accepted."""

from __future__ import annotations

from typing import Sequence

from verifier.audit.entries import Entry
from verifier.audit.groups import QuestionGroup
from verifier.audit.summary import DECISIONS, AuditSummary

__all__ = ["render_markdown"]


def _cell(v: object, n: int = 120) -> str:
    s = "" if v is None else " ".join(str(v).split())
    if len(s) > n:
        s = s[: n - 1] + "…"
    return s.replace("|", "\\|")


def _table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    out = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    out += ["| " + " | ".join(_cell(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def _pct(n: int, d: int) -> str:
    return f"{100 * n / d:.1f}%" if d else "-"


def _groups_md(s: AuditSummary, groups: Sequence[QuestionGroup], total: int) -> list[str]:
    if not groups:
        return []
    c = s.consensus
    out = ["## Candidate sets", "",
           f"{c.get('questions', total):,} question(s) with several candidates ({c.get('records', 0):,} records), "
           f"{c.get('split', 0):,} of them split into clusters that disagree"
           + (f"; {len(groups):,} shown (split questions first)." if len(groups) < total else "."), ""]
    for g in groups:
        und = f", {g.undecided} undecided pair(s)" if g.undecided else ""
        out += [f"### {_cell(g.question, 200)}", "", f"{g.n} candidates, {g.n_clusters} cluster(s){und}", "",
                _table(["cluster", "size", "representative", "difference", "query"],
                       [[i + 1, v.size, v.representative, v.difference, v.sparql] for i, v in enumerate(g.clusters)]),
                ""]
        if g.more_clusters:
            out += [f"{g.more_clusters} more cluster(s) not shown.", ""]
    return out


def render_markdown(s: AuditSummary, entries: Sequence[Entry], total: int, *, title: str = "SPARQL audit",
                    max_entries: int = 200, groups: Sequence[QuestionGroup] = (), total_groups: int = 0) -> str:
    """The report as Markdown (at most ``max_entries`` non-accepted entries are listed);
    ``groups``: the questions with several candidates to show, of ``total_groups``."""
    ok = s.by_status.get("ok", 0)
    errs = s.by_status.get("input_error", 0) + s.by_status.get("verify_error", 0)
    out = [f"# {title}", "", f"{s.records:,} records in {len(s.logs)} log(s)"
           + ("." if s.complete else " — **incomplete**: resume with `--resume`."), ""]
    out += ["## Decisions", "", _table(["decision", "count", "share"],
                                       [[d, s.by_decision.get(d, 0), _pct(s.by_decision.get(d, 0), ok)] for d in DECISIONS]
                                       + [["error (not verified)", errs, _pct(errs, s.records)]]), ""]
    if s.by_verdict:
        out += ["## Deductive verdicts", "", _table(["verdict", "count", "share"],
                                                    [[v, n, _pct(n, ok)] for v, n in s.by_verdict.items()]), ""]
    err_rows = [[f"input: {k}", n] for k, n in s.input_errors.items()] + \
               [[f"verification: {k}", n] for k, n in s.verify_errors.items()]
    if s.query_errors:
        err_rows.append(["query could not be checked (verdict error)", s.query_errors])
    if err_rows:
        out += ["## Errors", "", _table(["kind", "count"], err_rows), ""]
    if s.top_properties:
        out += ["## Top unsupported properties", "", _table(["id", "label", "records"], s.top_properties), ""]
    if s.top_entities:
        out += ["## Top unsupported entities", "", _table(["id", "label", "records"], s.top_entities), ""]
    if s.top_reasons:
        out += ["## Top reasons (records not accepted)", "", _table(["reason", "records"], s.top_reasons), ""]
    if s.by_model:
        cols = [*DECISIONS, "input_error", "verify_error"]
        rows = []
        for m, c in sorted(s.by_model.items(), key=lambda kv: -sum(kv[1].values())):
            ver = sum(c.get(k, 0) for k in DECISIONS)
            rows.append([m, sum(c.values()), *[c.get(k, 0) for k in cols], _pct(c.get("reject", 0), ver)])
        out += [f"## Per model (`{s.model_field}`)", "", _table(["model", "records", *cols, "reject rate"], rows), ""]
    out += _groups_md(s, groups, total_groups)
    bad = [e for e in entries if e.decision != "accept"]
    if bad:
        shown = bad[:max_entries]
        out += ["## Records not accepted", "",
                f"{len(shown)} of {len(bad)} listed" + ("" if len(entries) >= total else
                                                          f" (the report selection holds {len(entries)} of {total} records)")
                + "; `verifier audit export` gives every record.", "",
                _table(["line", "id", "decision", "verdict", "model", "question", "reason"],
                       [[f"{e.log}:{e.line}", e.record_id, e.decision, e.verdict, e.model, e.question,
                         e.reason or e.error] for e in shown]), ""]
    return "\n".join(out)
