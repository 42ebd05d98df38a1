"""The logical reading of a SPARQL query: :class:`Query`.

Produced by :func:`parsers.sparql.parse_query`; consumed by the prover
(:func:`verifier.prover.equivalent`), the deductive verifier and the benchmark builder.

``pattern`` is the WHERE clause as one formula ``G`` whose free variables are exactly
``key_vars``: the answer variables first (projection order), then the other variables the
solution modifiers talk about (aggregated, grouped, ordered by, used in HAVING).  All other
variables are existentially bound.  See ``docs/sparql-semantics.md`` for the translation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal as _Lit

from verifier.logic import Formula, Term, Var, free_vars

__all__ = ["Query", "Aggregate", "Projection", "OrderKey", "QueryForm", "normal_form"]

QueryForm = _Lit["select", "ask"]


@dataclass(frozen=True, slots=True)
class Aggregate:
    """``func(DISTINCT? arg)``: ``func`` is ``count sum avg min max sample group_concat``
    (lower case); ``arg`` is ``None`` for ``COUNT(*)``."""

    func: str
    arg: Term | None
    distinct: bool = False


@dataclass(frozen=True, slots=True)
class Projection:
    """One projected column: a plain variable, or ``(expr AS var)`` where ``expr`` is an
    aggregate or a term."""

    var: Var
    aggregate: Aggregate | None = None
    expr: Term | None = None


@dataclass(frozen=True, slots=True)
class OrderKey:
    """``ORDER BY ASC(expr)`` / ``DESC(expr)``."""

    expr: Term | Aggregate
    descending: bool = False


@dataclass(frozen=True)
class Query:
    """A SPARQL query as logic plus its solution modifiers.

    Attributes:
        form: ``"select"`` or ``"ask"``.
        projection: the projected columns (empty for ASK).
        answer_vars: variables of the plain (non-aggregate) projected columns that carry
            meaning, in order (label-service and ``rdfs:label``-only variables excluded).
        key_vars: free variables of ``pattern``: ``answer_vars`` then the variables used by
            aggregates, GROUP BY, ORDER BY and HAVING.
        pattern: the WHERE clause as one formula ``G``.
        aggregates: aggregates of the projection and of HAVING / ORDER BY.
        distinct / reduced: the SELECT modifiers.
        group_by, having, order_by, limit, offset: the solution modifiers.
        label_vars: projected variables that only hold labels (no meaning for verification).
        axioms: definitions the pattern relies on (e.g. of complex property-path closures),
            to be given to the prover as premises.
        select_star: the projection was ``SELECT *`` (its column order carries no meaning).
        text: the query text as given.
        optional_parts: the top-level ``OPTIONAL`` groups, translated (not part of ``pattern``,
            which they do not constrain; the deductive check reads the one that binds an
            answer column the question asks for).
    """

    form: QueryForm
    pattern: Formula
    projection: tuple[Projection, ...] = ()
    answer_vars: tuple[Var, ...] = ()
    key_vars: tuple[Var, ...] = ()
    aggregates: tuple[Aggregate, ...] = ()
    distinct: bool = False
    reduced: bool = False
    group_by: tuple[Term, ...] = ()
    having: Formula | None = None
    order_by: tuple[OrderKey, ...] = ()
    limit: int | None = None
    offset: int | None = None
    label_vars: tuple[Var, ...] = ()
    axioms: tuple[Formula, ...] = ()
    select_star: bool = False
    text: str = field(default="", compare=False, repr=False)
    optional_parts: tuple[Formula, ...] = field(default=(), compare=False, repr=False)

    @property
    def is_count(self) -> bool:
        """A query whose projection is a single COUNT."""
        return (len(self.projection) == 1 and self.projection[0].aggregate is not None
                and self.projection[0].aggregate.func == "count")

    @property
    def shape(self) -> str:
        """Coarse intent of the query: ``ask``, ``count``, ``superlative`` (ORDER BY with
        LIMIT), ``aggregate`` or ``select``."""
        if self.form == "ask":
            return "ask"
        if self.is_count:
            return "count"
        if self.order_by and self.limit is not None:
            return "superlative"
        if any(p.aggregate is not None for p in self.projection):
            return "aggregate"
        return "select"

    def check(self) -> None:
        """Assert the documented invariant (free variables of the pattern are ``key_vars``)."""
        fv = free_vars(self.pattern)
        if not fv <= set(self.key_vars):
            raise AssertionError(f"pattern has free variables {fv - set(self.key_vars)} not in key_vars")


def normal_form(q: Query) -> str:
    """A text that two queries share when they differ only in variable names, the order of
    their triples and filters, and how their WHERE clause is written (property lists,
    prefixes): the key of a query up to those changes, cheap to compute (no prover).

    The answer variables become ``_p0, _p1 ...`` in projection order, the other key variables
    ``_k0 ...``, aggregate aliases ``_a0 ...`` and label variables ``_l0 ...``; the pattern,
    HAVING, the axioms and the ``OPTIONAL`` groups are put in
    :func:`~verifier.normal_form.order_normal_form`; the form, projection, DISTINCT/REDUCED,
    GROUP BY, ORDER BY, LIMIT and OFFSET are written out.  Equal normal forms mean
    equivalent queries (:func:`verifier.prover.equivalent` would prove it); different ones
    may still be equivalent (``SELECT *`` column orders, redundant triples, ...)."""
    from verifier.logic import exists, substitute, substitute_term
    from verifier.normal_form import order_normal_form

    ren: dict[Var, Term] = {}
    for prefix, vs in (("_p", q.answer_vars), ("_k", q.key_vars),
                       ("_a", [p.var for p in q.projection]), ("_l", q.label_vars)):
        for v in vs:
            if v not in ren:
                ren[v] = Var(f"{prefix}{sum(1 for x in ren.values() if x.name.startswith(prefix))}")

    def term(t: Term | Aggregate | None) -> str:
        if t is None:
            return "*"
        if isinstance(t, Aggregate):
            return f"{t.func}({'distinct ' if t.distinct else ''}{term(t.arg)})"
        return str(substitute_term(t, ren))

    def formula(f: Formula) -> str:
        g = substitute(f, ren)
        return str(order_normal_form(exists(sorted(free_vars(g) - set(ren.values()), key=str), g)))

    proj = ", ".join(f"{term(p.var)}={term(p.aggregate) if p.aggregate else term(p.expr) if p.expr else ''}"
                     for p in q.projection)
    parts = [f"{q.form} {'distinct' if q.distinct else ''}{'reduced' if q.reduced else ''}",
             f"select {proj}{' *' if q.select_star else ''}",
             f"answers {len(q.answer_vars)} keys {len(q.key_vars)}",
             "where " + formula(q.pattern),
             "having " + (formula(q.having) if q.having is not None else ""),
             "group " + ", ".join(term(g) for g in q.group_by),
             "order " + ", ".join(("desc " if o.descending else "asc ") + term(o.expr) for o in q.order_by),
             f"slice {q.limit} {q.offset}",
             "axioms " + " ; ".join(sorted(formula(a) for a in q.axioms)),
             "optional " + " ; ".join(sorted(formula(o) for o in q.optional_parts))]
    return "\n".join(parts)
