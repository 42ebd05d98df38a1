"""The logic IR shared by every front end and the prover.

One small, immutable, typed language:

* **terms**: :class:`Var`, :class:`IRI` (KG constants, prefixed ``wd:Q2270`` or ``<full>``),
  :class:`Literal` (lexical form with datatype or language tag), :class:`Func`
  (uninterpreted-but-consistent functions such as ``year(x)`` or ``lcase(x)``, and the
  interpreted arithmetic functions ``add sub mul div neg``);
* **formulas**: :class:`Truth`, :class:`Atom`, :class:`Eq`, :class:`Compare` (``< <= > >=``
  over numbers, dates or strings), :class:`Not`, :class:`And`, :class:`Or`, :class:`Implies`,
  :class:`Iff`, :class:`Exists`, :class:`Forall`.

The SPARQL front end (``parsers.sparql``) and the MRS front end (``parsers.mrs``) produce these
objects; the prover (``verifier.prover``) consumes them; axiom templates are written in the
textual notation of :mod:`verifier.notation` (``exists v. wdt:P2067(wd:Q2270, v)``), which
:func:`to_text` prints (``str(f)``).  Normal forms (alpha-renaming, conjunct order) are in
:mod:`verifier.normal_form`.

Everything here is a pure function over frozen dataclasses: no global state.
"""

from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Callable, Iterable, Iterator, Mapping, Sequence, Union

from verifier.identity import Same, per_pair

__all__ = [
    "Term", "Var", "IRI", "Literal", "Func",
    "Formula", "Truth", "TRUE", "FALSE", "Atom", "Eq", "Compare", "Not", "And", "Or",
    "Implies", "Iff", "Exists", "Forall", "COMPARISON_OPS", "ARITHMETIC_FUNCS", "STRING_FUNCS",
    "is_stringy", "conj", "disj", "neg", "exists", "forall", "implies",
    "free_vars", "term_vars", "substitute", "substitute_term",
    "fresh_var", "atoms", "predicates", "constants", "walk", "map_atoms", "rename_predicates",
    "subformulas", "iter_terms", "XSD", "to_text", "term_to_text",
]

XSD = "xsd:"
_NUMERIC_TYPES = frozenset(
    XSD + t
    for t in (
        "integer", "decimal", "double", "float", "int", "long", "short", "byte",
        "nonNegativeInteger", "positiveInteger", "negativeInteger", "nonPositiveInteger",
        "unsignedInt", "unsignedLong", "unsignedShort", "unsignedByte",
    )
)
_DATE_TYPES = frozenset(XSD + t for t in ("date", "dateTime", "gYear", "gYearMonth", "dateTimeStamp"))
_STRING_TYPES = frozenset((XSD + "string", "rdf:langString"))

#: Comparison operators of :class:`Compare` (``=`` is :class:`Eq`, ``!=`` is ``Not(Eq)``).
COMPARISON_OPS = ("<", "<=", ">", ">=")
#: Function names the prover interprets as arithmetic over numbers.
ARITHMETIC_FUNCS = frozenset({"add", "sub", "mul", "div", "neg"})
#: Function names whose value is a string: a comparison with one of them compares strings.
STRING_FUNCS = frozenset({"str", "lcase", "ucase", "concat", "substr", "strbefore", "strafter",
                          "replace", "lang", "encode_for_uri", "strlang", "group_concat"})


# --------------------------------------------------------------------------------------------
# Terms
# --------------------------------------------------------------------------------------------


class Term:
    """Base class of terms."""

    __slots__ = ()

    def __str__(self) -> str:
        return term_to_text(self)


@dataclass(frozen=True, slots=True)
class Var(Term):
    """A variable, e.g. ``x5`` (MRS) or ``obj`` (SPARQL ``?obj``)."""

    name: str


