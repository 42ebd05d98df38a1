"""The verdict of a reading whose soundness proof is done: a declared sequence of checks
(:data:`verifier.deductive.checks.PRECEDENCE`) rather than nested branches.

Stage: decide (after the proof; imports the checks and the results, never the pipeline)."""

from __future__ import annotations

from typing import Sequence

from verifier.prover import ProofResult
from verifier.deductive.checks import PRECEDENCE, Check, CheckContext

__all__ = ["decide", "decided_by", "faithful_reason", "refuted_verdict"]


def decide(ctx: CheckContext, precedence: Sequence[Check] = PRECEDENCE) -> tuple[str, str] | None:
    """The verdict and reason of the first check of ``precedence`` that finds something, or
    None (the reading is faithful).  Checks marked ``always`` run first, whatever decides."""
    found = decided_by(ctx, precedence)
    return None if found is None else (found[1], found[2])


def decided_by(ctx: CheckContext, precedence: Sequence[Check] = PRECEDENCE) -> tuple[str, str, str] | None:
    """Like :func:`decide`, with the name of the check that decided first: ``(name, verdict,
    reason)``, or None."""
    found = {c.name: c.run(ctx) for c in precedence if c.always}
    for c in precedence:
        reason = found[c.name] if c.always else c.run(ctx)
        if reason:
            return c.name, c.verdict, reason
    return None


def faithful_reason(completeness: ProofResult | None, note: str, qual_notes: Sequence[str]) -> str:
    """The reason of a faithful verdict: the entailment, whether completeness was decided, how
    a view read the question (``note``), what the qualifiers and filters said."""
    reason = "the question entails the query" + (
        "" if completeness is None or completeness.proved else " (completeness undecided)")
    if note:
        reason += "; " + note
    if qual_notes:
        reason += "; " + "; ".join(qual_notes)
    return reason


def refuted_verdict(intent_ok: bool, intent_reason: str) -> tuple[str, str]:
    """The verdict of a reading whose soundness proof is refuted (before its diagnosis)."""
    if not intent_ok:
        return "intent_mismatch", intent_reason
    return "unsupported", "the query asserts what the question does not support"
