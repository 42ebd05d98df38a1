"""Wrappers: a phrase (a when-clause, a name test) set aside, the rest read by the shapes (the time, companion and name-tail wrappers are data).

Ported from the former ``parsers/mrs/patterns.py``; the regexes and word lists live in
``axioms/shapes/*.yaml`` (read through :mod:`parsers.mrs.shapes.data`).  The wrappers written as
data (a shape's ``wrap``) are run by :func:`parsers.mrs.shapes.template.run_wrapper`, which uses
:func:`blanked_text` and :func:`on_main_event` of this module.
"""

from __future__ import annotations

import re

from parsers.mrs.shapes.data import shape_rx
from parsers.mrs.shapes.build import (
    MAIN_LABEL, MrsBuilder, clean_span, name_ep, name_ok, noun_phrase, plain_np,
    quantifier,
)

__all__ = [
    "blanked_text", "on_main_event", "when_clause_eps", "with_when_clause",
    "when_readings", "name_test_tails", "without_name_test"
]


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


def when_clause_eps(q: str, m: re.Match) -> tuple[list[str], list[str], str] | None:
    """The EPs (and HCONS) of a :data:`WHEN_CLAUSE` match, and the clause's event."""
    b = MrsBuilder()
    b.n = 900  # apart from the variables of the reading it is added to
    x_pron, l_pron = b.new("x"), b.new("h")
    b.ep("pron", m.span("pron"), l_pron, ARG0=x_pron)
    b.quantified("pronoun_q", m.span("pron"), x_pron, l_pron)
    e = b.new("e")
    top = "hMAIN"  # the main event's label, filled in by _on_main_event
    if m.group("np"):
        np = clean_span(q, *m.span("np"))
        if not plain_np(q[np[0]:np[1]]):
            return None
        head = noun_phrase(b, q, np, quantifier(m.group("det")))
        if head is None:
            return None
        b.ep("_be_v_id", (m.start("pron"), np[1]), top, ARG0=e, ARG1=x_pron, ARG2=head[0])
    else:
        name = clean_span(q, *m.span("doer" if m.group("part") else "obj"))
        if not name_ok(q[name[0]:name[1]]):
            return None
        x_name = name_ep(b, q, name)
        if m.group("part"):  # "he was replaced by NAME": NAME is the doer
            b.ep(f"_{m.group('part').casefold()}/vbn_u_unknown", m.span("part"), top, ARG0=e, ARG1=x_name,
                 ARG2=x_pron)
        else:
            b.ep(f"_{m.group('verb').casefold()}/vbd_u_unknown", m.span("verb"), top, ARG0=e, ARG1=x_pron,
                 ARG2=x_name)
    return b.rels, b.hcons, e


def with_when_clause(reading: str, when: tuple[int, int], clause: tuple[list[str], list[str], str]) -> str:
    """``reading`` with the clause ``_when_x_subord`` on its main event ``e2``."""
    rels, hcons, e = clause  # the clause's event shares the main event's label (hMAIN)
    return on_main_event(reading, f"[ _when_x_subord<{when[0]}:{when[1]}> LBL: hMAIN ARG0: e990 ARG1: e2 ARG2: {e} ] "
                          + " ".join(rels), " ".join(hcons))


def when_readings(q: str, shapes) -> list[str]:
    """Readings of ``q`` without its when-clause (blanked, so spans keep their offsets), each
    with the clause added to the main event."""
    m = shape_rx("WHEN_CLAUSE").search(q)
    if not m:
        return []
    clause = when_clause_eps(q, m)
    if clause is None:
        return []
    return [with_when_clause(r, m.span("when"), clause) for f in shapes for r in f(blanked_text(q, m.span()))]


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