@dataclass(frozen=True, slots=True)
class IRI(Term):
    """A KG constant, stored compacted (``wd:Q2270``) or as ``<http://...>`` when no known
    prefix applies.  Values starting with ``$`` are template placeholders."""

    value: str

    def __str__(self) -> str:
        return self.value

    @property
    def is_placeholder(self) -> bool:
        return self.value.startswith("$")


_DATE_RE = re.compile(
    r"^(-?\d{1,9})(?:-(\d{1,2})(?:-(\d{1,2}))?)?(?:T(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?"
)


@dataclass(frozen=True, slots=True)
class Literal(Term):
    """An RDF literal.  ``datatype`` is a compact name such as ``xsd:decimal`` (``None`` for a
    plain string); ``lang`` a language tag (then ``datatype`` is ``None``)."""

    lexical: str
    datatype: str | None = None
    lang: str | None = None


    # Value semantics (used by the prover and by perturbation code) ---------------------

    @property
    def kind(self) -> str:
        """``"number"``, ``"date"``, ``"string"``, ``"boolean"`` or ``"other"``."""
        dt = self.datatype
        if dt is None or dt in _STRING_TYPES:
            return "string"
        if dt in _NUMERIC_TYPES:
            return "number"
        if dt in _DATE_TYPES:
            return "date"
        if dt == XSD + "boolean":
            return "boolean"
        return "other"

    @property
    def numeric_value(self) -> Decimal | None:
        """The number denoted, for numeric literals (``None`` otherwise or when malformed)."""
        if self.kind != "number":
            return None
        try:
            return Decimal(self.lexical.strip())
        except (InvalidOperation, ValueError):
            return None

    @property
    def date_value(self) -> Decimal | None:
        """Dates as a number that preserves order: days since 0001-01-01 plus day fraction.

        Works for ``xsd:date``, ``xsd:dateTime``, ``xsd:gYear`` and ``gYearMonth``; missing
        month/day count as the first.  Malformed lexical forms (Wikidata has ``2009-0-0``)
        are read leniently: a zero month or day counts as 1.
        """
        if self.kind != "date":
            return None
        return parse_date_number(self.lexical)

    @property
    def value_key(self) -> tuple:
        """What the literal denotes, as a hashable key: ``("num", value)`` for numbers
        (``1.0`` and ``1`` are one value), ``("date", value)`` for dates, otherwise
        ``("lit", lexical, datatype, lang)``.  Literals with equal keys are the same value
        (the prover and the chase identify constants by it)."""
        kind = self.kind
        if kind == "number" and self.numeric_value is not None:
            return ("num", self.numeric_value.normalize())
        if kind == "date" and self.date_value is not None:
            return ("date", self.date_value)
        return ("lit", self.lexical, self.datatype, self.lang)


def parse_date_number(text: str) -> Decimal | None:
    """Map an ISO-like date string to an order-preserving number (see ``Literal.date_value``)."""
    m = _DATE_RE.match(text.strip())
    if not m:
        return None
    year = int(m.group(1))
    month = max(1, min(12, int(m.group(2) or 1)))
    day = max(1, int(m.group(3) or 1))
    hour, minute, sec = int(m.group(4) or 0), int(m.group(5) or 0), int(m.group(6) or 0)
    if 1 <= year <= 9999:
        try:
            days = _dt.date(year, month, min(day, 28 if month == 2 else 30 if month in (4, 6, 9, 11) else 31)).toordinal()
        except ValueError:
            days = year * 366 + month * 31 + day
    else:  # proleptic years outside datetime's range: monotone approximation
        days = int(year * 365.2425 + (month - 1) * 30.44 + day)
    frac = Decimal(hour * 3600 + minute * 60 + sec) / Decimal(86400)
    return Decimal(days) + frac


@dataclass(frozen=True, slots=True)
class Func(Term):
    """A function term ``name(args)``: an uninterpreted-but-consistent function (``year``,
    ``lcase``, ``str`` ...) or arithmetic (``add sub mul div neg``, see ``ARITHMETIC_FUNCS``)."""

    name: str
    args: tuple[Term, ...]


