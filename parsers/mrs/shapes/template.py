"""Run MRS templates (``template`` of a shape; their form: :mod:`parsers.mrs.shapes.template_spec`)."""

from __future__ import annotations

import re
from typing import Any, Callable, Iterator, Mapping, Sequence

from parsers.mrs.shapes.build import (
    MrsBuilder, capitalised, carg_text, clean_span, has_article, loc_answer, name_ep, name_ok, names_id, noun_phrase, np_ok, people_ep,
    plain_name_ok, plain_np, title_ok, wh_ep, which_noun,
)
from parsers.mrs.shapes.data import shape_rx, shape_table, shape_words
from parsers.mrs.shapes.template_spec import SLOT, Template, TemplateError, Wrapper
from parsers.mrs.shapes.wrappers import blanked_text, on_main_event
from verifier.lexical import base_forms, irregular_base

__all__ = ["MatchView", "holds", "run_template", "run_wrapper"]


def _group_text(q: str, m: re.Match, g: Any, clean: bool = True) -> str:
    """The text a test reads: a group's (cleaned unless ``clean`` is false), a span's, or a
    text with ``{G}`` slots (the groups as written)."""
    if g == "*":
        return q
    if isinstance(g, str) and "{" in g:
        return SLOT.sub(lambda s: _word(m, s) if s.group(2) else m.group(s.group(1)) or "", g)
    if not clean:
        if isinstance(g, str):
            return m.group(g) or ""
        a, z = _span(q, m, g)
        return q[a:z]
    a, z = clean_span(q, *_span(q, m, g))
    return q[a:z]


def _span(q: str, m: re.Match, spec: Any) -> tuple[int, int]:
    if isinstance(spec, str):
        return m.span(spec)
    if isinstance(spec, dict):
        if "clean" in spec:
            return clean_span(q, *_span(q, m, spec["clean"]))
        if "after" in spec:  # the span less a leading match of the pattern
            a, z = _span(q, m, spec["in"])
            lead = shape_rx(spec["after"]).match(q[a:z]) if a >= 0 else None
            return a + (lead.end() if lead else 0), z
        if "strip" in spec:  # the span less surrounding white space (quotes kept)
            a, z = _span(q, m, spec["strip"])
            text = q[a:z] if a >= 0 else ""
            return (a + len(text) - len(text.lstrip()), a + len(text.rstrip())) if a >= 0 else (a, z)
        if "find" in spec:  # the pattern's first occurrence in the span (unset when there is none)
            a, z = _span(q, m, spec["in"])
            hit = shape_rx(spec["find"]).search(q[a:z]) if a >= 0 else None
            return (a + hit.start(), a + hit.end()) if hit else (-1, -1)
        if "before" in spec:  # the span up to the pattern's first occurrence in it
            a, z = _span(q, m, spec["in"])
            hit = shape_rx(spec["before"]).search(q[a:z]) if a >= 0 else None
            return a, (a + hit.start() if hit else z)
        g = next(g for g in spec["first"] if m.group(g))
        return m.span(g)

    def end(e: Any) -> int:
        if isinstance(e, int):
            return e
        if e == "end":  # the question's end
            return len(q)
        g, _, which = str(e).partition(".")
        g = int(g) if g.isdigit() else g  # "0.start": the whole match's
        if which.startswith("clean_"):
            a, z = clean_span(q, *m.span(g))
            return a if which == "clean_start" else z
        return m.start(g) if which == "start" else m.end(g)
    return end(spec[0]), end(spec[1])


def holds(m: re.Match, cond: Any) -> bool:
    """Whether the condition ``cond`` holds of the match (see the module's doc)."""
    if "not" in cond:
        return not holds(m, cond["not"])
    if "all" in cond:
        return all(holds(m, c) for c in cond["all"])
    if "any" in cond:
        return any(holds(m, c) for c in cond["any"])
    if "matched" in cond:
        return m.re is shape_rx(str(cond["matched"]))
    g = cond["group"]
    known = m.known(g) if isinstance(m, MatchView) else g in m.re.groupindex
    text = m.group(g) if known else None
    if not text:
        return False
    if "matches" in cond:  # the pattern at the start of the group's text, cleaned of spaces and quotes
        a, z = clean_span(m.q, *m.span(g)) if isinstance(m, MatchView) else (0, len(text))
        return bool(shape_rx(str(cond["matches"])).match(m.q[a:z] if isinstance(m, MatchView) else text))
    t = text.casefold()
    if "is" in cond:
        return t == str(cond["is"])
    if "in_words" in cond:
        return t in shape_words(cond["in_words"])
    if "endswith" in cond:
        ends = cond["endswith"]
        return t.endswith(tuple(map(str, ends)) if isinstance(ends, list) else str(ends))
    if "in" in cond:
        return t in cond["in"]
    if "contains" in cond:
        return str(cond["contains"]) in t
    if "startswith" in cond:
        return t.startswith(str(cond["startswith"]))
    return True


