"""The English words and closed-class predicates that grounding reads, as immutable values
loaded from ``axioms/words/grounding.yaml`` (each list documented and with examples there)."""

from __future__ import annotations

from types import MappingProxyType

from verifier.lexical import TITLES
from verifier.vocabulary import vocabulary

__all__ = ["ABSTRACT_WORDS", "PREPOSITION_ROLES", "NOUN_LIKE", "SKIP_ABSTRACT", "IMPLIED_KEYS",
           "YEAR_KEYS", "NAME_TITLES", "DETERMINERS", "DEFINITE_ARTICLE", "ROMAN", "ABSTRACT_SUFFIXES",
           "DOER_SUFFIXES", "AGENT_SUFFIXES", "POSSESSIVE_PRONOUNS", "THIRD_PERSON", "PATH_PREPOSITIONS",
           "INVERSION_PREPOSITIONS", "NUMBER_OF_WORDS", "AGENT_PREPOSITION", "NAME_PREDICATES",
           "NUMBER_PREDICATES", "YEAR_PREDICATE", "COMPOUND", "CARDINAL", "COPULA_PREFIX",
           "UNKNOWN_WORD", "PREPOSITION_SENSES", "PREFIXED_WORD"]

_WORDS = vocabulary("grounding")

#: wh-words and other abstract predicates -> the words they carry for matching
ABSTRACT_WORDS = _WORDS.mapping("abstract_words")
#: prepositions -> the semantic roles they contribute as context words
PREPOSITION_ROLES = _WORDS.mapping("preposition_roles")
#: the parts of speech of noun units (a code of the grammar, not a word)
NOUN_LIKE = frozenset({"n"})
#: abstract predicates of which no unit is made
SKIP_ABSTRACT = _WORDS.word_set("skipped_predicates")
#: keys of property names said by the question without a word ("ID")
IMPLIED_KEYS = _WORDS.word_set("implied_keys")
#: what a number that looks like a year also says
YEAR_KEYS = _WORDS.words("year_keys")
#: words of rank or office written before a surname
NAME_TITLES = (TITLES - _WORDS.word_set("titles_after_names")) | _WORDS.word_set("office_titles")
#: articles
DETERMINERS = _WORDS.word_set("determiners")
#: the article of "H of the M"
(DEFINITE_ARTICLE,) = _WORDS.words("definite_article")
#: Roman numerals -> their numbers ("ii" -> "2")
ROMAN = MappingProxyType({r: str(i) for i, r in enumerate(_WORDS.words("roman_numerals"), start=1)})
#: endings of nouns for abstract things, for doers, and of agent nouns (in order)
ABSTRACT_SUFFIXES = _WORDS.words("abstract_suffixes")
DOER_SUFFIXES = _WORDS.words("doer_suffixes")
AGENT_SUFFIXES = _WORDS.words("agent_suffixes")
#: third-person pronouns, and those of them that are possessives
POSSESSIVE_PRONOUNS = _WORDS.word_set("possessive_pronouns")
THIRD_PERSON = _WORDS.word_set("personal_pronouns") | POSSESSIVE_PRONOUNS
#: prepositions of a path ("flow through X")
PATH_PREPOSITIONS = _WORDS.word_set("path_prepositions")
#: prepositions of "H of M" for the name "M H"
INVERSION_PREPOSITIONS = _WORDS.words("inversion_prepositions")
#: the words that start a "number of" label
NUMBER_OF_WORDS = _WORDS.words("number_of")
#: the preposition of a passive's agent
(AGENT_PREPOSITION,) = _WORDS.words("agent_preposition")
#: predicates of the grammar that carry a proper name, and those that carry a number
NAME_PREDICATES = _WORDS.word_set("name_predicates")
NUMBER_PREDICATES = _WORDS.word_set("number_predicates")
#: the predicate of a year, and of a noun compound
(YEAR_PREDICATE,) = _WORDS.words("year_predicate")
(COMPOUND,) = _WORDS.words("compound_predicate")
#: the predicate of a number that counts a noun
(CARDINAL,) = _WORDS.words("cardinal_predicate")
#: the start of the copula's predicates
(COPULA_PREFIX,) = _WORDS.words("copula_prefix")
#: what the predicate of a word the grammar does not know holds
(UNKNOWN_WORD,) = _WORDS.words("unknown_word_marker")
#: the senses written after a preposition's predicate, in order
PREPOSITION_SENSES = _WORDS.words("preposition_senses")
#: the predicate of a prefix written apart from its word (group 1: the prefix)
PREFIXED_WORD = _WORDS.pattern("prefixed_word")
