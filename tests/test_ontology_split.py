"""Out-of-ontology split (verifier.benchmark.ontology_split): properties on a small fixture
and, when ../shared is present, on the real data."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest

from verifier.benchmark.ontology_split import (
    CATEGORIES, DETECT_SPLITS, Example, OntologySplit, SourcePair, SplitConfig, SplitError,
    build_ontology_split, check_split, extract_symbols, load_ood_utterances, load_pairs,
    normalize_question, read_ontology_split)

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"


def _fixture_pairs(n_freq: int = 160, n_rare: int = 160) -> list[SourcePair]:
    """Pairs over frequent symbols (P1-P8, Q1-Q15) and pairs that also use a rare item
    (Q1000+, each used once or twice); two source datasets."""
    rng = random.Random(7)
    out = []
    for k in range(n_freq):
        p, q = f"P{rng.randint(1, 8)}", f"Q{rng.randint(1, 15)}"
        out.append(SourcePair(f"f{k}", f"what is the {p} of {q} number {k}?",
                              f"SELECT ?x WHERE {{ wd:{q} wdt:{p} ?x }}",
                              frozenset({p, q}), "a" if k % 3 else "b"))
    for k in range(n_rare):
        p, q = f"P{rng.randint(1, 8)}", f"Q{1000 + k // 2 if k % 4 < 2 else 5000 + k}"
        out.append(SourcePair(f"r{k}", f"which {p} has rare {q} case {k}?",
                              f"SELECT ?x WHERE {{ wd:{q} wdt:{p} ?x }}",
                              frozenset({p, q}), "a" if k % 3 else "b"))
    return out


OOD = [f"play song number {k} please" for k in range(100)]
SMALL = SplitConfig(seed=3, unknown_pairs=(20, 10, 20), validation_pairs=30, test_pairs=20,
                    ood_pairs=(10, 5, 10))


@pytest.fixture(scope="module")
def split() -> OntologySplit:
    return build_ontology_split(_fixture_pairs(), OOD, SMALL)


def test_extract_symbols_prefixes_and_iris():
    q = ("SELECT ?x WHERE { wd:Q42 p:P69 ?s . ?s ps:P69 ?x ; pq:P582 ?e . "
         "?x <http://www.wikidata.org/prop/direct/P31> <http://www.wikidata.org/entity/Q5> . "
         "FILTER(?x != 'Q99') }")
    assert extract_symbols(q) == {"Q42", "P69", "P582", "P31", "Q5"}
    assert extract_symbols("SELECT * WHERE { ?a ?b ?c }") == frozenset()


def test_normalize_question_dedup_key():
    assert normalize_question("What is  the Mass of benzene ?") == \
        normalize_question("what is the mass of benzene")


def test_load_pairs_deduplicates_across_files(tmp_path: Path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    rows_a = [{"id": "a-1", "question": "Who wrote Hamlet?", "dataset": "a",
               "sparql": "SELECT ?x WHERE { wd:Q41567 wdt:P50 ?x }",
               "wikidata_ids": ["P50", "Q41567"]}]
    rows_b = [{"id": "b-1", "question": "who wrote hamlet", "sparql": "SELECT ?y WHERE {}"},
              {"id": "b-2", "question": "Capital of France?",
               "sparql": "SELECT ?x WHERE { wd:Q142 wdt:P36 ?x }"}]
    (tmp_path / "a" / "x.jsonl").write_text("\n".join(json.dumps(r) for r in rows_a))
    (tmp_path / "b" / "y.jsonl").write_text("\n".join(json.dumps(r) for r in rows_b))
    pairs = load_pairs(tmp_path, ("a/x.jsonl", "b/y.jsonl"))
    assert [p.id for p in pairs] == ["a-1", "b-2"]
    assert pairs[1].symbols == {"Q142", "P36"}  # regex fallback without wikidata_ids
    assert pairs[1].dataset == "b"


def test_fixture_split_properties(split: OntologySplit):
    check_split(split)  # raises on any violation
    sizes = split.sizes()
    for s, n_ooo in zip(DETECT_SPLITS, SMALL.unknown_pairs):
        assert sizes[s]["out_of_ontology"] == n_ooo
    assert sizes["detect_train"]["in_ontology"] == 20
    assert sizes["detect_dev"]["in_ontology"] == 10
    assert sizes["detect_test"]["in_ontology"] == 20
    assert [sizes[s]["out_of_domain"] for s in DETECT_SPLITS] == [10, 5, 10]
    # disjoint unknown sets, none of them in the generator's training data
    u = split.unknown
    assert not (u["detect_train"] & u["detect_dev"] or u["detect_train"] & u["detect_test"]
                or u["detect_dev"] & u["detect_test"])
    train_syms = {s for e in split.by_split("parser_train") for s in e.symbols}
    assert train_syms and not (train_syms & split.all_unknown)
    # unknown candidates are rare: at most 2 pairs use them
    counts: dict[str, int] = {}
    for p in _fixture_pairs():
        for s in p.symbols:
            counts[s] = counts.get(s, 0) + 1
    assert all(counts[s] <= 2 for s in split.all_unknown)
    for e in split.examples:
        if e.category == "out_of_ontology":
            assert e.unknown_symbols and set(e.unknown_symbols) <= u[e.split]
            assert e.label == 1
        elif e.category == "in_ontology" and e.split != "parser_train":
            assert e.parser_split == ("test" if e.split == "detect_test" else "validation")
            assert set(e.symbols) <= train_syms  # require_seen
            assert e.label == 0


def test_stratified_dataset_mix(split: OntologySplit):
    for s in DETECT_SPLITS:
        mix = {c: sorted(e.dataset for e in split.by_split(s) if e.category == c)
               for c in ("in_ontology", "out_of_ontology")}
        assert mix["in_ontology"] == mix["out_of_ontology"]


def test_deterministic_in_seed(split: OntologySplit):
    again = build_ontology_split(_fixture_pairs(), OOD, SMALL)
    assert again.examples == split.examples
    other = build_ontology_split(_fixture_pairs(), OOD, dataclasses.replace(SMALL, seed=4))
    assert other.examples != split.examples
    check_split(other)


def test_check_split_detects_violations(split: OntologySplit):
    ooo = next(e for e in split.examples if e.category == "out_of_ontology")
    leaked = tuple(dataclasses.replace(e, split="parser_train", category="in_ontology",
                                       label=0, parser_split="train") if e is ooo else e
                   for e in split.examples)
    with pytest.raises(SplitError, match="unknown"):
        check_split(OntologySplit(leaked, split.unknown, split.config))
    sym = next(iter(split.unknown["detect_test"]))
    overlap = dict(split.unknown)
    overlap["detect_train"] = overlap["detect_train"] | {sym}
    with pytest.raises(SplitError, match="share"):
        check_split(OntologySplit(split.examples, overlap, split.config))
    dup = split.examples + (dataclasses.replace(split.examples[0], id="copy"),)
    with pytest.raises(SplitError, match="question also in"):
        check_split(OntologySplit(dup, split.unknown, split.config))


def test_write_read_round_trip(split: OntologySplit, tmp_path: Path):
    split.write(tmp_path)
    rows = [json.loads(line) for line in (tmp_path / "ontology_split.jsonl").open()]
    assert len(rows) == len(split.examples)
    for field in ("id", "question", "sparql", "label", "category", "split", "unknown_symbols"):
        assert all(field in r for r in rows)
    assert {r["category"] for r in rows} == set(CATEGORIES)
    back = read_ontology_split(tmp_path)
    assert back.examples == split.examples
    assert back.unknown == split.unknown and back.config == split.config


def test_bad_config_and_duplicates():
    with pytest.raises(ValueError):
        SplitConfig(kinds=("X",))
    pairs = _fixture_pairs(5, 0)
    with pytest.raises(ValueError, match="not unique"):
        build_ontology_split(pairs + [dataclasses.replace(pairs[0], id="other")], [], SMALL)
    assert isinstance(Example.from_dict(Example("i", "q", None, 1, "out_of_domain",
                                                "detect_dev").to_dict()), Example)


@pytest.mark.shared
@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/data is absent")
def test_shared_data_split():
    pairs = load_pairs(SHARED)
    assert len(pairs) > 9000
    assert len({normalize_question(p.question) for p in pairs}) == len(pairs)
    split = build_ontology_split(pairs, load_ood_utterances(SHARED), SplitConfig(seed=0))
    check_split(split)
    sizes = split.sizes()
    assert sizes["detect_test"]["out_of_ontology"] == 500
    assert sizes["detect_test"]["in_ontology"] == 500
    assert sizes["parser_train"]["total"] > 6000
