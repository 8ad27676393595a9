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
from ..stories.index_state import IndexRows
from .listing import ListPage, ListQuery
from .profiles import DayCount, NameMatch, OutletProfile, PersonProfile, SpeakerProfile
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

# The meta row where a store before schema version 5 kept the story index as one JSON state
# (it becomes rows when the store is opened: ``index.upgrade_json_state``).
STORY_INDEX_KEY = "story_index"


class IndexTransaction(Protocol):
    """The story index read and written under the store's index write lock.

    Opened by ``Store.index_transaction()``: one index update at a time per store, across
    processes, held from the first read to the last write, committed with the record of the
    stories to rebuild. ``generation`` counts the saved updates; it was read under the lock.
    """

    generation: int
    # The index's rows, read and written in this transaction (``StoryIndex.use_rows``).
    rows: IndexRows

    def unindexed(self) -> list[str]:
        """Stored articles in no story of the index, in the order they were stored."""
        ...

    def save(self, rebuild: Iterable[str]) -> int:
        """Mark stories ``rebuild`` pending (the index rows written through ``rows`` commit with
        them); returns the new generation."""
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

    def add_batch(self, analyses: Sequence[ArticleAnalysis]) -> list[bool]:
        """Store analysed articles in one transaction (all or none); per article, False when
        it was already stored."""
        ...

    def analyses(self, article_ids: Sequence[str] | None = None) -> Iterator[ArticleAnalysis]:
        """Stored analyses in ingestion order (all, or the given ids)."""
        ...

    def analysis_data(self, article_ids: Sequence[str]) -> dict[str, str]:
        """The stored JSON text of the given articles' analyses (``ArticleAnalysis``), by id,
        unparsed: what a story rebuild sends to another process (``analyses`` reads it)."""
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

    def story_ids_of(self, article_ids: Sequence[str]) -> set[str]:
        """The ids of the stored stories holding any of these articles."""
        ...

    def count_story_quotes(self, story_ids: Sequence[str]) -> int:
        """The quotes of these stored stories added up (``len(story.quotes)`` each)."""
        ...

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
        variant: str | None = None,
    ) -> list[TrackedQuoteRow]:
        """Most mentioned first; of one speaker, with ``query`` in the wording, among
        ``tracked_ids``, with a mention of the ``variant`` when given (each filter optional);
        all when ``limit`` is None."""
        ...

    def count_tracked_quotes(
        self, speaker: str | None = None, query: str | None = None, variant: str | None = None
    ) -> int: ...

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

    # -- profiles of speakers, outlets and people (``profiles.py``), by name key
    def speaker_profile(self, key: str) -> SpeakerProfile | None: ...

    def outlet_profile(self, key: str) -> OutletProfile | None: ...

    def person_profile(self, key: str) -> PersonProfile | None: ...

    def stories_by_day(self) -> list[DayCount]:
        """Stories by the day of their first dated article, oldest first."""
        ...

    def profile_keys(self, kind: str, names: Iterable[str]) -> dict[str, str]:
        """The key of each of ``names`` with a profile of ``kind`` (speaker|outlet|person)."""
        ...

    def find_profiles(self, query: str, limit: int = 10) -> list[NameMatch]:
        """Speakers, outlets and people whose name key holds the query's."""
        ...

    # -- the story index: updated under a lock, stories rebuilt from a pending record
    def index_transaction(self) -> AbstractContextManager[IndexTransaction]:
        """Hold the index write lock (SQLite ``BEGIN IMMEDIATE``, PostgreSQL an advisory
        transaction lock) until the block ends; everything in it commits together. Reads of
        this store made by this thread inside the block see the same transaction."""
        ...

    def index_members(self, key: str) -> list[str] | None:
        """The article ids of the index's story ``key`` (founder first), None when there is no
        such story (merged away)."""
        ...

    def pending_rebuilds(self) -> tuple[int, list[str]]:
        """The index generation and the story keys waiting to be rebuilt."""
        ...

    def finish_rebuild(self, key: str, story: Story | None, generation: int) -> bool:
        """Store ``story`` (None: the key is gone) and clear ``key`` from the pending record,
        in one transaction. False, and nothing written, when the index is no longer at
        ``generation`` (another process updated it: rebuild from the new index)."""
        ...

    def finish_rebuilds(self, rebuilt: Sequence[tuple[str, Story | None]], generation: int) -> bool:
        """``finish_rebuild`` for several (key, story) pairs in one transaction: each story is
        stored when its key is still pending, and the keys are cleared; False, and nothing
        written, when the index is no longer at ``generation``."""
        ...

    # -- state kept between runs
    def get_meta(self, key: str) -> str | None: ...

    def set_meta(self, key: str, value: str) -> None: ...