def _passes(q: str, m: re.Match, test: Mapping[str, Any]) -> bool:
    if "if" in test and not holds(m, test["if"]):
        return True
    if "not" in test:
        return not _passes(q, m, test["not"])
    if "match" in test:  # another pattern matches the question, and the condition holds of that match
        other = shape_rx(str(test["match"])).match(q)
        return bool(other) and ("when" not in test or holds(MatchView(other, q), test["when"]))
    if "any" in test:
        return any(_passes(q, m, t) for t in test["any"])
    if "all" in test:
        return all(_passes(q, m, t) for t in test["all"])
    if "lower" in test:
        text = _group_text(q, m, test["lower"], test.get("clean", True))
        return text == text.casefold()
    if "capital_start" in test:
        text = _group_text(q, m, test["capital_start"], test.get("clean", True))
        if test.get("last_word"):
            text = text.split()[-1] if text.split() else ""
        return text[:1].isupper()
    if "upper" in test:
        text = _group_text(q, m, test["upper"], test.get("clean", True))
        return text == text.upper()
    if "capitalised" in test:
        return capitalised(_group_text(q, m, test["capitalised"], test.get("clean", True)))
    if "title_ok" in test:
        return title_ok(_group_text(q, m, test["title_ok"], test.get("clean", True)))
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
    if "plain_np" in test:
        return plain_np(_group_text(q, m, test["plain_np"], test.get("clean", True)))
    if "names_id" in test:
        return names_id(_group_text(q, m, test["names_id"], test.get("clean", True)))
    if "np_ok" in test:
        return np_ok(_group_text(q, m, test["np_ok"], test.get("clean", True)))
    if "not_search" in test or "search" in test:
        found = _found(q, m, test, test.get("not_search", test.get("search")))
        return found if "search" in test else not found
    if "word_test" in test:
        written = _group_text(q, m, test["word_test"], test.get("clean", True)).split()[int(test.get("from_word", 0)):]
        words = [w.casefold() for w in written]
        lists = [shape_words(w) for w in test.get("none_in") or ()]
        kept = [w for w in written if not any(w in shape_words(x) for x in test.get("except") or ())]
        return (len(words) <= int(test.get("max", len(words)))
                and not (test.get("letters") and not all(w.isalpha() for w in words))
                and not any(w in ws for w in words for ws in lists)
                and not (test.get("some_capitalised") and not any(w[:1].isupper() for w in written))
                and not (test.get("some_lower") and not any(w[:1].islower() for w in kept))
                and not (test.get("some_title") and not any(w[:1].isupper() and w[1:].islower() for w in kept))
                and not (test.get("no_past_form") and any(base_forms(w) for w in written)))
    if "not_in" in test:
        text = _group_text(q, m, test["not_in"], test.get("clean", True)).casefold()
        if test.get("last_word"):
            text = text.split()[-1] if text.split() else ""
        return text not in shape_words(test["words"])
    raise TemplateError(f"unknown test {test!r}")


def _found(q: str, m: re.Match, test: Mapping[str, Any], where: Any) -> bool:
    """Whether the test's pattern occurs in the text of ``where`` (at its start when
    ``anchored``)."""
    rx = shape_rx(test["pattern"])
    text = _group_text(q, m, where, test.get("clean", True))
    anchored = test.get("anchored")
    return bool(rx.fullmatch(text) if anchored == "full" else rx.match(text) if anchored else rx.search(text))


def _word(m: re.Match, s: re.Match) -> str:
    """The lower-cased text of the slot's group, its last word (``{G:last}``) or its verb's
    base form (``{G:base}``: the first of :func:`~verifier.lexical.base_forms`, else the
    irregular base, else the word itself)."""
    word = (m.group(s.group(1)) or "").casefold()
    if s.group(2) == "last":
        word = word.split()[-1] if word.split() else ""
    elif s.group(2) == "base":
        word = next(iter(base_forms(word)), None) or irregular_base(word) or word
    return word


