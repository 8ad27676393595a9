"""The SQL store: SQLite by default, PostgreSQL by URL (SQLAlchemy 2 Core).

Every article is written in one transaction together with its projections, so a crash
mid-ingest leaves the store as it was before that article. Every database failure, on a read
or a write, leaves through ``_failures`` as a ``StoreError`` saying what to check.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from sqlalchemy import (
    Connection,
    Engine,
    create_engine,
    delete,
    event,
    exists,
    func,
    insert,
    literal,
    select,
    text,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from ..errors import AmbiguousIdError, StoreError
from ..models import ArticleAnalysis, Story, TrackedQuote
from ..stories.index_state import IndexRows
from . import pg_search, profiles
from . import schema as t
from .base import IndexTransaction, Store
from .connect import (
    CHECK_SERVER,
    CHECK_SQLITE,
    SQLITE_BUSY_TIMEOUT_S,
    WRITE_OPTION,
    missing_sqlite_file,
    normalise_url,
    shown_url,
    sqlite_begin,
    sqlite_connect,
)
from .index import SqlIndexRows
from .listing import ListPage, ListQuery
from .listing import page as list_page
from .listing import stream as list_stream
from .lists import LISTS, write_story_columns, write_story_facets
from .migrations import upgrade
from .records import (
    ArticleRow,
    ArticleText,
    PersonRow,
    PostRow,
    QuoteRow,
    SearchHit,
    SearchPage,
    SpeakerRow,
    StorySummary,
    TrackedQuoteRow,
)
from .redirects import follow_redirects, record_redirects, redirect_targets
from .search import (
    MARK_CLOSE,
    MARK_OPEN,
    SNIPPET_TOKENS,
    cut_snippet,
    search_terms,
    split_snippet,
)
from .tracking import chunks as _chunks
from .tracking import update_tracking

# PostgreSQL transaction-level advisory locks (fixed numbers, "nl" + a serial): one for
# creating the schema, one for story index updates (``index_transaction``).
SCHEMA_LOCK_KEY = 0x6E6C_0001
INDEX_LOCK_KEY = 0x6E6C_0002
# The meta row counting saved story index updates (see ``IndexTransaction.generation``).
GENERATION_KEY = "story_index_generation"


def _meta(conn: Connection, key: str) -> str | None:
    row = conn.execute(select(t.meta.c.value).where(t.meta.c.key == key)).first()
    return row[0] if row else None


def _set_meta(conn: Connection, key: str, value: str) -> None:
    conn.execute(delete(t.meta).where(t.meta.c.key == key))
    conn.execute(insert(t.meta).values(key=key, value=value))


def _generation(conn: Connection) -> int:
    return int(_meta(conn, GENERATION_KEY) or 0)


class _SqlIndexTransaction:
    """``IndexTransaction`` on the connection holding the index write lock."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.generation = _generation(conn)
        self._rows = SqlIndexRows(conn)
        self.rows: IndexRows = self._rows

    def unindexed(self) -> list[str]:
        return self._rows.unindexed()

    def save(self, rebuild: Iterable[str]) -> int:
        self.generation += 1
        _set_meta(self.conn, GENERATION_KEY, str(self.generation))
        keys = set(rebuild)
        p = t.pending_rebuilds.c
        if keys:
            have = {
                k for (k,) in self.conn.execute(select(p.story_key).where(p.story_key.in_(keys)))
            }
            new = [dict(story_key=k) for k in sorted(keys - have)]
            if new:
                self.conn.execute(insert(t.pending_rebuilds), new)
        return self.generation


