"""Check: the query does not answer the kind of question asked (yes/no, how many, superlative,
comparative: :func:`verifier.intent.intent_check`, and :mod:`.not_a_time`).  The pipeline
computes the intent once (a refuted reading needs it too) and hands it on in the context."""

from __future__ import annotations

from verifier.deductive.checks.context import CheckContext

__all__ = ["check"]


def check(ctx: CheckContext) -> str | None:
    """Why the reading fails the question's intent, or None."""
    return ctx.intent_failure
