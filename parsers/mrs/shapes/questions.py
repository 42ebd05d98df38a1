"""Shape builders: copulas, possessives, "have", name tests, superlatives, two-hop and "of all" questions.

Ported from the former ``parsers/mrs/patterns.py``; the regexes and word lists live in
``axioms/shapes/*.yaml`` (read through :mod:`parsers.mrs.shapes.data`).
"""

from __future__ import annotations

import re

from parsers.mrs.shapes.data import shape_rx
from parsers.mrs.shapes.build import (
    MrsBuilder, answer, clean_span, copula_mrs, name_ep, name_ok, names_id, noun_phrase, np_ok, quantifier,
)

__all__ = [
    "copula_readings", "class_for_mrs"
]


def copula_readings(q: str) -> list[str]:
    """Readings of ``q`` by the shape ``copula`` (``axioms/shapes``); ``[]`` when it is not of that shape."""
    m = shape_rx("COPULA").match(q)
    if not m:
        return []
    rest0 = m.start("rest")
    rest = m.group("rest")
    if not m.group("det") and shape_rx("PASSIVE_START").match(rest):
        return []  # "Who was nominated for X?": a passive, not "Who was the nominee for X?"
    out = []
    splits = list(shape_rx("SPLIT").finditer(rest))
    for j, sp in enumerate(splits):
        np = (rest0, rest0 + sp.start())
        name = (rest0 + sp.end(), m.end("rest"))
        if shape_rx("CLAUSE").search(q[np[0]:np[1]]) or not name_ok(q[name[0]:name[1]]):
            continue
        prep = (sp.group(1).casefold(), (rest0 + sp.start(1), rest0 + sp.end(1)))
        if np_ok(q[np[0]:np[1]]):
            out.append(copula_mrs(q, m, [np], [], prep, name))
            if j == 0 or names_id(q[np[0]:np[1]]):
                continue
            # "the field of profession for X" may be a property's name ("place of birth") or
            # a chain ("the field of [the] profession for X"): one reading each, as a
            # grammar gives one per attachment
        # "the child body of the parent body of X": a chain of two noun phrases.  (Reading
        # "the CLASS of the PROPERTY of X" as one thing named twice, as LC-QuAD sometimes means
        # it, accepted the inverse direction as often as the right one: not done.  With "for"
        # both directions are what LC-QuAD means, and each is a reading: _class_for_mrs.)
        for inner in splits[:j]:
            np1 = (rest0, rest0 + inner.start())
            np2 = (rest0 + inner.end(), rest0 + sp.start())
            if np_ok(q[np1[0]:np1[1]]) and np_ok(q[np2[0]:np2[1]]):
                p1 = (inner.group(1).casefold(), (rest0 + inner.start(1), rest0 + inner.end(1)))
                out.append(copula_mrs(q, m, [np1, np2], [p1], prep, name))
                if p1[0] == "for" and prep[0] == "of":
                    out.extend(class_for_mrs(q, m, np1, np2, name, how) for how in ("is", "has"))
                break
    return [r for r in out if r is not None]


def class_for_mrs(q: str, m: re.Match, np1: tuple[int, int], np2: tuple[int, int],
                   name: tuple[int, int], how: str) -> str | None:
    """The two readings of "Which is the CLASS for the NP of NAME?" (LC-QuAD 2.0 writes both
    of its templates so): ``is``, the CLASS that is the NP of NAME ("the business cluster for
    the capital of Karnataka"), an apposition; ``has``, the CLASS whose NP is NAME ("the
    currency for the country of Biafra"), "the NP of NAME" naming NAME itself."""
    b = MrsBuilder()
    x_wh, wh_end = answer(b, m)
    h1 = noun_phrase(b, q, clean_span(q, *np1), quantifier(m.group("det")))
    h2 = noun_phrase(b, q, clean_span(q, *np2), "_the_q")
    if h1 is None or h2 is None:
        return None
    (x1, l1), (x2, l2) = h1, h2
    x_name = name_ep(b, q, clean_span(q, *name))
    if how == "is":
        b.ep("appos", (np1[0], name[1]), l1, ARG0=b.new("e"), ARG1=x1, ARG2=x2)
        b.ep("_of_p", (np2[1], name[0]), l2, ARG0=b.new("e"), ARG1=x2, ARG2=x_name)
    else:
        b.ep("poss", (np1[1], np2[1]), l2, ARG0=b.new("e"), ARG1=x2, ARG2=x1)
        b.ep("appos", (np2[0], name[1]), l2, ARG0=b.new("e"), ARG1=x2, ARG2=x_name)
    return b.main("_be_v_id", (wh_end, m.start("rest")), x_wh, x1)
