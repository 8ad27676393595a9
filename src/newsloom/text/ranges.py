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
    """Ranges ``[start, end)`` sorted once, so ``overlaps`` is the same test as ``inside`` in
    O(log n): a long article has thousands of quotes and paragraphs to test against."""

    def __init__(self, spans: Iterable[tuple[int, int]]) -> None:
        ordered = sorted(spans)
        self.starts = [s for s, _ in ordered]
        self.max_end: list[int] = []  # the largest end among the first i + 1 ranges
        for _, e in ordered:
            self.max_end.append(max(e, self.max_end[-1]) if self.max_end else e)

    def overlaps(self, start: int, end: int) -> bool:
        """Whether ``[start, end)`` overlaps any of the ranges (``inside(start, end, ...)``)."""
        before = bisect.bisect_left(self.starts, end)  # ranges starting before ``end``
        return before > 0 and self.max_end[before - 1] > start
