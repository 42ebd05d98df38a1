"""Check: names of the question the query uses no item for."""

from __future__ import annotations

from typing import Collection

from verifier.grounding import Grounder, Grounding, Unit, query_symbols
from verifier.lexical import STOPWORDS, words_of
from verifier.query import Query
from verifier.deductive.checks.mentions import REQUEST_WORDS, covered_mentions, letters, not_names
from verifier.deductive.checks.context import CheckContext

__all__ = ["check", "unlinked_names"]


def unlinked_names(grounder: Grounder, grounding: Grounding, units: list[Unit], query: Query,
                    question: str, explained: Collection[str] = ()) -> list[str]:
    """Proper names of the question that no link uses, though no item label is written
    exactly as the question writes them (which :func:`ignored_names` needs): any such name
    when the query names no item at all, only classes, properties and values ("what countries
    do people speak portuguese?" answered with every country, ``?x wdt:P31 wd:Q6256``), and
    names of two words or more when it names items ("who plays riley finn on buffy the
    vampire slayer?" answered with the whole cast).  A name that a link uses, or names in
    part, does not count (a string the query tests, a class, "antietam creek" where *Battle
    of Antietam* is linked)."""
    if not question or not any(c.islower() for c in question):
        return []
    linked = {id(l.unit) for l in grounding.links}
    linked_vars = {l.unit.var for l in grounding.links}
    names = [u for u in units if u.kind == "named" and id(u) not in linked and u.var not in linked_vars]
    if not names:
        return []
    # with items in the query one word may be a part of a name the parser split, or a word
    # it took for a name
    min_words = 2 if any(s.kind == "item" for s in query_symbols(query)) else 1
    names = [u for u in names if len((u.text or u.lemma).split()) >= min_words]
    if not names:
        return []
    in_dates, in_filters, first = not_names(question)
    covered = covered_mentions(grounder, grounding)
    # ... and the words of the linked properties' names ("URL", an alias of *official
    # website*, is no name of an item: "items with an official website URL that ...")
    covered += [n.name.casefold() for l in grounding.links if l.symbol.kind == "property"
                for n in grounder.names_of(l.symbol)]
    covered_words = {w for c in covered for w in words_of(c) if w not in STOPWORDS}
    out: list[str] = []
    for u in names:
        text = (u.text or u.lemma).strip()
        low = text.casefold()
        if (len(letters(text)) < 3 or any(ch.isdigit() for ch in text)  # a value ("100 degrees Celsius")
                or low in explained or low in in_dates or low in in_filters
                or (low == first and first in REQUEST_WORDS) or any(low in c for c in covered)
                or set(words_of(text)) & covered_words):
            continue
        if f"'{text}'" not in out:
            out.append(f"'{text}'")
    return out


def check(ctx: CheckContext) -> str | None:
    """Names of the question the query uses no item for."""
    unnamed = unlinked_names(ctx.grounder, ctx.grounding, list(ctx.units), ctx.query, ctx.question, ctx.explained)
    return ("the query uses no item for what the question names: " + ", ".join(unnamed)) if unnamed else None
