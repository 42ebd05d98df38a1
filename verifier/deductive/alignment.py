"""Alignment of the question's answer variables with the query's columns, and the aligned ``G``."""

from __future__ import annotations

import itertools
from typing import Collection, Sequence

from verifier.logic import (
    Atom, Exists, Forall, Formula, Implies, Term, Var, atoms, conj, exists, free_vars, substitute, subformulas,
)
from parsers.mrs import predicate_info
from verifier.query import Query
from verifier.filters import label_vars
from verifier.deductive.reading import ReadingView, conjuncts, identified_with, open_vars

__all__ = [
    "SUPERLATIVE_VALUE", "alignment_of", "other_alignments", "alignment_claim", "expand_coordinated_answer",
    "aligned_pattern",
]


#: The predicate by which the lexicon's graded-adjective templates say which value a
#: superlative grades ("the highest mountain": some elevation v of it, ``superl_value(v)``);
#: a query's ORDER BY key left unaligned must be such a value.
SUPERLATIVE_VALUE = "superl_value"


def alignment_of(reading, query: Query, order: Sequence[int] | None = None, *,
               order_key: bool = True) -> tuple[dict[Var, Term], list[Var]]:
    """Substitution mapping the query's key variables to the reading's, and the query key
    variables left unaligned (to be existentially closed).  ``order`` permutes the query's
    answer variables (a question does not fix the order of the query's columns).  A
    superlative's ORDER BY key is aligned with the noun the superlative grades ("the lowest
    boiling point"); with ``order_key=False`` it is left unaligned, for a superlative that grades
    a thing through one of its properties ("the highest mountain": some elevation of it, which
    :func:`aligned_pattern` asks to be a :data:`SUPERLATIVE_VALUE`)."""
    intent = reading.intent
    mapping: dict[Var, Term] = {}
    t_answers = list(reading.answer_vars)
    if query.form == "ask":
        return {}, []
    q_answers = list(query.answer_vars)
    if order is not None:
        q_answers = [q_answers[i] for i in order]
    if query.is_count:
        agg = query.projection[0].aggregate
        target = intent.var if intent.kind == "count" and intent.var is not None else (t_answers[0] if t_answers else None)
        if agg is not None and isinstance(agg.arg, Var) and target is not None:
            mapping[agg.arg] = target
    else:
        for qv, tv in zip(q_answers, t_answers):
            mapping[qv] = tv
        if order_key and query.order_by and intent.kind == "superlative" and intent.var is not None:
            key = query.order_by[0].expr
            if isinstance(key, Var) and key not in mapping:
                mapping[key] = _compound_head(reading.formula, intent.var)
    unaligned = [v for v in query.key_vars if v not in mapping]
    return mapping, unaligned


#: At most this many nouns of a reading are tried as the first column's (one proof each).
_MAX_COLUMN_NOUNS = 4


def _column_alignments(reading, query: Query):
    """Other alignments of the query's answer columns, tried when the first does not prove
    the query: (reading or a view of it, column order) pairs.  A question does not fix the
    order of the query's columns: with several answers ("Where was X born, and where did he
    die?") any order (up to three columns); with one answer and two columns besides name
    columns (``rdfs:label``), the answer may be the second when the first is something else
    the question names ("the capitals of all countries in Africa" answered with each country
    and its capital): that noun's variable, opened, is aligned with the first.  A name column
    never answers alone."""
    cols = len(query.answer_vars)
    if query.form != "select" or cols < 2 or not reading.answer_vars:
        return
    n_ans = min(cols, len(reading.answer_vars))
    if n_ans > 1:
        if cols > 3:
            return
        tried = {tuple(range(n_ans))}
        for order in itertools.permutations(range(cols)):
            if order[:n_ans] not in tried:
                tried.add(order[:n_ans])
                yield reading, order
        return
    labels = label_vars([a for part in (query.pattern, *query.optional_parts) for a in atoms(part)])
    plain = [i for i, v in enumerate(query.answer_vars) if v not in labels]
    if len(plain) != 2 or query.is_count or not isinstance(reading.formula, Exists):
        return
    order = (plain[1], plain[0]) + tuple(i for i in range(cols) if i not in plain)
    answer = reading.answer_vars[0]
    nouns = {a.args[0] for a in atoms(reading.formula)
             if a.args and isinstance(a.args[0], Var) and a.args[0].name.startswith("x")
             and (info := predicate_info(a.pred)).pos == "n" and not info.is_abstract}
    for v in [v for v in reading.formula.vars if v in nouns and v != answer][:_MAX_COLUMN_NOUNS]:
        t, opened = open_vars(reading.formula, {v})
        if opened:
            view = ReadingView.of(reading, t, getattr(reading, "not_alignable", set()),
                                  answer_vars=(answer, v))
            yield view, order