def _pred(m: re.Match, text: str) -> str:
    def sub(s: re.Match) -> str:
        word = _word(m, s)
        if s.group(3):
            table = shape_table(s.group(3))
            return table.get(word, s.group(4)) if s.group(4) is not None else table[word]
        return word
    return SLOT.sub(sub, text)


class MatchView:
    """A regex match with virtual groups (name -> span, or None when unset) over the question
    ``q``: the pieces of one item of a template's ``each``."""

    def __init__(self, m: Any, q: str, extra: Mapping[str, tuple[int, int] | None] | None = None,
                 texts: Mapping[str, tuple[str, str]] | None = None) -> None:
        self.m, self.q, self.extra = m, q, dict(extra or {})
        self.texts = dict(texts or {})  # virtual group -> (its text, the group whose span it has)
        self.re = m.re

    def known(self, g: str) -> bool:
        """Whether ``g`` names a group of the pattern or a virtual one."""
        return g in self.extra or g in self.texts or g in self.m.re.groupindex

    def span(self, g: Any = 0) -> tuple[int, int]:
        """The span of group ``g`` (``(-1, -1)`` when it is unset)."""
        if g in self.texts:
            return self.span(self.texts[g][1]) if self.texts[g][1] else (-1, -1)
        if g in self.extra:
            return self.extra[g] or (-1, -1)
        return self.m.span(g)

    def start(self, g: Any = 0) -> int:
        """Where group ``g`` starts."""
        return self.span(g)[0]

    def end(self, g: Any = 0) -> int:
        """Where group ``g`` ends."""
        return self.span(g)[1]

    def group(self, g: Any = 0) -> str | None:
        """The text of group ``g`` (None when it is unset or the pattern has no such group)."""
        if g in self.texts:
            return self.texts[g][0]
        if g in self.extra:
            sp = self.extra[g]
            return None if sp is None else self.q[sp[0]:sp[1]]
        return self.m.group(g) if not isinstance(g, str) or g in self.m.re.groupindex else None


def _view(base: MatchView, extra: Mapping[str, tuple[int, int] | None] | None = None,
          texts: Mapping[str, tuple[str, str]] | None = None) -> MatchView:
    """``base`` with more virtual groups."""
    view = MatchView(base.m, base.q, {**base.extra, **(extra or {})}, {**base.texts, **(texts or {})})
    view.re = base.re
    return view


def _items(q: str, base: MatchView, each: Any) -> list[MatchView]:
    """The items a template runs over: the match itself, or those of ``each`` (a source or a
    list of sources, see the module doc of :mod:`~parsers.mrs.shapes.template_spec`).  A
    source with its own ``require`` keeps the items that pass it (at most ``max`` splits) and
    a nested ``each`` expands every item it keeps."""
    if not each:
        return [base]
    if isinstance(each, (list, tuple)):
        return [v for source in each for v in _items(q, base, source)]
    items = _source_items(q, base, each)
    if "require" in each:
        kept, splits = [], 0
        joint = each["as"][1] if "split" in each else None
        for v in items:
            split = joint is not None and v.extra.get(joint) is not None
            if split and splits >= int(each.get("max", 1 << 30)):
                break
            if all(_passes(q, v, test) for test in each["require"]):
                kept.append(v)
                splits += split
        items = kept
    if "each" in each:
        items = [w for v in items for w in _items(q, v, each["each"])]
    return items


