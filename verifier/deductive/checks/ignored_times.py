"""Check: a time the question states that the query ignores."""

from __future__ import annotations

import re

from verifier.grounding import Grounder, Grounding
from verifier.query import Query
from verifier.deductive.checks.context import CheckContext

__all__ = ["check", "ignored_times"]


#: A year the question states as the time of what it asks about: after a temporal preposition,
#: alone or in a date ("in 1916", "at 1916-1-1", "until 1975", "on December 12, 1991"), and
#: not followed by a word, which may make it part of a name ("in 2004 Summer Olympics", "in the
#: 2014 and 2006 Winter Olympics").
_STATED_YEAR = re.compile(
    r"\b(?:in|on|at|during|since|until|till|before|after)\s+(?:the\s+year\s+(?:of\s+)?)?(?:[a-z]+\.?\s+)?"
    r"(?:\d{1,2}(?:st|nd|rd|th)?,?\s+)?(?:of\s+)?(1\d{3}|20\d{2})(?:-\d{1,2}-\d{1,2})?(?!\s*[A-Za-z\d])", re.I)


#: A participle right after a quoted title in a wh-question, which the time after it describes
#: ('What are the main subjects of the paper titled "Neue Cyclocephalen" published in 1923?'):
#: the query names that item itself.
_DESCRIBES_NAME = re.compile(r"^\W*(?:what|which|who|whom|where|when|how|name|list|give|tell|show)\b.*"
                             r"[\"”’')]\s+(?-i:[a-z]+(?:ed|en|wn|lt|de))\s*$", re.I)


def ignored_times(question: str, query: Query, grounding: Grounding, grounder: Grounder) -> list[str]:
    """Times the question states (:data:`_STATED_YEAR`) that the query does not use: no value
    or filter of the query writes the year (or the next one, which bounds "in 1945" as
    ``< 1946-01-01``), and no item the query names has it in its label ("the FA Cup in 2008":
    *2008 FA Cup Final*), nor a time that describes a named item (:data:`_DESCRIBES_NAME`).  The
    query then drops a constraint ("What award did X receive in 1916?" answered with all of X's
    awards)."""
    stated = [m for m in _STATED_YEAR.finditer(question)
              if not _DESCRIBES_NAME.search(question[:m.start()])]  # 'the paper titled "X" published in 1923'
    if not stated:  # most questions: nothing to look up
        return []
    text = getattr(query, "text", "") or ""
    labels = [grounder.label(l.symbol.id) for l in grounding.links if l.symbol.kind in ("item", "class")]
    out = []
    for m in stated:
        year = int(m.group(1))
        if any(re.search(rf"(?<![\dQP]){y}(?!\d)", text) for y in (year, year + 1)):
            continue
        if any(str(year) in lab for lab in labels):
            continue
        out.append(m.group(0))
    return out


def check(ctx: CheckContext) -> str | None:
    """A time the question states that the query ignores."""
    times = ignored_times(ctx.question, ctx.query, ctx.grounding, ctx.grounder)
    if not times:
        return None
    return "the query ignores the time the question states: " + "; ".join(f"'{t}'" for t in times)
