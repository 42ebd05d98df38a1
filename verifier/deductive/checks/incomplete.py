"""Check: the query does not imply what the question states (completeness refuted: it drops a
constraint)."""

from __future__ import annotations

from verifier.deductive.checks.context import CheckContext

__all__ = ["check"]


def check(ctx: CheckContext) -> str | None:
    """The constraints the query drops, when the completeness proof is refuted."""
    if ctx.completeness is None or ctx.completeness.status != "refuted":
        return None
    if ctx.missing:
        return "the query drops constraints the question states: " + "; ".join(ctx.missing[:4])
    return ("the query does not imply what the question states (each statement alone is implied, "
            "not all of them together)")
