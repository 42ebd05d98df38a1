"""SPARQL front end: text -> syntax tree (Lark, ``grammar/sparql.lark``) -> :class:`Query`.

>>> from parsers.sparql import parse_query
>>> q = parse_query("SELECT ?v WHERE { wd:Q2270 wdt:P2067 ?v . }")
>>> str(q.pattern), q.answer_vars
('wdt:P2067(wd:Q2270, v)', (Var(name='v'),))

Two steps, each testable on its own:

1. :func:`parse_tree` parses with Lark (LALR, contextual lexer) and builds a light syntax
   tree of tagged tuples while parsing (see ``AST`` below); it raises
   :class:`SparqlSyntaxError` with line, column, expected tokens and a caret snippet.
2. :func:`parsers.sparql_translate.translate` turns the tree into a :class:`Query`
   (logic formula plus solution modifiers); constructs outside the documented semantics
   raise :class:`UnsupportedFeature` naming the construct.

:func:`parse_query` does both.  No Lark or other Python exception escapes it: every failure
is one of the two documented errors (both subclasses of :class:`SparqlError`).

AST (tagged tuples, chosen over dataclasses because this is the hot path)::

    term      Var | Literal | ("iri", token) | ("bnode", label|None) | ("nil",)
              | ("bnpl", [(verb, [node...])...]) | ("coll", [node...])
    path      ("iri", token) | ("a",) | ("seq", [p...]) | ("alt", [p...]) | ("inv", p)
              | ("opt"|"star"|"plus", p) | ("nps", [(iri_or_a, inverse: bool)...]) | Var
    group     ("group", [element...]) | ("subselect", select)
    element   ("triples", [(subject, [(verb, [object...])...])...]) | ("union", [group...])
              | ("optional", group) | ("minus", group) | ("graph", term, group)
              | ("service", silent, term, group) | ("filter", expr) | ("bind", expr, Var)
              | ("values", [Var...], [[value|None...]...]) | ("group", [...]) | ("subselect", ...)
    expr      term | ("or", a, b) | ("and", a, b) | ("rel", op, a, b) | ("in", a, [e...])
              | ("notin", a, [e...]) | ("add"|"sub"|"mul"|"div", a, b) | ("not", a)
              | ("neg", a) | ("call", NAME, [e...]) | ("exists", group) | ("notexists", group)
              | ("func", iri, [e...], distinct) | ("agg", name, distinct, e|"*", separator)
    select    ("select", form, modifier|None, [Var | ("as", expr, Var)...] | "*",
               where_group, modifiers, values|None, {"%name": subselect})
    element   ... | ("include", "%name")   (Blazegraph named subqueries, as on WDQS)
"""

from __future__ import annotations

import logging
import re
from functools import lru_cache
from typing import Any

from lark import Lark, Transformer, v_args
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from verifier.logic import Literal, Var
from verifier.query import Query
from verifier.resources import grammar_text

from parsers.sparql_errors import SparqlError, SparqlSyntaxError, TranslationError, UnsupportedFeature
from parsers.sparql_lexer import SparqlLexer
from parsers.sparql_translate import translate

__all__ = [
    "parse_query", "parse_tree", "SparqlError", "SparqlSyntaxError", "UnsupportedFeature",
    "TranslationError", "MAX_QUERY_CHARS", "UNSUPPORTED_CONSTRUCTS", "warm_up",
]

log = logging.getLogger(__name__)

#: Longest query text accepted (characters); longer input raises UnsupportedFeature.
MAX_QUERY_CHARS = 200_000

#: Constructs refused with :class:`UnsupportedFeature` (also listed in the README).
UNSUPPORTED_CONSTRUCTS = (
    "CONSTRUCT / DESCRIBE queries",
    "SPARQL Update (INSERT, DELETE, LOAD, CLEAR, CREATE, DROP, COPY, MOVE, ADD, WITH)",
    "SERVICE other than the wikibase:label service",
    "GRAPH patterns (named graphs)",
    "boolean-valued expressions used as values (e.g. BIND(?a > 1 AS ?b), IF(...))",
    "queries longer than MAX_QUERY_CHARS or nested too deeply",
)


# --------------------------------------------------------------------------------------------
# Tree building while parsing
# --------------------------------------------------------------------------------------------

