"""Expressions of the SPARQL syntax tree (FILTER, BIND, HAVING, projected and ordering
expressions) as logic terms and formulas; part of :mod:`parsers.sparql_translate`, which
documents the semantics.

An expression may contain a group graph pattern (``EXISTS { ... }``) and ask whether a
variable is bound, so the translation is given the scope it is in, an
:class:`ExpressionScope` (the graph-pattern translator of :mod:`parsers.sparql_translate`).
"""

from __future__ import annotations

from typing import Any, Protocol

from verifier.logic import FALSE, TRUE, Atom, Compare, Eq, Formula, Func, Literal, Not, Term, Var, conj, disj, neg
from verifier.query import Aggregate

from parsers.sparql_errors import SparqlSyntaxError, UnsupportedFeature
from parsers.sparql_terms import TranslationContext, graph_term, iri_term

__all__ = ["ExpressionScope", "expression_term", "expression_formula", "aggregate_expression"]

_BOOL_BUILTINS = {
    "CONTAINS": "contains", "STRSTARTS": "strstarts", "STRENDS": "strends", "REGEX": "regex",
    "LANGMATCHES": "langmatches", "ISIRI": "isiri", "ISURI": "isiri", "ISBLANK": "isblank",
    "ISLITERAL": "isliteral", "ISNUMERIC": "isnumeric",
}
_VALUE_BUILTIN_ALIASES = {"URI": "iri"}
_BOOLEAN_TAGS = frozenset({"or", "and", "not", "rel", "in", "notin", "exists", "notexists"})
_NUMERIC_TYPES = frozenset({"xsd:integer", "xsd:decimal", "xsd:double", "xsd:float"})
_TRUE = Literal("true", "xsd:boolean")
_FALSE = Literal("false", "xsd:boolean")


class ExpressionScope(Protocol):
    """What an expression needs of the group graph pattern it is in."""

    bnodes: dict
    #: side conditions of the fresh variables that stand for conditions used as values
    side: list[Formula]
    #: variables in scope, in order of appearance
    visible: dict[Var, None]

    def bound(self, v: Var) -> Formula:
        """When ``BOUND(v)`` holds."""

    def subpattern(self, group: Any) -> Formula:
        """The formula of ``EXISTS { group }`` (shared variables free)."""


def expression_term(ctx: TranslationContext, e: Any, scope: "ExpressionScope") -> Term:
    """An expression used as a value."""
    if isinstance(e, (Var, Literal)):
        return e
    tag = e[0]
    if tag in ("iri", "typed", "bnode", "nil"):
        return graph_term(ctx, e, scope.bnodes)
    if tag in ("add", "sub", "mul", "div"):
        return Func(tag, (expression_term(ctx, e[1], scope), expression_term(ctx, e[2], scope)))
    if tag == "neg":
        inner = expression_term(ctx, e[1], scope)
        if isinstance(inner, Literal) and inner.datatype in _NUMERIC_TYPES and not inner.lexical.startswith(("-", "+")):
            return Literal("-" + inner.lexical, inner.datatype)  # a negative number: -166
        return Func("neg", (inner,))
    if tag in _BOOLEAN_TAGS or (tag == "call" and (e[1] in _BOOL_BUILTINS or e[1] in ("BOUND", "SAMETERM"))):
        # a condition used as a value: a fresh variable equal to true or false
        cond = expression_formula(ctx, e, scope)
        t = ctx.fresh("v")
        scope.side.append(disj(conj(cond, Eq(t, _TRUE)), conj(neg(cond), Eq(t, _FALSE))))
        return t
    if tag == "call":
        name = e[1]
        if name == "IF":
            _arity(name, e[2], 3)
            cond = expression_formula(ctx, e[2][0], scope)
            a, b = expression_term(ctx, e[2][1], scope), expression_term(ctx, e[2][2], scope)
            t = ctx.fresh("v")
            scope.side.append(disj(conj(cond, Eq(t, a)), conj(neg(cond), Eq(t, b))))
            return t
        if name == "COALESCE":
            return Func("coalesce", tuple(expression_term(ctx, a, scope) for a in e[2]))
        fname = _VALUE_BUILTIN_ALIASES.get(name, name.lower())
        return Func(fname, tuple(expression_term(ctx, a, scope) for a in e[2]))
    if tag == "func":
        iri = iri_term(ctx, e[1]).value
        return Func(iri, tuple(expression_term(ctx, a, scope) for a in e[2]))
    if tag == "agg":
        agg = aggregate_expression(ctx, e, scope)
        args = () if agg.arg is None else (agg.arg,)
        return Func("agg_" + agg.func + ("_distinct" if agg.distinct else ""), args)
    raise UnsupportedFeature("expression", tag)


