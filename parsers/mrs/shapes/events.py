"""Shape builders: questions about an event (its object, time, place, doer).

Ported from the former ``parsers/mrs/patterns.py``; the regexes and word lists live in
``axioms/shapes/*.yaml`` (read through :mod:`parsers.mrs.shapes.data`).
"""

from __future__ import annotations

import re

from verifier.lexical import base_forms
from parsers.mrs.shapes.data import shape_rx, shape_words
from parsers.mrs.shapes.build import (
    MrsBuilder, capitalised, checked_np_name, clean_span, has_article, loc_answer, name_ep, name_ok,
    noun_phrase, plain_name_ok, quantifier, verb_and_prep,
)

__all__ = [ "wh_object_prep_mrs", "wh_object_readings", "wh_object_mrs",
    "when_become_readings",
    "time_answer",
    "wh_event_alone_readings"
]


def wh_object_prep_mrs(q: str, m: re.Match) -> list[str]:
    """The readings of :data:`WH_OBJECT_PREP` and :data:`PREP_WH_OBJECT`: the name VERBs the
    object name, and the noun phrase asked for is the preposition's."""
    if m.group("verb").casefold() in shape_words("AUXILIARIES") | shape_words("PREPOSITION_WORDS") | shape_words("NO_EVENT_VERBS"):
        return []
    spans = checked_np_name(q, m.span("np"), m.span("name"))
    obj = clean_span(q, *m.span("obj"))
    if spans is None or not plain_name_ok(q[obj[0]:obj[1]]) or not plain_name_ok(q[spans[1][0]:spans[1][1]]):
        return []
    np, name = spans
    if m.re is shape_rx("PREP_WH_OBJECT") and not all(capitalised(q[a:z]) for a, z in (name, obj)):
        return []  # no preposition closes the object: both names are written as names
    b = MrsBuilder()
    x_np, _ = noun_phrase(b, q, np, "which_q", (m.start("wh"), np[1]))
    x_name = name_ep(b, q, name)
    x_obj = name_ep(b, q, obj)
    return [verb_and_prep(b, b.new("h"), f"_{m.group('verb').casefold()}/vb_u_unknown", m.span("verb"), x_name,
                           x_obj, m.group("prep"), m.span("prep"), x_np)]


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


def when_become_readings(q: str) -> list[str]:
    """Readings of ``q`` by the shape ``when_become`` (``axioms/shapes``); ``[]`` when it is not of that
    shape."""
    m = shape_rx("WHEN_BECOME").match(q)
    if m and not (m.group("become") or m.group("verb")) and m.group("aux").casefold() not in shape_words("WAS_IS_WERE"):
        return []  # "When did X win the Y in Z?" has a verb: not "When was X the Y in Z?"
    spans = m and [checked_np_name(q, m.span("np"), m.span(g)) for g in ("name", "name2")]
    if not spans or None in spans:
        return []
    (np, name), (_, name2) = spans
    b = MrsBuilder()
    x_time, l_time = b.new("x"), b.new("h")
    b.ep("time_n", m.span("when"), l_time, ARG0=x_time)
    b.quantified("which_q", m.span("when"), x_time, l_time)
    x_name = name_ep(b, q, name)
    x_np, l_np = noun_phrase(b, q, np, quantifier(m.group("det")))
    b.ep(f"_{m.group('prep').casefold()}_p", m.span("prep"), l_np, ARG0=b.new("e"), ARG1=x_np,
         ARG2=name_ep(b, q, name2))
    top = b.new("h")
    b.ep("loc_nonsp", m.span("when"), top, ARG0=b.new("e"), ARG1="e2", ARG2=x_time)
    verb = (m.end("name"), np[0])
    b.ep("_become_v_id" if m.group("become") else "_be_v_id", verb, top, ARG0="e2", ARG1=x_name,
         ARG2=x_np)
    return [b.text("e2", top)]


def time_answer(b: MrsBuilder, q: str, m: re.Match) -> str:
    """``time_n`` (the answer) and its ``loc_nonsp`` on the main event ``e2``; returns the
    top label."""
    return loc_answer(b, "time_n", m.span("when"))


def wh_event_alone_readings(q: str) -> list[str]:
    """Readings of ``q`` by the shape ``wh_event_alone`` (``axioms/shapes``); ``[]`` when it is not of
    that shape."""
    m = shape_rx("WH_EVENT_ALONE").match(q)
    if not m:
        return []
    passive = m.group("part") is not None
    progressive = m.group("prog") is not None
    name = clean_span(q, *m.span("pname" if passive or progressive else "name"))
    verb = m.span("part" if passive else "prog" if progressive else "verb")
    word = q[verb[0]:verb[1]].casefold()
    if progressive and word in shape_words("NOT_VERBING"):
        return []
    particle = None
    if not passive and word in shape_words("PARTICLES") and " " in q[name[0]:name[1]]:
        # a phrasal verb ("where did rihanna grow up?", "where did X come from?"): the verb is
        # the name's last word; "from" says where the place is, as the grammar reads it
        cut = q.rindex(" ", name[0], name[1])
        particle, verb, name = word, (cut + 1, name[1]), clean_span(q, name[0], cut)
        word = q[verb[0]:verb[1]].casefold()
    passive = passive or m.group("get") is not None
    text = q[name[0]:name[1]]
    if (word in shape_words("AUXILIARIES") or word in shape_words("LIGHT_VERBS") or word in shape_words("LOCATED_WORDS")
            or not name_ok(text) or has_article(text)):
        return []
    if not passive and not m.group("aux") and shape_rx("LANGUAGE_END").search(text):
        return []  # "where the latin language come from?": a noun phrase, which a name would hide
    # after "the", a name of two words or more or a capitalised one ("where does the atlanta
    # braves play?"), not a common noun ("Where did the war end?")
    if q[:name[0]].casefold().rstrip().endswith(" the") and len(text.split()) < 2 and not text[:1].isupper():
        return []
    b = MrsBuilder()
    if particle == "from" and m.group("wh").casefold() == "where":
        top = loc_answer(b, "place_n", m.span("wh"), rel="_from_p_dir", rel_span=m.span("verb"))
    else:
        top = loc_answer(b, "place_n" if m.group("wh").casefold() == "where" else "time_n", m.span("wh"))
    x = name_ep(b, q, name)
    if passive:
        b.ep(f"_{word}/vbn_u_unknown", verb, top, ARG0="e2", ARG1=b.new("i"), ARG2=x)
    else:
        b.ep(f"_{word}/{'vbg' if progressive else 'vb'}_u_unknown", verb, top, ARG0="e2", ARG1=x)
    return [b.text("e2", top)]


