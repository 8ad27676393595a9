"""Metadata stage: fills the Article fields the reader could not find in the file's header.

- dateline: when the reader found none (a caption or title came first, or the text came from
  JSONL/HTML), the first body paragraph opening ``CITY —`` gives it;
- title: the paragraph the boilerplate stage labelled ``title`` before the body (e.g. a
  headline followed by a single newline, which the reader does not take), with its span.
  No title is made up from the lede: an article without a headline has ``title = None``;
- published: from a date line above the body that the boilerplate stage labelled metadata
  (``Published: June 13, 2013 4:59 PM EDT``, ``Updated: …``, a date alone on its line; a
  publication date wins over an update date), else from a URL path like ``/2021/03/14/``;
- source: from the URL's domain (``www.daily-courier.example`` → ``daily-courier``).

It never overrides what the reader found, and costs one regex match per field.
"""

from __future__ import annotations

import re
from typing import Any

from ..ingest.dates import normalise_date
from ..ingest.headers import find_dateline
from ..ingest.urls import date_from_url, source_from_url
from ..models import Article, Paragraph, Span
from ..pipeline import StageContext, stage


@stage("metadata", requires=("paragraphs",), assigns=("metadata",))
def fill_metadata(ctx: StageContext) -> None:
    article = ctx.analysis.article
    update = metadata_update(article, ctx.analysis.paragraphs)
    if update:
        ctx.analysis.article = article.model_copy(update=update)
        ctx.article = ctx.analysis.article


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
        before = body.start if body is not None else len(text)
        published = _dated_line(text, [p for p in ordered if p.start < before])
        published = published or date_from_url(article.url)
        if published:
            update["published"] = published
    if article.source is None:
        source = source_from_url(article.url)
        if source:
            update["source"] = source
    return update


# "Published: …", "First published on …", "Updated …", "Date: …" or nothing before the date.
DATE_LABEL = re.compile(
    r"\s*(?:(?P<label>(?:first |last )?(?:published|posted|updated|modified)|date)\b(?: on)?)?"
    r"\s*[:\-–—]?\s*",
    re.IGNORECASE,
)
# A date line is short; a longer metadata paragraph is a byline or a credit with a date in it.
MAX_DATE_LINE = 80


def _dated_line(text: str, paragraphs: list[Paragraph]) -> str | None:
    """The publication date a metadata line above the body states, if any."""
    updated = None
    for p in paragraphs:
        line = text[p.start : p.end].strip()
        if p.label != "metadata" or not line or len(line) > MAX_DATE_LINE:
            continue
        m = DATE_LABEL.match(line)
        rest = line[m.end() :] if m else line
        if not rest[:1].isalnum():
            continue
        date = normalise_date(rest)
        if date is None:
            continue
        label = (m.group("label") or "").lower() if m else ""
        if label.endswith(("updated", "modified")):
            updated = updated or date
        else:
            return date
    return updated


def _skip_space(text: str, start: int, end: int) -> int:
    while start < end and text[start].isspace():
        start += 1
    return start


def _title_paragraph(text: str, paragraphs: list[Paragraph]) -> Span | None:
    """The first paragraph labelled ``title``, trimmed, as a span."""
    for p in paragraphs:
        if p.label == "title":
            raw = text[p.start:p.end]
            start = p.start + len(raw) - len(raw.lstrip())
            end = p.start + len(raw.rstrip())
            if start < end:
                return Span(start=start, end=end, text=text[start:end])
    return None
