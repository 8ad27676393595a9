"""The store interface: what the library, the CLI and the web app need from a backend.

``SqlStore`` (SQLite, PostgreSQL) implements it; another backend implements the same
methods and is returned by ``open_store`` for its URL. Reads return the frozen records of
``records.py`` (or the models); every failure of the database is a ``StoreError``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Protocol

from ..models import ArticleAnalysis, Story
from .records import (
    ArticleRow,
    ArticleText,
    PersonRow,
    PostRow,
    QuoteRow,
    SearchPage,
    SpeakerRow,
    StorySummary,
)


class Store(Protocol):
    """Articles, their analyses and stories. Writes are atomic per call."""

    url: str

    def close(self) -> None: ...

    # -- articles and analyses
    def has_article(self, article_id: str) -> bool: ...

    def add_analysis(self, analysis: ArticleAnalysis) -> bool:
        """Store one analysed article atomically. False when it was already stored."""
        ...

    def add_analyses(self, analyses: Iterable[ArticleAnalysis]) -> int: ...

    def analyses(self, article_ids: Sequence[str] | None = None) -> Iterator[ArticleAnalysis]:
        """Stored analyses in ingestion order (all, or the given ids)."""
        ...

    def article_ids(self) -> list[str]: ...

    def count_articles(self) -> int: ...

    def articles(self, limit: int | None = None, offset: int = 0) -> list[ArticleRow]: ...

    def resolve_article_id(self, id_or_prefix: str) -> str | None:
        """The id of the article with this id or unique id prefix; AmbiguousIdError if several."""
        ...

    def article_text(self, article_id: str) -> ArticleText | None: ...

    # -- projections
    def people(self, entity_types: Sequence[str] = ("PERSON",)) -> list[PersonRow]: ...

    def posts(self) -> list[PostRow]: ...

    def quotes(
        self, speaker: str | None = None, limit: int = 100, offset: int = 0
    ) -> list[QuoteRow]: ...

    def count_quotes(self, speaker: str | None = None) -> int: ...

    def speakers(self) -> list[SpeakerRow]: ...

    def search(self, query: str, limit: int = 20, offset: int = 0) -> SearchPage:
        """One page of hits, best first, with the total number of hits."""
        ...

    # -- stories
    def replace_stories(self, stories: Sequence[Story]) -> None: ...

    def stories(self) -> list[Story]: ...

    def story(self, story_id: str) -> Story | None:
        """The story with this id or unique id prefix; AmbiguousIdError when not unique."""
        ...

    def story_of(self, article_id: str) -> str | None: ...

    def story_summaries(
        self, limit: int | None = None, offset: int = 0, story_ids: Sequence[str] | None = None
    ) -> list[StorySummary]: ...

    def count_stories(self) -> int: ...

    # -- state kept between runs (the story index)
    def get_meta(self, key: str) -> str | None: ...

    def set_meta(self, key: str, value: str) -> None: ...
