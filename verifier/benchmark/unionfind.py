"""Union-find (disjoint sets) over ``0 .. n-1``: the connected components of pairs that share
a symbol (:mod:`verifier.benchmark.ontology_split`) or a template (:mod:`verifier.benchmark.splits`)."""

from __future__ import annotations

__all__ = ["UnionFind"]


class UnionFind:
    """Disjoint sets of the integers ``0 .. n-1``; the representative of a set is its
    smallest member (so components come out in a stable order)."""

    def __init__(self, n: int) -> None:
        self.parent = list(range(n))

    def find(self, i: int) -> int:
        """The representative of ``i``'s set (path halving)."""
        while self.parent[i] != i:
            self.parent[i] = self.parent[self.parent[i]]
            i = self.parent[i]
        return i

    def union(self, a: int, b: int) -> None:
        """Merge the sets of ``a`` and ``b``."""
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)
