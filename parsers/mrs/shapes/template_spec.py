"""MRS templates: a shape's reading written as data, its slots filled from the regex's groups.

(This module reads them; :mod:`parsers.mrs.shapes.template` runs them.  A rewrite's data,
which edits the question rather than writing an MRS, is :mod:`parsers.mrs.shapes.rewrite`.)

A template (the ``template`` of a shape in a shape file) has

* ``match``: the name of the pattern to match the question with (``rx.match``), or a list of
  names (the first pattern that matches is used; ``{matched: P}`` tells which; with
  ``all_patterns: true`` every pattern that matches gives its readings, in the list's order);
* ``each`` (optional): ``{split: G, at: P, as: [BEFORE, JOINT, AFTER], max: N, whole: bool,
  clean: bool}`` runs the tests and steps once per item and gives one reading per item that
  passes: each occurrence of pattern ``P`` in group ``G`` splits it into three virtual groups
  (the text before, ``P``'s first group or else its whole match, the text after; ``clean:
  true`` shrinks the first and last past spaces and quotes; ``first: N`` looks at the first N
  occurrences only), at most ``max`` splits that pass the tests; ``whole: true``
  adds a first item in which ``BEFORE`` is the whole group and ``JOINT`` / ``AFTER`` are unset.
  A pattern without group ``G`` gives the match itself as its one item.
  ``each: {base_forms: G, as: V, or_as_written: COND}`` gives one item per candidate base form
  of the verb in group ``G`` (:func:`verifier.lexical.base_forms`, most likely first; none: the
  word as written when the condition holds), the form a virtual group ``V`` over ``G``'s span.
  ``each: {within: G, match: P}`` gives one item when pattern ``P`` matches the text of group
  ``G``: ``P``'s groups become virtual groups (``{matched: P}`` holds in that item).  A list
  of sources gives their items in turn.  A source may have its own ``require`` (its items are
  tested first, and ``max`` counts the splits that pass them) and a nested ``each`` (run for
  every item it keeps: one reading per pair).  ``each: {cases: [NAME or {name: NAME, if:
  COND}], as: V}`` gives one item per case whose condition holds, the case's name in virtual
  group ``V`` (several readings of one item: "the CLASS for the NP of NAME" read three ways);
* ``groups`` (optional): ``[{as: V, span: S, if: COND}, ...]``, virtual groups defined in
  order (each when its condition holds; a later one may use an earlier), usable like the
  pattern's groups in tests, conditions, spans and predicates ("the verb is the name's last
  word when a particle follows it");
* ``require``: tests of the match, all of which must hold (else no reading; a test with
  ``if: COND`` is made only when the condition holds).  A test reads the text of a group
  ``G``, cleaned of surrounding spaces and quotes (``clean: false``: as written), of a span
  (``{first: ...}``, ``[A, B]`` ...), ``'*'`` (the whole question) or a text with ``{G}``
  slots (``'{part} of '``; ``{G:base}`` as in predicates):
  ``{plain_name: G}`` (a plain name), ``{name_ok: G}`` (a name, titles with "in", "of" ...
  included), ``{title_ok: G}`` (a capitalised title), ``{capital_start: G}`` (its first character upper case; ``last_word: true``: its last word's), ``{upper: G}`` (written in capitals), ``{capitalised: G}`` (every word but
  function words capitalised), ``{no_article: G}``, ``{nonempty: G}``, ``{lower: G}`` (written
  in lower case), ``{plain_np: G}`` (a noun phrase the shapes can build), ``{np_ok: G}`` (one
  noun phrase, any "of" in it a property's), ``{names_id: G}`` (its last word names an
  identifier, :data:`verifier.lexical.ID_WORDS`), ``{search: G, pattern: P}`` / ``{not_search: G,
  pattern: P}`` (pattern ``P`` occurs / does not occur in it; ``anchored: true`` at its start,
  ``anchored: full`` the whole text), ``{not_in: G, words: W}`` (its lower-cased text, or with
  ``last_word: true`` its last word, is not in word list ``W``), ``{word_test: G, max: N,
  letters: true, none_in: [W, ...], some_capitalised: true, some_lower: true, except: [W, ...]}``
  (at most N words, each all letters, none in the lists; some word starts with a capital; some
  word as written, not in the ``except`` lists, starts with a lower-case letter; with
  ``no_past_form: true`` no word is spelled as a past form, :func:`verifier.lexical.base_forms`;
  with ``some_title: true`` some word not in the ``except`` lists is written with a capital and
  then lower case; ``from_word: N`` leaves out the first N words),
  ``{match: P, when: COND}`` (pattern ``P`` matches the question and the condition holds of
  that match), ``{unless: COND}``, ``{when: COND}``, and ``{any: [TEST, ...]}``, ``{all: [TEST,
  ...]}``, ``{not: TEST}``;
* ``steps``: what to write, in order (each may have ``if: COND``; see :func:`holds`):
  ``{noun_phrase: S, quant: QUANT, quant_span: S, as: V, label_as: L}`` (the words of S as the
  ERG builds an unknown-word compound, its head under QUANT over ``quant_span``, by default S;
  binds the head's variable and label; no words: no reading),
  ``{wh: WORD, span: S, as: V}`` (a wh word: ``person`` / ``thing`` and ``which_q``),
  ``{name: S, as: V}`` (``named`` + ``proper_q`` of the cleaned span; ``raw: true`` as
  written; ``text: TEXT, replace: [FROM, TO]``: the CARG is TEXT, its ``{G}`` slots filled
  with the groups as written, FROM replaced by TO), ``{which_noun: PRED, span: S, wh_span: S, relational: bool or COND, as: V}``,
  ``{people: S, demonym: G, as: V}``, ``{loc_answer: PRED, span: S, label: VALUE, rel: PRED,
  rel_span: S, as: V}`` (the answer on ``loc_nonsp``, or ``rel``, of ``e2`` under ``label``,
  by default a new label; binds that label), ``{new: SORT, as: V}``, ``{ep: PRED, span: S,
  label: VALUE, args: {ROLE: VALUE}}``, ``{quantified: QUANT, span: S, x: VALUE, restrictor:
  VALUE}``, ``{qeq: VALUE, to: VALUE}`` (a handle constraint) and ``{steps: [STEP, ...]}``
  (a block, usually under one ``if``);
* ``result``: ``{index: VALUE, top: VALUE}``, the finished SimpleMRS.

A wrapper's data (``wrap`` of a shape of kind ``wrapper``, :class:`Wrapper`) has a template's
``match`` (the first pattern that matches is used), ``groups``, ``require`` and ``steps``, no
``result``, and ``search`` (true, or a list of the patterns looked for anywhere in the question
rather than at its start), ``blank`` (the spans set aside, ``0`` the whole match;
``{span: S, if: COND}`` only when the condition holds) and
``number_from`` (the first number of its new variables and handles, apart from those of the
readings it is added to).  With ``first_passing: true`` every occurrence of each pattern is
tried in turn (a searched pattern's each starting after the last one's start) and the first
that passes the tests is used.  When its tests pass, the question with the spans blanked is read by
the shapes and the EPs and HCONS the steps write are added to each reading, ``hMAIN`` standing
for the label of the reading's main event ``e2`` (:func:`parsers.mrs.shapes.template.run_wrapper`).

A VALUE is ``$V`` (a variable bound by ``as``), ``new:SORT`` (a fresh variable at that point),
``{name: S}`` (a name written at that point), ``{carg: G}`` (the group's text as a quoted
CARG) or a literal (``e2``).  A PRED may hold ``{G}`` (the group's text, lower-cased),
``{G:last}`` (its last word), ``{G:base}`` (a verb's base form,
:func:`verifier.lexical.base_forms`), each optionally looked up in a table: ``{G|T}`` /
``{G|T|DEFAULT}``.  A span S is a group name, ``[A, B]`` with A and B numbers, ``G.start`` /
``G.end`` / ``G.clean_start`` / ``G.clean_end`` (of the group cleaned of surrounding spaces
and quotes) or ``end`` (the question's end), ``{first: [G1, G2]}`` (the span of the first
group that matched), ``{clean: S}`` (S cleaned), ``{after: P, in: S}`` (S less a match of
pattern P at its start), ``{before: P, in: S}`` (S up to P's first occurrence in it) or
``{find: P, in: S}`` (P's first occurrence in S) or ``{strip: S}`` (S less surrounding white
space, quotes kept).  A
COND is ``{group: G}`` (the group matched and is not empty), with ``is: WORD`` / ``in:
[WORDS]`` / ``in_words: LIST`` / ``startswith: TEXT`` / ``endswith: TEXT or [TEXTS]`` /
``contains: TEXT`` (its lower-cased text) or ``matches: P`` (pattern P at the start of its
cleaned text); ``{matched: P}`` (the template matched pattern P), ``{not: COND}``, ``{all:
[COND, ...]}`` or ``{any: [COND, ...]}``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Mapping

__all__ = [
    "WRAPPER_FIELDS", "Wrapper", "wrapper_from", "TEMPLATE_FIELDS", "STEP_FIELDS", "STEP_KINDS", "REQUIRE_KINDS", "SLOT", "Template", "TemplateError",
    "template_from"
]

#: The kinds of steps a template may have.
STEP_KINDS = ("wh", "name", "which_noun", "noun_phrase", "people", "loc_answer", "new", "ep", "quantified", "qeq", "steps")
#: The fields of a template.
TEMPLATE_FIELDS = frozenset({"match", "all_patterns", "each", "groups", "require", "steps", "result"})
#: The options of steps and tests besides their kind.
STEP_FIELDS = frozenset({"as", "label_as", "quant", "quant_span", "if", "span", "wh_span", "relational", "label", "args",
                         "x", "restrictor", "rel", "rel_span", "pattern", "anchored", "words", "clean", "last_word",
                         "max", "letters", "none_in", "some_capitalised", "some_lower", "except", "no_past_form", "some_title", "from_word", "demonym", "to", "raw", "text", "replace", "index", "top"})
#: The kinds of tests a template may require.
REQUIRE_KINDS = ("plain_name", "name_ok", "no_article", "nonempty", "not_search", "search", "not_in", "plain_np",
                 "np_ok", "names_id", "word_test", "lower", "upper", "capital_start", "capitalised", "title_ok", "any", "all", "not", "match", "unless", "when")
SLOT = re.compile(r"\{([a-z0-9_]+)(?::(last|base))?(?:\|([A-Z0-9_]+)(?:\|([^}]*))?)?\}")


class TemplateError(ValueError):
    """A template that cannot be read."""


@dataclass(frozen=True)
class Template:
    """A shape's MRS written as data (see the module's doc)."""

    match: tuple[str, ...]
    require: tuple[Mapping[str, Any], ...] = ()
    steps: tuple[Mapping[str, Any], ...] = ()
    result: Mapping[str, Any] = field(default_factory=dict)
    each: Any = None
    groups: tuple[Mapping[str, Any], ...] = ()
    all_patterns: bool = False

    def patterns(self) -> set[str]:
        """The pattern names the template uses."""
        parts = (*self.require, *_flat(self.steps), *self.groups, self.each or {})
        named = set().union(*(_cond_words(parts, k) for k in ("pattern", "matched", "after", "before", "matches", "find")))
        named |= {str(r["match"]) for r in _flat_tests(self.require) if "match" in r}
        named |= _cond_words([self.each or {}], "match")
        sources = [self.each or {}]
        return set(self.match) | _cond_words(sources, "at") | _cond_words(sources, "match") | named

    def tables(self) -> set[str]:
        """The word lists and tables the template uses."""
        tests = (*self.require, self.each or {})
        out = _cond_words(tests, "words") | _cond_words(tests, "none_in") | _cond_words(tests, "except")
        out |= _cond_words((*tests, *_flat(self.steps), *self.groups))
        for s in _flat(self.steps):
            for v in s.values():
                if isinstance(v, str):
                    out |= {m.group(3) for m in SLOT.finditer(v) if m.group(3)}
        return out


def _flat_tests(tests: Any) -> list[Mapping[str, Any]]:
    """The tests, those inside ``any`` / ``all`` / ``not`` included."""
    out: list[Mapping[str, Any]] = []
    for t in tests:
        if isinstance(t, dict):
            out.append(t)
            inner = t.get("any") or t.get("all") or ([t["not"]] if isinstance(t.get("not"), dict) else [])
            if isinstance(inner, list) and any(isinstance(i, dict) and any(k in i for k in REQUIRE_KINDS) for i in inner):
                out.extend(_flat_tests(inner))
    return out


def _flat(steps: Any) -> list[Mapping[str, Any]]:
    """The steps, those of nested ``steps`` blocks included."""
    out: list[Mapping[str, Any]] = []
    for s in steps:
        out.append(s)
        if isinstance(s, dict) and isinstance(s.get("steps"), list):
            out.extend(_flat(s["steps"]))
    return out


def _cond_words(d: Any, key: str = "in_words") -> set[str]:
    """The names given to ``key`` (word lists of ``in_words``, patterns of ``matched``) anywhere in ``d``."""
    if isinstance(d, dict):
        named = d.get(key)
        here = set(map(str, named)) if isinstance(named, list) else {str(named)} if named is not None else set()
        return here | {w for v in d.values() for w in _cond_words(v, key)}
    if isinstance(d, (list, tuple)):
        return {w for v in d for w in _cond_words(v, key)}
    return set()


def _strip(d: Any) -> Any:
    if isinstance(d, dict):
        return {k: _strip(v) for k, v in d.items() if k != "__line__"}
    if isinstance(d, list):
        return [_strip(v) for v in d]
    return d


def _mapping(raw: Any, fields: frozenset[str], not_a_mapping: str, what: str) -> dict:
    """``raw`` (line numbers left out) when it is a mapping of known ``fields``; else
    :class:`TemplateError` (``not_a_mapping``, or the unknown fields of a ``what``)."""
    raw = _strip(raw)
    if not isinstance(raw, dict):
        raise TemplateError(not_a_mapping)
    unknown = set(raw) - fields
    if unknown:
        raise TemplateError(f"unknown {what} field(s) {sorted(unknown)}")
    return raw


def template_from(raw: Any, patterns: tuple[str, ...]) -> Template:
    """A :class:`Template` from a shape file's mapping; ``patterns`` are the shape's own
    pattern names (the default ``match`` when there is one).  Raises :class:`TemplateError`."""
    raw = _mapping(raw, TEMPLATE_FIELDS, "a template is a mapping", "template")
    match = raw.get("match") or (patterns[0] if len(patterns) == 1 else None)
    if isinstance(match, str):
        match = [match]
    if not isinstance(match, list) or not match or not all(isinstance(p, str) for p in match):
        raise TemplateError("a template names the pattern(s) it matches (match)")
    require = tuple(raw.get("require") or ())
    for r in require:
        if not isinstance(r, dict) or not any(k in r for k in REQUIRE_KINDS):
            raise TemplateError(f"a test is one of {', '.join(REQUIRE_KINDS)}: {r!r}")
    each = raw.get("each")
    _check_each(each)
    steps = tuple(raw.get("steps") or ())
    _check_steps(steps, set())
    result = raw.get("result")
    if not isinstance(result, dict) or {"index", "top"} - set(result):
        raise TemplateError("a template's result names its index and top")
    groups = tuple(raw.get("groups") or ())
    if not all(isinstance(d, dict) and isinstance(d.get("as"), str) and "span" in d for d in groups):
        raise TemplateError("groups are {as: NAME, span: SPAN} (if: COND optional)")
    return Template(tuple(match), require, steps, result, each, groups, bool(raw.get("all_patterns")))


#: The fields of a wrapper's data (``wrap``).
WRAPPER_FIELDS = frozenset({"match", "search", "groups", "require", "steps", "blank", "number_from", "first_passing"})


@dataclass(frozen=True)
class Wrapper:
    """A wrapper written as data (``wrap`` of a shape of kind ``wrapper``): its match, groups,
    tests and steps as a template's (the steps write EPs on the main event: label ``hMAIN``,
    event ``e2``), the patterns it looks for anywhere (``search``), the spans it blanks and the
    number its new variables start from."""

    template: Template
    search: frozenset[str] = frozenset()
    blank: tuple[Any, ...] = ()
    number_from: int = 900
    first_passing: bool = False


def wrapper_from(raw: Any, patterns: tuple[str, ...]) -> Wrapper:
    """A :class:`Wrapper` from a shape file's mapping (see the module's doc); ``patterns`` are
    the shape's own pattern names.  Raises :class:`TemplateError`."""
    raw = _mapping(raw, WRAPPER_FIELDS, "a wrapper's data is a mapping", "wrapper")
    t = template_from({**{k: v for k, v in raw.items() if k in TEMPLATE_FIELDS},
                       "result": {"index": "e2", "top": "hMAIN"}}, patterns)
    search = raw.get("search", False)
    search = frozenset(t.match) if search is True else frozenset() if search is False else search
    if not isinstance(search, (list, frozenset)) or not set(search) <= set(t.match):
        raise TemplateError("search is true, false or a list of the patterns matched")
    blank = raw.get("blank") or []
    number_from = raw.get("number_from", 900)
    if not isinstance(blank, list) or not blank or not isinstance(number_from, int):
        raise TemplateError("a wrapper blanks a list of spans (0: the whole match); number_from is a number")
    return Wrapper(t, frozenset(search), tuple(blank), number_from, bool(raw.get("first_passing")))


