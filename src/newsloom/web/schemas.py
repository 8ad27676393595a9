"""Request and response bodies of the JSON API (the OpenAPI document comes from these)."""

from __future__ import annotations

from typing import Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from ..store import profiles
from ..store.records import (
    ArticleRow,
    PersonRow,
    PostRow,
    QuoteRow,
    SpeakerRow,
    StorySummary,
    TrackedQuoteRow,
)

# One POST carries at most this many articles: each is analysed before the response.
MAX_ARTICLES_PER_POST = 50
# A news article is well under 1 MB of text; the body limit bounds the whole request too.
MAX_TEXT_CHARS = 1_000_000


class ApiModel(BaseModel):
    model_config = ConfigDict(extra="forbid")


# Page items: the API models below or the store's row records, served as they are.
Item = TypeVar("Item")


class Page(ApiModel, Generic[Item]):
    """Every list endpoint answers with this shape: how many in all, and this page of them."""

    total: int = Field(..., description="How many items match in all (not only this page).")
    items: list[Item]


class StoryList(Page[StorySummary]):
    """Stories matching (all stories when no query)."""


class SearchHit(ApiModel):
    kind: str = Field(..., description="article or quote")
    article_id: str
    start: int = Field(
        ..., description="Span in the article text (the whole text for an article hit)."
    )
    end: int
    title: str | None
    source: str | None
    published: str | None
    story_id: str | None
    speaker: str | None
    snippet: str
    highlights: list[list[int]] = Field(..., description="[start, end] offsets into the snippet.")
    speaker_text: str | None = Field(
        None, description="A quote's words naming its speaker (also when it is unresolved)."
    )
    speaker_confidence: float | None = Field(
        None, description="How sure the quote's speaker is (0-1); null when not scored."
    )
    url: str = Field(..., description="The article page, at the span for a quote.")
    tracked_quote_id: str | None = Field(
        None,
        description="A quote hit's tracked quote (/api/quotes/{id}): the utterance across "
        "stories; null for an article hit.",
    )


class SearchResult(Page[SearchHit]):
    """Articles and quotes matching the query, best first."""

    query: str


class QuoteList(Page[QuoteRow]):
    """Quote mentions, in order of publication."""


class TrackedQuoteList(Page[TrackedQuoteRow]):
    """Quotes followed across stories, most mentioned first."""


class SpeakerList(Page[SpeakerRow]):
    """Everyone quoted, most quoted first."""


class PostList(Page[PostRow]):
    """Embedded posts, by date."""


class PersonList(Page[PersonRow]):
    """People named, most often named first."""


class ArticleList(Page[ArticleRow]):
    """Stored articles, newest first."""


class ArticleText(ApiModel):
    id: str
    origin: str
    path: str | None
    format: str
    source: str | None
    title: str | None
    published: str | None
    url: str | None
    text: str
    story_id: str | None


class ArticleIn(ApiModel):
    """One article to add. Only ``text`` is required; the rest is read as ingest reads JSONL."""

    text: str = Field(..., min_length=1, max_length=MAX_TEXT_CHARS)
    title: str | None = Field(None, max_length=2000)
    source: str | None = Field(None, max_length=500)
    published: str | None = Field(None, max_length=64, description="A date; normalised to ISO.")
    url: str | None = Field(None, max_length=4000)


class IngestRequest(ApiModel):
    articles: list[ArticleIn] = Field(..., min_length=1, max_length=MAX_ARTICLES_PER_POST)


class SkippedRow(ApiModel):
    origin: str
    reason: str


class IngestResult(ApiModel):
    read: int
    added: int
    already_stored: int
    skipped: list[SkippedRow]
    article_ids: list[str]
    story_ids: list[str | None] = Field(..., description="The story of each article, in order.")


class ErrorBody(ApiModel):
    detail: str


# -- profiles (store/profiles.py): one speaker, outlet or person by name key --------------------


class SpeakerProfile(ApiModel):
    """Everything one speaker said across stories: their tracked quotes, most repeated first."""

    key: str = Field(..., description="The name key (URL form of the name).")
    name: str
    names: list[str] = Field(..., description="Every spelling the key stands for.")
    total_quotes: int = Field(..., description="Tracked quotes in all (not only those shown).")
    quotes: list[profiles.SpokenQuote]
    outlets: dict[str, int] = Field(..., description="Outlet -> mentions of the quotes shown.")


class OutletProfile(ApiModel):
    """An outlet: its articles, its share of each story with what it alone reported, copied
    and credited there, and its hedging month by month."""

    key: str
    name: str
    names: list[str]
    n_articles: int
    n_stories: int
    first_date: str | None
    last_date: str | None
    exclusives: int = Field(..., description="Quotes, facts and posts no other outlet carried.")
    copied: int = Field(..., description="Passages it ran after an earlier outlet had.")
    credits: int = Field(..., description="Other sources its articles credited, per story.")
    articles: list[profiles.OutletArticle]
    stories: list[profiles.OutletStory]
    hedging: list[profiles.HedgingPeriod]


class PersonProfile(ApiModel):
    """A person: each age and roles stated with the dates stating them, and the conflicts."""

    key: str
    name: str
    names: list[str]
    n_articles: int
    states: list[profiles.PersonState]
    conflicts: list[profiles.PersonConflict]
    speaker_key: str | None
