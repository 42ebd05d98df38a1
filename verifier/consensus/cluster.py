"""Clusters of semantically equivalent candidate queries.

:func:`cluster_candidates` (or :func:`cluster_parsed` on candidates already parsed by
:func:`verifier.consensus.normalise.normalise`) works in two steps:

1. **normal forms**: candidates with the same :func:`verifier.query.normal_form` (renamed
   variables, reordered triples, other spellings of the same WHERE clause) are one group, at
   no prover cost;
2. **the prover**: the groups, most frequent first (ties: first appearance), are compared
   with :func:`verifier.prover.equivalent`.  Each group is compared with the representative of
   every cluster formed so far, and joins every cluster it is *proved* equivalent to; clusters
   are therefore the connected components of the proved-equivalent pairs (equivalence is
   transitive in truth, but the prover may be undecided on one pair of a chain).  An undecided
   pair counts as different and is reported in :attr:`Clustering.undecided` when its two
   sides end in different clusters.

Determinism: the checks run under a budget of Z3 resource units (``budget``, per direction;
Z3's deterministic counter, not wall time) in one Z3 context per clustering (made on the
first check that needs Z3: about 10 ms, which per pair was half the time of clustering 10
candidates), so the outcome depends on the candidates and their order, not on machine load
or on what the process checked before.  The wall clock stops a check only after
:data:`verifier.prover.WALL_FACTOR` times the budget's nominal time.

Bounded work: only the ``max_representatives`` most frequent normal forms go to the prover
(at most ``k (k - 1) / 2`` checks, fewer as clusters merge); the other normal forms stay
clusters of their own, listed in :attr:`Clustering.uncompared`.  With 50 candidates of 50
different normal forms and the default ``k = 24``, at most 276 pairs are checked and 26
candidates are left uncompared; 50 beams with a dozen normal forms are all compared.

:class:`EquivalenceCache` remembers the outcome per pair of normal forms (an LRU) and may be
kept across questions by the caller (a :class:`verifier.api.Verifier` keeps one): a pair's
outcome is then computed once and reused.
"""

from __future__ import annotations

import logging
import math
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Sequence

from verifier.consensus.describe import ClusterSummary, summarise, unparsed_summary
from verifier.consensus.normalise import Candidate, normalise

__all__ = ["Clustering", "EquivalenceCache", "cluster_candidates", "cluster_parsed", "compare",
           "DEFAULT_BUDGET", "DEFAULT_MAX_REPRESENTATIVES", "EQUIVALENT", "DIFFERENT", "UNDECIDED"]

log = logging.getLogger(__name__)

#: Z3 resource units per direction of one equivalence check (about 100 ms of solving on an
#: idle 2020s CPU, :data:`verifier.prover.RLIMIT_PER_MS`)
DEFAULT_BUDGET = 300_000
#: at most this many distinct normal forms of one question are compared by the prover
DEFAULT_MAX_REPRESENTATIVES = 24

EQUIVALENT, DIFFERENT, UNDECIDED = "equivalent", "different", "undecided"


