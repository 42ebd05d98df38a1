"""Text notation of the logic IR: printer and Lark parser (``grammar/logic.lark``).

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
    Or, Term, Truth, Var,
)
from verifier.resources import grammar_path

__all__ = ["parse_formula", "parse_term", "to_text", "term_to_text", "LogicSyntaxError"]

_KEYWORDS = frozenset({"exists", "forall", "true", "false"})
_SYMBOL_RE = re.compile(r"[A-Za-z_$][A-Za-z0-9_$/+*\-]*(?:[.:][A-Za-z0-9_$/+*\-]+)*:?")
_PLAIN_VAR_RE = re.compile(r"[A-Za-z0-9_]+")
_INT_RE = re.compile(r"[+-]?\d+")
_DEC_RE = re.compile(r"[+-]?(?:\d+\.\d*|\.\d+)")
_DBL_RE = re.compile(r"[+-]?(?:\d+\.\d*|\.\d+|\d+)[eE][+-]?\d+")
_IRIREF_RE = re.compile(r"<[^<>\"{}|^`\\\s]*>")


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
# Printer
# --------------------------------------------------------------------------------------------

_PREC = {"iff": 1, "implies": 2, "or": 3, "and": 4, "not": 5, "atom": 6}


def _escape(s: str) -> str:
    return (s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
            .replace("\r", "\\r").replace("\t", "\\t"))


def _var_text(v: Var) -> str:
    n = v.name
    if (_SYMBOL_RE.fullmatch(n) and ":" not in n and not n.startswith("$")
            and n not in _KEYWORDS):
        return n
    if _PLAIN_VAR_RE.fullmatch(n):
        return "?" + n
    raise ValueError(f"variable name {n!r} cannot be written in the logic notation")


def _literal_text(t: Literal) -> str:
    dt, lex = t.datatype, t.lexical
    if t.lang is not None:
        return f'"{_escape(lex)}"@{t.lang}'
    if dt is None:
        return f'"{_escape(lex)}"'
    if dt == "xsd:integer" and _INT_RE.fullmatch(lex):
        return lex
    if dt == "xsd:decimal" and _DEC_RE.fullmatch(lex):
        return lex
    if dt == "xsd:double" and _DBL_RE.fullmatch(lex):
        return lex
    return f'"{_escape(lex)}"^^{dt}'


def term_to_text(t: Term) -> str:
    """Print a term in the logic notation."""
    if isinstance(t, Var):
        return _var_text(t)
    if isinstance(t, IRI):
        return t.value
    if isinstance(t, Literal):
        return _literal_text(t)
    if isinstance(t, Func):
        return f"{t.name}({', '.join(term_to_text(a) for a in t.args)})"
    raise TypeError(f"not a term: {t!r}")


def to_text(f: Formula) -> str:
    """Print a formula in the logic notation (round-trips through :func:`parse_formula`)."""
    return _fmt(f, 0, True)


def _fmt(f: Formula, ctx: int, tail: bool) -> str:
    """``ctx``: binding strength the surrounding operator needs; ``tail``: whether a
    quantifier printed here may extend to the end of the enclosing text."""
    if isinstance(f, (Exists, Forall)):
        kw = "exists" if isinstance(f, Exists) else "forall"
        s = f"{kw} {' '.join(_var_text(v) for v in f.vars)}. {_fmt(f.body, 0, True)}"
        return s if tail else f"({s})"
    if isinstance(f, Atom):
        return f"{f.pred}({', '.join(term_to_text(a) for a in f.args)})"
    if isinstance(f, Truth):
        return "true" if f.value else "false"
    if isinstance(f, Eq):
        return f"{term_to_text(f.left)} = {term_to_text(f.right)}"
    if isinstance(f, Compare):
        return f"{term_to_text(f.left)} {f.op} {term_to_text(f.right)}"
    if isinstance(f, Not):
        if isinstance(f.arg, Eq):
            return f"{term_to_text(f.arg.left)} != {term_to_text(f.arg.right)}"
        inner = f.arg
        if isinstance(inner, (Exists, Forall)):
            return "~" + _fmt(inner, 0, False)  # always parenthesised
        return "~" + _fmt(inner, _PREC["not"], False)
    if isinstance(f, (And, Or)):
        p = _PREC["and" if isinstance(f, And) else "or"]
        op = " & " if isinstance(f, And) else " | "
        n = len(f.args)
        # operands must bind tighter than this operator (nested And/Or get parentheses so
        # that the n-ary structure round-trips)
        parts = [_fmt(a, p + 1, tail and i == n - 1) for i, a in enumerate(f.args)]
        s = op.join(parts)
        return f"({s})" if ctx > p else s
    if isinstance(f, Implies):
        p = _PREC["implies"]
        # the right operand may run to the end only where this text does: at the end of the
        # enclosing text, or inside the parentheses this operator gets (ctx > p)
        s = f"{_fmt(f.left, p + 1, False)} -> {_fmt(f.right, p, tail or ctx > p)}"
        return f"({s})" if ctx > p else s
    if isinstance(f, Iff):
        p = _PREC["iff"]
        s = f"{_fmt(f.left, p + 1, False)} <-> {_fmt(f.right, p + 1, tail or ctx > p)}"
        return f"({s})" if ctx > p else s
    raise TypeError(f"not a formula: {f!r}")


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
