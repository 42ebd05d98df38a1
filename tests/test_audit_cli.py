"""``verifier audit`` on the chemistry example as on a fresh clone (a copy of
``examples/chemistry``, an empty home folder, no ``../shared``, no ACE, no model), then
summary, export, reports (rendered in headless Chromium when available), ``--fail-on``,
usage errors, resume and change detection."""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from test_audit_support import CHEM, chromium, render

_ENV_DROP = ("VERIFIER_CONFIG", "VERIFIER_ACE", "VERIFIER_ERG", "VERIFIER_MRS_CACHE", "VERIFIER_LABELS")


def _run(args, cwd: Path, home: Path, timeout: float = 300):
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k not in _ENV_DROP}
    env["HOME"] = str(home)
    return subprocess.run([sys.executable, "-m", "verifier", "audit", *args], cwd=str(cwd), env=env,
                          capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def fresh(tmp_path_factory):
    """The README's main command in a fresh copy of the example."""
    base = tmp_path_factory.mktemp("fresh")
    clone, home = base / "clone", base / "home"
    home.mkdir()
    shutil.copytree(CHEM, clone / "examples" / "chemistry",
                    ignore=shutil.ignore_patterns("*.sqlite*", "make_extracts.py"))
    r = _run(["examples/chemistry/querylog.jsonl", "--report", "report.html", "--report", "report.md",
              "--workers", "2"], clone, home)
    assert r.returncode == 0, r.stderr
    return clone, home, r


def test_main_command_gives_real_verdicts(fresh):
    clone, home, r = fresh
    assert "verifier.toml (next to the log" in r.stderr
    store = clone / "examples" / "chemistry" / "querylog.audit.sqlite"
    db = sqlite3.connect(store)
    rows = {json.loads(f)["id"]: (st, d, v, e) for f, st, d, v, e in
            db.execute("SELECT fields, status, decision, verdict, error_kind FROM results")}
    n_lines = sum(1 for l in (CHEM / "querylog.jsonl").read_text().splitlines() if l.strip())
    assert len(rows) == n_lines >= 36
    assert rows["c01"] == ("ok", "accept", "faithful", None)          # mass of benzene, P2067
    assert rows["c02"][:3] == ("ok", "reject", "unsupported")          # boiling point instead of mass
    assert rows["c03"][:2] == ("ok", "reject")                         # direction swapped
    assert rows["c04"][:2] == ("ok", "accept")                         # toxicity -> LD50 (lexicon)
    assert rows["c29"][:3] == ("ok", "reject", "intent_mismatch")     # superlative without ORDER BY
    assert rows["c32"] == ("ok", "reject", "unknown", "query_error")   # malformed SPARQL
    assert rows["c34"] == ("input_error", None, None, "empty_question")
    assert rows["c35"][:2] == ("ok", "abstain")                        # out of domain, no MRS
    # the summary on stdout
    assert "Top unsupported properties" in r.stdout and "P2102" in r.stdout
    assert "chem-llm-a" in r.stdout and "Per model (field 'model')" in r.stdout
    # each line's model (its provenance) reaches the verifier and is kept with the verdict
    with_model = [(json.loads(f)["model"], json.loads(v)) for f, v in
                  db.execute("SELECT fields, verdict_json FROM results WHERE status = 'ok'")
                  if json.loads(f).get("model")]
    assert with_model and all(v["signals"]["provenance"] == {"model": m} for m, v in with_model)
    unsup = json.loads(db.execute("SELECT verdict_json FROM results WHERE line = 2").fetchone()[0])
    assert unsup["deductive"]["unsupported_atoms"] and unsup["timings_ms"]["total"] > 0


def test_summary_json_export_and_fail_on(fresh):
    clone, home, _ = fresh
    store = "examples/chemistry/querylog.audit.sqlite"
    r = _run(["summary", store, "--json"], clone, home)
    assert r.returncode == 0, r.stderr
    s = json.loads(r.stdout)
    assert s["complete"] and s["by_decision"]["accept"] >= 18 and s["input_errors"] == {"empty_question": 1}
    assert s["by_model"]["chem-llm-a"]["accept"] >= 18 and s["rates"]["reject_rate"] > 0.3
    assert any(p["id"] == "P2102" for p in s["top_properties"])
    r = _run(["export", "examples/chemistry/querylog.jsonl", "--format", "jsonl"], clone, home)
    rows = [json.loads(l) for l in r.stdout.splitlines()]
    assert r.returncode == 0 and len(rows) == s["records"]
    assert rows[0]["fields"]["model"] == "chem-llm-a" and rows[0]["verdict_json"]["decision"] == "accept"
    r = _run(["export", store, "--format", "csv", "-o", "out.csv"], clone, home)
    table = list(csv.DictReader(io.StringIO((clone / "out.csv").read_text())))
    assert r.returncode == 0 and len(table) == s["records"] and table[1]["decision"] == "reject"
    assert _run(["summary", store, "--quiet", "--fail-on", "reject_rate>0.05"], clone, home).returncode == 1
    assert _run(["summary", store, "--quiet", "--fail-on", "reject_rate>0.99,errors>5"], clone, home).returncode == 0
    assert _run(["summary", store, "--quiet", "--fail-on", "reject_rate>>1"], clone, home).returncode == 2
    assert _run(["summary", store, "--quiet", "--fail-on", "rejects>1"], clone, home).returncode == 2


def test_usage_errors_exit_2(fresh):
    clone, home, _ = fresh
    log = "examples/chemistry/querylog.jsonl"
    for args, msg in ((["missing.jsonl"], "no such log"),
                      ([log, "--report", "r.pdf"], ".html or .md"),
                      ([log, "--resume", "--restart"], "exclude"),
                      ([log, "--workers", "0"], "at least 1"),
                      ([log, "--question-field", "prompt", "--store", "other.sqlite"], "fields seen"),
                      (["summary", "nothing.sqlite"], "not an audit store")):
        r = _run(args, clone, home)
        assert r.returncode == 2, (args, r.stderr)
        assert msg in r.stderr, (args, r.stderr)


def _main(args, capsys):
    """``verifier audit ...`` in this process (the workers build the stand-in verifier)."""
    from verifier.cli import main

    code = main(["audit", *args, "--factory", "test_audit_support:stand_in", "--workers", "1", "--quiet"])
    out = capsys.readouterr()
    return code, out.err


def test_resume_appended_and_changed_log(tmp_path, capsys):
    log = tmp_path / "querylog.jsonl"
    log.write_text("\n".join((CHEM / "querylog.jsonl").read_text().splitlines()[:4]) + "\n")
    args = [str(log), "--no-log-config"]
    assert _main(args, capsys)[0] == 0
    code, err = _main(args + ["--resume"], capsys)                # complete: nothing to do
    assert code == 0 and "0 result(s) written" in err
    code, err = _main(args, capsys)                                # results exist: --resume needed
    assert code == 2 and "--resume" in err
    with open(log, "a") as f:                                      # a growing log
        f.write(json.dumps({"question": "What is the density of gold?",
                            "sparql": "SELECT ?d WHERE { wd:Q897 wdt:P2054 ?d }", "model": "late"}) + "\n")
    code, err = _main(args + ["--resume"], capsys)
    assert code == 0 and "appended" in err and "1 result(s) written" in err
    log.write_text(log.read_text().replace("benzene", "toluene", 1))  # an edited log
    code, err = _main(args + ["--resume"], capsys)
    assert code == 2 and "changed since the audit started" in err
    code, err = _main(args + ["--restart"], capsys)
    assert code == 0 and "5 result(s) written" in err
    other = tmp_path / "other.jsonl"
    other.write_text(log.read_text())
    code, err = _main([str(other), "--store", str(tmp_path / "querylog.audit.sqlite"), "--resume"], capsys)
    assert code == 2 and "same logs" in err


def test_changed_axioms_are_reported(tmp_path, capsys):
    pack = tmp_path / "pack" / "background"
    pack.mkdir(parents=True)
    axiom = pack / "extra.yaml"
    axiom.write_text('version: 1\naxioms:\n  - {name: sibling, axiom: "forall x y. wdt:P3373(x, y) -> wdt:P3373(y, x)"}\n')
    cfg = tmp_path / "verifier.toml"
    cfg.write_text('[axioms]\ndirs = ["pack"]\n')
    log = tmp_path / "log.jsonl"
    lines = (CHEM / "querylog.jsonl").read_text().splitlines()
    log.write_text("\n".join(lines[:2]) + "\n")
    args = [str(log), "--config", str(cfg)]
    assert _main(args, capsys)[0] == 0
    with open(log, "a") as f:
        f.write(lines[2] + "\n")
    axiom.write_text(axiom.read_text() + '  - {name: spouse, axiom: "forall x y. wdt:P26(x, y) -> wdt:P26(y, x)"}\n')
    code, err = _main(args + ["--resume"], capsys)
    assert code == 2 and "axiom pack" in err and "--allow-changes" in err
    code, err = _main(args + ["--resume", "--allow-changes"], capsys)
    assert code == 0 and "1 result(s) written" in err
    db = sqlite3.connect(tmp_path / "log.audit.sqlite")
    hashes = [h for (h,) in db.execute("SELECT axioms_sha256 FROM sessions ORDER BY session_id")]
    assert len(hashes) == 2 and hashes[0] != hashes[1]
    assert db.execute("SELECT COUNT(DISTINCT session_id) FROM results").fetchone()[0] == 2


def test_reports_are_self_contained_and_render_without_console_errors(fresh):
    clone, _, _ = fresh
    html = clone / "report.html"
    text = html.read_text()
    assert "http://" not in text.replace("http://www.w3.org/", "") and "https://" not in text
    assert "<script src" not in text and "Content-Security-Policy" in text
    assert "What is the mass of benzene?" in text and "data:image/svg+xml;base64," in text
    md = (clone / "report.md").read_text()
    assert "## Decisions" in md and "## Records not accepted" in md and "P2102" in md
    if chromium() is None:
        pytest.skip("no Chromium (apt-get install chromium) to render the report")
    png = clone / "report.png"
    console, dom = render(html, png)
    assert console == [], console
    n = sum(1 for l in (CHEM / "querylog.jsonl").read_text().splitlines() if l.strip())
    assert f'data-rendered="{n}"' in dom and dom.count('class="row"') == n
    assert png.stat().st_size > 20000


_INTERACT = """<script>
(function () {
  function rows() { return document.querySelectorAll("#entries tbody tr.row"); }
  var out = {};
  var s = document.getElementById("search");
  s.value = "benzene"; s.dispatchEvent(new Event("input"));
  out.search = rows().length;
  var d = document.getElementById("decision");
  d.value = "reject"; d.dispatchEvent(new Event("change"));
  out.search_reject = rows().length;
  rows()[0].click();
  out.detail = document.querySelectorAll("#entries tr.detail pre").length;
  s.value = ""; s.dispatchEvent(new Event("input")); d.value = ""; d.dispatchEvent(new Event("change"));
  var th = document.querySelector('#entries th[data-key="score"]');
  th.click(); th.click();
  out.top_score = rows()[0].children[4].textContent;
  document.body.setAttribute("data-check", JSON.stringify(out));
})();
</script></body>"""


def test_report_table_search_filter_detail_and_sort(fresh, tmp_path):
    if chromium() is None:
        pytest.skip("no Chromium")
    clone, _, _ = fresh
    text = (clone / "report.html").read_text()
    data = json.loads(text.split('id="entries-data">', 1)[1].split("</script>", 1)[0])
    keys = ("id", "question", "sparql", "explanation", "reason", "error", "model", "verdict", "log")
    hits = [e for e in data if "benzene" in " ".join(str(e[k]) for k in keys).lower()]
    page = tmp_path / "interactive.html"
    page.write_text(text.replace("</body>", _INTERACT))
    console, dom = render(page)
    assert console == [], console
    got = json.loads(html_unescape(dom.split('data-check="', 1)[1].split('"', 1)[0]))
    assert got["search"] == min(50, len(hits)) and got["search"] >= 5
    assert got["search_reject"] == len([e for e in hits if e["decision"] == "reject"]) >= 1
    assert got["detail"] >= 2                      # explanation and query at least
    assert got["top_score"] == "0.90"              # sorted by score, descending


def html_unescape(s: str) -> str:
    import html

    return html.unescape(s)


def test_the_console_check_detects_errors(tmp_path):
    if chromium() is None:
        pytest.skip("no Chromium")
    page = tmp_path / "bad.html"
    page.write_text('<!DOCTYPE html><html><body><img src="https://example.org/x.png">'
                    '<script>undefinedFunction();</script></body></html>')
    console, _ = render(page)
    assert any("undefinedFunction" in l for l in console)
