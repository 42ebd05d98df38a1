"""Count the Python functions whose behaviour depends on particular English words.

A measurement for issue 58 ("knowledge keyed on particular words or phrasings in Python code
is the symptom"): how many functions of the package test or build on English words, and
where the knowledge lives.  A string literal is *English-keyed* when it is not a docstring
nor a message (logging, exceptions, warnings, f-strings, ``help=``) and one of its
alphabetic tokens (split at non-letters, so ``_kind_n_of`` and ``\\b(?:kinds?|types?)\\b``
count by ``kind`` and ``types``) of three letters or more is a WordNet lemma, or any token is
a closed-class English word (*who*, *which*, *of*, *by* ...: WordNet has no prepositions,
pronouns or determiners).  Tokens of a technical vocabulary (SPARQL keywords, JSON field
names used by the package's own records) do not count.  A module-level constant is
English-keyed when its value holds such a literal; a function is counted when its body holds
such a literal or names such a constant (its own module's, or one imported by name).

    python bench/english_keyed.py [PATH ...] [--by-module] [--list]

Default paths: the deductive core (``CORE``: deductive, grounding, intent, qualifiers,
filters, lexical, chase, prover, logic, rewriting and ``parsers/mrs``); literals of more than
``MAX_TOKENS`` tokens (prose, statements), phrases without regex syntax (messages, reasons'
texts), snake-case identifiers that are not ERG predicates (``free_vars``) and upper-case
tokens (SQL, symbols) do not count, nor does a literal that is only the name of a field of
the records in the rule files under ``axioms/`` (``words``, ``pattern``: an engine reading its
data; ``--no-fields`` counts those too).  Last line:
``functions=<n> english_keyed=<n> constants=<n>`` and the same per top-level package above it.
"""

from __future__ import annotations

import argparse
import ast
import gzip
import json
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORDNET = ROOT / "verifier" / "_data" / "wordnet" / "relations.json.gz"

#: closed-class English words (not in WordNet) that key behaviour on phrasing
CLOSED = frozenset("""
who whom whose which what when where why how the a an of in on at by for from with about into
onto over under between among through during before after since until than as is are was were
be been being do does did has have had this that these those there here it its they them their
he she his her him we our you your my me i not no nor and or but if then so very most least
more less many much few each every all any some none both either neither other another same
such own only also just yet still ever never
""".split())

#: tokens of the package's technical vocabulary that are also English words
TECHNICAL = frozenset("""
select where filter optional union minus graph service bind values order group limit offset
distinct reduced ask construct describe count sum min max avg sample lang datatype str regex
true false none null type label item items query queries error errors score id ids name names
key keys value values text data path file files json yaml tsv csv gzip utf index log level
info debug warning default config mode model models signal signals record records line lines
accept reject abstain verdict reason reasons decision category gold test train dev split
string number integer decimal double float boolean long short date add sub
sparql mrs ace erg pred preds args arg var vars atom atoms rule rules stage stages check checks
source sources link links unit units reading readings result results pack packs template
templates lexicon axiom axioms premise premises shape shapes view views grammar family kind
""".split())

_TOKEN = re.compile(r"[A-Za-z]+")

_REGEX = re.compile(r"[\\|\[]|\(\?")
_IDENTIFIER = re.compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$")
#: an ERG predicate name (``_kind_n_of``, ``place_n``): keyed on its word
_PREDICATE = re.compile(r"^_|^[a-z]+_(?:n|v|a|p|q|x|c)(?:_|$)")

#: a literal of more tokens than this is prose (a message) or a statement, not a key
MAX_TOKENS = 12

#: the deductive core: where the issue counts English-keyed functions
CORE = ("verifier/deductive", "verifier/deductive.py", "verifier/grounding", "verifier/grounding.py",
        "verifier/intent.py", "verifier/qualifiers.py", "verifier/filters.py", "verifier/lexical.py",
        "verifier/chase", "verifier/prover.py", "verifier/logic.py", "verifier/rewrite.py",
        "verifier/rewrite", "verifier/vocabulary.py", "parsers/mrs")


#: a record field must name this many records of the rule files to count as a schema name
MIN_FIELD_USES = 3


def schema_fields(root: Path = ROOT / "axioms") -> frozenset[str]:
    """The field names of the records in the rule files (``words``, ``pattern``, ``examples``):
    a literal that only names a field of the data (the engine reading its records) is not
    knowledge of English, whereas the words inside the records are (and live in data)."""
    import yaml

    uses: Counter = Counter()

    def walk(x, in_list: bool) -> None:
        if isinstance(x, dict):
            for k, v in x.items():
                if in_list:
                    uses[str(k)] += 1
                walk(v, False)
        elif isinstance(x, list):
            for v in x:
                walk(v, True)

    for path in sorted(root.rglob("*.yaml")):
        walk(yaml.safe_load(path.read_text(encoding="utf-8")), False)
    return frozenset(k for k, n in uses.items() if n >= MIN_FIELD_USES)


def load_lemmas(path: Path = WORDNET) -> frozenset[str]:
    """WordNet's one-word lemmas (lower case) from the package's relations table."""
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return frozenset(k for k in json.load(f) if k.isalpha())


