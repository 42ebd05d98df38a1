"""The shape engine: which data (template, rewrite, wrap) or builder reads which shape, and the order they run in.

:func:`pattern_readings` reads a question with the enabled shapes of a
:class:`~parsers.mrs.shapes.model.ShapeSet`: the rewrites first (each that applies replaces
the readings so far; a rewrite is data, :mod:`parsers.mrs.shapes.rewrite`, run by
:func:`rewrite_question`), then every shape (kind ``shape``) in its order; when none reads the
question, the wrappers in their order (the first that gives readings wins); at most
:data:`~parsers.mrs.shapes.build.MAX_SPLITS` readings.  Which shapes are enabled comes from
the configuration (``[deductive] shapes`` and ``disabled_shapes``, :func:`engine_for`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import lru_cache, partial
from pathlib import Path
from typing import Callable, Mapping, Sequence

from parsers.mrs.shapes.build import MAX_SPLITS
from parsers.mrs.shapes.data import shape_rx, shipped_shapes, using
from parsers.mrs.shapes.loader import default_shape_dirs, load_shapes, shape_files
from parsers.mrs.shapes.model import Shape, ShapeSet
from parsers.mrs.shapes.rewrite import rewritten
from parsers.mrs.shapes.template import run_template, run_wrapper

__all__ = [
    "SHAPE_BUILDERS", "WRAPPER_BUILDERS", "REWRITE_BUILDERS", "BUILDERS", "ShapeEngine",
    "rewrite_question", "wrap_question", "shape_reader", "reader_of", "select_shapes", "engine_for", "pattern_readings"
]

log = logging.getLogger(__name__)

Reader = Callable[[str], list]

#: Builders of the shapes of kind ``shape``: question -> SimpleMRS readings.
SHAPE_BUILDERS: Mapping[str, Reader] = {}  # every shipped shape is a template now (docs/shapes.md)

#: Builders of the wrappers: (question, shape builders) -> readings of the question with a
#: phrase set aside, the rest read by the shapes.
#: Every shipped wrapper is data now (its ``wrap``, run by :func:`parsers.mrs.shapes.template.run_wrapper`).
WRAPPER_BUILDERS: Mapping[str, Callable[[str, Sequence[Reader]], list]] = {}


#: Builders of the rewrites: question -> the question to read instead (None: no rewrite).
#: Every shipped rewrite is data now (its ``rewrite``, :mod:`parsers.mrs.shapes.rewrite`).
REWRITE_BUILDERS: Mapping[str, Callable[[str], str | None]] = {}


#: Every builder name a shape file may use.
BUILDERS = frozenset(SHAPE_BUILDERS) | frozenset(WRAPPER_BUILDERS) | frozenset(REWRITE_BUILDERS)

_TABLES = {"shape": SHAPE_BUILDERS, "wrapper": WRAPPER_BUILDERS, "rewrite": REWRITE_BUILDERS}


@dataclass(frozen=True)
class ShapeEngine:
    """Reads questions with the ``enabled`` shapes of ``shape_set`` (all when None)."""

    shape_set: ShapeSet
    enabled: frozenset[str] | None = None

    def active(self, kind: str) -> tuple[Shape, ...]:
        """The enabled shapes of ``kind``, in their order."""
        return tuple(s for s in self.shape_set.shapes if s.kind == kind
                     and (self.enabled is None or s.name in self.enabled)
                     and (s.builder in _TABLES[kind] or (kind == "shape" and s.template is not None)
                          or (kind == "rewrite" and s.rewrite is not None)
                          or (kind == "wrapper" and s.wrap is not None)))

    def _shape_readings(self, q: str, shapes: Sequence[Reader]) -> list[str]:
        out: list[str] = []
        for f in shapes:
            out.extend(f(q))
        if not out:
            for w in self.active("wrapper"):
                out = wrap_question(w, q, shapes)
                if out:
                    break
        return out

    def readings(self, question: str) -> list[str]:
        """SimpleMRS readings of ``question`` for the enabled shapes (``[]`` for any other
        question).  Character spans refer to ``question`` itself."""
        if not isinstance(question, str) or not question.strip() or len(question) > 300:
            return []
        with using(self.shape_set):
            shapes = tuple(shape_reader(s) for s in self.active("shape"))
            out: list[str] = []
            for r in self.active("rewrite"):
                q2 = rewrite_question(r, question)
                if q2 is not None:
                    out = self._shape_readings(q2, shapes)
            return (out + self._shape_readings(question, shapes))[:MAX_SPLITS]


def rewrite_question(shape: Shape, question: str) -> str | None:
    """``question`` rewritten by the rewrite ``shape`` (its data, else its builder), with the
    patterns of the shape set in use; None when it does not apply."""
    if shape.rewrite is not None:
        return rewritten(shape.rewrite, shape_rx(shape.rewrite.match), question)
    return REWRITE_BUILDERS[shape.builder](question)


def wrap_question(shape: Shape, question: str, shapes: Sequence[Reader]) -> list[str]:
    """The readings of ``question`` by the wrapper ``shape`` (its data, else its builder) over
    the readers ``shapes``."""
    if shape.wrap is not None:
        return run_wrapper(shape.wrap, question, shapes)
    return WRAPPER_BUILDERS[shape.builder](question, shapes)


def shape_reader(shape: Shape) -> Reader:
    """The function that reads a question with ``shape`` (of kind ``shape``): its template
    or its builder."""
    if shape.template is not None:
        return partial(run_template, shape.template)
    return SHAPE_BUILDERS[shape.builder]


def reader_of(name: str, shape_set: ShapeSet | None = None) -> Reader:
    """The function that reads a question with the shape called ``name`` alone (of the
    shipped shapes by default).  Raises ``KeyError`` for an unknown name."""
    shape_set = shape_set or shipped_shapes()
    shape = shape_set.shape(name)
    if shape is None or shape.kind != "shape":
        raise KeyError(name)
    reader = shape_reader(shape)

    def read(question: str) -> list[str]:
        with using(shape_set):
            return reader(question)
    return read


def select_shapes(shape_set: ShapeSet, shapes: Sequence[str] | None = None,
                  disabled: Sequence[str] = ()) -> frozenset[str]:
    """The names of the shapes that ``shapes`` (shape or family names; None or ``"all"``:
    every shape) selects, less those ``disabled`` names (shape or family names).  Raises
    ``ValueError`` for a name that is neither."""
    def names(entries: Sequence[str]) -> set[str]:
        out: set[str] = set()
        for e in entries:
            hit = {s.name for s in shape_set.shapes if e in (s.name, s.family) or e == "all"}
            if not hit:
                raise ValueError(f"unknown shape or shape family {e!r} (known: {', '.join(shape_set.families)})")
            out |= hit
        return out
    chosen = set(shape_set.names) if shapes is None else names(shapes)
    return frozenset(chosen - names(disabled))


@lru_cache(maxsize=32)
def _engine(shapes: tuple[str, ...] | None, disabled: tuple[str, ...]) -> ShapeEngine:
    entries = shapes or ()
    files = [e for e in entries if e.endswith((".yaml", ".yml")) or Path(e).is_dir()]
    names = [e for e in entries if e not in files]
    shape_set = shipped_shapes()
    added: set[str] = set()
    if files:  # the user's shape files next to the shipped ones
        extra = {str(p) for p in shape_files(files)}
        shape_set = load_shapes(shape_files(default_shape_dirs()) + shape_files(files), BUILDERS)
        added = {s.name for s in shape_set.shapes if s.file in extra}
    selected = select_shapes(shape_set, names or None, disabled) | (added - select_shapes(shape_set, disabled))
    enabled = None if selected == frozenset(shape_set.names) else selected
    log.debug("shape engine: %d of %d shapes", len(selected), len(shape_set.shapes))
    return ShapeEngine(shape_set, enabled)


def engine_for(shapes: Sequence[str] | str | None = None, disabled: Sequence[str] | str = ()) -> ShapeEngine:
    """The engine for a configuration: ``shapes`` lists shape names, family names (the stems
    of the shape files: ``informal``) or shape files / folders to load next to the shipped
    ones (None, ``"all"`` or an empty list: every shipped shape); ``disabled`` lists shape or
    family names to leave out."""
    if isinstance(shapes, str):
        shapes = [shapes]
    if isinstance(disabled, str):
        disabled = [disabled]
    return _engine(tuple(shapes) if shapes else None, tuple(disabled))


def pattern_readings(question: str, engine: ShapeEngine | None = None) -> list[str]:
    """SimpleMRS readings of ``question`` for the shapes of ``engine`` (default: every shipped
    shape); ``[]`` for any other question.  Character spans refer to ``question`` itself."""
    return (engine or engine_for()).readings(question)
