"""Semantic consensus of candidate queries for one question (``docs/consensus.md``).

A text-to-SPARQL system often has several candidate queries for a question (beam search,
sampling, several models).  Whether independent candidates mean the same thing is strong
evidence of correctness.  Modules, one concept each:

* :mod:`~verifier.consensus.normalise`: candidates parsed once and keyed by their normal form;
* :mod:`~verifier.consensus.cluster`: clusters of equivalent candidates (normal forms, then the
  prover under a deterministic budget, with a cache of checks);
* :mod:`~verifier.consensus.evidence`: per-candidate evidence (share, weighted agreement ...);
* :mod:`~verifier.consensus.describe`: how two clusters differ, in words;
* :mod:`~verifier.consensus.answers`: which candidates' executions returned the same answers.

>>> c = cluster_candidates(["SELECT ?x WHERE { wd:Q1 wdt:P31 ?x }",
...                         "SELECT ?y WHERE { wd:Q1 wdt:P31 ?y }",
...                         "SELECT ?x WHERE { wd:Q1 wdt:P279 ?x }"])
>>> c.clusters
((0, 1), (2,))
>>> consensus_evidence(c)[2].difference
'1 of 3 candidates uses P279 where 2 use P31'
"""

from verifier.consensus.answers import answer_agreement, answer_plurality, same_answers, with_answers
from verifier.consensus.cluster import (DEFAULT_BUDGET, DEFAULT_MAX_REPRESENTATIVES, Clustering,
                                        EquivalenceCache, cluster_candidates, cluster_parsed)
from verifier.consensus.describe import ClusterSummary, difference
from verifier.consensus.evidence import (ConsensusEvidence, consensus_evidence,
                                         consensus_sentence, score_weights, with_verdicts)
from verifier.consensus.normalise import Candidate, normal_key, normalise

__all__ = ["Clustering", "EquivalenceCache", "cluster_candidates", "cluster_parsed",
           "DEFAULT_BUDGET", "DEFAULT_MAX_REPRESENTATIVES", "ClusterSummary", "difference",
           "ConsensusEvidence", "consensus_evidence", "consensus_sentence", "score_weights",
           "with_verdicts",
           "Candidate", "normal_key", "normalise", "answer_agreement", "answer_plurality", "same_answers",
           "with_answers"]
