"""Load and check rewrite rule files (``axioms/rewrites/*.yaml`` and a folder of one's own).

A rule file has a ``stage`` (``corrections`` or ``views``) and ``rules``, a list applied in
the order written (the shipped ``corrections.yaml`` before a user's).  A rule has ``name``,
``doc`` (one line), ``grammars`` (``any`` or ``standin``), ``examples`` and either
``builtin: NAME`` (a Python function of the registry the caller passes) or EPs: ``input``,
``context``, ``unless``, ``where``, ``fresh``, ``output`` (or a list of such ``cases``, tried
in order).  An EP pattern is a mapping with ``args`` (``$v``, ``$v:SORT``, ``_``, ``_:SORT``,
``...`` last) and any of ``pred``, ``pred_re``, ``pos``, ``lemma``, ``not_pred``,
``not_lemma``, ``unknown_word``, ``abstract``, ``as``, ``last``, ``only``, ``written``,
``after``, ``known``, ``known_arities``, ``known_not_arities`` (a list of names may be
``words:FILE.LIST``: the words of that list of ``axioms/words/FILE.yaml``); a case may add
``unanswer``, ``optional``, ``parts``, ``around`` and ``case_note``; a rule ``then`` (further
steps, each ``{cases: [...]}``) and ``positive_core``; an output EP has ``args`` (``$v``), ``pred`` (``{lemma:NAME}`` in it: the lemma of input EP
NAME) or ``like: NAME`` and ``at: NAME``.  Views add ``question: {match|search: REGEX}`` (or ``{shape_pattern: NAME}``, a pattern of
``axioms/shapes``), ``after_reason`` and ``note``.
Loading executes nothing from the files (``yaml.SafeLoader``); every problem is a
:class:`RuleIssue` with file and line.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Collection, Iterable, Sequence

from verifier.rewrite.model import (
    GRAMMARS, SORTS, STAGES, ArgPattern, Case, EpOutput, EpPattern, QuestionTest, Rule, RuleError,
    RuleExample, RuleIssue, RuleSet,
)
from verifier.datafiles import IssueCollector as _Collector, example_records, line_of as _line, read_yaml

__all__ = ["default_rule_dirs", "rule_files", "check_rules", "load_rules", "WHERE_KINDS"]

_FILE_FIELDS = {"stage", "rules"}
_CASE_FIELDS = {"input", "context", "unless", "where", "fresh", "output", "unanswer", "optional", "parts",
                "around", "case_note"}
_RULE_FIELDS = {"name", "doc", "grammars", "builtin", "cases", "examples", "question", "after_reason",
                "note", "then", "positive_core"} | _CASE_FIELDS
_EP_FIELDS = {"args", "pred", "pred_re", "pos", "lemma", "not_pred", "not_lemma", "unknown_word", "abstract",
              "as", "last", "only", "written", "after", "known", "known_arities", "known_not_arities"}
_OUT_FIELDS = {"args", "pred", "like", "at"}
_EXAMPLE_FIELDS = {"formula", "answers", "question", "expect", "expect_answers", "unchanged", "written"}
#: The conditions a ``where`` may state of bound variables.
WHERE_KINDS = ("named", "not_named", "free", "not_free", "differ", "answer", "not_answer", "other_answer",
               "occurs", "written_lower", "written_before", "answers", "answer_through", "said_only",
               "first_answer", "closed", "covered")
#: A list of names given as a word list of ``axioms/words``: ``words:FILE.LIST``.
_WORD_LIST = re.compile(r"words:(\w+)\.(\w+)")
_ARG = re.compile(r"(?:\$([A-Za-z]\w*)|_)(?::(\w+))?")


def default_rule_dirs() -> list[Path]:
    """The folder of the shipped rule files (``axioms/rewrites``)."""
    from verifier.resources import axioms_dir

    return [axioms_dir() / "rewrites"]


def rule_files(paths: Iterable[str | Path]) -> list[Path]:
    """The YAML files of ``paths`` (folders listed, files kept), the shipped order kept:
    ``corrections.yaml`` then ``views.yaml``, then the others by name."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            files = sorted(f for f in p.iterdir() if f.suffix in (".yaml", ".yml"))
            first = [f for n in ("corrections.yaml", "views.yaml") for f in files if f.name == n]
            out.extend(first + [f for f in files if f not in first])
        else:
            out.append(p)
    return list(dict.fromkeys(out))