def is_stringy(t: "Term") -> bool:
    """Whether a :class:`Compare` with ``t`` on one side compares strings (a string literal or
    a string function), not numbers or dates."""
    if isinstance(t, Literal):
        return t.kind == "string"
    if isinstance(t, Func):
        return t.name in STRING_FUNCS
    return False


# --------------------------------------------------------------------------------------------
# Formulas
# --------------------------------------------------------------------------------------------


class Formula:
    """Base class of formulas.  ``str(f)`` gives the notation of :mod:`verifier.notation`."""

    __slots__ = ()

    def __str__(self) -> str:
        return to_text(self)

    def __and__(self, other: "Formula") -> "Formula":
        return conj(self, other)

    def __or__(self, other: "Formula") -> "Formula":
        return disj(self, other)

    def __invert__(self) -> "Formula":
        return neg(self)


@dataclass(frozen=True, slots=True)
class Truth(Formula):
    """``true`` or ``false``."""

    value: bool


TRUE = Truth(True)
FALSE = Truth(False)


@dataclass(frozen=True, slots=True)
class Atom(Formula):
    """``pred(args)``: a KG property (``wdt:P2067``), ``rdf:type``, a closure of a property
    (``wdt:P279+`` / ``wdt:P279*``), or a question predicate (``_mass_n_of``, ``named``)."""

    pred: str
    args: tuple[Term, ...]


@dataclass(frozen=True, slots=True)
class Eq(Formula):
    """``left = right`` (term identity; for literals, value equality is decided by the prover)."""

    left: Term
    right: Term


@dataclass(frozen=True, slots=True)
class Compare(Formula):
    """``left op right`` with ``op`` in ``< <= > >=``, over numbers and dates, or strings when
    one side is a string literal or a string function."""

    op: str
    left: Term
    right: Term

    def __post_init__(self) -> None:
        if self.op not in COMPARISON_OPS:
            raise ValueError(f"unknown comparison operator {self.op!r}")


@dataclass(frozen=True, slots=True)
class Not(Formula):
    """``~arg``."""

    arg: Formula


@dataclass(frozen=True, slots=True)
class And(Formula):
    """``a & b & ...`` (two operands or more; use :func:`conj` to build)."""

    args: tuple[Formula, ...]

    def __post_init__(self) -> None:
        if len(self.args) < 2:
            raise ValueError("And needs at least two operands; use conj()")


@dataclass(frozen=True, slots=True)
class Or(Formula):
    """``a | b | ...`` (two operands or more; use :func:`disj` to build)."""

    args: tuple[Formula, ...]

    def __post_init__(self) -> None:
        if len(self.args) < 2:
            raise ValueError("Or needs at least two operands; use disj()")


@dataclass(frozen=True, slots=True)
class Implies(Formula):
    """``left -> right``."""

    left: Formula
    right: Formula


@dataclass(frozen=True, slots=True)
class Iff(Formula):
    """``left <-> right``."""

    left: Formula
    right: Formula


@dataclass(frozen=True, slots=True)
class Exists(Formula):
    """``exists v1 v2. body``."""

    vars: tuple[Var, ...]
    body: Formula

    def __post_init__(self) -> None:
        if not self.vars:
            raise ValueError("a quantifier needs at least one variable; use exists()")


@dataclass(frozen=True, slots=True)
class Forall(Formula):
    """``forall v1 v2. body``."""

    vars: tuple[Var, ...]
    body: Formula

    def __post_init__(self) -> None:
        if not self.vars:
            raise ValueError("a quantifier needs at least one variable; use forall()")


Quantified = Union[Exists, Forall]

# --------------------------------------------------------------------------------------------
# Smart constructors
# --------------------------------------------------------------------------------------------


