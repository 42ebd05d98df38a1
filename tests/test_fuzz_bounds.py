"""Bounded work whatever the input (issue 58): mutated and oversized questions and queries
each get a verdict (abstain or reject, with a reason) and never stop a batch; a hostile
3,000-triple query abstains with the reason; a passed deadline abstains with its stage.

The verifier reads the shared MRS corpus and labels when ``../shared/data`` is there (the
pairs then reach the deductive pipeline); without them it still runs (the questions then have
no grammar reading), so none of these tests needs the shared data.  No test asserts a time.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from verifier.api import DECISIONS, Verifier, Verdict
from verifier.config import load_config
from verifier.limits import Deadline, DeadlineExceeded, Limits, count_triples

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"

QUESTION = "Who is the spouse of Cary Grant?"
QUERY = ("PREFIX wd: <http://www.wikidata.org/entity/>\nPREFIX wdt: <http://www.wikidata.org/prop/direct/>\n"
         "SELECT ?x WHERE { wd:Q181900 wdt:P26 ?x . ?x wdt:P31 wd:Q5 }")


def _config(tmp: Path, limits: str = ""):
    text = ""
    if SHARED.is_dir():
        corpus = SHARED / "mrs" / "questions.jsonl.gz"
        text += f"[mrs]\ncorpora = {json.dumps([str(corpus)])}\n"
        text += f"[grounding]\nlabels = {json.dumps(str(SHARED / 'wikidata' / 'labels.tsv'))}\n"
    text += limits
    path = tmp / "verifier.toml"
    path.write_text(text, encoding="utf-8")
    return load_config(path, environ={}, cwd=tmp)


@pytest.fixture(scope="module")
def verifier(tmp_path_factory) -> Verifier:
    return Verifier(_config(tmp_path_factory.mktemp("fuzz")))


def hostile_query(n: int, seed: int = 0) -> str:
    """A SELECT of ``n`` triple patterns chained through variables."""
    rng = random.Random(seed)
    lines = ["SELECT ?x0 WHERE {", "  wd:Q181900 wdt:P26 ?x0 ."]
    for i in range(1, n):
        o = f"wd:Q{rng.randrange(1, 10**6)}" if rng.random() < 0.4 else f"?x{i}"
        lines.append(f"  ?x{rng.randrange(i)} wdt:P{rng.randrange(1, 5000)} {o} .")
    return "\n".join(lines + ["}"])


def _mutated(text: str, rng: random.Random) -> str:
    """``text`` with a few characters deleted, duplicated, swapped or replaced by noise."""
    chars = list(text)
    for _ in range(rng.randrange(1, 6)):
        if not chars:
            break
        i = rng.randrange(len(chars))
        op = rng.randrange(4)
        if op == 0:
            del chars[i]
        elif op == 1:
            chars.insert(i, chars[i] * rng.randrange(1, 4))
        elif op == 2:
            j = rng.randrange(len(chars))
            chars[i], chars[j] = chars[j], chars[i]
        else:
            chars[i] = chr(rng.choice([0, 7, 0x202E, 0x200D, 0xFEFF, rng.randrange(32, 0x3000)]))
    return "".join(chars)


def _noise(rng: random.Random, n: int) -> str:
    return bytes(rng.randrange(256) for _ in range(n)).decode("latin-1")


def fuzz_cases(seed: int = 0) -> list[tuple[str, object, object]]:
    """(name, question, query) of the fuzz test: noise, mutations, oversized and odd inputs."""
    rng = random.Random(seed)
    cases: list[tuple[str, object, object]] = []
    for i in range(8):
        cases.append((f"noise query {i}", QUESTION, _noise(rng, rng.randrange(1, 400))))
        cases.append((f"noise question {i}", _noise(rng, rng.randrange(1, 400)), QUERY))
    for i in range(12):
        cases.append((f"mutated query {i}", QUESTION, _mutated(QUERY, rng)))
        cases.append((f"mutated question {i}", _mutated(QUESTION, rng), QUERY))
    cases += [
        ("3,000-triple query", QUESTION, hostile_query(3000)),
        ("100 kB question", "Who is the spouse of " + "Cary Grant and " * 7000 + "?", QUERY),
        ("1 MB query", QUESTION, QUERY[:-1] + " # " + "x" * 1_000_000 + "\n}"),
        ("nested braces", QUESTION, "SELECT * WHERE " + "{" * 4000 + " ?s ?p ?o " + "}" * 4000),
        ("nested parentheses", QUESTION,
         "SELECT ?x WHERE { ?x wdt:P26 ?y FILTER(" + "(" * 3000 + "1" + ")" * 3000 + ") }"),
        ("unicode controls", "Who\u202e is\u200d the\x00 spouse\ufeff of Cary\x07 Grant?", QUERY),
        ("controls in the query", QUESTION, QUERY.replace(" ", "\u2028", 3).replace("?x", "?x\x00", 1)),
        ("empty question", "", QUERY),
        ("blank query", QUESTION, "  \n\t "),
        ("no question", None, QUERY),
        ("no query", QUESTION, None),
        ("surrogates", "Who is \ud800 the spouse?", QUERY),
    ]
    return cases


def _reason(v: Verdict) -> str:
    return (v.deductive.reason if v.deductive is not None else v.error) or ""


def test_fuzzed_inputs_each_get_a_verdict_and_never_stop_the_batch(verifier):
    verdicts = []
    for name, question, query in fuzz_cases():
        v = verifier.verify(question, query)  # never raises for bad input
        verdicts.append((name, v))
        assert isinstance(v, Verdict), name
        assert v.decision in DECISIONS, name
        if v.decision != "accept":
            assert _reason(v), f"{name}: {v.decision} without a reason"
    by_name = dict(verdicts)
    assert len(by_name) == len(fuzz_cases())  # every record kept
    hostile = by_name["3,000-triple query"]
    assert hostile.decision == "abstain"
    assert _reason(hostile) == "query over limits: 3,000 triples > 500"
    assert by_name["100 kB question"].decision == "abstain"
    assert _reason(by_name["100 kB question"]).startswith("question over limits: ")
    assert _reason(by_name["1 MB query"]).startswith("query over limits: ")
    assert "characters > 100,000" in _reason(by_name["1 MB query"])
    for name in ("empty question", "no question"):
        assert (by_name[name].decision, _reason(by_name[name])) == ("abstain", "the question is empty")
    for name in ("blank query", "no query"):
        assert (by_name[name].decision, _reason(by_name[name])) == ("abstain", "the query is empty")
    assert by_name["nested braces"].decision in ("abstain", "reject")


def test_candidate_sets_with_hostile_queries_keep_every_candidate(verifier):
    res = verifier.verify_candidates(QUESTION, [QUERY, hostile_query(3000), "SELECT {{{", None])
    assert len(res.verdicts) == 4
    assert res.verdicts[1].decision == "abstain"
    assert _reason(res.verdicts[1]) == "query over limits: 3,000 triples > 500"
    assert res.verdicts[2].decision in ("abstain", "reject") and _reason(res.verdicts[2])


def test_a_raised_limit_lets_the_query_through_to_the_deadline(tmp_path, verifier, monkeypatch):
    monkeypatch.delenv("VERIFIER_DEADLINE_CLOCK", raising=False)  # the wall clock, the default
    cfg = _config(tmp_path, "[limits]\nquery_triples = 0\ndeadline_s = 0.000001\n")
    v = Verifier(cfg, pack=verifier.pack, labels=verifier.labels, wordnet=verifier.wordnet, mrs=verifier.mrs)
    r = v.verify(QUESTION, hostile_query(3000))
    assert r.decision == "abstain"
    assert _reason(r).startswith("deadline: 1e-06 s spent (stage ")


def test_a_passed_deadline_abstains_with_its_reason(tmp_path, verifier, monkeypatch):
    monkeypatch.delenv("VERIFIER_DEADLINE_CLOCK", raising=False)  # the wall clock, the default
    cfg = _config(tmp_path, "[limits]\ndeadline_s = 0.000001\n")
    v = Verifier(cfg, pack=verifier.pack, labels=verifier.labels, wordnet=verifier.wordnet, mrs=verifier.mrs)
    r = v.verify(QUESTION, QUERY)
    assert r.decision == "abstain"
    assert r.deductive is not None and r.deductive.verdict == "unknown"
    assert _reason(r) == "deadline: 1e-06 s spent (stage sparql)"
    assert "deadline" in r.explanation
    assert "stage:sparql" in r.timings
    # the same pair without the deadline is decided as before
    assert verifier.verify(QUESTION, QUERY).deductive.reason != _reason(r)


def test_the_deadline_stops_the_pipeline_at_a_stage():
    from parsers.sparql import parse_query
    from verifier.axioms import default_pack_dirs, load_pack
    from verifier.deductive import check_readings
    from verifier.grounding import Grounder
    from parsers.mrs.patterns import pattern_readings
    from parsers.mrs import translate_readings

    pack = load_pack(default_pack_dirs([]))
    readings = translate_readings(pattern_readings("What is the population of France?"))
    query = parse_query("SELECT ?p WHERE { wd:Q142 wdt:P1082 ?p }")
    with pytest.raises(DeadlineExceeded) as e:
        check_readings("What is the population of France?", query, [], pack, Grounder(pack),
                       first=readings, deadline=Deadline(0.0))
    assert e.value.stage == "prepare"
    assert str(e.value) == "deadline: 0 s spent (stage prepare)"


def test_limits_from_the_configuration(tmp_path, monkeypatch):
    monkeypatch.delenv("VERIFIER_DEADLINE_CLOCK", raising=False)  # the wall clock, the default
    lim = Limits.from_config(_config(tmp_path, "[limits]\nquery_triples = 7\ndeadline_s = 2.5\n"
                                               "deadline_clock = \"cpu\"\n"))
    assert (lim.query_triples, lim.deadline_s, lim.deadline_clock) == (7, 2.5, "cpu")
    assert lim.deadline().clock == "cpu" and lim.deadline().seconds == 2.5
    assert Limits(deadline_s=0).deadline().seconds is None
    assert Limits.from_config(_config(tmp_path)) == Limits()
    with pytest.raises(ValueError, match="deadline_clock"):
        Limits(deadline_clock="sundial")
    with pytest.raises(ValueError, match="unknown setting"):
        Limits.from_config(_config(tmp_path, "[limits]\nquery_tripels = 7\n"))


@pytest.mark.parametrize("sparql, n", [
    ("SELECT * WHERE { ?s ?p ?o }", 1),
    ("SELECT * WHERE { ?s ?p ?o . }", 1),
    ("SELECT * WHERE { ?s ?p ?o ; ?q ?r , ?t . ?a ?b 1.5 }", 4),
    ("SELECT * WHERE { ?s <http://x.org/a.b> \"a . b ; c\" . OPTIONAL { ?s ?q ?v } }", 2),
    ("SELECT * WHERE { ?s ?p ?o FILTER(?o IN (1, 2, 3)) } # . ; ,", 1),
    ("SELECT * WHERE { ?s ?p ?o FILTER(?o < 3 && ?o > 1) }", 1),
])
def test_count_triples(sparql, n):
    assert count_triples(sparql) == n


def test_the_deadline_clock_variable_gives_the_default_and_a_file_wins(monkeypatch, tmp_path):
    from verifier.config import Config, load_config

    monkeypatch.delenv("VERIFIER_DEADLINE_CLOCK", raising=False)
    assert Limits.from_config(Config({})).deadline_clock == "wall"
    monkeypatch.setenv("VERIFIER_DEADLINE_CLOCK", "cpu")
    assert Limits.from_config(Config({})).deadline_clock == "cpu"
    p = tmp_path / "verifier.toml"
    p.write_text('[limits]\ndeadline_clock = "wall"\n')
    assert Limits.from_config(load_config(p, environ={"VERIFIER_DEADLINE_CLOCK": "cpu"})).deadline_clock == "wall"


@pytest.mark.parametrize("clock", ["wall", "cpu"])
def test_a_solver_giving_up_is_not_the_deadline_passing(clock):
    """A check Z3 ends as unknown for its resource limit, with most of the pair's deadline
    left, leaves the pair running (it once read as the deadline passing on the wall clock,
    the users' default: pairs abstained after 2 s saying "deadline: 10 s spent")."""
    from verifier.logic import IRI, Atom, Var, conj, exists, forall, implies
    from verifier.prover import Premise, entails

    x, y, a = Var("x"), Var("y"), IRI("wd:Q1")
    prem = [Premise("chain", forall([x], implies(Atom("p", (x,)), exists([y], conj([Atom("r", (x, y)),
                                                                                  Atom("p", (y,))]))))),
            Premise("start", Atom("p", (a,)))]
    deadline = Deadline(60.0, clock)
    res = entails(prem, Atom("q", (a,)), timeout_ms=100_000, rlimit=1, chase=False, deadline=deadline)
    assert res.status == "unknown" and "resource limit" in res.reason
    assert deadline.solver_ms(100_000) < 100_000  # the call's timeout was cut to the deadline
    deadline.check("after")  # and the deadline has not passed
