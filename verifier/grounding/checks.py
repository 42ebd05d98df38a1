"""Checks of one name against one question unit: how much of a name a unit's words say
(:func:`coverage`, :func:`anchored_keys`), the doer of a verb (:func:`agent_base`), and the
cases where a name that matches is still not what the word means (:func:`split_name`,
:func:`head_elsewhere`, :func:`preposition_elsewhere`, :func:`doer_of_abstract`,
:func:`other_preposition`); which templates fit a unit and a class symbol
(:func:`kind_ok`, :func:`class_via_ok`)."""

from __future__ import annotations

from functools import lru_cache
from typing import Sequence

from verifier.axioms.model import Template
from verifier.grounding.symbols import CLASS_PROPS, SymbolUse
from verifier.grounding.units import Unit
from verifier.grounding.words import (
    ABSTRACT_SUFFIXES, AGENT_PREPOSITION, AGENT_SUFFIXES, DOER_SUFFIXES, PATH_PREPOSITIONS,
    PREPOSITION_SENSES, UNKNOWN_WORD,
)
from verifier.lexical import (
    PREPOSITIONS, STOPWORDS, NameEntry, content_keys, is_agentive, stem, words_of,
)
from verifier.logic import Term
from verifier.namespaces import wikidata_id

__all__ = ["kind_fits", "split_name", "head_elsewhere", "preposition_elsewhere", "doer_of_abstract",
           "by_score_then_id", "coverage", "agent_base", "doer_keys", "anchored_keys",
           "preposition_preds", "other_preposition", "class_via_ok", "kind_ok"]


def split_name(u: Unit, name: str) -> bool:
    """Whether ``u`` is a word the parser does not know that is one word of a longer proper
    ``name`` (every word capitalised): in "who is chelsea kane?" ``_kane/nn_u_unknown`` is
    part of a person's name, which names no class of the answer ("governor of texas" may:
    *Governor of Texas*)."""
    words = name.split()
    keys = set(content_keys(name))
    return (u.kind == "noun" and UNKNOWN_WORD in u.pred and len(words) >= 2
            and all(w[:1].isupper() for w in words)
            and not keys <= set(u.keys) and set(u.keys) <= keys)


def head_elsewhere(u: Unit, n: NameEntry, units: Sequence[Unit]) -> bool:
    """Whether an adjective or a passive verb matches only a modifier of a noun-shaped name
    whose head noun is the question's noun (or in its noun phrase: "the name of the money")
    for the adjective's (the passive's) subject ("used" of the alias *used money* of
    *currency* in "What money is used in Ukraine?"): the name speaks of that noun, the
    property's value, so the subject is no subject of the property (the active "What money
    does Ukraine use?" keeps the verb's subject as the subject; in "What city was X twinned
    with?" the subject X is no city)."""
    passive = (u.kind == "verb" and len(u.atom.args) > 2
               and not str(getattr(u.atom.args[1], "name", "")).startswith("x"))
    if not (u.kind == "adjective" or passive) or n.shape != "noun" or len(u.atom.args) < 2:
        return False
    ws = [w for w in words_of(n.name) if w not in STOPWORDS]
    if len(ws) < 2:
        return False
    head = set(content_keys(ws[-1]))
    subject = u.atom.args[2] if passive else u.atom.args[1]
    return (bool(head) and not head & set(u.keys)
            and any(v.kind in ("noun", "relational_noun") and v.var == subject
                    and head & (set(v.keys) | set(v.np_keys)) for v in units))


def preposition_elsewhere(u: Unit, n: NameEntry, names: Sequence[NameEntry],
                           question: str) -> bool:
    """Whether a verb that selects a preposition (``_die_v_of``) matches a name without one
    ("died", "dead") whose symbol writes that verb with another preposition ("died in") and
    never with the verb's: *place of death* says "died in", so "What did X die of?" does not
    ask for it (*cause of death*, "died of", does).  Only for a preposition the question
    writes, and not for "by" (*directed by* is the passive of *director*)."""
    if u.kind != "verb":
        return False
    from parsers.mrs import predicate_info

    prep = predicate_info(u.pred).sense
    ws = words_of(n.name)
    if (prep not in PREPOSITIONS or not ws or ws[-1] in PREPOSITIONS
            or prep not in words_of(question)):
        return False
    verb = stem(u.lemma)
    others = set()
    for m in names:
        mw = words_of(m.name)
        if len(mw) == 2 and stem(mw[0]) == verb and mw[1] in PREPOSITIONS and mw[1] != AGENT_PREPOSITION:
            if mw[1] == prep:
                return False
            others.add(mw[1])
    return bool(others)



