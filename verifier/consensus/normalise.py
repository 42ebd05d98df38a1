"""Candidates parsed once and keyed by their normal form.

:func:`normalise` parses every candidate query of a question with
:func:`parsers.sparql.parse_query` and keys it by a digest of
:func:`verifier.query.normal_form`: queries that differ only in variable names, triple order
or how the WHERE clause is written share the key (string-normalised duplicates, found without
the prover).  A candidate that is not a string, is empty or does not parse keeps its error and
no key.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from typing import Any, Sequence

from verifier.query import Query, normal_form

__all__ = ["Candidate", "normalise", "parse_candidate", "normal_key"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Candidate:
    """One candidate query: its position among the candidates, its text, the parsed
    :class:`~verifier.query.Query` and its normal-form key (``None`` with ``error`` when it
    does not parse; ``syntax``: the error is a syntax error, not an unsupported construct or
    a missing query)."""

    index: int
    text: str | None
    query: Query | None = None
    key: str | None = None
    error: str | None = None
    syntax: bool = False

    @property
    def parsed(self) -> bool:
        """Whether the query parsed (and has a key)."""
        return self.key is not None


def normal_key(query: Query) -> str:
    """A short digest of :func:`verifier.query.normal_form` (the cache key of a query)."""
    return hashlib.blake2s(normal_form(query).encode(), digest_size=12).hexdigest()


def parse_candidate(index: int, text: Any) -> Candidate:
    """Parse one candidate; never raises (a bad query gets ``error``)."""
    from parsers.sparql import SparqlError, parse_query

    if not isinstance(text, str):
        return Candidate(index, None, error="no query" if text is None else "the query is not a string")
    if not text.strip():
        return Candidate(index, text, error="the query is empty")
    try:
        q = parse_query(text)
        return Candidate(index, text, q, normal_key(q))
    except SparqlError as e:
        return Candidate(index, text, error=str(e) or type(e).__name__,
                         syntax="syntax" in type(e).__name__.lower())
    except Exception as e:  # noqa: BLE001 - a crashing parser must not lose the other candidates
        log.warning("parsing candidate %d failed: %s: %s", index, type(e).__name__, e)
        return Candidate(index, text, error=f"internal error: {type(e).__name__}: {e}")


def normalise(sparqls: Sequence[Any]) -> tuple[Candidate, ...]:
    """Every candidate parsed once, in order (see the module documentation)."""
    return tuple(parse_candidate(i, s) for i, s in enumerate(sparqls))
