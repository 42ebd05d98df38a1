"""The query side of a pair, prepared once (not per reading): its statements normalised, its
lexical filters taken out, its reification axioms and definitions as premises.

Stage: first of the pipeline (imports no other stage).  Hands on a frozen
:class:`PreparedQuery`."""

from __future__ import annotations

from dataclasses import dataclass

from verifier.filters import take_lexical_filters
from verifier.grounding import Axiom
from verifier.logic import Formula, atoms
from verifier.prover import Premise
from verifier.qualifiers import Qualifier, normalize_statements, reification_axioms
from verifier.query import Query

__all__ = ["PreparedQuery", "prepare_query"]


@dataclass(frozen=True)
class PreparedQuery:
    """A query as every reading of a question checks it."""

    query: Query
    #: the pattern with its statements normalised (:func:`verifier.qualifiers.normalize_statements`)
    #: and the lexical filters the question explains taken out
    #: (:func:`verifier.filters.take_lexical_filters`); compared values are taken per reading
    pattern: Formula
    qualifiers: tuple[Qualifier, ...]
    #: what taking the lexical filters said
    filter_notes: tuple[str, ...]
    #: the axioms of the query's statement reification (:func:`verifier.qualifiers.reification_axioms`)
    reification: tuple[Axiom, ...]
    #: the query's definitions (``query definition i``) as premises
    definitions: tuple[Premise, ...]
    #: the predicates of the query's pattern
    predicates: frozenset[str]


def prepare_query(query: Query, question: str) -> PreparedQuery:
    """Prepare ``query`` once for the readings of ``question``."""
    pattern, qualifiers = normalize_statements(query.pattern)
    pattern, filter_notes = take_lexical_filters(pattern, question)
    return PreparedQuery(
        query=query, pattern=pattern, qualifiers=tuple(qualifiers), filter_notes=tuple(filter_notes),
        reification=tuple(reification_axioms(query)),
        definitions=tuple(Premise(f"query definition {i}", f) for i, f in enumerate(query.axioms)),
        predicates=frozenset(a.pred for a in atoms(query.pattern)),
    )
