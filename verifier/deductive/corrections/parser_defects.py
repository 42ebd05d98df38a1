"""Correction: "ID" written for Idaho read as the noun *ID*, and the possessive "'s" parsed as an
unknown verb read as ``poss``.

A pass of :data:`verifier.deductive.corrections.CORRECTIONS`: a plain function over a reading
(returns the reading itself or a :class:`verifier.deductive.reading.ReadingView`)."""

from __future__ import annotations

import re

from verifier.logic import Atom, Formula, Literal, Term, Var, atoms, exists, free_vars, map_atoms
from parsers.mrs import predicate_info
from verifier.deductive.reading import ReadingView

__all__ = ["correct_parser_defects"]


# Names the ERG gives to an all-capital abbreviation that KG questions use as a common noun:
# (name, written form) -> the noun predicate read instead ("What is the KMDb person ID for
# Jeff Bridges?": the ERG reads "ID" as the state of Idaho).
_ABBREVIATED_NOUNS = {("Idaho", "ID"): "_id_n_of"}


# The possessive "'s" read as an unknown verb ("Jupiter's magnitude": the tagger took "'s" for
# "is"; parses with an older lexicon do this): ARG1 is the possessor, ARG2 the possessed.
_UNKNOWN_POSSESSIVE = re.compile(r"_['’]s/vbz_u_unknown")


def correct_parser_defects(reading, question: str):
    """Replace ``named(x, "Idaho")`` written as "ID" (see :data:`_ABBREVIATED_NOUNS`) by the
    noun ``_id_n_of(x, i)``, and the possessive "'s" parsed as an unknown verb
    (:data:`_UNKNOWN_POSSESSIVE`) by ``poss``.  Returns the reading or a view of it."""
    m = getattr(reading, "mrs", None)
    if m is None or not question:
        return reading
    nouns: dict[tuple[str, str], str] = {}
    for ep in m.eps:
        if ep.pred == "named" and ep.carg and 0 <= ep.cfrom < ep.cto <= len(question):
            written = question[ep.cfrom:ep.cto].strip(" \t?.,;:!'\"")
            noun = _ABBREVIATED_NOUNS.get((ep.carg, written))
            arg0 = dict(ep.args).get("ARG0")
            if noun and arg0:
                nouns[(arg0, ep.carg)] = noun
    possessive = any(_UNKNOWN_POSSESSIVE.fullmatch(ep.pred) for ep in m.eps)
    if not nouns and not possessive:
        return reading
    after = _possessed_after(m) if possessive else {}
    # "What is X's Z?": the copula's non-verbal complement is that possessive's event; what is
    # asked for is the possessed Z (an identity copula with it)
    possessed: dict[str, Term] = {}
    if possessive:
        for a in atoms(reading.formula):
            if (len(a.args) == 3 and _UNKNOWN_POSSESSIVE.fullmatch(a.pred)
                    and isinstance(a.args[0], Var)):
                possessed[a.args[0].name] = a.args[2]

    def swap(a: Atom) -> Formula:
        if a.pred == "named" and len(a.args) == 2 and isinstance(a.args[0], Var)\
                and isinstance(a.args[1], Literal):
            noun = nouns.get((a.args[0].name, a.args[1].lexical))
            if noun:
                i = Var(f"i_{a.args[0].name}_abbr")
                return exists([i], Atom(noun, (a.args[0], i)))
        if (possessive and len(a.args) == 3 and _UNKNOWN_POSSESSIVE.fullmatch(a.pred)
                and all(isinstance(t, Var) and t.name.startswith("x") for t in a.args[1:])):
            return Atom("poss", (a.args[0], a.args[2], a.args[1]))  # possessed, possessor
        if (after and len(a.args) == 3 and _UNKNOWN_POSSESSIVE.fullmatch(a.pred)
                and isinstance(a.args[0], Var) and a.args[0].name in after
                and isinstance(a.args[1], Var) and a.args[1].name.startswith("x")
                and isinstance(a.args[2], Var) and a.args[2].name.startswith("i")):
            return Atom("poss", (a.args[0], Var(after[a.args[0].name]), a.args[1]))
        if (possessed and a.pred == "_be_v_nv" and len(a.args) == 3
                and isinstance(a.args[1], Var) and a.args[1].name.startswith("x")
                and isinstance(a.args[2], Var) and a.args[2].name in possessed):
            return Atom("_be_v_id", (a.args[0], a.args[1], possessed[a.args[2].name]))
        return a

    formula = map_atoms(reading.formula, swap)
    if after and free_vars(formula) - free_vars(reading.formula):
        after = {}  # the possessed noun is out of the possessive's scope: left as it is
        formula = map_atoms(reading.formula, swap)
    return ReadingView.of(reading, formula, set())


def _possessed_after(m) -> dict[str, str]:
    """The possessive "'s" parsed as an unknown verb without its possessed noun
    (``_'s/vbz_u_unknown(e, X, i)``: "What space agency's official language is Hebrew?"), by
    its event: the noun written after it, the head of its compound ("language"; in "X's film
    director", "director")."""
    nouns = sorted((ep for ep in m.eps if not ep.is_quantifier and ep.iv and ep.iv.startswith("x")
                    and ep.cfrom >= 0 and (info := predicate_info(ep.pred)).pos == "n"
                    and not info.is_abstract), key=lambda ep: ep.cfrom)
    heads = {ep.arg("ARG2"): ep.arg("ARG1") for ep in m.eps if ep.pred == "compound"}
    out: dict[str, str] = {}
    for ep in m.eps:
        if not (_UNKNOWN_POSSESSIVE.fullmatch(ep.pred) and (ep.arg("ARG2") or "").startswith("i")):
            continue
        first = next((n for n in nouns if n.cfrom >= ep.cto), None)
        if first is None or ep.iv is None:
            continue
        head, seen = first.iv, set()
        while head in heads and head not in seen:
            seen.add(head)
            head = heads[head]
        out[ep.iv] = head
    return out
