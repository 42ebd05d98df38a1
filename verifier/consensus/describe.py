"""What a cluster of candidate queries says, and how two clusters differ, in words.

:class:`ClusterSummary` keeps what the words need from a cluster's representative query (its
KG identifiers in order of appearance, its shape, its solution modifiers), so that the
sentences can be written long after the queries are gone (an audit writes them from the
store).  :func:`difference` compares two clusters::

    2 of 9 candidates use P570 (date of death) where 6 use P509 (cause of death)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from verifier.logic import IRI, Atom, Compare, Eq, Literal, subformulas
from verifier.namespaces import wikidata_id
from verifier.query import Query

__all__ = ["ClusterSummary", "summarise", "unparsed_summary", "difference", "label_lookup",
           "symbol_text"]

#: predicates that carry no KG meaning of their own (labels, the variable-predicate atom)
_STRUCTURAL = ("rdfs:label", "skos:altLabel", "schema:name", "triple")
_SHAPES = {"ask": "a yes/no answer", "count": "a count", "superlative": "the top of an ordering",
           "aggregate": "an aggregate", "select": "a list of answers", "unparsed": "no parsable query"}
#: at most this many identifiers named per side of a difference
_MAX_NAMED = 3


@dataclass(frozen=True)
class ClusterSummary:
    """A cluster's representative (candidate index), the identifiers of its WHERE clause
    (Wikidata ids such as ``P570``, other IRIs and literals as written), its shape (``ask``,
    ``count``, ``superlative``, ``aggregate``, ``select`` or ``unparsed``) and its solution
    modifiers in words (``LIMIT 1``, ``ORDER BY DESC``, ``DISTINCT`` ...)."""

    representative: int
    symbols: tuple[str, ...] = ()
    shape: str = "unparsed"
    modifiers: tuple[str, ...] = ()
    answers: int = 0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"representative": self.representative, "symbols": list(self.symbols),
                "shape": self.shape, "modifiers": list(self.modifiers), "answers": self.answers}

    @staticmethod
    def from_dict(d: Mapping[str, Any]) -> "ClusterSummary":
        """Inverse of :meth:`to_dict`."""
        return ClusterSummary(int(d["representative"]), tuple(d.get("symbols") or ()),
                              str(d.get("shape") or "unparsed"), tuple(d.get("modifiers") or ()),
                              int(d.get("answers") or 0))


def symbol_text(value: str) -> str:
    """How an identifier is shown: the Wikidata id (``P570``) or the IRI / literal as written."""
    base = value.rstrip("*+")
    return wikidata_id(base) or base


def _symbols(q: Query) -> tuple[str, ...]:
    out: dict[str, None] = {}

    def term(t: Any) -> None:
        if isinstance(t, IRI):
            out.setdefault(symbol_text(t.value), None)
        elif isinstance(t, Literal):
            out.setdefault(str(t), None)

    formulas = [q.pattern] + ([q.having] if q.having is not None else [])
    for f in formulas:
        for g in subformulas(f):
            if isinstance(g, Atom):
                if g.pred not in _STRUCTURAL and not g.pred.startswith("_"):
                    out.setdefault(symbol_text(g.pred), None)
                for a in g.args:
                    term(a)
            elif isinstance(g, (Eq, Compare)):
                term(g.left)
                term(g.right)
    return tuple(out)


def _modifiers(q: Query) -> tuple[str, ...]:
    out = []
    if q.distinct:
        out.append("DISTINCT")
    for p in q.projection:
        if p.aggregate is not None:
            out.append(p.aggregate.func.upper() + ("(DISTINCT)" if p.aggregate.distinct else ""))
    if q.group_by:
        out.append("GROUP BY")
    if q.having is not None:
        out.append("HAVING")
    for o in q.order_by:
        out.append("ORDER BY " + ("DESC" if o.descending else "ASC"))
    if q.limit is not None:
        out.append(f"LIMIT {q.limit}")
    if q.offset:
        out.append(f"OFFSET {q.offset}")
    return tuple(out)


def summarise(index: int, query: Query) -> ClusterSummary:
    """The summary of a cluster whose representative is candidate ``index``."""
    return ClusterSummary(index, _symbols(query), query.shape, _modifiers(query), len(query.answer_vars))


def unparsed_summary(index: int) -> ClusterSummary:
    """The summary of an unparsable candidate's own cluster."""
    return ClusterSummary(index)


