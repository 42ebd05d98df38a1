"""Word lists as data (``axioms/words/*.yaml``, :mod:`verifier.vocabulary`): the shipped files
lint clean and their examples pass; values are immutable; bad files give file:line errors;
``verifier axioms lint`` / ``test`` cover them."""

from __future__ import annotations

import re
import textwrap

import pytest

from verifier.axioms import default_pack_dirs
from verifier.cli import main as cli_main
from verifier.vocabulary import (
    VocabularyError, lint_words, run_word_examples, vocabulary, words_dir,
)

SHIPPED = ("grounding", "intent", "qualifiers", "filters", "lexical", "views", "question", "rewrites")


def _words(tmp_path, text: str, name: str = "test"):
    d = tmp_path / "pack"
    (d / "words").mkdir(parents=True, exist_ok=True)
    (d / "words" / f"{name}.yaml").write_text(textwrap.dedent(text), encoding="utf-8")
    return d


def test_shipped_word_lists_lint_clean_and_their_examples_pass():
    assert sorted(p.stem for p in words_dir().glob("*.yaml")) == sorted(SHIPPED)
    assert lint_words(default_pack_dirs()) == []
    ran, failures, problems = run_word_examples(default_pack_dirs())
    assert failures == [] and problems == []
    # every list has a doc line and at least one example
    lists = [wl for name in SHIPPED for wl in vocabulary(name).lists.values()]
    assert len(lists) >= 50 and ran >= len(lists)
    assert all(wl.doc.strip() and wl.examples for wl in lists)


def test_values_are_immutable_and_loaded_once():
    v = vocabulary("grounding")
    assert v is vocabulary("grounding")
    roles = v.mapping("preposition_roles")
    assert roles["from"] == ("cause", "source", "origin")
    with pytest.raises(TypeError):
        roles["from"] = ("x",)  # type: ignore[index]
    assert isinstance(v.words("determiners"), tuple)
    assert v.word_set("determiners") == frozenset({"the", "a", "an"})
    with pytest.raises(KeyError):
        v.pattern("determiners")  # a words list, not a pattern
    with pytest.raises(Exception):
        v.lists["determiners"] = None  # type: ignore[index]


def test_patterns_refer_to_word_lists_of_their_file():
    intent = vocabulary("intent")
    assert intent.pattern("yn_start").pattern == r"^\W*" + intent.alternation("auxiliaries") + r"\b"
    assert intent.pattern("yn_start").flags & re.I
    assert intent.pattern("yn_start").match("Did Einstein marry?")
    assert not intent.pattern("yn_start").match("Island of Crete")


def test_bad_files_give_file_and_line(tmp_path):
    d = _words(tmp_path, """\
        doc: A bad file.
        lists:
          - name: fine
            doc: Fine.
            words: [a, b]
            examples:
              - {text: "a b c", finds: [a, b]}
          - name: broken
            doc: A broken pattern.
            pattern: '(unclosed'
            examples:
              - {text: "x", match: null}
          - name: nodoc
            words: [x]
            examples:
              - {text: "x", finds: [x]}
          - name: booleans
            doc: YAML reads a bare on as true.
            words: [in, on]
            examples:
              - {text: "in", finds: [in]}
          - name: unknown
            doc: Refers to a list that does not exist.
            pattern: 'x${nolist}'
            colour: red
            examples:
              - {text: "x", match: null}
          - name: fine
            doc: A second list of that name.
            words: [c]
            examples:
              - {text: "c", finds: [c]}
    """)
    issues = lint_words([d])
    got = {(i.line, i.code) for i in issues}
    assert got == {(10, "bad-pattern"), (13, "missing-field"), (19, "bad-value"), (24, "unknown-list"),
                   (25, "unknown-field"), (28, "duplicate-name")}
    assert all(str(i).startswith(str(d / "words" / "test.yaml") + ":") for i in issues)
    with pytest.raises(VocabularyError):
        vocabulary("test", d / "words")


def test_a_failing_example_is_reported_with_its_line(tmp_path):
    d = _words(tmp_path, """\
        doc: Examples.
        lists:
          - name: endings
            doc: Word endings.
            match: suffix
            words: [ment, tion]
            examples:
              - {word: government, ends_with: ment}
              - {word: nation, ends_with: ment}
          - name: starts
            doc: Starts with a wh-word.
            pattern: '^(who|what)\\b'
            ignore_case: true
            use: match
            examples:
              - {text: "Who is it?", match: "Who"}
              - {text: "Is it who?", match: null}
    """)
    ran, failures, problems = run_word_examples([d])
    assert (ran, problems) == (4, [])
    assert [(f.line, f.list_name, f.expected, f.got) for f in failures] == [(9, "endings", "ment", "tion")]


