"""Wrappers: a phrase (time, companion, when-clause, name tail, name test) set aside, the rest read by the shapes.

Ported from the former ``parsers/mrs/patterns.py``; the regexes and word lists live in
``axioms/shapes/*.yaml`` (read through :mod:`parsers.mrs.shapes.data`).  The wrappers written as
data (a shape's ``wrap``) are run by :func:`parsers.mrs.shapes.template.run_wrapper`, which uses
:func:`blanked_text` and :func:`on_main_event` of this module.
"""

from __future__ import annotations

import re

from parsers.mrs.shapes.data import shape_frag, shape_rx, shape_words
from parsers.mrs.shapes.build import (
    MAIN_LABEL, MrsBuilder, carg_text, clean_span, name_ep, name_ok, noun_phrase, plain_np,
    quantifier,
)

__all__ = [
    "blanked_text", "on_main_event", "modifier_on_main_event", "with_time", "time_readings",
    "with_companion", "together_readings", "when_clause_eps", "with_when_clause",
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


def modifier_on_main_event(reading: str, pred: str, span: tuple[int, int],
                            arg: tuple[str, tuple[int, int], str], quant: str, n: int) -> str:
    """``reading`` with the modifier ``pred(e, e2, x)`` on its main event, ``x`` the argument
    ``arg`` (predicate, span, quoted CARG) under ``quant``; the new variables and handles are
    numbered from ``n`` (apart from the reading's own)."""
    (a, z), (arg_pred, (c, d), carg) = span, arg
    return on_main_event(reading, f"[ {pred}<{a}:{z}> LBL: hMAIN ARG0: e{n} ARG1: e2 ARG2: x{n + 1} ] "
                                   f"[ {arg_pred}<{c}:{d}> LBL: h{n + 2} ARG0: x{n + 1} CARG: {carg} ] "
                                   f"[ {quant}<{c}:{d}> LBL: h{n + 3} ARG0: x{n + 1} RSTR: h{n + 4} BODY: h{n + 5} ]",
                          f"h{n + 4} qeq h{n + 2}")


def with_time(reading: str, prep: str, span: tuple[int, int], year: str) -> str:
    """``reading`` with "PREP YEAR" modifying its main event ``e2``."""
    # "until 1975", "since 1928": a bound of the event's time, as the ERG writes it (the
    # deductive check reads it as a comparison that a time qualifier's year expresses)
    pred = {"during": "_during_p", "since": "_since_p", "until": "_until_p", "till": "_until_p"}.get(
        prep, f"_{prep}_p_temp")
    return modifier_on_main_event(reading, pred, span, ("yofc", span, carg_text(year)), "def_implicit_q", 900)


def time_readings(q: str, shapes) -> list[str]:
    """Readings of ``q`` without its time phrase (blanked, so spans keep their offsets),
    each with the time added."""
    m = shape_rx("TIME_TAIL").search(q) or shape_rx("TIME_HEAD").match(q)
    if m:  # the blanked words from the match's start, the time phrase from the preposition
        prep, a, start = m.group("prep").casefold(), m.start(), m.start("prep")
    elif (m := shape_rx("TIME_BARE").match(q)) is not None and m.group("before").casefold() not in shape_words("NOT_BEFORE_BARE_YEAR"):
        prep, a, start = "in", m.start("date"), m.start("date")
    else:
        return []
    year = re.search(shape_frag("YEAR"), m.group("date")).group(0)
    blanked = blanked_text(q, (a, m.end()))
    return [with_time(r, prep, (start, m.end("date")), year) for f in shapes for r in f(blanked)]


def with_companion(reading: str, prep: tuple[int, int], name: tuple[int, int], carg: str) -> str:
    """``reading`` with "together with NAME" modifying its main event ``e2``."""
    return modifier_on_main_event(reading, "_together+with_p", prep, ("named", name, carg), "proper_q", 910)


def together_readings(q: str, shapes) -> list[str]:
    """Readings of ``q`` without its companion phrase (blanked, so spans keep their offsets),
    each with the companion added to the main event."""
    m = shape_rx("TOGETHER_TAIL").search(q)
    if m:
        blanks = [(m.start(), m.end())]
    elif (m := shape_rx("TOGETHER_PAIR").match(q)) is not None:
        blanks = [(m.start("and"), m.end("name")), m.span("prep")]
    else:
        return []
    name = clean_span(q, *m.span("name"))
    if not name_ok(q[name[0]:name[1]]):
        return []
    blanked = blanked_text(q, *blanks)
    prep = clean_span(q, *m.span("prep"))
    return [with_companion(r, prep, name, carg_text(q[name[0]:name[1]])) for f in shapes for r in f(blanked)]


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