_ESCAPES = {"t": "\t", "n": "\n", "r": "\r", "b": "\b", "f": "\f", '"': '"', "'": "'", "\\": "\\"}
_ESC_RE = re.compile(r"\\(?:u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|(.))")


def _unescape(s: str) -> str:
    if "\\" not in s:
        return s

    def rep(m: re.Match) -> str:
        if m.group(1) or m.group(2):
            try:
                return chr(int(m.group(1) or m.group(2), 16))
            except ValueError:
                return m.group(0)
        return _ESCAPES.get(m.group(3), m.group(3))

    return _ESC_RE.sub(rep, s)


def _number(tok: str) -> Literal:
    t = tok.type  # type: ignore[attr-defined]
    if t == "INTEGER":
        return Literal(str(tok), "xsd:integer")
    if t == "DECIMAL":
        return Literal(str(tok), "xsd:decimal")
    return Literal(str(tok), "xsd:double")


_TRUE = Literal("true", "xsd:boolean")
_FALSE = Literal("false", "xsd:boolean")
_NIL = ("nil",)
_A = ("a",)


@v_args(inline=True)
class _TreeBuilder(Transformer):
    """Callbacks run by the LALR parser on each reduction; they build the tagged tuples."""

    # -- query level
    def start(self, prologue, form, values=None):
        return (prologue, form, values)

    def prologue(self, *decls):
        return decls

    def base_decl(self, iri):
        return ("base", iri)

    def prefix_decl(self, ns, iri):
        return ("prefix", ns, iri)

    def unsupported_form(self, kw, rest=None):
        return ("unsupported", str(kw).upper())

    def select_query(self, sel, *rest):
        return ("select", "select", sel[0], sel[1], rest[-2], rest[-1], None, _named(rest))

    def subselect(self, sel, where, mods, values):
        return ("subselect", ("select", "select", sel[0], sel[1], where, mods, values, {}))

    def ask_query(self, *rest):
        return ("select", "ask", None, [], rest[-2], rest[-1], None, _named(rest))

    def named_subquery(self, sub, name):
        return ("named", str(name), sub)

    def include(self, name):
        return ("include", str(name))

    def select_clause(self, mod, *items):
        if len(items) == 1 and getattr(items[0], "type", None) == "STAR":
            return (str(mod).lower() if mod else None, "*")
        return (str(mod).lower() if mod else None, list(items))

    def select_item(self, var):
        return var

    def select_expr(self, expr, var):
        return ("as", expr, var)

    def dataset_clause(self, *args):
        return ("from",)

    def where_clause(self, *args):
        return args[-1]

    def solution_modifier(self, group, having, order, lo):
        limit = offset = None
        if lo:
            for kind, n in lo:
                if kind == "limit":
                    limit = n
                else:
                    offset = n
        return (group or (), having or (), order or (), limit, offset)

    def group_clause(self, *conds):
        return list(conds)

    def group_as(self, expr, var):
        return ("as", expr, var)

    def having_clause(self, *cs):
        return list(cs)

    def order_clause(self, *cs):
        return list(cs)

    def order_condition(self, a, b=None):
        if b is None:
            return (False, a)
        return (str(a).upper() == "DESC", b)

    def limit_offset(self, a, b):
        return [x for x in (a, b) if x is not None]

    def limit(self, tok):
        return ("limit", int(tok))

    def offset(self, tok):
        return ("offset", int(tok))

    def values_clause(self, block):
        return block

    # -- graph patterns
    def group_subselect(self, sub):
        return sub

    def group(self, tb, *tails):
        out = [tb] if tb is not None else []
        for nt, tb2 in tails:
            out.append(nt)
            if tb2 is not None:
                out.append(tb2)
        return ("group", out)

    def group_tail(self, nt, tb=None):
        return (nt, tb)

    def triples_block(self, *ts):
        return ("triples", [t for t in ts if t is not None])

    def group_or_union(self, *groups):
        if len(groups) == 1:
            return groups[0]
        return ("union", list(groups))

    def optional(self, g):
        return ("optional", g)

    def minus(self, g):
        return ("minus", g)

    def graph(self, t, g):
        return ("graph", t, g)

    def service(self, silent, t, g):
        return ("service", silent is not None, t, g)

    def filter(self, c):
        return ("filter", c)

    def bind(self, e, v):
        return ("bind", e, v)

    def inline_data(self, block):
        return block

    def values_one(self, var, *vals):
        return ("values", [var], [[None if v is _UNDEF else v] for v in vals])

    def values_many(self, *args):
        vs = [a for a in args if isinstance(a, Var)]
        rows = [a for a in args if not isinstance(a, Var)]
        return ("values", vs, rows)

    def values_none(self, nil, *rows):
        return ("values", [], list(rows))

    def data_row(self, *vals):
        return [None if v is _UNDEF else v for v in vals]

    def data_row_empty(self, nil):
        return []

    def undef(self):
        return _UNDEF

    # -- triples
    def triples_same_subject_path(self, subj, pl):
        return (subj, pl or [])

    def property_list_path(self, *vols):
        return [v for v in vols if v is not None]

    def verb_object_list(self, verb, objs):
        return (verb, objs)

    def object_list(self, *nodes):
        return list(nodes)

    def blank_node_property_list(self, pl):
        return ("bnpl", pl)

    def collection(self, *nodes):
        return ("coll", list(nodes))

    def path_ops(self, *items):
        # items: unit, op, unit, op, ...; "/" binds tighter than "|"
        alts, seq = [], [items[0]]
        for i in range(1, len(items), 2):
            if items[i] == "/":
                seq.append(items[i + 1])
            else:
                alts.append(seq[0] if len(seq) == 1 else ("seq", seq))
                seq = [items[i + 1]]
        alts.append(seq[0] if len(seq) == 1 else ("seq", seq))
        return alts[0] if len(alts) == 1 else ("alt", alts)

    def path_mod(self, p, tok):
        return (_PATH_MODS[tok], p)

    def path_inv(self, p):
        return ("inv", p)

    def path_inv_mod(self, p, tok):
        return ("inv", (_PATH_MODS[tok], p))

    def rdf_type(self):
        return _A

    def path_not(self, x):
        if x[0] == "nps":
            return x
        return ("nps", [_one_in_set(x)])

    def path_neg_set(self, *items):
        return ("nps", [_one_in_set(i) for i in items if i is not None])

    def path_inv_one(self, iri=None):
        return (iri if iri is not None else _A, True)

    def nil(self, tok):
        return _NIL

    # -- expressions
    def op_sequence(self, first, *items):
        # items: (BINOP, operand) | (IN, list) | (NOT, IN, list); precedence climbing
        ops: list = []
        i = 0
        while i < len(items):
            t = items[i]
            if t.type == "NOT":
                ops.append(("notin", items[i + 2]))
                i += 3
            elif t.type == "IN":
                ops.append(("in", items[i + 1]))
                i += 2
            else:
                ops.append((str(t), items[i + 1]))
                i += 2
        return _climb(first, ops)

    def expression_list(self, *es):
        return [e for e in es if getattr(e, "type", None) != "NIL"]

    def add(self, a, b):
        return ("add", a, b)

    def sub(self, a, b):
        return ("sub", a, b)

    def mul(self, a, star, b):
        return ("mul", a, b)

    def div(self, a, b):
        return ("div", a, b)

    def not_expr(self, a):
        return ("not", a)

    def neg(self, a):
        return ("neg", a)

    def builtin_call(self, name, *args):
        return ("call", str(name).upper(), [a for a in args if a is not None and getattr(a, "type", None) != "NIL"])

    def exists_expr(self, g):
        return ("exists", g)

    def not_exists_expr(self, not_tok, g):
        return ("notexists", g)

    def iri_or_function(self, iri, args):
        if args is None:
            return iri
        return ("func", iri, args[1], args[0])

    def arg_list(self, *xs):
        if len(xs) == 1 and getattr(xs[0], "type", None) == "NIL":
            return (False, [])
        distinct = xs[0] is not None
        return (distinct, list(xs[1:]))

    def aggregate(self, name, distinct, expr, sep):
        if getattr(expr, "type", None) == "STAR":
            expr = "*"
        return ("agg", str(name).lower(), distinct is not None, expr, sep)

    # -- terms (VAR and IRI are terminals: these run when the token is shifted)
    def VAR(self, tok):
        return Var(tok[1:])

    def IRI(self, tok):
        return ("iri", tok)

    def rdf_literal(self, s, tag):
        if tag is None:
            return Literal(s)
        if getattr(tag, "type", None) == "LANGTAG":
            return Literal(s, None, tag[1:].lower())
        return ("typed", s, tag)

    def string(self, tok):
        t = tok.type
        raw = tok[3:-3] if t in ("STRING_LONG1", "STRING_LONG2") else tok[1:-1]
        return _unescape(raw)

    def number(self, tok):
        return _number(tok)

    def signed_number(self, n):
        return n

    def negative(self, n):
        return Literal("-" + n.lexical, n.datatype)

    def boolean(self, tok):
        return _TRUE if tok.type == "TRUE" else _FALSE

    def blank_node(self, tok):
        if tok.type == "ANON":
            return ("bnode", None)
        return ("bnode", str(tok)[2:])


