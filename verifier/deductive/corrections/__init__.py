"""Corrections of a reading's parse that are still written in Python, one module per pass.

Which corrections run, in which order and for which grammars is data: the rule file
``axioms/rewrites/corrections.yaml``, whose ``builtin:`` rules name these passes through the
registry :data:`verifier.deductive.rules.BUILTINS` (the others are written as EPs and run by
:mod:`verifier.rewrite`).  Each pass is a plain function ``reading -> reading`` (some also
take the question, the axiom pack or the KG labels) that returns the reading itself when it
has nothing to correct, or a :class:`verifier.deductive.reading.ReadingView`.  Stage: question
side, first after the readings are translated (imports only
:mod:`verifier.deductive.reading`).
"""

from __future__ import annotations

from dataclasses import dataclass

from verifier.axioms.model import Pack
from verifier.lexical import LabelIndex

__all__ = ["CorrectionInputs"]


@dataclass(frozen=True)
class CorrectionInputs:
    """What the passes may read besides the reading (the same for every reading of a pair)."""

    question: str
    pack: Pack
    labels: LabelIndex
