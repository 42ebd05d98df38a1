"""The HTML report: one self-contained file (inline CSS and JavaScript, plots as SVG data
URIs, a Content-Security-Policy that forbids any network access).

Sections: the summary (decisions, verdicts, errors, rates), four plots (decisions, scores,
hallucinated symbols, per model), the top unsupported symbols and reasons, the candidate sets
(questions with several candidates: their clusters of equivalent queries), and a table of
entries with a search box, a decision filter, sortable columns, pages, and a detail panel
(explanation, query, reason, error, input fields) for each row.  All text from the log is
inserted with ``textContent`` or escaped, never as markup.
"""

from __future__ import annotations

import html
import json
import time
from typing import Sequence

from verifier.audit.entries import Entry
from verifier.audit.groups import QuestionGroup
from verifier.audit.plots import all_plots, svg_data_uri
from verifier.audit.summary import DECISIONS, AuditSummary

__all__ = ["render_html"]

_CSS = """
:root{--fg:#1d232a;--muted:#5f6b76;--line:#dde3e8;--bg:#f6f8fa;--accept:#2e7d32;--reject:#c62828;--abstain:#b58105;--error:#6d4c41}
*{box-sizing:border-box}body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);margin:0;background:#fff}
header{background:#22303c;color:#fff;padding:18px 28px}header h1{margin:0;font-size:20px}header p{margin:4px 0 0;color:#c9d4dd;font-size:13px}
main{padding:18px 28px;max-width:1400px}h2{font-size:16px;margin:26px 0 10px;border-bottom:1px solid var(--line);padding-bottom:4px}
.cards{display:flex;flex-wrap:wrap;gap:12px}.card{border:1px solid var(--line);border-radius:8px;padding:10px 14px;min-width:130px;background:var(--bg)}
.card b{display:block;font-size:22px}.card span{color:var(--muted);font-size:12px}
.accept{color:var(--accept)}.reject{color:var(--reject)}.abstain{color:var(--abstain)}.error{color:var(--error)}
.plots{display:grid;grid-template-columns:repeat(auto-fit,minmax(420px,1fr));gap:14px}.plots figure{margin:0;border:1px solid var(--line);border-radius:8px;padding:8px;text-align:center}
.plots img{max-width:100%;height:auto}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:5px 8px;border-bottom:1px solid var(--line);vertical-align:top}
th{background:var(--bg);font-weight:600;white-space:nowrap}td.num,th.num{text-align:right}
.small{font-size:12px;color:var(--muted)}.two{display:grid;grid-template-columns:repeat(auto-fit,minmax(420px,1fr));gap:18px}
#controls{display:flex;gap:10px;align-items:center;flex-wrap:wrap;margin-bottom:8px}#controls input{padding:6px 8px;width:340px;border:1px solid #b8c2cb;border-radius:6px}
#controls select,#controls button{padding:5px 8px;border:1px solid #b8c2cb;border-radius:6px;background:#fff}
#entries th{cursor:pointer;user-select:none}#entries th.sorted-asc::after{content:" \\25B2"}#entries th.sorted-desc::after{content:" \\25BC"}
#entries tbody tr.row{cursor:pointer}#entries tbody tr.row:hover{background:#f1f6fb}
#entries td.q{max-width:520px}#entries td.nw{white-space:nowrap}.pill{display:inline-block;padding:1px 8px;border-radius:10px;color:#fff;font-size:12px}
.pill.accept{background:var(--accept);color:#fff}.pill.reject{background:var(--reject);color:#fff}.pill.abstain{background:var(--abstain);color:#fff}.pill.error{background:var(--error);color:#fff}
tr.detail td{background:#fbfcfd}pre{white-space:pre-wrap;word-break:break-word;background:var(--bg);border:1px solid var(--line);border-radius:6px;padding:8px;margin:4px 0 10px;font-size:12px}
.warn{background:#fff4e5;border:1px solid #ffcc80;padding:8px 12px;border-radius:6px}
details.group{border:1px solid var(--line);border-radius:8px;margin:6px 0;padding:6px 10px}details.group summary{cursor:pointer}
details.group pre{margin:0}
"""