_UNDEF = object()
_PATH_MODS = {"?": "opt", "*": "star", "+": "plus"}
# binding strength of binary operators (higher binds tighter); relational ones do not chain
_PREC = {"||": 1, "&&": 2, "=": 3, "!=": 3, "<": 3, ">": 3, "<=": 3, ">=": 3, "in": 3, "notin": 3,
         "+": 4, "-": 4, "*": 5, "/": 5}
_BIN = {"||": "or", "&&": "and", "+": "add", "-": "sub", "*": "mul", "/": "div"}


def _climb(first, ops: list) -> tuple:
    """Apply operator precedence to ``first op1 x1 op2 x2 ...`` (all left-associative)."""
    pos = 0

    def parse(lhs, min_prec: int):
        nonlocal pos
        while pos < len(ops) and _PREC[ops[pos][0]] >= min_prec:
            op, rhs = ops[pos]
            pos += 1
            prec = _PREC[op]
            if op in ("in", "notin"):
                lhs = (op, lhs, rhs)
                continue
            while pos < len(ops) and _PREC[ops[pos][0]] > prec:
                rhs = parse(rhs, prec + 1)
            if op in _BIN:
                lhs = (_BIN[op], lhs, rhs)
            else:
                lhs = ("rel", op, lhs, rhs)
        return lhs

    return parse(first, 0)


