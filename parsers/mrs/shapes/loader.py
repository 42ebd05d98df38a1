"""Load and check shape files (``axioms/shapes/*.yaml``).

A shape file may hold ``shapes`` (a list, see :class:`~parsers.mrs.shapes.model.Shape`),
``fragments`` and ``patterns`` shared by shapes (name -> ``{doc, regex}``) and ``words``
(name -> ``{doc, words: [...]}`` or ``{doc, table: {...}}``).  In a regex, ``{{NAME}}``
stands for a fragment and ``{{words:NAME}}`` for the words of a list joined by ``|`` (sorted).
Regexes are compiled case-insensitive unless named under ``case_sensitive`` (a shape's) or
with ``case_sensitive: true`` (a shared pattern's).  Loading executes nothing from the files
(``yaml.SafeLoader``); every problem is a :class:`ShapeIssue` with file and line.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Collection, Iterable, Sequence

from parsers.mrs.shapes.rewrite import RewriteError, rewrite_from
from parsers.mrs.shapes.template_spec import TemplateError, template_from, wrapper_from
from parsers.mrs.shapes.model import (
    SHAPE_KINDS, Shape, ShapeError, ShapeExample, ShapeIssue, ShapeSet, WordList,
)
from verifier.datafiles import IssueCollector as _Collector, example_records, line_of as _line, read_yaml

__all__ = ["default_shape_dirs", "shape_files", "check_shapes", "load_shapes"]

_FILE_FIELDS = {"family", "shapes", "fragments", "patterns", "words"}
_SHAPE_FIELDS = {"name", "doc", "kind", "builder", "template", "rewrite", "wrap", "order", "patterns", "case_sensitive", "words",
                 "examples"}
_EXAMPLE_FIELDS = {"question", "readings", "preds"}
_REF = re.compile(r"\{\{([A-Za-z_][\w]*(?::[A-Za-z_]\w*)?)\}\}")


def default_shape_dirs() -> list[Path]:
    """The folder of the shipped shape files (``axioms/shapes``)."""
    from verifier.resources import axioms_dir

    return [axioms_dir() / "shapes"]


def shape_files(paths: Iterable[str | Path]) -> list[Path]:
    """The YAML files of ``paths`` (folders are listed, files kept), in a fixed order."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out.extend(sorted(f for f in p.iterdir() if f.suffix in (".yaml", ".yml")))
        else:
            out.append(p)
    return list(dict.fromkeys(out))


def _clean(d: Any) -> Any:
    if isinstance(d, dict):
        return {k: _clean(v) for k, v in d.items() if k != "__line__"}
    if isinstance(d, list):
        return [_clean(v) for v in d]
    return d


def _expand(text: str, fragments: dict[str, str], words: dict[str, WordList], seen: tuple[str, ...] = ()) -> str:
    """``text`` with its ``{{...}}`` references replaced; raises KeyError / RecursionError."""
    def sub(m: re.Match) -> str:
        ref = m.group(1)
        if ref.startswith("words:"):
            return "|".join(sorted(words[ref[6:]].words))
        if ref in seen:
            raise RecursionError(f"fragment {ref} refers to itself")
        return _expand(fragments[ref], fragments, words, seen + (ref,))
    return _REF.sub(sub, text)


def _read(path: Path, col: _Collector) -> dict | None:
    ok, data = read_yaml(path, col)
    if not ok:
        return None
    if data is None:
        return {}
    if not isinstance(data, dict):
        col.add(str(path), 1, "structure", "a shape file is a mapping")
        return None
    for k in data:
        if k != "__line__" and k not in _FILE_FIELDS:
            col.add(str(path), _line(data), "field", f"unknown top-level field {k!r}")
    return data


def _examples(raw: Any, file: str, line: int, what: str, col: _Collector) -> tuple[ShapeExample, ...]:
    out = []
    for ex in example_records(raw, file, line, what, col, "question"):
        for k in ex:
            if k != "__line__" and k not in _EXAMPLE_FIELDS:
                col.add(file, _line(ex), "field", f"{what}: unknown example field {k!r}")
        readings, preds = ex.get("readings", 1), ex.get("preds", [])
        if not isinstance(readings, int) or not isinstance(preds, list):
            col.add(file, _line(ex), "examples", f"{what}: readings is a number, preds a list")
            continue
        out.append(ShapeExample(ex["question"], readings, tuple(str(p) for p in preds)))
    return tuple(out)


