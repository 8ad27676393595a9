"""What the store's read methods return: one frozen record per kind of row.

Field order is the order of the keys in the CLI's ``--json`` output and in the HTTP API's
responses, so a field is only ever added at the end.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class ArticleRow:
    """A stored article without its text (listings)."""

    id: str
    source: str | None
    published: str | None
    title: str | None
    origin: str
    format: str


@dataclass(frozen=True, slots=True)
class ArticleText:
    """A stored article with its exact text (every offset points into ``text``)."""

    id: str
    origin: str
    path: str | None
    format: str
    source: str | None
    title: str | None
    published: str | None
    url: str | None
    text: str


@dataclass(frozen=True, slots=True)
class PersonRow:
    """An entity name over all articles: the ages and roles stated, the articles naming it."""

    name: str
    type: str
    ages: list[int]
    roles: list[str]
    article_ids: list[str]


@dataclass(frozen=True, slots=True)
class PostRow:
    """One distinct embedded post with the articles embedding it."""

    id: str
    platform: str
    handle: str
    author: str | None
    date: str | None
    text: str
    article_ids: list[str]


@dataclass(frozen=True, slots=True)
class QuoteRow:
    """One quote mention as its article words it, with where it appeared."""

    article_id: str
    start: int
    end: int
    text: str
    kind: str
    cue: str | None
    speaker: str | None
    source: str | None
    published: str | None
    title: str | None
    story_id: str | None
    # The words naming the speaker ("she"), given also when ``speaker`` is unresolved (None);
    # the calibrated probability that ``speaker`` is right (None: not scored); its kind.
    speaker_text: str | None = None
    speaker_confidence: float | None = None
    speaker_kind: str | None = None


@dataclass(frozen=True, slots=True)
class SpeakerRow:
    """Someone quoted, with how many quote mentions and articles, and how sure those
    attributions are on average (None when none of them was scored)."""

    speaker: str
    quotes: int
    articles: int
    mean_confidence: float | None = None


@dataclass(frozen=True, slots=True)
class SearchHit:
    """An article or quote matching a search; ``start``/``end`` is the span in the article."""

    kind: str  # "article" (the whole text) or "quote" (the quote's span)
    article_id: str
    start: int
    end: int
    title: str | None
    source: str | None
    published: str | None
    story_id: str | None
    speaker: str | None
    snippet: str
    highlights: list[list[int]]  # [start, end] offsets into ``snippet``
    # A quote's words naming its speaker and how sure the attribution is (as ``QuoteRow``).
    speaker_text: str | None = None
    speaker_confidence: float | None = None


@dataclass(frozen=True, slots=True)
class SearchPage:
    """One page of search hits, best first, and how many hits the query has in all."""

    total: int
    hits: list[SearchHit]


@dataclass(frozen=True, slots=True)
class StorySummary:
    """A story without its analysis: enough for a page listing thousands of stories."""

    id: str
    title: str | None
    n_articles: int
    first_published: str | None
    last_published: str | None
    outlets: list[str]


def as_dict(record: Any) -> dict[str, Any]:
    """A record as a plain dict in field order (JSON output, templates)."""
    return asdict(record)


@dataclass(frozen=True, slots=True)
class TrackedQuoteRow:
    """One tracked quote in a listing: its canonical wording, how widely and how long it ran."""

    id: str
    text: str
    speaker: str | None
    mentions: int
    outlets: int
    stories: int
    first_date: str | None
    last_date: str | None
