"""Generalisation splits (verifier.benchmark.splits): the defining properties hold on a fixture,
and the checkers catch every kind of violation."""

from __future__ import annotations

import dataclasses
import random

import pytest

from verifier.benchmark.gold import GoldPair
from verifier.benchmark.records import BenchRecord
from verifier.benchmark.unionfind import UnionFind
from verifier.benchmark.splits import (SplitPropertyError, SplitSizes, build_unknown_template_split,
                                       build_unknown_uri_split, check_unknown_template_split,
                                       check_unknown_uri_split, skeleton, template_id)

SHAPES = [
    "SELECT ?x WHERE {{ wd:{q} wdt:{p} ?x . }}",
    "SELECT ?x WHERE {{ ?x wdt:P31 wd:{q} . ?x wdt:{p} wd:Q1 . }}",
    "ASK {{ wd:{q} wdt:{p} wd:Q2 . }}",
    "SELECT (COUNT(?x) AS ?n) WHERE {{ ?x wdt:{p} wd:{q} . }}",
    "SELECT ?x WHERE {{ wd:{q} wdt:{p} ?x . FILTER(?x > {n}) }}",
    "SELECT ?x WHERE {{ wd:{q} p:{p} ?s . ?s ps:{p} ?x . ?s pq:P585 ?t . }}",
]


def _pairs(n: int = 240) -> list[GoldPair]:
    rng = random.Random(11)
    out = []
    for k in range(n):
        p = f"P{rng.randint(10, 14)}"
        q = f"Q{rng.randint(10, 20)}" if k % 3 else f"Q{1000 + k // 6}"  # rare items, 2 uses
        shape = SHAPES[k % len(SHAPES)] if k % 7 else SHAPES[k % 4] + " "
        if k % 11 == 0:  # a few one-off shapes (singleton templates)
            shape = "SELECT DISTINCT ?y WHERE {{ ?y wdt:{p} wd:{q} . ?y wdt:P27 wd:Q3 . }} LIMIT %d" % k
        sparql = shape.format(p=p, q=q, n=k)
        syms = {p, q, "Q1", "Q2", "Q3", "P31", "P585", "P27"} & set(sparql.replace("{", " ").replace(":", " ").split())
        syms |= {x for x in (p, q) if x in sparql}
        out.append(GoldPair(f"g{k}", f"question {k}?", sparql, "fx", "test", frozenset(syms)))
    return out


@pytest.fixture(scope="module")
def uri_split():
    return build_unknown_uri_split(_pairs(), seed=3, sizes=SplitSizes(dev=0.1, test=0.2))


@pytest.fixture(scope="module")
def template_split():
    return build_unknown_template_split(_pairs(), seed=3, sizes=SplitSizes(dev=0.1, test=0.2))


def test_unknown_uri_split_properties(uri_split):
    recs, stats = uri_split
    check_unknown_uri_split(recs)
    by = {s: [r for r in recs if r.get("split") == s] for s in ("train", "dev", "test")}
    assert by["test"] and by["dev"] and by["train"]
    train_syms = {s for r in by["train"] for s in r.get("symbols")}
    for r in by["dev"] + by["test"]:
        assert set(r.get("symbols")) - train_syms  # a URI never seen in training
        assert r.category == "unknown_uri" and r.label == 1
    assert 0.15 <= len(by["test"]) / len(recs) <= 0.2
    assert stats["rare_below"] == 5 and stats["components"] > 0


def test_unknown_uri_split_is_deterministic(uri_split):
    again, _ = build_unknown_uri_split(_pairs(), seed=3, sizes=SplitSizes(dev=0.1, test=0.2))
    assert again == uri_split[0]
    other, _ = build_unknown_uri_split(_pairs(), seed=4, sizes=SplitSizes(dev=0.1, test=0.2))
    assert [r.get("split") for r in other] != [r.get("split") for r in again]


def _moved(recs: list[BenchRecord], rid: str, **changes) -> list[BenchRecord]:
    out = []
    for r in recs:
        if r.id == rid:
            extra = dict(r.extra)
            extra.update({k: v for k, v in changes.items() if k != "detail"})
            r = dataclasses.replace(r, extra=extra, detail=changes.get("detail", r.detail))
        out.append(r)
    return out


