"""Wrappers: a name test set aside, the rest read by the shapes (the other wrappers are data).

Ported from the former ``parsers/mrs/patterns.py``; the regexes and word lists live in
``axioms/shapes/*.yaml`` (read through :mod:`parsers.mrs.shapes.data`).  The wrappers written as
data (a shape's ``wrap``) are run by :func:`parsers.mrs.shapes.template.run_wrapper`, which uses
:func:`blanked_text` and :func:`on_main_event` of this module.
"""

from __future__ import annotations

from parsers.mrs.shapes.data import shape_rx
from parsers.mrs.shapes.build import MAIN_LABEL

__all__ = ["blanked_text", "on_main_event", "name_test_tails", "without_name_test"]


def blanked_text(text: str, *spans: tuple[int, int]) -> str:
    """``text`` with the characters of ``spans`` replaced by spaces, so that the spans of the
    rest keep their offsets."""
    for a, z in spans:
        text = text[:a] + " " * (z - a) + text[z:]
    return text


def on_main_event(reading: str, eps: str, hcons: str) -> str:
    """``reading`` with the EPs ``eps`` and the HCONS ``hcons`` added; in ``eps``, ``hMAIN``
    stands for the label of the main event ``e2`` (the reading unchanged when it has none)."""
    m = MAIN_LABEL.search(reading)
    head, sep, tail = reading.rpartition(" > HCONS: < ")
    if m is None or not sep or not tail.endswith(" > ]"):
        return reading
    return f"{head} {eps.replace('LBL: hMAIN ', f'LBL: {m.group(1)} ')}{sep}{tail[:-3]} {hcons} > ]"


def name_test_tails(q: str):
    """The matches of :data:`NAME_TEST_TAIL` in ``q``, leftmost first, each starting after
    the last one's start: in "... that has as NP NAME and starts with the letter r" the
    first ("that has ...") spans the whole relative clause, the next the name test alone."""
    pos = 0
    while (m := shape_rx("NAME_TEST_TAIL").search(q, pos)) is not None:
        yield m
        pos = m.start() + 1


def without_name_test(q: str, shapes) -> list[str]:
    """Readings of ``q`` without a name test at its end, or between the relative pronoun and
    a clause that says more (blanked, so spans keep their offsets).  The deductive check reads
    the name test from the question's words, as for every question, so the readings need not
    carry it."""
    for m in name_test_tails(q):
        rest = shape_rx("ITS_OR_THEIR_START").sub("", m.group("rest").strip())
        if shape_rx("NAME_TEST_REST").match(rest) or shape_rx("WORD_IN_NAME").match(rest):
            return [r for f in shapes for r in f(blanked_text(q, (m.start(), len(q))))]
    m = shape_rx("NAME_TEST_MIDDLE").search(q)
    if not m:
        return []
    a, b = m.span("test")
    return [r for f in shapes for r in f(blanked_text(q, (a, b)))]