def _shape(d: Any, file: str, family: str, col: _Collector, raw_patterns: dict,
           case_sensitive: set[str]) -> Shape | None:
    if not isinstance(d, dict):
        col.add(file, 0, "structure", "a shape is a mapping")
        return None
    line = _line(d)
    name = d.get("name")
    what = f"shape {name!r}"
    if not isinstance(name, str) or not re.fullmatch(r"[a-z][a-z0-9_]*", name):
        col.add(file, line, "name", "a shape needs a name of lower-case letters, digits and '_'")
        return None
    for k in d:
        if k != "__line__" and k not in _SHAPE_FIELDS:
            col.add(file, line, "field", f"{what}: unknown field {k!r}")
    doc = d.get("doc")
    if not isinstance(doc, str) or not doc.strip():
        col.add(file, line, "doc", f"{what}: a doc line is required")
    kind = d.get("kind", "shape")
    if kind not in SHAPE_KINDS:
        col.add(file, line, "kind", f"{what}: kind must be one of {', '.join(SHAPE_KINDS)}")
    template = None
    if d.get("template") is not None:
        try:
            template = template_from(d["template"], tuple(k for k in (d.get("patterns") or {}) if k != "__line__"))
        except TemplateError as e:
            col.add(file, _line(d["template"]) or line, "template", f"{what}: {e}")
        if "builder" in d:
            col.add(file, line, "template", f"{what}: a shape has a builder or a template, not both")
    rewrite = None
    if d.get("rewrite") is not None:
        try:
            rewrite = rewrite_from(d["rewrite"], tuple(k for k in (d.get("patterns") or {}) if k != "__line__"))
        except RewriteError as e:
            col.add(file, _line(d["rewrite"]) or line, "rewrite", f"{what}: {e}")
        if "builder" in d or d.get("template") is not None:
            col.add(file, line, "rewrite", f"{what}: a shape has a builder, a template or a rewrite, one of them")
        if kind != "rewrite":
            col.add(file, line, "rewrite", f"{what}: only a shape of kind rewrite has a rewrite")
    wrap = None
    if d.get("wrap") is not None:
        try:
            wrap = wrapper_from(d["wrap"], tuple(k for k in (d.get("patterns") or {}) if k != "__line__"))
        except TemplateError as e:
            col.add(file, _line(d["wrap"]) or line, "template", f"{what}: {e}")
        if "builder" in d or d.get("template") is not None or d.get("rewrite") is not None:
            col.add(file, line, "template", f"{what}: a shape has a builder, a template, a rewrite or a wrap, one of them")
        if kind != "wrapper":
            col.add(file, line, "template", f"{what}: only a shape of kind wrapper has a wrap")
    builder = d.get("builder", "template" if d.get("template") is not None else "rewrite" if rewrite
                    else "wrap" if wrap else name)
    order = d.get("order", 0)
    if not isinstance(order, int):
        col.add(file, line, "order", f"{what}: order is a number")
        order = 0
    pats = d.get("patterns") or {}
    if not isinstance(pats, dict):
        col.add(file, line, "patterns", f"{what}: patterns map names to regexes")
        pats = {}
    for pname, regex in pats.items():
        if pname == "__line__":
            continue
        if not isinstance(regex, str):
            col.add(file, line, "patterns", f"{what}: pattern {pname} is no string")
            continue
        if pname in raw_patterns:
            col.add(file, line, "duplicate", f"{what}: pattern {pname} is defined twice")
        raw_patterns[pname] = (regex, file, line)
    for pname in d.get("case_sensitive") or ():
        if pname not in pats:
            col.add(file, line, "patterns", f"{what}: case_sensitive names no pattern of the shape: {pname}")
        case_sensitive.add(pname)
    words = d.get("words") or []
    examples = _examples(d.get("examples", []), file, line, what, col)
    if not examples:
        col.add(file, line, "examples", f"{what}: at least one example is required")
    return Shape(name, (doc or "").strip(), kind, str(builder), order, family, file,
                 tuple(k for k in pats if k != "__line__"), tuple(str(w) for w in words), examples, template,
                 rewrite, wrap)


