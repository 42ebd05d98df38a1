"""An object as a cache key by identity, for the memos of pure functions over formulas and
templates (compared field by field, a large formula costs more to hash than the memo saves).

A memo keyed by :class:`Same` holds the object it is keyed by, so the identity it compares
cannot be taken by another object while the entry lives (``functools.lru_cache`` keeps the
key).

The memos over a pair's own objects are :func:`per_pair` caches: :func:`forget_per_pair`
empties them when a pair is verified (:meth:`verifier.api.Verifier.verify` does), so that
they do not keep the pair's formulas alive.  Kept, they had grown the objects Python's
garbage collector walks in a full collection from 180,000 to 710,000 (0.2-0.4 s each,
inside whichever pair triggers it); what they save is within a pair."""

from __future__ import annotations

from functools import lru_cache
from typing import Callable

__all__ = ["Same", "per_pair", "forget_per_pair"]

#: the per-pair memos, in the order they were made (filled once, at import)
_PER_PAIR: list = []


def per_pair(maxsize: int = 8192) -> Callable:
    """``functools.lru_cache(maxsize)`` for a pure function whose arguments are a pair's own
    objects, registered to be emptied by :func:`forget_per_pair` (thread-safe: a memo emptied
    while another pair uses it only computes again)."""
    def wrap(fn: Callable) -> Callable:
        cached = lru_cache(maxsize=maxsize)(fn)
        _PER_PAIR.append(cached)
        return cached
    return wrap


def forget_per_pair() -> int:
    """Empty every :func:`per_pair` memo; returns how many entries were dropped."""
    n = 0
    for memo in _PER_PAIR:
        n += memo.cache_info().currsize
        memo.cache_clear()
    return n


class Same:
    """``obj`` as a key equal only to a key of the same object."""

    __slots__ = ("obj",)

    def __init__(self, obj: object) -> None:
        self.obj = obj

    def __hash__(self) -> int:
        return id(self.obj)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Same) and other.obj is self.obj
