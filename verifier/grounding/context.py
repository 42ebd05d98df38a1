"""What one call of :meth:`verifier.grounding.Grounder.ground` knows about its reading and its
query, as one immutable value passed down to every step of that call.

A :class:`~verifier.grounding.Grounder` is shared (by the readings of a question, by the
pairs of an audit, by threads): it keeps only what its pack and its labels fix, and caches
that depend on nothing else.  Everything that depends on the reading or the query being
grounded lives in a :class:`GroundingContext`, made afresh by each call.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import AbstractSet, Iterable, Mapping

from verifier.logic import Literal, Term

__all__ = ["GroundingContext", "frozen_mapping"]

_EMPTY: Mapping = MappingProxyType({})


def frozen_mapping(items: Mapping | Iterable[tuple]) -> Mapping:
    """A read-only copy of ``items`` (a mapping or key-value pairs)."""
    return MappingProxyType(dict(items))


@dataclass(frozen=True)
class GroundingContext:
    """The per-call facts of one grounding.

    ``question``: the question text; ``spans``: the character span of each noun phrase
    (x-variable name -> (start, end)); ``values``: per property id, the literal objects of the
    query that the question writes (for ``$value`` templates); ``modifiers``: the prepositions
    of the reading and the term each modifies (for ``$nameprep`` templates); ``verbs``: the
    reading's verbs (for ``match.verbs``); ``query_props``: the query's properties as lexicon
    entries write them (``wdt:P17``); ``roles``: the items the query names as a *character
    role*; ``fixes``: per misspelt word key, the name keys it stands for.
    """

    question: str = ""
    spans: Mapping[str, tuple[int, int]] = field(default_factory=lambda: _EMPTY)
    values: Mapping[str, tuple[Literal, ...]] = field(default_factory=lambda: _EMPTY)
    modifiers: AbstractSet[tuple[str, Term]] = frozenset()
    verbs: AbstractSet[str] = frozenset()
    query_props: AbstractSet[str] = frozenset()
    roles: AbstractSet[str] = frozenset()
    fixes: Mapping[str, AbstractSet[str]] = field(default_factory=lambda: _EMPTY)

    @classmethod
    def empty(cls) -> "GroundingContext":
        """The context of a use outside a grounding (``verifier axioms show``, tests): no
        question, no query."""
        return cls()
