"""The story index kept as rows (store/index.py) on SQLite and PostgreSQL: batches of a stream
read and write only their rows and end where the index in memory ends, a failed write leaves
nothing of its batch, and a store that kept the index as one JSON state is converted."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import select

from newsloom import api
from newsloom.errors import StoreError
from newsloom.store import STORY_INDEX_KEY, open_store
from newsloom.store import index as index_rows
from newsloom.store import schema as t
from newsloom.stories.cluster import StoryIndex, cluster_analyses
from tests.stories.test_cluster import events, lookalike_stream, make


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'index.db'}"
    return request.getfixturevalue("pg_url")


def _memory(feed) -> StoryIndex:
    index = StoryIndex(lambda ids: {aid: dict(feed)[aid] for aid in ids})
    for aid, feats in feed:
        index.add(aid, feats)
    return index


def _in_batches(store, feed, batch: int, keep_recent: bool) -> StoryIndex:
    """The feed through the store's rows, one index transaction per ``batch`` articles; a new
    index per batch when not ``keep_recent`` (splits then read every member's features)."""
    features = dict(feed)
    index = StoryIndex(lambda ids: {aid: features[aid] for aid in ids})
    for start in range(0, len(feed), batch):
        with store.index_transaction() as txn:
            if not keep_recent:
                index = StoryIndex(lambda ids: {aid: features[aid] for aid in ids})
            index.use_rows(txn.rows)
            for aid, feats in feed[start : start + batch]:
                index.add(aid, feats)
            index.save()
    return index


@pytest.mark.parametrize(
    ("seed", "batch", "keep_recent"), [(0, 7, True), (1, 1, False), (3, 50, False), (4, 13, True)]
)
def test_a_stream_in_batches_of_rows_ends_as_the_index_in_memory(url, seed, batch, keep_recent):
    """Groups, keys and every story's centroids, norms and bookkeeping are equal (exactly: the
    rows give back the floats written), with a split and a merge on the way."""
    feed = lookalike_stream(seed)
    memory = _memory(feed)
    store = open_store(url)
    _in_batches(store, feed, batch, keep_recent)
    with store.index_transaction() as txn:
        rows = StoryIndex(rows=txn.rows)
        assert rows.groups() == memory.groups()
        assert [rows.story_key(aid) for aid, _ in feed] == [memory.story_key(a) for a, _ in feed]
        assert sorted((s.to_dict() for s in rows.state.all_stories()), key=str) == sorted(
            (s.to_dict() for s in memory.state.all_stories()), key=str
        )
        assert txn.rows.totals() == (memory.n, memory.state.counter)
        everything = memory.state.changes()
        assert txn.rows.df(list(everything.df)) == everything.df
        assert txn.rows.merged(list(everything.merged)) == everything.merged
    store.close()
    # The split of the look-alike stream happened (two stories hold A and B).
    assert len({memory.story_key(aid) for aid, _ in feed[40:]}) == 2


def test_a_batch_reads_the_rows_of_its_articles_not_the_index(tmp_path):
    """After a long stream, a batch of one article reads a few rows, whatever the size."""
    feed = lookalike_stream(2)
    store = open_store(str(tmp_path / "reads.db"))
    _in_batches(store, feed[:-1], 10, True)
    with store.index_transaction() as txn:
        index = StoryIndex(rows=txn.rows)
        index.add(*feed[-1])
        state = index.state
        read_stories, all_stories = len(state.stories), len(list(txn.rows.all_stories()))
        read_postings = len(state.postings)
    assert read_stories < all_stories / 3
    assert read_postings <= len(feed[-1][1].names) + len(feed[-1][1].words)
    store.close()


class _FailingWrite(Exception):
    pass


def test_an_index_write_that_fails_mid_batch_leaves_the_store_as_before(url, monkeypatch):
    """The write fails after its first rows: neither they nor the record of stories to
    rebuild are kept; the articles stay stored, and the next run indexes them as one run
    would have."""
    analyses, _ = events()
    store = open_store(url)
    api.ingest_analyses(analyses[:3], store)
    before = api.story_index_groups(store)
    stories_before = store.stories()
    real = index_rows._upsert
    written: list[str] = []

    def fail_on_stories(conn, table, rows):
        written.append(table.name)
        if table is index_rows.index_stories:
            raise _FailingWrite("the disk filled up")
        real(conn, table, rows)

    monkeypatch.setattr(index_rows, "_upsert", fail_on_stories)
    with pytest.raises((_FailingWrite, StoreError)):
        api.ingest_analyses(analyses[3:], store)
    assert "index_df" in written  # the batch had written rows before it failed
    monkeypatch.setattr(index_rows, "_upsert", real)
    assert store.count_articles() == len(analyses)
    assert api.story_index_groups(store) == before
    assert store.stories() == stories_before and store.pending_rebuilds()[1] == []
    with store.index_transaction() as txn:
        assert txn.unindexed() == [a.article.id for a in analyses[3:]]
    report = api.ingest_analyses([], store)
    assert report.rebuilt
    once = {frozenset(a.article.id for a in g) for g in cluster_analyses(analyses)}
    assert {frozenset(s.article_ids) for s in store.stories()} == once
    store.close()


def test_a_store_with_the_json_index_state_converts_it_to_rows_when_opened(url):
    """A version-4 store (the index as one JSON meta row) opens at the current version with the same
    index as rows, and goes on from it as the index in memory goes on."""
    feed = lookalike_stream(1)
    memory = _memory(feed[:45])
    store = open_store(url)
    with store.transaction() as conn:
        index_rows.clear_index(conn)
        conn.execute(t.meta.delete().where(t.meta.c.key == "schema_version"))
        conn.execute(
            t.meta.insert(),
            [
                dict(key="schema_version", value="4"),
                dict(key=STORY_INDEX_KEY, value=json.dumps(memory.to_dict())),
            ],
        )
    store.close()
    store = open_store(url)
    assert store.get_meta("schema_version") == str(t.SCHEMA_VERSION)
    assert store.get_meta(STORY_INDEX_KEY) is None
    assert api.story_index_groups(store) == memory.groups()
    for aid, feats in feed[45:]:
        memory.add(aid, feats)
    rows = _in_batches_from(store, feed[45:], dict(feed))
    assert rows == memory.groups()
    store.close()


def _in_batches_from(store, feed, features) -> list[list[str]]:
    index = StoryIndex(lambda ids: {aid: features[aid] for aid in ids})
    with store.index_transaction() as txn:
        index.use_rows(txn.rows)
        for aid, feats in feed:
            index.add(aid, feats)
        index.save()
    return api.story_index_groups(store)


def test_a_store_opened_twice_converts_once(tmp_path):
    db = str(tmp_path / "twice.db")
    store = open_store(db)
    analysis = make("Jane Roe opened the bridge in Springfield on Monday.")
    api.ingest_analyses([analysis], store)
    store.close()
    store = open_store(db)  # already version 5: nothing to convert, nothing lost
    with store._read() as conn:  # noqa: SLF001 - the rows themselves
        stored = conn.execute(select(index_rows.index_articles.c.article_id)).scalars().all()
    assert stored == [analysis.article.id]
    assert api.story_index_groups(store) == [[analysis.article.id]]
    store.close()


@pytest.mark.parametrize(
    ("asked", "expected"),
    [
        ([0], 1),  # one article: its story
        ([0, 1, 2], 1),  # three of one story: one
        ([0, 3, 6], 3),  # one of each: three
        ([], 0),
    ],
)
def test_story_ids_of_articles_counts_each_story_once(memory_store, asked, expected):
    analyses, _ = events()
    api.ingest_analyses(analyses, memory_store)
    ids = [analyses[i].article.id for i in asked] + ["no-such-article"]
    found = memory_store.story_ids_of(ids)
    assert len(found) == expected
    assert found == {memory_store.story_of(analyses[i].article.id) for i in asked}