def conj(*parts: Formula | Iterable[Formula]) -> Formula:
    """Conjunction that flattens nested ``And``, drops ``true`` and short-cuts ``false``.

    Accepts formulas or iterables of formulas; ``conj()`` is ``TRUE``.
    """
    out: list[Formula] = []
    for p in _flatten_args(parts):
        if isinstance(p, And):
            out.extend(p.args)
        elif isinstance(p, Truth):
            if not p.value:
                return FALSE
        else:
            out.append(p)
    if not out:
        return TRUE
    if len(out) == 1:
        return out[0]
    return And(tuple(out))


def disj(*parts: Formula | Iterable[Formula]) -> Formula:
    """Disjunction that flattens nested ``Or``, drops ``false`` and short-cuts ``true``."""
    out: list[Formula] = []
    for p in _flatten_args(parts):
        if isinstance(p, Or):
            out.extend(p.args)
        elif isinstance(p, Truth):
            if p.value:
                return TRUE
        else:
            out.append(p)
    if not out:
        return FALSE
    if len(out) == 1:
        return out[0]
    return Or(tuple(out))


def _flatten_args(parts: Sequence) -> Iterator[Formula]:
    for p in parts:
        if isinstance(p, Formula):
            yield p
        else:
            yield from p


def neg(f: Formula) -> Formula:
    """Negation that removes double negation and negates truth values."""
    if isinstance(f, Not):
        return f.arg
    if isinstance(f, Truth):
        return FALSE if f.value else TRUE
    return Not(f)


def implies(a: Formula, b: Formula) -> Formula:
    """``a -> b`` with the obvious simplifications for ``true``/``false``."""
    if isinstance(a, Truth):
        return b if a.value else TRUE
    if isinstance(b, Truth) and b.value:
        return TRUE
    return Implies(a, b)


def exists(vars: Iterable[Var], body: Formula) -> Formula:
    """``exists vars. body`` keeping only variables free in ``body`` (in the given order)."""
    fv = free_vars(body)
    vs = _dedupe(v for v in vars if v in fv)
    if not vs:
        return body
    if isinstance(body, Exists):  # merge nested existentials
        return Exists(vs + tuple(v for v in body.vars if v not in vs), body.body)
    return Exists(vs, body)


def forall(vars: Iterable[Var], body: Formula) -> Formula:
    """``forall vars. body`` keeping only variables free in ``body``."""
    fv = free_vars(body)
    vs = _dedupe(v for v in vars if v in fv)
    if not vs:
        return body
    if isinstance(body, Forall):
        return Forall(vs + tuple(v for v in body.vars if v not in vs), body.body)
    return Forall(vs, body)


def _dedupe(vs: Iterable[Var]) -> tuple[Var, ...]:
    seen: dict[Var, None] = {}
    for v in vs:
        seen.setdefault(v, None)
    return tuple(seen)


# --------------------------------------------------------------------------------------------
# Traversal
# --------------------------------------------------------------------------------------------


def term_vars(t: Term) -> frozenset[Var]:
    """Variables occurring in a term."""
    if isinstance(t, Var):
        return frozenset((t,))
    if isinstance(t, Func):
        out: set[Var] = set()
        for a in t.args:
            out |= term_vars(a)
        return frozenset(out)
    return frozenset()


def free_vars(f: Formula | Term) -> frozenset[Var]:
    """Free variables of a formula (or the variables of a term).  A compound formula's are
    remembered per formula object (the same premises are asked again and again)."""
    if isinstance(f, Term):
        return term_vars(f)
    if isinstance(f, (Atom, Eq, Compare, Truth)):
        out: set[Var] = set()
        _free(f, frozenset(), out)
        return frozenset(out)
    return _free_of(Same(f))


@per_pair(maxsize=32768)
def _free_of(key: Same) -> frozenset[Var]:
    out: set[Var] = set()
    _free(key.obj, frozenset(), out)
    return frozenset(out)


