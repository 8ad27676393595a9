"""Character ranges ``[start, end)`` over a text: trimming and overlap tests."""

from __future__ import annotations

import bisect
from collections.abc import Iterable


def strip_span(text: str, start: int, end: int) -> tuple[int, int]:
    """``[start, end)`` without the whitespace at either end (the text itself is untouched)."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def inside(start: int, end: int, spans: Iterable[tuple[int, int]]) -> bool:
    """Whether ``[start, end)`` overlaps any of ``spans``."""
    return any(s < end and start < e for s, e in spans)


class RangeSet:
    """Ranges ``[start, end)`` sorted once, so that testing a span against all of them takes a
    bisection, not a pass: a long article has thousands of quotes and paragraphs to test."""

    def __init__(self, spans: Iterable[tuple[int, int]]) -> None:
        self.ranges = sorted(spans)
        self.starts = [s for s, _ in self.ranges]
        self.longest = max((e - s for s, e in self.ranges), default=0)
        self.max_end: list[int] = []  # the largest end among the first i + 1 ranges
        for _, e in self.ranges:
            self.max_end.append(max(e, self.max_end[-1]) if self.max_end else e)

    def overlaps(self, start: int, end: int) -> bool:
        """Whether ``[start, end)`` overlaps any of the ranges (``inside(start, end, ...)``)."""
        before = bisect.bisect_left(self.starts, end)  # ranges starting before ``end``
        return before > 0 and self.max_end[before - 1] > start

    def covered(self, start: int, end: int) -> int:
        """Characters of ``[start, end)`` under each range, summed over the ranges.

        Only ranges starting before ``end`` and at most ``longest`` before ``start`` can
        reach into it; the others add nothing.
        """
        lo = bisect.bisect_left(self.starts, start - self.longest)
        hi = bisect.bisect_left(self.starts, end)
        return sum(max(0, min(end, e) - max(start, s)) for s, e in self.ranges[lo:hi])
