"""Locate the data shipped with the toolkit: Lark grammars and axiom packs.

In a source checkout (editable install, or tests run from the tree) the data lives in the
top-level ``grammar/`` and ``axioms/`` folders.  In a wheel they are installed as
``verifier/_data/grammar`` and ``verifier/_data/axioms`` (see ``pyproject.toml``).  Both
layouts are found by :func:`data_dir`.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

__all__ = ["data_dir", "grammar_path", "grammar_text", "axioms_dir"]

_PKG = Path(__file__).resolve().parent


@lru_cache(maxsize=None)
def data_dir(name: str) -> Path:
    """Return the folder of shipped data ``name`` (``"grammar"`` or ``"axioms"``).

    Raises ``FileNotFoundError`` naming both places looked at when neither exists.
    """
    candidates = (_PKG / "_data" / name, _PKG.parent / name)
    for c in candidates:
        if c.is_dir():
            return c
    raise FileNotFoundError(
        f"data folder {name!r} not found; looked in " + ", ".join(str(c) for c in candidates)
    )


def grammar_path(filename: str) -> Path:
    """Path of a Lark grammar file shipped in ``grammar/``."""
    return data_dir("grammar") / filename


@lru_cache(maxsize=None)
def grammar_text(filename: str) -> str:
    """Text of a Lark grammar file shipped in ``grammar/`` (read once)."""
    return grammar_path(filename).read_text(encoding="utf-8")


def axioms_dir() -> Path:
    """Folder holding the shipped axiom packs (``templates/`` and ``lexicons/``)."""
    return data_dir("axioms")
