"""MRS cache (SQLite), corpus files, and the provider the verifier calls."""

from __future__ import annotations

import gzip
import json
import os
import threading
from dataclasses import dataclass
from pathlib import Path

import pytest

from verifier.mrs_cache import (
    CORPUS_GRAMMAR, CorpusFormatError, MrsCache, MrsCorpus, MrsProvider, ParseRecord,
    grammar_family, grammar_identity, normalize_question, read_corpus, write_corpus,
)

SHARED = Path(os.environ.get("VERIFIER_SHARED", Path(__file__).resolve().parents[2] / "shared"))
MRS_DIR = SHARED / "data" / "mrs"

R1 = "[ TOP: h0 INDEX: e2 RELS: < [ _bark_v_1<0:4> LBL: h1 ARG0: e2 ARG1: x3 ] > HCONS: < h0 qeq h1 > ]"


def _corpus_file(tmp_path: Path, name: str = "c.jsonl.gz") -> Path:
    p = tmp_path / name
    recs = [
        {"question": "What is the mass of benzene?", "readings": [R1, R1], "roots": "strict", "error": None, "seconds": 0.1},
        {"question": "Line\tbreak\nquestion?", "readings": [], "roots": "fallback", "error": "strict: timeout", "seconds": 10.0},
        {"question": "Bad readings", "readings": "nope"},
    ]
    with gzip.open(p, "wt", encoding="utf-8") as f:
        for r in recs:
            f.write(json.dumps(r) + "\n")
        f.write("this is not json\n\n")
    return p


def test_normalize_question() -> None:
    assert normalize_question("  What is\tthe  mass\nof benzene? ") == "What is the mass of benzene?"
    assert normalize_question("Line\tbreak\nquestion?") == normalize_question("Line break question?")
    assert normalize_question("ABC") != normalize_question("abc")


def test_read_and_write_corpus_round_trip(tmp_path: Path) -> None:
    p = _corpus_file(tmp_path)
    recs = list(read_corpus(p))
    assert [r.question for r in recs] == ["What is the mass of benzene?", "Line\tbreak\nquestion?"]
    assert recs[0].readings == (R1, R1) and recs[0].roots == "strict" and recs[0].grammar == CORPUS_GRAMMAR
    assert recs[1].readings == () and recs[1].error == "strict: timeout"
    out = tmp_path / "out.jsonl"
    assert write_corpus(recs, out) == 2
    again = list(read_corpus(out))
    assert again == recs
    with pytest.raises(FileNotFoundError):
        list(read_corpus(tmp_path / "missing.jsonl"))
    broken = tmp_path / "broken.jsonl.gz"
    broken.write_bytes(b"not gzip at all")
    with pytest.raises(CorpusFormatError):
        list(read_corpus(broken))


def test_cache_put_get_grammars_and_export(tmp_path: Path) -> None:
    db = tmp_path / "sub" / "mrs.sqlite3"
    with MrsCache(db) as cache:
        assert cache.import_corpus(_corpus_file(tmp_path)) == 2
        assert len(cache) == 2
        rec = cache.get("What  is the mass of benzene?")  # whitespace-insensitive key
        assert rec is not None and rec.readings == (R1, R1)
        assert cache.get("Line break question?").error == "strict: timeout"
        assert cache.get("unknown") is None
        cache.put(ParseRecord("What is the mass of benzene?", (R1,), "strict", None, 0.2, "erg-2025.dat:1:abc"))
        assert cache.get("What is the mass of benzene?", "erg-2025.dat:1:abc").readings == (R1,)
        assert cache.get("What is the mass of benzene?", CORPUS_GRAMMAR).readings == (R1, R1)
        assert dict(cache.grammars()) == {CORPUS_GRAMMAR: 2, "erg-2025.dat:1:abc": 1}
        out = tmp_path / "export.jsonl.gz"
        assert cache.export_corpus(out, grammar=CORPUS_GRAMMAR) == 2
        assert [r.question for r in read_corpus(out)] == ["What is the mass of benzene?", "Line\tbreak\nquestion?"]
    # persisted
    with MrsCache(db) as cache:
        assert len(cache) == 3


def test_cache_is_thread_safe(tmp_path: Path) -> None:
    cache = MrsCache(tmp_path / "t.sqlite3")
    errors = []

    def work(k: int) -> None:
        try:
            for i in range(20):
                cache.put(ParseRecord(f"q{k}-{i}", (R1,)))
                assert cache.get(f"q{k}-{i}") is not None
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(cache) == 80
    cache.close()


def test_not_a_database(tmp_path: Path) -> None:
    p = tmp_path / "x.sqlite3"
    p.write_text("hello, I am not sqlite" * 100)
    with pytest.raises(ValueError):
        MrsCache(p)


def test_grammar_identity(tmp_path: Path) -> None:
    g = tmp_path / "erg.dat"
    g.write_bytes(b"abc" * 1000)
    a = grammar_identity(g)
    assert a.startswith("erg.dat:3000:")
    g.write_bytes(b"abd" * 1000)
    assert grammar_identity(g) != a


