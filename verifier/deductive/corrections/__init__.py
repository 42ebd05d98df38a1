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
from verifier.deductive.corrections.adjective_compounds import adjective_compounds
from verifier.deductive.corrections.grand_kin import grand_kin
from verifier.deductive.corrections.known_verbs import known_verbs
from verifier.deductive.corrections.parser_defects import correct_parser_defects
from verifier.deductive.corrections.passive_agents import passive_agents
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


#: The passes, in the order they are applied.  (``pied_piped_relatives``, ``absolute_with``,
#: ``relative_participles``, ``split_name_appositions`` and ``coordinated_objects`` were
#: deleted: they won nothing off the sample, docs/deductive.md "Rules that earn their place".)
CORRECTIONS: tuple[Correction, ...] = (
    Correction("parser_defects", lambda r, i: correct_parser_defects(r, i.question)),
    Correction("adjective_compounds", lambda r, i: adjective_compounds(r)),
    Correction("grand_kin", lambda r, i: grand_kin(r)),
    Correction("known_verbs", lambda r, i: known_verbs(r, i.pack)),
    Correction("passive_agents", lambda r, i: passive_agents(r)),
    Correction("role_titles", lambda r, i: role_titles(r, i.question)),
    Correction("distinguish_repeated", lambda r, i: distinguish_repeated(r)),
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
