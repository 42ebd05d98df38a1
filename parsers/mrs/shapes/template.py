"""Run MRS templates (``template`` of a shape; their form: :mod:`parsers.mrs.shapes.template_spec`)."""

from __future__ import annotations

import re
from typing import Any, Mapping

from parsers.mrs.shapes.build import (
    MrsBuilder, clean_span, has_article, loc_answer, name_ep, name_ok, noun_phrase, people_ep, plain_name_ok,
    wh_ep, which_noun,
)
from parsers.mrs.shapes.data import shape_rx, shape_table, shape_words
from parsers.mrs.shapes.template_spec import SLOT, Template, TemplateError

__all__ = ["holds", "run_template"]


def _group_text(q: str, m: re.Match, g: str, clean: bool = True) -> str:
    if not clean:
        return m.group(g) or ""
    a, z = clean_span(q, *m.span(g))
    return q[a:z]


def _span(m: re.Match, spec: Any) -> tuple[int, int]:
    if isinstance(spec, str):
        return m.span(spec)
    if isinstance(spec, dict):
        g = next(g for g in spec["first"] if m.group(g))
        return m.span(g)

    def end(e: Any) -> int:
        if isinstance(e, int):
            return e
        g, _, which = str(e).partition(".")
        return m.start(g) if which == "start" else m.end(g)
    return end(spec[0]), end(spec[1])


def holds(m: re.Match, cond: Any) -> bool:
    """Whether the condition ``cond`` holds of the match (see the module's doc)."""
    if "not" in cond:
        return not holds(m, cond["not"])
    if "all" in cond:
        return all(holds(m, c) for c in cond["all"])
    text = m.group(cond["group"])
    if not text:
        return False
    t = text.casefold()
    if "is" in cond:
        return t == str(cond["is"])
    if "in_words" in cond:
        return t in shape_words(cond["in_words"])
    if "endswith" in cond:
        return t.endswith(str(cond["endswith"]))
    if "in" in cond:
        return t in cond["in"]
    if "startswith" in cond:
        return t.startswith(str(cond["startswith"]))
    return True


def _passes(q: str, m: re.Match, test: Mapping[str, Any]) -> bool:
    if "if" in test and not holds(m, test["if"]):
        return True
    if "unless" in test:
        return not holds(m, test["unless"])
    if "when" in test:
        return holds(m, test["when"])
    if "name_ok" in test:
        return name_ok(_group_text(q, m, test["name_ok"], test.get("clean", True)))
    if "plain_name" in test:
        return plain_name_ok(_group_text(q, m, test["plain_name"], test.get("clean", True)))
    if "no_article" in test:
        return not has_article(_group_text(q, m, test["no_article"], test.get("clean", True)))
    if "nonempty" in test:
        a, z = clean_span(q, *m.span(test["nonempty"]))
        return z > a
    if "not_search" in test:
        return not shape_rx(test["pattern"]).search(_group_text(q, m, test["not_search"], test.get("clean", True)))
    if "not_in" in test:
        text = _group_text(q, m, test["not_in"], test.get("clean", True)).casefold()
        if test.get("last_word"):
            text = text.split()[-1] if text.split() else ""
        return text not in shape_words(test["words"])
    raise TemplateError(f"unknown test {test!r}")


def _pred(m: re.Match, text: str) -> str:
    def sub(s: re.Match) -> str:
        word = (m.group(s.group(1)) or "").casefold()
        if s.group(2):
            table = shape_table(s.group(2))
            return table.get(word, s.group(3)) if s.group(3) is not None else table[word]
        return word
    return SLOT.sub(sub, text)


class _NoReading(Exception):
    """A step found nothing to write: the template gives no reading."""


class _Run:
    """One application of a template: the match, the builder and the bound variables."""

    def __init__(self, q: str, m: re.Match) -> None:
        self.q, self.m, self.b = q, m, MrsBuilder()
        self.env: dict[str, str] = {}

    def value(self, v: Any) -> str:
        if isinstance(v, dict) and "name" in v:
            return name_ep(self.b, self.q, clean_span(self.q, *self.m.span(v["name"])))
        v = str(v)
        if v.startswith("$"):
            return self.env[v[1:]]
        if v.startswith("new:"):
            return self.b.new(v[4:])
        return v

    def step(self, s: Mapping[str, Any]) -> None:
        b, q, m = self.b, self.q, self.m
        out: str | None = None
        if "wh" in s:
            out = wh_ep(b, _pred(m, str(s["wh"])), _span(m, s["span"]))
        elif "name" in s:
            out = name_ep(b, q, clean_span(q, *m.span(s["name"])))
        elif "which_noun" in s:
            out = which_noun(b, _pred(m, s["which_noun"]), _span(m, s["span"]), _span(m, s["wh_span"]),
                             bool(s.get("relational", False)))
        elif "noun_phrase" in s:
            head = noun_phrase(b, q, _span(m, s["noun_phrase"]), _pred(m, str(s["quant"])))
            if head is None:
                raise _NoReading
            out = head[0]
            if "label_as" in s:
                self.env[str(s["label_as"])] = head[1]
        elif "people" in s:
            out = people_ep(b, _span(m, s["people"]))
        elif "loc_answer" in s:
            out = loc_answer(b, _pred(m, s["loc_answer"]), _span(m, s["span"]))
        elif "new" in s:
            out = b.new(str(s["new"]))
        elif "ep" in s:
            label = self.value(s["label"])
            args = {role: self.value(v) for role, v in (s.get("args") or {}).items()}
            b.ep(_pred(m, s["ep"]), _span(m, s["span"]), label, **args)
        elif "quantified" in s:
            b.quantified(_pred(m, s["quantified"]), _span(m, s["span"]), self.value(s["x"]),
                         self.value(s["restrictor"]))
        if "as" in s and out is not None:
            self.env[str(s["as"])] = out


def run_template(t: Template, q: str) -> list[str]:
    """The reading template ``t`` gives for question ``q`` (``[]`` when it does not apply)."""
    m = shape_rx(t.match).match(q)
    if not m or not all(_passes(q, m, test) for test in t.require):
        return []
    run = _Run(q, m)
    try:
        for s in t.steps:
            if "if" in s and not holds(m, s["if"]):
                continue
            run.step(s)
    except _NoReading:
        return []
    return [run.b.text(run.value(t.result["index"]), run.value(t.result["top"]))]