def _names(v: Any) -> tuple[str, ...]:
    """The names of a field: a name, a list of them, or ``words:FILE.LIST`` (the words of
    that list of ``axioms/words/FILE.yaml``) in their place."""
    if v is None:
        return ()
    out: list[str] = []
    for x in (v if isinstance(v, list) else [v]):
        m = _WORD_LIST.fullmatch(str(x))
        if m is None:
            out.append(str(x))
            continue
        from verifier.vocabulary import vocabulary

        out.extend(vocabulary(m.group(1)).words(m.group(2)))
    return tuple(out)


def _ints(v: Any) -> tuple[int, ...]:
    return tuple(int(x) for x in _names(v) if str(x).isdigit())


def _where_lists(w: Any) -> Any:
    """A condition with its ``words:FILE.LIST`` values replaced by the words of the list."""
    if not isinstance(w, dict):
        return w
    out = {}
    for k, v in w.items():
        if isinstance(v, list) and any(_WORD_LIST.fullmatch(str(x)) for x in v):
            v = [y for x in v for y in (_names(x) if _WORD_LIST.fullmatch(str(x)) else [x])]
        out[k] = v
    return out


def _word_lists_ok(d: dict, file: str, what: str, col: _Collector) -> bool:
    for k in ("pred", "lemma", "not_pred", "not_lemma", "written"):
        for x in (d.get(k) if isinstance(d.get(k), list) else [d.get(k)]):
            m = _WORD_LIST.fullmatch(str(x))
            if m is None:
                continue
            try:
                _names(x)
            except Exception as e:  # an unknown file or list
                col.add(file, _line(d), "words", f"{what}: {k}: no word list {x!r} ({e})")
                return False
    return True


def _unknown(d: dict, allowed: set[str], file: str, what: str, col: _Collector) -> None:
    for k in d:
        if k != "__line__" and k not in allowed:
            col.add(file, _line(d), "field", f"{what}: unknown field {k!r}")


def _pattern(d: Any, file: str, line: int, what: str, col: _Collector) -> EpPattern | None:
    if not isinstance(d, dict) or not isinstance(d.get("args"), list):
        col.add(file, _line(d) or line, "ep", f"{what}: an EP is a mapping with args (a list; =TEXT: a constant)")
        return None
    _unknown(d, _EP_FIELDS, file, what, col)
    args: list[ArgPattern] = []
    rest = False
    for i, a in enumerate(d["args"]):
        if a == "..." and i == len(d["args"]) - 1:
            rest = True
            continue
        if str(a).startswith("="):
            args.append(ArgPattern(value=str(a)[1:]))
            continue
        m = _ARG.fullmatch(str(a))
        if not m or (m.group(2) is not None and m.group(2) not in SORTS):
            col.add(file, _line(d) or line, "arg", f"{what}: argument {a!r} is not $v, $v:SORT, _ or ... "
                    f"(sorts: {', '.join(SORTS)})")
            return None
        args.append(ArgPattern(m.group(1), m.group(2)))
    if d.get("pred_re") is not None:
        try:
            re.compile(str(d["pred_re"]))
        except re.error as e:
            col.add(file, _line(d), "regex", f"{what}: pred_re does not compile: {e}")
            return None
    if not _word_lists_ok(d, file, what, col):
        return None
    unknown_word, abstract = d.get("unknown_word"), d.get("abstract")
    return EpPattern(tuple(args), rest, _names(d.get("pred")), d.get("pred_re"), _names(d.get("pos")),
                     _names(d.get("lemma")), _names(d.get("not_pred")),
                     None if unknown_word is None else bool(unknown_word),
                     None if d.get("as") is None else str(d["as"]), bool(d.get("last", False)),
                     _names(d.get("not_lemma")), None if abstract is None else bool(abstract),
                     _names(d.get("written")), None if d.get("after") is None else str(d["after"]),
                     bool(d.get("only", False)), None if d.get("known") is None else bool(d["known"]),
                     _ints(d.get("known_arities")), _ints(d.get("known_not_arities")))