def aggregate_expression(ctx: TranslationContext, e: tuple, scope: "ExpressionScope") -> Aggregate:
    """The :class:`Aggregate` of an ``("agg", ...)`` node (recorded in ``ctx.aggregates``)."""
    _, name, distinct, arg, _sep = e
    a = None if arg == "*" else expression_term(ctx, arg, scope)
    if a is None and name == "count":
        # COUNT(*) over solutions of one variable counts that variable's values
        # ("SELECT (COUNT(*) AS ?n) WHERE { ?c wdt:P31 wd:Q6256 . ?c wdt:P30 wd:Q46 }")
        own = [v for v in scope.visible if not v.name.startswith("_") and v not in ctx.label_vars]
        if len(own) == 1:
            a = own[0]
    agg = Aggregate(name, a, distinct)
    ctx.aggregates.append(agg)
    return agg


def expression_formula(ctx: TranslationContext, e: Any, scope: "ExpressionScope") -> Formula:
    """An expression used as a condition (FILTER / HAVING)."""
    if isinstance(e, Literal):
        if e.datatype == "xsd:boolean":
            return TRUE if e.lexical == "true" else FALSE
        return Atom("ebv", (e,))
    if isinstance(e, Var):
        return Atom("ebv", (e,))
    tag = e[0]
    if tag == "or":
        return disj(expression_formula(ctx, e[1], scope), expression_formula(ctx, e[2], scope))
    if tag == "and":
        return conj(expression_formula(ctx, e[1], scope), expression_formula(ctx, e[2], scope))
    if tag == "not":
        return neg(expression_formula(ctx, e[1], scope))
    if tag == "rel":
        op = e[1]
        a, b = expression_term(ctx, e[2], scope), expression_term(ctx, e[3], scope)
        if op == "=":
            return Eq(a, b)
        if op == "!=":
            return Not(Eq(a, b))
        return Compare(op, a, b)
    if tag in ("in", "notin"):
        a = expression_term(ctx, e[1], scope)
        eqs = [Eq(a, expression_term(ctx, x, scope)) for x in e[2]]
        return disj(eqs) if tag == "in" else conj(Not(q) for q in eqs)
    if tag == "call":
        name, args = e[1], e[2]
        if name == "BOUND":
            if len(args) != 1 or not isinstance(args[0], Var):
                raise SparqlSyntaxError("BOUND takes one variable")
            return scope.bound(args[0])
        if name == "SAMETERM":
            _arity(name, args, 2)
            return Eq(expression_term(ctx, args[0], scope), expression_term(ctx, args[1], scope))
        if name in _BOOL_BUILTINS:
            return Atom(_BOOL_BUILTINS[name], tuple(expression_term(ctx, a, scope) for a in args))
        if name == "IF":
            _arity(name, args, 3)
            c = expression_formula(ctx, args[0], scope)
            return disj(conj(c, expression_formula(ctx, args[1], scope)),
                        conj(neg(c), expression_formula(ctx, args[2], scope)))
        return Atom("ebv", (expression_term(ctx, e, scope),))
    if tag == "exists":
        return scope.subpattern(e[1])
    if tag == "notexists":
        return neg(scope.subpattern(e[1]))
    return Atom("ebv", (expression_term(ctx, e, scope),))


def _arity(name: str, args: list, n: int) -> None:
    if len(args) != n:
        raise SparqlSyntaxError(f"{name} takes {n} arguments, got {len(args)}")
