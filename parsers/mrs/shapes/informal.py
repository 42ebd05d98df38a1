"""Shape builders: the informal question shapes of WikiWebQuestions.

Ported from the former ``parsers/mrs/patterns.py``; the regexes and word lists live in
``axioms/shapes/*.yaml`` (read through :mod:`parsers.mrs.shapes.data`).
"""

from __future__ import annotations

from parsers.mrs.shapes.data import shape_rx, shape_words
from parsers.mrs.shapes.build import (
    MrsBuilder, clean_span, has_article, name_ep, name_ok, people_ep, plain_name_ok, wh_ep, which_noun,
)

__all__ = [
    "where_is_name_readings", "what_people_speak_readings", "what_time_in_readings"
]


def where_is_name_readings(q: str) -> list[str]:
    """Readings of ``q`` by the shape ``where_is_name`` (``axioms/shapes``); ``[]`` when it is not of that
    shape."""
    m = shape_rx("WHERE_IS_NAME").match(q)
    if not m:
        return []
    tail = (m.group("tail") or "").casefold()
    if not (m.group("be") or tail in shape_words("LOCATED_WORDS")):
        return []  # without the copula first only "where great britain [is] located?"
    name = clean_span(q, *m.span("name"))
    text = q[name[0]:name[1]]
    # "where is isthmus of panama located?": before "located", a lowercase "N of NAME" without
    # an article may be a name too (the KG's labels decide)
    of_name = (tail in shape_words("LOCATED_WORDS") and text == text.casefold()
               and not q[:name[0]].casefold().rstrip().endswith(" the") and not shape_rx("CLAUSE").search(text)
               and not shape_rx("PHRASE_NOT_NAME").search(text) and shape_rx("NOUN_OF_PHRASE").fullmatch(text))
    if (not (name_ok(text) or of_name) or has_article(text)
            or shape_rx("PLACE_PARTICIPLE_START").match(text)
            or shape_rx("PASSIVE_END").search(text)):  # a passive ("where was X born?"): another shape
        return []
    b = MrsBuilder()
    x_place, l_place = b.new("x"), b.new("h")
    b.ep("place_n", m.span("where"), l_place, ARG0=x_place)
    b.quantified("which_q", m.span("where"), x_place, l_place)
    x_name = name_ep(b, q, name)
    top = b.new("h")
    if tail == "from":
        b.ep("_from_p", m.span("tail"), top, ARG0="e2", ARG1=x_name, ARG2=x_place)
    elif tail in shape_words("LOCATED_WORDS"):
        h, loc = b.new("h"), b.new("h")
        b.ep("loc_nonsp", m.span("where"), loc, ARG0=b.new("e"), ARG1=x_name, ARG2=x_place)
        b.ep("_locate_v_1", m.span("tail"), top, ARG0="e2", ARG1=b.new("i"), ARG2=x_name, ARG3=h)
        b.hcons.append(f"{h} qeq {loc}")
    else:
        b.ep("loc_nonsp", m.span("where"), top, ARG0="e2", ARG1=x_name, ARG2=x_place)
    return [b.text("e2", top)]


def what_people_speak_readings(q: str) -> list[str]:
    """Readings of ``q`` by the shape ``what_people_speak`` (``axioms/shapes``); ``[]`` when it is not of
    that shape."""
    m = shape_rx("WHAT_PEOPLE_SPEAK").match(q)
    if not m or (m.group("dem") and (m.group("name") or m.group("name2")
                                     or m.group("dem").casefold() in shape_words("NO_DEMONYM"))):
        return []
    if m.group("name") and m.group("name2"):
        return []
    place, prep = ("name", "prep") if m.group("name") else ("name2", "prep2")
    if m.group(place) and (not plain_name_ok(m.group(place)) or has_article(m.group(place))):
        return []
    people = "people" if m.group("people") else "people2"
    b = MrsBuilder()
    if m.group("np"):
        x = which_noun(b, "_language_n_1", m.span("np"), m.span("wh"))
    else:
        x = wh_ep(b, "what", m.span("wh"))
    x_people = people_ep(b, m.span(people), m.group("dem"), m.span("dem"))
    top = b.new("h")
    b.ep("_speak_v_to", m.span("verb"), top, ARG0="e2", ARG1=x_people, ARG2=x)
    if m.group(place):
        span = m.span(prep) if m.group(prep) else (m.start(place), m.start(place))
        b.ep("_in_p_state", span, top, ARG0=b.new("e"), ARG1="e2", ARG2=name_ep(b, q, clean_span(q, *m.span(place))))
    return [b.text("e2", top)]


def what_time_in_readings(q: str) -> list[str]:
    """Readings of ``q`` by the shape ``what_time_in`` (``axioms/shapes``); ``[]`` when it is not of that
    shape."""
    m = shape_rx("WHAT_TIME").match(q)
    if not m or shape_rx("TIME_ZONE_IN").match(q):  # "what is the time zone in X?" has its copula reading
        return []
    k = next(i for i in "1234" if m.group("t" + i))
    time, name = m.span("t" + k), m.span("n" + k)
    if k == "3" and "zone" not in m.group("t3").casefold() and not (m.group("in3") or m.group("now3") or m.group("now3a")):
        return []
    if not plain_name_ok(m.group("n" + k)):
        return []
    b = MrsBuilder()
    wh = m.span("wh4") if k == "4" else m.span("wh")
    x = which_noun(b, "_timezone/nn_u_unknown", time, wh)
    the = shape_rx("LEADING_THE").match(m.group("n" + k))
    x_name = name_ep(b, q, clean_span(q, name[0] + (the.end() if the else 0), name[1]))
    top = b.new("h")
    prep = m.span("in" + k) if m.group("in" + k) else time
    b.ep("_in_p", prep, top, ARG0="e2", ARG1=x_name, ARG2=x)
    return [b.text("e2", top)]
