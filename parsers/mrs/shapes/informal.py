"""Shape builders: the informal question shapes of WikiWebQuestions.

Ported from the former ``parsers/mrs/patterns.py``; the regexes and word lists live in
``axioms/shapes/*.yaml`` (read through :mod:`parsers.mrs.shapes.data`).
"""

from __future__ import annotations

import re

from parsers.mrs.shapes.data import shape_rx, shape_table, shape_words
from parsers.mrs.shapes.build import MrsBuilder, clean_span, copula_mrs, has_article, loc_answer, matched_name, name_ep, name_ok, noun_phrase, plain_name_ok, verb_and_prep, wh_and_name, wh_ep

__all__ = ["which_noun", "where_is_name_readings", "work_span", "who_did_play_in_readings", "who_played_in_readings", "who_married_readings", "what_place_is_in_readings", "what_films_been_in_readings", "people_ep", "what_people_speak_readings", "what_countries_speak_readings", "call_money_readings", "time_zone_in_readings", "what_time_in_readings", "places_to_see_readings", "what_films_has_readings", "team_asked", "who_plays_for_readings", "what_die_of_readings", "who_did_marry_readings", "where_go_to_school_readings"]


def which_noun(b: MrsBuilder, pred: str, span: tuple[int, int], wh_span: tuple[int, int],
                relational: bool = False) -> str:
    """The answer as a noun asked for with "what" / "which" ("what county", "which films"):
    the noun's EP (an unexpressed complement when ``relational``) under ``_which_q``."""
    x, lab = b.new("x"), b.new("h")
    if relational:
        b.ep(pred, span, lab, ARG0=x, ARG1=b.new("i"))
    else:
        b.ep(pred, span, lab, ARG0=x)
    b.quantified("_which_q", wh_span, x, lab)
    return x