def test_grammar_families_of_the_data_file() -> None:
    """The examples of verifier/_data/ace/grammars.yaml (knowledge as data)."""
    from parsers.ace_grammar import known_grammars

    examples = known_grammars()["examples"]
    assert len(examples) >= 5
    for ex in examples:
        assert grammar_family(ex["identity"], ex.get("version")) == ex["family"], ex
    assert grammar_family(CORPUS_GRAMMAR) == "erg-standin"
    assert grammar_family(None) == grammar_family("") == "unknown"


def test_readings_report_their_grammar(tmp_path: Path) -> None:
    from verifier.api import Verifier

    corpus = MrsCorpus([_corpus_file(tmp_path)])
    cache = MrsCache(":memory:")
    cache.record_grammar({"identity": "fake.dat:1:0", "version": "ERG (2025)"})
    prov = MrsProvider(cache, [corpus], _FakeAce())
    r = prov.lookup("What is the mass of benzene?")
    assert (r.grammar, r.family) == (CORPUS_GRAMMAR, "erg-standin")
    r = prov.lookup("Is Rex a dog?")  # from ACE; the cache's record gives the header version
    assert (r.source, r.grammar, r.family) == ("ace", "fake.dat:1:0", "erg")
    assert cache.grammar_record("fake.dat:1:0")["version"] == "ERG (2025)"
    assert cache.grammar_record("other") is None
    v = Verifier.__new__(Verifier)  # only the MRS source is needed for readings()
    v.mrs, v.ace = prov, None
    readings, origin, grammar = v.readings("What is the mass of benzene?")
    assert len(readings) == 2 and origin == "corpus" and grammar == CORPUS_GRAMMAR
    assert v.readings("Is Rex a dog?")[1:] == ("cache", "fake.dat:1:0")
    none = MrsProvider(MrsCache(":memory:"))
    v.mrs = none
    assert v.readings("Who?")[0] is None and v.readings("Who?")[2] is None


@dataclass
class _FakeAceResult:
    question: str
    readings: tuple
    status: str
    roots: str | None = "strict"
    error: str | None = None
    seconds: float = 0.01


class _FakeAce:
    grammar_id = "fake.dat:1:0"

    def __init__(self, status: str = "ok") -> None:
        self.calls: list[str] = []
        self.status = status

    def parse(self, question: str) -> _FakeAceResult:
        self.calls.append(question)
        return _FakeAceResult(question, (R1,) if self.status == "ok" else (), self.status,
                              error=None if self.status == "ok" else "strict: timeout")


def test_provider_order_and_storage(tmp_path: Path) -> None:
    corpus = MrsCorpus([_corpus_file(tmp_path)])
    assert len(corpus) == 2 and "Line break question?" in corpus
    cache = MrsCache(":memory:")
    ace = _FakeAce()
    prov = MrsProvider(cache, [corpus], ace)
    r = prov.lookup("What is the mass of benzene?")
    assert (r.status, r.source, len(r.readings)) == ("ok", "corpus", 2)
    assert prov.lookup("Line break question?").status == "no-parse"
    r = prov.lookup("Is Rex a dog?")
    assert (r.status, r.source, r.readings) == ("ok", "ace", (R1,))
    assert cache.get("Is Rex a dog?", "fake.dat:1:0").readings == (R1,)
    r = prov.lookup("Is  Rex a dog?")  # now from the cache, ACE not called again
    assert r.source == "cache" and ace.calls == ["Is Rex a dog?"]
    assert prov.readings("Is Rex a dog?") == [R1]
    assert prov.lookup("   ").status == "error"


def test_provider_without_parser_and_with_failing_parser() -> None:
    prov = MrsProvider(MrsCache(":memory:"))
    r = prov.lookup("Who wrote Hamlet?")
    assert r.status == "no-parser" and "no parser available" in r.message
    assert prov.readings("Who wrote Hamlet?") is None
    bad = MrsProvider(MrsCache(":memory:"), ace=_FakeAce("timeout"))
    r = bad.lookup("Who wrote Hamlet?")
    assert r.status == "error" and r.source == "ace" and "timeout" in r.message
    assert bad.readings("Who wrote Hamlet?") is None
    assert bad.cache.get("Who wrote Hamlet?") is None  # failures are not cached


def test_provider_from_config(tmp_path: Path) -> None:
    from verifier.config import load_config

    corpus = _corpus_file(tmp_path)
    cfg_file = tmp_path / "verifier.toml"
    cfg_file.write_text(f'[mrs]\ncorpora = ["{corpus}"]\n', encoding="utf-8")
    cfg = load_config(cfg_file, environ={"VERIFIER_MRS_CACHE": str(tmp_path / "c.sqlite3")}, cwd=tmp_path)
    prov = MrsProvider.from_config(cfg)
    assert prov.ace is None and prov.cache is not None
    assert prov.lookup("What is the mass of benzene?").source == "corpus"
    assert prov.lookup("Something else").status == "no-parser"
    prov.close()


@pytest.mark.skipif(not (MRS_DIR / "chemistry.jsonl.gz").is_file(), reason="shared corpus absent")
def test_shared_corpus_loads_directly() -> None:
    corpus = MrsCorpus([MRS_DIR / "chemistry.jsonl.gz"])
    assert len(corpus) == 60
    assert len(corpus.readings("What is the mass of benzene?")) == 4
    assert corpus.readings("Give me the benzene's toxicity.") == []
    assert corpus.readings("not in there") is None