@dataclass(frozen=True)
class Clustering:
    """Clusters of candidate indices, largest first (ties: smallest first index), each sorted.

    ``undecided``: pairs of candidate indices (representatives of two normal forms) whose
    equivalence the prover could not decide within the budget and that ended in different
    clusters; ``unparsed``: candidates that do not parse (each its own cluster);
    ``uncompared``: candidates of normal forms beyond ``max_representatives`` (their own
    clusters, never given to the prover); ``summaries``: one :class:`ClusterSummary` per
    cluster (representative, identifiers, shape), what the difference sentences are written
    from; ``n_candidates``; ``prover_checks``: pairs given to the prover (cache misses);
    ``time_ms``: the time the clustering took."""

    clusters: tuple[tuple[int, ...], ...]
    undecided: tuple[tuple[int, int], ...] = ()
    unparsed: tuple[int, ...] = ()
    summaries: tuple[ClusterSummary, ...] = ()
    uncompared: tuple[int, ...] = ()
    n_candidates: int = 0
    prover_checks: int = 0
    time_ms: float = 0.0

    def cluster_of(self, index: int) -> int:
        """The position in :attr:`clusters` of the cluster holding candidate ``index``."""
        for c, members in enumerate(self.clusters):
            if index in members:
                return c
        raise IndexError(f"no candidate {index}")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (:meth:`from_dict` reads it back)."""
        return {"clusters": [list(c) for c in self.clusters],
                "undecided": [list(p) for p in self.undecided], "unparsed": list(self.unparsed),
                "uncompared": list(self.uncompared),
                "summaries": [s.to_dict() for s in self.summaries],
                "n_candidates": self.n_candidates, "prover_checks": self.prover_checks,
                "time_ms": round(self.time_ms, 2)}

    @staticmethod
    def from_dict(d: dict[str, Any]) -> "Clustering":
        """Inverse of :meth:`to_dict`."""
        return Clustering(tuple(tuple(int(i) for i in c) for c in d["clusters"]),
                          tuple((int(a), int(b)) for a, b in d.get("undecided") or ()),
                          tuple(int(i) for i in d.get("unparsed") or ()),
                          tuple(ClusterSummary.from_dict(s) for s in d.get("summaries") or ()),
                          tuple(int(i) for i in d.get("uncompared") or ()),
                          int(d.get("n_candidates") or 0), int(d.get("prover_checks") or 0),
                          float(d.get("time_ms") or 0.0))


class EquivalenceCache:
    """Outcomes of equivalence checks per (pair of normal-form keys, budget): an LRU of at
    most ``maxsize`` entries.  Keep one across questions to reuse checks; not thread-safe."""

    def __init__(self, maxsize: int = 100_000) -> None:
        self.maxsize = int(maxsize)
        self._data: OrderedDict[tuple[str, str, int], tuple[str, str]] = OrderedDict()
        self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._data)

    def get(self, key: tuple[str, str, int]) -> tuple[str, str] | None:
        """The stored ``(outcome, reason)`` of a key (moved to the recent end), or ``None``."""
        v = self._data.get(key)
        if v is None:
            self.misses += 1
            return None
        self.hits += 1
        self._data.move_to_end(key)
        return v

    def put(self, key: tuple[str, str, int], value: tuple[str, str]) -> None:
        """Store an outcome, dropping the least recently used entries beyond ``maxsize``."""
        self._data[key] = value
        self._data.move_to_end(key)
        while len(self._data) > self.maxsize:
            self._data.popitem(last=False)


def _check(a: Candidate, b: Candidate, budget: int, context: Any) -> tuple[str, str]:
    """``(outcome, reason)`` of one prover check in the clustering's Z3 context."""
    from verifier.prover import RLIMIT_PER_MS, WALL_FACTOR, equivalent

    timeout_ms = max(1, math.ceil(budget / RLIMIT_PER_MS)) * WALL_FACTOR
    try:
        r = equivalent(a.query, b.query, timeout_ms=timeout_ms, rlimit=budget,  # type: ignore[arg-type]
                       context=context)
    except Exception as e:  # noqa: BLE001 - a prover bug leaves the pair undecided
        log.warning("equivalence check failed: %s: %s", type(e).__name__, e)
        return UNDECIDED, f"internal error: {type(e).__name__}"
    if r.equivalent is True:
        return EQUIVALENT, ""
    if r.equivalent is False:
        return DIFFERENT, r.reason
    return UNDECIDED, r.reason or "undecided"