def _source_items(q: str, base: MatchView, each: Mapping[str, Any]) -> list[MatchView]:
    """The items of one source of ``each``, before its tests."""
    if "within" in each:  # a pattern matched against a group's text: its groups as virtual groups
        g = str(each["within"])
        text = base.group(g) if base.known(g) else None
        sub = shape_rx(str(each["match"])).match(text) if text is not None else None
        if not sub:
            return []
        g0 = base.start(g)
        view = _view(base, {n: (g0 + sub.start(n), g0 + sub.end(n)) if sub.group(n) is not None else None
                            for n in sub.re.groupindex})
        view.re = sub.re
        return [view]
    if "cases" in each:  # one item per case whose condition holds, its name a virtual group
        var = str(each["as"])
        cases = [c if isinstance(c, dict) else {"name": c} for c in each["cases"]]
        return [_view(base, texts={var: (str(c["name"]), "")}) for c in cases if "if" not in c or holds(base, c["if"])]
    if "base_forms" in each:  # one item per candidate base form of a verb
        g, var = str(each["base_forms"]), str(each["as"])
        word = base.group(g) or ""
        forms = base_forms(word)
        if not forms and "or_as_written" in each and holds(base, each["or_as_written"]):
            forms = [word.casefold()]
        return [_view(base, texts={var: (f, g)}) for f in forms]
    g = str(each["split"])
    before, joint, after = each["as"]
    if not base.known(g):  # a pattern of the shape without that group: the match itself
        return [base]
    tidy = (lambda a, z: clean_span(q, a, z)) if each.get("clean") else (lambda a, z: (a, z))
    out: list[MatchView] = []
    if each.get("whole"):
        out.append(_view(base, {before: tidy(*base.span(g)), joint: None, after: None}))
    text = base.group(g)
    if text is not None:
        g0, g1 = base.span(g)
        seps = shape_rx(str(each["at"])).finditer(text)
        for i, sp in enumerate(seps):
            if "first" in each and i >= int(each["first"]):  # only the first N occurrences
                break
            k = 1 if sp.re.groups else 0  # the separator's first group, else the whole separator
            out.append(_view(base, {before: tidy(g0, g0 + sp.start()), joint: (g0 + sp.start(k), g0 + sp.end(k)),
                                    after: tidy(g0 + sp.end(), g1)}))
    return out


class _NoReading(Exception):
    """A step found nothing to write: the template gives no reading."""


class _Run:
    """One application of a template: the match, the builder and the bound variables."""

    def __init__(self, q: str, m: re.Match) -> None:
        self.q, self.m, self.b = q, m, MrsBuilder()
        self.env: dict[str, str] = {}

    def value(self, v: Any) -> str:
        """The MRS value a template's VALUE stands for (see the module doc of template_spec)."""
        if isinstance(v, dict) and "name" in v:
            return self.name(v["name"], bool(v.get("raw")), v)
        if isinstance(v, dict) and "carg" in v:
            return carg_text(self.m.group(v["carg"]) or "")
        v = str(v)
        if v.startswith("$"):
            return self.env[v[1:]]
        if v.startswith("new:"):
            return self.b.new(v[4:])
        return v

    def name(self, spec: Any, raw: bool = False, opts: Mapping[str, Any] | None = None) -> str:
        """A name over the span ``spec`` (cleaned unless ``raw``); with ``text`` (slots filled
        with the groups as written, then each ``replace: [FROM, TO]`` applied) its CARG is
        that text instead of the span's."""
        span = _span(self.q, self.m, spec)
        span = span if raw else clean_span(self.q, *span)
        text = None
        if opts and "text" in opts:
            text = _group_text(self.q, self.m, str(opts["text"]))
            if opts.get("replace"):
                text = text.replace(str(opts["replace"][0]), str(opts["replace"][1]))
        return name_ep(self.b, self.q, span, text)

    def run(self, steps: Any) -> None:
        """Run ``steps`` in order, each when its ``if`` holds."""
        for s in steps:
            if "if" in s and not holds(self.m, s["if"]):
                continue
            self.step(s)

    def step(self, s: Mapping[str, Any]) -> None:
        """Run one step (its ``if`` already checked); bind what it makes to its ``as``."""
        b, q, m = self.b, self.q, self.m
        out: str | None = None
        if "steps" in s:
            self.run(s["steps"])
        elif "wh" in s:
            out = wh_ep(b, _pred(m, str(s["wh"])), _span(q, m, s["span"]))
        elif "name" in s:
            out = self.name(s["name"], bool(s.get("raw")), s)
        elif "which_noun" in s:
            rel = s.get("relational", False)
            out = which_noun(b, _pred(m, s["which_noun"]), _span(q, m, s["span"]), _span(q, m, s["wh_span"]),
                             holds(m, rel) if isinstance(rel, dict) else bool(rel))
        elif "noun_phrase" in s:
            head = noun_phrase(b, q, _span(q, m, s["noun_phrase"]), _pred(m, str(s["quant"])),
                               _span(q, m, s["quant_span"]) if "quant_span" in s else None)
            if head is None:
                raise _NoReading
            out = head[0]
            if "label_as" in s:
                self.env[str(s["label_as"])] = head[1]
        elif "people" in s:
            dem = s.get("demonym")
            out = (people_ep(b, _span(q, m, s["people"]), m.group(dem), m.span(dem)) if dem
                   else people_ep(b, _span(q, m, s["people"])))
        elif "qeq" in s:
            b.hcons.append(f"{self.value(s['qeq'])} qeq {self.value(s['to'])}")
        elif "loc_answer" in s:
            out = loc_answer(b, _pred(m, s["loc_answer"]), _span(q, m, s["span"]),
                             self.value(s["label"]) if "label" in s else None, _pred(m, s.get("rel", "loc_nonsp")),
                             _span(q, m, s["rel_span"]) if "rel_span" in s else None)
        elif "new" in s:
            out = b.new(str(s["new"]))
        elif "ep" in s:
            label = self.value(s["label"])
            args = {role: self.value(v) for role, v in (s.get("args") or {}).items()}
            b.ep(_pred(m, s["ep"]), _span(q, m, s["span"]), label, **args)
        elif "quantified" in s:
            b.quantified(_pred(m, s["quantified"]), _span(q, m, s["span"]), self.value(s["x"]),
                         self.value(s["restrictor"]))
        if "as" in s and out is not None:
            self.env[str(s["as"])] = out


