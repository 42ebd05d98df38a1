"""Word lists and helpers shared by the checks about what the question names."""

from __future__ import annotations

import re

from verifier.grounding import Grounder, Grounding
from parsers.mrs.question import REQUEST_VERBS
from verifier.lexical import content_keys, stem, words_beyond

__all__ = [
    "REQUEST_WORDS", "letters", "not_names", "covered_mentions", "GENERIC_NOUNS",
    "GENERIC_KEYS",
]


_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august",
           "september", "october", "november", "december")


_DATE_WITH_MONTH = re.compile(
    r"\b(?:\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<a>%s)|(?P<b>%s)\s+(?:the\s+)?(?:of\s+)?\d)"
    % ("|".join(_MONTHS), "|".join(_MONTHS)), re.IGNORECASE)


# the words of a name restriction, with the word or letter it spells (see :data:`_NAME_TEST`)
_SPELLING = re.compile(r"\b(?:start|starts|starting|begin|begins|beginning|end|ends|ending)\s+with\s+"
                       r"(?:the\s+|an?\s+)?(?:letter|alphabet|word)?\s*\S+"
                       r"|\b(?:contain|contains|containing|has|have|with)\s+the\s+word\s+\S+(?:\s+in\s+(?:its|their|the)\s+name)?"
                       r"|\b(?:in|of)\s+(?:its|their|his|her)\s+name\b", re.I)


REQUEST_WORDS = frozenset(p.split("_")[1] for p in REQUEST_VERBS)  # name, tell, give, ...


def letters(text: str) -> str:
    """The letters and digits of ``text``, lower case ("U.S." -> "us")."""
    return re.sub(r"[^0-9a-z]", "", text.casefold())


def not_names(question: str) -> tuple[set[str], str, str]:
    """What a question writes that a parser may read as a name but that names nothing: the
    months of its dates ("on December 12, 1991"), the words that say how a label is spelt
    ("starts with the letter S", "contains the word war in their name", joined in one string)
    and its first word (an imperative such as "Name the ..." when in :data:`REQUEST_WORDS`)."""
    in_dates = {(m.group("a") or m.group("b")).casefold() for m in _DATE_WITH_MONTH.finditer(question)}
    in_filters = " ".join(m.group(0).casefold() for m in _SPELLING.finditer(question))
    first = question.split()[0].strip(",:;").casefold() if question.split() else ""
    return in_dates, in_filters, first


def _name_inside(name: str, text: str) -> bool:
    """Whether the noun phrase ``text`` writes all of ``name`` and more words than it and its
    titles ("indianapolis indiana" for *Indiana*; not "sir isaac newton" for *Isaac Newton*,
    nor "Christopher A. Pissarides" for *Christophoros A. Pissarides*, a near spelling)."""
    keys = set(content_keys(name))
    return bool(keys) and keys <= set(content_keys(text)) and bool(words_beyond(text, keys))


def covered_mentions(grounder: Grounder, grounding: Grounding) -> list[str]:
    """What the links account for, casefolded: the linked words (of an item, those its name
    has) and the names they matched, and every name of a linked class (the name "United
    States" in the alias "United States states" of *U.S. state*: "the largest state in the
    United States")."""
    covered = [t.casefold() for l in grounding.links for t in (l.unit.text, l.name) if t
               # an item accounts for the words of its noun phrase that its name has, not for
               # another name compounded with it ("indianapolis" in "indianapolis indiana"
               # linked to *Indiana*, "jordan" in "the jordan river" linked to *river*)
               and not (t is l.unit.text and l.symbol.kind == "item" and _name_inside(l.name or "", t))]
    return covered + [n.name.casefold() for l in grounding.links if l.symbol.kind == "class"
                      for n in grounder.names_of(l.symbol)]


#: Nouns that say nothing about what kind of thing the answer is, or that name a value (a
#: date, a number) rather than a class of items.
GENERIC_NOUNS = frozenset({"thing", "one", "person", "people", "individual", "someone", "somebody",
                            "something", "entity", "item", "name", "example", "kind", "type", "sort",
                            "instance", "object", "answer", "all", "everything", "anything", "year", "date",
                            "time", "day", "month", "century", "decade", "period", "number",
                            "amount", "value", "count", "quantity", "total"})


GENERIC_KEYS = frozenset(stem(w) for w in GENERIC_NOUNS)
