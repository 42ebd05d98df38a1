"""An object as a cache key by identity, for the memos of pure functions over formulas and
templates (compared field by field, a large formula costs more to hash than the memo saves).

A memo keyed by :class:`Same` holds the object it is keyed by, so the identity it compares
cannot be taken by another object while the entry lives (``functools.lru_cache`` keeps the
key)."""

from __future__ import annotations

__all__ = ["Same"]


class Same:
    """``obj`` as a key equal only to a key of the same object."""

    __slots__ = ("obj",)

    def __init__(self, obj: object) -> None:
        self.obj = obj

    def __hash__(self) -> int:
        return id(self.obj)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Same) and other.obj is self.obj