def _free(f: Formula, bound: frozenset[Var], out: set[Var]) -> None:
    if isinstance(f, Atom):
        for a in f.args:
            if isinstance(a, Var):
                if a not in bound:
                    out.add(a)
            elif isinstance(a, Func):
                out.update(v for v in term_vars(a) if v not in bound)
    elif isinstance(f, (Eq, Compare)):
        for t in (f.left, f.right):
            out.update(v for v in term_vars(t) if v not in bound)
    elif isinstance(f, (And, Or)):
        for a in f.args:
            _free(a, bound, out)
    elif isinstance(f, Not):
        _free(f.arg, bound, out)
    elif isinstance(f, (Implies, Iff)):
        _free(f.left, bound, out)
        _free(f.right, bound, out)
    elif isinstance(f, (Exists, Forall)):
        _free(f.body, bound | frozenset(f.vars), out)


def subformulas(f: Formula) -> Iterator[Formula]:
    """All subformulas, pre-order, including ``f`` itself."""
    stack = [f]
    while stack:
        g = stack.pop()
        yield g
        if isinstance(g, (And, Or)):
            stack.extend(reversed(g.args))
        elif isinstance(g, Not):
            stack.append(g.arg)
        elif isinstance(g, (Implies, Iff)):
            stack.append(g.right)
            stack.append(g.left)
        elif isinstance(g, (Exists, Forall)):
            stack.append(g.body)


walk = subformulas


def iter_terms(f: Formula | Term, *, deep: bool = True) -> Iterator[Term]:
    """Every term of a formula (arguments of atoms, sides of equalities and comparisons) in
    printing order; with ``deep``, the arguments of function terms too (after the term)."""
    if isinstance(f, Term):
        yield f
        if deep and isinstance(f, Func):
            for a in f.args:
                yield from iter_terms(a, deep=deep)
        return
    for g in subformulas(f):
        if isinstance(g, Atom):
            for a in g.args:
                yield from iter_terms(a, deep=deep)
        elif isinstance(g, (Eq, Compare)):
            yield from iter_terms(g.left, deep=deep)
            yield from iter_terms(g.right, deep=deep)


def atoms(f: Formula) -> Iterator[Atom]:
    """All atoms of ``f`` in pre-order."""
    return (g for g in subformulas(f) if isinstance(g, Atom))


def predicates(f: Formula) -> frozenset[str]:
    """Predicate symbols used in ``f``."""
    return frozenset(a.pred for a in atoms(f))


def _term_constants(t: Term, out: set[Term]) -> None:
    if isinstance(t, (IRI, Literal)):
        out.add(t)
    elif isinstance(t, Func):
        for a in t.args:
            _term_constants(a, out)


def constants(f: Formula) -> frozenset[Term]:
    """IRIs and literals occurring in ``f`` (not predicate names)."""
    out: set[Term] = set()
    for g in subformulas(f):
        if isinstance(g, Atom):
            for a in g.args:
                _term_constants(a, out)
        elif isinstance(g, (Eq, Compare)):
            _term_constants(g.left, out)
            _term_constants(g.right, out)
    return frozenset(out)


def map_atoms(f: Formula, fn: Callable[[Atom], Formula]) -> Formula:
    """Rebuild ``f`` replacing every atom ``a`` by ``fn(a)`` (no variable capture checks)."""
    if isinstance(f, Atom):
        return fn(f)
    if isinstance(f, And):
        return conj(map_atoms(a, fn) for a in f.args)
    if isinstance(f, Or):
        return disj(map_atoms(a, fn) for a in f.args)
    if isinstance(f, Not):
        return neg(map_atoms(f.arg, fn))
    if isinstance(f, Implies):
        return Implies(map_atoms(f.left, fn), map_atoms(f.right, fn))
    if isinstance(f, Iff):
        return Iff(map_atoms(f.left, fn), map_atoms(f.right, fn))
    if isinstance(f, Exists):
        return exists(f.vars, map_atoms(f.body, fn))
    if isinstance(f, Forall):
        return forall(f.vars, map_atoms(f.body, fn))
    return f


