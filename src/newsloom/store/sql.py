"""The SQL store: SQLite by default, PostgreSQL by URL (SQLAlchemy 2 Core).

Every article is written in one transaction together with its projections, so a crash
mid-ingest leaves the store as it was before that article.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, delete, event, func, insert, select
from sqlalchemy.exc import SQLAlchemyError

from ..errors import StoreError
from ..models import ArticleAnalysis, Story
from . import schema as t


def normalise_url(url: str) -> str:
    """A bare file path (or `:memory:`) means SQLite; anything with `://` is used as is."""
    if "://" in url:
        return url
    if url == ":memory:":
        return "sqlite://"
    return f"sqlite:///{Path(url).expanduser()}"


def _sqlite_pragmas(dbapi_conn, _record) -> None:
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
        except SQLAlchemyError as exc:
            raise StoreError(
                f"cannot open the store at {self.url}: {exc.__class__.__name__}: {exc}. "
                "Check the --db URL (e.g. sqlite:///newsloom.db or "
                "postgresql+psycopg://user:pass@host/db)."
            ) from exc

    # -- schema ---------------------------------------------------------------------------

    def _check_version(self) -> None:
        with self.engine.begin() as conn:
            row = conn.execute(select(t.meta.c.value).where(t.meta.c.key == "schema_version")).first()
            if row is None:
                conn.execute(insert(t.meta).values(key="schema_version", value=str(t.SCHEMA_VERSION)))
            elif int(row[0]) > t.SCHEMA_VERSION:
                raise StoreError(
                    f"the store at {self.url} has schema version {row[0]}, newer than this "
                    f"newsloom ({t.SCHEMA_VERSION}); upgrade newsloom"
                )

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        """All writes inside commit together or not at all."""
        try:
            with self.engine.begin() as conn:
                yield conn
        except SQLAlchemyError as exc:
            raise StoreError(f"write to {self.url} failed and was rolled back: {exc}") from exc

    def close(self) -> None:
        self.engine.dispose()

    # -- articles -------------------------------------------------------------------------

    def has_article(self, article_id: str) -> bool:
        with self.engine.connect() as conn:
            return conn.execute(select(t.articles.c.id).where(t.articles.c.id == article_id)).first() is not None

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
                id=a.id, origin=a.origin, path=a.path, format=a.format, source=a.source,
                title=a.title, published=a.published, url=a.url, text=a.text,
                ingested_at=time.time(),
            )
        )
        conn.execute(insert(t.analyses).values(article_id=a.id, data=analysis.model_dump_json()))
        rows = [
            dict(article_id=a.id, entity_id=e.id, name=e.name, type=e.type, age=e.age,
                 roles=json.dumps(e.roles), mentions=len(e.mentions))
            for e in analysis.entities
        ]
        if rows:
            conn.execute(insert(t.entities), rows)
        rows = [
            dict(article_id=a.id, start=q.start, end=q.end, text=q.text, kind=q.kind,
                 cue=q.cue, speaker=q.speaker)
            for q in analysis.quotes
        ]
        if rows:
            conn.execute(insert(t.quotes), rows)
        rows = [
            dict(article_id=a.id, post_id=p.id, platform=p.platform, handle=p.handle,
                 author=p.author, date=p.date, text=p.text)
            for p in analysis.posts
        ]
        if rows:
            conn.execute(insert(t.posts), rows)
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
        with self.engine.connect() as conn:
            for (data,) in conn.execute(query):
                yield ArticleAnalysis.model_validate_json(data)

    def article_ids(self) -> list[str]:
        with self.engine.connect() as conn:
            return [aid for (aid,) in conn.execute(select(t.articles.c.id).order_by(t.articles.c.id))]

    def count_articles(self) -> int:
        with self.engine.connect() as conn:
            return conn.execute(select(func.count()).select_from(t.articles)).scalar_one()

    def articles(self, limit: int | None = None) -> list[dict[str, Any]]:
        c = t.articles.c
        query = select(c.id, c.source, c.published, c.title, c.origin, c.format).order_by(
            c.published.desc(), c.id
        )
        if limit:
            query = query.limit(limit)
        with self.engine.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(query)]

    def people(self, entity_types: Sequence[str] = ("PERSON",)) -> list[dict[str, Any]]:
        """Entities grouped by name: articles naming them, ages and roles stated."""
        c = t.entities.c
        query = select(c.name, c.type, c.age, c.roles, c.article_id).where(c.type.in_(list(entity_types)))
        grouped: dict[tuple[str, str], dict[str, Any]] = {}
        with self.engine.connect() as conn:
            for name, etype, age, roles, article_id in conn.execute(query):
                row = grouped.setdefault(
                    (name, etype),
                    {"name": name, "type": etype, "ages": [], "roles": [], "article_ids": []},
                )
                if age is not None and age not in row["ages"]:
                    row["ages"].append(age)
                for role in json.loads(roles):
                    if role not in row["roles"]:
                        row["roles"].append(role)
                row["article_ids"].append(article_id)
        return sorted(grouped.values(), key=lambda r: (-len(r["article_ids"]), r["name"]))

    def posts(self) -> list[dict[str, Any]]:
        """Embedded posts, one row per distinct post with the articles embedding it."""
        c = t.posts.c
        query = select(c.post_id, c.platform, c.handle, c.author, c.date, c.text, c.article_id).order_by(
            c.date, c.post_id
        )
        grouped: dict[str, dict[str, Any]] = {}
        with self.engine.connect() as conn:
            for post_id, platform, handle, author, date, text, article_id in conn.execute(query):
                row = grouped.setdefault(
                    post_id,
                    {"id": post_id, "platform": platform, "handle": handle, "author": author,
                     "date": date, "text": text, "article_ids": []},
                )
                row["article_ids"].append(article_id)
        return list(grouped.values())

    # -- stories --------------------------------------------------------------------------

    def replace_stories(self, stories: Sequence[Story]) -> None:
        """Write ``stories`` (replacing any stored story that shares an article with them)."""
        with self.transaction() as conn:
            member_ids = [aid for s in stories for aid in s.article_ids]
            old = {
                sid
                for (sid,) in conn.execute(
                    select(t.story_articles.c.story_id).where(t.story_articles.c.article_id.in_(member_ids))
                )
            }
            old |= {s.id for s in stories}
            if old:
                conn.execute(delete(t.story_articles).where(t.story_articles.c.story_id.in_(old)))
                conn.execute(delete(t.stories).where(t.stories.c.id.in_(old)))
            for s in stories:
                conn.execute(
                    insert(t.stories).values(
                        id=s.id, title=s.title, n_articles=len(s.article_ids),
                        first_published=None, data=s.model_dump_json(),
                    )
                )
                conn.execute(
                    insert(t.story_articles), [dict(story_id=s.id, article_id=a) for a in s.article_ids]
                )

    def stories(self) -> list[Story]:
        query = select(t.stories.c.data).order_by(t.stories.c.n_articles.desc(), t.stories.c.id)
        with self.engine.connect() as conn:
            return [Story.model_validate_json(data) for (data,) in conn.execute(query)]

    def story(self, story_id: str) -> Story | None:
        query = select(t.stories.c.data).where(t.stories.c.id.like(f"{story_id}%"))
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        if len(rows) > 1:
            raise StoreError(f"story id prefix {story_id!r} is ambiguous ({len(rows)} stories); give more characters")
        return Story.model_validate_json(rows[0][0]) if rows else None

    def story_of(self, article_id: str) -> str | None:
        query = select(t.story_articles.c.story_id).where(t.story_articles.c.article_id == article_id)
        with self.engine.connect() as conn:
            row = conn.execute(query).first()
        return row[0] if row else None

    def get_meta(self, key: str) -> str | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(t.meta.c.value).where(t.meta.c.key == key)).first()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        with self.transaction() as conn:
            conn.execute(delete(t.meta).where(t.meta.c.key == key))
            conn.execute(insert(t.meta).values(key=key, value=value))


def open_store(url: str) -> SqlStore:
    return SqlStore(url)