def run_template(t: Template, q: str) -> list[str]:
    """The readings template ``t`` gives for question ``q`` (``[]`` when it does not apply):
    one, or with ``each`` one per item that passes the tests (at most ``max`` splits)."""
    found = [m for m in (shape_rx(p).match(q) for p in t.match) if m]
    if not found:
        return []
    out: list[str] = []
    splits = 0
    sources = t.each if isinstance(t.each, (list, tuple)) else [t.each] if t.each else []
    # a split source without tests of its own is capped by the template's tests
    split_source = next((e for e in sources if "split" in e and "require" not in e), None)
    cap = int(split_source.get("max", 1 << 30)) if split_source else 1 << 30
    views = [v for m in (found if t.all_patterns else found[:1]) for v in _items(q, MatchView(m, q), t.each)]
    for view in views:
        for d in t.groups:  # virtual groups, in order, each when its condition holds
            if "if" not in d or holds(view, d["if"]):
                view.extra[str(d["as"])] = _span(q, view, d["span"])
        split = split_source is not None and view.extra.get(split_source["as"][1]) is not None
        if split and splits >= cap:
            break
        if not all(_passes(q, view, test) for test in t.require):
            continue
        splits += split
        run = _Run(q, view)
        try:
            run.run(t.steps)
        except _NoReading:
            continue
        out.append(run.b.text(run.value(t.result["index"]), run.value(t.result["top"])))
    return out


def run_wrapper(w: Wrapper, q: str, shapes: Sequence[Callable[[str], list]]) -> list[str]:
    """The readings of ``q`` by the wrapper ``w`` (its form: :mod:`parsers.mrs.shapes.template_spec`):
    when its first matching pattern's tests pass, the readings the ``shapes`` give of ``q`` with
    the wrapper's spans blanked (spans keep their offsets), each with the EPs of its steps on its
    main event; ``[]`` when it does not apply."""
    t = w.template
    view = next((v for v in _wrapper_views(w, q) if all(_passes(q, v, test) for test in t.require)), None)
    if view is None:
        return []
    run = _Run(q, view)
    run.b.n = w.number_from - 1
    try:
        run.run(t.steps)
    except _NoReading:
        return []
    spans = [b.get("span") if isinstance(b, dict) and "span" in b else b for b in w.blank
             if not (isinstance(b, dict) and "span" in b and "if" in b and not holds(view, b["if"]))]
    blanked = blanked_text(q, *(view.span(0) if b == 0 else _span(q, view, b) for b in spans))
    eps, hcons = " ".join(run.b.rels), " ".join(run.b.hcons)
    if not eps and not hcons:  # a phrase set aside, nothing added
        return [r for f in shapes for r in f(blanked)]
    return [on_main_event(r, eps, hcons) for f in shapes for r in f(blanked)]


def _wrapper_views(w: Wrapper, q: str) -> Iterator[MatchView]:
    """The matches a wrapper tries, its virtual groups set: the first pattern's that matches
    or, with ``first_passing``, every occurrence of each pattern in turn (a searched
    pattern's each starting after the last one's start)."""
    for p in w.template.match:
        rx, pos = shape_rx(p), 0
        while (m := rx.search(q, pos) if p in w.search else rx.match(q) if pos == 0 else None) is not None:
            view = MatchView(m, q)
            for d in w.template.groups:
                if "if" not in d or holds(view, d["if"]):
                    view.extra[str(d["as"])] = _span(q, view, d["span"])
            yield view
            if not w.first_passing:
                return
            pos = m.start() + 1
