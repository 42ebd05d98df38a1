"""Rewrites as data: a question read first as another question, by editing the groups of a match.

A shape of kind ``rewrite`` has, in its shape file, a ``rewrite`` mapping:

* ``match``: the name of the pattern to match the question with (by default the shape's only
  pattern); ``search: true`` looks for it anywhere (``rx.search``), else at the start
  (``rx.match``).  No match: no rewrite;
* ``blank``: the groups whose characters become spaces (``0``: the whole match), so that the
  spans of the rest keep their offsets (the readings' character spans refer to the question);
* ``replace``: ``[{group: G, with: TEXT}, ...]``, the text of each group replaced by ``TEXT``,
  in which ``{G}`` stands for the text of group ``G`` as written.

A group that did not match is left alone.  The edits must not overlap; they are applied from
the question's end, so each group's span is that of the question as written.

"Where is the headquarters of the NRA located?" is read as "What is the headquarters of the
NRA        ?" by ``{match: WHERE_IS_PLACE, replace: [{group: where, with: 'What '}], blank:
[located]}``.  (:func:`rewritten` runs one; the engine, :mod:`parsers.mrs.shapes.engine`,
reads the rewritten question with the shapes.)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

__all__ = ["REWRITE_FIELDS", "Rewrite", "RewriteError", "rewrite_from", "rewritten"]

#: The fields of a rewrite.
REWRITE_FIELDS = frozenset({"match", "search", "blank", "replace"})
_SLOT = re.compile(r"\{(\w+)\}")


class RewriteError(ValueError):
    """A rewrite that cannot be read."""


@dataclass(frozen=True)
class Rewrite:
    """A question rewritten by blanking and replacing the groups of a pattern's match (see the
    module's doc)."""

    match: str
    search: bool = False
    blank: tuple[str | int, ...] = ()
    replace: tuple[tuple[str, str], ...] = ()


def _group(g: Any) -> str | int:
    if isinstance(g, bool) or not isinstance(g, (str, int)) or (isinstance(g, str) and not g):
        raise RewriteError(f"a group is a name or 0 (the whole match): {g!r}")
    return g


def rewrite_from(raw: Any, patterns: tuple[str, ...]) -> Rewrite:
    """A :class:`Rewrite` from a shape file's mapping; ``patterns`` are the shape's own pattern
    names (the default ``match`` when there is one).  Raises :class:`RewriteError`."""
    if not isinstance(raw, dict):
        raise RewriteError("a rewrite is a mapping")
    raw = {k: v for k, v in raw.items() if k != "__line__"}
    unknown = set(raw) - REWRITE_FIELDS
    if unknown:
        raise RewriteError(f"unknown rewrite field(s) {sorted(unknown)}")
    match = raw.get("match") or (patterns[0] if len(patterns) == 1 else None)
    if not isinstance(match, str):
        raise RewriteError("a rewrite names the pattern it matches (match)")
    blank = raw.get("blank") or []
    replace = raw.get("replace") or []
    if not isinstance(blank, list) or not isinstance(replace, list):
        raise RewriteError("blank and replace are lists")
    pairs = []
    for r in replace:
        if not isinstance(r, dict) or not isinstance(r.get("with"), str) or {k for k in r if k != "__line__"} != {"group", "with"}:
            raise RewriteError(f"a replacement is {{group: G, with: TEXT}}: {r!r}")
        pairs.append((_group(r["group"]), r["with"]))
    if not blank and not pairs:
        raise RewriteError("a rewrite blanks or replaces at least one group")
    return Rewrite(match, bool(raw.get("search")), tuple(_group(g) for g in blank), tuple(pairs))


def rewritten(rewrite: Rewrite, rx: re.Pattern, question: str) -> str | None:
    """``question`` rewritten by ``rewrite``, whose pattern is ``rx`` (None when it does not
    match)."""
    m = rx.search(question) if rewrite.search else rx.match(question)
    if m is None:
        return None
    edits = [(m.span(g), " " * (m.end(g) - m.start(g))) for g in rewrite.blank if m.group(g) is not None]
    edits += [(m.span(g), _SLOT.sub(lambda s: m.group(s.group(1)) or "", text)) for g, text in rewrite.replace
              if m.group(g) is not None]
    out = question
    for (a, z), text in sorted(edits, reverse=True):
        out = out[:a] + text + out[z:]
    return out
