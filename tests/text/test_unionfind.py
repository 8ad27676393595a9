"""Union-find over 0..n-1."""

from __future__ import annotations

import pytest

from newsloom.text.unionfind import UnionFind

# (n, pairs joined, expected groups)
ROWS = [
    (0, [], []),
    (3, [], [[0], [1], [2]]),
    (4, [(0, 1), (2, 3)], [[0, 1], [2, 3]]),
    (5, [(3, 1), (1, 4)], [[0], [1, 3, 4], [2]]),
    (4, [(0, 1), (1, 0), (0, 0)], [[0, 1], [2], [3]]),  # repeats and self-pairs change nothing
    (6, [(5, 4), (3, 2), (4, 3), (1, 0)], [[0, 1], [2, 3, 4, 5]]),
]


@pytest.mark.parametrize(("n", "pairs", "groups"), ROWS)
def test_groups(n: int, pairs: list[tuple[int, int]], groups: list[list[int]]) -> None:
    union = UnionFind(n)
    for a, b in pairs:
        union.union(a, b)
    assert union.groups() == groups


def test_root_is_smallest_member_and_union_returns_it() -> None:
    union = UnionFind(5)
    assert union.union(4, 2) == 2
    assert union.union(3, 4) == 2
    assert union.find(4) == union.find(3) == 2
    assert union.find(0) == 0
    assert union.union(2, 2) == 2