def _output(d: Any, file: str, line: int, what: str, col: _Collector) -> EpOutput | None:
    if not isinstance(d, dict) or not isinstance(d.get("args"), list):
        col.add(file, _line(d) or line, "output", f"{what}: an output EP is a mapping with args (a list)")
        return None
    _unknown(d, _OUT_FIELDS, file, what, col)
    if (d.get("pred") is None) == (d.get("like") is None):
        col.add(file, _line(d), "output", f"{what}: an output EP has pred or like (not both)")
        return None
    if d.get("pred") == "=" and len(d["args"]) != 2:
        col.add(file, _line(d), "output", f"{what}: an equality (pred: '=') has two arguments")
        return None
    bad = [a for a in d["args"] if not re.fullmatch(r"\$[A-Za-z]\w*", str(a))]
    if bad:
        col.add(file, _line(d), "output", f"{what}: output arguments are variables ($v): {bad}")
        return None
    return EpOutput(tuple(str(a) for a in d["args"]), None if d.get("pred") is None else str(d["pred"]),
                    None if d.get("like") is None else str(d["like"]), None if d.get("at") is None else str(d["at"]))


def _case(d: dict, file: str, line: int, what: str, col: _Collector) -> Case | None:
    n = len(col.issues)
    inputs = [_pattern(p, file, line, what, col) for p in d.get("input") or []]
    context = [_pattern(p, file, line, what, col) for p in d.get("context") or []]
    unless = [_pattern(p, file, line, what, col) for p in d.get("unless") or []]
    parts = [_pattern(p, file, line, what, col) for p in d.get("parts") or []]
    around = [_pattern(p, file, line, what, col) for p in d.get("around") or []]
    outputs = [_output(o, file, line, what, col) for o in d.get("output") or []]
    if not inputs:
        col.add(file, line, "input", f"{what}: a declarative rule has at least one input EP")
    where = tuple(_where_lists(w) for w in d.get("where") or ())
    for w in where:
        keys = [k for k in (w if isinstance(w, dict) else {}) if k != "__line__"]
        if len(keys) != 1 or keys[0] not in WHERE_KINDS:
            col.add(file, _line(w) or line, "where", f"{what}: a condition is one of {', '.join(WHERE_KINDS)}")
    fresh = d.get("fresh") or {}
    if not isinstance(fresh, dict):
        col.add(file, line, "fresh", f"{what}: fresh maps variables to name templates")
        fresh = {}
    fresh = {str(k): str(v) for k, v in fresh.items() if k != "__line__"}
    unanswer = _names(d.get("unanswer"))
    if any(not re.fullmatch(r"\$[A-Za-z]\w*", v) for v in unanswer):
        col.add(file, line, "unanswer", f"{what}: unanswer lists variables ($v)")
    if len(col.issues) > n:
        return None
    case = Case(tuple(inputs), tuple(context), tuple(unless), where, fresh, tuple(outputs),  # type: ignore[arg-type]
                unanswer, bool(d.get("optional", False)), tuple(parts),  # type: ignore[arg-type]
                tuple(around), str(d.get("case_note") or ""))  # type: ignore[arg-type]
    _check_vars(case, file, line, what, col)
    return case


def _check_vars(case: Case, file: str, line: int, what: str, col: _Collector) -> None:
    bound = {a.var for p in case.input + case.context for a in p.args if a.var}
    named = {p.name for p in case.input if p.name}
    for p in case.input + case.context + case.unless:
        if p.after is not None and p.after not in named | {q.name for q in case.context if q.name}:
            col.add(file, line, "reference", f"{what}: after: {p.after!r} names no EP (as: NAME)")
    for v in case.unanswer:
        if v[1:] not in bound:
            col.add(file, line, "variable", f"{what}: unanswer {v}, bound by no EP")
    for o in case.output:
        for a in o.args:
            if a[1:] not in bound and a[1:] not in case.fresh:
                col.add(file, line, "variable", f"{what}: output variable {a} is bound by no input or context EP")
        refs = [o.like, o.at] + re.findall(r"\{(?:lemma|known):(\w+)\}", o.pred or "")
        for ref in refs:
            if ref is not None and ref not in named:
                col.add(file, line, "reference", f"{what}: {ref!r} names no input EP (as: NAME)")
    for w in case.where:
        for v in (w.values() if isinstance(w, dict) else ()):
            for x in (v if isinstance(v, list) else [v]):
                if isinstance(x, str) and x.startswith("$") and x[1:] not in bound:
                    col.add(file, line, "variable", f"{what}: condition on {x}, bound by no EP")


