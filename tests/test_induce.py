"""``verifier axioms induce``: lexicon entries proposed from (question, gold query) pairs with MRS.

The fixture is made from ``../shared`` when the tests run (skipped without it; the datasets are
read there, not copied): 18 training pairs (:data:`PAIR_IDS`, of WikiWebQuestions train and
QALD-10 train), the first three readings of their questions from the shared ACE corpus and the
rows of the shared labels for the symbols their queries use: five ask a governor (officeholder,
P1308), four a cancer (cause of death, P509), three a currency (P38, which the shipped lexicon
has), three a wife (spouse, P26, whose alias names "wife"), three a place of birth.
"""

from __future__ import annotations

import gzip
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from verifier.axioms import load_pack
from verifier.axioms.induce import (
    InduceError, Symbol, Word, align, associations, load_settings, pack_text, propose, read_pairs,
    symbols_of_query, words_of_readings,
)
from verifier.cli import main as cli_main
from verifier.mrs_cache import MrsCorpus

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("VERIFIER_SHARED", ROOT.parent / "shared")) / "data"
#: The training pairs of the fixture (ids of ``../shared/data`` records).
PAIR_IDS = (
    "wwq-train-WebQTrn-355", "wwq-train-WebQTrn-663", "wwq-train-WebQTrn-773", "wwq-train-WebQTrn-1312",
    "qald10-train-95", "wwq-train-WebQTrn-1011", "wwq-train-WebQTrn-1080", "wwq-train-WebQTrn-1984",
    "wwq-train-WebQTrn-2936", "wwq-train-WebQTrn-105", "wwq-train-WebQTrn-161", "wwq-train-WebQTrn-184",
    "wwq-train-WebQTrn-30", "wwq-train-WebQTrn-1540", "wwq-train-WebQTrn-1847", "wwq-train-WebQTrn-936",
    "wwq-train-WebQTrn-1002", "wwq-train-WebQTrn-1030",
)
SPLITS = ("wikiwebquestions/train.jsonl", "qald10/train.jsonl")
PREFIXES = ("PREFIX wd: <http://www.wikidata.org/entity/> PREFIX wdt: <http://www.wikidata.org/prop/direct/> "
            "PREFIX p: <http://www.wikidata.org/prop/> PREFIX ps: <http://www.wikidata.org/prop/statement/> "
            "PREFIX pq: <http://www.wikidata.org/prop/qualifier/> ")


@dataclass(frozen=True)
class Fixture:
    """The fixture's files: pairs (JSONL), their MRS (corpus format), their labels (TSV)."""

    pairs: Path
    mrs: Path
    labels: Path


