"""Consensus evidence of each candidate: how many of the other candidates mean the same.

:func:`consensus_evidence` turns a :class:`~verifier.consensus.cluster.Clustering` (and,
optionally, the generator's scores of the candidates and KG labels) into one
:class:`ConsensusEvidence` per candidate.

Generator scores (``scores``) are read as follows: when every score lies in ``[0, 1]`` they
are probabilities and are normalised by their sum; otherwise (log-probabilities, such as the
``sequences_scores`` of a beam search, or logits) they go through a softmax.  A candidate's
``weighted_agreement`` is the normalised score mass of its cluster.  Missing or non-finite
scores give ``weighted_agreement = None`` for every candidate.

Cluster-level evidence: ``largest_other`` (the size of the largest other cluster) is always
there; :func:`with_verdicts` adds, from each candidate's deductive decision and score (once
they are known: :meth:`verifier.api.Verifier.verify_candidates` computes them first), how
many *other* members of its cluster the deductive check accepted, how many candidates of the
other clusters it accepted, and the best deductive score in its cluster.

>>> from verifier.consensus.cluster import Clustering
>>> c = Clustering(((0, 1), (2,)), n_candidates=3)
>>> ev = with_verdicts(consensus_evidence(c), ["reject", "accept", "reject"], [0.2, 0.9, 0.1])
>>> ev[0].cluster_accepted, ev[0].elsewhere_accepted, ev[0].cluster_best_score, ev[0].largest_other
(1, 0, 0.9, 1)
>>> ev[2].cluster_accepted, ev[2].elsewhere_accepted
(0, 1)
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, replace
from typing import Any, Sequence

from verifier.consensus.cluster import Clustering
from verifier.consensus.describe import difference

__all__ = ["ConsensusEvidence", "consensus_evidence", "score_weights", "consensus_sentence",
           "with_verdicts"]


@dataclass(frozen=True)
class ConsensusEvidence:
    """The consensus evidence of one candidate (``Verdict.signals["consensus"]`` holds
    :meth:`to_dict`).

    ``share``: size of its cluster / number of candidates; ``n_candidates``; ``n_clusters``;
    ``weighted_agreement``: the generator-score mass of its cluster (module documentation),
    ``None`` without scores; ``cluster_index``: its cluster's position (0 = largest);
    ``cluster_size``; ``difference``: how its cluster differs from the largest other one, in
    words; ``undecided``: undecided pairs involving its cluster; ``parsed``: whether the query
    parses; ``others_share``: the share of the *other* candidates in its cluster,
    ``(cluster_size - 1) / (n_candidates - 1)`` (0 for a lone query whatever the number of
    candidates, so comparable across questions; ``None`` with a single candidate);
    ``largest_other``: the size of the largest *other* cluster (0 when there is none), so
    ``cluster_size - largest_other`` is the margin over the runner-up; from the deductive
    verdicts (:func:`with_verdicts`, ``None`` until they are known): ``cluster_accepted``,
    the other members of its cluster the deductive check accepted, ``elsewhere_accepted``,
    the candidates of the other clusters it accepted, ``cluster_best_score``, the best
    deductive score in its cluster (itself included); ``answer_agreement``: the share of the
    other candidates whose execution returned the same answers
    (:func:`verifier.consensus.answers.with_answers`; ``None`` when the candidates were not
    executed or its own execution found no answer); ``answer_plurality``: whether its answers
    are the most common non-empty answers among the candidates (``None`` likewise)."""

    share: float
    n_candidates: int
    n_clusters: int
    weighted_agreement: float | None
    cluster_index: int
    difference: str
    undecided: int
    cluster_size: int = 1
    parsed: bool = True
    others_share: float | None = None
    largest_other: int = 0
    cluster_accepted: int | None = None
    elsewhere_accepted: int | None = None
    cluster_best_score: float | None = None
    answer_agreement: float | None = None
    answer_plurality: bool | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        d = asdict(self)
        d["share"] = round(self.share, 4)
        if self.others_share is not None:
            d["others_share"] = round(self.others_share, 4)
        if self.weighted_agreement is not None:
            d["weighted_agreement"] = round(self.weighted_agreement, 4)
        if self.cluster_best_score is not None:
            d["cluster_best_score"] = round(self.cluster_best_score, 4)
        if self.answer_agreement is not None:
            d["answer_agreement"] = round(self.answer_agreement, 4)
        return d


def score_weights(scores: Sequence[float | None] | None) -> list[float] | None:
    """Weights summing to 1 from generator scores (module documentation), or ``None``."""
    if scores is None or not len(scores):
        return None
    try:
        xs = [float(s) for s in scores]  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    if not all(math.isfinite(x) for x in xs):
        return None
    if all(0.0 <= x <= 1.0 for x in xs):
        total = sum(xs)
        return [x / total for x in xs] if total > 0 else [1.0 / len(xs)] * len(xs)
    m = max(xs)
    ex = [math.exp(x - m) for x in xs]
    total = sum(ex)
    return [e / total for e in ex]


def consensus_evidence(clustering: Clustering, scores: Sequence[float | None] | None = None,
                       labels: Any = None) -> tuple[ConsensusEvidence, ...]:
    """One :class:`ConsensusEvidence` per candidate, in candidate order.  ``scores``: the
    generator's score of each candidate (module documentation); ``labels``: a
    :class:`verifier.lexical.LabelIndex` or a mapping ``id -> label`` naming the identifiers of
    the difference sentence."""
    n = clustering.n_candidates or sum(len(c) for c in clustering.clusters)
    if scores is not None and len(scores) != n:
        raise ValueError(f"{len(scores)} scores for {n} candidates")
    weights = score_weights(scores)
    clusters = clustering.clusters
    n_clusters = len(clusters)
    undecided = [0] * n_clusters
    where = {i: ci for ci, members in enumerate(clusters) for i in members}
    for a, b in clustering.undecided:
        undecided[where[a]] += 1
        undecided[where[b]] += 1
    unparsed = set(clustering.unparsed)
    sentences = []
    for ci, members in enumerate(clusters):
        other = 1 if ci == 0 else 0
        if other < n_clusters and clustering.summaries:
            sentences.append(difference(clustering.summaries[ci], len(members), clustering.summaries[other],
                                        len(clusters[other]), n, labels))
        elif clustering.summaries:
            sentences.append(difference(clustering.summaries[ci], len(members), None, 0, n, labels))
        else:
            sentences.append("")
    for ci, members in enumerate(clusters):
        if members[0] in clustering.uncompared and sentences[ci]:
            sentences[ci] += " (not compared by the prover: beyond the most frequent normal forms)"
    sizes = [len(m) for m in clusters]
    out = []
    for i in range(n):
        ci = where[i]
        size = sizes[ci]
        wa = sum(weights[j] for j in clusters[ci]) if weights is not None else None
        other = max((s for k, s in enumerate(sizes) if k != ci), default=0)
        out.append(ConsensusEvidence(size / n if n else 0.0, n, n_clusters, wa, ci, sentences[ci],
                                     undecided[ci], size, i not in unparsed,
                                     (size - 1) / (n - 1) if n > 1 else None, other))
    return tuple(out)


def with_verdicts(evidence: Sequence[ConsensusEvidence], decisions: Sequence[str | None],
                  scores: Sequence[float | None] | None = None) -> tuple[ConsensusEvidence, ...]:
    """``evidence`` (one per candidate, in candidate order, as :func:`consensus_evidence`
    returns it) with the cluster-level deductive evidence (module documentation):
    ``decisions`` are the candidates' deductive decisions (``accept`` / ``reject`` /
    ``abstain``, ``None`` when unknown), ``scores`` their deductive scores."""
    n = len(evidence)
    if len(decisions) != n or (scores is not None and len(scores) != n):
        raise ValueError(f"{len(decisions)} decisions for {n} candidates")
    accepted: dict[int, int] = {}
    best: dict[int, float] = {}
    for i, ev in enumerate(evidence):
        accepted[ev.cluster_index] = accepted.get(ev.cluster_index, 0) + (decisions[i] == "accept")
        s = scores[i] if scores is not None else None
        if isinstance(s, (int, float)) and math.isfinite(float(s)):
            best[ev.cluster_index] = max(best.get(ev.cluster_index, 0.0), float(s))
    total = sum(accepted.values())
    out = []
    for i, ev in enumerate(evidence):
        mine = accepted[ev.cluster_index]
        own = int(decisions[i] == "accept")
        out.append(replace(ev, cluster_accepted=mine - own, elsewhere_accepted=total - mine,
                           cluster_best_score=best.get(ev.cluster_index)))
    return tuple(out)


def consensus_sentence(ev: ConsensusEvidence) -> str:
    """The sentence a verdict's explanation gains, e.g. "Consensus: 2 of 9 candidates use
    P570 (date of death) where 6 use P509 (cause of death)." (empty for a single candidate)."""
    if ev.n_candidates <= 1:
        return ""
    extra = []
    if ev.weighted_agreement is not None:
        extra.append(f"generator-weighted agreement {ev.weighted_agreement:.2f}")
    if ev.undecided:
        extra.append(f"{ev.undecided} pair(s) undecided by the prover, counted as different")
    if ev.answer_agreement is not None:
        same = round(ev.answer_agreement * (ev.n_candidates - 1))
        extra.append(f"{same} of the {ev.n_candidates - 1} other candidates returned the same answers")
    text = ev.difference[:1].upper() + ev.difference[1:] if ev.difference else \
        f"{ev.cluster_size} of {ev.n_candidates} candidates are equivalent"
    return f"Consensus: {text}" + (f" ({'; '.join(extra)})" if extra else "") + "."
