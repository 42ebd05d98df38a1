"""English word lists, surface cues and closed-class constants as data: ``axioms/words/*.yaml``.

Each file is one vocabulary (its name is the file's stem: ``grounding``, ``intent``,
``qualifiers``, ``filters``, ``lexical``) with a ``doc`` line and ``lists``.  Each list has a
``name``, a ``doc`` line, examples that run as tests (``verifier axioms test``), and one of

* ``words``: a list of words (kept in order; :meth:`Vocabulary.words`, :meth:`Vocabulary.word_set`);
  ``match: suffix`` says the words are word endings;
* ``map``: words (or predicates) to lists of words (:meth:`Vocabulary.mapping`);
* ``pattern``: a regular expression (a string, or a list of strings joined), where
  ``${name}`` stands for the words of list ``name`` of the same file as an alternation
  ``(?:w1|w2|...)``; ``ignore_case: true`` compiles it case-insensitively; ``use`` says how
  the engine applies it (``search``, the default, ``match`` or ``fullmatch``), which is how
  its examples are run (:meth:`Vocabulary.pattern`).

Examples: for ``words``, ``{text: ..., finds: [...]}`` (the list's words written in the text,
as whole words, in order; with ``match: suffix``, ``{word: ..., ends_with: ...}``: the first
ending of the list that the word has, or null); for ``map``, ``{key: ..., value: [...]}``; for
``pattern``, ``{text: ..., match: ...}`` (the matched text, or null for no match; ``group: n``
for a group).

Python holds the engines that use the lists; :func:`vocabulary` loads, validates and caches a
file once, as immutable values (tuples, frozensets, read-only mappings, compiled patterns).
:func:`lint_words` and :func:`run_word_examples` serve ``verifier axioms lint`` / ``test``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Iterable, Mapping, Sequence

import yaml

from verifier.datafiles import FileIssue, FileIssuesError
from verifier.resources import axioms_dir

__all__ = ["WordList", "WordExample", "Vocabulary", "VocabularyError", "vocabulary", "words_dir",
           "lint_words", "run_word_examples", "ExampleFailure"]

_FILE_FIELDS = {"doc", "lists"}
_LIST_FIELDS = {"name", "doc", "words", "map", "pattern", "ignore_case", "use", "match", "examples"}
_EXAMPLE_FIELDS = {"text", "finds", "word", "ends_with", "key", "value", "match", "group"}
_USES = ("search", "match", "fullmatch")
_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")


def words_dir() -> Path:
    """The folder of the shipped vocabularies (``axioms/words``)."""
    return axioms_dir() / "words"


@dataclass(frozen=True)
class WordExample:
    """One example of a list: what its engine-free use gives on an input (see the module
    docstring); ``line``: where it is written."""

    fields: Mapping[str, Any]
    line: int


@dataclass(frozen=True)
class WordList:
    """One named list of a vocabulary: ``words``, ``mapping`` or ``pattern`` (one of them)."""

    name: str
    doc: str
    file: str
    line: int
    words: tuple[str, ...] = ()
    mapping: Mapping[str, tuple[str, ...]] | None = None
    pattern: re.Pattern | None = None
    use: str = "search"
    suffixes: bool = False
    examples: tuple[WordExample, ...] = ()

    @property
    def kind(self) -> str:
        """``words``, ``map`` or ``pattern``."""
        return "pattern" if self.pattern is not None else "map" if self.mapping is not None else "words"


class VocabularyError(FileIssuesError):
    """A vocabulary file has errors; ``issues`` lists them all, each with its file and line."""

    what = "word lists"


@dataclass(frozen=True)
class Vocabulary:
    """The lists of one file, by name (read-only)."""

    name: str
    doc: str
    file: str
    lists: Mapping[str, WordList]

    def _get(self, name: str, kind: str) -> WordList:
        wl = self.lists.get(name)
        if wl is None or wl.kind != kind:
            raise KeyError(f"{self.file}: no {kind} list named {name!r}")
        return wl

    def words(self, name: str) -> tuple[str, ...]:
        """The words of list ``name``, in their order."""
        return self._get(name, "words").words

    def word_set(self, name: str) -> frozenset[str]:
        """The words of list ``name`` as a set."""
        return frozenset(self._get(name, "words").words)

    def alternation(self, name: str) -> str:
        """The words of list ``name`` as a regular expression ``(?:w1|w2|...)`` (the words
        are written as regular expressions)."""
        return "(?:" + "|".join(self._get(name, "words").words) + ")"

    def mapping(self, name: str) -> Mapping[str, tuple[str, ...]]:
        """The read-only mapping of list ``name``."""
        m = self._get(name, "map").mapping
        assert m is not None
        return m

    def lemmas(self, *names: str) -> Mapping[str, str]:
        """The ``map`` lists ``names`` merged into one read-only ``word -> word`` mapping
        (later lists win: "born" -> "bear"), each word mapped to exactly one word; raises
        :class:`VocabularyError` naming the file and the list when a word maps to more or
        fewer."""
        out: dict[str, str] = {}
        for name in names:
            wl = self._get(name, "map")
            assert wl.mapping is not None
            for word, values in wl.mapping.items():
                if len(values) != 1:
                    raise VocabularyError((FileIssue(self.file, wl.line, "bad-value",
                                                     f"list {name!r}: {word!r} must map to exactly one word, "
                                                     f"not {list(values)}"),))
                out[word] = values[0]
        return MappingProxyType(out)

    def pattern(self, name: str) -> re.Pattern:
        """The compiled pattern of list ``name``."""
        p = self._get(name, "pattern").pattern
        assert p is not None
        return p


# ---- reading --------------------------------------------------------------------------------


class _Loader(yaml.SafeLoader):
    """A safe loader that records the line of each mapping (``__line__``) and of each of its
    values (``__lines__``)."""


def _mapping(loader: _Loader, node: yaml.MappingNode, deep: bool = False) -> dict:
    loader.flatten_mapping(node)
    out: dict[Any, Any] = {}
    lines: dict[Any, int] = {}
    for k_node, v_node in node.value:
        key = loader.construct_object(k_node, deep=True)
        if key in out:
            raise yaml.constructor.ConstructorError("while constructing a mapping", node.start_mark,
                                                    f"found duplicate key {key!r}", k_node.start_mark)
        out[key] = loader.construct_object(v_node, deep=True)
        lines[key] = v_node.start_mark.line + 1
    out["__line__"] = node.start_mark.line + 1
    out["__lines__"] = lines
    return out


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)


def _plain(v: Any) -> Any:
    """A loaded value without the line records."""
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items() if k not in ("__line__", "__lines__")}
    if isinstance(v, list):
        return [_plain(x) for x in v]
    return v


def _is_words(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(w, str) and w for w in v)


def _parse(path: Path) -> tuple[Vocabulary | None, list[FileIssue]]:
    """The vocabulary of one file and the problems found in it."""
    file = str(path)
    issues: list[FileIssue] = []

    def err(line: int, code: str, message: str) -> None:
        issues.append(FileIssue(file, line, code, message))

    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=_Loader)  # noqa: S506 - SafeLoader
    except (OSError, UnicodeDecodeError) as e:
        err(0, "io", f"cannot read: {e}")
        return None, issues
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        err((mark.line + 1) if mark else 0, "yaml", str(e.problem or e))
        return None, issues
    if not isinstance(data, dict):
        err(1, "bad-value", "a word-list file is a mapping with 'doc' and 'lists'")
        return None, issues
    for k in data:
        if k not in _FILE_FIELDS and k not in ("__line__", "__lines__"):
            err(data["__lines__"].get(k, 1), "unknown-field", f"unknown field {k!r} (allowed: doc, lists)")
    doc = data.get("doc")
    if not isinstance(doc, str) or not doc.strip():
        err(data["__line__"], "missing-field", "the file needs a 'doc' line")
    raw = data.get("lists")
    if not isinstance(raw, list) or not raw:
        err(data["__lines__"].get("lists", 1), "missing-field", "'lists' must be a non-empty list")
        return None, issues
    # word lists first: patterns may refer to them
    word_lists: dict[str, tuple[str, ...]] = {}
    for d in raw:
        if isinstance(d, dict) and isinstance(d.get("name"), str) and _is_words(d.get("words")):
            word_lists[d["name"]] = tuple(d["words"])
    lists: dict[str, WordList] = {}
    for d in raw:
        wl = _parse_list(d, file, word_lists, err)
        if wl is None:
            continue
        if wl.name in lists:
            err(wl.line, "duplicate-name", f"list {wl.name!r} is already defined at line {lists[wl.name].line}")
            continue
        lists[wl.name] = wl
    vocab = Vocabulary(path.stem, doc if isinstance(doc, str) else "", file, MappingProxyType(lists))
    return vocab, issues


def _parse_list(d: Any, file: str, word_lists: Mapping[str, tuple[str, ...]], err) -> WordList | None:
    if not isinstance(d, dict):
        err(0, "bad-value", "each entry of 'lists' must be a mapping")
        return None
    line = d["__line__"]

    def at(key: str) -> int:
        return d["__lines__"].get(key, line)

    for k in d:
        if k not in _LIST_FIELDS and k not in ("__line__", "__lines__"):
            err(at(k), "unknown-field", f"unknown field {k!r} (allowed: {', '.join(sorted(_LIST_FIELDS))})")
    name = d.get("name")
    if not isinstance(name, str) or not re.fullmatch(r"[a-z][a-z0-9_]*", name):
        err(at("name"), "missing-field", "a list needs a 'name' in lower case (letters, digits, _)")
        return None
    what = f"list {name!r}"
    doc = d.get("doc")
    if not isinstance(doc, str) or not doc.strip():
        err(at("doc"), "missing-field", f"{what}: a 'doc' line is required")
    kinds = [k for k in ("words", "map", "pattern") if k in d]
    if len(kinds) != 1:
        err(line, "bad-value", f"{what}: give exactly one of 'words', 'map', 'pattern' (found {kinds or 'none'})")
        return None
    kind = kinds[0]
    words: tuple[str, ...] = ()
    mapping = pattern = None
    use = d.get("use", "search")
    if use not in _USES:
        err(at("use"), "bad-value", f"{what}: 'use' is one of {', '.join(_USES)}")
        use = "search"
    suffixes = d.get("match") == "suffix"
    if "match" in d and not suffixes:
        err(at("match"), "bad-value", f"{what}: 'match' can only be 'suffix'")
    if kind == "words":
        if not _is_words(d["words"]) or not d["words"]:
            err(at("words"), "bad-value", f"{what}: 'words' must be a non-empty list of strings")
            return None
        words = tuple(d["words"])
        dupes = sorted({w for w in words if words.count(w) > 1})
        if dupes:
            err(at("words"), "duplicate-word", f"{what}: written twice: {', '.join(dupes)}")
    elif kind == "map":
        m = d["map"]
        if not isinstance(m, dict) or not all(
                isinstance(k, str) and (_is_words(v) or v == []) for k, v in _plain(m).items()):
            err(at("map"), "bad-value", f"{what}: 'map' must map strings to lists of strings")
            return None
        mapping = MappingProxyType({k: tuple(v) for k, v in _plain(m).items()})
    else:
        text = d["pattern"]
        if _is_words(text):
            text = "".join(text)
        if not isinstance(text, str) or not text:
            err(at("pattern"), "bad-value", f"{what}: 'pattern' must be a string or a list of strings")
            return None
        missing = [r for r in _REF.findall(text) if r not in word_lists]
        if missing:
            err(at("pattern"), "unknown-list", f"{what}: refers to no word list of this file: {', '.join(missing)}")
            return None
        text = _REF.sub(lambda m: "(?:" + "|".join(word_lists[m.group(1)]) + ")", text)
        ignore_case = d.get("ignore_case", False)
        if not isinstance(ignore_case, bool):
            err(at("ignore_case"), "bad-value", f"{what}: 'ignore_case' must be true or false")
            ignore_case = False
        try:
            pattern = re.compile(text, re.I if ignore_case else 0)
        except re.error as e:
            err(at("pattern"), "bad-pattern", f"{what}: not a regular expression: {e}")
            return None
    examples = d.get("examples")
    if not isinstance(examples, list) or not examples:
        err(at("examples") if "examples" in d else line, "missing-examples",
            f"{what}: at least one example is required")
        examples = []
    need = {"words": ({"word", "ends_with"} if suffixes else {"text", "finds"}),
            "map": {"key", "value"}, "pattern": {"text", "match"}}[kind]
    out = []
    for ex in examples:
        if not isinstance(ex, dict) or not need <= set(ex) or set(_plain(ex)) - need - {"group"}:
            ex_line = ex["__line__"] if isinstance(ex, dict) else at("examples")
            err(ex_line, "bad-example", f"{what}: an example has the fields {', '.join(sorted(need))}"
                + (" (and 'group')" if kind == "pattern" else ""))
            continue
        out.append(WordExample(MappingProxyType(_plain(ex)), ex["__line__"]))
    return WordList(name, doc if isinstance(doc, str) else "", file, line, words, mapping, pattern, use,
                    suffixes, tuple(out))


@lru_cache(maxsize=None)
def _load(path: str) -> Vocabulary:
    vocab, issues = _parse(Path(path))
    errors = [i for i in issues if i.severity == "error"]
    if errors or vocab is None:
        raise VocabularyError(tuple(errors))
    return vocab


def vocabulary(name: str, folder: str | Path | None = None) -> Vocabulary:
    """The vocabulary ``name`` (``axioms/words/<name>.yaml``, or of ``folder``), loaded and
    validated once; raises :class:`VocabularyError` when the file has errors."""
    return _load(str(Path(folder) if folder is not None else words_dir()) + f"/{name}.yaml")


# ---- lint and examples ----------------------------------------------------------------------


@dataclass(frozen=True)
class ExampleFailure:
    """An example of a list that does not give what it says."""

    file: str
    line: int
    list_name: str
    expected: Any
    got: Any

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: list {self.list_name!r}: expected {self.expected!r}, got {self.got!r}"


def _files(dirs: Iterable[str | Path]) -> list[Path]:
    return [f for d in dirs for f in sorted((Path(d) / "words").glob("*.y*ml"))]


def lint_words(dirs: Iterable[str | Path]) -> list[FileIssue]:
    """The problems of the word-list files in the ``words/`` folder of each of ``dirs``."""
    return [i for f in _files(dirs) for i in _parse(f)[1]]


def _finds(words: Sequence[str], text: str) -> list[str]:
    """The words of ``words`` written as whole words in ``text`` (case-insensitive), in order."""
    hits = []
    for w in words:
        for m in re.finditer(r"(?<!\w)" + re.escape(w) + r"(?!\w)", text, re.I):
            hits.append((m.start(), w))
    return [w for _, w in sorted(hits)]


def _run(wl: WordList, ex: WordExample) -> tuple[Any, Any]:
    """(expected, got) of one example."""
    f = ex.fields
    if wl.kind == "pattern":
        assert wl.pattern is not None
        m = getattr(wl.pattern, wl.use)(f["text"])
        return f["match"], (m.group(f.get("group", 0)) if m else None)
    if wl.kind == "map":
        assert wl.mapping is not None
        got = wl.mapping.get(str(f["key"]))
        return f["value"], (list(got) if got is not None else None)
    if wl.suffixes:
        word = str(f["word"])
        return f["ends_with"], next((s for s in wl.words if word.endswith(s)), None)
    return f["finds"], _finds(wl.words, str(f["text"]))


def run_word_examples(dirs: Iterable[str | Path]) -> tuple[int, list[ExampleFailure], list[FileIssue]]:
    """Run every example of the word lists of ``dirs``: (examples run, failures, problems of
    files that could not be read)."""
    ran, failures, problems = 0, [], []
    for f in _files(dirs):
        vocab, issues = _parse(f)
        problems += [i for i in issues if i.severity == "error"]
        if vocab is None:
            continue
        for wl in vocab.lists.values():
            for ex in wl.examples:
                ran += 1
                expected, got = _run(wl, ex)
                if expected != got:
                    failures.append(ExampleFailure(wl.file, ex.line, wl.name, expected, got))
    return ran, failures, problems
