"""The English words and closed-class predicates that grounding reads, as immutable values.

Placeholder: moved to ``axioms/words/grounding.yaml`` in the next step.
"""

from __future__ import annotations

from types import MappingProxyType

from verifier.lexical import TITLES

__all__ = ["ABSTRACT_WORDS", "PREPOSITION_ROLES", "NOUN_LIKE", "SKIP_ABSTRACT", "IMPLIED_KEYS",
           "YEAR_KEYS", "NAME_TITLES", "DETERMINERS", "ROMAN", "ABSTRACT_SUFFIXES", "DOER_SUFFIXES",
           "AGENT_SUFFIXES", "POSSESSIVE_PRONOUNS", "THIRD_PERSON", "PATH_PREPOSITIONS",
           "INVERSION_PREPOSITIONS", "DEFINITE_ARTICLE", "NUMBER_OF_WORDS", "AGENT_PREPOSITION"]

ABSTRACT_WORDS = MappingProxyType({
    "place_n": ("place", "location"), "time_n": ("time", "date", "year", "period"),
    "person": ("person", "human", "people"), "thing": (), "manner": (), "reason": ("reason", "cause"),
    "pron": (),
    "_do_v_1": ("activity",),
})
PREPOSITION_ROLES = MappingProxyType({
    "from": ("cause", "source", "origin"), "in": ("place", "location"),
    "at": ("place", "location"), "on": ("date", "day"), "during": ("time", "period"),
    "by": ("author", "creator"), "to": ("destination",), "for": ("purpose",),
    "since": ("start", "date"), "until": ("end", "date"), "after": ("follow",), "before": ("precede",),
})
NOUN_LIKE = frozenset({"n"})
SKIP_ABSTRACT = frozenset({"compound", "poss", "appos", "nominalization", "loc_nonsp", "card",
                           "yofc", "named", "generic_entity", "pron", "superl", "comp", "measure", "unknown",
                           "neg", "subord", "parg_d", "focus_d", "id", "ellipsis_ref", "mofy", "dofw", "dofm"})
IMPLIED_KEYS = frozenset({"id", "identifi"})
YEAR_KEYS = ("year", "time", "date", "point")
#: Words of rank or office written before a surname ("President Lincoln", "pres clinton"):
#: the titles of names (:data:`verifier.lexical.TITLES`) but those written after one, and
#: offices and their abbreviations.
NAME_TITLES = (TITLES - {"christ", "jr", "sr"}) | frozenset("""pres doctor gen governor gov senator sen
captain capt lt lieutenant colonel admiral tsar czar chancellor mayor judge justice professor prof
miss""".split())
DETERMINERS = frozenset({"the", "a", "an"})
DEFINITE_ARTICLE = "the"
ROMAN = MappingProxyType({r: str(i) for i, r in enumerate(
    "i ii iii iv v vi vii viii ix x xi xii xiii xiv xv xvi xvii xviii xix xx".split(), start=1)})
ABSTRACT_SUFFIXES = ("ment", "tion", "sion", "ance", "ence", "ship", "ism", "ity")
DOER_SUFFIXES = ("or", "er", "ist", "ant", "ent")
AGENT_SUFFIXES = ("er", "or", "ist", "ee", "e")
POSSESSIVE_PRONOUNS = frozenset({"his", "her", "its", "their"})
THIRD_PERSON = frozenset({"he", "she", "it", "they", "him", "them"}) | POSSESSIVE_PRONOUNS
PATH_PREPOSITIONS = frozenset({"through", "across", "along", "throughout", "via"})
INVERSION_PREPOSITIONS = ("of", "for")
NUMBER_OF_WORDS = ("number", "of")
AGENT_PREPOSITION = "by"