_JS = r"""
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("entries-data").textContent);
  var state = { q: "", decision: "", sort: "line", dir: 1, page: 0, size: 50, open: {} };
  var body = document.querySelector("#entries tbody");
  var info = document.getElementById("page-info");
  function text(tag, value, cls) {
    var el = document.createElement(tag);
    if (cls) { el.className = cls; }
    el.textContent = value === null || value === undefined ? "" : String(value);
    return el;
  }
  function haystack(e) {
    return (e.id + " " + e.question + " " + e.sparql + " " + e.explanation + " " + e.reason + " " +
            e.error + " " + e.model + " " + e.verdict + " " + e.log).toLowerCase();
  }
  data.forEach(function (e) { e._h = haystack(e); e._key = e.log + ":" + e.line; });
  function filtered() {
    var words = state.q.toLowerCase().split(/\s+/).filter(function (w) { return w.length > 0; });
    var out = data.filter(function (e) {
      if (state.decision && e.decision !== state.decision) { return false; }
      for (var i = 0; i < words.length; i++) { if (e._h.indexOf(words[i]) < 0) { return false; } }
      return true;
    });
    var k = state.sort, d = state.dir;
    out.sort(function (a, b) {
      var x = a[k], y = b[k];
      if (x === null || x === undefined) { x = ""; }
      if (y === null || y === undefined) { y = ""; }
      if (typeof x === "number" && typeof y === "number") { return (x - y) * d || (a.line - b.line); }
      return String(x).localeCompare(String(y)) * d || (a.line - b.line);
    });
    return out;
  }
  function detail(e) {
    var tr = document.createElement("tr");
    tr.className = "detail";
    var td = document.createElement("td");
    td.colSpan = 8;
    var parts = [["Explanation", e.explanation], ["Query", e.sparql], ["Reason", e.reason],
                 ["Consensus", e.consensus], ["Error", e.error], ["Input fields", JSON.stringify(e.fields, null, 1)]];
    parts.forEach(function (p) {
      if (p[1] && p[1] !== "{}") { td.appendChild(text("div", p[0], "small")); td.appendChild(text("pre", p[1])); }
    });
    tr.appendChild(td);
    return tr;
  }
  function render() {
    var rows = filtered();
    var pages = Math.max(1, Math.ceil(rows.length / state.size));
    if (state.page >= pages) { state.page = pages - 1; }
    var start = state.page * state.size;
    var frag = document.createDocumentFragment();
    rows.slice(start, start + state.size).forEach(function (e) {
      var tr = document.createElement("tr");
      tr.className = "row";
      tr.appendChild(text("td", e.log + ":" + e.line, "num nw"));
      tr.appendChild(text("td", e.id, "nw"));
      var td = document.createElement("td");
      td.appendChild(text("span", e.decision, "pill " + (e.decision || "error")));
      tr.appendChild(td);
      tr.appendChild(text("td", e.verdict));
      tr.appendChild(text("td", e.score === null ? "" : e.score.toFixed(2), "num"));
      tr.appendChild(text("td", e.model, "nw"));
      tr.appendChild(text("td", e.question, "q"));
      tr.appendChild(text("td", e.reason ? e.reason.slice(0, 160) : "", "small"));
      tr.addEventListener("click", function () { state.open[e._key] = !state.open[e._key]; render(); });
      frag.appendChild(tr);
      if (state.open[e._key]) { frag.appendChild(detail(e)); }
    });
    body.replaceChildren(frag);
    info.textContent = rows.length ? ("rows " + (start + 1) + "-" + Math.min(start + state.size, rows.length) +
      " of " + rows.length + " (page " + (state.page + 1) + " of " + pages + ")") : "no matching entries";
    document.querySelectorAll("#entries th").forEach(function (th) {
      th.classList.remove("sorted-asc", "sorted-desc");
      if (th.dataset.key === state.sort) { th.classList.add(state.dir > 0 ? "sorted-asc" : "sorted-desc"); }
    });
  }
  document.getElementById("search").addEventListener("input", function (ev) { state.q = ev.target.value; state.page = 0; render(); });
  document.getElementById("decision").addEventListener("change", function (ev) { state.decision = ev.target.value; state.page = 0; render(); });
  document.getElementById("prev").addEventListener("click", function () { if (state.page > 0) { state.page -= 1; render(); } });
  document.getElementById("next").addEventListener("click", function () { state.page += 1; render(); });
  document.querySelectorAll("#entries th").forEach(function (th) {
    th.addEventListener("click", function () {
      var k = th.dataset.key;
      if (state.sort === k) { state.dir = -state.dir; } else { state.sort = k; state.dir = 1; }
      render();
    });
  });
  render();
  document.body.setAttribute("data-rendered", String(data.length));
})();
"""


