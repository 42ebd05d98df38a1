"""Translate the SPARQL syntax tree of :mod:`parsers.sparql` into a :class:`Query`.

The semantics (also in ``docs/sparql-semantics.md``):

* a basic graph pattern is the conjunction of ``pred(subject, object)`` atoms; ``a`` is
  ``rdf:type``; a variable in predicate position gives ``triple(s, p, o)`` (the prover links
  it to the binary atoms); blank nodes are existential variables;
* paths: ``p/q`` introduces a fresh existential middle variable; ``p|q`` is a disjunction;
  ``^p`` swaps the arguments; ``p?`` is ``s = o | p(s, o)``; ``p*`` and ``p+`` are the closure
  predicates ``p*`` / ``p+`` (the prover knows their axioms); the closure of a complex path
  names the path with a definition axiom (``Query.axioms``); ``!(p|^q)`` is
  ``exists r. triple(s, r, o) & r != p`` (and the inverse part);
* OPTIONAL adds no required constraint (but ``OPTIONAL {P} FILTER(!BOUND(?v))`` is
  ``~P``); UNION is a disjunction; MINUS and FILTER NOT EXISTS are negated existentials
  over the variables not shared with the rest of the query; FILTER EXISTS is an existential;
* FILTER comparisons are comparisons over numbers, dates and strings; ``&& || !`` are the
  connectives; ``IN`` a disjunction of equalities; string and date built-ins are
  uninterpreted but consistent functions (``lcase(x)``, ``year(x)``) or predicates
  (``contains(x, y)``, ``regex(x, y)``, ``langmatches(x, y)``, ``isiri(x)``);
* BIND is an equality, VALUES a disjunction of equalities (UNDEF constrains nothing);
* the wikibase:label service and label-only patterns (``?x rdfs:label ?l`` with ``?l`` used
  only in language filters or the projection) carry no meaning; such ``?l`` are
  ``Query.label_vars``;
* a subquery with a plain projection is inlined (its other variables renamed apart); one
  with aggregates or LIMIT/OFFSET becomes an opaque predicate named after a hash of its text,
  so identical subqueries compare equal;
* answer variables stay free; all other variables are existentially closed.

This module translates group graph patterns and SELECT / ASK queries; terms, triples and
paths are in :mod:`parsers.sparql_terms`, expressions in :mod:`parsers.sparql_expressions`,
label variables in :mod:`parsers.sparql_labels`.
"""

from __future__ import annotations

import hashlib
from typing import Any
from urllib.parse import urljoin

from verifier.logic import (
    FALSE, TRUE, And, Atom, Eq, Exists, Formula, Func, IRI, Or, Term, Var, conj, disj, exists,
    free_vars, neg, substitute, substitute_term,
)
from verifier.normal_form import order_normal_form
from verifier.query import Aggregate, OrderKey, Projection, Query

from parsers.sparql_errors import SparqlSyntaxError, UnsupportedFeature
from parsers.sparql_expressions import aggregate_expression, expression_formula, expression_term
from parsers.sparql_labels import LABEL_PREDICATES, find_label_vars, is_label_atom, is_label_filter, label_hint
from parsers.sparql_terms import TranslationContext, graph_node, graph_term, property_list

__all__ = ["translate", "LABEL_PREDICATES"]


# --------------------------------------------------------------------------------------------
# Graph patterns
# --------------------------------------------------------------------------------------------


