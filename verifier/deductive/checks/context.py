"""What every check sees (a frozen :class:`CheckContext`) and what a check is (:class:`Check`).

Each check module has one function ``check(ctx: CheckContext) -> str | None``: the reason the
reading is downgraded, or None when the check finds nothing.  The precedence of the checks is
declared once, in :mod:`verifier.deductive.checks` (``PRE_PROOF``, ``PRECEDENCE``)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable

from verifier.grounding import Grounder, Grounding, Unit
from verifier.logic import Formula
from verifier.prover import Premise, ProofResult
from verifier.qualifiers import Qualifier
from verifier.query import Query
from verifier.deductive.problem import Problem

__all__ = ["CheckContext", "Check", "context_of", "with_proof"]


@dataclass(frozen=True)
class CheckContext:
    """The proof problem of one reading, as far as it is built when a check runs."""

    question: str
    query: Query
    #: the corrected reading checked (after its negation readings and coordinated answer)
    reading: Any
    grounder: Grounder
    grounding: Grounding
    units: tuple[Unit, ...]
    #: the query's pattern without its qualifiers and filters (:mod:`verifier.deductive.prepared`)
    pattern: Formula
    qualifiers: tuple[Qualifier, ...]
    premises: tuple[Premise, ...]
    #: the aligned query ``G``
    g: Formula
    #: query symbols the grounding could not name with a label, when no labels are configured
    nameless: tuple[str, ...] = ()
    #: why the reading fails the question's intent (None: it does not)
    intent_failure: str | None = None
    #: names a negation's KG reading accounts for ("English" in "no English label")
    explained: frozenset[str] = frozenset()
    #: whether a formula follows from the premises of the proof that counts (after the proof)
    entailed: Callable[[Formula], bool] | None = None
    completeness: ProofResult | None = None
    #: the facts of the question the query does not imply (when completeness is refuted)
    missing: tuple[str, ...] = ()


def context_of(problem: Problem, grounder: Grounder) -> CheckContext:
    """The context of the checks before the proof of ``problem``."""
    grounding = problem.grounding
    return CheckContext(
        question=problem.question, query=problem.prepared.query, reading=problem.reading,
        grounder=grounder, grounding=grounding, units=problem.units, pattern=problem.pattern,
        qualifiers=problem.qualifiers, premises=problem.premises, g=problem.g,
        nameless=tuple(s.id for s in grounding.unsupported if s.kind != "literal" and not grounder.names_of(s)))


def with_proof(ctx: CheckContext, **changes) -> CheckContext:
    """``ctx`` with what the proof found (``g``, ``entailed``, ``completeness``, ...)."""
    return replace(ctx, **changes)


@dataclass(frozen=True)
class Check:
    """A downgrade check: its name, the verdict it gives, its function.  ``always``: run even
    when a check before it has decided (its solver work counts towards the pair's budget, so
    it runs whenever it ran before the checks became a declared sequence)."""

    name: str
    verdict: str
    run: Callable[[CheckContext], str | None]
    always: bool = False
