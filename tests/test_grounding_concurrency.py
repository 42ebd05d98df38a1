"""One shared :class:`~verifier.api.Verifier` (and its grounder) serves concurrent calls: the
verdicts of 200 LC-QuAD 2.0 pairs verified from 4 threads are those of a sequential run
(issue 58, point 4), and a grounding leaves no state of its call on the grounder.

The LC-QuAD pairs need the shared MRS corpus and Wikidata labels (skipped when
``../shared/data`` is absent), built as ``bench/deductive_lcquad.py`` builds its verifier.
"""

from __future__ import annotations

import copy
import gzip
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
N_PAIRS = 200
N_THREADS = 4


def _pairs(n: int) -> list[dict]:
    """The first ``n`` LC-QuAD 2.0 test pairs (in file order) whose question has a reading in
    the shared MRS corpus."""
    with_readings = set()
    with gzip.open(SHARED / "mrs" / "questions.jsonl.gz", "rt", encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            if d["readings"]:
                with_readings.add(d["question"])
    out = []
    with (SHARED / "lcquad2" / "test.jsonl").open(encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            if d["question"] in with_readings:
                out.append(d)
                if len(out) == n:
                    break
    return out


def _outcome(v, pair: dict) -> tuple[str, float, str]:
    r = v.verify(pair["question"], pair["sparql"])
    return r.decision, r.score, (r.deductive.reason if r.deductive else r.error) or ""


@pytest.mark.shared
@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/data not available")
def test_verify_from_four_threads_gives_the_sequential_verdicts():
    from verifier.api import Verifier
    from verifier.lexical import LabelIndex
    from verifier.mrs_cache import MrsCorpus

    pairs = _pairs(N_PAIRS)
    assert len(pairs) == N_PAIRS
    v = Verifier(labels=LabelIndex.cached(SHARED / "wikidata" / "labels.tsv"),
                 mrs=MrsCorpus([SHARED / "mrs" / "questions.jsonl.gz"]))
    sequential = [_outcome(v, p) for p in pairs]
    with ThreadPoolExecutor(N_THREADS) as ex:
        threaded = list(ex.map(lambda p: _outcome(v, p), pairs))
    changed = [(p["id"], s, t) for p, s, t in zip(pairs, sequential, threaded) if s != t]
    assert not changed, f"{len(changed)} of {N_PAIRS} verdicts differ: {changed[:3]}"
    # the pairs are not trivial: all three decisions occur
    assert {d for d, _, _ in sequential} >= {"accept", "reject"}


def test_grounding_leaves_no_state_of_its_call_on_the_grounder():
    """Two groundings of different queries with one grounder: each gives what a fresh grounder
    gives, and the grounder's attributes are the same objects, unchanged, afterwards (caches
    aside, which only memoise what the pack and the labels fix)."""
    from parsers.sparql import parse_query
    from verifier.axioms import load_pack
    from verifier.axioms.loader import default_pack_dirs
    from verifier.grounding import Grounder, Unit
    from verifier.logic import Atom, Var

    pack = load_pack(default_pack_dirs())
    head = "PREFIX wd: <http://www.wikidata.org/entity/> PREFIX wdt: <http://www.wikidata.org/prop/direct/> "
    danish = Unit(Atom("_danish_a_1", (Var("e1"), Var("x3"))), "adjective", "danish", "a",
                  ("danish",), ("danish",), "Danish", Var("e1"))
    film = parse_query(head + "SELECT ?x WHERE { ?x wdt:P495 wd:Q35 }")
    person = parse_query(head + "SELECT ?x WHERE { ?x wdt:P27 wd:Q35 }")

    def axioms(grounding) -> list[str]:
        return [str(a.formula) for l in grounding.links for a in l.axioms]

    shared = Grounder(pack)
    before = {k: copy.copy(v) for k, v in vars(shared).items()}
    ids = {k: id(v) for k, v in vars(shared).items()}
    first = axioms(shared.ground([danish], film, "Give me all Danish films."))
    second = axioms(shared.ground([danish], person, "Give me all Danish people."))
    assert first == axioms(Grounder(pack).ground([danish], film, "Give me all Danish films."))
    assert second == axioms(Grounder(pack).ground([danish], person, "Give me all Danish people."))
    assert first != second  # the query's property decides the demonym's ``via``
    assert {k: id(v) for k, v in vars(shared).items()} == ids
    for k, v in vars(shared).items():
        if isinstance(v, (str, int, float, frozenset, tuple)) or v is None:
            assert v == before[k], k
