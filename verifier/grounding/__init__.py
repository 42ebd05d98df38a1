"""Lexical grounding: link the predicates of a question reading to the KG symbols of a query.

For one reading ``T`` of the question (a :class:`parsers.mrs.QuestionLogic`) and one query
(:class:`verifier.query.Query`):

1. :func:`question_units` lists the predications that can name something: nouns, verbs,
   adjectives, names (with the surface text of their noun phrase), numbers, and the
   wh-words (``where`` -> place, ``when`` -> time, ``who`` -> person)
   (:mod:`verifier.grounding.units`); :func:`query_symbols` the query's symbols
   (:mod:`verifier.grounding.symbols`).
2. :class:`Grounder` scores every symbol of the query against every unit, from the domain
   lexicons (``axioms/lexicons``), the KG labels and aliases (:class:`~verifier.lexical.LabelIndex`)
   and, when built, WordNet synonyms and derivations.  Each accepted link records why it was
   made and its score, and the best alternative symbols for the same words (for diagnosis:
   a query symbol beaten by an alternative is reported, not linked).  A grounder keeps no
   state of a call (:class:`GroundingContext`), so one instance serves concurrent calls.
3. Templates are chosen from the pack by the unit's kind, the symbol's kind and the shape of
   the matched name, which fixes the direction of a property (:mod:`verifier.grounding.templates`);
   each instantiated axiom is named and traceable to its template and its lexicon entry or
   label (:mod:`verifier.grounding.links`).

The English words grounding reads are data (``axioms/words/grounding.yaml``, read by
:mod:`verifier.grounding.words`).
"""

from verifier.grounding.context import GroundingContext
from verifier.grounding.grounder import CHARACTER_ROLE, Grounder, Misspellings
from verifier.grounding.links import LINK_SOURCES, Axiom, Grounding, Link, instantiate
from verifier.grounding.numbers import number_in_text, number_value, with_written_sign
from verifier.grounding.symbols import CLASS_PROPS, SymbolUse, query_symbols
from verifier.grounding.units import Unit, np_spans, question_units, reading_verbs

__all__ = ["Unit", "Link", "LINK_SOURCES", "Axiom", "Grounding", "Grounder", "GroundingContext", "Misspellings",
           "question_units", "query_symbols", "reading_verbs", "SymbolUse", "instantiate", "np_spans",
           "number_in_text", "number_value", "with_written_sign", "CHARACTER_ROLE", "CLASS_PROPS"]
