"""The story index as rows: ``stories.index_state.IndexRows`` on a store transaction.

One row per term's document frequency, per candidate key's posting list (its latest story
keys), per story (centroids and split bookkeeping as JSON), per merged story key and per
indexed article; the article and story-key totals are meta rows. An ingest reads the rows of
its batch's articles and candidates and writes back what changed, in the transaction that
holds the index lock (``SqlStore.index_transaction``), so articles, index and the record of
stories to rebuild commit together. Nothing reads the whole index (but ``all_stories``, for
inspection).
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Iterator
from typing import Any

import orjson
from sqlalchemy import Column, Connection, Integer, String, Table, Text, delete, select
from sqlalchemy.dialects import postgresql, sqlite

from ..stories.cluster import StoryIndex
from ..stories.index_state import IndexChanges, Story
from . import schema as t

# Keys per ``IN (...)`` query (well under SQLite's bound-variable limit).
READ_CHUNK = 500
# The meta rows holding the totals (articles in the index, story keys handed out).
ARTICLES_KEY = "story_index_articles"
COUNTER_KEY = "story_index_counter"

# A term key is the channel's prefix and the term ("w:flood", "p:flood water", "n:=jane roe").
index_df = Table(
    "index_df",
    t.metadata,
    Column("key", Text, primary_key=True),
    Column("df", Integer, nullable=False),
    sqlite_with_rowid=False,
)

# A candidate key's latest stories, space-separated, oldest first (``POSTING_LENGTH`` at most).
index_postings = Table(
    "index_postings",
    t.metadata,
    Column("key", Text, primary_key=True),
    Column("stories", Text, nullable=False),
    sqlite_with_rowid=False,
)

index_stories = Table(
    "index_stories",
    t.metadata,
    Column("key", String(16), primary_key=True),
    Column("data", Text, nullable=False),
)

index_merged = Table(
    "index_merged",
    t.metadata,
    Column("key", String(16), primary_key=True),
    Column("into_key", String(16), nullable=False),
    sqlite_with_rowid=False,
)

index_articles = Table(
    "index_articles",
    t.metadata,
    Column("article_id", String(32), primary_key=True),
    Column("story_key", String(16), nullable=False),
    sqlite_with_rowid=False,
)

INDEX_TABLES = (index_df, index_postings, index_stories, index_merged, index_articles)


def _chunks(values: Iterable[str]) -> Iterator[list[str]]:
    """``values`` in key order, ``READ_CHUNK`` at a time (each chunk's rows lie together)."""
    items = sorted(values)
    for i in range(0, len(items), READ_CHUNK):
        yield items[i : i + READ_CHUNK]


def _meta_int(conn: Connection, key: str) -> int:
    row = conn.execute(select(t.meta.c.value).where(t.meta.c.key == key)).first()
    return int(row[0]) if row else 0


def _upsert(conn: Connection, table: Table, rows: list[dict[str, Any]]) -> None:
    """Insert ``rows``, replacing the non-key columns of rows whose key is already there."""
    if not rows:
        return
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    stmt = dialect.insert(table)
    keys = [c.name for c in table.primary_key]
    stmt = stmt.on_conflict_do_update(
        index_elements=keys,
        set_={c.name: stmt.excluded[c.name] for c in table.columns if c.name not in keys},
    )
    conn.execute(stmt, rows)


def _story_json(story: Story) -> str:
    # orjson: a story row holds a few thousand terms, and an ingest at a million stored
    # articles reads three rows an article and writes one; the stdlib spends 0.3 ms reading
    # and 0.5 ms writing each, orjson a third and a twentieth of that (the same JSON).
    return orjson.dumps(story.to_dict()).decode()


class SqlIndexRows:
    """``IndexRows`` on one connection (the caller holds the index lock and the transaction)."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn

    def _lookup(self, table: Table, keys: Collection[str]) -> Iterator[Any]:
        key_column, value_column = list(table.columns)[:2]
        for chunk in _chunks(keys):
            yield from self.conn.execute(
                select(key_column, value_column).where(key_column.in_(chunk))
            )

    def totals(self) -> tuple[int, int]:
        return _meta_int(self.conn, ARTICLES_KEY), _meta_int(self.conn, COUNTER_KEY)

    def df(self, keys: Collection[str]) -> dict[str, int]:
        return {k: v for k, v in self._lookup(index_df, keys)}

    def postings(self, keys: Collection[str]) -> dict[str, list[str]]:
        return {k: v.split() for k, v in self._lookup(index_postings, keys)}

    def stories(self, keys: Collection[str]) -> dict[str, Story]:
        return {k: Story.from_dict(orjson.loads(v)) for k, v in self._lookup(index_stories, keys)}

    def merged(self, keys: Collection[str]) -> dict[str, str]:
        return {k: v for k, v in self._lookup(index_merged, keys)}

    def story_of(self, article_ids: Collection[str]) -> dict[str, str]:
        return {k: v for k, v in self._lookup(index_articles, article_ids)}

    def all_merged(self, limit: int) -> dict[str, str] | None:
        m = index_merged.c
        rows = self.conn.execute(select(m.key, m.into_key).limit(limit + 1)).all()
        return None if len(rows) > limit else {k: v for k, v in rows}

    def all_stories(self) -> Iterator[Story]:
        s = index_stories.c
        for (data,) in self.conn.execute(select(s.data).order_by(s.key)):
            yield Story.from_dict(orjson.loads(data))

    def members(self, key: str) -> list[str] | None:
        """The article ids of story ``key``, founder first; None when it has no row."""
        found = self.stories([key])
        return found[key].members if key in found else None

    def unindexed(self) -> list[str]:
        """Stored articles that are in no story of the index, in the order they were stored."""
        a, i = t.articles.c, index_articles.c
        query = (
            select(a.id)
            .where(~select(i.article_id).where(i.article_id == a.id).exists())
            .order_by(a.ingested_at, a.id)
        )
        return [aid for (aid,) in self.conn.execute(query)]

    def write(self, changes: IndexChanges) -> None:
        conn = self.conn
        _upsert(
            conn,
            t.meta,
            [
                dict(key=ARTICLES_KEY, value=str(changes.n)),
                dict(key=COUNTER_KEY, value=str(changes.counter)),
            ],
        )
        # In key order: a batch's terms and keys lie all over tables of millions of rows, and
        # written in order each B-tree page is visited once, left to right.
        _upsert(conn, index_df, [dict(key=k, df=changes.df[k]) for k in sorted(changes.df)])
        _upsert(
            conn,
            index_postings,
            [dict(key=k, stories=" ".join(changes.postings[k])) for k in sorted(changes.postings)],
        )
        for chunk in _chunks(changes.dropped):
            conn.execute(delete(index_stories).where(index_stories.c.key.in_(chunk)))
        _upsert(
            conn,
            index_stories,
            [dict(key=k, data=_story_json(s)) for k, s in changes.stories.items()],
        )
        _upsert(conn, index_merged, [dict(key=k, into_key=v) for k, v in changes.merged.items()])
        _upsert(
            conn,
            index_articles,
            [dict(article_id=a, story_key=k) for a, k in changes.story_of.items()],
        )


def clear_index(conn: Connection) -> None:
    """Remove every index row and total (the index starts again from the stored articles)."""
    for table in INDEX_TABLES:
        conn.execute(delete(table))
    conn.execute(delete(t.meta).where(t.meta.c.key.in_([ARTICLES_KEY, COUNTER_KEY])))


def upgrade_json_state(conn: Connection, state_key: str) -> None:
    """Version 5: the index state an older store kept as one JSON meta row becomes rows (read
    whole this once), and the meta row goes. A store without that row has nothing to convert.
    """
    row = conn.execute(select(t.meta.c.value).where(t.meta.c.key == state_key)).first()
    if row is None:
        return
    if row[0]:
        index = StoryIndex.from_dict(json.loads(row[0]))
        clear_index(conn)
        SqlIndexRows(conn).write(index.state.changes())
    conn.execute(delete(t.meta).where(t.meta.c.key == state_key))