def label_lookup(labels: Any) -> Callable[[str], str | None]:
    """A function ``id -> label or None`` from a :class:`verifier.lexical.LabelIndex`, a
    mapping of ids to labels, a function, or ``None``."""
    if labels is None:
        return lambda _id: None
    if callable(labels) and not isinstance(labels, Mapping):
        return labels
    table = getattr(labels, "labels", labels)
    return lambda _id: table.get(_id) if isinstance(_id, str) else None


def _named(symbols: Sequence[str], label: Callable[[str], str | None]) -> str:
    parts = []
    for s in symbols[:_MAX_NAMED]:
        name = label(s)
        parts.append(f"{s} ({name})" if name and name != s else s)
    if len(symbols) > _MAX_NAMED:
        parts.append(f"{len(symbols) - _MAX_NAMED} more")
    if len(parts) == 1:
        return parts[0]
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def _verb(n: int, plural: str, singular: str) -> str:
    return singular if n == 1 else plural


def difference(own: ClusterSummary, own_size: int, other: ClusterSummary | None, other_size: int,
               n: int, labels: Any = None) -> str:
    """How the cluster ``own`` (``own_size`` of ``n`` candidates) differs from ``other`` (the
    largest other cluster, ``None`` when there is none), in one sentence without a full stop."""
    label = label_lookup(labels)
    if other is None:
        if own.shape == "unparsed":
            return "the only candidate does not parse"
        return f"all {n} candidates are equivalent" if n > 1 else "there is only one candidate"
    head = f"{own_size} of {n} candidates"
    use, uses = _verb(own_size, "use", "uses"), _verb(other_size, "use", "uses")
    others = f"{other_size} other{'s' if other_size != 1 else ''}"
    if own.shape == "unparsed" or other.shape == "unparsed":
        if own.shape == other.shape:
            return f"{head} {_verb(own_size, 'do', 'does')} not parse, nor {_verb(other_size, 'do', 'does')} {others}"
        if own.shape == "unparsed":
            return f"{head} {_verb(own_size, 'do', 'does')} not parse, where {other_size} parse alike"
        return f"{head} parse alike, where {other_size} {_verb(other_size, 'do', 'does')} not parse"
    only_own = [s for s in own.symbols if s not in other.symbols]
    only_other = [s for s in other.symbols if s not in own.symbols]
    if only_own and only_other:
        return f"{head} {use} {_named(only_own, label)} where {other_size} {uses} {_named(only_other, label)}"
    if only_own:
        return f"{head} also {use} {_named(only_own, label)}, which {others} {_verb(other_size, 'do', 'does')} not"
    if only_other:
        return f"{head} {_verb(own_size, 'leave', 'leaves')} out {_named(only_other, label)}, which {others} {uses}"
    if own.shape != other.shape:
        return (f"{head} {_verb(own_size, 'ask', 'asks')} for {_SHAPES.get(own.shape, own.shape)} "
                f"where {other_size} {_verb(other_size, 'ask', 'asks')} for {_SHAPES.get(other.shape, other.shape)}")
    if own.answers != other.answers:
        return (f"{head} {_verb(own_size, 'return', 'returns')} {own.answers} column(s) where "
                f"{other_size} {_verb(other_size, 'return', 'returns')} {other.answers}")
    if own.modifiers != other.modifiers:
        mo = ", ".join(own.modifiers) or "no solution modifier"
        mt = ", ".join(other.modifiers) or "none"
        return f"{head} {use} {mo} where {other_size} {uses} {mt}"
    return (f"{head} {use} the same identifiers as {others} but {_verb(own_size, 'relate', 'relates')} "
            "them differently (direction, joins or filters)")
