"""Spans of an article that several layers compute: its own reporting and its dateline.

Own reporting is the body paragraphs minus direct quotes and embedded posts: a figure or a
"maybe" inside quote marks is the speaker's, a post is its author's. The claims and framing
stages and the story summary and copied-passage detection all read it the same way.
"""

from __future__ import annotations

from collections.abc import Iterable

from .models import Paragraph, Post, QuoteMention, Span
from .text.datelines import dateline_at


def excluded_spans(quotes: Iterable[QuoteMention], posts: Iterable[Post]) -> list[tuple[int, int]]:
    """Spans that are not the outlet's own words: direct quotes and embedded posts."""
    spans = [(q.start, q.end) for q in quotes if q.kind == "direct"]
    spans.extend((p.start, p.end) for p in posts)
    return sorted(spans)


def body_ranges(paragraphs: Iterable[Paragraph], text_length: int) -> list[tuple[int, int]]:
    """Body paragraphs; with no paragraph labels at all, the whole text is the body."""
    paragraphs = list(paragraphs)
    if not paragraphs:
        return [(0, text_length)] if text_length else []
    return [(p.start, p.end) for p in paragraphs if p.label == "body"]


def find_dateline(text: str, pos: int) -> Span | None:
    """The dateline place when ``text`` at ``pos`` opens with one (``PARIS •``,
    ``HARBOR CITY —``, ``WASHINGTON (AP) —``), else None."""
    found = dateline_at(text, pos)
    if found is None:
        return None
    start, end = found
    return Span(start=start, end=end, text=text[start:end])
