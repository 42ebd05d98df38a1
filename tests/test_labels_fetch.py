"""Fetching labels over HTTP (verifier.labels.fetch / sync) against a local stand-in of the
Wikidata API and query service (tests/labels_server.py): batches, retries on 429 (honouring
Retry-After), 500, time-outs and maxlag, missing ids, the rate limit, the cache in the store,
``verifier labels fetch`` and on-demand fetches at verify time."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from labels_server import LabelServer, entities_from_tsv, entity_json
from verifier.labels.ids import ids_in_sparql
from verifier.labels.fetch import Fetcher, FetchOptions, FetchStats, parse_sparql_results, parse_wbgetentities
from verifier.labels.store import LabelStore
from verifier.labels.sync import OnDemand, fetch_into

ROOT = Path(__file__).resolve().parents[1]
CHEM = ROOT / "examples" / "chemistry"
FIXTURES = ROOT / "tests" / "fixtures" / "labels"


class Recorder:
    """A ``sleep`` that records the waits asked for and sleeps at most 20 ms of each."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    def __call__(self, s: float) -> None:
        self.waits.append(s)
        time.sleep(min(s, 0.02))


@pytest.fixture
def server():
    with LabelServer() as s:
        yield s


def fetcher(server: LabelServer, *, sparql: bool = False, sleep=None, **kw) -> Fetcher:
    opts = dict(timeout=5.0, retries=3, backoff=0.01, rate=0)
    opts.update(kw)
    o = FetchOptions(endpoint=server.sparql, **opts) if sparql else FetchOptions(api=server.api, **opts)
    return Fetcher(o, sleep=sleep or Recorder())


# ------------------------------------------------------------------ answers as Wikidata writes them

def test_parse_recorded_wbgetentities_answer():
    data = json.loads((FIXTURES / "wbgetentities.json").read_text())
    asked = ["Q2270", "P2067", "P527", "Q42", "Q4917", "Q3089409", "Q999999999", "Q12345"]
    res = parse_wbgetentities(data, asked)
    by_id = {s.id: s for s in res.symbols}
    assert by_id["Q2270"].label == "benzene" and by_id["Q2270"].aliases == ("benzol", "C6H6")
    assert by_id["Q2270"].description == "chemical compound"
    assert by_id["P2067"].kind.value == "property" and by_id["P527"].label == "has part(s)"
    # the redirected id is named by its target's names; the target was not asked
    assert by_id["Q4917"].label == "United States of America" and "Q30" not in by_id
    assert set(res.missing) == {"Q999999999", "Q12345"}  # unknown, and absent from the answer
    assert res.no_english == ("Q3089409",)                # exists, no English name


def test_parse_recorded_sparql_results():
    data = json.loads((FIXTURES / "sparql_results.json").read_text())
    res = parse_sparql_results(data, ["Q2270", "P2067", "Q42", "Q7"])
    by_id = {s.id: s for s in res.symbols}
    assert by_id["Q2270"].aliases == ("benzol", "C6H6") and by_id["P2067"].kind.value == "property"
    assert by_id["Q42"].description == "" and res.no_english == ("Q7",)


# ------------------------------------------------------------------ the fetcher

def test_api_batches_of_50_with_the_tool_user_agent(server):
    server.add({f"Q{1000 + i}": entity_json(f"Q{1000 + i}", f"thing {i}") for i in range(120)})
    st = FetchStats()
    res = fetcher(server).fetch([f"Q{1000 + i}" for i in range(120)], stats=st)
    assert len(res.symbols) == 120 and not res.failed
    assert st.requests == 3 and [len(r["ids"]) for r in server.requests] == [50, 50, 20]
    assert all(r["user_agent"].startswith("sparql-verifier/") for r in server.requests)


def test_retries_429_with_retry_after_and_500(server):
    server.faults.extend([{"status": 429, "retry_after": "1"}, {"status": 500}])
    sleep = Recorder()
    st = FetchStats()
    res = fetcher(server, sleep=sleep).fetch(["Q2270", "P2067"], stats=st)
    assert {s.id for s in res.symbols} == {"Q2270", "P2067"}
    assert st.requests == 3 and st.retries == 2
    assert sleep.waits[0] == 1.0            # Retry-After honoured
    assert sleep.waits[1] == pytest.approx(0.02)  # then backoff * 2 ** 1


def test_timeout_is_retried(server):
    server.faults.append({"sleep": 1.5})
    st = FetchStats()
    res = fetcher(server, timeout=0.3).fetch(["Q42"], stats=st)
    assert [s.label for s in res.symbols] == ["Douglas Adams"]
    assert st.requests == 2 and st.retries == 1