def test_cli_lint_and_test_cover_the_word_lists(tmp_path, capsys):
    d = _words(tmp_path, """\
        doc: One list with an example that fails.
        lists:
          - name: articles
            doc: Articles.
            words: [the, a]
            examples:
              - {text: "the cat", finds: [the, cat]}
    """)
    assert cli_main(["axioms", "lint", str(d)]) == 0
    bad = _words(tmp_path / "b", "doc: x\nlists: []\n")
    assert cli_main(["axioms", "lint", str(bad)]) == 1
    assert "test.yaml:2: error[missing-field]" in capsys.readouterr().out
    from verifier.cli.axioms import _run_word_examples
    from argparse import Namespace

    assert _run_word_examples(Namespace(dirs=[str(d)])) == 1
    out = capsys.readouterr().out
    assert "FAIL" in out and "test.yaml:7: list 'articles'" in out


def test_lemmas_merge_maps_of_one_word_each_and_name_the_file_otherwise(tmp_path):
    d = _words(tmp_path, """\
        doc: Irregular forms.
        lists:
          - name: past
            doc: Past forms.
            map: {born: [bear], wrote: [write]}
            examples:
              - {key: born, value: [bear]}
          - name: plurals
            doc: Plurals, and a form that overrides one of the past forms.
            map: {children: [child], born: [birth]}
            examples:
              - {key: children, value: [child]}
          - name: ambiguous
            doc: A form with two lemmas.
            map: {found: [find, found]}
            examples:
              - {key: found, value: [find, found]}
    """)
    v = vocabulary("test", d / "words")
    merged = v.lemmas("past", "plurals")
    assert dict(merged) == {"born": "birth", "wrote": "write", "children": "child"}
    with pytest.raises(TypeError):
        merged["x"] = "y"  # type: ignore[index]
    with pytest.raises(VocabularyError, match=r"test\.yaml:13: error\[bad-value\]: list 'ambiguous'"):
        v.lemmas("ambiguous")


def test_lexical_reads_its_words_from_data():
    from verifier import lexical

    v = vocabulary("lexical")
    assert lexical.PREPOSITIONS == v.word_set("prepositions")
    assert lexical.STOPWORDS == v.word_set("prepositions") | v.word_set("function_words")
    assert lexical.TITLES == v.word_set("titles") and lexical.ID_WORDS == v.word_set("id_words")
    # irregular forms: from the maps, through the engine
    assert lexical.lemma_of("born") == "bear" and lexical.lemma_of("movies") == "film"
    assert lexical.irregular_base("grew") == "grow" and lexical.lemma_of("grew") == "grew"
    assert lexical.label_shape("made up of") == "by" and lexical.label_shape("has part") == "verb"


def test_grammar_predicates_of_grounding_and_views_are_read_from_their_files():
    from verifier.grounding.checks import preposition_preds
    from verifier.grounding.words import PREFIXED_WORD, PREPOSITION_SENSES

    assert PREPOSITION_SENSES == vocabulary("grounding").words("preposition_senses")
    assert preposition_preds("enclave within", "enclave") == (
        "_within_p", "_within_p_loc", "_within_p_state", "_within_p_temp", "_within_p_dir")
    assert PREFIXED_WORD.fullmatch("_co-_a_with").group(1) == "co"
    assert PREFIXED_WORD.fullmatch("_extensive_a_1") is None
    views = vocabulary("views")
    assert views.file.endswith("views.yaml")
    assert views.word_set("kind_nouns") == frozenset({"kind", "type", "sort", "style", "list"})
    assert views.words("identity_copula") == ("_be_v_id",)


def test_mrs_front_end_reads_its_words_from_data():
    from parsers.mrs import predicates, question

    v = vocabulary("question")
    # predicates: quantifiers, scopal words and adjective poles, through the engines
    assert predicates.UNIVERSAL_QUANTIFIERS == v.word_set("universal_quantifiers")
    assert predicates.quantifier_kind("_every_q") == "forall" and predicates.quantifier_kind("_no_q") == "no"
    assert predicates.quantifier_kind("_most_q") == "unsupported"
    assert predicates.scopal_kind("_believe_v_1") == "opaque" and predicates.scopal_kind("neg") == "neg"
    assert predicates.scopal_is_assumed("_tell_v_1") is False
    assert predicates.scale_direction("_low_a_1") == "min" and predicates.scale_direction("_high_a_1") == "max"
    # question: superlative markers, comparison words, request verbs
    assert question.REQUEST_VERBS == v.word_set("request_verbs")
    assert dict(v.lemmas("comparative_prepositions"))["at least"] == ">="
    assert v.lemmas("superlative_markers")["fewest"] == "min"
    # chunk and translate: the regular expressions over words
    assert v.pattern("article_before_name").search("Who founded the ").group(0) == " the "
    assert v.pattern("relativizer").match("Whose album") is not None
    assert v.pattern("relativizer").search("the thatched roof") is None
