"""Count the Python functions whose behaviour depends on particular English words (issue 58).

Reads the source with :mod:`ast` (nothing is imported).  Every ``def`` counts as a function
(methods and nested functions too, each on its own body).  A function is counted

* **literal**: when its own body holds an English-word string literal: a string constant
  with a word of the dictionary (WordNet's lemmas of three letters or more, the stop words
  and prepositions of :mod:`verifier.lexical`), no identifier (no ``_``, ``:``, ``$``), not a docstring, not a piece of an f-string, not a message
  (five words or more, or an argument of a logging call or an exception), and not a name of
  the code's own (:data:`CODES`: kinds of units and symbols, intents, query functions,
  template names, grammar predicates);
* **list**: when it reads a module-level word-list constant (:data:`WORD_LISTS`, the
  constants that held English words, regular expressions over English text or closed-class
  predicates; after issue 58 they are loaded from ``axioms/words``).

Last line: ``functions=<n> literal=<n> list=<n> either=<n>``.

    python bench/english_functions.py [--root DIR] [--verbose] FILE_OR_FOLDER ...
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from pathlib import Path

#: Module-level constants of grounding, intent, qualifiers and filters that hold English
#: words, regular expressions over English text, or closed-class predicates (before and
#: after issue 58: then written in Python, now loaded from axioms/words).
WORD_LISTS = frozenset("""
_ABSTRACT_WORDS _PREPOSITION_ROLES _SKIP_ABSTRACT _IMPLIED_KEYS _NAME_TITLES _DETERMINERS _ROMAN
_ABSTRACT_SUFFIXES _DOER_SUFFIXES _POSSESSIVE_PRONOUNS _THIRD_PERSON _PATH_PREPOSITIONS
ABSTRACT_WORDS PREPOSITION_ROLES SKIP_ABSTRACT IMPLIED_KEYS YEAR_KEYS NAME_TITLES DETERMINERS
DEFINITE_ARTICLE ROMAN ABSTRACT_SUFFIXES DOER_SUFFIXES AGENT_SUFFIXES POSSESSIVE_PRONOUNS THIRD_PERSON
PATH_PREPOSITIONS INVERSION_PREPOSITIONS NUMBER_OF_WORDS AGENT_PREPOSITION _LEADING_ARTICLE
_WH_START AUX _YN_START _REQUEST_START _WH_AFTER_FRONTED _CLOZE _NAME_TEST _UNDIRECTED_SUPERLATIVES
_TIME_BOUND _HOW_MUCH_DONE _ASKS_FOR_ALL _ASKS_FOR_SOME _NUMBER_WORDS NUMBER_OF
_FOR_WHAT _PURPOSE _EARLIEST _LATEST _PREPOSITIONS _STARTS _END_VERBS _ENDS _WHY_ENDED _EDGE_WORDS
_TIME_AFTER _SPANS _TIME_NOUNS _PLACE_OR_TIME _AUX _PASSIVE_AGENTS
_BC NAME_EDGE _CMP_WORDS _FILLERS _COPULA _TEXT_WORDS
""".split())

#: Strings that are names of the code's own, not English read from a question: kinds of
#: units, symbols, names and links, intents and query forms, IR functions, template names,
#: parts of speech and grammar predicates, configuration and file names.
CODES = frozenset("""
noun relational_noun verb adjective preposition named abstract number pronoun property item class
literal qualifier any lexicon prep none inverse_property select ask count superlative comparative
max min comm contains strstarts strends regex year lcase agg_count agg_count_distinct string
named_n holiday card yofc pron compound poss appos nominalization loc_nonsp generic_entity superl
comp measure unknown neg subord parg_d focus_d id ellipsis_ref mofy dofw dofm ord
pronoun_reference noun_of_item_value adjective_item_of noun_relation_between statement coreference
background label alias search match fullmatch words map pattern doc lists name examples use
ignore_case suffix text finds word ends_with key value group mrs left right pr ps wdt pq Unit
""".split())

_WORD = re.compile(r"[A-Za-z]{2,}")


def dictionary() -> tuple[frozenset[str], frozenset[str]]:
    """WordNet's lemmas (the shipped relations table), and the function words (the stop words
    and prepositions of :mod:`verifier.lexical`)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from verifier.lexical import PREPOSITIONS, STOPWORDS, WordNetRelations

    function_words = frozenset(w.casefold() for w in set(STOPWORDS) | set(PREPOSITIONS))
    words: set[str] = set()
    table = WordNetRelations.shipped_table()
    if table is not None and table.is_file():
        words = {w.casefold() for w in WordNetRelations.load(table).related if w.isalpha()}
    return frozenset(words) | function_words, function_words


def _docstrings(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                out.add(id(body[0].value))
    return out


def _excluded(tree: ast.AST) -> set[int]:
    """Ids of string constants that are docstrings, f-string pieces or messages."""
    out = _docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            out |= {id(n) for n in ast.walk(node)}
        elif isinstance(node, ast.Raise) and node.exc is not None:
            out |= {id(n) for n in ast.walk(node.exc)}
        elif isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Attribute) and f.attr in ("debug", "info", "warning", "error", "exception"):
                out |= {id(n) for a in node.args for n in ast.walk(a)}
    return out


def _own_nodes(fn: ast.AST):
    """The nodes of a function's body, not those of functions defined inside it."""
    stack = list(ast.iter_child_nodes(fn))
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        yield n
        stack.extend(ast.iter_child_nodes(n))


def english(s: str, words: frozenset[str], function_words: frozenset[str] = frozenset()) -> bool:
    """Whether a string constant is an English-word literal (see the module docstring): a
    word of three letters or more of the dictionary, or a function word (``function_words``:
    "of", "by"), in a string that is no identifier of the code (no ``_``, ``:`` or ``$``:
    ``_be_v``, ``xsd:integer``, ``$prop``)."""
    if s in CODES or len(s.split()) >= 5 or any(c in s for c in "_:$"):
        return False
    return any(w.casefold() not in CODES and (w.casefold() in function_words
                                              or (len(w) >= 3 and w.casefold() in words))
               for w in _WORD.findall(s))


def scan(path: Path, words: frozenset[str], function_words: frozenset[str]) -> list[tuple[str, bool, bool]]:
    """(qualified name, has an English literal, reads a word list) of each function."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    skip = _excluded(tree)
    out = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = f"{prefix}{child.name}"
                lit = lst = False
                for n in _own_nodes(child):
                    if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in skip \
                            and english(n.value, words, function_words):
                        lit = True
                    elif isinstance(n, ast.Name) and n.id in WORD_LISTS:
                        lst = True
                out.append((name, lit, lst))
                visit(child, name + ".")
            elif isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}{child.name}.")
            else:
                visit(child, prefix)

    visit(tree, "")
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="+", help="Python files or folders")
    ap.add_argument("--verbose", action="store_true", help="list the counted functions")
    args = ap.parse_args(argv)
    words, function_words = dictionary()
    files = [f for p in map(Path, args.paths) for f in (sorted(p.rglob("*.py")) if p.is_dir() else [p])]
    total = literal = listed = either = 0
    for f in files:
        for name, lit, lst in scan(f, words, function_words):
            total += 1
            literal += lit
            listed += lst
            either += lit or lst
            if args.verbose and (lit or lst):
                print(f"{f}:{name}: {'literal ' if lit else ''}{'list' if lst else ''}")
    print(f"functions={total} literal={literal} list={listed} either={either}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