def _named(parts: tuple) -> dict:
    """Named subqueries (``WITH { ... } AS %name``) among the parts of a query form."""
    return {p[1]: p[2] for p in parts if isinstance(p, tuple) and p and p[0] == "named"}


def _one_in_set(x: tuple) -> tuple:
    """Normalise a member of a negated property set to ``(iri_or_a, inverse)``."""
    if len(x) == 2 and x[1] is True:
        return x
    return (x, False)


@lru_cache(maxsize=None)
def _parser() -> Lark:
    return Lark(grammar_text("sparql.lark"), parser="lalr", lexer=SparqlLexer, transformer=_TreeBuilder(),
                maybe_placeholders=True, propagate_positions=False)


class _LalrDriver:
    """Runs Lark's LALR(1) table for ``grammar/sparql.lark`` with a tight loop.

    Everything comes from Lark (the parse table, the tree-building callbacks with their
    ``?rule`` inlining and token filtering, the lexer configuration and the error types); only
    the loop is ours, without the per-token method calls and assertions of Lark's generic
    driver.  :func:`_parser` remains available and :func:`parse_tree` falls back to it if
    Lark's internals are not as expected.
    """

    class _View:
        """What the lexer reads of the parser state."""

        __slots__ = ("state_stack", "parse_conf")

        @property
        def position(self):
            return self.state_stack[-1]

    def __init__(self, lark: Lark) -> None:
        from lark.parsers.lalr_analysis import Shift

        inner = lark.parser.parser.parser
        table = inner.parse_table
        callbacks = inner.callbacks
        self.start = table.start_states["start"]
        self.end = table.end_states["start"]
        self.lark_states = table.states
        self.actions: dict = {}
        for st, acts in table.states.items():
            d = {}
            for sym, (action, arg) in acts.items():
                # plain str keys: Lark's terminal names can be Token objects, whose __eq__ is slow
                if action is Shift:
                    d[str(sym)] = (True, arg)
                else:
                    d[str(sym)] = (False, (len(arg.expansion), str(arg.origin.name), callbacks[arg]))
            self.actions[st] = d
        self.term_callbacks = {str(k): v for k, v in callbacks.items() if isinstance(k, str)}
        self.lexer = lark.parser.lexer
        self.parse_conf = inner.parse_table

        class _Conf:
            states = table.states

        self._conf = _Conf

    def parse(self, text: str):
        from lark.exceptions import UnexpectedToken

        actions, term_cbs = self.actions, self.term_callbacks
        stack = [self.start]
        values: list = []
        view = self._View()
        view.state_stack = stack
        view.parse_conf = self._conf
        end = self.end
        for tok in _with_end(self.lexer.tokens(text, view), len(text)):
            ttype = tok.type
            while True:
                act = actions[stack[-1]].get(ttype)
                if act is None:
                    expected = {s for s in self.lark_states[stack[-1]] if s.isupper()}
                    raise UnexpectedToken(tok, expected)
                if act[0]:
                    if ttype == "$END":  # pragma: no cover - $END is never shifted
                        raise UnexpectedToken(tok, set())
                    stack.append(act[1])
                    cb = term_cbs.get(ttype)
                    values.append(cb(tok) if cb is not None else tok)
                    break
                size, origin, cb = act[1]
                if size:
                    args = values[-size:]
                    del stack[-size:]
                    del values[-size:]
                else:
                    args = []
                values.append(cb(args))
                stack.append(actions[stack[-1]][origin][1])
                if ttype == "$END" and stack[-1] == end:
                    return values[-1]
        raise AssertionError("unreachable: the $END token ends the parse")  # pragma: no cover