class SqlStore:
    """Articles, their analyses and stories in one SQL database."""

    def __init__(self, url: str) -> None:
        self.url = normalise_url(url)
        # The connection of an open ``index_transaction``, per thread: reads inside it use it.
        self._held = threading.local()
        try:
            sqlite = make_url(self.url).get_backend_name() == "sqlite"
            connect_args = {"timeout": SQLITE_BUSY_TIMEOUT_S} if sqlite else {}
            self.engine: Engine = create_engine(self.url, connect_args=connect_args)
            if sqlite:
                event.listen(self.engine, "connect", sqlite_connect)
                event.listen(self.engine, "begin", sqlite_begin)
            self.fts = sqlite
            self._create_schema()
        except SQLAlchemyError as exc:
            raise StoreError(
                f"cannot open the store at {shown_url(self.url)}: {exc.__class__.__name__}: "
                f"{exc}. Check the --db URL (e.g. sqlite:///newsloom.db or "
                "postgresql+psycopg://user:pass@host/db)."
            ) from exc

    # -- the one place database errors become StoreError ----------------------------------

    @contextmanager
    def _failures(self, doing: str) -> Iterator[None]:
        try:
            yield
        except SQLAlchemyError as exc:
            check = CHECK_SQLITE if self.engine.dialect.name == "sqlite" else CHECK_SERVER
            cause = getattr(exc, "orig", None) or exc
            first_line = (str(cause).strip().splitlines() or [""])[0]
            raise StoreError(
                f"{doing} the store at {shown_url(self.url)} failed "
                f"({exc.__class__.__name__}: {first_line}); {check}"
            ) from exc

    @contextmanager
    def _read(self) -> Iterator[Connection]:
        """A connection for reads; a failure of the database becomes a StoreError."""
        held: Connection | None = getattr(self._held, "conn", None)
        with self._failures("reading"):
            if held is not None:
                yield held
                return
            with self.engine.connect() as conn:
                yield conn

    @contextmanager
    def _write_connection(self, lock: int | None = None) -> Iterator[Connection]:
        """A write transaction (SQLite: BEGIN IMMEDIATE), with PostgreSQL's advisory ``lock``
        held until it ends; inside an ``index_transaction`` of this thread, that one."""
        held: Connection | None = getattr(self._held, "conn", None)
        if held is not None:
            yield held
            return
        with self.engine.connect() as conn:
            conn.execution_options(**{WRITE_OPTION: True})
            with conn.begin():
                if lock is not None and self.engine.dialect.name == "postgresql":
                    conn.execute(select(func.pg_advisory_xact_lock(lock)))
                yield conn

    # -- schema ---------------------------------------------------------------------------

    def _create_schema(self) -> None:
        """Tables, version row and search index, created once even by processes opening a new
        store at the same moment: the whole check-and-create runs under the write lock."""
        with self._write_connection(SCHEMA_LOCK_KEY) as conn:
            t.metadata.create_all(conn)
            self._check_version(conn)
            if self.fts:
                self._create_fts(conn)
            elif self.engine.dialect.name == "postgresql":
                pg_search.create_search_index(conn)

    def _check_version(self, conn: Connection) -> None:
        """A new store gets the current version; an older one is upgraded to it (nothing of it
        lost); a newer one is refused."""
        found = _meta(conn, "schema_version")
        if found is not None and int(found) > t.SCHEMA_VERSION:
            raise StoreError(
                f"the store at {self.url} has schema version {found}, newer than this "
                f"newsloom ({t.SCHEMA_VERSION}); upgrade newsloom"
            )
        if found is not None and int(found) < t.SCHEMA_VERSION:
            upgrade(conn, int(found))
        if found is None or int(found) < t.SCHEMA_VERSION:
            _set_meta(conn, "schema_version", str(t.SCHEMA_VERSION))

    def _create_fts(self, conn: Connection) -> None:
        """The FTS5 index over article titles+text and quotes (speaker+text), filled on insert.

        A store written before the index existed is indexed once, when it is first opened.
        """
        exists = conn.execute(
            text("SELECT 1 FROM sqlite_master WHERE name = :n"), {"n": t.SEARCH_TABLE}
        ).first()
        if exists:
            return
        conn.execute(text(t.SEARCH_DDL))
        for row in conn.execute(select(t.articles.c.id, t.articles.c.title, t.articles.c.text)):
            self._index_rows(
                conn, [("article", row.id, 0, len(row.text), row.title or "", row.text)]
            )
        q = t.quotes.c
        rows = [
            ("quote", r.article_id, r.start, r.end, r.speaker or "", r.text)
            for r in conn.execute(select(q.article_id, q.start, q.end, q.speaker, q.text))
        ]
        self._index_rows(conn, rows)

    def _index_rows(
        self, conn: Connection, rows: list[tuple[str, str, int, int, str, str]]
    ) -> None:
        if not self.fts or not rows:
            return
        conn.execute(
            text(
                f"INSERT INTO {t.SEARCH_TABLE} "
                "(kind, article_id, span_start, span_end, title, body) "
                "VALUES (:kind, :article_id, :span_start, :span_end, :title, :body)"
            ),
            [
                dict(kind=k, article_id=a, span_start=s0, span_end=s1, title=ti, body=b)
                for k, a, s0, s1, ti, b in rows
            ],
        )

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        """All writes inside commit together or not at all."""
        with self._failures("writing (rolled back) to"), self._write_connection() as conn:
            yield conn

    @contextmanager
    def index_transaction(self) -> Iterator[IndexTransaction]:
        """The story index under its write lock; this thread's reads of the store inside the
        block run in the same transaction (they see what it wrote, and never wait on it)."""
        with (
            self._failures("updating the story index in"),
            self._write_connection(INDEX_LOCK_KEY) as conn,
        ):
            self._held.conn = conn
            try:
                yield _SqlIndexTransaction(conn)
            finally:
                self._held.conn = None

    def pending_rebuilds(self) -> tuple[int, list[str]]:
        p = t.pending_rebuilds.c
        with self._read() as conn:
            keys = [k for (k,) in conn.execute(select(p.story_key).order_by(p.story_key))]
            return _generation(conn), keys

    def finish_rebuild(self, key: str, story: Story | None, generation: int) -> bool:
        return self.finish_rebuilds([(key, story)], generation)

    def finish_rebuilds(self, rebuilt: Sequence[tuple[str, Story | None]], generation: int) -> bool:
        p = t.pending_rebuilds.c
        keys = [key for key, _ in rebuilt]
        with self.transaction() as conn:
            if self.engine.dialect.name == "postgresql":
                conn.execute(select(func.pg_advisory_xact_lock(INDEX_LOCK_KEY)))
            if _generation(conn) != generation:
                return False
            query = select(p.story_key).where(p.story_key.in_(keys))
            pending = set(conn.execute(query).scalars())
            conn.execute(delete(t.pending_rebuilds).where(p.story_key.in_(keys)))
            stories = [s for key, s in rebuilt if key in pending and s is not None]
            if stories:
                self._replace_stories(conn, stories)
            return True

    def index_members(self, key: str) -> list[str] | None:
        with self._read() as conn:
            return SqlIndexRows(conn).members(key)

    def close(self) -> None:
        self.engine.dispose()

    # -- articles -------------------------------------------------------------------------

    def has_article(self, article_id: str) -> bool:
        with self._read() as conn:
            return (
                conn.execute(select(t.articles.c.id).where(t.articles.c.id == article_id)).first()
                is not None
            )

    def add_analysis(self, analysis: ArticleAnalysis) -> bool:
        """Store one analysed article atomically. False when it was already stored (also when
        another process stored it between the check and the insert)."""
        try:
            with self.transaction() as conn:
                return self._insert(conn, [analysis])[0]
        except StoreError as exc:
            if isinstance(exc.__cause__, IntegrityError) and self.has_article(analysis.article.id):
                return False
            raise

    def add_analyses(self, analyses: Iterable[ArticleAnalysis]) -> int:
        return sum(self.add_batch(list(analyses)))

    def add_batch(self, analyses: Sequence[ArticleAnalysis]) -> list[bool]:
        """Store ``analyses`` in one transaction: one commit (one disk sync) for the batch
        instead of one per article; a crash keeps all of the batch or none of it. An article
        already stored, also earlier in the batch, gives False. When another process stores
        one of them meanwhile the batch rolls back and is stored article by article."""
        try:
            with self.transaction() as conn:
                return self._insert(conn, analyses)
        except StoreError as exc:
            if not isinstance(exc.__cause__, IntegrityError):
                raise
        return [self.add_analysis(analysis) for analysis in analyses]

    def _insert(self, conn: Connection, analyses: Sequence[ArticleAnalysis]) -> list[bool]:
        """Insert the analyses not stored yet (nor earlier in ``analyses``), a table at a time:
        one statement per table for the whole batch; which were added, in order."""
        ids = [a.article.id for a in analyses]
        known: set[str] = set()
        for chunk in _chunks(ids):
            query = select(t.articles.c.id).where(t.articles.c.id.in_(chunk))
            known.update(conn.execute(query).scalars())
        added: list[bool] = []
        fresh: list[ArticleAnalysis] = []
        for analysis in analyses:
            new = analysis.article.id not in known
            added.append(new)
            if new:
                known.add(analysis.article.id)
                fresh.append(analysis)
        if not fresh:
            return added
        articles = [
            dict(
                id=a.id,
                origin=a.origin,
                path=a.path,
                format=a.format,
                source=a.source,
                title=a.title,
                published=a.published,
                url=a.url,
                text=a.text,
                ingested_at=time.time(),
            )
            for a in (analysis.article for analysis in fresh)
        ]
        conn.execute(insert(t.articles), articles)
        conn.execute(
            insert(t.analyses),
            [dict(article_id=x.article.id, data=x.model_dump_json()) for x in fresh],
        )
        entities = [
            dict(
                article_id=x.article.id,
                entity_id=e.id,
                name=e.name,
                type=e.type,
                age=e.age,
                roles=json.dumps(e.roles),
                mentions=len(e.mentions),
            )
            for x in fresh
            for e in x.entities
        ]
        if entities:
            conn.execute(insert(t.entities), entities)
        quotes = [
            dict(
                article_id=x.article.id,
                start=q.start,
                end=q.end,
                text=q.text,
                kind=q.kind,
                cue=q.cue,
                speaker=q.speaker,
                speaker_text=q.speaker_text,
                speaker_confidence=q.speaker_confidence,
                speaker_kind=q.speaker_kind,
            )
            for x in fresh
            for q in x.quotes
        ]
        if quotes:
            conn.execute(insert(t.quotes), quotes)
        posts = [
            dict(
                article_id=x.article.id,
                post_id=p.id,
                platform=p.platform,
                handle=p.handle,
                author=p.author,
                date=p.date,
                text=p.text,
            )
            for x in fresh
            for p in x.posts
        ]
        if posts:
            conn.execute(insert(t.posts), posts)
        search: list[tuple[str, str, int, int, str, str]] = []
        for x in fresh:
            a = x.article
            search.append(("article", a.id, 0, len(a.text), a.title or "", a.text))
            search.extend(
                ("quote", a.id, q.start, q.end, q.speaker or "", q.text) for q in x.quotes
            )
        self._index_rows(conn, search)
        return added

    def analyses(self, article_ids: Sequence[str] | None = None) -> Iterator[ArticleAnalysis]:
        """Stored analyses in ingestion order (all, or the given ids)."""
        query = (
            select(t.analyses.c.data)
            .join(t.articles, t.articles.c.id == t.analyses.c.article_id)
            .order_by(t.articles.c.ingested_at, t.articles.c.id)
        )
        if article_ids is not None:
            query = query.where(t.analyses.c.article_id.in_(list(article_ids)))
        with self._read() as conn:
            for (data,) in conn.execute(query):
                yield ArticleAnalysis.model_validate_json(data)

    def analysis_data(self, article_ids: Sequence[str]) -> dict[str, str]:
        c = t.analyses.c
        query = select(c.article_id, c.data).where(c.article_id.in_(list(article_ids)))
        with self._read() as conn:
            return {aid: data for aid, data in conn.execute(query)}

    def article_ids(self) -> list[str]:
        with self._read() as conn:
            return [
                aid for (aid,) in conn.execute(select(t.articles.c.id).order_by(t.articles.c.id))
            ]

    def count_articles(self) -> int:
        with self._read() as conn:
            return conn.execute(select(func.count()).select_from(t.articles)).scalar_one()

    def articles(self, limit: int | None = None, offset: int = 0) -> list[ArticleRow]:
        c = t.articles.c
        query = (
            select(c.id, c.source, c.published, c.title, c.origin, c.format)
            .order_by(c.published.desc(), c.id)
            .offset(offset)
        )
        if limit:
            query = query.limit(limit)
        with self._read() as conn:
            return [ArticleRow(**r._mapping) for r in conn.execute(query)]

    def people(self, entity_types: Sequence[str] = ("PERSON",)) -> list[PersonRow]:
        """Entities grouped by name: articles naming them, ages and roles stated."""
        c = t.entities.c
        query = select(c.name, c.type, c.age, c.roles, c.article_id).where(
            c.type.in_(list(entity_types))
        )
        grouped: dict[tuple[str, str], PersonRow] = {}
        with self._read() as conn:
            for name, etype, age, roles, article_id in conn.execute(query):
                row = grouped.setdefault((name, etype), PersonRow(name, etype, [], [], []))
                if age is not None and age not in row.ages:
                    row.ages.append(age)
                for role in json.loads(roles):
                    if role not in row.roles:
                        row.roles.append(role)
                row.article_ids.append(article_id)
        return sorted(grouped.values(), key=lambda r: (-len(r.article_ids), r.name))

    def posts(self) -> list[PostRow]:
        """Embedded posts, one row per distinct post with the articles embedding it."""
        c = t.posts.c
        query = select(
            c.post_id, c.platform, c.handle, c.author, c.date, c.text, c.article_id
        ).order_by(c.date, c.post_id)
        grouped: dict[str, PostRow] = {}
        with self._read() as conn:
            for post_id, platform, handle, author, date, text, article_id in conn.execute(query):
                row = grouped.setdefault(
                    post_id, PostRow(post_id, platform, handle, author, date, text, [])
                )
                row.article_ids.append(article_id)
        return list(grouped.values())

    def quotes(
        self, speaker: str | None = None, limit: int = 100, offset: int = 0
    ) -> list[QuoteRow]:
        """Stored quote mentions (of one speaker, case-insensitive, when given), by article."""
        q, a, sa = t.quotes.c, t.articles.c, t.story_articles.c
        query = (
            select(
                q.article_id,
                q.start,
                q.end,
                q.text,
                q.kind,
                q.cue,
                q.speaker,
                a.source,
                a.published,
                a.title,
                sa.story_id,
                q.speaker_text,
                q.speaker_confidence,
                q.speaker_kind,
            )
            .join(t.articles, a.id == q.article_id)
            .outerjoin(t.story_articles, sa.article_id == q.article_id)
            .order_by(a.published, q.article_id, q.start)
            .limit(limit)
            .offset(offset)
        )
        if speaker is not None:
            query = query.where(func.lower(q.speaker) == speaker.lower())
        with self._read() as conn:
            return [QuoteRow(**r._mapping) for r in conn.execute(query)]

    def count_quotes(self, speaker: str | None = None) -> int:
        """How many quote mentions ``quotes`` lists for the same ``speaker``."""
        q = t.quotes.c
        query = select(func.count()).select_from(t.quotes)
        if speaker is not None:
            query = query.where(func.lower(q.speaker) == speaker.lower())
        with self._read() as conn:
            return conn.execute(query).scalar_one()

    def speakers(self) -> list[SpeakerRow]:
        """Speakers with how many quote mentions and articles they have, and how sure those
        attributions are on average (None when none was scored)."""
        q = t.quotes.c
        query = (
            select(
                q.speaker,
                func.count().label("quotes"),
                func.count(q.article_id.distinct()).label("articles"),
                func.avg(q.speaker_confidence).label("mean_confidence"),
            )
            .where(q.speaker.is_not(None))
            .group_by(q.speaker)
            .order_by(func.count().desc(), q.speaker)
        )
        with self._read() as conn:
            return [SpeakerRow(**r._mapping) for r in conn.execute(query)]

    # -- lists (``lists.py``: keyset pages, sorts, facet counts) --------------------------

    def list_page(self, name: str, query: ListQuery) -> ListPage:
        """One page of the list ``name`` (a key of ``lists.LISTS``) as ``query`` asks."""
        with self._read() as conn:
            return list_page(conn, LISTS[name](), query)

    def list_rows(self, name: str, query: ListQuery) -> Iterator[dict[str, Any]]:
        """Every row of the list ``name`` that ``query``'s filters leave, in its sort, read
        through one server-side cursor (flat memory; an export streams it)."""
        with self._read() as conn:
            yield from list_stream(conn, LISTS[name](), query)

    # -- search ---------------------------------------------------------------------------

    def search(self, query: str, limit: int = 20, offset: int = 0) -> SearchPage:
        """One page of the articles and quotes matching every word of ``query``, best first.

        Each hit: kind (article|quote), article_id, start/end (the quote span; the whole text
        for an article), title, source, published, story_id, speaker (quotes), snippet (plain
        text: the quote's own words for a quote, even when only its speaker matched) and
        highlights ((start, end) offsets into the snippet); ``total`` counts every hit.
        Whole words with stemming ("floods" finds "flooding"), ranked: SQLite's FTS5 index
        (porter, bm25) or PostgreSQL's tsvector columns (english, ts_rank_cd).
        """
        terms = search_terms(query)
        if not terms:
            return SearchPage(total=0, hits=[])
        if self.fts:
            return self._search_fts(terms, limit, offset)
        if self.engine.dialect.name == "postgresql":
            return self._search_pg(terms, limit, offset)
        raise StoreError(
            f"the store at {shown_url(self.url)} is a {self.engine.dialect.name} database: "
            "full-text search needs SQLite or PostgreSQL; copy the store to one of them"
        )

    def _search_fts(self, terms: list[str], limit: int, offset: int) -> SearchPage:
        match = " ".join(f'"{term}"' for term in terms)
        # A quote's snippet always comes from its text (column 1), never from its speaker.
        # Its speaker's words and confidence come from its row (found by its span; the quotes
        # table has no key), read for the page's hits alone.
        quote_row = (
            "FROM quotes AS q WHERE f.kind = 'quote' AND q.article_id = f.article_id "
            'AND q.start = f.span_start AND q."end" = f.span_end LIMIT 1'
        )
        # The page is chosen on rowids and ranks alone, then joined (CROSS JOIN keeps that
        # order): SQLite would otherwise join every match to its article, story and quote
        # before sorting (a word in 18,000 of 320k articles: 144 ms warm, 2.2 s cold).
        sql = text(
            f"WITH page AS (SELECT rowid AS hit, bm25({t.SEARCH_TABLE}) AS rank "
            f"FROM {t.SEARCH_TABLE} WHERE {t.SEARCH_TABLE} MATCH :q "
            "ORDER BY rank, rowid LIMIT :limit OFFSET :offset) "
            f"SELECT f.kind, f.article_id, f.span_start, f.span_end, f.title AS ftitle, "
            f"CASE WHEN f.kind = 'quote' "
            f"THEN snippet({t.SEARCH_TABLE}, 1, :mo, :mc, '…', :n) "
            f"ELSE snippet({t.SEARCH_TABLE}, -1, :mo, :mc, '…', :n) END AS snip, "
            "a.title, a.source, a.published, sa.story_id, "
            f"(SELECT q.speaker_text {quote_row}) AS speaker_text, "
            f"(SELECT q.speaker_confidence {quote_row}) AS speaker_confidence "
            f"FROM page CROSS JOIN {t.SEARCH_TABLE} AS f ON f.rowid = page.hit "
            "JOIN articles AS a ON a.id = f.article_id "
            "LEFT JOIN story_articles AS sa ON sa.article_id = f.article_id "
            f"WHERE {t.SEARCH_TABLE} MATCH :q ORDER BY page.rank, page.hit"
        )
        count = text(f"SELECT count(*) FROM {t.SEARCH_TABLE} WHERE {t.SEARCH_TABLE} MATCH :q")
        params = {
            "mo": MARK_OPEN,
            "mc": MARK_CLOSE,
            "n": SNIPPET_TOKENS,
            "q": match,
            "limit": limit,
            "offset": offset,
        }
        with self._read() as conn:
            total = conn.execute(count, {"q": match}).scalar_one()
            rows = conn.execute(sql, params).all() if limit > 0 else []
        hits = []
        for r in rows:
            snippet, highlights = split_snippet(r.snip or "")
            speaker = r.ftitle if r.kind == "quote" else None
            hits.append(
                self._hit(
                    r.kind, r.article_id, r.span_start, r.span_end, r, snippet, highlights, speaker
                )
            )
        return SearchPage(total=total, hits=hits)

    def _search_pg(self, terms: list[str], limit: int, offset: int) -> SearchPage:
        """Search PostgreSQL's tsvector columns (``pg_search``)."""
        with self._read() as conn:
            total = pg_search.count_hits(conn, terms)
            rows = pg_search.page_rows(conn, terms, limit, offset) if limit > 0 else []
        hits = []
        for r in rows:
            snippet, highlights = _pg_snippet(r)
            end = r.span_end if r.kind == "quote" else len(r.body)
            hits.append(
                self._hit(
                    r.kind, r.article_id, r.span_start, end, r, snippet, highlights, r.speaker
                )
            )
        return SearchPage(total=total, hits=hits)

    @staticmethod
    def _hit(
        kind: str,
        article_id: str,
        start: int,
        end: int,
        row: Any,
        snippet: str,
        highlights: list[tuple[int, int]],
        speaker: str | None,
    ) -> SearchHit:
        return SearchHit(
            kind=kind,
            article_id=article_id,
            start=start,
            end=end,
            title=row.title,
            source=row.source,
            published=row.published,
            story_id=row.story_id,
            speaker=speaker or None,
            snippet=snippet,
            highlights=[list(h) for h in highlights],
            speaker_text=row.speaker_text,
            speaker_confidence=row.speaker_confidence,
        )

    # -- stories --------------------------------------------------------------------------

    def story_summaries(
        self, limit: int | None = None, offset: int = 0, story_ids: Sequence[str] | None = None
    ) -> list[StorySummary]:
        """Stories without their analysis: id, title, article count, outlets, first/last date.

        Biggest stories first; cheap enough for a page listing thousands of stories.
        """
        s, sa, a = t.stories.c, t.story_articles.c, t.articles.c
        # Pick the page of stories first, then aggregate dates over those stories only.
        page = select(s.id).order_by(s.n_articles.desc(), s.id).offset(offset)
        if story_ids is not None:
            page = page.where(s.id.in_(list(story_ids)))
        if limit:
            page = page.limit(limit)
        chosen = page.subquery()
        query = (
            select(
                s.id,
                s.title,
                s.n_articles,
                func.min(a.published).label("first_published"),
                func.max(a.published).label("last_published"),
            )
            .join(chosen, chosen.c.id == s.id)
            .join(t.story_articles, sa.story_id == s.id)
            .join(t.articles, a.id == sa.article_id)
            .group_by(s.id, s.title, s.n_articles)
            .order_by(s.n_articles.desc(), s.id)
        )
        with self._read() as conn:
            rows = conn.execute(query).all()
            ids = [r.id for r in rows]
            outlets: dict[str, list[str]] = {i: [] for i in ids}
            if ids:
                sources = (
                    select(sa.story_id, a.source)
                    .distinct()
                    .join(t.articles, a.id == sa.article_id)
                    .where(sa.story_id.in_(ids))
                    .order_by(sa.story_id, a.source)
                )
                for story_id, source in conn.execute(sources):
                    if source:
                        outlets[story_id].append(source)
        return [StorySummary(**r._mapping, outlets=outlets[r.id]) for r in rows]

    def count_stories(self) -> int:
        with self._read() as conn:
            return conn.execute(select(func.count()).select_from(t.stories)).scalar_one()

    def article_text(self, article_id: str) -> ArticleText | None:
        """One stored article with its text (no analysis), or None."""
        c = t.articles.c
        query = select(
            c.id, c.origin, c.path, c.format, c.source, c.title, c.published, c.url, c.text
        ).where(c.id == article_id)
        with self._read() as conn:
            row = conn.execute(query).first()
        return ArticleText(**row._mapping) if row else None

    def replace_stories(self, stories: Sequence[Story]) -> None:
        """Write ``stories`` (replacing any stored story that shares an article with them)."""
        with self.transaction() as conn:
            self._replace_stories(conn, stories)

    @staticmethod
    def _replace_stories(conn: Connection, stories: Sequence[Story]) -> None:
        member_ids = [aid for s in stories for aid in s.article_ids]
        old = {
            sid
            for (sid,) in conn.execute(
                select(t.story_articles.c.story_id).where(
                    t.story_articles.c.article_id.in_(member_ids)
                )
            )
        }
        live = {s.id for s in stories}
        redirects = redirect_targets(conn, old - live, stories)
        old |= live
        if old:
            conn.execute(delete(t.story_articles).where(t.story_articles.c.story_id.in_(old)))
            conn.execute(delete(t.stories).where(t.stories.c.id.in_(old)))
        record_redirects(conn, redirects, live)
        gone = old - live
        for s in stories:
            conn.execute(
                insert(t.stories).values(
                    id=s.id,
                    title=s.title,
                    n_articles=len(s.article_ids),
                    data=s.model_dump_json(),
                )
            )
            conn.execute(
                insert(t.story_articles),
                [dict(story_id=s.id, article_id=a) for a in s.article_ids],
            )
        write_story_columns(conn, stories)
        write_story_facets(conn, old, [s.id for s in stories])
        update_tracking(conn, gone, stories)
        profiles.write_profiles(conn, old, stories)

    def stories(self) -> list[Story]:
        query = select(t.stories.c.data).order_by(t.stories.c.n_articles.desc(), t.stories.c.id)
        with self._read() as conn:
            stories = [Story.model_validate_json(data) for (data,) in conn.execute(query)]
            return self._with_tracked_ids(conn, stories)

    def story(self, story_id: str) -> Story | None:
        """The story with this id, or with this unique id prefix (what a user types)."""
        c = t.stories.c
        with self._read() as conn:
            found = _unique_id(conn, c.id, story_id, "story", "story ids")
            row = conn.execute(select(c.data).where(c.id == found)).first() if found else None
            if row is None:
                return None
            return self._with_tracked_ids(conn, [Story.model_validate_json(row[0])])[0]

    def story_redirect(self, story_id: str) -> str | None:
        """The id of the stored story that the old story id ``story_id`` (or a unique prefix of
        one) became; None when it is no redirected id. AmbiguousIdError if several match."""
        r = t.story_redirects.c
        with self._read() as conn:
            old = _unique_id(conn, r.old_id, story_id, "story", "old story ids")
            return follow_redirects(conn, old) if old else None

    def story_redirects(self) -> dict[str, str]:
        """Every redirected story id -> the id of the stored story it became."""
        r = t.story_redirects.c
        with self._read() as conn:
            old_ids = [old for (old,) in conn.execute(select(r.old_id).order_by(r.old_id))]
            found = {old: follow_redirects(conn, old) for old in old_ids}
        return {old: new for old, new in found.items() if new is not None}

    # -- tracked quotes -------------------------------------------------------------------

    def tracked_quotes(
        self,
        speaker: str | None = None,
        query: str | None = None,
        limit: int | None = 100,
        offset: int = 0,
        tracked_ids: Sequence[str] | None = None,
        variant: str | None = None,
    ) -> list[TrackedQuoteRow]:
        """Tracked quotes, most mentioned first: of one speaker (case-insensitive), with
        ``query`` in their canonical wording (case-insensitive), among ``tracked_ids`` (full
        ids, e.g. a page's quotes) and with a mention of the ``variant`` (``truncated`` ...)
        when given; all of them when ``limit`` is None."""
        c = t.tracked_quotes.c
        select_rows = select(
            c.id,
            c.text,
            c.speaker,
            c.n_mentions.label("mentions"),
            c.n_outlets.label("outlets"),
            c.n_stories.label("stories"),
            c.first_date,
            c.last_date,
        )
        select_rows = _tracked_filters(select_rows, speaker, query, variant)
        if tracked_ids is not None:  # a page's few ids, in chunks; ranked here
            rows: list[TrackedQuoteRow] = []
            with self._read() as conn:
                for chunk in _chunks(tracked_ids):
                    found = conn.execute(select_rows.where(c.id.in_(chunk)))
                    rows.extend(TrackedQuoteRow(**r._mapping) for r in found)
            rows.sort(key=lambda r: (-r.mentions, r.id))
            return rows[offset:] if limit is None else rows[offset : offset + limit]
        select_rows = select_rows.order_by(c.n_mentions.desc(), c.id).limit(limit).offset(offset)
        with self._read() as conn:
            return [TrackedQuoteRow(**r._mapping) for r in conn.execute(select_rows)]

    def count_tracked_quotes(
        self, speaker: str | None = None, query: str | None = None, variant: str | None = None
    ) -> int:
        counted = _tracked_filters(
            select(func.count()).select_from(t.tracked_quotes), speaker, query, variant
        )
        with self._read() as conn:
            return conn.execute(counted).scalar_one()

    def tracked_quote(self, tracked_id: str) -> TrackedQuote | None:
        """The tracked quote with this id or unique id prefix, or the one an earlier id of it
        now points at (``tracked_redirects``)."""
        c, r = t.tracked_quotes.c, t.tracked_redirects.c
        with self._read() as conn:
            found = _unique_id(conn, c.id, tracked_id, "tracked quote", "tracked quote ids")
            if found is None:  # an id the tracked quote had before a write changed it
                found = conn.execute(select(r.new_id).where(r.old_id == tracked_id)).scalar()
            row = conn.execute(select(c.data).where(c.id == found)).first() if found else None
        return TrackedQuote.model_validate_json(row[0]) if row else None

    def tracked_quotes_of(self, story_ids: Sequence[str]) -> list[TrackedQuote]:
        """Every tracked quote with a mention in one of the stories, most mentioned first."""
        n, c = t.tracked_nodes.c, t.tracked_quotes.c
        out: dict[str, TrackedQuote] = {}
        with self._read() as conn:
            for chunk in _chunks(story_ids):
                ids = select(n.tracked_id).where(n.story_id.in_(chunk)).scalar_subquery()
                for (data,) in conn.execute(select(c.data).where(c.id.in_(ids))):
                    q = TrackedQuote.model_validate_json(data)
                    out[q.id] = q
        return sorted(out.values(), key=lambda q: (-len(q.mentions), q.id))

    def tracked_ids_at(
        self, spans: Iterable[tuple[str, int, int]]
    ) -> dict[tuple[str, int, int], str]:
        """The tracked quote of each quote mention span ``(article id, start, end)``; a span
        that is no stored quote mention is left out."""
        m = t.tracked_mentions.c
        wanted = set(spans)
        found: dict[tuple[str, int, int], str] = {}
        with self._read() as conn:
            for chunk in _chunks(article_id for article_id, _, _ in wanted):
                query = select(m.article_id, m.start, m.end, m.tracked_id).where(
                    m.article_id.in_(chunk)
                )
                for article_id, start, end, tracked_id in conn.execute(query):
                    if (article_id, start, end) in wanted:
                        found[(article_id, start, end)] = tracked_id
        return found

    def _with_tracked_ids(self, conn: Connection, stories: list[Story]) -> list[Story]:
        """``stories`` with each quote's ``tracked_quote_id`` filled from the tracked nodes."""
        n = t.tracked_nodes.c
        found: dict[str, str] = {}
        for chunk in _chunks(s.id for s in stories):
            query = select(n.key, n.tracked_id).where(n.story_id.in_(chunk))
            found.update({key: tid for key, tid in conn.execute(query) if tid})
        for story in stories:
            for quote in story.quotes:
                quote.tracked_quote_id = found.get(f"{story.id}:{quote.id}")
        return stories

    # -- profiles (``profiles.py``) ---------------------------------------------------------

    def speaker_profile(self, key: str) -> profiles.SpeakerProfile | None:
        with self._read() as conn:
            return profiles.speaker_profile(conn, key)

    def outlet_profile(self, key: str) -> profiles.OutletProfile | None:
        with self._read() as conn:
            return profiles.outlet_profile(conn, key)

    def person_profile(self, key: str) -> profiles.PersonProfile | None:
        with self._read() as conn:
            return profiles.person_profile(conn, key)

    def stories_by_day(self) -> list[profiles.DayCount]:
        with self._read() as conn:
            return profiles.stories_by_day(conn)

    def profile_keys(self, kind: str, names: Iterable[str]) -> dict[str, str]:
        with self._read() as conn:
            return profiles.name_keys(conn, kind, names)

    def find_profiles(self, query: str, limit: int = 10) -> list[profiles.NameMatch]:
        with self._read() as conn:
            return profiles.find_names(conn, query, limit)

    def resolve_article_id(self, id_or_prefix: str) -> str | None:
        """The full id of the article with this id or unique id prefix, or None."""
        with self._read() as conn:
            return _unique_id(conn, t.articles.c.id, id_or_prefix, "article", "article ids")

    def story_of(self, article_id: str) -> str | None:
        query = select(t.story_articles.c.story_id).where(
            t.story_articles.c.article_id == article_id
        )
        with self._read() as conn:
            row = conn.execute(query).first()
        return row[0] if row else None

    def story_ids_of(self, article_ids: Sequence[str]) -> set[str]:
        """The ids of the stored stories holding these articles (one query per chunk)."""
        sa = t.story_articles.c
        found: set[str] = set()
        with self._read() as conn:
            for chunk in _chunks(article_ids):
                query = select(sa.story_id).where(sa.article_id.in_(chunk)).group_by(sa.story_id)
                found.update(sid for (sid,) in conn.execute(query))
        return found

    def count_story_quotes(self, story_ids: Sequence[str]) -> int:
        """The stories' quote counts (the list column ``n_quotes``) added up, without reading
        the stories themselves (one query per chunk)."""
        s = t.stories.c
        total = 0
        with self._read() as conn:
            for chunk in _chunks(story_ids):
                query = select(func.coalesce(func.sum(s.n_quotes), 0)).where(s.id.in_(chunk))
                total += conn.execute(query).scalar_one()
        return total

    def get_meta(self, key: str) -> str | None:
        with self._read() as conn:
            return _meta(conn, key)

    def set_meta(self, key: str, value: str) -> None:
        with self.transaction() as conn:
            _set_meta(conn, key, value)


