"""Shape builder: "What NP does NAME VERB?" (``wh_object``; the other event shapes are templates).

Ported from the former ``parsers/mrs/patterns.py``; the regexes and word lists live in
``axioms/shapes/*.yaml`` (read through :mod:`parsers.mrs.shapes.data`).
"""

from __future__ import annotations

import re

from verifier.lexical import base_forms
from parsers.mrs.shapes.data import shape_rx, shape_words
from parsers.mrs.shapes.build import MrsBuilder, checked_np_name, name_ep, noun_phrase

__all__ = ["wh_object_readings", "wh_object_mrs"]


def wh_object_readings(q: str) -> list[str]:
    """Readings of ``q`` by the shape ``wh_object`` (``axioms/shapes``); ``[]`` when it is not of that
    shape."""
    m = shape_rx("WH_OBJECT").match(q)
    if m and m.group("verb").casefold() in shape_words("PREPOSITION_WORDS"):
        m = None  # "... succeed Eadwig in?": a preposition is no verb
    out = wh_object_mrs(q, m) if m else []
    if m and m.group("verb").casefold() in shape_words("COMMON_VERBS"):
        return out  # "what kind of government does italy have?": the verb is there
    m = shape_rx("WH_KIND_NO_VERB").match(q)
    if (not m or len(m.group("name").split()) > 3 or shape_rx("NOT_A_NAME").search(m.group("name"))
            or any(base_forms(w) for w in m.group("name").split())):
        return out
    return out + wh_object_mrs(q, m)


def wh_object_mrs(q: str, m: re.Match) -> list[str]:
    """The reading of a ``WH_OBJECT`` match ("What languages does X speak?")."""
    spans = checked_np_name(q, m.span("np"), m.span("name"))
    word = m.group("verb").casefold() or "have"
    if spans is None or word in shape_words("AUXILIARIES") or word in shape_words("NO_EVENT_VERBS"):
        return []
    np, name = spans
    b = MrsBuilder()
    x_np, _ = noun_phrase(b, q, np, "which_q", (m.start("wh"), np[1]))
    x_name = name_ep(b, q, name)
    pred = "_have_v_1" if word == "have" else f"_{word}/vb_u_unknown"
    if not m.group("prep"):
        return [b.main(pred, m.span("verb"), x_name, x_np)]
    top = b.new("h")
    b.ep(pred, m.span("verb"), top, ARG0="e2", ARG1=x_name, ARG2=b.new("i"))
    b.ep(f"_{m.group('prep').casefold()}_p", m.span("prep"), top, ARG0=b.new("e"), ARG1="e2",
         ARG2=x_np)
    return [b.text("e2", top)]
