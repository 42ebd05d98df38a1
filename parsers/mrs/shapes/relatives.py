"""Shape builders: relative clauses, wh passives and "how many" questions.

Ported from the former ``parsers/mrs/patterns.py``; the regexes and word lists live in
``axioms/shapes/*.yaml`` (read through :mod:`parsers.mrs.shapes.data`).
"""

from __future__ import annotations

import re

from parsers.mrs.shapes.data import shape_rx
from parsers.mrs.shapes.build import (
    MAX_SPLITS, MrsBuilder, answer, checked_np_name, clean_span, name_ep, name_ok, noun_phrase, np_name_splits,
    plain_np, quantifier, whose_is,
)

__all__ = [
    "of_name_ep", "shifted_np_names", "relative_be_readings", "relative_be_mrs", "how_many_readings", "how_many_verb_readings", "how_many"
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


def how_many_readings(q: str) -> list[str]:
    """Readings of ``q`` by the shape ``how_many`` (``axioms/shapes``); ``[]`` when it is not of that
    shape."""
    m = shape_rx("HOW_MANY").match(q) or shape_rx("HAS_HOW_MANY").match(q)
    if not m:
        return []
    if m.groupdict().get("verb"):
        return how_many_verb_readings(q, m)
    name_group = next(g for g in ("name", "doer", "pname", "place") if m.groupdict().get(g))
    spans = checked_np_name(q, m.span("np"), m.span(name_group))
    if spans is None:
        return []
    np, name = spans
    b = MrsBuilder()
    x_np, l_np = noun_phrase(b, q, np, "udef_q", (m.start("many"), np[1]))
    how_many(b, m, x_np, l_np)
    x_name = name_ep(b, q, name)
    if m.group("have"):
        return [b.main("_have_v_1", m.span("have"), x_name, x_np)]
    if m.group("prep"):
        # "How many NP are [there] for|of NAME?": the preposition relates the NP to the name
        # (as the ERG attaches a PP after "be there" to the NP); the copula says it exists.
        # Not "in", "on" ...: a located NP is no relational one ("residents in X", "conflicts
        # in the Korean War" read either way), and not an NP with its own "of" ("directors
        # of photography"), which would be read as one compound
        if shape_rx("OF_WORD").search(q[np[0]:np[1]]):
            return []
        b.ep(f"_{m.group('prep').casefold()}_p", m.span("prep"), l_np, ARG0=b.new("e"),
             ARG1=x_np, ARG2=x_name)
        top = b.new("h")
        b.ep("_be_v_there", (m.start("be"), m.end("there") if m.group("there") else m.end("be")),
             top, ARG0="e2", ARG1=x_np)
        return [b.text("e2", top)]
    if m.group("ppart"):
        # "How many doctoral advisors are determined for Gottfried Wilhelm Leibniz?": the
        # preposition's object is the name, the doer unexpressed (as in ``WH_PASSIVE``)
        top = b.new("h")
        b.ep(f"_{m.group('ppart').casefold()}/vbn_u_unknown", m.span("ppart"), top, ARG0="e2",
             ARG1=b.new("i"), ARG2=x_np)
        b.ep(f"_{m.group('pprep').casefold()}_p", m.span("pprep"), l_np, ARG0=b.new("e"), ARG1=x_np,
             ARG2=x_name)
        return [b.text("e2", top)]
    return [b.main(f"_{m.group('part').casefold()}/vbn_u_unknown", m.span("part"), x_name, x_np)]


def how_many_verb_readings(q: str, m: re.Match) -> list[str]:
    """"How many NP VERB in|on|at PLACE?" ("How many people live in Poland?"): the NP is
    counted and does the verb (an intransitive unknown-word verb), which the preposition
    places; PLACE is a name or "[the] NP2 of|for NAME" (one reading per split)."""
    np = clean_span(q, *m.span("np"))
    if not plain_np(q[np[0]:np[1]]):
        return []
    place = clean_span(q, *m.span("vname"))
    # a name, or each split of "[the] NP2 of|for NAME"
    places: list = [place] if name_ok(q[place[0]:place[1]]) else list(np_name_splits(q, m, "vname"))
    out = []
    for where in places:
        b = MrsBuilder()
        x_np, l_np = noun_phrase(b, q, np, "udef_q", (m.start("many"), np[1]))
        how_many(b, m, x_np, l_np)
        if isinstance(where[0], int):
            x_place = name_ep(b, q, where)
        else:
            np2, prep, name = where
            x_place, l_place = noun_phrase(b, q, np2, "_the_q")
            of_name_ep(b, q, x_place, l_place, prep, name)
        top = b.new("h")
        b.ep(f"_{m.group('verb').casefold()}/vb_u_unknown", m.span("verb"), top, ARG0="e2", ARG1=x_np)
        b.ep(f"_{m.group('vprep').casefold()}_p", m.span("vprep"), top, ARG0=b.new("e"), ARG1="e2",
             ARG2=x_place)
        out.append(b.text("e2", top))
    return out


def how_many(b: MrsBuilder, m: re.Match, x: str, label: str) -> None:
    """"How many" (groups ``how``, ``many``) on the noun phrase ``x`` (label ``label``), as
    the ERG writes it: the degree asked for measures "many" of ``x``."""
    x_deg, l_deg = b.new("x"), b.new("h")
    b.ep("abstr_deg", m.span("how"), l_deg, ARG0=x_deg)
    b.quantified("which_q", m.span("how"), x_deg, l_deg)
    e_many = b.new("e")
    b.ep("much-many_a", m.span("many"), label, ARG0=e_many, ARG1=x)
    b.ep("measure", (m.start("how"), m.end("many")), label, ARG0=b.new("e"), ARG1=e_many, ARG2=x_deg)
