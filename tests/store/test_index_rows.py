"""The story index kept as rows (store/index.py) on SQLite and PostgreSQL: batches of a stream
read and write only their rows and end where the index in memory ends, a failed write leaves
nothing of its batch, and a store that kept the index as one JSON state is converted."""

from __future__ import annotations

import json
import random

import pytest
from sqlalchemy import select

from newsloom import api
from newsloom.errors import StoreError
from newsloom.store import STORY_INDEX_KEY, open_store
from newsloom.store import index as index_rows
from newsloom.store import schema as t
from newsloom.stories import index_state
from newsloom.stories.cluster import StoryIndex, cluster_analyses
from tests.stories.test_cluster import _unit, events, lookalike_stream, make


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


@pytest.mark.parametrize("read_whole", [0, 10**6])
def test_merged_keys_read_whole_or_one_by_one_end_alike(url, monkeypatch, read_whole):
    """Merged story keys are read whole while there are few, and looked up one by one past
    the bound: either way a later batch follows the merge, for story keys and for the
    stories its posting lists name."""
    from newsloom.stories.features import Features

    monkeypatch.setattr(index_state, "MERGED_READ_WHOLE", read_whole)

    def feats(event: int) -> Features:
        return Features(
            words=_unit([f"w{event}_{i}" for i in range(8)]), names=_unit([f"p{event}"])
        )

    store = open_store(url)
    with store.index_transaction() as txn:
        index = StoryIndex(rows=txn.rows)
        first, second = index.add("a0", feats(0)), index.add("a1", feats(1))
        index.save()
    assert first != second
    with store.index_transaction() as txn:
        index = StoryIndex(rows=txn.rows)
        kept = index._merge(first, second)
        index.save()
    with store.index_transaction() as txn:
        index = StoryIndex(rows=txn.rows)
        # a1's story was merged away: its words lead to the story that absorbed it
        assert index.add("a2", feats(1)) == kept
        assert index.story_key("a1") == kept
        assert index.state._all_merged is (read_whole > 0)
        index.save()
    store.close()


def kinds_stream(seed: int, events: int = 90, kinds: int = 30):
    """Events of a few kinds (each kind's words shared by its events, each event its own words
    and names), three to five articles each, neighbouring events interleaved: many candidate
    stories are read and scored without being joined."""
    from newsloom.stories.features import Features

    rng = random.Random(seed)
    feed = []
    for e in range(events):
        kind = [f"k{e % kinds}_{i}" for i in range(10)]
        own = [f"e{e}_{i}" for i in range(6)]
        for _ in range(rng.randint(3, 5)):
            words = rng.sample(kind, 4) + rng.sample(own, 4) + [f"n{rng.randrange(10**6)}"]
            feats = Features(words=_unit(words), names=_unit([f"p{e}", f"q{e}"]))
            feed.append((f"a{len(feed)}", feats))
    for i in range(0, len(feed) - 1, 2):  # neighbours swap: events overlap in time
        if rng.random() < 0.5:
            feed[i], feed[i + 1] = feed[i + 1], feed[i]
    return feed


def _forgetting_run(store, feed, batch: int) -> tuple[int, int]:
    """The feed through the rows in batches, forgetting clean stories between articles: the
    most clean stories held after a forget, and the story rows read."""
    features = dict(feed)
    held, reads = 0, 0
    for start in range(0, len(feed), batch):
        with store.index_transaction() as txn:
            rows = txn.rows
            real = rows.stories

            def counted(keys, real=real):
                nonlocal reads
                reads += len(keys)
                return real(keys)

            rows.stories = counted
            index = StoryIndex(lambda ids: {aid: features[aid] for aid in ids}, rows=rows)
            for aid, feats in feed[start : start + batch]:
                index.add(aid, feats)
                state = index.state
                state.forget_clean()
                held = max(held, sum(k not in state._dirty_stories for k in state.stories))
            index.save()
    return held, reads


@pytest.mark.parametrize(
    ("seed", "cache", "batch"), [(0, 0, 30), (1, 1, 37), (2, 1, 60), (3, 0, 11)]
)
def test_a_batch_that_forgets_the_stories_it_read_ends_as_the_index_in_memory(
    url, monkeypatch, seed, cache, batch
):
    """Stories read and not changed are dropped once more than ``STORY_CACHE`` are held, and
    read again when named: the stream ends exactly where the index in memory ends, and a batch
    holds no more clean stories than the bound between two articles. Without a bound reached
    (the same stream again) nothing is read twice: fewer story rows are read."""
    feed = kinds_stream(seed)
    memory = _memory(feed)
    store = open_store(url)
    ended = []
    runs = []
    for bound in (cache, 10**6):
        monkeypatch.setattr(index_state, "STORY_CACHE", bound)
        with store.transaction() as conn:
            index_rows.clear_index(conn)
        runs.append(_forgetting_run(store, feed, batch))
        with store.index_transaction() as txn:
            rows = StoryIndex(rows=txn.rows)
            ended.append(
                (rows.groups(), sorted((s.to_dict() for s in rows.state.all_stories()), key=str))
            )
    store.close()
    in_memory = sorted((s.to_dict() for s in memory.state.all_stories()), key=str)
    assert ended == [(memory.groups(), in_memory)] * 2
    (held, reads), (held_unbounded, reads_unbounded) = runs
    assert held <= cache < held_unbounded
    assert reads > reads_unbounded


def test_an_index_in_memory_forgets_nothing(monkeypatch):
    """Without rows the stories are the index itself: the bound never drops one."""
    monkeypatch.setattr(index_state, "STORY_CACHE", 0)
    index = _memory(lookalike_stream(2))
    before = len(index.state.stories)
    index.state.forget_clean()
    assert len(index.state.stories) == before > 0


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