def _with_end(tokens, length: int):
    """The tokens, then Lark's ``$END`` token (positioned after the last one)."""
    from lark.lexer import Token

    last = None
    for last in tokens:
        yield last
    yield Token("$END", "", length, getattr(last, "line", 1), getattr(last, "column", 1))


@lru_cache(maxsize=None)
def _driver() -> _LalrDriver | None:
    try:
        return _LalrDriver(_parser())
    except Exception:  # pragma: no cover - a Lark version with other internals
        log.warning("falling back to Lark's own LALR driver", exc_info=True)
        return None


def warm_up() -> None:
    """Build the SPARQL parser now (Lark's LALR tables for ``grammar/sparql.lark`` and the
    fast driver over them) rather than on the first query; a long-lived caller such as
    :class:`verifier.api.Verifier` calls it once at start-up.  Safe to call again (the
    parser is built once per process)."""
    _parser()
    _driver()


# --------------------------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------------------------

_TOKEN_NAMES = {
    "LBRACE": "'{'", "RBRACE": "'}'", "LPAR": "'('", "RPAR": "')'", "DOT": "'.'",
    "SEMICOLON": "';'", "COMMA": "','", "STAR": "'*'", "LSQB": "'['", "RSQB": "']'",
    "VBAR": "'|'", "SLASH": "'/'", "CIRCUMFLEX": "'^'", "BANG": "'!'", "PLUS": "'+'",
    "MINUS": "'-'", "PATH_OPT": "'?'", "REL_OP": "comparison operator", "VAR": "variable",
    "IRIREF": "IRI", "PNAME_LN": "prefixed name", "PNAME_NS": "prefix", "INTEGER": "number",
    "DECIMAL": "number", "DOUBLE": "number", "STRING1": "string", "STRING2": "string",
    "STRING_LONG1": "string", "STRING_LONG2": "string", "BUILTIN": "function",
    "AGGREGATE": "aggregate", "$END": "end of query", "NIL": "'()'", "ANON": "'[]'",
    "BLANK_NODE_LABEL": "blank node", "LANGTAG": "language tag", "TRUE": "true",
    "FALSE": "false", "ASC_DESC": "ASC/DESC", "SELECT_MOD": "DISTINCT/REDUCED",
    "DISTINCT": "DISTINCT", "SILENT": "SILENT", "UNSUPPORTED_FORM": "query form",
}


