"""Corrections of a reading's parse, one module per pass, applied in the order declared here
(:data:`CORRECTIONS`) and nowhere else.

Each pass is a plain function ``reading -> reading`` (some also take the question, the axiom
pack or the KG labels) that returns the reading itself when it has nothing to correct, or a
:class:`verifier.deductive.reading.ReadingView`; a rule engine can replace any of them one by
one.  Stage: question side, first after the readings are translated (imports only
:mod:`verifier.deductive.reading`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Collection

from verifier.axioms.model import Pack
from verifier.lexical import LabelIndex
from verifier.deductive.reading import recorded
from verifier.deductive.corrections.absolute_with import absolute_with
from verifier.deductive.corrections.adjective_compounds import adjective_compounds
from verifier.deductive.corrections.coordinated_objects import coordinated_objects
from verifier.deductive.corrections.grand_kin import grand_kin
from verifier.deductive.corrections.known_verbs import known_verbs
from verifier.deductive.corrections.name_appositions import split_name_appositions
from verifier.deductive.corrections.parser_defects import correct_parser_defects
from verifier.deductive.corrections.passive_agents import passive_agents
from verifier.deductive.corrections.pied_piped import pied_piped_relatives
from verifier.deductive.corrections.relative_participles import relative_participles
from verifier.deductive.corrections.repeated_nouns import distinguish_repeated
from verifier.deductive.corrections.role_titles import role_titles

__all__ = ["CorrectionInputs", "Correction", "CORRECTIONS", "correct"]


@dataclass(frozen=True)
class CorrectionInputs:
    """What the passes may read besides the reading (the same for every reading of a pair)."""

    question: str
    pack: Pack
    labels: LabelIndex


@dataclass(frozen=True)
class Correction:
    """One pass: its name and how it is applied to a reading."""

    name: str
    apply: Callable[[Any, CorrectionInputs], Any]


#: The passes, in the order they are applied.
CORRECTIONS: tuple[Correction, ...] = (
    Correction("parser_defects", lambda r, i: correct_parser_defects(r, i.question)),
    Correction("pied_piped_relatives", lambda r, i: pied_piped_relatives(r)),
    Correction("adjective_compounds", lambda r, i: adjective_compounds(r)),
    Correction("absolute_with", lambda r, i: absolute_with(r)),
    Correction("relative_participles", lambda r, i: relative_participles(r)),
    Correction("grand_kin", lambda r, i: grand_kin(r)),
    Correction("split_name_appositions", lambda r, i: split_name_appositions(r, i.question)),
    Correction("known_verbs", lambda r, i: known_verbs(r, i.pack)),
    Correction("passive_agents", lambda r, i: passive_agents(r)),
    Correction("role_titles", lambda r, i: role_titles(r, i.question)),
    Correction("distinguish_repeated", lambda r, i: distinguish_repeated(r)),
    Correction("coordinated_objects", lambda r, i: coordinated_objects(r, i.question, i.labels)),
)


def correct(reading, inputs: CorrectionInputs, passes: tuple[Correction, ...] = CORRECTIONS,
            disabled: Collection[str] = ()):
    """``reading`` after every pass of ``passes`` (by default :data:`CORRECTIONS`) not named in
    ``disabled``, in order; the names of the passes that changed it are recorded in its
    :attr:`~verifier.deductive.reading.ReadingView.rules`."""
    for c in passes:
        if c.name not in disabled:
            reading = recorded(reading, c.apply(reading, inputs), c.name)
    return reading