class _Scope:
    """Translation of one group graph pattern (its in-scope variables and OPTIONAL parts)."""

    __slots__ = ("ctx", "bnodes", "outer_vars", "optionals", "visible", "required_vars", "side")

    def __init__(self, ctx: TranslationContext, outer_vars: frozenset[Var], bnodes: dict) -> None:
        self.ctx = ctx
        self.bnodes = bnodes
        self.outer_vars = outer_vars
        self.optionals: list[Formula] = []
        self.visible: dict[Var, None] = {}
        self.required_vars: set[Var] = set()
        self.side: list[Formula] = []

    def pop_side(self) -> list[Formula]:
        """Side conditions of fresh variables introduced by IF / conditions used as values."""
        out, self.side = self.side, []
        return out

    def bound(self, v: Var) -> Formula:
        if v in self.required_vars or v in self.outer_vars:
            return TRUE
        for opt in self.optionals:
            fv = free_vars(opt)
            if v in fv:
                keep = self.required_vars | self.outer_vars
                return exists(sorted(fv - keep, key=lambda x: x.name), opt)
        return FALSE  # a variable never bound is unbound

    def subpattern(self, group: Any) -> Formula:
        """EXISTS { group }: shared variables stay free, the others are closed here."""
        inner = _Scope(self.ctx, self.outer_vars | frozenset(self.required_vars) | frozenset(self.visible), self.bnodes)
        f = inner.group(group)
        shared = self.outer_vars | self.required_vars | set(self.visible)
        local = sorted(free_vars(f) - shared, key=lambda x: x.name)
        return exists(local, f)

    def group(self, g: Any) -> Formula:
        if g[0] == "subselect":
            return self._subselect(g[1])
        elements = g[1]
        parts: list[Formula] = []
        filters: list[Any] = []
        minuses: list[Any] = []
        for el in elements:
            tag = el[0]
            if tag == "triples":
                for subj, plist in el[1]:
                    out: list[Formula] = []
                    s = graph_node(self.ctx, subj, out, self.bnodes)
                    property_list(self.ctx, s, plist, out, self.bnodes)
                    for f in out:
                        if is_label_atom(f, self.ctx.label_vars):
                            continue
                        parts.append(f)
                        self._see(f)
            elif tag == "filter":
                filters.append(el[1])
            elif tag == "optional":
                inner = _Scope(self.ctx, self.outer_vars | frozenset(self.visible), self.bnodes)
                f = inner.group(el[1])
                self.optionals.append(f)
                for v in inner.visible:
                    self.visible.setdefault(v, None)
            elif tag == "minus":
                minuses.append(el[1])
            elif tag == "union":
                branches = []
                for br in el[1]:
                    inner = _Scope(self.ctx, self.outer_vars | frozenset(self.visible), self.bnodes)
                    branches.append(inner.group(br))
                    for v in inner.visible:
                        self.visible.setdefault(v, None)
                f = disj(branches)
                parts.append(f)
                self._see(f, required=False)
            elif tag in ("group", "subselect"):
                inner = _Scope(self.ctx, self.outer_vars | frozenset(self.visible), self.bnodes)
                f = inner.group(el)
                parts.append(f)
                for v in inner.visible:
                    self.visible.setdefault(v, None)
                self.required_vars |= inner.required_vars
            elif tag == "bind":
                t = expression_term(self.ctx, el[1], self)
                parts.extend(self.pop_side())
                parts.append(Eq(el[2], t))
                self.visible.setdefault(el[2], None)
                self.required_vars.add(el[2])
            elif tag == "values":
                f = _values(self.ctx, el, self.bnodes)
                parts.append(f)
                for v in el[1]:
                    self.visible.setdefault(v, None)
            elif tag == "service":
                _, silent, target, body = el
                t = graph_term(self.ctx, target, self.bnodes) if not isinstance(target, Var) else target
                if isinstance(t, IRI) and t.value == "wikibase:label":
                    self.ctx.label_service = True
                    continue
                raise UnsupportedFeature("SERVICE other than the wikibase:label service", str(t))
            elif tag == "include":
                sub = self.ctx.named.get(el[1])
                if sub is None:
                    raise SparqlSyntaxError(f"INCLUDE of an undefined named subquery {el[1]}")
                f = self._subselect(sub[1])
                parts.append(f)
            elif tag == "graph":
                raise UnsupportedFeature("GRAPH patterns (named graphs)")
            else:  # pragma: no cover - the tree builder produces nothing else
                raise UnsupportedFeature("pattern element", tag)
        for e in filters:
            if is_label_filter(e, self.ctx.label_vars):
                continue
            f = expression_formula(self.ctx, e, self)
            parts.extend(self.pop_side())
            parts.append(f)
        shared = self.outer_vars | self.required_vars | set(self.visible)
        for m in minuses:
            inner = _Scope(self.ctx, frozenset(), self.bnodes)
            f = inner.group(m)
            common = free_vars(f) & shared
            if not common:
                continue  # MINUS without shared variables removes nothing
            local = sorted(free_vars(f) - shared, key=lambda x: x.name)
            parts.append(neg(exists(local, f)))
        return conj(parts)

    def _see(self, f: Formula, required: bool = True) -> None:
        for v in _ordered_vars(f):
            self.visible.setdefault(v, None)
            if required:
                self.required_vars.add(v)

    def _subselect(self, sel: tuple) -> Formula:
        q = _translate_select(self.ctx, sel, self.outer_vars | frozenset(self.visible), self.bnodes, sub=True)
        projected = [p.var for p in q.projection] if q.projection else list(q.answer_vars)
        plain = all(p.aggregate is None and p.expr is None for p in q.projection)
        if plain and q.limit is None and q.offset is None and not q.group_by and not q.having:
            # inline: rename the inner variables that are not projected apart from ours
            f = q.pattern
            if isinstance(f, Formula):
                for v in projected:
                    self.visible.setdefault(v, None)
                    self.required_vars.add(v)
                return f
        digest = _subquery_digest(q, projected)
        for v in projected:
            self.visible.setdefault(v, None)
            self.required_vars.add(v)
        return Atom(f"_subquery_{digest}", tuple(projected))


