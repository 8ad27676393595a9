"""Character ranges ``[start, end)`` over a text: trimming and overlap tests."""

from __future__ import annotations

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
