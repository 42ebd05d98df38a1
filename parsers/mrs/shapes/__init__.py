"""Question shapes as data: pattern readings for questions the grammar reads badly or not at all.

The shapes live in ``axioms/shapes/*.yaml`` (regexes, word lists, examples); this package
loads and checks them (:mod:`~parsers.mrs.shapes.loader`), runs them
(:mod:`~parsers.mrs.shapes.engine`: every shape's MRS is a template, run by
:mod:`~parsers.mrs.shapes.template`; every rewrite is data too,
:mod:`~parsers.mrs.shapes.rewrite`, and so is every wrapper, ``wrap``), and runs their
examples (:mod:`~parsers.mrs.shapes.examples`).  See ``docs/shapes.md``.
"""

from parsers.mrs.shapes.engine import BUILDERS, ShapeEngine, engine_for, pattern_readings, select_shapes
from parsers.mrs.shapes.loader import check_shapes, default_shape_dirs, load_shapes
from parsers.mrs.shapes.model import Shape, ShapeError, ShapeExample, ShapeIssue, ShapeSet, WordList

__all__ = ["BUILDERS", "ShapeEngine", "engine_for", "pattern_readings", "select_shapes", "check_shapes",
           "default_shape_dirs", "load_shapes", "Shape", "ShapeError", "ShapeExample", "ShapeIssue",
           "ShapeSet", "WordList"]
