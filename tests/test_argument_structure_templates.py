"""Templates keyed on argument structure (issue 59, point 3), the optional pack
``axioms/packs/argument_structure`` (off by default, ``[axioms] packs``): the structural
templates ``verb_doer_object``, ``verb_doerless_object``, ``place_preposition`` and the
property templates ``noun_object_of_doer``, ``noun_object_in_place`` and ``noun_of_chain``;
with the template fields they use, ``match.except_preds`` and ``through_lexicon``.

Here: the fields on their own and their lint, the switch, the pack's examples, the axioms
the structural templates give for a reading written in the notation, and verdicts on readings
of the shared corpus with and without the pack (skipped when ``../shared`` is absent).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from verifier.axioms import load_pack, optional_pack_dirs
from verifier.axioms.loader import lint
from verifier.axioms.model import Match
from verifier.deductive.premises import structural_axioms
from verifier.grounding import question_units
from verifier.notation import parse_formula

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
NEW = ("noun_object_of_doer", "noun_object_in_place", "noun_of_chain")


PACK = ROOT / "axioms" / "packs" / "argument_structure"


@pytest.fixture(scope="module")
def pack():
    """The shipped pack with the optional one on."""
    return load_pack([ROOT / "axioms", PACK])


def test_the_pack_is_off_by_default_and_named_by_the_switch():
    assert not set(NEW) & set(load_pack([ROOT / "axioms"]).templates)
    from verifier.resources import axioms_dir

    assert optional_pack_dirs(["argument_structure"]) == [axioms_dir() / "packs" / "argument_structure"]
    with pytest.raises(ValueError, match="argument_structure"):
        optional_pack_dirs(["no_such_pack"])


def test_the_switch_turns_the_pack_on_in_the_verifier():
    from verifier.api import Verifier
    from verifier.config import Config

    on = Verifier(Config({"axioms": {"packs": ["argument_structure"]}, "stacking": {"model": "none"}}),
                  labels=None, mrs=None)
    off = Verifier(Config({"stacking": {"model": "none"}}), labels=None, mrs=None)
    assert set(NEW) <= set(on.pack.templates) and not set(NEW) & set(off.pack.templates)


def test_the_pack_lints_clean_and_its_examples_pass(capsys):
    from types import SimpleNamespace

    from verifier.cli.axioms import _run_pack_examples

    assert not [i for i in lint([ROOT / "axioms", PACK]) if i.severity == "error"]
    args = SimpleNamespace(dirs=[str(PACK)], mrs=[], labels=None, given_only=True)
    assert _run_pack_examples(args) == 0, capsys.readouterr().out


def test_except_preds_leaves_out_the_predicates_it_names():
    m = Match("verb", 3, (), (), (1, 2), None, ("_be_v_*", "_do_v_1"))
    assert m.names("_lead_v_1")
    assert not m.names("_be_v_id") and not m.names("_do_v_1")
    only = Match("preposition", 3, ("_in_p*",), except_preds=("_in_p_temp",))
    assert only.names("_in_p_loc") and not only.names("_in_p_temp") and not only.names("_at_p")


def test_except_preds_is_linted(tmp_path):
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "t.yaml").write_text(
        "version: 1\ndoc: d\ntemplates:\n"
        "  - name: t\n    doc: d\n    match: {kind: verb, except_preds: 3}\n    links: none\n"
        "    axiom: \"forall e x y. $pred(e, x, y) -> doer_object(e, x, y)\"\n", encoding="utf-8")
    issues = lint([tmp_path])
    assert any("except_preds" in str(i) for i in issues)


def test_through_lexicon_is_read_and_linted(pack, tmp_path):
    assert not pack.templates["noun_object_of_doer"].through_lexicon
    assert not pack.templates["noun_object_in_place"].through_lexicon
    assert pack.templates["noun_of"].through_lexicon
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "t.yaml").write_text(
        "version: 1\ndoc: d\ntemplates:\n"
        "  - name: t\n    doc: d\n    match: {kind: noun}\n    links: property\n"
        "    through_lexicon: maybe\n"
        "    axiom: \"forall x y e. $pred(x) & doer_object(e, y, x) -> $prop(y, x)\"\n", encoding="utf-8")
    assert any("through_lexicon" in str(i) for i in lint([tmp_path]))


def test_the_shipped_templates_load_with_examples(pack):
    for name in NEW:
        t = pack.templates[name]
        assert t.links == "property" and t.doc
    assert pack.templates["noun_object_of_doer"].examples
    assert pack.templates["noun_object_in_place"].examples
    assert "_be_v_*" in pack.templates["verb_doer_object"].match.except_preds


def _units(formula: str):
    from types import SimpleNamespace

    reading = SimpleNamespace(formula=parse_formula(formula), mrs=None)
    return question_units(reading, "")


def test_structural_axioms_name_doer_and_object_but_not_for_the_copula(pack):
    f = ('exists e2 x8 e9 e10 x11. _war_n_1(x3) & named(x8, "Lee") & _lead_v_1(e2, x8, x3)'
         ' & _be_v_id(e9, x8, x11) & _practice_v_1(e10, i4, x3) & _in_p_state(e5, e10, x12)')
    texts = [str(a.formula) for a in structural_axioms(pack, _units(f))]
    assert any("_lead_v_1" in t and "doer_object" in t for t in texts)
    assert not any("_be_v_id" in t and "doer_object" in t for t in texts)
    assert any("_practice_v_1" in t and "doerless_object" in t for t in texts)
    assert any("_in_p_state" in t and "place_mod" in t for t in texts)


# --- verdicts on the shared corpus -----------------------------------------------------------

CASES = [
    # (question, faithful query, swapped query)
    ("what wars did robert e lee lead?",
     "SELECT DISTINCT ?x WHERE { wd:Q165557 wdt:P607 ?x }",
     "SELECT DISTINCT ?x WHERE { ?x wdt:P607 wd:Q165557 }"),
    ("Which countries are connected by the Rhine?",
     "SELECT DISTINCT ?uri WHERE { wd:Q584 wdt:P17 ?uri . ?uri wdt:P31 wd:Q6256 }",
     "SELECT DISTINCT ?uri WHERE { ?uri wdt:P17 wd:Q584 . ?uri wdt:P31 wd:Q6256 }"),
    ("What country was abolished in Kirovohrad oblast in the year 1991?",
     "SELECT ?obj WHERE { wd:Q180981 p:P17 ?s . ?s ps:P17 ?obj . ?s pq:P582 ?x FILTER(CONTAINS(YEAR(?x), '1991')) }",
     "SELECT ?obj WHERE { ?obj p:P17 ?s . ?s ps:P17 wd:Q180981 . ?s pq:P582 ?x FILTER(CONTAINS(YEAR(?x), '1991')) }"),
]


def _verifier(pack):
    from verifier.api import Verifier
    from verifier.config import Config
    from verifier.lexical import LabelIndex
    from verifier.mrs_cache import MrsCorpus

    return Verifier(Config({"deductive": {"confidence": "table"}, "stacking": {"model": "none"}}),
                    pack=pack, labels=LabelIndex.cached(str(SHARED / "wikidata" / "labels.tsv")),
                    mrs=MrsCorpus([str(SHARED / "mrs" / "questions.jsonl.gz")]))


needs_shared = pytest.mark.skipif(not (SHARED / "mrs" / "questions.jsonl.gz").is_file()
                                  or not (SHARED / "wikidata" / "labels.tsv").is_file(),
                                  reason="needs ../shared (MRS corpus and labels)")


@pytest.fixture(scope="module")
def with_templates(pack):
    return _verifier(pack)


@pytest.fixture(scope="module")
def without_templates():
    return _verifier(load_pack([ROOT / "axioms"]))


@needs_shared
def test_a_lexicon_word_is_not_read_by_the_general_template(with_templates):
    # "music" -> genre is a lexicon entry whose templates read "What kind of music ..."; the
    # object of "compose" is a work, not a genre of the composer
    v = with_templates.verify("what music did antonio vivaldi compose?", "SELECT ?x WHERE { wd:Q1340 wdt:P136 ?x . }")
    assert v.verdict != "faithful", v.explanation


@needs_shared
@pytest.mark.parametrize("question,sparql", [
    # the words of one linked name in a compound do not chain: a property taken twice
    ("Which is the common-law wife of dedicatee of Temple of Isthmia?",
     "SELECT ?answer WHERE { wd:Q18385210 wdt:P451 ?X . ?X wdt:P451 ?answer . }"),
    # the second hop of a two-hop query swapped
    ("What is famous works for writers of Some Came Running ?",
     "SELECT ?answer WHERE { wd:Q21045747 wdt:P50 ?X . ?answer wdt:P800 ?X . }"),
], ids=["compound-name", "swapped-second-hop"])
def test_the_of_chain_needs_two_of_phrases(with_templates, question, sparql):
    assert with_templates.verify(question, sparql).verdict != "faithful"


@needs_shared
@pytest.mark.parametrize("question,sparql,swapped", CASES, ids=[c[0][:40] for c in CASES])
def test_argument_structure_accepts_the_query_and_not_its_swap(with_templates, without_templates,
                                                              question, sparql, swapped):
    v = with_templates.verify(question, sparql)
    assert v.verdict == "faithful", v.explanation
    used = {a for l in v.deductive.best.links for a in (x.template for x in l.axioms)}
    assert used & set(NEW)
    assert with_templates.verify(question, swapped).verdict != "faithful"
    assert without_templates.verify(question, sparql).verdict != "faithful"