def test_unknown_uri_checker_catches_violations(uri_split):
    recs, _ = uri_split
    comp_size = {}
    for r in recs:
        comp_size[r.detail.get("component")] = comp_size.get(r.detail.get("component"), 0) + 1
    test_rec = next(r for r in recs if r.get("split") == "test"
                    and comp_size[r.detail["component"]] > 1)
    # moving one pair of a test component into train leaks the component's rare URIs
    moved = [dataclasses.replace(r, category="in_distribution") if r.id == test_rec.id else r
             for r in _moved(recs, test_rec.id, split="train")]
    with pytest.raises(SplitPropertyError, match="occur in train") as e:
        check_unknown_uri_split(moved)
    assert "spans" in str(e.value)
    with pytest.raises(SplitPropertyError, match="category 'unknown_uri' in train"):
        check_unknown_uri_split(_moved(recs, test_rec.id, split="train"))
    # a dev/test pair whose URIs are all seen in train
    train_rec = next(r for r in recs if r.get("split") == "train" and not r.get("rare_uris"))
    bad = _moved(recs, train_rec.id, split="test")
    with pytest.raises(SplitPropertyError, match="every URI also occurs in train"):
        check_unknown_uri_split(bad)
    with pytest.raises(SplitPropertyError, match="unknown_uris"):
        check_unknown_uri_split(_moved(recs, test_rec.id, detail={"unknown_uris": [],
                                                                  "component": None}))
    with pytest.raises(SplitPropertyError, match="split"):
        check_unknown_uri_split(_moved(recs, test_rec.id, split="validation"))


def test_skeleton_abstracts_ids_literals_and_variables():
    a = skeleton("PREFIX wd: <http://www.wikidata.org/entity/> SELECT ?answer WHERE { "
                 "wd:Q42 wdt:P69 ?answer . ?answer wdt:P31 wd:Q3918 . FILTER(?y > 1990) }")
    b = skeleton("SELECT ?x WHERE { <http://www.wikidata.org/entity/Q1> wdt:P19 ?x . "
                 "?x wdt:P31 wd:Q515 . FILTER(?z > 12.5) }")
    assert a == b == ("SELECT ?v0 WHERE { wd:ENT wdt:PROP ?v0 . ?v0 wdt:P31 wd:ENT . "
                      "FILTER (?v1 > \"NUM\") }")
    c = skeleton("SELECT ?x WHERE { wd:Q1 wdt:P19 ?x . }")
    assert c != a and template_id(a) == template_id(b) != template_id(c)
    s = skeleton('SELECT ?x WHERE { ?x rdfs:label "Paris"@fr ; p:P1 ?st . ?st ps:P1 ?v }')
    assert '"STR"' in s and "p:PROP" in s and "ps:PROP" in s and "Paris" not in s


def test_unknown_template_split_properties(template_split):
    recs, stats = template_split
    check_unknown_template_split(recs, recompute=True)
    where = {}
    for r in recs:
        where.setdefault(r.get("template"), set()).add(r.get("split"))
    assert all(len(v) == 1 for v in where.values())
    assert {r.get("split") for r in recs} == {"train", "dev", "test"}
    assert stats["templates"] == len(where)


def test_unknown_template_checker_catches_violations(template_split):
    recs, _ = template_split
    size = {}
    for r in recs:
        size[r.get("template")] = size.get(r.get("template"), 0) + 1
    test_rec = next(r for r in recs if r.get("split") == "test" and size[r.get("template")] > 1)
    with pytest.raises(SplitPropertyError, match="occurs in"):
        check_unknown_template_split(_moved(recs, test_rec.id, split="train"), recompute=False)
    with pytest.raises(SplitPropertyError, match="not the id of its skeleton"):
        check_unknown_template_split(_moved(recs, test_rec.id, template="t000"), recompute=False)
    tampered = [dataclasses.replace(r, sparql="SELECT ?x WHERE { ?x ?p ?o }")
                if r.id == test_rec.id else r for r in recs]
    with pytest.raises(SplitPropertyError, match="differs"):
        check_unknown_template_split(tampered, recompute=True)


def test_split_sizes_validation():
    with pytest.raises(ValueError):
        SplitSizes(dev=0.6, test=0.5)


def test_union_find_components_and_representatives():
    uf = UnionFind(6)
    uf.union(4, 1)
    uf.union(1, 3)
    uf.union(5, 2)
    groups = {}
    for i in range(6):
        groups.setdefault(uf.find(i), []).append(i)
    assert groups == {0: [0], 1: [1, 3, 4], 2: [2, 5]}  # the smallest member represents its set