def _e(s: object) -> str:
    return html.escape("" if s is None else str(s), quote=True)


def _pct(n: int, d: int) -> str:
    return f"{100 * n / d:.1f}%" if d else "–"


def _table(headers: Sequence[str], rows: Sequence[Sequence[object]], num: Sequence[int] = ()) -> str:
    th = "".join(f'<th class="num">{_e(h)}</th>' if i in num else f"<th>{_e(h)}</th>" for i, h in enumerate(headers))
    body = "".join("<tr>" + "".join(f'<td class="num">{_e(c)}</td>' if i in num else f"<td>{_e(c)}</td>"
                                    for i, c in enumerate(r)) + "</tr>" for r in rows)
    return f"<table><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"


def _groups_html(s: AuditSummary, groups: Sequence[QuestionGroup], total: int) -> str:
    """The candidate sets: each question with several candidates, its clusters (size,
    representative query, difference), as static markup (collapsed, split questions open)."""
    if not groups:
        return ""
    c = s.consensus
    head = (f"<h2>Candidate sets</h2><p class=\"small\">{c.get('questions', total):,} question(s) with several "
            f"candidates ({c.get('records', 0):,} records), {c.get('split', 0):,} of them split into clusters of "
            "semantically equivalent queries that disagree. "
            + (f"Showing {len(groups):,} (split questions first, then the largest)." if len(groups) < total
               else "") + "</p>")
    parts = []
    for g in groups:
        rows = "".join(
            f"<tr><td class=\"num\">{i + 1}</td><td class=\"num\">{v.size}</td><td class=\"nw\">{_e(v.representative)}"
            f"<div class=\"small\">{_e(', '.join(v.lines))}</div></td><td>{_e(v.difference)}</td>"
            f"<td><pre>{_e(v.sparql)}</pre></td></tr>" for i, v in enumerate(g.clusters))
        more = (f"<p class=\"small\">{g.more_clusters} more cluster(s) not shown.</p>" if g.more_clusters else "")
        und = f", {g.undecided} undecided pair(s)" if g.undecided else ""
        parts.append(f"<details class=\"group\"{' open' if g.n_clusters > 1 and len(parts) < 20 else ''}><summary>"
                     f"<b>{_e(g.question)}</b> <span class=\"small\">{g.n} candidates, {g.n_clusters} "
                     f"cluster(s){und}</span></summary><table><thead><tr><th class=\"num\">cluster</th>"
                     f"<th class=\"num\">size</th><th>representative</th><th>difference</th><th>query</th></tr>"
                     f"</thead><tbody>{rows}</tbody></table>{more}</details>")
    return head + "".join(parts)