def _tracked_filters(
    query: Any, speaker: str | None, text_query: str | None, variant: str | None = None
) -> Any:
    c, m = t.tracked_quotes.c, t.tracked_mentions.c
    if variant is not None:
        query = query.where(
            exists(select(literal(1)).where(m.tracked_id == c.id, m.variant == variant))
        )
    if speaker is not None:
        query = query.where(func.lower(c.speaker) == speaker.lower())
    if text_query:
        escaped = text_query.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        query = query.where(func.lower(c.text).like(f"%{escaped}%", escape="\\"))
    return query


def _pg_snippet(row: Any) -> tuple[str, list[tuple[int, int]]]:
    """The snippet of a PostgreSQL hit: its text's headline; for an article whose text has no
    matching word, its title's, as FTS5 ``snippet()`` shows the best-matching column."""
    snippet, highlights = cut_snippet(row.snip or "", row.body)
    if row.kind == "article" and not highlights and row.title:
        title_snippet, title_highlights = cut_snippet(row.title_snip or "", row.title)
        if title_highlights:
            return title_snippet, title_highlights
    return snippet, highlights


# Ids an id prefix is looked up against: two are enough to know it is ambiguous.
PREFIX_ROWS = 2


def _ids_by_id_or_prefix(conn: Connection, column: Any, value: str) -> list[str]:
    """``[value]`` when it is an id in ``column``, else up to PREFIX_ROWS ids starting with it."""
    if conn.execute(select(column).where(column == value)).first():
        return [value]
    # A prefix is escaped so that `%` or `_` in it match themselves, not any text.
    escaped = value.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    query = select(column).where(column.like(f"{escaped}%", escape="\\")).limit(PREFIX_ROWS)
    return [row[0] for row in conn.execute(query)]


def _unique_id(conn: Connection, column: Any, value: str, kind: str, several: str) -> str | None:
    """The one id in ``column`` that ``value`` is or starts; None when none does.

    AmbiguousIdError (the caller's mistake, not the store's) when it starts several."""
    ids = _ids_by_id_or_prefix(conn, column, value)
    if len(ids) > 1:
        raise AmbiguousIdError(
            f"{kind} id prefix {value!r} is ambiguous (it starts several {several}); "
            "give more characters"
        )
    return ids[0] if ids else None


def open_store(url: str, create: bool = True) -> Store:
    """The store at ``url``: a file path or ``:memory:`` (SQLite), or an SQLAlchemy URL.

    With ``create=False`` a SQLite file that does not exist is refused (a mistyped path must
    not become a new empty store); a PostgreSQL database that does not exist fails anyway.
    """
    if not create:
        missing = missing_sqlite_file(normalise_url(url))
        if missing is not None:
            raise StoreError(
                f"no store at {missing}: the file does not exist. Check the --db path, "
                "or create the store with `newsloom ingest PATH... --db FILE`."
            )
    return SqlStore(url)
