"""Candidate sets in ``verifier audit``: lines that share a question (far apart in the log)
are grouped after verification, their queries clustered, the consensus evidence stored per
record, shown in the summary, the reports and the export; the grouping pass resumes."""

from __future__ import annotations

import io
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from test_audit_support import CHEM, ROOT, chemistry_lines

BENZENE = "What is the mass of benzene?"
EXTRA = [  # appended far from the original lines of the question
    {"id": "x1", "model": "chem-llm-c", "question": "what is the  mass of BENZENE",
     "sparql": "SELECT ?mass WHERE { wd:Q2270 wdt:P2067 ?mass }", "score": -0.2},
    {"id": "x2", "model": "chem-llm-c", "question": "What is the mass of benzene ?",
     "sparql": "SELECT ?m WHERE { wd:Q2270 wdt:P2067 ?m . }", "score": -0.4},
]


def light_config(folder: Path) -> Path:
    """The chemistry example's MRS and labels and a generous prover time-out."""
    p = folder / "verifier.toml"
    p.write_text(f'[mrs]\ncorpora = ["{CHEM / "mrs.jsonl.gz"}"]\n[grounding]\nlabels = "{CHEM / "kg-labels.tsv"}"\n'
                 '[deductive]\ntimeout_ms = 60000\n', encoding="utf-8")
    return p


