"""The query's FILTERs against the question's words: comparisons and string tests.

A comparison (``FILTER(?x > 19848)``) or a string test on a name (``CONTAINS(LCASE(?label),
"war")``) is not proved from the question's logic: :func:`take_compared_values` and
:func:`take_lexical_filters` take them out of the query's formula and check that the question
writes the compared value (:func:`surface_comparisons`: "more than 19848") or speaks of the
name and writes the string.  Used by :mod:`verifier.deductive` and :mod:`verifier.intent`.
"""

from __future__ import annotations

import re
from typing import Iterable, Sequence

from verifier.grounding.numbers import number_in_text, with_written_sign
from verifier.lexical import fold
from verifier.vocabulary import vocabulary
from verifier.logic import (
    And, Atom, Compare, Eq, Exists, Formula, Literal, Var, conj, exists, free_vars, subformulas,
)

__all__ = ["FLIPPED", "NAME_EDGE", "STRING_TESTS", "label_tests", "label_vars", "literals_of",
           "surface_comparisons", "take_compared_values", "take_lexical_filters", "value_in_text"]


_WORDS = vocabulary("filters")

#: A comparison's operator with its sides swapped (``2 < x`` is ``x > 2``).
FLIPPED = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "=": "="}


STRING_TESTS = frozenset({"contains", "strstarts", "strends", "regex"})


#: A date written as a string of year, month and day ("895-0-0", "-524-0-0", "487-1-1"), as
#: LC-QuAD 2.0 tests a date before the year 1000 (``CONTAINS(?x, "-524-0-0")``), where
#: ``YEAR()`` does not apply: a month and day of 0 (unknown) or 1-1 (Wikidata's year-precision
#: date) say no more than the year; a negative year is before Christ.
_YEAR_DATE = re.compile(r"(-?)0*(\d{1,4})-(?:0{1,2}-0{1,2}|0?1-0?1)")
#: How a question marks a year before Christ ("524 BC", "100 B.C.E.").
_BC = _WORDS.pattern("before_christ")


def value_in_text(value: str, text: str) -> bool:
    """Whether the question ``text`` writes the value ``value`` of a filter: a number or a
    string as :func:`number_in_text` finds it, a string also without its accents, as names are
    matched ("Gesu Cristo" writes "Gesù Cristo"), or a date of a year alone
    (:data:`_YEAR_DATE`) whose year it writes, with "BC" for a year before Christ and without it
    otherwise ("What award did Milo of Croton receive in 524 BC?" writes ``-524-0-0``, "in the
    year 907" writes ``907-0-0``)."""
    if number_in_text(value, text):
        return True
    if (not value.isascii() and len(value.strip()) > 2
            and re.search(r"(?<!\w)" + re.escape(fold(value.strip())) + r"(?!\w)", fold(text))):
        return True  # a word, not a letter: "ü" is another letter than the question's "U"
    m = _YEAR_DATE.fullmatch(value.strip())
    if m is None:
        return False
    before_christ = bool(m.group(1))
    for w in re.finditer(r"(?<![\w.\-])" + m.group(2) + r"(?![\w.]*\d)", text):
        if (_BC.match(text, w.end()) is not None) == before_christ:
            return True
    return False


#: A name restriction on the start or the end of the name (see :func:`verifier.intent.surface_name_test`).
NAME_EDGE = _WORDS.pattern("name_edge")


_CMP_WORDS = [(op, "|".join(phrases)) for op, phrases in _WORDS.mapping("comparisons").items()]
#: words between a comparison and its number ("more than about 100")
_FILLERS = "(?:" + "|".join(w + r"\s+" for w in _WORDS.words("comparison_fillers")) + ")?"
#: a yes/no question that ends in "is N?" states that the value is N
_COPULA = _WORDS.alternation("copulas")


_NUMBER = r"(-?\d[\d,]*(?:\.\d+)?(?:e[+-]?\d+)?|-?\.\d+)"


def surface_comparisons(question: str) -> list[tuple[str, Literal]]:
    """Comparisons a question writes with a number: "above 100 degrees" -> (">", 100)."""
    out = []
    q = question.casefold()
    for op, words in _CMP_WORDS:
        for m in re.finditer(rf"\b(?:{words})\s+{_FILLERS}{_NUMBER}", q):
            out.append((op, _number_literal(m.group(1))))
    # a yes/no question that ends in "is N?" states that the value is N ("Is it true that
    # the employment of Amsterdam is 12250?")
    m = re.search(rf"\b{_COPULA}\s+{_NUMBER}\s*\??\s*$", q)
    if m and not any(op == "=" for op, _ in out):
        out.append(("=", _number_literal(m.group(1))))
    return out


def _number_literal(text: str) -> Literal:
    num = text.replace(",", "")
    dt = "xsd:double" if "e" in num else "xsd:decimal" if "." in num else "xsd:integer"
    return Literal(num, dt)


def take_compared_values(f: Formula, reading, question: str = "") -> tuple[Formula, list[str]]:
    """A comparison of the query with a number (``?s < 0.07``) that the question states with
    the same operator and value ("less than 0.07", from the reading's comparative or from the
    question's words) leaves ``G`` as checked; a different operator or value stays and is
    reported."""
    stated: list[tuple[str, Literal]] = list(surface_comparisons(question))
    it = reading.intent
    if it.kind == "comparative" and it.op is not None and isinstance(it.value, Literal):
        stated.append((it.op, with_written_sign(it.value, question)))
    if not stated:
        return f, []
    return _take_comparisons(f, stated)