def _examples(raw: Any, file: str, line: int, what: str, col: _Collector) -> tuple[RuleExample, ...]:
    out: list[RuleExample] = []
    for ex in example_records(raw, file, line, what, col, "formula"):
        _unknown(ex, _EXAMPLE_FIELDS, file, what, col)
        if (ex.get("expect") is None) == (not ex.get("unchanged")):
            col.add(file, _line(ex), "examples", f"{what}: an example has expect or unchanged: true")
            continue
        from verifier.notation import LogicSyntaxError, parse_formula

        try:
            parse_formula(str(ex["formula"]))  # an expected formula may hold what the notation does not
        except LogicSyntaxError as e:
            col.add(file, _line(ex), "formula", f"{what}: example formula does not parse: {e}")
            continue
        answers = _names(ex.get("answers", "x1"))
        expect_answers = _names(ex["expect_answers"]) if "expect_answers" in ex else None
        written = ex.get("written") or {}
        if not isinstance(written, dict):
            col.add(file, _line(ex), "examples", f"{what}: written maps variables to their text")
            written = {}
        out.append(RuleExample(str(ex["formula"]), answers, str(ex.get("question") or ""),
                               None if ex.get("expect") is None else str(ex["expect"]),
                               expect_answers, bool(ex.get("unchanged")), _line(ex),
                               {str(k): str(v) for k, v in written.items() if k != "__line__"}))
    return tuple(out)


def _rule(d: Any, file: str, stage: str, builtins: Collection[str] | None, col: _Collector) -> Rule | None:
    if not isinstance(d, dict):
        col.add(file, 0, "structure", "a rule is a mapping")
        return None
    line = _line(d)
    name = d.get("name")
    if not isinstance(name, str) or not re.fullmatch(r"[a-z][a-z0-9_]*", name):
        col.add(file, line, "name", "a rule needs a name of lower-case letters, digits and '_'")
        return None
    what = f"rule {name!r}"
    _unknown(d, _RULE_FIELDS, file, what, col)
    doc = d.get("doc")
    if not isinstance(doc, str) or not doc.strip() or "\n" in doc.strip():
        col.add(file, line, "doc", f"{what}: a doc line (one line) is required")
    grammars = d.get("grammars", "any")
    if grammars not in GRAMMARS:
        col.add(file, line, "grammars", f"{what}: grammars is one of {', '.join(GRAMMARS)}")
    builtin = d.get("builtin")
    cases: list[Case] = []
    if builtin is not None:
        if set(d) & (_CASE_FIELDS | {"cases"}):
            col.add(file, line, "builtin", f"{what}: a builtin rule has no EPs")
        if builtins is not None and builtin not in builtins:
            col.add(file, line, "builtin", f"{what}: no builtin called {builtin!r}")
    else:
        cases = _cases(d.get("cases") if "cases" in d else [d], d, file, line, what, col)
    then: list[tuple[Case, ...]] = []
    raw_then = d.get("then") or []
    if builtin is not None and raw_then:
        col.add(file, line, "builtin", f"{what}: a builtin rule has no steps")
    elif not isinstance(raw_then, list):
        col.add(file, line, "then", f"{what}: then is a list of steps, each {{cases: [...]}}")
    else:
        for step in raw_then:
            if not isinstance(step, dict) or set(step) - {"cases", "__line__"}:
                col.add(file, _line(step) or line, "then", f"{what}: a step is {{cases: [...]}}")
                continue
            then.append(tuple(_cases(step.get("cases"), step, file, _line(step) or line, what, col)))
    question = None
    q = d.get("question")
    if q is not None:
        hows = [k for k in ("match", "search", "shape_pattern") if isinstance(q, dict) and k in q]
        if stage != "views" or len(hows) != 1:
            col.add(file, line, "question", f"{what}: question is a view's {{match: REGEX}}, {{search: REGEX}} "
                    "or {shape_pattern: NAME}")
        elif hows[0] == "shape_pattern":
            question = QuestionTest(str(q["shape_pattern"]), "shape_pattern")
        else:
            try:
                re.compile(str(q[hows[0]]), re.IGNORECASE)
                question = QuestionTest(str(q[hows[0]]), hows[0])
            except re.error as e:
                col.add(file, line, "regex", f"{what}: question regex does not compile: {e}")
    if stage != "views" and (d.get("after_reason") or d.get("note")):
        col.add(file, line, "field", f"{what}: after_reason and note are for views")
    examples = _examples(d.get("examples", []), file, line, what, col)
    if not examples:
        col.add(file, line, "examples", f"{what}: at least one example is required")
    return Rule(name, str(doc or "").strip(), stage, str(grammars), file, line, tuple(cases),
                None if builtin is None else str(builtin), examples, question,
                None if d.get("after_reason") is None else str(d["after_reason"]), str(d.get("note") or ""),
                tuple(then), bool(d.get("positive_core", False)))


