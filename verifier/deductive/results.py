"""The results of the deductive check: per atom, per reading, per pair; the preference between verdicts.

Stage: shared vocabulary of every stage (nothing of the deductive package is imported here)."""

from __future__ import annotations

from dataclasses import dataclass

from verifier.grounding import Link
from verifier.prover import ProofResult

__all__ = [
    "VERDICT_ORDER", "AtomDiagnosis", "ReadingResult", "DeductiveResult", "DEGENERATE_ANSWER",
]


#: Preference between readings (first is best).
VERDICT_ORDER = ("faithful", "weaker", "intent_mismatch", "unsupported", "unknown")


@dataclass(frozen=True)
class AtomDiagnosis:
    """Whether one atom of the query follows from the question."""

    atom: str
    entailed: bool
    symbols: tuple[str, ...]
    explanation: str


@dataclass(frozen=True)
class ReadingResult:
    """The check of one reading."""

    reading_index: int
    verdict: str
    reason: str
    question_formula: str
    soundness: ProofResult | None
    completeness: ProofResult | None
    intent: str
    intent_ok: bool
    links: tuple[Link, ...]
    axioms_used: tuple[str, ...]
    diagnosis: tuple[AtomDiagnosis, ...] = ()
    missing: tuple[str, ...] = ()
    grounded_share: float = 0.0
    #: the solver work of this reading's checks (Z3 resource units, :attr:`ProofResult.work`)
    work: int = 0
    #: the name of the check that decided the reading (:mod:`verifier.deductive.checks`: a
    #: pre-proof check standing for the proof, an intent check, or the first of the precedence
    #: that fired); "" when no check decided it
    check: str = ""
    #: the names of the rewrite rules (corrections, the view) that changed this reading, in
    #: the order they fired (``axioms/rewrites/*.yaml``)
    rules: tuple[str, ...] = ()
    #: the checks this reading passed, in order: "soundness" (the proof), "consistency" (its
    #: premises do not contradict each other), "intent", "completeness" (the query states all
    #: the question does; absent when there was nothing to prove), "checks" (no check of
    #: :data:`verifier.deductive.checks.PRECEDENCE` objected)
    passed: tuple[str, ...] = ()

    @property
    def weakest_link(self) -> Link | None:
        """The link of the least confidence (the first such in link order), None without links."""
        return min(self.links, key=lambda l: l.confidence) if self.links else None

    @property
    def min_link_confidence(self) -> float:
        """The confidence of the weakest link (0 without links)."""
        return min((l.confidence for l in self.links), default=0.0)

    @property
    def total_link_confidence(self) -> float:
        """The product of the links' confidences: how sure the sources are of every link at
        once (1 for no links, as for any empty product)."""
        out = 1.0
        for l in self.links:
            out *= l.confidence
        return out


@dataclass(frozen=True)
class DeductiveResult:
    """The deductive verdict of one (question, query) pair."""

    verdict: str
    reason: str
    explanation: str
    best: ReadingResult | None
    readings: tuple[ReadingResult, ...] = ()
    time_ms: float = 0.0

    @property
    def weakest_link(self) -> Link | None:
        """The weakest link of the best reading (:attr:`ReadingResult.weakest_link`)."""
        return self.best.weakest_link if self.best is not None else None

    @property
    def reading_index(self) -> int | None:
        """The index of the best reading, None without one."""
        return self.best.reading_index if self.best is not None else None

    @property
    def unsupported_atoms(self) -> tuple[str, ...]:
        """The atoms of the query that the best reading's diagnosis found not to follow."""
        if self.best is None:
            return ()
        return tuple(d.atom for d in self.best.diagnosis if not d.entailed)


#: Why a reading whose answer is a named item decides nothing (:func:`degenerate`).
DEGENERATE_ANSWER = "one of the items the question names"