def test_maxlag_answer_is_retried_after_its_wait(server):
    server.faults.append({"json": "maxlag.json", "retry_after": "2"})
    sleep = Recorder()
    res = fetcher(server, sleep=sleep).fetch(["Q42"])
    assert len(res.symbols) == 1 and sleep.waits[0] == 2.0


def test_retries_spent_fail_the_batch_only(server):
    server.faults.extend([{"status": 503}] * 3)
    st = FetchStats()
    res = fetcher(server, retries=2, batch=1).fetch(["Q42", "Q2270"], stats=st)
    assert res.failed == ("Q42",) and [s.id for s in res.symbols] == ["Q2270"]
    assert st.failures == 1 and "503" in st.errors[0]


def test_client_error_is_not_retried(server):
    server.faults.append({"status": 403})
    st = FetchStats()
    res = fetcher(server).fetch(["Q42"], stats=st)
    assert res.failed == ("Q42",) and st.requests == 1 and st.retries == 0


def test_malformed_id_is_dropped_and_the_rest_asked_again(server):
    st = FetchStats()
    res = fetcher(server).fetch(["Q0", "Q42", "Q999999999"], stats=st)
    assert [s.id for s in res.symbols] == ["Q42"]
    assert set(res.missing) == {"Q0", "Q999999999"} and st.requests == 2


def test_rate_limit_spaces_requests():
    """With a clock that only the waits move, 5 requests at 4 per second wait 1 s in all."""
    with LabelServer() as server:
        now = [0.0]
        waits: list[float] = []

        def sleep(s: float) -> None:
            waits.append(s)
            now[0] += s

        f = Fetcher(FetchOptions(api=server.api, batch=1, rate=4.0, backoff=0.01), sleep=sleep,
                    clock=lambda: now[0])
        f.fetch(["Q42", "Q2270", "P2067", "P527", "Q30"])
        assert len(server.requests) == 5
        assert sum(waits) == pytest.approx(1.0) and len(waits) == 4


def test_sparql_endpoint(server):
    server.add({"Q153": entity_json("Q153", "ethanol", ["ethyl alcohol"], "chemical compound")})
    st = FetchStats()
    res = fetcher(server, sparql=True).fetch(["Q2270", "Q153", "Q7"], stats=st)
    by_id = {s.id: s for s in res.symbols}
    assert by_id["Q153"].aliases == ("ethyl alcohol",) and by_id["Q2270"].label == "benzene"
    assert res.no_english == ("Q7",) and st.requests == 1


def test_deadline_stops_early(server):
    server.faults.append({"sleep": 2.0})
    f = fetcher(server, timeout=10.0)
    res = f.fetch(["Q42"], deadline=time.monotonic() + 0.3)
    assert res.failed == ("Q42",)


# ------------------------------------------------------------------ the cache in the store

def test_fetch_into_store_counts_cache_hits_and_remembers_missing(server, tmp_path):
    store = LabelStore(tmp_path / "s.sqlite")
    f = fetcher(server)
    first = fetch_into(store, f, ["Q2270", "P2067", "Q999999999", "Q3089409"])
    assert (first.fetched, first.missing, first.no_english, first.cache_hits) == (2, 1, 1, 0)
    assert store.entity("Q2270").source == f"api:{server.api}"
    asked = len(server.requests)
    again = fetch_into(store, f, ["Q2270", "P2067", "Q999999999", "Q3089409", "Q42"])
    assert (again.cache_hits, again.known_missing, again.fetched) == (2, 2, 1)
    assert len(server.requests) == asked + 1 and server.requests[-1]["ids"] == ["Q42"]
    # after the missing-id time has passed, unknown ids are asked again
    later = fetch_into(store, f, ["Q999999999"], missing_ttl=0.0)
    assert later.missing == 1 and len(server.requests) == asked + 2
    assert fetch_into(store, f, ["Q2270"], refresh=True).fetched == 1


