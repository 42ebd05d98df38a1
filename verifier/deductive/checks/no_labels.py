"""Check (before the proof): the query uses items the grounding cannot name, and no KG labels
are configured (nothing can be decided about them)."""

from __future__ import annotations

from verifier.deductive.checks.context import CheckContext

__all__ = ["check"]


def check(ctx: CheckContext) -> str | None:
    """The configuration lacks the KG labels for the query's symbols."""
    if ctx.nameless and len(ctx.grounder.labels) == 0:
        return ("no KG labels are configured for " + ", ".join(ctx.nameless)
                + " ([grounding] labels in verifier.toml, or --labels)")
    return None