def rename_predicates(f: Formula, mapping: Mapping[str, str]) -> Formula:
    """Rename predicate symbols (e.g. instantiate ``$prop`` placeholders)."""
    return map_atoms(f, lambda a: Atom(mapping.get(a.pred, a.pred), a.args))


# --------------------------------------------------------------------------------------------
# Substitution and alpha-renaming
# --------------------------------------------------------------------------------------------


def fresh_var(base: str, avoid: frozenset[Var] | set[Var]) -> Var:
    """A variable named after ``base`` that is not in ``avoid``."""
    stem = base.rstrip("0123456789_") or "v"
    i = 1
    names = {v.name for v in avoid}
    while True:
        cand = f"{stem}_{i}"
        if cand not in names:
            return Var(cand)
        i += 1


def substitute_term(t: Term, mapping: Mapping[Var, Term]) -> Term:
    """Replace variables in a term."""
    if isinstance(t, Var):
        return mapping.get(t, t)
    if isinstance(t, Func):
        return Func(t.name, tuple(substitute_term(a, mapping) for a in t.args))
    return t


def substitute(f: Formula, mapping: Mapping[Var, Term]) -> Formula:
    """Capture-avoiding substitution of free variables.

    Bound variables that would capture a variable of a replacement term are renamed.
    """
    if not mapping:
        return f
    if isinstance(f, Atom):
        return Atom(f.pred, tuple(substitute_term(a, mapping) for a in f.args))
    if isinstance(f, Eq):
        return Eq(substitute_term(f.left, mapping), substitute_term(f.right, mapping))
    if isinstance(f, Compare):
        return Compare(f.op, substitute_term(f.left, mapping), substitute_term(f.right, mapping))
    if isinstance(f, Truth):
        return f
    if isinstance(f, And):
        return And(tuple(substitute(a, mapping) for a in f.args))
    if isinstance(f, Or):
        return Or(tuple(substitute(a, mapping) for a in f.args))
    if isinstance(f, Not):
        return Not(substitute(f.arg, mapping))
    if isinstance(f, Implies):
        return Implies(substitute(f.left, mapping), substitute(f.right, mapping))
    if isinstance(f, Iff):
        return Iff(substitute(f.left, mapping), substitute(f.right, mapping))
    if isinstance(f, (Exists, Forall)):
        inner = {k: v for k, v in mapping.items() if k not in f.vars}
        if not inner:
            return f
        body_fv = free_vars(f.body)
        inner = {k: v for k, v in inner.items() if k in body_fv}
        if not inner:
            return f
        incoming: set[Var] = set()
        for t in inner.values():
            incoming |= term_vars(t)
        clash = [v for v in f.vars if v in incoming]
        new_vars = list(f.vars)
        if clash:
            avoid = set(body_fv) | incoming | set(f.vars)
            for i, v in enumerate(f.vars):
                if v in incoming:
                    nv = fresh_var(v.name, avoid)
                    avoid.add(nv)
                    new_vars[i] = nv
                    inner[v] = nv
        body = substitute(f.body, inner)
        return type(f)(tuple(new_vars), body)
    raise TypeError(f"not a formula: {f!r}")


_KEYWORDS = frozenset({"exists", "forall", "true", "false"})
_SYMBOL_RE = re.compile(r"[A-Za-z_$][A-Za-z0-9_$/+*\-]*(?:[.:][A-Za-z0-9_$/+*\-]+)*:?")
_PLAIN_VAR_RE = re.compile(r"[A-Za-z0-9_]+")
_INT_RE = re.compile(r"[+-]?\d+")
_DEC_RE = re.compile(r"[+-]?(?:\d+\.\d*|\.\d+)")
_DBL_RE = re.compile(r"[+-]?(?:\d+\.\d*|\.\d+|\d+)[eE][+-]?\d+")


# --------------------------------------------------------------------------------------------
# Printer: the text notation of verifier.notation (``str(f)``)
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