def render_html(s: AuditSummary, entries: Sequence[Entry], total: int, *, title: str = "SPARQL audit",
                groups: Sequence[QuestionGroup] = (), total_groups: int = 0) -> str:
    """The report as one HTML document (see the module documentation); ``groups``: the
    questions with several candidates to show (:func:`verifier.audit.groups.select_groups`),
    of ``total_groups``."""
    ok = s.by_status.get("ok", 0)
    errs = s.by_status.get("input_error", 0) + s.by_status.get("verify_error", 0)
    cards = [("records", f"{s.records:,}", "")]
    for d in DECISIONS:
        n = s.by_decision.get(d, 0)
        cards.append((f"{d} ({_pct(n, ok)} of verified)", f"{n:,}", d))
    cards.append((f"errors ({_pct(errs, s.records)} of records)", f"{errs:,}", "error"))
    card_html = "".join(f'<div class="card"><b class="{c}">{_e(v)}</b><span>{_e(k)}</span></div>' for k, v, c in cards)
    plots = "".join(f'<figure><img alt="{_e(t)}" src="{svg_data_uri(svg)}"></figure>' for t, svg in all_plots(s))
    verdicts = _table(["verdict", "count", "share of verified"], [[v, n, _pct(n, ok)] for v, n in s.by_verdict.items()], (1, 2))
    err_rows = [[f"input: {k}", n] for k, n in s.input_errors.items()] + \
               [[f"verification: {k}", n] for k, n in s.verify_errors.items()]
    if s.query_errors:
        err_rows.append(["query could not be checked (verdict error)", s.query_errors])
    errors = _table(["kind", "count"], err_rows, (1,)) if err_rows else '<p class="small">none</p>'
    props = _table(["property", "label", "records"], [list(r) for r in s.top_properties], (2,)) \
        if s.top_properties else '<p class="small">none</p>'
    ents = _table(["entity", "label", "records"], [list(r) for r in s.top_entities], (2,)) \
        if s.top_entities else '<p class="small">none</p>'
    reasons = _table(["reason", "records"], [list(r) for r in s.top_reasons], (1,)) \
        if s.top_reasons else '<p class="small">none</p>'
    model_html = ""
    if s.by_model:
        cols = [*DECISIONS, "input_error", "verify_error"]
        rows = []
        for m, c in sorted(s.by_model.items(), key=lambda kv: -sum(kv[1].values())):
            ver = sum(c.get(k, 0) for k in DECISIONS)
            rows.append([m, sum(c.values()), *[c.get(k, 0) for k in cols], _pct(c.get("reject", 0), ver)])
        model_html = f"<h2>Per model (field <code>{_e(s.model_field)}</code>)</h2>" + \
            _table(["model", "records", *cols, "reject rate"], rows, tuple(range(1, len(cols) + 3)))
    logs = _table(["log", "format", "records", "stored", "complete"],
                  [[l["path"], l["format"], l["records"] if l["records"] is not None else "?", l["stored"],
                    "yes" if l["complete"] else "NO"] for l in s.logs], (2, 3))
    sess = _table(["session", "status", "engine", "workers", "written", "axioms", "verifier"],
                  [[x["session_id"], x["status"], x["engine"], x["workers"], x["records_written"],
                    (x["axioms_sha256"] or "")[:12], x["verifier_version"]] for x in s.sessions], (0, 3, 4))
    warn = "" if s.complete else '<p class="warn">This audit is incomplete: resume it with <code>verifier audit ... --resume</code>.</p>'
    shown = (f"Showing all {total:,} entries." if len(entries) >= total else
             f"Showing {len(entries):,} of {total:,} entries (errors, rejections and abstentions first); "
             "use <code>verifier audit export</code> for all of them.")
    data = json.dumps([e.to_json() for e in entries], ensure_ascii=False, separators=(",", ":"))
    data = data.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    options = "".join(f'<option value="{d}">{d}</option>' for d in (*DECISIONS, "error"))
    generated = time.strftime("%Y-%m-%d %H:%M:%S %Z")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{_e(title)}</title><style>{_CSS}</style></head>
<body><header><h1>{_e(title)}</h1><p>{s.records:,} records in {len(s.logs)} log(s) · generated {_e(generated)} by sparql-verifier</p></header>
<main>{warn}
<h2>Summary</h2><div class="cards">{card_html}</div>
<h2>Plots</h2><div class="plots">{plots}</div>
<div class="two"><div><h2>Deductive verdicts</h2>{verdicts}</div><div><h2>Errors</h2>{errors}</div></div>
<div class="two"><div><h2>Top unsupported properties</h2>{props}</div><div><h2>Top unsupported entities</h2>{ents}</div></div>
<h2>Top reasons (records not accepted)</h2>{reasons}
{model_html}
{_groups_html(s, groups, total_groups)}
<h2>Entries</h2><p class="small">{shown} Click a row for its explanation and query; click a column to sort.</p>
<div id="controls"><input id="search" type="search" placeholder="Search question, query, explanation, id, model…" aria-label="search">
<select id="decision" aria-label="decision"><option value="">all decisions</option>{options}</select>
<button id="prev" type="button">&larr; prev</button><button id="next" type="button">next &rarr;</button><span id="page-info" class="small"></span></div>
<table id="entries"><thead><tr><th class="num" data-key="line">line</th><th data-key="id">id</th><th data-key="decision">decision</th>
<th data-key="verdict">verdict</th><th class="num" data-key="score">score</th><th data-key="model">model</th><th data-key="question">question</th><th data-key="reason">reason</th></tr></thead>
<tbody></tbody></table>
<h2>Run</h2>{logs}<p></p>{sess}
</main>
<script type="application/json" id="entries-data">{data}</script>
<script>{_JS}</script>
</body></html>
"""
