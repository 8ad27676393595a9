"""The SQL store: SQLite by default, PostgreSQL by URL (SQLAlchemy 2 Core).

Every article is written in one transaction together with its projections, so a crash
mid-ingest leaves the store as it was before that article. Every database failure, on a read
or a write, leaves through ``_failures`` as a ``StoreError`` saying what to check.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Connection,
    Engine,
    and_,
    create_engine,
    delete,
    event,
    func,
    insert,
    or_,
    select,
    text,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError

from ..errors import AmbiguousIdError, StoreError
from ..models import ArticleAnalysis, Story
from . import schema as t
from .base import Store
from .records import (
    ArticleRow,
    ArticleText,
    PersonRow,
    PostRow,
    QuoteRow,
    SearchHit,
    SpeakerRow,
    StorySummary,
)
from .search import MARK_CLOSE, MARK_OPEN, SNIPPET_TOKENS, like_snippet, search_terms, split_snippet


def normalise_url(url: str) -> str:
    """A bare file path (or `:memory:`) means SQLite; anything with `://` is used as is."""
    if "://" in url:
        return url
    if url == ":memory:":
        return "sqlite://"
    return f"sqlite:///{Path(url).expanduser()}"


def shown_url(url: str) -> str:
    """The URL for messages: the password hidden."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return url


# What to check, by backend, when the database fails under a running store.
CHECK_SQLITE = "check that the database file still exists, is readable and is not corrupted"
CHECK_SERVER = "check that the database server is up and the database still exists"


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.close()


