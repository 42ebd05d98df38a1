"""Unit tests of the audit's reader, store, conditions and reason derivation (no verifier)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from verifier.audit.conditions import ConditionError, failing, parse_conditions
from verifier.audit.derive import reason_kinds, unsupported_symbols
from verifier.audit.identity import compare_log, log_fingerprint
from verifier.audit.reader import (FieldMap, LogFormatError, ReaderOptions, ReadStats, count_lines,
                                   detect_format, preflight, read_log)
from verifier.audit.records import Result
from verifier.audit.store import AuditStore

Q = "What is the mass of benzene?"
S = "SELECT ?v WHERE { wd:Q2270 wdt:P2067 ?v . }"


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def test_jsonl_bad_lines_are_records_with_line_numbers(tmp_path):
    lines = [
        json.dumps({"question": Q, "sparql": S, "model": "m1", "timestamp": "t"}).encode(),
        b"",                                   # blank: not a record
        b'{"question": "What", "sparql": ',    # invalid JSON
        b"[1, 2]",                             # not an object
        json.dumps({"question": "  ", "sparql": S}).encode(),
        json.dumps({"question": Q, "sparql": None}).encode(),
        json.dumps({"question": Q, "sparql": ["SELECT"]}).encode(),
        json.dumps({"question": Q}).encode(),
        json.dumps({"question": Q, "sparql": ""}).encode(),
        b'{"question": "caf\xe9?", "sparql": "ASK {}"}',   # Latin-1 byte, not UTF-8
        json.dumps({"question": "x" * 5000, "sparql": S}).encode(),
        json.dumps({"question": Q, "sparql": S}).encode(),  # last line, no newline
    ]
    p = _write(tmp_path / "log.jsonl", b"\n".join(lines))
    st = ReadStats()
    recs = list(read_log(p, 7, ReaderOptions(max_line_bytes=1000), st))
    got = [(r.line, r.error_kind) for r in recs]
    assert got == [(1, None), (3, "invalid_json"), (4, "not_an_object"), (5, "empty_question"),
                   (6, "not_a_string"), (7, "not_a_string"), (8, "missing_field"), (9, "empty_query"),
                   (10, "undecodable"), (11, "line_too_long"), (12, None)]
    assert recs[0].fields == {"model": "m1", "timestamp": "t"} and recs[0].log_id == 7
    assert recs[0].record_id == "1" and recs[-1].question == Q
    assert "null" in recs[4].error and "'sparql'" in recs[6].error
    assert "5,0" in recs[9].error and recs[2].fields["raw"].startswith("[1")
    assert (st.lines, st.blank, st.records, st.errors) == (12, 1, 11, 9)


def test_id_field_and_nested_fields(tmp_path):
    p = _write(tmp_path / "log.jsonl", (json.dumps({"req": {"id": "a1", "q": Q}, "out": S}) + "\n").encode())
    [r] = read_log(p, 1, ReaderOptions(fields=FieldMap("req.q", "out", "req.id")))
    assert (r.record_id, r.question, r.sparql, r.error) == ("a1", Q, S, None)


def test_gzip_is_detected_by_content_and_hash_is_of_the_line(tmp_path):
    body = (json.dumps({"question": Q, "sparql": S}) + "\n").encode()
    plain = _write(tmp_path / "a.jsonl", body)
    gz = tmp_path / "b.log"                 # no telling extension: sniffed, gunzipped
    with gzip.open(gz, "wb") as f:
        f.write(body)
    a, b = next(read_log(plain)), next(read_log(gz))
    assert a.question == b.question == Q and a.content_hash == b.content_hash
    crlf = _write(tmp_path / "c.jsonl", body.replace(b"\n", b"\r\n"))
    assert next(read_log(crlf)).content_hash == a.content_hash
    assert detect_format(gz) == "jsonl" and count_lines(gz) == 1


def test_csv_multiline_quoted_query_and_tsv(tmp_path):
    csv_text = ('id,question,sparql,model\n'
                f'a,"{Q}","SELECT ?v\nWHERE {{ wd:Q2270 wdt:P2067 ?v }}",m1\n'
                '\n'
                'b,"What, if anything?","ASK {}",m2\n'
                'c,only a question\n')
    p = _write(tmp_path / "log.csv", csv_text.encode())
    recs = list(read_log(p, 1, ReaderOptions(fields=FieldMap(id="id"))))
    assert [(r.line, r.record_id, r.error_kind) for r in recs] == [(2, "a", None), (5, "b", None),
                                                                     (6, "c", "missing_field")]
    assert recs[0].sparql.startswith("SELECT ?v\nWHERE") and recs[0].fields["model"] == "m1"
    t = _write(tmp_path / "log.tsv", f"question\tsparql\n{Q}\t{S}\n".encode())
    [r] = read_log(t)
    assert (r.line, r.question, r.sparql) == (2, Q, S)


def test_preflight_names_the_missing_fields(tmp_path):
    p = _write(tmp_path / "log.csv", b"prompt,query\na,b\n")
    with pytest.raises(LogFormatError, match="no column 'question'.*prompt, query"):
        preflight(p)
    j = _write(tmp_path / "log.jsonl", b'{"prompt": "a", "query": "b"}\n')
    with pytest.raises(LogFormatError, match="fields seen: prompt, query"):
        preflight(j)
    assert preflight(j, ReaderOptions(fields=FieldMap("prompt", "query"))) == "jsonl"


def test_log_fingerprint_same_appended_changed(tmp_path):
    p = _write(tmp_path / "log.jsonl", b'{"a": 1}\n')
    fp = log_fingerprint(p)
    assert compare_log(fp, p)[0] == "same"
    p.write_bytes(b'{"a": 1}\n{"a": 2}\n')
    assert compare_log(fp, p)[0] == "appended"
    p.write_bytes(b'{"a": 3}\n{"a": 2}\n')
    assert compare_log(fp, p)[0] == "changed"


def _result(line: int, **kw) -> Result:
    base = dict(log_id=1, line=line, record_id=str(line), content_hash="h", status="ok", question=Q,
                sparql=S, fields={"model": "m"}, decision="accept", score=0.9, verdict="faithful")
    base.update(kw)
    return Result(**base)


def test_store_is_idempotent_and_pages_in_line_order(tmp_path):
    with AuditStore(tmp_path / "s.sqlite") as st:
        st.lock()
        with pytest.raises(Exception, match="another audit"):
            AuditStore(tmp_path / "s.sqlite").lock()
        lid = st.add_log("/x.jsonl", "jsonl", {}, 1, 0.0, "abc")
        sid = st.start_session({"verifier_version": "t"}, engine="local", workers=1)
        assert st.write([_result(3), _result(1)], sid) == (2, 0)
        assert st.write([_result(1, decision="reject"), _result(2)], sid) == (1, 1)
        assert [l for l, _ in st.stored_lines(lid, page=1)] == [1, 2, 3]
        rows = list(st.iter_rows(("line", "decision"), page=2))
        assert rows == [{"line": 1, "decision": "accept"}, {"line": 2, "decision": "accept"},
                        {"line": 3, "decision": "accept"}]
        assert st.sessions()[0].duplicates_ignored == 1 and st.sessions()[0].records_written == 3


def test_not_an_audit_store(tmp_path):
    import sqlite3

    db = sqlite3.connect(tmp_path / "other.sqlite")
    db.execute("CREATE TABLE t (x)")
    db.close()
    with pytest.raises(Exception, match="not an audit store"):
        AuditStore(tmp_path / "other.sqlite")


def test_conditions():
    c = parse_conditions("reject_rate>5%, errors >= 1")
    assert [x.metric for x in c] == ["reject_rate", "errors"] and c[0].value == pytest.approx(0.05)
    assert [x.text for x in failing(c, {"reject_rate": 0.06, "errors": 0})] == ["reject_rate>5%"]
    assert failing(c, {"reject_rate": 0.05, "errors": 0}) == []
    for bad in ("reject_rate", "rate>>1", "", "x > abc"):
        with pytest.raises(ConditionError):
            parse_conditions(bad)
    with pytest.raises(ConditionError, match="unknown metric"):
        failing(parse_conditions("rejects>1"), {"reject": 1})


def test_reason_kinds_and_unsupported_symbols():
    d = {"deductive": {"reason": "wdt:P2102(wd:Q2270, x3): P2102 (boiling point) is not supported: no word "
                                 "of the question names it; s > 0.07: the question does not relate these terms this way",
                       "unsupported_atoms": [{"atom": "wdt:P2102(wd:Q2270, x3)",
                                              "why": "P2102 (boiling point) is not supported: no word of the "
                                                     "question names it; Q1 (a (b) c) is not supported: x"}]}}
    assert reason_kinds(d) == ("<P> is not supported: no word of the question names it",
                               "the question does not relate these terms this way")
    assert unsupported_symbols(d) == (("P2102", "boiling point"), ("Q1", "a (b) c"))
    assert reason_kinds({"error": "unexpected end of query at line 1, column 39; expected one of: '('"}) == \
        ("unexpected end of query",)
