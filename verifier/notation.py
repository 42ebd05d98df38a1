"""Text notation of the logic IR: the Lark parser (``grammar/logic.lark``); the printer is
:func:`verifier.logic.to_text` (``str(f)``), re-exported here.

>>> from verifier.notation import parse_formula, to_text
>>> f = parse_formula("exists v. wdt:P2067(wd:Q2270, v)")
>>> to_text(f)
'exists v. wdt:P2067(wd:Q2270, v)'

``parse_formula(to_text(f)) == f`` for every formula whose variable names and IRIs are
printable (see :func:`to_text`); the hypothesis tests in ``tests/test_logic.py`` check it.
Axiom templates (``axioms/templates/*.yaml``) are written in this notation, with ``$name``
placeholders for predicates and constants.
"""

from __future__ import annotations

import re
from functools import lru_cache

from lark import Lark, Transformer, v_args
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from verifier.logic import (
    And, Atom, Compare, Eq, Exists, Forall, Formula, Func, Iff, Implies, IRI, Literal, Not,
    Or, Term, Truth, Var, term_to_text, to_text,
)
from verifier.resources import grammar_path

__all__ = ["parse_formula", "parse_term", "to_text", "term_to_text", "LogicSyntaxError"]


class LogicSyntaxError(ValueError):
    """A formula in the logic notation could not be parsed.

    Attributes ``line``, ``column`` (1-based), ``expected`` (token names) and ``snippet``
    (the offending line with a caret under the position).
    """

    def __init__(self, message: str, line: int = 0, column: int = 0,
                 expected: tuple[str, ...] = (), snippet: str = "") -> None:
        self.line, self.column, self.expected, self.snippet = line, column, expected, snippet
        full = message
        if line:
            full = f"{message} at line {line}, column {column}"
        if expected:
            full += "; expected one of: " + ", ".join(expected)
        if snippet:
            full += "\n" + snippet
        super().__init__(full)


# --------------------------------------------------------------------------------------------
# Parser
# --------------------------------------------------------------------------------------------

_ESC = {"n": "\n", "r": "\r", "t": "\t", '"': '"', "\\": "\\"}


def _unescape(s: str) -> str:
    return re.sub(r"\\(.)", lambda m: _ESC.get(m.group(1), m.group(1)), s)


def _number(text: str) -> Literal:
    if "e" in text or "E" in text:
        return Literal(text, "xsd:double")
    if "." in text:
        return Literal(text, "xsd:decimal")
    return Literal(text, "xsd:integer")


def _symbol_term(name: str) -> Term:
    if ":" in name or name.startswith("$"):
        return IRI(name)
    return Var(name)


@v_args(inline=True)
class _ToIR(Transformer):
    def iff(self, a, b):
        return Iff(a, b)

    def implies(self, a, b):
        return Implies(a, b)

    def or_(self, *xs):
        return Or(tuple(xs))

    def and_(self, *xs):
        return And(tuple(xs))

    def not_(self, a):
        return Not(a)

    def exists_(self, vs, body):
        return Exists(vs, body)

    def forall_(self, vs, body):
        return Forall(vs, body)

    def true(self):
        return Truth(True)

    def false(self):
        return Truth(False)

    def atom(self, pred, args=None):
        return Atom(pred, args or ())

    def eq(self, a, b):
        return Eq(a, b)

    def neq(self, a, b):
        return Not(Eq(a, b))

    def compare(self, a, op, b):
        return Compare(str(op), a, b)

    def pred(self, tok):
        return str(tok)

    def args(self, *ts):
        return tuple(ts)

    def vars(self, *vs):
        return tuple(vs)

    def varname(self, tok):
        s = str(tok)
        return Var(s[1:] if s.startswith("?") else s)

    def symbol(self, tok):
        return _symbol_term(str(tok))

    def variable(self, tok):
        return Var(str(tok)[1:])

    def iriref(self, tok):
        return IRI(str(tok))

    def func(self, name, args=None):
        return Func(name, args or ())

    def string(self, tok):
        return Literal(_unescape(str(tok)[1:-1]))

    def lang_string(self, tok, lang):
        return Literal(_unescape(str(tok)[1:-1]), None, str(lang)[1:])

    def typed_string(self, tok, dt):
        return Literal(_unescape(str(tok)[1:-1]), str(dt))

    def number(self, tok):
        return _number(str(tok))


@lru_cache(maxsize=None)
def _parser(start: str) -> Lark:
    return Lark(grammar_path("logic.lark").read_text(encoding="utf-8"), parser="lalr",
                start=start, transformer=_ToIR(), maybe_placeholders=True)


def _snippet(text: str, line: int, column: int) -> str:
    lines = text.splitlines() or [""]
    if not 1 <= line <= len(lines):
        return ""
    src = lines[line - 1]
    return f"  {src}\n  {' ' * (column - 1)}^"


def _readable(names, parser: Lark) -> tuple[str, ...]:
    """Token names as a reader would write them (``'&'`` rather than ``AMPERSAND``)."""
    out = set()
    for n in names or ():
        try:
            pat = parser.get_terminal(n).pattern
        except KeyError:
            out.add(n)
            continue
        out.add(repr(pat.value) if pat.type == "str" else n)
    return tuple(sorted(out))


def _raise(text: str, e: LarkError, parser: Lark) -> None:
    if isinstance(e, UnexpectedInput):
        line, col = getattr(e, "line", 0) or 0, getattr(e, "column", 0) or 0
        expected: tuple[str, ...] = ()
        if isinstance(e, (UnexpectedToken, UnexpectedEOF)):
            expected = _readable(getattr(e, "expected", None), parser)
        elif isinstance(e, UnexpectedCharacters):
            expected = _readable(e.allowed, parser)
        if isinstance(e, UnexpectedEOF) or (isinstance(e, UnexpectedToken) and e.token.type == "$END"):
            lines = text.splitlines() or [""]
            line, col = len(lines), len(lines[-1]) + 1
            msg = "unexpected end of formula"
        elif isinstance(e, UnexpectedToken):
            msg = f"unexpected {e.token.type} {str(e.token)!r}"
        else:
            msg = f"unexpected character {text[e.pos_in_stream]!r}" if e.pos_in_stream is not None else "unexpected character"
        raise LogicSyntaxError(msg, line, col, expected, _snippet(text, line, col)) from None
    raise LogicSyntaxError(f"invalid formula: {e}") from None


def parse_formula(text: str) -> Formula:
    """Parse the logic notation into a :class:`~verifier.logic.Formula`.

    Raises :class:`LogicSyntaxError` (with line, column, expected tokens and a caret
    snippet) on malformed input; never a raw Lark exception.
    """
    if not isinstance(text, str):
        raise TypeError("parse_formula expects a string")
    parser = _parser("start")
    try:
        return parser.parse(text)
    except LarkError as e:
        _raise(text, e, parser)
        raise  # unreachable


def parse_term(text: str) -> Term:
    """Parse a single term (``wd:Q2270``, ``"abc"@en``, ``0.07``, ``x``)."""
    f = parse_formula(f"{text} = {text}")
    if not isinstance(f, Eq):
        raise LogicSyntaxError(f"not a term: {text!r}")
    return f.left