def english(s: str, lemmas: frozenset[str], fields: frozenset[str] = frozenset()) -> bool:
    """Whether the literal ``s`` keys on an English word (``fields``: names of data fields)."""
    if s in fields:
        return False
    toks = _TOKEN.findall(s)
    if len(toks) > MAX_TOKENS:  # prose or SQL: a message, not a key
        return False
    if len(toks) > 1 and " " in s.strip() and not _REGEX.search(s):
        return False  # a phrase without regex syntax: a message or a reason's text
    if _IDENTIFIER.match(s) and not _PREDICATE.match(s):
        return False  # a Python or record identifier (free_vars, entails_each)
    for tok in toks:
        t = tok.lower()
        if tok != t or t in TECHNICAL:  # upper case: SQL keywords, names of symbols
            continue
        if t in CLOSED or (len(t) >= 3 and t in lemmas):
            return True
    return False


class _Messages(ast.NodeVisitor):
    """Ids of string constants that are messages or docstrings, not behaviour."""

    def __init__(self) -> None:
        self.skip: set[int] = set()

    def _all(self, node: ast.AST) -> None:
        for n in ast.walk(node):
            if isinstance(n, ast.Constant) and isinstance(n.value, str):
                self.skip.add(id(n))

    def visit_JoinedStr(self, node):  # f-strings are messages
        self._all(node)

    def visit_Raise(self, node):
        if node.exc is not None:
            self._all(node.exc)

    def visit_Call(self, node):
        f = node.func
        name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
        if name in {"debug", "info", "warning", "error", "exception", "critical", "warn",
                    "print", "echo", "add_argument", "add_parser", "ArgumentParser",
                    "add_argument_group", "write", "format"}:
            self._all(node)
        for kw in node.keywords:
            if kw.arg in {"help", "description", "epilog", "msg", "message", "doc"}:
                self._all(kw.value)
        self.generic_visit(node)

    def visit_Assert(self, node):
        if node.msg is not None:
            self._all(node.msg)
        self.generic_visit(node)

    def _doc(self, node):
        body = getattr(node, "body", [])
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            self.skip.add(id(body[0].value))

    def visit_Module(self, node):
        self._doc(node)
        self.generic_visit(node)

    def visit_FunctionDef(self, node):
        self._doc(node)
        self.generic_visit(node)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node):
        self._doc(node)
        self.generic_visit(node)


def _keyed_literals(node: ast.AST, skip: set[int], lemmas: frozenset[str],
                    fields: frozenset[str] = frozenset()) -> bool:
    return any(isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in skip
               and english(n.value, lemmas, fields) for n in ast.walk(node))


def scan(path: Path, lemmas: frozenset[str], keyed_names: dict[str, set[str]],
         fields: frozenset[str] = frozenset()) -> tuple[list[str], list[str], int]:
    """(English-keyed functions, English-keyed constants, number of functions) of one module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    m = _Messages()
    m.visit(tree)
    constants: set[str] = set()
    for node in tree.body:
        targets = []
        if isinstance(node, ast.Assign):
            targets = [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value:
            targets = [node.target.id]
        if targets and _keyed_literals(node.value, m.skip, lemmas, fields):
            constants.update(targets)
    # names imported from modules whose constants are keyed
    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            for a in node.names:
                if a.name in keyed_names.get(node.module.split(".")[-1], set()):
                    imported.add(a.asname or a.name)
    known = constants | imported
    funcs, keyed = 0, []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            funcs += 1
            body = ast.Module(body=node.body, type_ignores=[])
            uses = {n.id for n in ast.walk(body) if isinstance(n, ast.Name)}
            if _keyed_literals(body, m.skip, lemmas, fields) or uses & known:
                keyed.append(node.name)
    return keyed, sorted(constants), funcs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="*", default=None,
                    help="files or folders (default: the deductive core, CORE)")
    ap.add_argument("--by-module", action="store_true", help="print the count per module")
    ap.add_argument("--list", action="store_true", help="list the counted functions")
    ap.add_argument("--no-fields", action="store_true",
                    help="count literals that only name a field of the rule files' records too")
    args = ap.parse_args(argv)
    lemmas = load_lemmas()
    fields = frozenset() if args.no_fields else schema_fields()
    paths = args.paths or [c for c in CORE if Path(c).exists()]
    files = sorted(p for a in paths for p in (Path(a).rglob("*.py") if Path(a).is_dir() else [Path(a)]))
    # two passes: first the keyed constants of every module, then the functions
    keyed_names: dict[str, set[str]] = {}
    for p in files:
        _, consts, _ = scan(p, lemmas, {}, fields)
        keyed_names.setdefault(p.stem, set()).update(consts)
    total = Counter()
    per_pkg: dict[str, Counter] = {}
    for p in files:
        keyed, consts, funcs = scan(p, lemmas, keyed_names, fields)
        pkg = p.parts[0] if len(p.parts) > 1 else "."
        c = per_pkg.setdefault(pkg, Counter())
        for k, v in (("functions", funcs), ("english_keyed", len(keyed)), ("constants", len(consts))):
            c[k] += v
            total[k] += v
        if args.by_module and keyed:
            print(f"{len(keyed):4} / {funcs:4}  {p}")
        if args.list:
            for f in keyed:
                print(f"      {p}:{f}")
    for pkg, c in sorted(per_pkg.items()):
        print(f"{pkg}: functions={c['functions']} english_keyed={c['english_keyed']} constants={c['constants']}")
    print(f"functions={total['functions']} english_keyed={total['english_keyed']} constants={total['constants']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