def _check_each(each: Any) -> None:
    """Raise :class:`TemplateError` for an ``each`` that is no source or list of sources."""
    for source in (each if isinstance(each, list) else [each] if each is not None else []):
        if not (isinstance(source, dict) and (
                (isinstance(source.get("split"), str) and isinstance(source.get("at"), str)
                 and isinstance(source.get("as"), list) and len(source["as"]) == 3)
                or (isinstance(source.get("base_forms"), str) and isinstance(source.get("as"), str))
                or (isinstance(source.get("within"), str) and isinstance(source.get("match"), str))
                or (isinstance(source.get("cases"), list) and isinstance(source.get("as"), str)))):
            raise TemplateError("each is {split: GROUP, at: PATTERN, as: [BEFORE, JOINT, AFTER]} (max, whole, clean "
                                "optional), {base_forms: GROUP, as: NAME} (or_as_written optional), {within: GROUP, "
                                "match: PATTERN}, {cases: [NAME or {name: NAME, if: COND}], as: NAME} or a list of them; each may have "
                                "require and a nested each")
        for r in source.get("require") or ():
            if not isinstance(r, dict) or not any(k in r for k in REQUIRE_KINDS):
                raise TemplateError(f"a test is one of {', '.join(REQUIRE_KINDS)}: {r!r}")
        _check_each(source.get("each"))


def _check_steps(steps: Any, bound: set[str]) -> None:
    """Raise :class:`TemplateError` for a step of no known kind or one that uses a variable
    before a step binds it; ``bound`` gains the variables the steps bind."""
    if not isinstance(steps, (list, tuple)):
        raise TemplateError("steps are a list")
    for s in steps:
        kinds = [k for k in STEP_KINDS if isinstance(s, dict) and k in s]
        if len(kinds) != 1:
            raise TemplateError(f"a step is one of {', '.join(STEP_KINDS)}: {s!r}")
        if kinds[0] == "steps":
            _check_steps(s["steps"], bound)
            continue
        for v in _values(s):
            if isinstance(v, str) and v.startswith("$") and v[1:] not in bound:
                raise TemplateError(f"step {kinds[0]}: variable {v} is used before it is bound")
        bound |= {str(s[k]) for k in ("as", "label_as") if k in s}


def _values(step: Mapping[str, Any]) -> list[Any]:
    out = [v for k, v in step.items() if k not in ("args", "if", "as", "relational")]
    out += list((step.get("args") or {}).values())
    return out
