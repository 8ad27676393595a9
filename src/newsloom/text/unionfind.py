"""Union-find (disjoint sets) over the integers ``0..n-1``, for grouping pairwise matches."""

from __future__ import annotations


class UnionFind:
    """Disjoint sets of ``0..n-1``; a set's root is its smallest member."""

    def __init__(self, n: int) -> None:
        self.parent = list(range(n))

    def find(self, x: int) -> int:
        """The root of ``x``'s set (path halving keeps later finds short)."""
        parent = self.parent
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(self, a: int, b: int) -> int:
        """Join the sets of ``a`` and ``b``; the root of the joined set."""
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return ra
        root, child = min(ra, rb), max(ra, rb)
        self.parent[child] = root
        return root

    def groups(self) -> list[list[int]]:
        """Every set as its members in order, sets in the order of their first member."""
        members: dict[int, list[int]] = {}
        for x in range(len(self.parent)):
            members.setdefault(self.find(x), []).append(x)
        return list(members.values())
