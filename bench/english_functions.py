"""Count the Python functions whose behaviour depends on particular English words or phrasings.

    python bench/english_functions.py [ROOT ...] [--package parsers/mrs] [-v]

Method (static, over the ``.py`` files under ``ROOT/PACKAGE``): a function (every ``def``,
methods and nested ones included) is *English-keyed* when its body, docstrings, log and
exception messages left out, holds

* a string literal with an English word: a lower-case run of two or more letters, once regex
  syntax (escapes, ``(?P<group>``, inline flags) and the vocabulary of SimpleMRS and of the
  grammar's abstract predicates (``named``, ``udef_q``, ``_v_1``, ``p_state`` ...) are taken
  out; the names of regex groups passed to ``group`` / ``span`` / ``start`` / ``end`` and the
  sorts passed to ``new`` are no English; or
* a name of a module-level constant (of its module, or imported from ``verifier.lexical``)
  whose value holds such a literal: a word list, a table, a regex.

A function that reads a word list, table or regex *by name* from the shape files
(``shape_rx`` / ``shape_words`` / ``shape_table`` / ``shape_frag``) is counted apart: its
English lives in ``axioms/shapes``.  Prints one line per root:
``functions=N english_keyed=E reads_shape_data=D english_constants=C``.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from pathlib import Path

_MRS_WORDS = frozenset("""
named proper udef def explicit implicit which compound poss appos loc nonsp pron pronoun abstr deg
measure much many card yofc nn vb vbd vbn vbz vbg jj unknown ques prop comm qeq top index rels hcons
lbl arg carg rstr body sf thing person place time state dir temp subord id the_q
""".split())
_REGEX_SYNTAX = re.compile(r"\\[a-zA-Z]|\(\?P<\w+>|\(\?P=\w+\)|\(\?[aiLmsux-]+[:)]|\{\{[\w:]+\}\}")
_TOKEN = re.compile(r"(?<![A-Za-z0-9])[a-z]{2,}(?![A-Za-z0-9])")
_ACCESSORS = frozenset({"shape_rx", "shape_words", "shape_table", "shape_frag"})


def english_words(text: str) -> list[str]:
    """The English-looking words of a string literal (see the module's doc)."""
    text = _REGEX_SYNTAX.sub(" ", text)
    text = re.sub(r"\b(?:[a-z]+_)?[a-z]+_[qpnvac](?:_\w+)?\b", lambda m: " " if all(
        t in _MRS_WORDS or len(t) < 2 for t in m.group(0).split("_")) else m.group(0), text)
    out = []
    for t in _TOKEN.findall(text):
        if t not in _MRS_WORDS:
            out.append(t)
    return out


_BASE_WORDS = _MRS_WORDS
_RE_CALLS = frozenset({"compile", "search", "match", "fullmatch", "sub", "subn", "split", "findall", "finditer"})
_TEXT_CALLS = frozenset({"startswith", "endswith", "removeprefix", "removesuffix"})
_PRED = re.compile(r"^_([^\W_]+(?:[+-][^\W_]+)*)(?:/[a-z]+)?_[a-z]+(?:_\w+)?$")


def _strings(node: ast.AST) -> list[str]:
    return [c.value for c in ast.walk(node) if isinstance(c, ast.Constant) and isinstance(c.value, str)]


def _english(strings: list[str]) -> bool:
    return any(english_words(t) for t in strings)


def english_sites(fn: ast.AST) -> list[str]:
    """Where ``fn`` depends on English words (see the module's doc): regexes, word lists
    and comparisons with literal words, text tests, surface predicates of the grammar."""
    sites = []
    for n in ast.walk(fn):
        if isinstance(n, ast.Call):
            f = n.func
            if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "re" \
                    and f.attr in _RE_CALLS and _english([t for a in n.args[:1] for t in _strings(a)]):
                sites.append("regex")
            if isinstance(f, ast.Attribute) and f.attr in _TEXT_CALLS and _english([t for a in n.args for t in _strings(a)]):
                sites.append("text test")
        elif isinstance(n, ast.Compare):
            for op, right in zip(n.ops, n.comparators):
                if isinstance(op, (ast.In, ast.NotIn)) and isinstance(right, (ast.Set, ast.Tuple, ast.List, ast.Dict)) \
                        and _english(_strings(right)):
                    sites.append("word list")
                if isinstance(op, (ast.Eq, ast.NotEq)):
                    for lit, other in ((n.left, right), (right, n.left)):
                        if isinstance(lit, ast.Constant) and isinstance(lit.value, str) and english_words(lit.value) \
                                and not isinstance(other, (ast.Attribute, ast.Subscript)):
                            sites.append("word")
        elif isinstance(n, (ast.Set, ast.Dict)) and _english(_strings(n)):
            sites.append("word list")
        elif isinstance(n, ast.Constant) and isinstance(n.value, str):
            m = _PRED.match(n.value)
            if m and m.group(1).casefold() not in _MRS_WORDS:
                sites.append("predicate")
    return sites


def _english_constants(tree: ast.Module, lexical: frozenset[str]) -> set[str]:
    out: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            value = node.value
            if value is None:
                continue
            refs = {n.id for n in ast.walk(value) if isinstance(n, ast.Name)}
            if any(isinstance(t, ast.Name) and t.id.startswith("__") for t in targets):
                continue
            if _english(_strings(value)) or refs & out:
                out |= {t.id for t in targets if isinstance(t, ast.Name)}
        if isinstance(node, ast.ImportFrom) and node.module == "verifier.lexical":
            out |= {a.asname or a.name for a in node.names if a.name in lexical}
    return out


def _lexical_constants() -> frozenset[str]:
    """The word-list constants of verifier.lexical (module-level names in capitals)."""
    try:
        import verifier.lexical as lex
    except ImportError:
        return frozenset()
    return frozenset(k for k, v in vars(lex).items() if k.isupper() and isinstance(v, (frozenset, set, dict, tuple)))


def schema_words(root: Path, package: str) -> frozenset[str]:
    """The words that name things of the shape files' schema, not of questions: the strings
    of the ``*_FIELDS`` / ``*_KINDS`` constants and of the keys of the ``*_BUILDERS`` tables
    of the shape engine (read statically), and file-handling words."""
    out = {"yaml", "yml", "utf", "shape", "set", "start", "end", "first", "all", "not", "is", "in", "startswith", "line"}
    for path in (root / package / "shapes").glob("*.py"):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
            names = [t.id for t in targets if isinstance(t, ast.Name)]
            if node.__class__ in (ast.Assign, ast.AnnAssign) and node.value is not None and any(
                    n.endswith(("_FIELDS", "_KINDS", "_BUILDERS")) for n in names):
                for t in _strings(node.value):
                    out |= set(re.findall(r"[a-z]+", t))
    return frozenset(out)


def count(root: Path, package: str, verbose: bool = False) -> dict[str, int]:
    """The counts of the module's doc for the ``.py`` files under ``root / package``."""
    global _MRS_WORDS
    _MRS_WORDS = _MRS_WORDS | schema_words(root, package)
    lexical = _lexical_constants()
    totals = {"functions": 0, "english_keyed": 0, "reads_shape_data": 0, "english_constants": 0}
    for path in sorted((root / package).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        consts = _english_constants(tree, lexical)
        totals["english_constants"] += len(consts)
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            totals["functions"] += 1
            names = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name)}
            sites = english_sites(fn) + ["constant"] * bool(names & consts)
            english = bool(sites)
            reads = bool(names & _ACCESSORS)
            totals["english_keyed"] += english
            totals["reads_shape_data"] += reads and not english
            if verbose and (english or reads):
                print(f"  {path.relative_to(root)}:{fn.lineno} {fn.name}: "
                      f"{', '.join(sorted(set(sites))) if english else 'shape data'}")
    return totals


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("roots", nargs="*", default=[str(Path(__file__).resolve().parents[1])])
    ap.add_argument("--package", default="parsers/mrs")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    for root in args.roots:
        global _MRS_WORDS
        _MRS_WORDS = _BASE_WORDS
        t = count(Path(root), args.package, args.verbose)
        print(f"{root}/{args.package}: " + " ".join(f"{k}={v}" for k, v in t.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