def _subquery_digest(q: Query, projected: list[Var]) -> str:
    """A name for a subquery that the logic cannot express (aggregates, LIMIT ...) that
    depends on its meaning as written, not on variable names or triple order."""
    pos = {v: Var(f"_p{i}") for i, v in enumerate(projected)}
    keys = {v: Var(f"_k{i}") for i, v in enumerate(q.key_vars) if v not in pos}
    ren = {**keys, **pos}
    parts = [str(order_normal_form(substitute(q.pattern, ren)))]
    for o in q.order_by:
        e = o.expr
        e_txt = (f"{e.func}({substitute_term(e.arg, ren) if e.arg is not None else '*'})"
                 if isinstance(e, Aggregate) else str(substitute_term(e, ren)))
        parts.append(("desc " if o.descending else "asc ") + e_txt)
    for p in q.projection:
        if p.aggregate is not None:
            a = p.aggregate
            parts.append(f"{a.func} {a.distinct} {substitute_term(a.arg, ren) if a.arg is not None else '*'}")
    parts.append(f"{q.limit} {q.offset} {[str(substitute_term(g, ren)) for g in q.group_by]}")
    return hashlib.blake2s("|".join(parts).encode(), digest_size=5).hexdigest()


def _term_vars_ordered(t: Term) -> list[Var]:
    """Variables of a term, left to right (may repeat)."""
    if isinstance(t, Var):
        return [t]
    if isinstance(t, Func):
        return [v for a in t.args for v in _term_vars_ordered(a)]
    return []


def _ordered_vars(f: Formula) -> list[Var]:
    """Variables of the atoms of a conjunction/disjunction in order of appearance (others
    sorted by name); may repeat."""
    out: list[Var] = []
    if isinstance(f, Atom):
        for a in f.args:
            if isinstance(a, Var):
                out.append(a)
        return out
    if isinstance(f, (And, Or)):
        for a in f.args:
            out.extend(_ordered_vars(a))
        return out
    return sorted(free_vars(f), key=lambda v: v.name)


def _values(ctx: TranslationContext, el: tuple, bnodes: dict) -> Formula:
    _, vs, rows = el
    alts = []
    for row in rows:
        if len(row) != len(vs):
            raise SparqlSyntaxError(f"VALUES row has {len(row)} values for {len(vs)} variables")
        alts.append(conj(Eq(v, graph_term(ctx, x, bnodes)) for v, x in zip(vs, row) if x is not None))
    return disj(alts)


# --------------------------------------------------------------------------------------------
# SELECT / ASK
# --------------------------------------------------------------------------------------------


