"""Check: names of the question the query ignores."""

from __future__ import annotations

import re
from typing import Collection, Sequence

from verifier.grounding import Grounder, Grounding, Unit
from verifier.lexical import STOPWORDS, NameEntry, content_keys, words_of
from verifier.deductive.checks.mentions import REQUEST_WORDS, covered_mentions, letters, not_names
from verifier.deductive.checks.context import CheckContext

__all__ = ["check", "ignored_names"]


#: Words that questions typed into a search engine end with ("what language do they speak in
#: iceland wikipedia?"): no part of a name before them.
_SEARCH_NOISE = frozenset({"wikipedia", "wiki", "yahoo", "google"})


def ignored_names(grounder: Grounder, grounding: Grounding, units: list[Unit],
                   question: str = "", explained: Collection[str] = ()) -> list[str]:
    """Proper names of the question that name a KG item exactly but that no link of the query
    uses: the query drops what the question says about them.  Also a name's last words after a
    title ("emperor palpatine": *Palpatine*), and an unknown word that a preposition relates
    written as an item's capitalised label ("in london": *London*).  A month in a date ("on
    December 12, 1991", "in December of 1981") is part of a value, not a name; ``explained``
    names are accounted for otherwise ("English" in "no English label", by the negation's KG
    reading)."""
    if question and not any(c.islower() for c in question):
        return []  # in a question written in capitals every word may be parsed as a name
    in_dates, in_filters, first = not_names(question)
    linked = {id(l.unit) for l in grounding.links}
    linked_vars = {l.unit.var for l in grounding.links}
    covered = covered_mentions(grounder, grounding)
    out = []
    seen_text: set[str] = set()
    # what prepositions relate things to ("in london"): an unknown word there is a place's name
    prep_objects = {u.atom.args[2] for u in units if u.kind == "preposition" and len(u.atom.args) >= 3}
    for u in units:
        # an unknown word heading a phrase of several words is read like a name ("emperor
        # palpatine" as the noun "palpatine" with the compound "emperor"), for its last words
        unknown = u.kind == "noun" and "_u_unknown" in u.pred
        unknown_head = (unknown and len((u.text or "").split()) >= 2
                        and words_of(u.text or "")[-1:] == words_of(u.lemma)[-1:])
        unknown_object = unknown and not unknown_head and u.var in prep_objects and u.lemma.isalpha()
        if (u.kind != "named" and not unknown_head and not unknown_object) or id(u) in linked\
                or u.var in linked_vars or u.lemma.casefold() in explained:
            continue
        text = (u.text or u.lemma).strip()
        if not text or text.casefold() in seen_text or len(text) < 3 or text.casefold() in in_dates:
            continue
        if text.casefold() in in_filters or (text.casefold() == first and first in REQUEST_WORDS):
            continue
        if any(text.casefold() in c for c in covered):
            continue  # part of a linked mention ("Andrew" in "Andrew Johnson")
        if _after_linked_item(text, question, grounding):
            continue  # the region after a place, which it only disambiguates ("miami florida")
        if not unknown_head:  # its words stay for the labels written across words, below
            seen_text.add(text.casefold())
        if unknown_object:
            exact = _capitalised_labels(grounder, text)
        elif unknown_head:
            exact = []
        else:
            exact = [n for n in grounder.labels.candidates(set(u.np_keys), kind="item")
                     if set(n.keys) == set(u.np_keys) and n.is_label
                     # an abbreviation names what it spells letter for letter: "U.S." is not
                     # "A.U.S.A." (whose "a" is a stop word)
                     and ("." not in text or letters(n.name) == letters(text))]
        if not exact and len(words := text.split()) >= 2:
            # a title or a description before a name ("emperor palpatine"): the last word, or
            # words, written as a capitalised label of an item
            for k in range(1, len(words)):
                tail = " ".join(words[k:])
                if len(letters(tail)) < 5:
                    break
                if words[k].casefold() in STOPWORDS or tail.casefold() in _SEARCH_NOISE:
                    continue
                exact = _capitalised_labels(grounder, tail)
                if exact:
                    text = tail
                    break
        if exact:
            out.append(_named_item(text, exact, grounder))
    return out + _ignored_written_labels(grounder, units, question, linked, covered, seen_text)


def _after_linked_item(text: str, question: str, grounding: Grounding) -> bool:
    """Whether the question writes the name ``text`` right after the words of a linked item,
    with nothing or a comma between ("what to do in miami florida?", "the highest mountain in
    Saxony, Germany"): a region written to say which place is meant, not a further
    constraint."""
    q = " ".join(question.casefold().split())
    t = text.casefold()
    for l in grounding.links:
        if l.symbol.kind != "item" or not l.unit.text:
            continue
        w = " ".join(l.unit.text.casefold().split())
        if len(w) >= 3 and w != t and re.search(re.escape(w) + r",?\s+" + re.escape(t) + r"\b", q):
            return True
    return False


def _capitalised_labels(grounder: Grounder, text: str) -> list[NameEntry]:
    """Items whose label, capitalised, ``text`` writes letter for letter ("london": *London*)."""
    keys = set(content_keys(text))
    return [n for n in grounder.labels.candidates(keys, kind="item")
            if n.is_label and set(n.keys) == keys and n.name[:1].isupper() and letters(n.name) == letters(text)]


#: Longest item label (in words) looked for in the question's text.
_MAX_LABEL_WORDS = 5


def _ignored_written_labels(grounder: Grounder, units: list[Unit], question: str, linked: set[int],
                            covered: list[str], seen: set[str]) -> list[str]:
    """Item labels of two or more words written in the question around a name or an unknown
    word that no link of the query uses: the reading split the name ("what movies is molly
    ringwald in?": "Molly" a name, "ringwald" an unknown adjective), so no unit names the
    item, yet the question does.  Only spans of such words count: a phrase with a known word
    ("public library", "first-class city") is a description the query may express otherwise."""
    namey = {w for u in units if id(u) not in linked and (u.kind == "named" or "_u_unknown" in u.pred)
             for w in words_of(u.text or u.lemma)}
    covered = [" ".join(words_of(c)) for c in covered]
    words = words_of(question)
    out = []
    for n in range(_MAX_LABEL_WORDS, 1, -1):
        for i in range(len(words) - n + 1):
            span = words[i:i + n]
            text = " ".join(span)
            if not namey.issuperset(span) or span[0] in STOPWORDS or span[-1] in STOPWORDS or text in seen\
                    or any(text in c or c in text for c in covered if c):
                continue
            exact = [e for e in grounder.labels.labels_written_as(text)
                     if grounder.labels.kinds.get(e.symbol) in ("item", "class")]
            if exact:
                seen.add(text)
                out.append(_named_item(text, exact, grounder))
    return out


def _named_item(text: str, entries: Sequence[NameEntry], grounder: Grounder) -> str:
    """``'text' (Q.. label)`` for the item a question's text names exactly (the shortest,
    then lowest, identifier when several share the label)."""
    sid = sorted({e.symbol for e in entries}, key=lambda x: (len(x), x))[0]
    return f"'{text}' ({sid} {grounder.label(sid)})"


def check(ctx: CheckContext) -> str | None:
    """Names of the question that the query ignores."""
    ignored = ignored_names(ctx.grounder, ctx.grounding, list(ctx.units), ctx.question, ctx.explained)
    return ("the query ignores what the question names: " + "; ".join(ignored)) if ignored else None
