"""The ``association`` link source (issue 59, point 1): word-symbol links learned from paired
training data, offered for a property or class that no other source links, with the learned
confidence; ``[grounding] disabled_sources = ["association"]`` or ``associations = "none"``
turns it off.

Uses the repository's chemistry example (its MRS, labels and pack) and a tiny table written by
the test, so it runs without ../shared.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from verifier.api import Verifier
from verifier.config import load_config
from verifier.grounding import LINK_SOURCES
from verifier.grounding.associations import (
    ASSOCIATIONS_PATH, AssociationEntry, AssociationTable, association_confidence,
    configured_associations, load_associations,
)

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "chemistry"

#: "mass" says nothing of the boiling point: no lexicon, label or alias links them
QUESTION = "What is the mass of benzene?"
BOILING = "SELECT ?v WHERE { wd:Q2270 wdt:P2102 ?v . }"


@pytest.fixture(scope="module")
def config():
    return load_config(EXAMPLE / "verifier.toml", environ={}).with_values("stacking", model="none")


@pytest.fixture(scope="module")
def tiny_table(tmp_path_factory) -> Path:
    table = AssociationTable.of([AssociationEntry("mass", "n", "P2102", "property", 4, 5,
                                                  association_confidence(4, 5))],
                                {"doc": "a test table", "trained_on": {"test": 5}})
    p = tmp_path_factory.mktemp("assoc") / "associations.json"
    p.write_text(json.dumps(table.to_json()), encoding="utf-8")
    return p


@pytest.fixture(scope="module")
def base(config) -> Verifier:
    return Verifier(config)  # the source is off by default


def _verifier(base: Verifier, config, **grounding) -> Verifier:
    return Verifier(config.with_values("grounding", **grounding), pack=base.pack, labels=base.labels,
                    mrs=base.mrs, wordnet=base.wordnet)


def test_the_statistic_is_a_smoothed_share_with_a_support_discount():
    assert association_confidence(3, 3) == pytest.approx(0.75)
    assert association_confidence(30, 30) > association_confidence(3, 3) > association_confidence(3, 6)
    assert association_confidence(0, 5) == 0.0 and association_confidence(5, 0) == 0.0
    assert "association" in LINK_SOURCES


def test_the_shipped_table_loads_and_says_what_it_was_trained_on():
    t = load_associations()
    assert ASSOCIATIONS_PATH.is_file() and len(t) > 0
    # off by default; "default" is the shipped table
    assert configured_associations(None) is None and configured_associations("none") is None
    assert len(configured_associations("default")) == len(t)
    trained = t.info["trained_on"]
    assert trained and all(("train" in k or "seed-0" in k) for k in trained), trained
    for es in t.entries.values():
        for e in es:
            assert e.kind in ("property", "class") and 0.0 < e.confidence <= 1.0
            assert e.support <= e.word_count


def test_a_bad_table_is_an_error_and_bad_rows_are_skipped(tmp_path):
    p = tmp_path / "t.json"
    p.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(ValueError):
        load_associations(p)
    p.write_text(json.dumps({"entries": [["mass", "n", "P2102", "property", 4, 5, 0.67], ["bad"],
                                         ["x", "n", "P1", "item", 1, 1, 1.0]]}), encoding="utf-8")
    t = load_associations(p)
    assert len(t) == 1 and t.confidence("Mass", "n", "P2102") == pytest.approx(0.67)
    assert t.confidence("mass", "v", "P2102") is None


def test_a_pair_aligns_only_through_the_association_link(base, config, tiny_table):
    without = base.verify(QUESTION, BOILING)
    assert without.decision != "accept"
    r = _verifier(base, config, associations=str(tiny_table)).verify(QUESTION, BOILING)
    assert r.verdict == "faithful" and r.decision == "accept"
    links = [l for l in r.deductive.best.links if l.source == "association"]
    assert links and links[0].symbol.id == "P2102"
    assert links[0].confidence == pytest.approx(association_confidence(4, 5), abs=1e-4)
    assert "association" in links[0].describe()
    # the link is offered only where no other source links the symbol: the right query keeps
    # its label link
    good = _verifier(base, config, associations=str(tiny_table)).verify(
        QUESTION, "SELECT ?v WHERE { wd:Q2270 wdt:P2067 ?v . }")
    assert good.decision == "accept"
    assert all(l.source != "association" for l in good.deductive.best.links)


def test_the_disabled_source_gives_the_old_verdict(base, config, tiny_table):
    old = base.verify(QUESTION, BOILING)
    off = _verifier(base, config, associations=str(tiny_table), disabled_sources=["association"])
    r = off.verify(QUESTION, BOILING)
    assert (r.verdict, r.decision) == (old.verdict, old.decision)
