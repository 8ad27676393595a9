"""Which text is the outlet's own reporting (shared by the claims and framing stages).

Own reporting is the body paragraphs minus direct quotes and embedded posts: a figure or a
"maybe" inside quote marks is the speaker's, a post is its author's.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..models import Paragraph, Post, QuoteMention


def excluded_spans(quotes: Iterable[QuoteMention], posts: Iterable[Post]) -> list[tuple[int, int]]:
    """Spans that are not the outlet's own words: direct quotes and embedded posts."""
    spans = [(q.start, q.end) for q in quotes if q.kind == "direct"]
    spans.extend((p.start, p.end) for p in posts)
    return sorted(spans)


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


def body_ranges(paragraphs: Iterable[Paragraph], text_length: int) -> list[tuple[int, int]]:
    """Body paragraphs; with no paragraph labels at all, the whole text is the body."""
    paragraphs = list(paragraphs)
    if not paragraphs:
        return [(0, text_length)] if text_length else []
    return [(p.start, p.end) for p in paragraphs if p.label == "body"]


def token_coverage(doc, spans: Iterable[tuple[int, int]]):
    """Per token of ``doc``, whether it overlaps any of ``spans`` (a numpy bool array).

    Token offsets come from ``Doc.to_array`` in one call: iterating a Doc creates a Python
    object per token, which costs more than the whole check.
    """
    import numpy as np
    from spacy.attrs import IDX, LENGTH

    covered = np.zeros(len(doc), dtype=bool)
    if not len(doc):
        return covered
    offsets = doc.to_array([IDX, LENGTH])
    starts = offsets[:, 0]
    ends = starts + offsets[:, 1]
    for start, end in spans:
        first = int(np.searchsorted(ends, start, side="right"))
        last = int(np.searchsorted(starts, end, side="left"))
        covered[first:last] = True
    return covered