def compare(a: Candidate, b: Candidate, budget: int, cache: EquivalenceCache | None,
            context: Any = None) -> tuple[str, bool]:
    """The outcome for two parsed candidates of different keys, and whether the prover ran
    (in ``context``, a :class:`verifier.prover.ProverContext`; a new one when ``None``).
    The pair is checked in the order of its keys, so (a, b) and (b, a) agree."""
    if a.key > b.key:  # type: ignore[operator]
        a, b = b, a
    key = (a.key, b.key, int(budget))
    if cache is not None:
        hit = cache.get(key)  # type: ignore[arg-type]
        if hit is not None:
            return hit[0], False
    if context is None:
        from verifier.prover import ProverContext

        context = ProverContext()
    out = _check(a, b, budget, context)
    if cache is not None:
        cache.put(key, out)  # type: ignore[arg-type]
    return out[0], True


def cluster_parsed(candidates: Sequence[Candidate], *, budget: int = DEFAULT_BUDGET,
                   cache: EquivalenceCache | None = None,
                   max_representatives: int = DEFAULT_MAX_REPRESENTATIVES) -> Clustering:
    """Cluster candidates already parsed by :func:`~verifier.consensus.normalise.normalise`
    (module documentation)."""
    from verifier.prover import ProverContext

    t0 = time.perf_counter()
    context = ProverContext()  # the Z3 context is made on the first check that needs Z3
    groups: dict[str, list[int]] = {}
    for c in candidates:
        if c.key is not None:
            groups.setdefault(c.key, []).append(c.index)
    by_index = {c.index: c for c in candidates}
    order = sorted(groups.values(), key=lambda g: (-len(g), g[0]))
    compared, rest = order[:max(0, int(max_representatives))], order[max(0, int(max_representatives)):]
    # union of groups: components[i] = the groups joined into cluster i (first group = representative)
    components: list[list[list[int]]] = []
    undecided: list[tuple[int, int]] = []
    checks = 0
    for g in compared:
        rep = by_index[g[0]]
        joined = []
        for ci, comp in enumerate(components):
            outcome, ran = compare(rep, by_index[comp[0][0]], budget, cache, context)
            checks += ran
            if outcome == EQUIVALENT:
                joined.append(ci)
            elif outcome == UNDECIDED:
                undecided.append((min(g[0], comp[0][0]), max(g[0], comp[0][0])))
        if not joined:
            components.append([g])
            continue
        target = components[joined[0]]
        target.append(g)
        for ci in reversed(joined[1:]):  # the group proves two clusters the same: merge them
            target.extend(components.pop(ci))
    clusters = [(tuple(sorted(i for g in comp for i in g)), comp[0][0]) for comp in components]
    clusters += [(tuple(g), g[0]) for g in rest]
    unparsed = tuple(c.index for c in candidates if c.key is None)
    clusters += [((i,), i) for i in unparsed]
    clusters.sort(key=lambda x: (-len(x[0]), x[0][0]))
    where = {i: ci for ci, (members, _) in enumerate(clusters) for i in members}
    summaries = tuple(summarise(rep, by_index[rep].query) if by_index[rep].query is not None  # type: ignore[arg-type]
                      else unparsed_summary(rep) for _, rep in clusters)
    return Clustering(tuple(m for m, _ in clusters),
                      tuple(sorted({p for p in undecided if where[p[0]] != where[p[1]]})),
                      unparsed, summaries, tuple(sorted(i for g in rest for i in g)),
                      len(candidates), checks, (time.perf_counter() - t0) * 1000)


def cluster_candidates(sparqls: Sequence[Any], *, budget: int = DEFAULT_BUDGET,
                       cache: EquivalenceCache | None = None,
                       max_representatives: int = DEFAULT_MAX_REPRESENTATIVES) -> Clustering:
    """Cluster candidate queries (texts; ``None`` or unparsable ones are their own clusters)
    by semantic equivalence (module documentation).  ``budget``: Z3 resource units per
    direction of a check; ``cache``: an :class:`EquivalenceCache` to reuse across questions;
    ``max_representatives``: how many distinct normal forms the prover compares."""
    return cluster_parsed(normalise(sparqls), budget=budget, cache=cache,
                          max_representatives=max_representatives)
