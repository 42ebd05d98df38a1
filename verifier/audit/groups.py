"""The questions with several candidates, as reports show them: a bounded selection.

Reports list at most ``limit`` questions (those whose candidates disagree, i.e. form more
than one cluster, first; then by number of candidates) and at most ``max_clusters`` clusters
of each: size, representative query (the first line of the cluster's most frequent normal
form) and how the cluster differs from the largest other one.  :func:`consensus_counts` gives
the summary's figures.  Both read the tables written by :mod:`verifier.audit.grouping` and
return nothing for a store without them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from verifier.audit.store import AuditStore

__all__ = ["ClusterView", "QuestionGroup", "select_groups", "consensus_counts"]


@dataclass(frozen=True)
class ClusterView:
    """One cluster of a question: its size, representative (``log:line``) and query, the
    lines of its members (at most a few), and the difference sentence."""

    size: int
    representative: str
    sparql: str
    difference: str
    lines: tuple[str, ...]
    unparsed: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"size": self.size, "representative": self.representative, "sparql": self.sparql,
                "difference": self.difference, "lines": list(self.lines), "unparsed": self.unparsed}


@dataclass(frozen=True)
class QuestionGroup:
    """A question with several candidates: its text, key, number of candidates and clusters,
    undecided pairs, and the clusters shown (``more_clusters`` not shown)."""

    question: str
    key: str
    n: int
    n_clusters: int
    undecided: int
    clusters: tuple[ClusterView, ...]
    more_clusters: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"question": self.question, "key": self.key, "n": self.n, "n_clusters": self.n_clusters,
                "undecided": self.undecided, "clusters": [c.to_json() for c in self.clusters],
                "more_clusters": self.more_clusters}


def consensus_counts(store: AuditStore) -> dict[str, int]:
    """``questions`` with more than one candidate, the ``records`` they hold, ``split``
    questions (more than one cluster), ``minority`` records (less than half of the other
    candidates agree with them), ``undecided`` pairs; empty without a grouping pass."""
    if not store.has_table("consensus_groups"):
        return {}
    q, recs, split, und = store.db.execute(
        "SELECT COUNT(*), COALESCE(SUM(n), 0), COALESCE(SUM(n_clusters > 1), 0), COALESCE(SUM(undecided), 0) "
        "FROM consensus_groups").fetchone()
    if not q:
        return {}
    minority = store.db.execute("SELECT COUNT(*) FROM consensus WHERE "
                                "json_extract(evidence, '$.others_share') < 0.5").fetchone()[0]
    return {"questions": int(q), "records": int(recs), "split": int(split), "minority": int(minority),
            "undecided": int(und)}


def _names(store: AuditStore) -> dict[int, str]:
    return {l.log_id: l.path.rsplit("/", 1)[-1] for l in store.logs()}


def select_groups(store: AuditStore, limit: int = 100, max_clusters: int = 6,
                  max_lines: int = 8) -> tuple[list[QuestionGroup], int]:
    """``(groups, total)``: at most ``limit`` questions with several candidates (module
    documentation) and how many there are."""
    if limit <= 0 or not store.has_table("consensus_groups"):
        return [], 0
    total = int(store.db.execute("SELECT COUNT(*) FROM consensus_groups").fetchone()[0])
    rows = store.db.execute(
        "SELECT group_key, question, n, n_clusters, undecided, clustering, members FROM consensus_groups "
        "ORDER BY n_clusters > 1 DESC, n DESC, group_key LIMIT ?", (limit,)).fetchall()
    names = _names(store)
    out = []
    for key, question, n, n_clusters, undecided, cjson, mjson in rows:
        clustering = json.loads(cjson)
        members = [tuple(m) for m in json.loads(mjson)]
        summaries = clustering.get("summaries") or []
        unparsed = set(clustering.get("unparsed") or ())
        views = []
        for ci, cluster in enumerate(clustering["clusters"][:max_clusters]):
            rep = summaries[ci]["representative"] if ci < len(summaries) else cluster[0]
            log_id, line = members[rep]
            sparql = store.db.execute("SELECT sparql FROM results WHERE log_id = ? AND line = ?",
                                      (log_id, line)).fetchone()
            ev = store.consensus(log_id, line) or {}
            lines = tuple(f"{names.get(members[i][0], members[i][0])}:{members[i][1]}" for i in cluster[:max_lines])
            if len(cluster) > max_lines:
                lines += (f"{len(cluster) - max_lines} more",)
            views.append(ClusterView(len(cluster), f"{names.get(log_id, log_id)}:{line}",
                                     (sparql[0] if sparql else "") or "", ev.get("difference", ""), lines,
                                     rep in unparsed))
        out.append(QuestionGroup(question or "", key, int(n), int(n_clusters), int(undecided), tuple(views),
                                 max(0, len(clustering["clusters"]) - max_clusters)))
    return out, total
