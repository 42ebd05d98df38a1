"""Shape builder: yes/no copulas about an underscored name ("Is Foo_Bar the NP of X?"; the other yes/no shapes are templates).

Ported from the former ``parsers/mrs/patterns.py``; the regexes and word lists live in
``axioms/shapes/*.yaml`` (read through :mod:`parsers.mrs.shapes.data`).
"""

from __future__ import annotations

import re
from typing import Sequence

from parsers.mrs.shapes.data import shape_frag, shape_rx
from parsers.mrs.shapes.build import MrsBuilder, clean_span, name_ep, name_ok, noun_phrase, plain_np

__all__ = ["distributed_copulas", "underscored_copula_readings"]


def distributed_copulas(q: str, form: str, name: tuple[int, int], np: tuple[int, int],
                         values: Sequence[tuple[int, int]], quant: str,
                         prep: tuple[str, tuple[int, int]] | None, name_text: str | None = None) -> str:
    """The MRS of yes/no copulas between a name, a noun phrase and each of ``values``, one
    noun phrase per value (one NP for both would make the two values one thing): ``values``,
    NAME's NP is A (``poss``); ``subjects``, A is the NP PREP NAME; ``objects``, NAME is a NP
    PREP A.  ``name_text`` is the name's CARG when not its span's text."""
    b = MrsBuilder()
    x_name = name_ep(b, q, name, name_text)
    top = b.new("h")
    for i, span in enumerate(values):
        x_c = name_ep(b, q, span)
        x_np, l_np = noun_phrase(b, q, np, quant)
        e = "e2" if i == 0 else b.new("e")
        if form == "values":  # NAME's NP is A, NAME's NP is B
            b.ep("poss", (name[1], np[0]), l_np, ARG0=b.new("e"), ARG1=x_np, ARG2=x_name)
            b.ep("_be_v_id", (0, 0), top, ARG0=e, ARG1=x_np, ARG2=x_c)
        elif form == "subjects":  # A is the NP of NAME, B is the NP of NAME
            b.ep(f"_{prep[0]}_p", prep[1], l_np, ARG0=b.new("e"), ARG1=x_np, ARG2=x_name)
            b.ep("_be_v_id", (0, 0), top, ARG0=e, ARG1=x_c, ARG2=x_np)
        else:  # NAME is a NP of A, NAME is a NP of B
            b.ep(f"_{prep[0]}_p", prep[1], l_np, ARG0=b.new("e"), ARG1=x_np, ARG2=x_c)
            b.ep("_be_v_id", (0, 0), top, ARG0=e, ARG1=x_name, ARG2=x_np)
    return b.text("e2", top)


def underscored_copula_readings(q: str) -> list[str]:
    """Readings of ``q`` by the shape ``underscored_copula`` (``axioms/shapes``); ``[]`` when it is not of
    that shape."""
    m = shape_rx("UNDERSCORED").match(q)
    if not m:
        return []
    words = [(w.start() + m.start("rest"), w.end() + m.start("rest")) for w in re.finditer(r"\S+", m.group("rest"))]
    out = []
    for k in range(1, min(4, len(words))):
        np = (words[0][0], words[k - 1][1])
        text = q[np[0]:np[1]]
        of = text.casefold().endswith(" of")
        if of:
            np = (np[0], np[1] - 3)
        if text != text.casefold() or not plain_np(q[np[0]:np[1]]):
            continue
        rest = q[words[k][0]:words[-1][1]]
        conj = re.search(shape_frag("AND"), rest)
        values = ([(words[k][0], words[k][0] + conj.start()), (words[k][0] + conj.end(), words[-1][1])]
                  if conj else [(words[k][0], words[-1][1])])
        values = [clean_span(q, *v) for v in values]
        if any(not name_ok(q[a:z]) for a, z in values):
            continue
        out.append(distributed_copulas(q, "objects" if of else "values", m.span("name"), np, values,
                                        "_a_q" if of else "_the_q", ("of", (np[1], np[1] + 3)) if of else None,
                                        m.group("name").replace("_", " ")))
    return out