def test_cli_fetch_from_a_query_log(server, tmp_path, monkeypatch, capsys):
    from verifier.cli import main

    server.add(entities_from_tsv(CHEM / "kg-labels.tsv"))
    store = tmp_path / "labels.sqlite"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HOME": str(tmp_path)}
    args = ["labels", "fetch", "--log", str(CHEM / "querylog.jsonl"), "--api", server.api,
            "--store", str(store), "--json", "--rate", "0"]
    out = subprocess.run([sys.executable, "-m", "verifier", *args], capture_output=True, text=True, env=env,
                         cwd=ROOT, timeout=300)
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    ids = {i for l in (CHEM / "querylog.jsonl").read_text().splitlines() if l.strip()
           for i in ids_in_sparql(json.loads(l)["sparql"])}
    assert d["asked"] == len(ids) and d["fetched"] + d["missing"] == len(ids) and d["cache_hits"] == 0
    assert d["requests"] == -(-len(ids) // 50)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    assert main(args) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["cache_hits"] == d["fetched"] and again["requests"] == 0
    # no source: a usage error
    assert main(["labels", "fetch", "Q42", "--store", str(store)]) == 2
    assert "no label source" in capsys.readouterr().err


# ------------------------------------------------------------------ on demand, at verify time

def _chemistry_verifier(labels):
    from verifier.api import Verifier
    from verifier.config import Config
    from verifier.mrs_cache import MrsCorpus

    return Verifier(Config({"grounding": {"wordnet": "none"}}), labels=labels,
                    mrs=MrsCorpus([CHEM / "mrs.jsonl.gz"]))


def test_verify_fetches_absent_ids_on_demand(server, tmp_path):
    from verifier.labels.configured import configured_labels
    from verifier.config import Config
    from verifier.lexical import LabelIndex

    server.add(entities_from_tsv(CHEM / "kg-labels.tsv"))
    cfg = Config({"labels": {"store": str(tmp_path / "s.sqlite"), "api": server.api, "rate": 0}})
    index = configured_labels(cfg)
    assert len(index) == 0 and index.on_demand is not None
    fetched = _chemistry_verifier(index)
    reference = _chemistry_verifier(LabelIndex.from_labels_tsv(CHEM / "kg-labels.tsv"))
    q = "What is the mass of benzene?"
    for sparql in ("SELECT ?v WHERE { wd:Q2270 wdt:P2067 ?v }", "SELECT ?v WHERE { ?v wdt:P2067 wd:Q2270 }"):
        a, b = fetched.verify(q, sparql), reference.verify(q, sparql)
        assert (a.decision, a.explanation) == (b.decision, b.explanation)
        assert "labels" in a.timings
    assert index.label("Q2270") == "benzene" and index.label("P2067") == "mass"
    n = len(server.requests)
    fetched.verify(q, "SELECT ?v WHERE { wd:Q2270 wdt:P2067 ?v }")
    assert len(server.requests) == n  # stored: not asked again


def test_unreachable_endpoint_leaves_the_record_unlabelled(server, tmp_path):
    from verifier.labels.index import StoreLabelIndex

    server.faults.extend([{"sleep": 3.0}] * 5)
    store = LabelStore(tmp_path / "s.sqlite")
    demand = OnDemand(store, FetchOptions(api=server.api, timeout=5.0, rate=0, backoff=0.01),
                      budget=0.4, cooldown=600)
    index = StoreLabelIndex(store, on_demand=demand)
    v = _chemistry_verifier(index)
    verdict = v.verify("What is the mass of benzene?", "SELECT ?v WHERE { wd:Q2270 wdt:P2067 ?v }")
    # a verdict as without labels (here the axiom lexicons still name both), not an error
    assert verdict.error is None and verdict.explanation and "internal error" not in verdict.explanation
    assert index.label("Q2270") is None and index.label("P2067") is None
    n = len(server.requests)
    v.verify("What is the mass of benzene?", "SELECT ?v WHERE { wd:Q2270 wdt:P2067 ?v }")
    assert len(server.requests) == n  # paused after the failure: no time-out per record
    assert store.known(["Q2270"])[1] == set()  # a failure is not recorded as missing


def test_threads_fetch_on_demand_into_one_store(server, tmp_path):
    """Four threads ask for overlapping ids through one index: each id ends up stored once
    with its labels, no SQLite error, and ids stored are not asked again."""
    from concurrent.futures import ThreadPoolExecutor

    from verifier.labels.index import StoreLabelIndex

    server.add(entities_from_tsv(CHEM / "kg-labels.tsv"))
    tsv = {l.split("\t")[0]: l.split("\t")[1] for l in (CHEM / "kg-labels.tsv").read_text().splitlines()[1:]}
    store = LabelStore(tmp_path / "s.sqlite")
    index = StoreLabelIndex(store, on_demand=OnDemand(store, FetchOptions(api=server.api, rate=0, batch=5)))
    ids = sorted(tsv)

    def work(k: int) -> None:
        for i in range(0, len(ids), 4):
            part = ids[(i + k) % len(ids):][:6]
            index.ensure(part)
            for sid in part:
                assert index.label(sid) is not None, sid

    with ThreadPoolExecutor(4) as pool:
        list(pool.map(work, range(4)))  # re-raises a thread's error
    assert all(index.label(sid) == indexed_label(tsv, sid) for sid in ids)
    assert store.named_count() == len(ids)
    n = len(server.requests)
    index.ensure(ids)
    assert len(server.requests) == n


def indexed_label(tsv: dict, sid: str) -> str:
    """The label the index keeps for a TSV row (status notes dropped ...)."""
    from verifier.lexical import name_entries

    return name_entries(sid, [tsv[sid]], "property" if sid.startswith("P") else "item")[0].name