def _readable_expected(names: Any, parser: Lark) -> tuple[str, ...]:
    out: set[str] = set()
    for n in names or ():
        if n in _TOKEN_NAMES:
            out.add(_TOKEN_NAMES[n])
            continue
        try:
            pat = parser.get_terminal(n).pattern
        except KeyError:
            out.add(n)
            continue
        out.add(pat.value.upper() if pat.type == "str" and pat.value.isalpha() else repr(pat.value)
                if pat.type == "str" else n)
    return tuple(sorted(out))


def _snippet(text: str, line: int, column: int) -> str:
    lines = text.split("\n")
    if not 1 <= line <= len(lines):
        return ""
    src = lines[line - 1]
    start = 0
    if len(src) > 100:  # keep long one-line queries readable
        start = max(0, column - 60)
        src = ("..." if start else "") + src[start:start + 100] + ("..." if start + 100 < len(src) else "")
        column = column - start + (3 if start else 0)
    return f"  {src}\n  {' ' * max(0, column - 1)}^"


def _syntax_error(text: str, e: LarkError, parser: Lark) -> SparqlSyntaxError:
    if isinstance(e, UnexpectedInput):
        expected: tuple[str, ...] = ()
        if isinstance(e, UnexpectedCharacters):
            expected = _readable_expected(e.allowed, parser)
            line, col = e.line, e.column
            ch = text[e.pos_in_stream] if e.pos_in_stream is not None and e.pos_in_stream < len(text) else ""
            msg = f"unexpected character {ch!r}"
        elif isinstance(e, UnexpectedToken) and e.token.type != "$END":
            expected = _readable_expected(e.expected, parser)
            line, col = e.line, e.column
            tok = str(e.token)
            msg = f"unexpected {tok[:40]!r}"
        else:
            expected = _readable_expected(getattr(e, "expected", None), parser)
            lines = text.split("\n")
            line, col = len(lines), len(lines[-1]) + 1
            msg = "unexpected end of query"
        return SparqlSyntaxError(msg, line or 0, col or 0, expected, _snippet(text, line or 0, col or 0))
    return SparqlSyntaxError(f"invalid query: {type(e).__name__}")


# --------------------------------------------------------------------------------------------
# Public API
# --------------------------------------------------------------------------------------------


def parse_tree(text: str) -> tuple:
    """Parse SPARQL text into the tagged-tuple syntax tree ``(prologue, form, values)``.

    Raises :class:`SparqlSyntaxError` for malformed text and :class:`UnsupportedFeature` for
    CONSTRUCT / DESCRIBE / Update or over-long input.
    """
    if not isinstance(text, str):
        raise SparqlSyntaxError(f"a query must be a string, not {type(text).__name__}")
    if len(text) > MAX_QUERY_CHARS:
        raise UnsupportedFeature("queries longer than MAX_QUERY_CHARS", f"{len(text)} > {MAX_QUERY_CHARS} characters")
    parser = _parser()
    driver = _driver()
    try:
        tree = driver.parse(text) if driver is not None else parser.parse(text)
    except SparqlError:
        raise
    except LarkError as e:
        raise _syntax_error(text, e, parser) from None
    except RecursionError:
        raise UnsupportedFeature("queries nested too deeply") from None
    except Exception as e:  # a bug in a tree-building callback; never leak it
        log.exception("internal error parsing query: %s", text[:200])
        raise TranslationError("internal parser error", f"{type(e).__name__}: {e}") from None
    form = tree[1]
    if form[0] == "unsupported":
        kw = form[1]
        what = f"{kw} queries" if kw in ("CONSTRUCT", "DESCRIBE") else f"SPARQL Update ({kw})"
        raise UnsupportedFeature(what, "only SELECT and ASK queries can be verified")
    return tree


def parse_query(text: str) -> Query:
    """Parse and translate a SPARQL query into a :class:`~verifier.query.Query`.

    Raises :class:`SparqlSyntaxError` or :class:`UnsupportedFeature` (never another
    exception for string input).
    """
    tree = parse_tree(text)
    try:
        return translate(tree, text)
    except SparqlError:
        raise
    except RecursionError:
        raise UnsupportedFeature("queries nested too deeply") from None
    except Exception as e:  # a bug; never leak a raw exception to callers
        log.exception("internal error translating query: %s", text[:200])
        raise TranslationError("internal translation error", f"{type(e).__name__}: {e}") from None
