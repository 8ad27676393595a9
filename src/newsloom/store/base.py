"""The store interface: what the library, the CLI and the web app need from a backend.

``SqlStore`` (SQLite, PostgreSQL) implements it; another backend implements the same
methods and is returned by ``open_store`` for its URL. Reads return the frozen records of
``records.py`` (or the models); every failure of the database is a ``StoreError``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

from ..models import ArticleAnalysis, Story, TrackedQuote
from .listing import ListPage, ListQuery
from .records import (
    ArticleRow,
    ArticleText,
    PersonRow,
    PostRow,
    QuoteRow,
    SearchPage,
    SpeakerRow,
    StorySummary,
    TrackedQuoteRow,
)

# The meta row holding the story index state between runs.
STORY_INDEX_KEY = "story_index"


class IndexTransaction(Protocol):
    """The story index read and written under the store's index write lock.

    Opened by ``Store.index_transaction()``: one index update at a time per store, across
    processes, held from the read to the write, committed with the record of the stories to
    rebuild. ``generation`` counts the saved updates; it was read under the lock.
    """

    generation: int

    def load(self) -> str | None:
        """The saved index state (JSON), None before the first save."""
        ...

    def save(self, state: str, rebuild: Iterable[str]) -> int:
        """Save the state and mark stories ``rebuild`` pending; returns the new generation."""
        ...


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

    # -- lists (``lists.LISTS``): keyset pages with facet counts, and every row streamed
    def list_page(self, name: str, query: ListQuery) -> ListPage: ...

    def list_rows(self, name: str, query: ListQuery) -> Iterator[dict[str, Any]]: ...

    # -- stories
    def replace_stories(self, stories: Sequence[Story]) -> None: ...

    def stories(self) -> list[Story]: ...

    def story(self, story_id: str) -> Story | None:
        """The story with this id or unique id prefix; AmbiguousIdError when not unique."""
        ...

    def story_redirect(self, story_id: str) -> str | None:
        """The id of the stored story an old story id (merged away; or a unique prefix of one)
        became, None when ``story_id`` is no old id; AmbiguousIdError when not unique."""
        ...

    def story_redirects(self) -> dict[str, str]:
        """Every old story id -> the id of the stored story it became."""
        ...

    def story_of(self, article_id: str) -> str | None: ...

    def story_summaries(
        self, limit: int | None = None, offset: int = 0, story_ids: Sequence[str] | None = None
    ) -> list[StorySummary]: ...

    def count_stories(self) -> int: ...

    # -- tracked quotes (one utterance across stories; ``stories/tracking.py``)
    def tracked_quotes(
        self,
        speaker: str | None = None,
        query: str | None = None,
        limit: int | None = 100,
        offset: int = 0,
        tracked_ids: Sequence[str] | None = None,
    ) -> list[TrackedQuoteRow]:
        """Most mentioned first; of one speaker, with ``query`` in the wording, among
        ``tracked_ids`` when given (each filter optional); all when ``limit`` is None."""
        ...

    def count_tracked_quotes(self, speaker: str | None = None, query: str | None = None) -> int: ...

    def tracked_quote(self, tracked_id: str) -> TrackedQuote | None:
        """The tracked quote with this id or unique id prefix; AmbiguousIdError when not
        unique."""
        ...

    def tracked_quotes_of(self, story_ids: Sequence[str]) -> list[TrackedQuote]: ...

    def tracked_ids_at(
        self, spans: Iterable[tuple[str, int, int]]
    ) -> dict[tuple[str, int, int], str]:
        """The tracked quote id of each quote mention span ``(article id, start, end)`` (a
        search hit's, say); spans that are no stored quote mention are left out."""
        ...

    # -- the story index: updated under a lock, stories rebuilt from a pending record
    def index_transaction(self) -> AbstractContextManager[IndexTransaction]:
        """Hold the index write lock (SQLite ``BEGIN IMMEDIATE``, PostgreSQL an advisory
        transaction lock) until the block ends; everything in it commits together. Reads of
        this store made by this thread inside the block see the same transaction."""
        ...

    def pending_rebuilds(self) -> tuple[int, list[str]]:
        """The index generation and the story keys waiting to be rebuilt."""
        ...

    def finish_rebuild(self, key: str, story: Story | None, generation: int) -> bool:
        """Store ``story`` (None: the key is gone) and clear ``key`` from the pending record,
        in one transaction. False, and nothing written, when the index is no longer at
        ``generation`` (another process updated it: rebuild from the new index)."""
        ...

    # -- state kept between runs
    def get_meta(self, key: str) -> str | None: ...

    def set_meta(self, key: str, value: str) -> None: ...
