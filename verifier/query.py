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

__all__ = ["Query", "Aggregate", "Projection", "OrderKey", "QueryForm"]

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
