"""Pattern readings: MRSs for fixed question shapes, without a grammar (compatibility layer).

The shapes are data now: ``axioms/shapes/*.yaml`` holds their regexes, word lists and
examples, and :mod:`parsers.mrs.shapes` loads and runs them (``docs/shapes.md``).  This
module keeps the names other modules import: :func:`pattern_readings`, :data:`MAX_SPLITS`
and :data:`NAME_OF_DESCRIPTION` (read from the shape files on first use).
"""

from __future__ import annotations

import re
from typing import Any

from parsers.mrs.shapes.build import MAX_SPLITS
from parsers.mrs.shapes.engine import ShapeEngine, engine_for

__all__ = ["pattern_readings", "MAX_SPLITS", "NAME_OF_DESCRIPTION"]


def pattern_readings(question: str, engine: ShapeEngine | None = None) -> list[str]:
    """SimpleMRS readings of ``question`` for the shapes of ``engine`` (default: every
    shipped shape); ``[]`` for any other question.  Character spans refer to ``question``."""
    return (engine or engine_for()).readings(question)


def __getattr__(name: str) -> Any:
    if name == "NAME_OF_DESCRIPTION":  # "What is the name of the NP ...?"
        from parsers.mrs.shapes.data import shape_rx

        pattern: re.Pattern = shape_rx("NAME_OF_DESCRIPTION")
        return pattern
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