def _write(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def _audit(log: Path, store: Path, cfg: Path, **kw):
    from verifier.audit.engines import EngineOptions
    from verifier.audit.grouping import GroupingOptions
    from verifier.audit.runner import AuditOptions, run_audit
    from verifier.config import load_config

    grouping = kw.pop("grouping", GroupingOptions())
    return run_audit(AuditOptions(logs=(log,), store=store, config=load_config(cfg, environ={}),
                                  engine_options=EngineOptions(workers=1), grouping=grouping, **kw))


def _groups(store: Path) -> dict[str, tuple[int, int, list]]:
    db = sqlite3.connect(store)
    return {k: (n, c, json.loads(cl)["clusters"]) for k, n, c, cl in
            db.execute("SELECT group_key, n, n_clusters, clustering FROM consensus_groups")}


@pytest.fixture(scope="module")
def audited(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("consensus-audit")
    cfg = light_config(tmp)
    log = _write(tmp / "log.jsonl", chemistry_lines() + EXTRA)
    store = tmp / "log.audit.sqlite"
    out = _audit(log, store, cfg)
    assert out.status == "complete"
    return tmp, cfg, log, store, out


def test_lines_of_a_question_far_apart_form_one_candidate_set(audited):
    _, _, log, store, out = audited
    groups = _groups(store)
    n, n_clusters, clusters = groups["q:what is the mass of benzene"]
    from verifier.audit.grouping import question_key

    lines = [i + 1 for i, r in enumerate(chemistry_lines() + EXTRA)
             if question_key(r["question"]) == "what is the mass of benzene"]
    assert n == len(lines) == 5
    # c01 (P2067) and the two appended renamings agree; the boiling point and the swapped query do not
    assert clusters[0] == [0, 3, 4] and n_clusters == 3
    assert out.grouping is not None and out.grouping.groups == len(groups) and out.grouping.clustered == len(groups)
    db = sqlite3.connect(store)
    ev = {line: json.loads(e) for line, e in db.execute("SELECT line, evidence FROM consensus")}
    first, boiling = ev[lines[0]], ev[lines[1]]
    assert first["cluster_size"] == 3 and first["others_share"] == 0.5 and first["n_candidates"] == 5
    assert boiling["difference"] == "1 of 5 candidates uses P2102 (boiling point) where 3 use P2067 (mass)"
    # the cluster-level deductive evidence, from the lines' stored verdicts (faithful = accepted)
    verdicts = {line: v for line, v in db.execute("SELECT line, verdict FROM results")}
    members = [lines[i] for i in clusters[0]]
    assert first["largest_other"] == 1 and boiling["largest_other"] == 3
    assert first["cluster_accepted"] == sum(verdicts[m] == "faithful" for m in members if m != lines[0])
    assert boiling["elsewhere_accepted"] == sum(verdicts[m] == "faithful" for m in lines if m != lines[1])
    # a question asked once has no consensus row
    once = [i + 1 for i, r in enumerate(chemistry_lines()) if r["id"] == "c35"][0]
    assert once not in ev


def test_summary_report_and_export_show_the_candidate_sets(audited):
    tmp, _, _, store, _ = audited
    from verifier.audit.export import export
    from verifier.audit.groups import select_groups
    from verifier.audit.report_html import render_html
    from verifier.audit.report_md import render_markdown
    from verifier.audit.store import AuditStore
    from verifier.audit.summary import format_summary, metrics, summarize
    from verifier.audit.entries import select_entries

    with AuditStore(store, create=False) as st:
        s = summarize(st)
        assert s.consensus["questions"] >= 10 and s.consensus["split"] >= 10
        assert "Candidate sets:" in format_summary(s) and metrics(s)["split_questions"] == s.consensus["split"]
        groups, total = select_groups(st, limit=3)
        assert len(groups) == 3 and total == s.consensus["questions"]
        assert groups[0].question.startswith("What is the mass of benzene") and groups[0].n == 5
        assert groups[0].clusters[0].size == 3 and "wdt:P2067" in groups[0].clusters[0].sparql
        entries, n = select_entries(st)
        md = render_markdown(s, entries, n, groups=groups, total_groups=total)
        html = render_html(s, entries, n, groups=groups, total_groups=total)
        buf = io.StringIO()
        export(st, "jsonl", buf)
    assert "## Candidate sets" in md and "uses P2102 (boiling point) where 3 use P2067 (mass)" in md
    assert "3 shown (split questions first)" in md
    assert html.count('<details class="group"') == 3 and "P2102 (boiling point)" in html
    rows = [json.loads(l) for l in buf.getvalue().splitlines()]
    by_id = {r["record_id"]: r for r in rows}
    assert by_id["1"]["consensus"]["n_candidates"] == 5
    assert sum(1 for r in rows if r["consensus"] is None) >= 2


def test_resume_groups_appended_lines_and_reclusters_only_grown_groups(audited, tmp_path):
    _, cfg, log, store, _ = audited
    import shutil

    log2, store2 = tmp_path / "log.jsonl", tmp_path / "log.audit.sqlite"
    shutil.copy(log, log2)
    first = _audit(log2, store2, cfg)
    with open(log2, "a", encoding="utf-8") as f:
        f.write(json.dumps({"id": "x3", "model": "m", "question": BENZENE,
                            "sparql": "SELECT ?v WHERE { wd:Q2270 wdt:P2067 ?v }"}) + "\n")
    again = _audit(log2, store2, cfg, resume=True)
    assert again.status == "complete" and again.written == 1
    assert again.grouping.clustered == 1 and again.grouping.groups == first.grouping.groups
    n, _, clusters = _groups(store2)["q:what is the mass of benzene"]
    assert n == 6 and clusters[0] == [0, 3, 4, 5]
    # an interrupted pass (two groups not written) is finished by the next one, and only those
    before = _groups(store2)
    db = sqlite3.connect(store2)
    db.execute("DELETE FROM consensus_groups WHERE group_key IN (SELECT group_key FROM consensus_groups LIMIT 2)")
    db.commit()
    db.close()
    from verifier.audit.grouping import GroupingOptions, run_grouping
    from verifier.audit.store import AuditStore

    with AuditStore(store2) as st:
        st.lock()
        done = run_grouping(st, GroupingOptions())
    assert done.clustered == 2 and done.keyed == 0 and done.groups == first.grouping.groups
    assert _groups(store2) == before
    finished = _audit(log2, store2, cfg, resume=True)
    assert finished.written == 0 and finished.grouping.clustered == 0


def test_group_by_a_question_id_and_weighted_agreement(tmp_path):
    from verifier.audit.grouping import GroupingOptions

    cfg = light_config(tmp_path)
    recs = [{"qid": "q1", "question": BENZENE, "sparql": "SELECT ?v WHERE { wd:Q2270 wdt:P2067 ?v }", "p": 0.7},
            {"qid": "q1", "question": "Benzene: its mass?", "sparql": "SELECT ?v WHERE { wd:Q2270 wdt:P2102 ?v }",
             "p": 0.2},
            {"qid": "q1", "question": "mass of benzene", "sparql": "SELECT ?x WHERE { wd:Q2270 wdt:P2067 ?x }", "p": 0.1},
            {"question": BENZENE, "sparql": "SELECT ?v WHERE { wd:Q2270 wdt:P2067 ?v }"},
            {"qid": None, "question": "what is the mass of benzene", "sparql": "SELECT ?v WHERE { ?v wdt:P2067 wd:Q2270 }"}]
    log = _write(tmp_path / "ids.jsonl", recs)
    out = _audit(log, tmp_path / "ids.sqlite", cfg, grouping=GroupingOptions(group_by="qid", score_field="p"))
    groups = _groups(tmp_path / "ids.sqlite")
    assert set(groups) == {"id:q1", "q:what is the mass of benzene"}
    assert groups["id:q1"][2] == [[0, 2], [1]] and groups["q:what is the mass of benzene"][0] == 2
    db = sqlite3.connect(tmp_path / "ids.sqlite")
    ev = {line: json.loads(e) for line, e in db.execute("SELECT line, evidence FROM consensus")}
    assert ev[1]["weighted_agreement"] == pytest.approx(0.8) and ev[2]["weighted_agreement"] == pytest.approx(0.2)
    assert out.grouping.clustered == 2
    # grouping again by text discards the derived tables and groups anew
    again = _audit(log, tmp_path / "ids.sqlite", cfg, resume=True)
    assert set(_groups(tmp_path / "ids.sqlite")) == {"q:what is the mass of benzene"}
    assert again.grouping.keyed == 5


def test_answer_agreement_from_a_recorded_answers_field(tmp_path):
    from verifier.audit.grouping import GroupingOptions, recorded_answers

    cfg = light_config(tmp_path)
    # four runs of one question: two non-equivalent queries with the same recorded answers,
    # one with other answers, one with a row count only
    recs = [{"qid": "q1", "question": BENZENE, "sparql": "SELECT ?v WHERE { wd:Q2270 wdt:P2067 ?v }",
             "answers": ["78.11"]},
            {"qid": "q1", "question": BENZENE, "sparql": "SELECT ?m WHERE { ?c rdfs:label \"benzene\"@en . "
             "?c wdt:P2067 ?m }", "answers": [["78.11"]]},
            {"qid": "q1", "question": BENZENE, "sparql": "SELECT ?v WHERE { wd:Q2270 wdt:P2102 ?v }",
             "answers": ["353.2"]},
            {"qid": "q1", "question": BENZENE, "sparql": "SELECT ?v WHERE { ?v wdt:P2067 wd:Q2270 }",
             "answers": 0}]
    log = _write(tmp_path / "ans.jsonl", recs)
    _audit(log, tmp_path / "ans.sqlite", cfg, grouping=GroupingOptions(group_by="qid", answers_field="answers"))
    db = sqlite3.connect(tmp_path / "ans.sqlite")
    ev = {line: json.loads(e) for line, e in db.execute("SELECT line, evidence FROM consensus")}
    assert len({e["cluster_index"] for e in ev.values()}) == 4  # none provably equivalent
    assert ev[1]["answer_agreement"] == pytest.approx(1 / 3, abs=1e-3) == ev[2]["answer_agreement"]
    assert ev[3]["answer_agreement"] == 0.0 and ev[4].get("answer_agreement") is None
    assert recorded_answers(7)["n_answers"] == 7 and recorded_answers("7") is None
    assert recorded_answers(None) is None and recorded_answers(True) is None


def test_a_log_of_unique_questions_costs_no_clustering(tmp_path):
    cfg = light_config(tmp_path)
    seen, recs = set(), []
    for r in chemistry_lines():
        if r["question"].strip() and r["question"] not in seen:
            seen.add(r["question"])
            recs.append(r)
    out = _audit(_write(tmp_path / "unique.jsonl", recs), tmp_path / "unique.sqlite", cfg)
    assert out.grouping.groups == 0 and out.grouping.clustered == 0 and out.grouping.prover_checks == 0
    db = sqlite3.connect(tmp_path / "unique.sqlite")
    assert db.execute("SELECT COUNT(*) FROM consensus").fetchone()[0] == 0
    assert db.execute("SELECT COUNT(*) FROM consensus_keys").fetchone()[0] == len(recs)


def test_cli_group_by_and_report(tmp_path):
    cfg = light_config(tmp_path)
    log = _write(tmp_path / "cli.jsonl", chemistry_lines()[:6] + EXTRA)
    env = {"PYTHONPATH": str(ROOT), "HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    r = subprocess.run([sys.executable, "-m", "verifier", "audit", str(log), "--config", str(cfg), "--workers", "1",
                        "--report", str(tmp_path / "r.md"), "--report-groups", "1", "--score-field", "score"],
                       cwd=str(tmp_path), env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert "candidate sets: 2 question(s) with several candidates" in r.stderr
    assert "Candidate sets: 2 question(s)" in r.stdout
    md = (tmp_path / "r.md").read_text()
    assert md.count("\n### ") == 1 and "1 shown" in md
    bad = subprocess.run([sys.executable, "-m", "verifier", "audit", str(log), "--consensus-budget", "0",
                          "--restart"], cwd=str(tmp_path), env=env, capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "--consensus-budget" in bad.stderr


def test_groups_clustered_in_worker_processes_equal_inline_ones(audited, tmp_path, monkeypatch):
    import shutil

    import verifier.audit.grouping as grouping
    from verifier.audit.store import AuditStore

    _, _, _, store, _ = audited
    copy = tmp_path / "copy.sqlite"
    shutil.copy(store, copy)
    inline = _groups(copy)
    db = sqlite3.connect(copy)
    db.execute("DELETE FROM consensus_groups")
    db.execute("DELETE FROM consensus")
    db.commit()
    db.close()
    monkeypatch.setattr(grouping, "_INLINE_GROUPS", 2)
    with AuditStore(copy) as st:
        st.lock()
        out = grouping.run_grouping(st, grouping.GroupingOptions(workers=2, batch_groups=3))
    assert out.clustered == len(inline) > 2
    assert _groups(copy) == inline