def _translate_select(ctx: TranslationContext, sel: tuple, outer: frozenset[Var], bnodes: dict, sub: bool) -> Query:
    _, form, modifier, items, where, mods, values, _named = sel
    group_by_raw, having_raw, order_raw, limit, offset = mods
    projected_plain = [it for it in items if isinstance(it, Var)] if items != "*" else []
    if not sub and label_hint(ctx.text):
        ctx.label_vars = find_label_vars(ctx, where, projected_plain, (group_by_raw, having_raw, order_raw))
        if projected_plain and all(v in ctx.label_vars for v in projected_plain):
            ctx.label_vars = frozenset()  # the labels are what the question asks for
    saved_aggs = ctx.aggregates
    ctx.aggregates = []
    scope = _Scope(ctx, frozenset() if not sub else frozenset(), bnodes if sub else {})
    body = scope.group(where)
    if values is not None:
        body = conj(body, _values(ctx, values, scope.bnodes))
        for v in values[1]:
            scope.visible.setdefault(v, None)

    # projection
    projection: list[Projection] = []
    if items == "*":
        for v in scope.visible:
            if not v.name.startswith("_"):
                projection.append(Projection(v))
    else:
        for it in items:
            if isinstance(it, Var):
                projection.append(Projection(it))
            else:
                _, expr, var = it
                if isinstance(expr, tuple) and expr and expr[0] == "agg":
                    projection.append(Projection(var, aggregate=aggregate_expression(ctx, expr, scope)))
                else:
                    projection.append(Projection(var, expr=expression_term(ctx, expr, scope)))

    # label service variables (?xLabel bound only by the service)
    label_vars = set(ctx.label_vars) if not sub else set()
    if ctx.label_service and not sub:
        bound_in_pattern = free_vars(body)
        for p in projection:
            n = p.var.name
            if p.aggregate is None and p.expr is None and p.var not in bound_in_pattern and (
                    n.endswith("Label") or n.endswith("Description") or n.endswith("AltLabel")):
                label_vars.add(p.var)

    group_by: list[Term] = []
    for g in group_by_raw:
        if isinstance(g, tuple) and g and g[0] == "as":
            t = expression_term(ctx, g[1], scope)
            body = conj(body, Eq(g[2], t))
            group_by.append(g[2])
        else:
            group_by.append(expression_term(ctx, g, scope))
    having = conj(expression_formula(ctx, h, scope) for h in having_raw) if having_raw else None
    order: list[OrderKey] = []
    aliases = {p.var: p.aggregate for p in projection if p.aggregate is not None}
    for desc, e in order_raw:
        if isinstance(e, tuple) and e and e[0] == "agg":
            order.append(OrderKey(aggregate_expression(ctx, e, scope), desc))
        elif isinstance(e, Var) and e in aliases:
            order.append(OrderKey(aliases[e], desc))  # ORDER BY ?n where ?n is COUNT(...)
        else:
            order.append(OrderKey(expression_term(ctx, e, scope), desc))

    answer_vars = [p.var for p in projection if p.aggregate is None and p.var not in label_vars]
    # variables of the solution modifiers in their syntactic order (not the pattern's, which
    # changes when triples are reordered): they follow the answer variables in key_vars
    modifier_vars: list[Var] = []
    for agg in ctx.aggregates:
        if agg.arg is not None:
            modifier_vars += _term_vars_ordered(agg.arg)
    for t in group_by:
        modifier_vars += _term_vars_ordered(t)
    for o in order:
        ex = o.expr
        if isinstance(ex, Aggregate):
            if ex.arg is not None:
                modifier_vars += _term_vars_ordered(ex.arg)
        else:
            modifier_vars += _term_vars_ordered(ex)
    if having is not None:
        modifier_vars += _ordered_vars(having)
    for p in projection:
        if p.expr is not None:
            modifier_vars += _term_vars_ordered(p.expr)
            # a projected expression (expr AS ?v) binds its variable
            body = conj(body, Eq(p.var, p.expr))
    side = scope.pop_side()
    if side:
        body = conj(body, *side)
    order_of_vars = _ordered_vars(body)
    in_scope = free_vars(body) | set(scope.visible)  # OPTIONAL binds too
    if any(v in in_scope for v in answer_vars):
        # a projected variable that nothing binds is always empty ("SELECT ?ming ?end WHERE
        # { wd:Q9903 wdt:P576 ?end }"): no answer; the bound columns are the answer
        answer_vars = [v for v in answer_vars if v in in_scope]
    key: dict[Var, None] = {}
    if form != "ask":
        key = {v: None for v in answer_vars}
        for v in modifier_vars:
            key.setdefault(v, None)
    fv = free_vars(body)
    closed = [v for v in dict.fromkeys(order_of_vars) if v not in key and v in fv]
    rest = fv - set(key) - set(closed)
    if rest:
        closed += sorted(rest, key=lambda v: v.name)
    pattern = Exists(tuple(closed), body) if closed else body
    aggs = tuple(ctx.aggregates)
    ctx.aggregates = saved_aggs
    return Query(
        form=form,
        pattern=pattern,
        projection=tuple(projection),
        answer_vars=tuple(answer_vars),
        key_vars=tuple(key),
        select_star=items == "*",
        aggregates=aggs,
        distinct=modifier == "distinct",
        reduced=modifier == "reduced",
        group_by=tuple(group_by),
        having=having,
        order_by=tuple(order),
        limit=limit,
        offset=offset,
        label_vars=tuple(sorted(label_vars, key=lambda v: v.name)),
        axioms=tuple(ctx.axioms),
        text=ctx.text if not sub else _digest_text(sel),
        optional_parts=tuple(scope.optionals),
    )


def _digest_text(sel: tuple) -> str:
    return repr(sel)


def translate(tree: tuple, text: str = "") -> Query:
    """Translate the tree of :func:`parsers.sparql.parse_tree` into a :class:`Query`."""
    prologue, form, values = tree
    ctx = TranslationContext(text)
    for decl in prologue:
        if decl[0] == "base":
            ctx.base = decl[1][1:-1]
        else:
            _, ns, iri = decl
            value = iri[1:-1]
            if ctx.base is not None:
                value = urljoin(ctx.base, value)
            ctx.prefixes[str(ns)[:-1]] = value
    if values is not None:
        form = form[:6] + (values,) + form[7:]
    ctx.named = form[7]
    return _translate_select(ctx, form, frozenset(), {}, sub=False)