def other_alignments(reading, query: Query):
    """Alignments tried when the first does not prove the query: (reading or view, column
    order or None, whether a superlative's ORDER BY key is aligned) triples; the column orders
    of :func:`_column_alignments`, then the ORDER BY key left unaligned."""
    for view, order in _column_alignments(reading, query):
        yield view, order, True
    if query.order_by and reading.intent.kind == "superlative" and reading.intent.var is not None:
        yield reading, None, False


def alignment_claim(view, g2: Formula, t_formula: Formula, free_elsewhere: Collection[Var],
                    same: bool) -> Formula | None:
    """What an alignment's proof claims of the reading's own premises (``t_formula`` the
    reading's ``T(question)``, ``free_elsewhere`` the free variables of the other premises):
    ``G`` itself when the alignment keeps the reading (``same``); for a view that opens some
    of the reading's nouns (free in its formula, bound in the reading's), ``forall opened.
    view -> G``: a model of the premises where that is false, with the opened nouns assigned,
    is a model of the view's premises where ``G`` is false.  ``None`` when an opened variable
    is free in another premise (the two problems would not share the model)."""
    if same:
        return g2
    opened = free_vars(view.formula) - free_vars(t_formula)
    if any(v in free_elsewhere for v in opened):
        return None
    body = Implies(view.formula, g2)
    return Forall(tuple(sorted(opened, key=lambda v: v.name)), body) if opened else body


def _compound_head(f: Formula, v: Var) -> Var:
    """The head noun of a compound when ``v`` is its modifier ("the lowest boiling point":
    the superlative grades "boiling" but the value is the point)."""
    for a in atoms(f):
        if a.pred == "compound" and len(a.args) == 3 and a.args[2] == v and isinstance(a.args[1], Var)\
                and a.args[1].name.startswith("x"):
            return a.args[1]
    return v


def expand_coordinated_answer(reading, query: Query):
    """When the query has more answer columns than the reading and the reading's answer is a
    coordination ``_and_c(x, a, b)``, answer with the conjuncts instead."""
    if len(query.answer_vars) <= len(reading.answer_vars) or len(reading.answer_vars) != 1:
        return reading
    same = identified_with(conjuncts(reading.formula), reading.answer_vars[0])
    for a in atoms(reading.formula):
        if a.pred == "_and_c" and len(a.args) == 3 and a.args[0] in same\
                and all(isinstance(t, Var) and t.name.startswith("x") for t in a.args[1:]):
            parts = tuple(a.args[1:])
            t, _ = open_vars(reading.formula, set(parts))
            if not set(parts) <= free_vars(t):
                return reading
            view = ReadingView.of(reading, t, set(), answer_vars=parts)
            return view
    return reading


def _with_asked_optionals(g: Formula, query: Query, mapping: dict[Var, Term]) -> Formula:
    """``g`` with the ``OPTIONAL`` groups that bind an answer column the question asks for
    (an aligned answer variable that ``g`` does not bind): "Get the country and the number of
    deaths" answered by ``OPTIONAL { wd:Q84104992 wdt:P1120 ?deaths }`` must say the number of
    deaths.  Columns beyond the question's answers stay extra information."""
    unbound = [v for v in query.answer_vars if v in mapping and v not in free_vars(g)]
    parts = [p for p in query.optional_parts if free_vars(p) & set(unbound)]
    if not parts:
        return g
    keep = free_vars(g) | set(query.key_vars)
    return conj(g, *[exists(sorted(free_vars(p) - keep, key=lambda v: v.name), p) for p in parts])


def aligned_pattern(reading, query: Query, pattern: Formula | None = None,
                     order: Sequence[int] | None = None, *, order_key: bool = True) -> Formula:
    """``G``: the query's pattern (or ``pattern``) with its key variables aligned with the
    reading's (:func:`alignment_of`) and the rest existentially closed."""
    mapping, unaligned = alignment_of(reading, query, order, order_key=order_key)
    blocked = getattr(reading, "not_alignable", set())
    if blocked:  # bound deep inside the reading: leave those query variables unaligned
        for k in [k for k, v in mapping.items() if v in blocked]:
            del mapping[k]
            unaligned.append(k)
    g = query.pattern if pattern is None else pattern
    g = _with_asked_optionals(g, query, mapping)
    if not order_key and query.order_by and isinstance(key := query.order_by[0].expr, Var) and key in free_vars(g):
        # the key is the value the superlative grades: only its axioms state superl_value
        g = conj(g, Atom(SUPERLATIVE_VALUE, (key,)))
    # move the query's own variables out of the way of the reading's names
    t_vars = {v.name for v in free_vars(reading.formula)} | {v.name for f in subformulas(reading.formula)
                                                             if isinstance(f, (Exists, Forall)) for v in f.vars}
    rename = {v: Var(f"q_{v.name}") for v in free_vars(g) if v not in mapping and v.name in t_vars}
    g = substitute(g, rename)
    unaligned = [rename.get(v, v) for v in unaligned]
    g = substitute(g, mapping)
    return exists([v for v in unaligned if v in free_vars(g)], g)