def _take_comparisons(f: Formula, stated: list[tuple[str, Literal]]) -> tuple[Formula, list[str]]:
    bound: tuple[Var, ...] = ()
    body = f
    if isinstance(f, Exists):
        bound, body = f.vars, f.body
    parts = list(body.args) if isinstance(body, And) else [body]
    # a number is never the subject of a triple: a comparison on a subject (a swapped query,
    # "?n wdt:P1132 X . FILTER(?n = 5)") is not what the question states
    subjects = {p.args[0] for p in parts if isinstance(p, Atom) and len(p.args) == 2
                and ":" in p.pred and isinstance(p.args[0], Var)}
    kept, notes = [], []
    for a in parts:
        op = lit = None
        if isinstance(a, (Compare, Eq)) and (free_vars(a) & subjects):
            kept.append(a)
            continue
        if isinstance(a, Compare):
            op, lit = (a.op, a.right) if isinstance(a.right, Literal) else (FLIPPED[a.op], a.left)
        elif isinstance(a, Eq):
            op, lit = "=", (a.right if isinstance(a.right, Literal) else a.left)
        if isinstance(lit, Literal) and lit.numeric_value is not None and any(
                w.numeric_value is not None and lit.numeric_value == w.numeric_value and _same_op(op, wop)
                for wop, w in stated):
            notes.append(f"comparison {op} {lit.lexical} stated by the question")
            continue
        kept.append(a)
    if not notes:
        return f, []
    nb = conj(kept)
    return exists([v for v in bound if v in free_vars(nb)], nb), notes


def _same_op(a: str | None, b: str | None) -> bool:
    strict = {"<": "<", "<=": "<", ">": ">", ">=": ">", "=": "="}
    return a is not None and b is not None and strict.get(a) == strict.get(b)


#: words by which a question speaks of how a name is written
_TEXT_WORDS = _WORDS.pattern("text_words")


#: Properties that give an item's name.
_LABEL_PREDS = frozenset({"rdfs:label", "skos:altLabel"})


def label_vars(parts: Iterable[Formula]) -> set[Var]:
    """The variables that ``parts`` bind to a label (``rdfs:label(x, l)``: ``l``)."""
    return {a.args[1] for a in parts if isinstance(a, Atom) and a.pred in _LABEL_PREDS
            and len(a.args) == 2 and isinstance(a.args[1], Var)}


def label_tests(parts: Sequence[Formula]) -> list[Atom]:
    """The string tests among ``parts`` of a variable that ``parts`` bind to a label: tests
    of how a name is written (``STRSTARTS(LCASE(?label), "f")`` with ``rdfs:label(x, ?label)``)."""
    names = label_vars(parts)
    return [a for a in parts if isinstance(a, Atom) and a.pred in STRING_TESTS and free_vars(a) & names]


def take_lexical_filters(f: Formula, question: str) -> tuple[Formula, list[str]]:
    """String tests with a literal (``contains(lcase(label), "sorting")``,
    ``contains(year(x), "2009")``) are checked lexically: when the literal is written in the
    question they leave ``G`` (with the label and language conditions that only serve them);
    otherwise they stay and will be reported."""
    bound: tuple[Var, ...] = ()
    body = f
    if isinstance(f, Exists):
        bound, body = f.vars, f.body
    parts = list(body.args) if isinstance(body, And) else [body]
    notes: list[str] = []
    removed: set[int] = set()
    label_vars: set[Var] = set()
    # a test of a label is a test of how a name is written: the question must say so ("contains
    # the word", "starts with", "named"); "a list of roller coasters" asks for a class, not for
    # labels containing "roller coaster".  Tests of values ("population 30257.0") need no such word.
    unstated = [] if _TEXT_WORDS.search(question) else label_tests(parts)
    for i, a in enumerate(parts):
        if isinstance(a, Atom) and a.pred in STRING_TESTS:
            lits = literals_of(a)
            if a in unstated:
                continue
            if lits and all(value_in_text(t.lexical, question) for t in lits):
                removed.add(i)
                notes.append(f"{a.pred} '{lits[0].lexical}' written in the question")
                label_vars |= free_vars(a)
    if label_vars:
        for i, a in enumerate(parts):
            if i in removed:
                continue
            fv = free_vars(a)
            if isinstance(a, Atom) and a.pred in _LABEL_PREDS and len(a.args) == 2 \
                    and a.args[1] in label_vars:
                removed.add(i)
            elif fv and fv <= label_vars and not (isinstance(a, Atom) and ":" in a.pred):
                removed.add(i)  # lang(label) = "en" and the like
    if not removed:
        return f, []
    rest = [a for i, a in enumerate(parts) if i not in removed]
    new_body = conj(rest)
    keep = [v for v in bound if v in free_vars(new_body)]
    return exists(keep, new_body), notes


def literals_of(f: Formula) -> list[Literal]:
    from verifier.logic import Func

    out = []

    def term(t):
        if isinstance(t, Literal):
            out.append(t)
        elif isinstance(t, Func):
            for a in t.args:
                term(a)

    for g in subformulas(f):
        if isinstance(g, Atom):
            for a in g.args:
                term(a)
        elif isinstance(g, (Eq, Compare)):
            term(g.left)
            term(g.right)
    return out
