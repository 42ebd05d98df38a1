"""The downgrade checks of a reading, one module each, and their precedence (declared here
only).

* :data:`PRE_PROOF`: checks run before the soundness proof, in this order; the first that
  finds something stands for the proof (its verdict is the proof's status: ``unknown`` or
  ``refuted``).
* :data:`PRECEDENCE`: checks run after a sound proof, in this order; the first that finds
  something gives the reading its verdict and reason (:func:`verifier.deductive.decide.decide`);
  none: ``faithful``.

Every check is ``check(ctx: CheckContext) -> str | None``.  A configuration can leave checks
out by name (``[deductive] disabled_checks``, :func:`enabled_checks`).  Stage: decide (imports the
question-side and problem stages, never :mod:`verifier.deductive.pipeline`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from verifier.deductive.checks import (
    alternatives, degenerate, dropped_class, ignored_names, ignored_times, incomplete, intent,
    no_labels, not_a_time, unlinked_doers, unlinked_names, unmentioned,
)
from verifier.deductive.checks.context import Check, CheckContext, context_of, with_proof

__all__ = [
    "Check", "CheckContext", "context_of", "with_proof", "PRE_PROOF", "PRECEDENCE", "INTENT_CHECKS",
    "CHECK_NAMES", "Checks", "enabled_checks",
]

#: Before the proof, in order: (name, the proof status it stands for, function).
PRE_PROOF: tuple[Check, ...] = (
    Check("no_labels", "unknown", no_labels.check),
    Check("unmentioned_symbols", "refuted", unmentioned.check),
    Check("degenerate", "unknown", degenerate.check),
)

#: What the intent check adds to :func:`verifier.intent.intent_check`, in order (each an
#: intent failure).
INTENT_CHECKS: tuple[Check, ...] = (
    Check("not_a_time", "intent_mismatch", not_a_time.check),
)

#: After a sound proof, in order of precedence: the first that fires decides.
PRECEDENCE: tuple[Check, ...] = (
    Check("intent", "intent_mismatch", intent.check),
    # its solver work counted before the checks were declared here: it still always runs
    Check("alternatives", "unsupported", alternatives.check, always=True),
    Check("ignored_names", "weaker", ignored_names.check),
    Check("ignored_times", "weaker", ignored_times.check),
    Check("unlinked_names", "weaker", unlinked_names.check),
    Check("unlinked_doers", "weaker", unlinked_doers.check),
    Check("dropped_class", "weaker", dropped_class.check),
    Check("incomplete", "weaker", incomplete.check),
)


#: The name of every check (what ``[deductive] disabled_checks`` may list).
CHECK_NAMES: tuple[str, ...] = tuple(c.name for c in PRE_PROOF + INTENT_CHECKS + PRECEDENCE)


@dataclass(frozen=True)
class Checks:
    """The checks a pipeline runs, in their declared order (by default all of them)."""

    pre_proof: tuple[Check, ...] = PRE_PROOF
    intent: tuple[Check, ...] = INTENT_CHECKS
    precedence: tuple[Check, ...] = PRECEDENCE


def enabled_checks(disabled: Iterable[str] = ()) -> Checks:
    """The declared checks without those named in ``disabled`` (``[deductive] disabled_checks``);
    an unknown name is an error (a misspelt name would silently disable nothing)."""
    off = frozenset(disabled)
    unknown = sorted(off - set(CHECK_NAMES))
    if unknown:
        raise ValueError(f"unknown check(s) {', '.join(unknown)}; the checks are {', '.join(CHECK_NAMES)}")
    if not off:
        return Checks()
    keep = lambda cs: tuple(c for c in cs if c.name not in off)  # noqa: E731
    return Checks(keep(PRE_PROOF), keep(INTENT_CHECKS), keep(PRECEDENCE))
