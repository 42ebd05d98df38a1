"""The deductive check ``axioms, T(question) |= G(sparql)`` and its verdict.

For each translated reading of the question (up to a cap):

* **soundness**: the instantiated axioms and ``T`` entail ``G`` with the question's answer
  variable aligned to the query's (for COUNT the counted variable, for superlatives the
  ordered one);
* **completeness**: ``G`` entails ``T_kg``, the KG consequences of ``T`` (computed by matching
  the axioms' antecedents against ``T``): a query that silently drops a constraint is
  ``weaker``;
* **intent**: yes/no <-> ASK, how many <-> COUNT, superlative <-> ORDER BY + LIMIT,
  comparative <-> a FILTER comparison.

Verdicts: ``faithful``, ``weaker``, ``unsupported`` (the query asserts what the question does
not support; the atoms are listed), ``intent_mismatch``, ``unknown`` (no parse, timeout,
unsupported construct).  A query faithful to one reading of an ambiguous question is faithful;
the result says which reading.

The package is a forward pipeline of one-concept stages with frozen hand-offs
(``docs/architecture.md``, "The deductive pipeline"): :mod:`.results`, :mod:`.reading`,
:mod:`.prepared`, :mod:`.corrections`, :mod:`.views`, :mod:`.rules`, :mod:`.premises`,
:mod:`.consequences`, :mod:`.alignment`, :mod:`.problem`, :mod:`.checks`, :mod:`.decide`, :mod:`.diagnose`,
:mod:`.explain`, :mod:`.pipeline`.  No stage imports a later one (:data:`STAGES`).
"""

from __future__ import annotations

from verifier.deductive.alignment import SUPERLATIVE_VALUE
from verifier.deductive.consequences import kg_consequences, negation_kg_readings
from verifier.deductive.rules import CORRECTIONS, VIEWS, kind_of_view, known_verbs
from verifier.deductive.corrections.repeated_nouns import distinguish_repeated
from verifier.deductive.checks import PRE_PROOF, PRECEDENCE
from verifier.deductive.pipeline import check_reading, check_readings
from verifier.deductive.results import VERDICT_ORDER, AtomDiagnosis, DeductiveResult, ReadingResult
from verifier.deductive.views import KIND_OF, attachment_view

__all__ = [
    "DeductiveResult", "ReadingResult", "AtomDiagnosis", "check_readings", "check_reading", "VERDICT_ORDER",
    "SUPERLATIVE_VALUE", "kg_consequences", "negation_kg_readings", "KIND_OF", "kind_of_view",
    "attachment_view", "known_verbs", "distinguish_repeated", "CORRECTIONS", "VIEWS", "PRE_PROOF",
    "PRECEDENCE", "STAGES",
]

#: The stages in pipeline order (modules under ``verifier.deductive``): a stage imports only
#: stages before it (``tests/test_deductive_stages.py`` checks it).
STAGES = (
    "results", "reading", "prepared", "corrections", "views", "rules", "premises", "consequences",
    "alignment", "problem", "checks", "decide", "diagnose", "explain", "pipeline",
)

# the spellings of these names before the package existed (deductive.py), for callers outside
# the package that still use them
_kind_of_view, _attachment_view, _known_verbs, _distinguish_repeated = (
    kind_of_view, attachment_view, known_verbs, distinguish_repeated)
