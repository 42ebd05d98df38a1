"""The patterns, fragments and word lists the shape builders read, by name.

The builders read them from the :class:`~parsers.mrs.shapes.model.ShapeSet` in use: the one
the engine activates for a call (:func:`using`), else the shipped shape files (loaded once).
"""

from __future__ import annotations

import contextlib
import re
from contextvars import ContextVar
from functools import lru_cache
from typing import Iterator, Mapping

from parsers.mrs.shapes.loader import load_shapes
from parsers.mrs.shapes.model import ShapeSet

__all__ = ["shipped_shapes", "using", "current", "shape_rx", "shape_words", "shape_table", "shape_frag"]

_ACTIVE: ContextVar[ShapeSet | None] = ContextVar("shape_set", default=None)


@lru_cache(maxsize=1)
def shipped_shapes() -> ShapeSet:
    """The shipped shape files (``axioms/shapes``), loaded once."""
    return load_shapes()


@contextlib.contextmanager
def using(shape_set: ShapeSet) -> Iterator[ShapeSet]:
    """Make ``shape_set`` the one the builders read within the ``with`` block (per thread and
    task: a context variable)."""
    token = _ACTIVE.set(shape_set)
    try:
        yield shape_set
    finally:
        _ACTIVE.reset(token)


def current() -> ShapeSet:
    """The shape set in use (:func:`using`, else the shipped one)."""
    return _ACTIVE.get() or shipped_shapes()


def shape_rx(name: str) -> re.Pattern:
    """The compiled pattern ``name``."""
    return current().patterns[name]


def shape_words(name: str) -> frozenset[str]:
    """The words of the list ``name`` (the keys of a table)."""
    return current().words[name].words


def shape_table(name: str) -> Mapping[str, str]:
    """The table ``name`` (word -> word)."""
    return current().words[name].table


def shape_frag(name: str) -> str:
    """The regex fragment ``name``, its references expanded."""
    return current().fragments[name]
