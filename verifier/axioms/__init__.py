"""Axiom templates, lexicons and background axioms (data in ``axioms/``): model, loading,
linting and instantiation.

>>> from verifier.axioms import load_pack
>>> pack = load_pack()            # the shipped pack
>>> sorted(pack.templates)[:2]    # doctest: +SKIP
"""

from verifier.axioms.loader import LintIssue, PackError, default_pack_dirs, lint, load_pack, optional_pack_dirs
from verifier.axioms.model import (
    Example, Lexicon, LexiconEntry, Match, Pack, Source, Template,
)

__all__ = ["load_pack", "lint", "default_pack_dirs", "optional_pack_dirs", "LintIssue", "PackError", "Example",
           "Lexicon", "LexiconEntry", "Match", "Pack", "Source", "Template"]