def write_fixture(out: Path) -> Fixture:
    """The fixture written into ``out`` from ``../shared/data``: the pairs of
    :data:`PAIR_IDS`, the first three readings of their questions, the labels of the ids their
    queries use."""
    want, found = set(PAIR_IDS), {}
    for split in SPLITS:
        with (SHARED / split).open(encoding="utf-8") as f:
            for line in f:
                d = json.loads(line)
                if d["id"] in want:
                    found[d["id"]] = {"id": d["id"], "question": d["question"], "sparql": d["sparql"]}
    pairs = [found[i] for i in PAIR_IDS]
    questions = list(dict.fromkeys(p["question"] for p in pairs))
    records: dict[str, dict] = {}
    with gzip.open(SHARED / "mrs" / "questions.jsonl.gz", "rt", encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            if d["question"] in questions and d["question"] not in records:
                records[d["question"]] = {**d, "readings": d["readings"][:3]}
    ids = {m for p in pairs for m in re.findall(r"(?:wd|wdt|p|ps|pq):([PQ]\d+)", p["sparql"])}
    with (SHARED / "wikidata" / "labels.tsv").open(encoding="utf-8") as f:
        header, *rows = f.read().splitlines()
    fx = Fixture(out / "pairs.jsonl", out / "mrs.jsonl", out / "labels.tsv")
    fx.pairs.write_text("".join(json.dumps(p) + "\n" for p in pairs), encoding="utf-8")
    fx.mrs.write_text("".join(json.dumps(records[q]) + "\n" for q in questions), encoding="utf-8")
    fx.labels.write_text("\n".join([header] + [r for r in rows if r.split("\t")[0] in ids]) + "\n",
                         encoding="utf-8")
    return fx


@pytest.fixture(scope="module")
def fix(tmp_path_factory) -> Fixture:
    if not SHARED.is_dir():
        pytest.skip(f"shared data not found at {SHARED}")
    return write_fixture(tmp_path_factory.mktemp("induce"))


@pytest.fixture(scope="module")
def aligned(fix):
    settings = load_settings()
    pairs, counts = read_pairs(fix.pairs)
    assert counts.pairs == 18 and counts.bad_json == 0
    out, ac = align(pairs, MrsCorpus([fix.mrs]).readings, settings)
    assert ac.aligned == 18
    return out


def test_shipped_settings():
    s = load_settings()
    assert s.min_support >= 1 and s.examples_per_entry == 3
    assert s.candidates("verb", "property")[0] == "verb_agent"
    assert s.candidates("noun", "class") == ("class_noun",)
    assert s.candidates("verb", "class") == ()
    # every template the table names exists in the shipped pack
    pack = load_pack()
    named = {t for by_sym in s.templates.values() for ts in by_sym.values() for t in ts}
    assert named <= set(pack.templates)
    assert load_settings(min_support=7, max_entries=None).min_support == 7


@pytest.mark.parametrize("text, message", [
    ("min_support: -1\n", "min_support"),
    ("threshold: 3\n", "unknown setting"),
    ("templates: {verb: {thing: [verb_agent]}}\n", "kinds of symbol"),
    ("skip_shipped: 3\n", "true or false"),
])
def test_bad_settings(tmp_path, text, message):
    f = tmp_path / "s.yaml"
    f.write_text(text)
    with pytest.raises(InduceError, match=message):
        load_settings(f)


def test_symbols_of_query():
    s = load_settings()
    q = PREFIXES + ("SELECT ?x WHERE { ?x wdt:P31/wdt:P279* wd:Q5 . ?x wdt:P21 wd:Q6581072 . "
                    "?x p:P39 ?st . ?st ps:P39 ?pos . ?st pq:P580 ?t }")
    got = symbols_of_query(q, s)
    assert Symbol("wd:Q5", "class") in got
    assert Symbol("wd:Q6581072", "value", "wdt:P21") in got
    assert {Symbol("wdt:P39", "property"), Symbol("wdt:P580", "property"), Symbol("wdt:P21", "property"),
            Symbol("wdt:P31", "property")} <= got
    with pytest.raises(ValueError):
        symbols_of_query("SELECT WHERE {", s)


def test_words_of_readings(fix):
    rec = MrsCorpus([fix.mrs]).get("Who is the governor of Texas?")
    words = words_of_readings(rec.readings, load_settings())
    assert Word("governor", "n", "noun") in words
    assert not any(w.lemma == "be" for w in words)  # the copula is skipped (settings)


def test_associations(aligned):
    assocs = associations(aligned, load_settings())
    by = {(a.word.lemma, a.symbol.symbol): a for a in assocs}
    gov = by[("governor", "wdt:P1308")]
    assert (gov.support, gov.word_count, gov.symbol_count, gov.total) == (5, 5, 5, 18)
    assert gov.precision == 1.0 and gov.pmi > 1.8 and gov.llr > 20
    assert len(gov.pairs) == 5 and all("governor" in p.question.lower() for p in gov.pairs)
    assert by[("cancer", "wdt:P509")].support == 4
    assert by[("bear", "wdt:P19")].support == 3  # "born": three pairs of place of birth
    # below min_support
    assert ("bear", "wdt:P19") not in {(a.word.lemma, a.symbol.symbol)
                                       for a in associations(aligned, load_settings(min_support=4))}
    assert not associations(aligned, load_settings(min_support=6))


def test_propose_unchecked(aligned):
    settings = load_settings()
    pack = load_pack()
    result = propose(associations(aligned, settings), pack, settings)
    entries = {(p.entry.words[0], p.entry.symbols[0]): p for p in result.proposals}
    gov = entries[("governor", "wdt:P1308")]
    assert gov.template == "noun_of" and gov.entry.pos == "n" and gov.entry.support == 5
    assert len(gov.examples) == 3 and all(x.verdict == "faithful" for x in gov.examples)
    assert result.skipped.get("shipped", 0) >= 1  # currency -> P38 is in the shipped lexicon
    assert ("currency", "wdt:P38") not in entries
    text = pack_text(result, name="fixture")
    assert "support: 5" in text and "template: noun_of" in text


def _induce(fix, tmp_path, capsys, *extra: str) -> tuple[int, dict, str]:
    out = tmp_path / "induced.yaml"
    code = cli_main(["axioms", "induce", str(fix.pairs), "--mrs", str(fix.mrs), "--out", str(out), "--json", *extra])
    cap = capsys.readouterr()
    return code, (json.loads(cap.out) if code == 0 else {}), cap.err


def test_cli_induce_checked_pack_lints_and_tests(fix, tmp_path, capsys):
    code, summary, _ = _induce(fix, tmp_path, capsys, "--labels", str(fix.labels))
    assert code == 0 and summary["checked"]
    assert summary["skipped"].get("label_named", 0) >= 1  # "wife": an alias of spouse
    assert summary["skipped"].get("shipped", 0) >= 1
    props = {(p["word"], p["symbol"]): p for p in summary["proposals"]}
    gov = props[("governor", "wdt:P1308")]
    assert gov["support"] == 5 and gov["checked"] == 4
    assert gov["accepted_with"] > gov["accepted_without"] and 1 <= gov["examples"] <= 3
    out = tmp_path / "induced.yaml"
    # the same format as a shipped lexicon: lint and load accept it, examples included
    assert cli_main(["axioms", "lint", str(out)]) == 0
    pack = load_pack([*load_pack().folders, out])
    lex = [lx for lx in pack.lexicons if lx.name == "induced"][0]
    e = [e for e in lex.entries if e.words == ("governor",)][0]
    assert e.support == 5 and e.template == gov["template"] and e.examples
    assert all(x.verdict == "faithful" for x in e.examples)
    owners = [o for o, _ in pack.examples if o.startswith("lexicon induced entry")]
    assert len(owners) == summary["examples"]
    capsys.readouterr()
    # its examples run with `verifier axioms test` and pass
    assert cli_main(["axioms", "test", str(out), "--mrs", str(fix.mrs), "--labels", str(fix.labels), "--given-only"]) == 0
    assert f"{summary['examples']} passed, 0 failed" in capsys.readouterr().out


def test_cli_induce_table(fix, tmp_path, capsys):
    out = tmp_path / "p.yaml"
    assert cli_main(["axioms", "induce", str(fix.pairs), "--mrs", str(fix.mrs), "--out", str(out), "--no-check",
                     "--max", "1"]) == 0
    text = capsys.readouterr().out
    assert "pairs aligned" in text and "entries proposed" in text and "skipped: over_max" in text
    assert load_pack([*load_pack().folders, out]).lexicons[-1].entries[0].words == ("governor",)


def test_cli_bad_lines_are_counted(fix, tmp_path, capsys):
    pairs = tmp_path / "pairs.jsonl"
    lines = fix.pairs.read_text().splitlines()
    lines += ["not json", json.dumps({"question": "Who?"}), "[1, 2]",
              json.dumps({"question": "who is the governor of oregon now?", "sparql": "SELECT ?x WHERE {"})]
    pairs.write_text("\n".join(lines) + "\n")
    mrs = tmp_path / "mrs.jsonl"
    mrs.write_text(fix.mrs.read_text() + json.dumps({"question": "who is the governor of oregon now?",
                                                 "readings": ["[ TOP: h0 RELS: < > HCONS: < > ]"]}) + "\n")
    out = tmp_path / "p.yaml"
    code = cli_main(["axioms", "induce", str(pairs), "--mrs", str(mrs), "--out", str(out), "--no-check", "--json"])
    s = json.loads(capsys.readouterr().out)
    assert code == 0
    assert (s["bad_json"], s["missing_fields"], s["bad_sparql"], s["aligned"]) == (2, 1, 1, 18)
    assert s["entries"] >= 1


@pytest.mark.parametrize("case, message", [
    ("missing", "no such file"),
    ("fields", "no line has both 'question' and 'sparql' (the first object has: gold, text)"),
    ("mrs", "--mrs"),
    ("support", "--min-support must be 1 or more"),
    ("out", "--out"),
])
def test_cli_errors(fix, tmp_path, capsys, case, message):
    pairs, mrs, out = str(fix.pairs), str(fix.mrs), str(tmp_path / "p.yaml")
    extra = []
    if case == "missing":
        pairs = str(tmp_path / "nothing.jsonl")
    elif case == "fields":
        f = tmp_path / "other.jsonl"
        f.write_text(json.dumps({"text": "Who?", "gold": "SELECT * WHERE { ?s ?p ?o }"}) + "\n")
        pairs = str(f)
    elif case == "mrs":
        mrs = str(tmp_path / "none.jsonl.gz")
    elif case == "support":
        extra = ["--min-support", "0"]
    elif case == "out":
        out = str(tmp_path / "no" / "such" / "folder.yaml")
    code = cli_main(["axioms", "induce", pairs, "--mrs", mrs, "--out", out, *extra])
    assert code == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "p.yaml").exists()
