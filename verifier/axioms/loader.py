"""Load axiom packs (``templates/``, ``lexicons/``, ``background/`` folders of YAML files) and
lint them.

Loading never executes anything from the files (``yaml.SafeLoader`` only).  Every problem is
a :class:`LintIssue` with file, line and column; :func:`load_pack` raises
:class:`PackError` carrying all of them when any is an error, :func:`lint` returns them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Sequence

import yaml

from verifier.axioms.model import (
    LABEL_SHAPES, LINK_KINDS, MATCH_KINDS, PLACEHOLDERS, VERDICTS, Example, Lexicon,
    LexiconEntry, Match, Pack, Source, Template,
)
from verifier.logic import Atom, Formula, IRI, atoms, free_vars, iter_terms
from verifier.notation import LogicSyntaxError, parse_formula
from verifier.resources import axioms_dir

__all__ = ["LintIssue", "PackError", "load_pack", "lint", "default_pack_dirs", "optional_pack_dirs"]

_TEMPLATE_FIELDS = {"name", "doc", "match", "links", "axiom", "label_shapes", "priority", "examples",
                    "properties", "keeps_class", "through_lexicon"}
_MATCH_FIELDS = {"kind", "arity", "preds", "except_preds", "unexpressed", "expressed", "verbs"}
_LEXICON_FIELDS = {"name", "doc", "entries", "examples", "defaults"}
_ENTRY_FIELDS = {"words", "template", "symbol", "symbols", "pos", "via", "mode", "doc", "exclusive",
                 "support", "examples"}
_EXAMPLE_FIELDS = {"question", "sparql", "verdict", "note"}
_BACKGROUND_FIELDS = {"name", "doc", "axiom", "examples"}
_SYMBOL_RE = re.compile(r"^(?:[a-z]+:[A-Za-z0-9_\-]+|<[^<>\s]+>)$")
_PLACEHOLDER_RE = re.compile(r"\$[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class LintIssue:
    """One problem found in a pack file."""

    file: str
    line: int
    column: int
    code: str
    message: str
    severity: str = "error"

    def __str__(self) -> str:
        loc = f"{self.file}:{self.line}" + (f":{self.column}" if self.column else "")
        return f"{loc}: {self.severity}[{self.code}]: {self.message}"


class PackError(ValueError):
    """An axiom pack has errors; ``issues`` lists them all."""

    def __init__(self, issues: Sequence[LintIssue]) -> None:
        self.issues = tuple(issues)
        head = f"{len(self.issues)} problem(s) in axiom packs"
        super().__init__(head + ":\n" + "\n".join(str(i) for i in self.issues[:20]))


class _LineLoader(yaml.SafeLoader):
    """Safe loader that records the line of every mapping and of each of its keys, and
    refuses a key written twice in one mapping."""


def _construct_mapping(loader: _LineLoader, node: yaml.MappingNode, deep: bool = False) -> dict:
    loader.flatten_mapping(node)
    out: dict[Any, Any] = {}
    lines: dict[Any, tuple[int, int]] = {}
    for k_node, v_node in node.value:
        key = loader.construct_object(k_node, deep=True)
        if key in out:  # YAML would keep the last silently: an edit lost without a word
            raise yaml.constructor.ConstructorError(
                "while constructing a mapping", node.start_mark, f"found duplicate key {key!r}",
                k_node.start_mark)
        out[key] = loader.construct_object(v_node, deep=True)
        lines[key] = (v_node.start_mark.line + 1, v_node.start_mark.column + 1)
    out["__line__"] = node.start_mark.line + 1
    out["__lines__"] = lines
    return out


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def default_pack_dirs(extra: Iterable[str | Path] = ()) -> list[Path]:
    """The shipped pack folder followed by user folders."""
    return [axioms_dir(), *[Path(p) for p in extra]]


def optional_pack_dirs(names: Iterable[str]) -> list[Path]:
    """The folders of optional packs shipped with the axioms (``axioms/packs/<name>``, off
    unless ``[axioms] packs`` names them); an unknown name raises ``ValueError`` listing the
    packs there are."""
    root = axioms_dir() / "packs"
    out = []
    for name in names:
        d = root / str(name)
        if not (d / "templates").is_dir() and not (d / "lexicons").is_dir() and not (d / "background").is_dir():
            known = sorted(p.name for p in root.iterdir() if p.is_dir()) if root.is_dir() else []
            raise ValueError(f"[axioms] packs: no optional pack {name!r} (there are: {', '.join(known) or 'none'})")
        out.append(d)
    return out


class _Collector:
    def __init__(self) -> None:
        self.issues: list[LintIssue] = []

    def add(self, file: str, line: int, code: str, message: str, column: int = 0,
            severity: str = "error") -> None:
        self.issues.append(LintIssue(file, line, column, code, message, severity))


def _fields(d: dict, allowed: set[str], what: str, file: str, col: _Collector) -> None:
    for k in d:
        if k in ("__line__", "__lines__"):
            continue
        if k not in allowed:
            line = d["__lines__"].get(k, (d["__line__"], 0))[0]
            col.add(file, line, "unknown-field",
                    f"unknown field {k!r} in {what} (allowed: {', '.join(sorted(allowed))})")


def _line(d: dict, key: str) -> tuple[int, int]:
    return d.get("__lines__", {}).get(key, (d.get("__line__", 0), 0))


def _parse_axiom(d: dict, key: str, file: str, col: _Collector, what: str) -> Formula | None:
    text = d.get(key)
    line, column = _line(d, key)
    if not isinstance(text, str) or not text.strip():
        col.add(file, line, "missing-field", f"{what}: field {key!r} must be a formula string")
        return None
    try:
        return parse_formula(text)
    except LogicSyntaxError as e:
        # position inside the formula -> position in the file (single-line strings)
        at_line = line + (e.line - 1 if e.line else 0)
        at_col = (column + e.column) if e.line == 1 and column else e.column
        col.add(file, at_line, "formula-syntax", f"{what}: {e.reason if hasattr(e, 'reason') else ''}"
                f"{str(e).splitlines()[0]}", at_col)
        return None


def _examples(d: dict, file: str, col: _Collector, what: str) -> tuple[Example, ...]:
    raw = d.get("examples") or []
    if not isinstance(raw, list):
        col.add(file, _line(d, "examples")[0], "bad-value", f"{what}: examples must be a list")
        return ()
    out = []
    for ex in raw:
        if not isinstance(ex, dict):
            col.add(file, _line(d, "examples")[0], "bad-value", f"{what}: each example is a mapping")
            continue
        _fields(ex, _EXAMPLE_FIELDS, f"example of {what}", file, col)
        missing = [k for k in ("question", "sparql", "verdict") if not isinstance(ex.get(k), str)]
        if missing:
            col.add(file, ex["__line__"], "missing-field", f"example of {what} lacks {', '.join(missing)}")
            continue
        if ex["verdict"] not in VERDICTS:
            col.add(file, _line(ex, "verdict")[0], "bad-value",
                    f"example verdict {ex['verdict']!r} is not one of {', '.join(VERDICTS)}")
            continue
        out.append(Example(ex["question"], ex["sparql"], ex["verdict"], Source(file, ex["__line__"]),
                           str(ex.get("note", ""))))
    return tuple(out)


def _check_placeholders(t_name: str, axiom: Formula, links: str, arity: int | None, file: str,
                        line: int, col: _Collector) -> None:
    allowed = {"$pred", *PLACEHOLDERS.get(links, ())}
    used: set[str] = set()
    for a in atoms(axiom):
        if a.pred.startswith("$"):
            if a.pred.endswith(("+", "*")) and a.pred[:-1] in ("$prop", "$prop2"):
                a = Atom(a.pred[:-1], a.args)  # the property's transitive closure ("$prop+")
            used.add(a.pred)
            if a.pred == "$pred" and arity is not None and len(a.args) > arity:
                col.add(file, line, "arity",
                        f"template {t_name}: $pred is used with {len(a.args)} argument(s) but match.arity is {arity}")
            if a.pred in ("$prop", "$prop2") and len(a.args) != 2:
                col.add(file, line, "arity", f"template {t_name}: {a.pred} is a binary property, used with {len(a.args)} argument(s)")
            if a.pred == "$nameprep" and len(a.args) != 3:
                col.add(file, line, "arity", f"template {t_name}: $nameprep is a preposition (3 arguments), used with {len(a.args)}")
            if a.pred in ("$item", "$class", "$value"):
                col.add(file, line, "placeholder", f"template {t_name}: {a.pred} is a constant, not a predicate")
    for t in iter_terms(axiom):
        if isinstance(t, IRI) and t.is_placeholder:
            used.add(t.value)
            if t.value in ("$pred", "$prop", "$prop2"):
                col.add(file, line, "placeholder", f"template {t_name}: {t.value} is a predicate, used as a term")
    for p in sorted(used - allowed):
        col.add(file, line, "placeholder",
                f"template {t_name}: placeholder {p} is not available for links: {links} "
                f"(available: {', '.join(sorted(allowed))})")
    if "$pred" not in used:
        col.add(file, line, "placeholder", f"template {t_name}: the axiom never mentions $pred")
    if free_vars(axiom):
        col.add(file, line, "free-variable",
                f"template {t_name}: free variables {', '.join(sorted(v.name for v in free_vars(axiom)))} "
                "(quantify every variable)")


def _load_templates(data: Any, file: str, col: _Collector, out: dict[str, Template]) -> None:
    if not isinstance(data, dict) or not isinstance(data.get("templates"), list):
        col.add(file, 1, "bad-value", "a template file holds a mapping with a 'templates:' list")
        return
    _fields(data, {"templates", "version", "doc"}, "template file", file, col)
    for d in data["templates"]:
        if not isinstance(d, dict):
            col.add(file, data["__line__"], "bad-value", "each template is a mapping")
            continue
        line = d["__line__"]
        name = d.get("name")
        what = f"template {name!r}" if name else "template"
        _fields(d, _TEMPLATE_FIELDS, what, file, col)
        for k in ("name", "doc", "match", "links", "axiom"):
            if k not in d:
                col.add(file, line, "missing-field", f"{what} lacks the field {k!r}")
        if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_\-]*", name or ""):
            col.add(file, line, "bad-value", f"{what}: name must be an identifier")
            continue
        duplicate = name in out
        if duplicate:
            col.add(file, line, "duplicate-name", f"template {name!r} is already defined at {out[name].source}")
        m = d.get("match") or {}
        if not isinstance(m, dict):
            col.add(file, _line(d, "match")[0], "bad-value", f"{what}: match must be a mapping")
            continue
        _fields(m, _MATCH_FIELDS, f"match of {what}", file, col)
        kind = m.get("kind")
        if kind not in MATCH_KINDS:
            col.add(file, _line(m, "kind")[0], "bad-value",
                    f"{what}: match.kind {kind!r} is not one of {', '.join(MATCH_KINDS)}")
        arity = m.get("arity")
        if arity is not None and (not isinstance(arity, int) or arity < 0):
            col.add(file, _line(m, "arity")[0], "bad-value", f"{what}: match.arity must be a non-negative integer")
            arity = None
        preds = m.get("preds") or []
        if isinstance(preds, str):
            preds = [preds]
        except_preds = m.get("except_preds") or []
        if isinstance(except_preds, str):
            except_preds = [except_preds]
        if not isinstance(except_preds, list) or not all(isinstance(p_, str) for p_ in except_preds):
            col.add(file, _line(m, "except_preds")[0], "bad-value",
                    f"{what}: match.except_preds must be a list of predicates or patterns")
            except_preds = []
        positions = {}
        for fld in ("unexpressed", "expressed"):
            val = m.get(fld) or []
            if isinstance(val, int) and not isinstance(val, bool):
                val = [val]
            if not isinstance(val, list) or not all(
                    isinstance(i, int) and not isinstance(i, bool) and i >= 1 for i in val):
                col.add(file, _line(m, fld)[0], "bad-value",
                        f"{what}: match.{fld} must be a list of argument positions (1 or more)")
                val = []
            positions[fld] = tuple(val)
        verbs = m.get("verbs")
        if verbs is not None and (not isinstance(verbs, list) or not all(isinstance(v, str) for v in verbs)):
            col.add(file, _line(m, "verbs")[0], "bad-value",
                    f"{what}: match.verbs must be a list of verb predicates ([] for none)")
            verbs = None
        links = d.get("links")
        if links not in LINK_KINDS:
            col.add(file, _line(d, "links")[0], "bad-value",
                    f"{what}: links {links!r} is not one of {', '.join(LINK_KINDS)}")
            continue
        shapes = d.get("label_shapes") or ["any"]
        if isinstance(shapes, str):
            shapes = [shapes]
        for s in shapes:
            if s not in LABEL_SHAPES:
                col.add(file, _line(d, "label_shapes")[0], "bad-value",
                        f"{what}: label shape {s!r} is not one of {', '.join(LABEL_SHAPES)}")
        props = d.get("properties") or []
        if isinstance(props, str):
            props = [props]
        for sym in props:
            if not isinstance(sym, str) or not _SYMBOL_RE.match(sym):
                col.add(file, _line(d, "properties")[0], "bad-value", f"{what}: property {sym!r} is not a KG symbol")
        if props and links != "class":
            col.add(file, _line(d, "properties")[0], "bad-value", f"{what}: properties are only for links: class")
        axiom = _parse_axiom(d, "axiom", file, col, what)
        if axiom is None:
            continue
        _check_placeholders(name, axiom, links, arity, file, _line(d, "axiom")[0], col)
        if links == "class" and not props and any(a.pred == "$prop" for a in atoms(axiom)):
            col.add(file, _line(d, "axiom")[0], "placeholder",
                    f"template {name}: $prop in a class template needs the list of properties it stands for")
        keeps_class = d.get("keeps_class", False)
        if not isinstance(keeps_class, bool):
            col.add(file, _line(d, "keeps_class")[0], "bad-value", f"{what}: keeps_class must be true or false")
            keeps_class = False
        through_lexicon = d.get("through_lexicon", True)
        if not isinstance(through_lexicon, bool):
            col.add(file, _line(d, "through_lexicon")[0], "bad-value",
                    f"{what}: through_lexicon must be true or false")
            through_lexicon = True
        if duplicate:
            continue
        out[name] = Template(
            name=name, doc=str(d.get("doc", "")), match=Match(str(kind), arity, tuple(preds), positions["unexpressed"],
                                                     positions["expressed"],
                                                     None if verbs is None else tuple(verbs),
                                                     tuple(except_preds)),
            links=links, axiom_text=d["axiom"], axiom=axiom, label_shapes=tuple(shapes),
            priority=int(d.get("priority", 0) or 0), examples=_examples(d, file, col, what),
            source=Source(file, line), properties=tuple(str(p_) for p_ in props), keeps_class=keeps_class,
            through_lexicon=through_lexicon,
        )


def _load_lexicon(data: Any, file: str, col: _Collector) -> Lexicon | None:
    if not isinstance(data, dict) or not isinstance(data.get("entries"), list):
        col.add(file, 1, "bad-value", "a lexicon file holds a mapping with 'name:' and an 'entries:' list")
        return None
    _fields(data, _LEXICON_FIELDS | {"version"}, "lexicon", file, col)
    name = str(data.get("name") or Path(file).stem)
    # fields every entry takes unless it sets them ("template", "via" of a list of countries)
    defaults = data.get("defaults") or {}
    if not isinstance(defaults, dict):
        col.add(file, data["__line__"], "bad-value", "'defaults' is a mapping of entry fields")
        defaults = {}
    _fields(defaults, _ENTRY_FIELDS - {"words", "symbol", "symbols", "support", "examples"},
            "lexicon defaults", file, col)
    defaults = {k: v for k, v in defaults.items() if k not in ("__line__", "__lines__")}
    entries = []
    for d in data["entries"]:
        if not isinstance(d, dict):
            col.add(file, data["__line__"], "bad-value", "each lexicon entry is a mapping")
            continue
        line = d["__line__"]
        _fields(d, _ENTRY_FIELDS, "lexicon entry", file, col)
        d = {**defaults, **d}
        words = d.get("words")
        if isinstance(words, str):
            words = [words]
        if not words or not all(isinstance(w, str) and w.strip() for w in words):
            col.add(file, line, "missing-field", "lexicon entry needs 'words' (a list of words or phrases)")
            continue
        syms = d.get("symbols") or ([d["symbol"]] if d.get("symbol") else [])
        if isinstance(syms, str):
            syms = [syms]
        if not syms:
            col.add(file, line, "missing-field", f"lexicon entry {words[0]!r} needs 'symbol' or 'symbols'")
            continue
        bad = [s for s in syms if not isinstance(s, str) or not _SYMBOL_RE.match(s)]
        if bad:
            col.add(file, _line(d, "symbols" if "symbols" in d else "symbol")[0], "bad-symbol",
                    f"lexicon entry {words[0]!r}: {bad[0]!r} is not a compact IRI such as wdt:P2067 or wd:Q2270")
            continue
        mode = d.get("mode", "any")
        if mode not in ("any", "all"):
            col.add(file, _line(d, "mode")[0], "bad-value", "mode is 'any' (first populated) or 'all' (union)")
        exclusive = d.get("exclusive", False)
        if not isinstance(exclusive, bool):
            col.add(file, _line(d, "exclusive")[0], "bad-value", "exclusive is true or false")
        template = d.get("template")
        templates = [template] if isinstance(template, str) else template
        if not isinstance(templates, list) or not templates or not all(isinstance(t, str) for t in templates):
            col.add(file, line, "missing-field", f"lexicon entry {words[0]!r} needs a 'template' (or a list of them)")
            continue
        via = d.get("via") or []
        via = [via] if isinstance(via, str) else via
        if not isinstance(via, list) or any(not isinstance(v, str) or not _SYMBOL_RE.match(v) for v in via):
            col.add(file, _line(d, "via")[0], "bad-symbol",
                    f"lexicon entry {words[0]!r}: via names a property (wdt:P21) or a list of them")
            continue
        support = d.get("support")
        if support is not None and (isinstance(support, bool) or not isinstance(support, int) or support < 0):
            col.add(file, _line(d, "support")[0], "bad-value", "support is a number of pairs (0 or more)")
            support = None
        examples = _examples(d, file, col, f"lexicon entry {words[0]!r}")
        # a list of templates is one entry per template (siblings: same words and symbols);
        # the first carries the examples
        entries.extend(LexiconEntry(
            words=tuple(w.strip().casefold() for w in words), template=t, symbols=tuple(syms),
            pos=d.get("pos"), via=tuple(via), mode=str(mode), doc=str(d.get("doc", "")),
            source=Source(file, line), exclusive=exclusive is True, support=support,
            examples=examples if i == 0 else ()) for i, t in enumerate(templates))
    return Lexicon(name, str(data.get("doc", "")), tuple(entries), _examples(data, file, col, f"lexicon {name}"),
                   Source(file, data["__line__"]))


def _load_background(data: Any, file: str, col: _Collector, out: list) -> None:
    if not isinstance(data, dict) or not isinstance(data.get("axioms"), list):
        col.add(file, 1, "bad-value", "a background file holds a mapping with an 'axioms:' list")
        return
    _fields(data, {"axioms", "version", "doc"}, "background file", file, col)
    for d in data["axioms"]:
        if not isinstance(d, dict):
            continue
        _fields(d, _BACKGROUND_FIELDS, "background axiom", file, col)
        name = d.get("name")
        if not isinstance(name, str):
            col.add(file, d["__line__"], "missing-field", "background axiom needs a name")
            continue
        if any(n == name for n, _, _ in out):
            col.add(file, d["__line__"], "duplicate-name", f"background axiom {name!r} is defined twice")
            continue
        f = _parse_axiom(d, "axiom", file, col, f"background axiom {name!r}")
        if f is None:
            continue
        if free_vars(f):
            col.add(file, d["__line__"], "free-variable", f"background axiom {name!r} has free variables")
            continue
        if any(a.pred.startswith("$") for a in atoms(f)):
            col.add(file, d["__line__"], "placeholder", f"background axiom {name!r} may not use placeholders")
            continue
        out.append((name, f, Source(file, d["__line__"])))


def _read_yaml(path: Path, col: _Collector) -> Any:
    rel = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        col.add(rel, 0, "io", f"cannot read: {e}")
        return None
    try:
        return yaml.load(text, Loader=_LineLoader)  # noqa: S506 - a SafeLoader subclass
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        col.add(rel, (mark.line + 1) if mark else 0, "yaml", f"{e.problem or e}", (mark.column + 1) if mark else 0)
    except yaml.YAMLError as e:
        col.add(rel, 0, "yaml", str(e))
    return None


def _collect(dirs: Sequence[str | Path]) -> tuple[Pack, list[LintIssue]]:
    col = _Collector()
    templates: dict[str, Template] = {}
    lexicons: list[Lexicon] = []
    background: list = []
    folders = []
    for d in dirs:
        d = Path(d)
        if d.is_file() and d.suffix in (".yaml", ".yml"):  # a lexicon file given alone
            lex = _load_lexicon(_read_yaml(d, col), str(d), col)
            if lex is not None:
                lexicons.append(lex)
            continue
        if not d.is_dir():
            col.add(str(d), 0, "io", "not a folder (nor a lexicon file)")
            continue
        folders.append(d)
        for f in sorted((d / "templates").glob("*.y*ml")):
            _load_templates(_read_yaml(f, col), str(f), col, templates)
        for f in sorted((d / "background").glob("*.y*ml")):
            _load_background(_read_yaml(f, col), str(f), col, background)
        for f in sorted((d / "lexicons").glob("*.y*ml")):
            lex = _load_lexicon(_read_yaml(f, col), str(f), col)
            if lex is not None:
                lexicons.append(lex)
    names: dict[str, Source | None] = {}
    for lex in lexicons:
        if lex.name in names:
            col.add(str(lex.source.file if lex.source else ""), lex.source.line if lex.source else 0,
                    "duplicate-name", f"lexicon {lex.name!r} is already defined at {names[lex.name]}")
        names[lex.name] = lex.source
        for e in lex.entries:
            if e.template not in templates:
                col.add(e.source.file, e.source.line, "unknown-template",
                        f"lexicon entry {e.words[0]!r} uses template {e.template!r}, which no template file defines")
    return Pack(templates, tuple(lexicons), tuple(background), tuple(folders)), col.issues


def lint(dirs: Sequence[str | Path] | None = None) -> list[LintIssue]:
    """All problems in the packs of ``dirs`` (default: the shipped pack)."""
    return _collect(dirs if dirs is not None else default_pack_dirs())[1]


def load_pack(dirs: Sequence[str | Path] | None = None) -> Pack:
    """Load the packs of ``dirs`` (default: the shipped pack); raise :class:`PackError` when
    any file has an error.  A lexicon file (``.yaml``) may stand in ``dirs`` for a folder
    (the pack ``verifier axioms induce`` writes)."""
    pack, issues = _collect(dirs if dirs is not None else default_pack_dirs())
    errors = [i for i in issues if i.severity == "error"]
    if errors:
        raise PackError(errors)
    return pack