def _cases(raw_cases: Any, d: dict, file: str, line: int, what: str, col: _Collector) -> list[Case]:
    """The cases of a rule or a step (``d``: the mapping they are written in, itself a case
    when it has no ``cases``)."""
    cases: list[Case] = []
    if not isinstance(raw_cases, list) or not raw_cases:
        col.add(file, line, "cases", f"{what}: cases is a non-empty list")
        raw_cases = []
    for c in raw_cases:
        if not isinstance(c, dict):
            col.add(file, line, "cases", f"{what}: a case is a mapping")
            continue
        if c is not d:
            _unknown(c, _CASE_FIELDS, file, what, col)
        case = _case(c, file, _line(c) or line, what, col)
        if case is not None:
            cases.append(case)
    return cases


def _collect(paths: Sequence[str | Path], builtins: Collection[str] | None) -> tuple[RuleSet, list[RuleIssue]]:
    col = _Collector()
    files = rule_files(paths)
    rules: list[Rule] = []
    for path in files:
        file = str(path)
        ok, data = read_yaml(path, col)
        if not ok:
            continue
        if not isinstance(data, dict):
            col.add(file, 1, "structure", "a rule file is a mapping with stage and rules")
            continue
        _unknown(data, _FILE_FIELDS, file, "file", col)
        stage = data.get("stage")
        if stage not in STAGES:
            col.add(file, _line(data), "stage", f"stage is one of {', '.join(STAGES)}")
            continue
        if not isinstance(data.get("rules"), list):
            col.add(file, _line(data), "structure", "rules is a list")
            continue
        for d in data["rules"]:
            r = _rule(d, file, stage, builtins, col)
            if r is None:
                continue
            if any(o.name == r.name for o in rules):
                col.add(file, r.line, "duplicate", f"rule {r.name!r} is defined twice")
                continue
            rules.append(r)
    return RuleSet(tuple(rules), tuple(str(f) for f in files)), col.issues


def check_rules(paths: Sequence[str | Path], builtins: Collection[str] | None = None) -> list[RuleIssue]:
    """Every problem of the rule files of ``paths`` (``builtins``: the names a ``builtin:``
    may give; not checked when None)."""
    return _collect(paths, builtins)[1]


def load_rules(paths: Sequence[str | Path] | None = None, builtins: Collection[str] | None = None) -> RuleSet:
    """The rules of ``paths`` (default: the shipped ones); raises :class:`RuleError` listing
    every problem when any is an error."""
    rs, issues = _collect(default_rule_dirs() if paths is None else paths, builtins)
    errors = tuple(i for i in issues if i.severity == "error")
    if errors:
        raise RuleError(errors)
    return rs