def _collect(paths: Sequence[str | Path], builders: Collection[str] | None) -> tuple[ShapeSet, list[ShapeIssue]]:
    col = _Collector()
    files = shape_files(paths)
    shapes: list[Shape] = []
    fragments: dict[str, str] = {}
    raw_patterns: dict[str, tuple[str, str, int]] = {}
    case_sensitive: set[str] = set()
    words: dict[str, WordList] = {}
    for path in files:
        data = _read(path, col)
        if data is None:
            continue
        file = str(path)
        for name, d in (data.get("fragments") or {}).items():
            if name == "__line__":
                continue
            if not isinstance(d, dict) or not isinstance(d.get("regex"), str) or not d.get("doc"):
                col.add(file, _line(d), "fragments", f"fragment {name}: needs a doc and a regex")
                continue
            fragments[name] = d["regex"]
        for name, d in (data.get("patterns") or {}).items():
            if name == "__line__":
                continue
            if not isinstance(d, dict) or not isinstance(d.get("regex"), str) or not d.get("doc"):
                col.add(file, _line(d), "patterns", f"pattern {name}: needs a doc and a regex")
                continue
            if name in raw_patterns:
                col.add(file, _line(d), "duplicate", f"pattern {name} is defined twice")
            raw_patterns[name] = (d["regex"], file, _line(d))
            if d.get("case_sensitive"):
                case_sensitive.add(name)
        for name, d in (data.get("words") or {}).items():
            if name == "__line__":
                continue
            d = d if isinstance(d, dict) else {}
            ws, table = _clean(d.get("words")), _clean(d.get("table"))
            if not d.get("doc") or (ws is None) == (table is None):
                col.add(file, _line(d), "words", f"word list {name}: needs a doc and either words or a table")
                continue
            if ws is not None and not (isinstance(ws, list) and all(isinstance(w, str) for w in ws)):
                col.add(file, _line(d), "words", f"word list {name}: words must be a list of strings")
                continue
            if table is not None and not isinstance(table, dict):
                col.add(file, _line(d), "words", f"word list {name}: a table maps words to words")
                continue
            words[name] = WordList(name, str(d["doc"]), frozenset(ws or table or ()), dict(table or {}))
        family = str(data.get("family") or path.stem)
        for d in data.get("shapes") or []:
            s = _shape(d, file, family, col, raw_patterns, case_sensitive)
            if s is not None:
                shapes.append(s)
    expanded: dict[str, str] = {}
    for name, text in fragments.items():
        try:
            expanded[name] = _expand(text, fragments, words)
        except KeyError as e:
            col.add("fragments", 0, "reference", f"fragment {name}: unknown reference {e}")
        except RecursionError as e:
            col.add("fragments", 0, "reference", f"fragment {name}: {e}")
    patterns: dict[str, re.Pattern] = {}
    for name, (text, file, line) in raw_patterns.items():
        try:
            patterns[name] = re.compile(_expand(text, fragments, words), 0 if name in case_sensitive else re.I)
        except KeyError as e:
            col.add(file, line, "reference", f"pattern {name}: unknown fragment or word list {e}")
        except (re.error, RecursionError) as e:
            col.add(file, line, "regex", f"pattern {name}: {e}")
    seen: dict[str, str] = {}
    for s in shapes:
        if s.name in seen:
            col.add(s.file, 0, "duplicate", f"shape {s.name} is defined in {seen[s.name]} too")
        seen[s.name] = s.file
        for w in s.words:
            if w not in words:
                col.add(s.file, 0, "reference", f"shape {s.name}: unknown word list {w}")
        if s.template is not None:
            for pname in s.template.patterns() - set(patterns):
                col.add(s.file, 0, "reference", f"shape {s.name}: its template uses an unknown pattern {pname}")
            for w in s.template.tables() - set(words):
                col.add(s.file, 0, "reference", f"shape {s.name}: its template uses an unknown word list {w}")
        elif s.wrap is not None:
            for pname in s.wrap.template.patterns() - set(patterns):
                col.add(s.file, 0, "reference", f"shape {s.name}: its wrap uses an unknown pattern {pname}")
            for w in s.wrap.template.tables() - set(words):
                col.add(s.file, 0, "reference", f"shape {s.name}: its wrap uses an unknown word list {w}")
        elif s.rewrite is not None:
            if s.rewrite.match not in patterns:
                col.add(s.file, 0, "reference", f"shape {s.name}: its rewrite uses an unknown pattern {s.rewrite.match}")
            else:
                groups = set(patterns[s.rewrite.match].groupindex) | {0}
                for g in (*s.rewrite.blank, *(g for g, _ in s.rewrite.replace)):
                    if g not in groups:
                        col.add(s.file, 0, "reference", f"shape {s.name}: its rewrite uses an unknown group {g!r}")
        elif builders is not None and s.builder not in builders and s.builder != "template":
            col.add(s.file, 0, "builder", f"shape {s.name}: unknown builder {s.builder!r}")
    shapes.sort(key=lambda s: s.order)
    return ShapeSet(tuple(shapes), patterns, expanded, words, tuple(str(f) for f in files)), col.issues


def check_shapes(paths: Sequence[str | Path] | None = None,
                 builders: Collection[str] | None = None) -> list[ShapeIssue]:
    """Every problem of the shape files under ``paths`` (default: the shipped ones);
    ``builders``, when given, are the builder names a shape may use."""
    return _collect(default_shape_dirs() if paths is None else paths, builders)[1]


def load_shapes(paths: Sequence[str | Path] | None = None,
                builders: Collection[str] | None = None) -> ShapeSet:
    """The shapes of the files under ``paths`` (default: the shipped ones); raises
    :class:`ShapeError` when any file has an error."""
    shape_set, issues = _collect(default_shape_dirs() if paths is None else paths, builders)
    errors = tuple(i for i in issues if i.severity == "error")
    if errors:
        raise ShapeError(errors)
    return shape_set
