"""Pattern readings: MRSs for fixed question shapes, without a grammar (compatibility layer).

The shapes are data now: ``axioms/shapes/*.yaml`` holds their regexes, word lists and
examples, and :mod:`parsers.mrs.shapes` loads and runs them (``docs/shapes.md``).  This
module keeps the names other modules import: :func:`pattern_readings` and :data:`MAX_SPLITS`.
"""

from __future__ import annotations

from parsers.mrs.shapes.build import MAX_SPLITS
from parsers.mrs.shapes.engine import ShapeEngine, engine_for

__all__ = ["pattern_readings", "MAX_SPLITS"]


def pattern_readings(question: str, engine: ShapeEngine | None = None) -> list[str]:
    """SimpleMRS readings of ``question`` for the shapes of ``engine`` (default: every
    shipped shape); ``[]`` for any other question.  Character spans refer to ``question``."""
    return (engine or engine_for()).readings(question)

