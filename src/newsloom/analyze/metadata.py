"""Metadata stage: fills the Article fields the reader could not find in the file's header.

- dateline: when the reader found none (a caption or title came first, or the text came from
  JSONL/HTML), the first body paragraph opening ``CITY —`` gives it;
- title: the paragraph the boilerplate stage labelled ``title`` before the body (e.g. a
  headline followed by a single newline, which the reader does not take), with its span.
  No title is made up from the lede: an article without a headline has ``title = None``;
- published: from a URL path like ``/2021/03/14/``;
- source: from the URL's domain (``www.daily-courier.example`` → ``daily-courier``).

It never overrides what the reader found, and costs one regex match per field.
"""

from __future__ import annotations

from typing import Any

from ..models import Article, Paragraph, Span
from ..spans import find_dateline
from ..text.urls import date_from_url, source_from_url


def metadata_update(article: Article, paragraphs: list[Paragraph]) -> dict[str, Any]:
    """The fields to set on ``article`` (only those it lacks)."""
    update: dict[str, Any] = {}
    text = article.text
    ordered = sorted(
        (p for p in paragraphs if 0 <= p.start < p.end <= len(text)), key=lambda p: p.start
    )
    body = next((p for p in ordered if p.label == "body"), None)
    if article.dateline is None and body is not None:
        dateline = find_dateline(text, _skip_space(text, body.start, body.end))
        if dateline:
            update["dateline"] = dateline
    if article.title is None:
        before = body.start if body is not None else len(text)
        title_span = _title_paragraph(text, [p for p in ordered if p.start < before])
        if title_span:
            update["title"], update["title_span"] = title_span.text, title_span
    if article.published is None:
        published = date_from_url(article.url)
        if published:
            update["published"] = published
    if article.source is None:
        source = source_from_url(article.url)
        if source:
            update["source"] = source
    return update


def _skip_space(text: str, start: int, end: int) -> int:
    while start < end and text[start].isspace():
        start += 1
    return start


def _title_paragraph(text: str, paragraphs: list[Paragraph]) -> Span | None:
    """The first paragraph labelled ``title``, trimmed, as a span."""
    for p in paragraphs:
        if p.label == "title":
            raw = text[p.start : p.end]
            start = p.start + len(raw) - len(raw.lstrip())
            end = p.start + len(raw.rstrip())
            if start < end:
                return Span(start=start, end=end, text=text[start:end])
    return None