def where_is_name_readings(q: str) -> list[str]:
    m = shape_rx("WHERE_IS_NAME").match(q)
    if not m:
        return []
    tail = (m.group("tail") or "").casefold()
    if not (m.group("be") or tail in ("located", "situated")):
        return []  # without the copula first only "where great britain [is] located?"
    name = clean_span(q, *m.span("name"))
    text = q[name[0]:name[1]]
    # "where is isthmus of panama located?": before "located", a lowercase "N of NAME" without
    # an article may be a name too (the KG's labels decide)
    of_name = (tail in ("located", "situated") and text == text.casefold()
               and not q[:name[0]].casefold().rstrip().endswith(" the") and not shape_rx("CLAUSE").search(text)
               and not shape_rx("PHRASE_NOT_NAME").search(text) and re.fullmatch(r"[\w-]+(?:\s+[\w-]+)?\s+of\s+[\w\s-]+", text))
    if (not (name_ok(text) or of_name) or has_article(text)
            or re.match(r"(?:located|situated|from|based|born|buried|made|spoken|used)\b", text, re.I)
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
    elif tail in ("located", "situated"):
        h, loc = b.new("h"), b.new("h")
        b.ep("loc_nonsp", m.span("where"), loc, ARG0=b.new("e"), ARG1=x_name, ARG2=x_place)
        b.ep("_locate_v_1", m.span("tail"), top, ARG0="e2", ARG1=b.new("i"), ARG2=x_name, ARG3=h)
        b.hcons.append(f"{h} qeq {loc}")
    else:
        b.ep("loc_nonsp", m.span("where"), top, ARG0="e2", ARG1=x_name, ARG2=x_place)
    return [b.text("e2", top)]


def work_span(q: str, m: re.Match) -> tuple[int, int] | None:
    """The cleaned span of the ``work`` group ("in the wizard of oz movie"), unless it is
    empty or holds a clause."""
    work = clean_span(q, *m.span("work"))
    if shape_rx("CLAUSE").search(q[work[0]:work[1]]) or not work[1] > work[0]:
        return None
    return work


def who_did_play_in_readings(q: str) -> list[str]:
    start = wh_and_name(shape_rx("WHO_DID_PLAY_IN"), q, "who")
    if start is None:
        return []
    m, b, x_who, x_name, top = start
    work = work_span(q, m)
    if work is None:
        return []
    x_work = name_ep(b, q, work)
    b.ep("_play_v_1", m.span("verb"), top, ARG0="e2", ARG1=x_name, ARG2=x_who)
    b.ep(f"_{m.group('prep').casefold()}_p_state", m.span("prep"), top, ARG0=b.new("e"), ARG1="e2",
         ARG2=x_work)
    return [b.text("e2", top)]


def who_played_in_readings(q: str) -> list[str]:
    m = shape_rx("WHO_PLAYED_IN").match(q)
    if not m:
        return []
    char, work = clean_span(q, *m.span("char")), work_span(q, m)
    if not plain_name_ok(q[char[0]:char[1]]) or work is None:
        return []
    b = MrsBuilder()
    x_who = wh_ep(b, "who", (0, m.start("verb")))
    x_char, x_work = name_ep(b, q, char), name_ep(b, q, work)
    top = b.new("h")
    verb = shape_table("PLAY_LEMMAS").get(m.group("verb").casefold(), "voice")
    b.ep(f"_{verb}_v_1", m.span("verb"), top, ARG0="e2", ARG1=x_who, ARG2=x_char)
    b.ep(f"_{m.group('prep').casefold()}_p_state", m.span("prep"), top, ARG0=b.new("e"), ARG1="e2", ARG2=x_work)
    return [b.text("e2", top)]


def who_married_readings(q: str) -> list[str]:
    start = wh_and_name(shape_rx("WHO_MARRIED"), q, "who")
    if start is None:
        return []
    m, b, x_who, x_name, top = start
    b.ep("_married_a_1", m.span("married"), top, ARG0="e2", ARG1=x_name)
    b.ep("_to_p_state", m.span("to"), top, ARG0=b.new("e"), ARG1="e2", ARG2=x_who)
    return [b.text("e2", top)]


def what_place_is_in_readings(q: str) -> list[str]:
    found = matched_name(shape_rx("WHAT_PLACE_IS_IN"), q, shape_rx("PASSIVE_END").search)
    if found is None:
        return []
    m, name = found
    b = MrsBuilder()
    x_np = which_noun(b, f"_{m.group('np').casefold()}_n_of", m.span("np"), m.span("wh"), True)
    x_name = name_ep(b, q, name)
    top = b.new("h")
    if m.group("verb"):  # "born" as "where was andy todd born?" reads it
        verb = "_born/vbn_u_unknown" if m.group("verb").casefold() == "born" else "_locate_v_1"
        b.ep(verb, m.span("verb"), top, ARG0="e2", ARG1=b.new("i"), ARG2=x_name)
        b.ep("_in_p_state", m.span("prep") if m.group("prep") else m.span("verb"), top,
             ARG0=b.new("e"), ARG1="e2", ARG2=x_np)
    else:
        b.ep("_in_p_loc", m.span("prep2"), top, ARG0="e2", ARG1=x_name, ARG2=x_np)
    return [b.text("e2", top)]


def what_films_been_in_readings(q: str) -> list[str]:
    m = shape_rx("WHAT_FILMS_BEEN_IN").match(q)
    if not m:
        return []
    name = clean_span(q, *m.span(next(g for g in ("name", "name2", "name3") if m.group(g))))
    last = q[name[0]:name[1]].split()[-1].casefold()
    if (not plain_name_ok(q[name[0]:name[1]]) or has_article(q[name[0]:name[1]])
            or last in shape_table("FILM_VERBS") or last in shape_words("FILM_VERB_WORDS")):
        return []  # "what movies has tom hanks starred in?": another shape
    b = MrsBuilder()
    word = m.group("np").casefold().split()[-1].rstrip("s") or "series"
    noun = {"movie": "_movie_n_of", "film": "_film_n_1", "show": "_show_n_of", "serie": "_series_n_1"}[word]
    x_np = which_noun(b, noun, m.span("np"), m.span("wh"), noun.endswith("_of"))
    x_name = name_ep(b, q, name)
    return [b.main("_in_p_loc", m.span("prep"), x_name, x_np)]


def people_ep(b: MrsBuilder, span: tuple[int, int], demonym: str | None = None,
            demonym_span: tuple[int, int] = (-1, -1)) -> str:
    """"people" (``_people_n_of``), with the demonym that modifies it ("russian people"), as a
    quantified noun phrase; returns its variable."""
    x, lab = b.new("x"), b.new("h")
    b.ep("_people_n_of", span, lab, ARG0=x, ARG1=b.new("i"))
    if demonym:
        b.ep(f"_{demonym.casefold()}/jj_u_unknown", demonym_span, lab, ARG0=b.new("e"), ARG1=x)
    b.quantified("udef_q", (demonym_span[0] if demonym else span[0], span[1]), x, lab)
    return x


def what_people_speak_readings(q: str) -> list[str]:
    m = shape_rx("WHAT_PEOPLE_SPEAK").match(q)
    if not m or (m.group("dem") and (m.group("name") or m.group("name2")
                                     or m.group("dem").casefold() in ("do", "does", "did", "the"))):
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


def what_countries_speak_readings(q: str) -> list[str]:
    m = shape_rx("WHAT_COUNTRIES_SPEAK").match(q)
    if not m or m.group("name").casefold() in ("in", "to", "with", "about", "there", "it", "now"):
        return []
    b = MrsBuilder()
    x = which_noun(b, "_country_n_of", m.span("np"), m.span("wh"), relational=True)
    x_people = people_ep(b, m.span("people"))
    top = b.new("h")
    b.ep("_speak_v_to", m.span("verb"), top, ARG0="e2", ARG1=x_people, ARG2=name_ep(b, q, m.span("name")))
    b.ep("_in_p_state", (m.start("wh"), m.end("np")), top, ARG0=b.new("e"), ARG1="e2", ARG2=x)
    return [b.text("e2", top)]


def call_money_readings(q: str) -> list[str]:
    m = shape_rx("CALL_MONEY").match(q)
    if not m:
        return []
    name, np = ("name", "np") if m.group("name") else ("name2", "np2")
    if not plain_name_ok(m.group(name)) or has_article(m.group(name)):
        return []
    b = MrsBuilder()
    x_wh = wh_ep(b, "what", m.span("wh"))
    x, l_np = noun_phrase(b, q, m.span(np), "_the_q")
    prep = "in" if m.group("prep") else "of"
    b.ep(f"_{prep}_p", m.span("prep") if m.group("prep") else m.span(np), l_np, ARG0=b.new("e"), ARG1=x,
         ARG2=name_ep(b, q, clean_span(q, *m.span(name))))
    return [b.main("_be_v_id", (m.end("wh"), m.start(np)), x_wh, x)]


def time_zone_in_readings(q: str) -> list[str]:
    m = shape_rx("TIME_ZONE_IN").match(q) or shape_rx("CURRENCY_IN").match(q)
    if not m or not plain_name_ok(m.group("name")):
        return []
    r = copula_mrs(q, m, [m.span("np")], [], ("in", m.span("prep")), m.span("name"))
    return [r] if r else []


def what_time_in_readings(q: str) -> list[str]:
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
    the = re.match(r"the\s+", m.group("n" + k), re.I)
    x_name = name_ep(b, q, clean_span(q, name[0] + (the.end() if the else 0), name[1]))
    top = b.new("h")
    prep = m.span("in" + k) if m.group("in" + k) else time
    b.ep("_in_p", prep, top, ARG0="e2", ARG1=x_name, ARG2=x)
    return [b.text("e2", top)]


def places_to_see_readings(q: str) -> list[str]:
    m = shape_rx("PLACES_TO_SEE").match(q)
    if not m or not plain_name_ok(m.group("name")):
        return []
    b = MrsBuilder()
    x = wh_ep(b, "what", m.span("wh"))
    x_name = name_ep(b, q, clean_span(q, *m.span("name")))
    return [verb_and_prep(b, b.new("h"), f"_{m.group('verb').casefold()}_v_1", m.span("verb"), b.new("i"), x,
                           "in", m.span("prep"), x_name, sense="p_state")]


def what_films_has_readings(q: str) -> list[str]:
    found = matched_name(shape_rx("WHAT_FILMS_HAS"), q)
    if found is None:
        return []
    m, name = found
    b = MrsBuilder()
    noun = "movie" if m.group("np").casefold().startswith("movie") else "film"
    x_np = which_noun(b, f"_{noun}_n_1", m.span("np"), m.span("wh"))
    x_name = name_ep(b, q, name)
    top = b.new("h")
    b.ep(shape_table("FILM_VERBS")[m.group("verb").casefold()], m.span("verb"), top, ARG0="e2", ARG1=x_name)
    b.ep("_in_p_loc", m.span("prep"), top, ARG0=b.new("e"), ARG1="e2", ARG2=x_np)
    return [b.text("e2", top)]


def team_asked(b: "MrsBuilder", m: re.Match) -> str:
    """The answer of :data:`WHO_PLAYS_FOR`: "who", or the team / club asked for."""
    if m.group("wh"):
        return wh_ep(b, "who", m.span("wh"))
    if m.group("np").casefold().startswith("team"):
        return which_noun(b, "_team_n_of", m.span("np"), m.span("which"), True)
    return which_noun(b, "_club_n_1", m.span("np"), m.span("which"))


def who_plays_for_readings(q: str) -> list[str]:
    start = wh_and_name(shape_rx("WHO_PLAYS_FOR"), q, team_asked)
    if start is None:
        return []
    m, b, x_who, x_name, top = start
    verb = shape_table("PLAY_LEMMAS")[m.group("verb").casefold()]
    return [verb_and_prep(b, top, f"_{verb}_v_1", m.span("verb"), x_name, b.new("i"), "for", m.span("prep"), x_who)]


def what_die_of_readings(q: str) -> list[str]:
    start = wh_and_name(shape_rx("WHAT_DIE_OF"), q, "what")
    if start is None:
        return []
    m, b, x_what, x_name, top = start
    if m.group("prep").casefold() == "of":
        b.ep("_die_v_of", (m.start("verb"), m.end("prep")), top, ARG0="e2", ARG1=x_name,
             ARG2=x_what)
    else:
        b.ep("_die_v_1", m.span("verb"), top, ARG0="e2", ARG1=x_name)
        b.ep("_from_p", m.span("prep"), top, ARG0=b.new("e"), ARG1="e2", ARG2=x_what)
    return [b.text("e2", top)]


def who_did_marry_readings(q: str) -> list[str]:
    start = wh_and_name(shape_rx("WHO_DID_MARRY"), q, "who")
    if start is None:
        return []
    m, b, x_who, x_name, top = start
    b.ep("_marry_v_1", m.span("verb"), top, ARG0="e2", ARG1=x_name, ARG2=x_who)
    return [b.text("e2", top)]


def where_go_to_school_readings(q: str) -> list[str]:
    found = matched_name(shape_rx("WHERE_GO_TO_SCHOOL"), q, has_article)
    if found is None:
        return []
    m, name = found
    b = MrsBuilder()
    x_name = name_ep(b, q, name)
    top = loc_answer(b, "place_n", m.span("where"))
    verb = m.span("verb") if m.group("verb") else m.span("attend")
    b.ep("_go_v_1", verb, top, ARG0="e2", ARG1=x_name)
    x_np, l_np = b.new("x"), b.new("h")
    b.ep("_to_p_dir", m.span("prep") if m.group("prep") else verb, top, ARG0=b.new("e"), ARG1="e2", ARG2=x_np)
    if m.group("high"):
        b.ep("_high_a_1", m.span("high"), l_np, ARG0=b.new("e"), ARG1=x_np)
    b.ep(f"_{m.group('noun').casefold()}_n_1", m.span("noun"), l_np, ARG0=x_np)
    b.quantified("udef_q", m.span("np"), x_np, l_np)
    return [b.text("e2", top)]
