"""Facts derived from a verdict for summaries: reason kinds and unsupported KG symbols.

Both read ``Verdict.to_dict()`` only, so they work on stored rows as well as on fresh
verdicts.  A *reason kind* is the deductive reason with its specifics taken out (atoms,
identifiers, quoted words, numbers), e.g. ``"<P> is not supported: no word of the question
names it"``; the *unsupported symbols* are the ``P``/``Q`` identifiers that the diagnosis
says no word of the question supports, with their labels.
"""

from __future__ import annotations

import re
from typing import Any, Mapping

__all__ = ["reason_of", "reason_kinds", "unsupported_symbols"]

_SYMBOL = r"(?:\([^()]*\)|[^()])*"
_UNSUPPORTED = re.compile(r"\b([PQL]\d+) \((" + _SYMBOL + r")\) is not supported")
_ATOM_PREFIX = re.compile(r"^(?:[\w:./<>#-]+\([^()]*\)|\S+ (?:<|>|<=|>=|=|!=) \S+):\s+")
_ID_WITH_LABEL = re.compile(r"\b([PQL])\d+ \(" + _SYMBOL + r"\)")
_ID = re.compile(r"\b(?:wdt?|p|ps|pq|wd):([PQL])\d+\b|\b([PQL])\d+\b")
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
_NUMBER = re.compile(r"\b\d+(?:\.\d+)?\b")
_MAX_KIND = 160


def reason_of(verdict: Mapping[str, Any]) -> str:
    """The reason of a verdict: the deductive reason, or the error, or the explanation."""
    ded = verdict.get("deductive") or {}
    return str(ded.get("reason") or verdict.get("error") or verdict.get("explanation") or "")


def _kind(part: str) -> str:
    s = _ATOM_PREFIX.sub("", part.strip())
    s = _ID_WITH_LABEL.sub(lambda m: f"<{m.group(1)}>", s)
    s = _ID.sub(lambda m: f"<{m.group(1) or m.group(2)}>", s)
    s = _QUOTED.sub("'…'", s)
    s = _NUMBER.sub("N", s)
    s = re.sub(r"\s+", " ", s).strip(" :;")
    if ": " in s and s.split(": ", 1)[0].startswith(("unexpected", "expected")):
        s = s.split(": ", 1)[0]
    return s[:_MAX_KIND]


def reason_kinds(verdict: Mapping[str, Any]) -> tuple[str, ...]:
    """Distinct reason kinds of a verdict (see the module documentation)."""
    if verdict.get("error") and not verdict.get("deductive"):
        first = str(verdict["error"]).splitlines()[0]
        first = re.sub(r" at line \d+, column \d+.*$", "", first)
        return (_kind(first),)
    reason = reason_of(verdict)
    if not reason:
        return ()
    out: dict[str, None] = {}
    for part in reason.split("; "):
        k = _kind(part)
        if k:
            out[k] = None
    return tuple(out)


def unsupported_symbols(verdict: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    """``(id, label)`` of the KG symbols that the question does not support."""
    ded = verdict.get("deductive") or {}
    texts = [str(a.get("why", "")) for a in ded.get("unsupported_atoms") or [] if isinstance(a, Mapping)]
    if not texts and ded.get("reason"):
        texts = [str(ded["reason"])]
    out: dict[str, str] = {}
    for t in texts:
        for m in _UNSUPPORTED.finditer(t):
            out.setdefault(m.group(1), m.group(2))
    return tuple(out.items())
