"""Shape builders: relative clauses after "be" / "have" ("What is the NP that is the NP2 of NAME?").

Ported from the former ``parsers/mrs/patterns.py``; the regexes and word lists live in
``axioms/shapes/*.yaml`` (read through :mod:`parsers.mrs.shapes.data`).
"""

from __future__ import annotations

import re

from parsers.mrs.shapes.data import shape_rx
from parsers.mrs.shapes.build import (
    MAX_SPLITS, MrsBuilder, answer, checked_np_name, clean_span, name_ep, noun_phrase, np_name_splits, plain_np,
    quantifier, whose_is,
)

__all__ = [
    "of_name_ep", "shifted_np_names", "relative_be_readings", "relative_be_mrs"
]


def of_name_ep(b: MrsBuilder, q: str, x: str, label: str, prep: tuple[str, tuple[int, int]],
             name: tuple[int, int]) -> None:
    """The EP relating a noun phrase (``x``, labelled ``label``) to the name of a
    :func:`np_name_splits` split by its preposition ("the position *of* Benedict XVI")."""
    b.ep(f"_{prep[0].casefold()}_p", prep[1], label, ARG0=b.new("e"), ARG1=x, ARG2=name_ep(b, q, name))


def shifted_np_names(q: str, m: re.Match) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The splits of a shifted "has as NP NAME" into a plain noun phrase and a name (the
    name starting after "the" or at a capitalised word), at most :data:`MAX_SPLITS`."""
    g0, g1 = m.span("shifted")
    out = []
    for sp in shape_rx("SHIFTED_NAME").finditer(q, g0, g1):
        before = q[g0:sp.start()].split()
        if not before or before[-1][0].isupper():  # inside a capitalised name
            continue
        spans = checked_np_name(q, (g0, sp.start()), (sp.end(), g1))
        if spans is not None:
            out.append(spans)
        if len(out) >= MAX_SPLITS:
            break
    return out


def relative_be_readings(q: str) -> list[str]:
    """Readings of ``q`` by the shape ``relative_be`` (``axioms/shapes``); ``[]`` when it is not of that
    shape."""
    m = shape_rx("RELATIVE_BE").match(q)
    if not m:
        return []
    has = bool(m.group("have") or m.group("shave"))
    if m.group("shave"):
        return [r for second in shifted_np_names(q, m) for r in relative_be_mrs(q, m, second)]
    second = (checked_np_name(q, m.span("hnp"), m.span("hname")) if has
              else checked_np_name(q, m.span("np2"), m.span("name2")))
    if second is None or not q[second[0][0]].isalpha():  # "has population as 185170"
        return []
    return relative_be_mrs(q, m, second)


def relative_be_mrs(q: str, m: re.Match, second: tuple[tuple[int, int], tuple[int, int]]) -> list[str]:
    """The readings of a :data:`RELATIVE_BE` match whose second noun phrase and name are
    ``second``: one per way of reading the head (a plain noun phrase, or NP of NAME)."""
    has = bool(m.group("have") or m.group("shave"))
    have = "have" if m.group("have") else "shave"
    head = clean_span(q, *m.span("head"))
    firsts: list[tuple[tuple[int, int], tuple | None, tuple[int, int] | None]] = []
    if plain_np(q[head[0]:head[1]]):  # "the branch of chemistry" may be a class's name
        firsts.append((head, None, None))
    firsts.extend(np_name_splits(q, m, "head"))
    out = []
    for np1, prep1, name1 in firsts:
        b = MrsBuilder()
        x_wh, wh_end = answer(b, m)
        h1 = noun_phrase(b, q, np1, quantifier(m.group("det")))
        h2 = noun_phrase(b, q, second[0], "_a_q" if has else "_the_q")
        if h1 is None or h2 is None:
            continue
        (x1, l1), (x2, l2) = h1, h2
        if prep1 is not None:
            of_name_ep(b, q, x1, l1, prep1, name1)
        if has:  # as "whose NP2 is NAME2" (the two_hop shape)
            name_span = m.span("hname") if have == "have" else second[1]
            whose_is(b, q, x1, x2, l2, m.span(have), name_span, second[1])
        else:
            b.ep("_be_v_id", m.span("be"), l1, ARG0=b.new("e"), ARG1=x1, ARG2=x2)
            b.ep(f"_{m.group('prep2').casefold()}_p", m.span("prep2"), l2, ARG0=b.new("e"), ARG1=x2,
                 ARG2=name_ep(b, q, second[1]))
        out.append(b.main("_be_v_id", (wh_end, np1[0]), x_wh, x1))
    return out
