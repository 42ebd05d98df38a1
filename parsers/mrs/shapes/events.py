"""Shape builders: questions about an event (its object, time, place, doer).

Ported from the former ``parsers/mrs/patterns.py``; the regexes and word lists live in
``axioms/shapes/*.yaml`` (read through :mod:`parsers.mrs.shapes.data`).
"""

from __future__ import annotations

import re

from verifier.lexical import base_forms
from parsers.mrs.shapes.data import shape_rx, shape_words
from parsers.mrs.shapes.build import (
    MrsBuilder, checked_np_name, clean_span, has_article, kin_owned, name_ep, noun_phrase, plain_name_ok, plain_np,
    verb_and_prep,
)

__all__ = [
    "wh_object_readings", "wh_object_mrs", "in_which_readings"
]


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


def in_which_readings(q: str) -> list[str]:
    """Readings of ``q`` by the shape ``in_which`` (``axioms/shapes``); ``[]`` when it is not of that
    shape."""
    m = shape_rx("IN_WHICH").match(q)
    if not m or bool(m.group("prep")) == bool(m.group("prep2")):
        return []  # the preposition in front of "which" or at the end, once
    verb = m.group("verb").casefold()
    aux = m.group("aux").casefold()
    ing = verb.endswith("ing")
    if ing != (aux in shape_words("COPULA_FORMS")) or verb in shape_words("NOT_VERBING") or verb in shape_words("AUXILIARIES"):
        return []  # "was X starring", "did X star"; not "was X born" (a passive)
    if m.group("prep2") and not ing and not m.group("name1"):
        return []  # "What films did X star in?": the object shape reads it (_wh_object_readings)
    np, name = clean_span(q, *m.span("np")), clean_span(q, *m.span("name"))
    if not plain_np(q[np[0]:np[1]]) or not plain_name_ok(q[name[0]:name[1]]) or has_article(q[name[0]:name[1]]):
        return []
    words = q[name[0]:name[1]].split()
    if (any(w[:1].isupper() for w in words) and any(w[:1].islower() and w not in shape_words("FUNCTION") for w in words)
            and not kin_owned(q, name)):
        return []  # "did Rosalind Franklin study physical chemistry": the verb is not last
    name1 = clean_span(q, *m.span("name1")) if m.group("name1") else None
    if name1 is not None and not plain_name_ok(q[name1[0]:name1[1]]):
        return []
    b = MrsBuilder()
    head = noun_phrase(b, q, np, "_which_q", m.span("wh"))
    if head is None:
        return []
    x_np, l_np = head
    if name1 is not None:
        b.ep(f"_{m.group('part').casefold()}/vbn_u_unknown", m.span("part"), l_np, ARG0=b.new("e"),
             ARG1=name_ep(b, q, name1), ARG2=x_np)
    x_name = name_ep(b, q, name)
    prep = "prep" if m.group("prep") else "prep2"
    return [verb_and_prep(b, b.new("h"), f"_{verb}/{'vbg' if ing else 'vb'}_u_unknown", m.span("verb"),
                           x_name, b.new("i"), m.group(prep), m.span(prep), x_np)]