class SqlStore:
    """Articles, their analyses and stories in one SQL database."""

    def __init__(self, url: str) -> None:
        self.url = normalise_url(url)
        try:
            self.engine: Engine = create_engine(self.url, future=True)
            if self.engine.dialect.name == "sqlite":
                event.listen(self.engine, "connect", _sqlite_pragmas)
            t.metadata.create_all(self.engine)
            self._check_version()
            self.fts = self.engine.dialect.name == "sqlite"
            if self.fts:
                self._create_fts()
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
        with self._failures("reading"), self.engine.connect() as conn:
            yield conn

    # -- schema ---------------------------------------------------------------------------

    def _check_version(self) -> None:
        with self.engine.begin() as conn:
            row = conn.execute(
                select(t.meta.c.value).where(t.meta.c.key == "schema_version")
            ).first()
            if row is None:
                conn.execute(
                    insert(t.meta).values(key="schema_version", value=str(t.SCHEMA_VERSION))
                )
            elif int(row[0]) > t.SCHEMA_VERSION:
                raise StoreError(
                    f"the store at {self.url} has schema version {row[0]}, newer than this "
                    f"newsloom ({t.SCHEMA_VERSION}); upgrade newsloom"
                )

    def _create_fts(self) -> None:
        """The FTS5 index over article titles+text and quotes (speaker+text), filled on insert.

        A store written before the index existed is indexed once, when it is first opened.
        """
        with self.engine.begin() as conn:
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
        with self._failures("writing (rolled back) to"), self.engine.begin() as conn:
            yield conn

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
        """Store one analysed article atomically. False when it was already stored."""
        with self.transaction() as conn:
            return self._insert(conn, analysis)

    def add_analyses(self, analyses: Iterable[ArticleAnalysis]) -> int:
        added = 0
        for analysis in analyses:
            added += self.add_analysis(analysis)
        return added

    def _insert(self, conn: Connection, analysis: ArticleAnalysis) -> bool:
        a = analysis.article
        if conn.execute(select(t.articles.c.id).where(t.articles.c.id == a.id)).first():
            return False
        conn.execute(
            insert(t.articles).values(
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
        )
        conn.execute(insert(t.analyses).values(article_id=a.id, data=analysis.model_dump_json()))
        rows = [
            dict(
                article_id=a.id,
                entity_id=e.id,
                name=e.name,
                type=e.type,
                age=e.age,
                roles=json.dumps(e.roles),
                mentions=len(e.mentions),
            )
            for e in analysis.entities
        ]
        if rows:
            conn.execute(insert(t.entities), rows)
        rows = [
            dict(
                article_id=a.id,
                start=q.start,
                end=q.end,
                text=q.text,
                kind=q.kind,
                cue=q.cue,
                speaker=q.speaker,
            )
            for q in analysis.quotes
        ]
        if rows:
            conn.execute(insert(t.quotes), rows)
        rows = [
            dict(
                article_id=a.id,
                post_id=p.id,
                platform=p.platform,
                handle=p.handle,
                author=p.author,
                date=p.date,
                text=p.text,
            )
            for p in analysis.posts
        ]
        if rows:
            conn.execute(insert(t.posts), rows)
        self._index_rows(
            conn,
            [("article", a.id, 0, len(a.text), a.title or "", a.text)]
            + [("quote", a.id, q.start, q.end, q.speaker or "", q.text) for q in analysis.quotes],
        )
        return True

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

    def article_ids(self) -> list[str]:
        with self._read() as conn:
            return [
                aid for (aid,) in conn.execute(select(t.articles.c.id).order_by(t.articles.c.id))
            ]

    def count_articles(self) -> int:
        with self._read() as conn:
            return conn.execute(select(func.count()).select_from(t.articles)).scalar_one()

    def articles(self, limit: int | None = None) -> list[ArticleRow]:
        c = t.articles.c
        query = select(c.id, c.source, c.published, c.title, c.origin, c.format).order_by(
            c.published.desc(), c.id
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

    def speakers(self) -> list[SpeakerRow]:
        """Speakers with how many quote mentions and articles they have."""
        q = t.quotes.c
        query = (
            select(
                q.speaker,
                func.count().label("quotes"),
                func.count(q.article_id.distinct()).label("articles"),
            )
            .where(q.speaker.is_not(None))
            .group_by(q.speaker)
            .order_by(func.count().desc(), q.speaker)
        )
        with self._read() as conn:
            return [SpeakerRow(**r._mapping) for r in conn.execute(query)]

    # -- search ---------------------------------------------------------------------------

    def search(self, query: str, limit: int = 20) -> list[SearchHit]:
        """Articles and quotes matching every word of ``query``, best first.

        Each hit: kind (article|quote), article_id, start/end (the quote span; the whole text
        for an article), title, source, published, story_id, speaker (quotes), snippet (plain
        text) and highlights ((start, end) offsets into the snippet). SQLite uses the FTS5
        index (porter stemming, bm25 rank); other databases fall back to LIKE.
        """
        terms = search_terms(query)
        if not terms or limit <= 0:
            return []
        if self.fts:
            return self._search_fts(terms, limit)
        return self._search_like(terms, limit)

    def _search_fts(self, terms: list[str], limit: int) -> list[SearchHit]:
        match = " ".join(f'"{term}"' for term in terms)
        sql = text(
            f"SELECT f.kind, f.article_id, f.span_start, f.span_end, f.title AS ftitle, "
            f"snippet({t.SEARCH_TABLE}, -1, :mo, :mc, '…', :n) AS snip, "
            "a.title, a.source, a.published, sa.story_id "
            f"FROM {t.SEARCH_TABLE} AS f JOIN articles AS a ON a.id = f.article_id "
            "LEFT JOIN story_articles AS sa ON sa.article_id = f.article_id "
            f"WHERE {t.SEARCH_TABLE} MATCH :q ORDER BY bm25({t.SEARCH_TABLE}) LIMIT :limit"
        )
        params = {
            "mo": MARK_OPEN,
            "mc": MARK_CLOSE,
            "n": SNIPPET_TOKENS,
            "q": match,
            "limit": limit,
        }
        with self._read() as conn:
            rows = conn.execute(sql, params).all()
        hits = []
        for r in rows:
            snippet, highlights = split_snippet(r.snip or "")
            hits.append(
                self._hit(
                    r.kind,
                    r.article_id,
                    r.span_start,
                    r.span_end,
                    r,
                    snippet,
                    highlights,
                    r.ftitle if r.kind == "quote" else None,
                )
            )
        return hits

    def _search_like(self, terms: list[str], limit: int) -> list[SearchHit]:
        """Search without FTS5 (PostgreSQL & co.): every word as a case-insensitive substring."""
        a, q, sa = t.articles.c, t.quotes.c, t.story_articles.c
        cols = (a.title, a.source, a.published, sa.story_id)
        art_query = (
            select(a.id, a.text, *cols)
            .outerjoin(t.story_articles, sa.article_id == a.id)
            .where(and_(*[or_(a.text.ilike(f"%{w}%"), a.title.ilike(f"%{w}%")) for w in terms]))
            .order_by(a.published.desc(), a.id)
            .limit(limit)
        )
        quote_query = (
            select(q.article_id, q.start, q.end, q.text, q.speaker, *cols)
            .join(t.articles, a.id == q.article_id)
            .outerjoin(t.story_articles, sa.article_id == q.article_id)
            .where(and_(*[or_(q.text.ilike(f"%{w}%"), q.speaker.ilike(f"%{w}%")) for w in terms]))
            .order_by(q.article_id, q.start)
            .limit(limit)
        )
        hits = []
        with self._read() as conn:
            for r in conn.execute(quote_query):
                snippet, highlights = like_snippet(r.text, terms)
                hits.append(
                    self._hit(
                        "quote", r.article_id, r.start, r.end, r, snippet, highlights, r.speaker
                    )
                )
            for row in conn.execute(art_query):
                snippet, highlights = like_snippet(row.text, terms)
                hits.append(
                    self._hit("article", row.id, 0, len(row.text), row, snippet, highlights, None)
                )
        return hits[:limit]

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
            member_ids = [aid for s in stories for aid in s.article_ids]
            old = {
                sid
                for (sid,) in conn.execute(
                    select(t.story_articles.c.story_id).where(
                        t.story_articles.c.article_id.in_(member_ids)
                    )
                )
            }
            old |= {s.id for s in stories}
            if old:
                conn.execute(delete(t.story_articles).where(t.story_articles.c.story_id.in_(old)))
                conn.execute(delete(t.stories).where(t.stories.c.id.in_(old)))
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

    def stories(self) -> list[Story]:
        query = select(t.stories.c.data).order_by(t.stories.c.n_articles.desc(), t.stories.c.id)
        with self._read() as conn:
            return [Story.model_validate_json(data) for (data,) in conn.execute(query)]

    def story(self, story_id: str) -> Story | None:
        """The story with this id, or with this unique id prefix (what a user types)."""
        exact = select(t.stories.c.data).where(t.stories.c.id == story_id)
        # A prefix is escaped so that `%` or `_` in it match themselves, not any text.
        escaped = story_id.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        prefix = select(t.stories.c.data).where(t.stories.c.id.like(f"{escaped}%", escape="\\"))
        with self._read() as conn:
            rows = conn.execute(exact).all() or conn.execute(prefix).all()
        if len(rows) > 1:
            raise AmbiguousIdError(
                f"story id prefix {story_id!r} is ambiguous ({len(rows)} stories); "
                "give more characters"
            )
        return Story.model_validate_json(rows[0][0]) if rows else None

    def story_of(self, article_id: str) -> str | None:
        query = select(t.story_articles.c.story_id).where(
            t.story_articles.c.article_id == article_id
        )
        with self._read() as conn:
            row = conn.execute(query).first()
        return row[0] if row else None

    def get_meta(self, key: str) -> str | None:
        with self._read() as conn:
            row = conn.execute(select(t.meta.c.value).where(t.meta.c.key == key)).first()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        with self.transaction() as conn:
            conn.execute(delete(t.meta).where(t.meta.c.key == key))
            conn.execute(insert(t.meta).values(key=key, value=value))


def _missing_sqlite_file(url: str) -> str | None:
    """The file of a SQLite URL when it does not exist (None for other URLs or in memory)."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        return None
    database = parsed.database or ""
    if parsed.get_backend_name() != "sqlite" or database in ("", ":memory:"):
        return None
    if database.startswith("file:"):  # a URI filename: leave it to SQLite
        return None
    return None if Path(database).exists() else database


def open_store(url: str, create: bool = True) -> Store:
    """The store at ``url``: a file path or ``:memory:`` (SQLite), or an SQLAlchemy URL.

    With ``create=False`` a SQLite file that does not exist is refused (a mistyped path must
    not become a new empty store); a PostgreSQL database that does not exist fails anyway.
    """
    if not create:
        missing = _missing_sqlite_file(normalise_url(url))
        if missing is not None:
            raise StoreError(
                f"no store at {missing}: the file does not exist. Check the --db path, "
                "or create the store with `newsloom ingest PATH... --db FILE`."
            )
    return SqlStore(url)
