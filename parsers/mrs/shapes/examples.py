"""Run the examples of the shape files: each question must get from its shape the readings
the example states (their number, and the predicates of the first reading).

A shape's example runs that shape's builder alone; a wrapper's runs the wrapper with every
shape of the set; a rewrite's runs the whole engine (every shape enabled).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from parsers.mrs.shapes.data import using
from parsers.mrs.shapes.engine import REWRITE_BUILDERS, ShapeEngine, shape_reader, wrap_question
from parsers.mrs.shapes.model import Shape, ShapeExample, ShapeSet

__all__ = ["ExampleResult", "reading_preds", "run_example", "run_examples"]

_PRED = re.compile(r"\[ (\S+?)<")


@dataclass(frozen=True)
class ExampleResult:
    """The outcome of one example: ``ok``, or what differed (``message``)."""

    shape: str
    file: str
    question: str
    ok: bool
    message: str = ""


def reading_preds(reading: str) -> tuple[str, ...]:
    """The distinct predicates of a SimpleMRS reading, sorted."""
    return tuple(sorted(set(_PRED.findall(reading))))


def _readings(shape_set: ShapeSet, shape: Shape, question: str) -> list[str]:
    with using(shape_set):
        if shape.kind == "shape":
            return shape_reader(shape)(question)
        if shape.kind == "wrapper":
            return wrap_question(shape, question, [shape_reader(s) for s in ShapeEngine(shape_set).active("shape")])
    if shape.rewrite is None and shape.builder not in REWRITE_BUILDERS:
        return []
    return ShapeEngine(shape_set).readings(question)


def run_example(shape_set: ShapeSet, shape: Shape, ex: ShapeExample) -> ExampleResult:
    """Run one example of ``shape``."""
    try:
        got = _readings(shape_set, shape, ex.question)
    except Exception as e:  # a builder's bug fails its example, not the run
        return ExampleResult(shape.name, shape.file, ex.question, False, f"raised {type(e).__name__}: {e}")
    if len(got) != ex.readings:
        return ExampleResult(shape.name, shape.file, ex.question, False,
                             f"expected {ex.readings} reading(s), got {len(got)}")
    if got and ex.preds and reading_preds(got[0]) != tuple(sorted(set(ex.preds))):
        return ExampleResult(shape.name, shape.file, ex.question, False,
                             f"expected predicates {sorted(set(ex.preds))}, got {list(reading_preds(got[0]))}")
    return ExampleResult(shape.name, shape.file, ex.question, True)


def run_examples(shape_set: ShapeSet) -> list[ExampleResult]:
    """Run every example of every shape of ``shape_set``."""
    return [run_example(shape_set, s, ex) for s in shape_set.shapes for ex in s.examples]