def doer_of_abstract(u: Unit, n: NameEntry) -> bool:
    """Whether a noun for an abstract thing (a "-ment", "-tion" ... noun), or a noun whose
    noun phrase has one ("government system"), matches a one-word name for its doer by their
    shared stem ("government" and *head of government*'s alias "governor"): the doer is not
    the thing."""
    ws = words_of(n.name)
    if u.kind not in ("noun", "relational_noun") or len(ws) != 1:
        return False
    doer = ws[0].casefold()
    if doer.endswith(ABSTRACT_SUFFIXES) or not doer.endswith(DOER_SUFFIXES):
        return False
    # the noun itself, or a word of its noun phrase through which the name matched ("system"
    # in "government system")
    written = {u.lemma.casefold()} | {w.casefold() for w in words_of(u.text)}
    if doer in written or doer + "s" in written or doer.rstrip("s") in written:
        return False
    base = agent_base(stem(doer))
    return any(w.endswith(ABSTRACT_SUFFIXES) and stem(w) in (base, stem(doer)) for w in written)




def by_score_then_id(c: tuple) -> tuple[float, int, str]:
    """Sort key of scored candidates (id, score, name): best first, ties in id order."""
    return (-c[1], len(c[0]), c[0])



def coverage(name_keys: Sequence[str], keys: set[str]) -> tuple[float, int]:
    """The share of a name's keys that ``keys`` say (or as the agent noun of one), and how
    many they say."""
    if not name_keys:
        return 0.0, 0
    hit = sum(1 for k in name_keys if k in keys or agent_base(k) in keys)
    return hit / len(name_keys), hit


@lru_cache(maxsize=1 << 16)
def agent_base(k: str) -> str:
    """developer -> develop, inventor -> invent, director -> direct (matching only)."""
    for suf in AGENT_SUFFIXES:
        if k.endswith(suf) and len(k) > len(suf) + 3:
            return stem(k[: -len(suf)])
    return k


@lru_cache(maxsize=1 << 16)
def doer_keys(name: str) -> frozenset[str]:
    """The keys of a name's words that name a doer ("winner", "developer": :func:`is_agentive`),
    which a word of their verb may say ("won", "developed")."""
    return frozenset(stem(w) for w in words_of(name) if is_agentive(w))


def anchored_keys(n: NameEntry, direct: set[str]) -> frozenset[str]:
    """The keys of name ``n`` that a unit's own words say (or as the agent noun of a word:
    develop -> developer); not WordNet's relations ("number" is related to "phone")."""
    return frozenset(k for k in n.keys if k in direct or agent_base(k) in direct)



def preposition_preds(name: str, word: str) -> tuple[str, ...]:
    """The ERG predicates of the preposition that ends a property name right after ``word``
    ("enclave *within*" for "enclave": ``_within_p``, and the senses ``_within_p_loc`` /
    ``_state`` / ``_temp`` / ``_dir``), the binding of a template's ``$nameprep``; empty when
    the name ends otherwise or its word before the preposition is another ("educated at" for
    the noun "education", which is no educated-at thing)."""
    ws = words_of(name)
    w = word.casefold()
    # the word itself, or the end of a prefixed word the grammar splits ("extensive" in
    # "coextensive with")
    if len(ws) < 2 or ws[-1] not in PREPOSITIONS or not (
            ws[-2] in (w, w[:-1] if w.endswith("s") else w) or (len(w) >= 5 and ws[-2].endswith(w))):
        return ()
    base = f"_{ws[-1]}_p"
    return (base,) + tuple(f"{base}_{sense}" for sense in PREPOSITION_SENSES)


#: Prepositions of a path ("flow through X"): a verb with one of them is not read through a
def other_preposition(name: str, u: Unit, modifiers: set[tuple[str, Term]]) -> bool:
    """Whether the question puts a path preposition on the verb ``u`` ("Through which
    countries does the Yenisei flow?") while the property name ends in another preposition
    (*flows into*).  Other prepositions may paraphrase the name's ("built with" for *built
    from*)."""
    ws = words_of(name)
    if len(ws) < 2 or ws[-1] not in PREPOSITIONS:
        return False
    from parsers.mrs import predicate_info

    attached = {predicate_info(p).lemma for p, v in modifiers if v == u.var}
    return bool(attached & PATH_PREPOSITIONS) and ws[-1] not in attached


def class_via_ok(t: Template, sym: SymbolUse) -> bool:
    """A class template with ``properties`` reads objects of those properties; one without
    reads objects of instance of / subclass of."""
    via = wikidata_id(sym.via) if sym.via else None
    if t.properties:
        return via is not None and via in {wikidata_id(p) for p in t.properties}
    return via is None or via in CLASS_PROPS


def kind_ok(t: Template, u: Unit) -> bool:
    """Whether a template applies to a unit's kind (a relational noun is a noun)."""
    return kind_fits(t.match.kind, u.kind)


def kind_fits(template_kind: str, unit_kind: str) -> bool:
    """Whether a template's match kind applies to a unit kind (see :func:`kind_ok`)."""
    return template_kind in (unit_kind, "any") or (template_kind == "noun" and unit_kind == "relational_noun")

