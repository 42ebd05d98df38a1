"""The question shapes as data: frozen records of what ``axioms/shapes/*.yaml`` hold.

A :class:`Shape` names a builder of the engine (or holds a template or a rewrite), the regexes it matches the question with
(by name), the word lists it reads and examples; a :class:`ShapeSet` is everything loaded
from a set of files, the regexes compiled (fragments and word lists interpolated).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Mapping

from parsers.mrs.shapes.rewrite import Rewrite
from parsers.mrs.shapes.template_spec import Template, Wrapper
from verifier.datafiles import FileIssue, FileIssuesError

__all__ = ["SHAPE_KINDS", "ShapeExample", "Shape", "WordList", "ShapeIssue", "ShapeError", "ShapeSet"]

#: ``shape``: reads a question; ``wrapper``: sets a phrase aside and reads the rest with the
#: shapes (only when no shape read the question); ``rewrite``: rewrites the question first.
SHAPE_KINDS = ("shape", "wrapper", "rewrite")


@dataclass(frozen=True)
class ShapeExample:
    """A question and what the shape reads it as: the number of readings and the predicates
    of the first one (sorted, distinct)."""

    question: str
    readings: int
    preds: tuple[str, ...]


@dataclass(frozen=True)
class Shape:
    """One question shape of a shape file: its reading is written by the engine's
    ``builder`` or, when it has one, by its ``template`` (MRS written as data); a rewrite's
    question is rewritten by its ``rewrite`` (data) or its builder, a wrapper runs its ``wrap``
    (data) or its builder."""

    name: str
    doc: str
    kind: str
    builder: str
    order: int
    family: str
    file: str
    patterns: tuple[str, ...] = ()
    words: tuple[str, ...] = ()
    examples: tuple[ShapeExample, ...] = ()
    template: Template | None = None
    rewrite: Rewrite | None = None
    wrap: Wrapper | None = None


@dataclass(frozen=True)
class WordList:
    """A named word list (``words``) or table (``table``, word -> word) of ``words.yaml``."""

    name: str
    doc: str
    words: frozenset[str] = frozenset()
    table: Mapping[str, str] = field(default_factory=dict)


#: A problem found in a shape file (:class:`verifier.datafiles.FileIssue`).
ShapeIssue = FileIssue


class ShapeError(FileIssuesError):
    """Shape files have errors; ``issues`` lists them all."""

    what = "shape files"


@dataclass(frozen=True)
class ShapeSet:
    """Shapes, compiled patterns, expanded fragments and word lists loaded from shape files."""

    shapes: tuple[Shape, ...]
    patterns: Mapping[str, re.Pattern]
    fragments: Mapping[str, str]
    words: Mapping[str, WordList]
    files: tuple[str, ...] = ()

    def shape(self, name: str) -> Shape | None:
        """The shape called ``name`` (None when there is none)."""
        return next((s for s in self.shapes if s.name == name), None)

    @property
    def names(self) -> tuple[str, ...]:
        """The names of the shapes, in their order."""
        return tuple(s.name for s in self.shapes)

    @property
    def families(self) -> tuple[str, ...]:
        """The families (file stems) of the shapes."""
        return tuple(dict.fromkeys(s.family for s in self.shapes))
