"""The library's entry points on a real SQLite store: incremental stories, recovery, export."""

from __future__ import annotations

import pytest
from sqlalchemy import delete

from newsloom import api
from newsloom.config import Settings
from newsloom.store import open_store
from newsloom.store import schema as t
from tests.conftest import EXAMPLES

CORPUS = EXAMPLES / "corpus"


def _inputs() -> tuple[list[str], list[str]]:
    """The example corpus in two halves, each holding part of several stories."""
    files = sorted(str(p) for p in CORPUS.rglob("*") if p.is_file())
    return files[::2], files[1::2]


def _groups(store) -> set[frozenset[str]]:
    return {frozenset(s.article_ids) for s in store.stories()}


@pytest.fixture(scope="module")
def batch_groups(tmp_path_factory) -> set[frozenset[str]]:
    db = tmp_path_factory.mktemp("batch") / "batch.db"
    store = open_store(str(db))
    first, second = _inputs()
    api.ingest(first + second, store, Settings(db_url=str(db)))
    groups = _groups(store)
    store.close()
    return groups


def test_ingesting_in_two_runs_attaches_to_existing_stories(tmp_path, batch_groups):
    db = str(tmp_path / "incremental.db")
    store = open_store(db)
    first, second = _inputs()
    report_a = api.ingest(first, store, Settings(db_url=db))
    stories_after_a = {s.id: set(s.article_ids) for s in store.stories()}
    report_b = api.ingest(second, store, Settings(db_url=db))
    assert report_a.added + report_b.added == store.count_articles()
    # Every story of the first run lives on, grown or as it was: the second run attached
    # articles to it instead of re-clustering the store.
    final = _groups(store)
    for members in stories_after_a.values():
        assert any(members <= group for group in final)
    assert final == batch_groups
    # No article is in two stories, and every stored article is in one.
    assert sum(len(g) for g in final) == store.count_articles()
    store.close()


def test_articles_stored_by_an_interrupted_run_get_a_story_next_time(tmp_path, batch_groups):
    db = str(tmp_path / "recover.db")
    store = open_store(db)
    first, second = _inputs()
    api.ingest(first, store, Settings(db_url=db))
    # Simulate a run that stored its articles but died before saving the story index.
    with store.transaction() as conn:
        conn.execute(delete(t.meta).where(t.meta.c.key == api.STORY_INDEX_KEY))
    api.ingest(second, store, Settings(db_url=db))
    assert sum(len(g) for g in _groups(store)) == store.count_articles()
    assert _groups(store) == batch_groups
    store.close()


def test_export_holds_the_stories_of_the_articles_asked_for(tmp_path):
    db = str(tmp_path / "export.db")
    store = open_store(db)
    first, _ = _inputs()
    report = api.ingest(first[:3], store, Settings(db_url=db))
    corpus = api.export(store, report.article_ids[:1])
    assert report.article_ids[0] in {a.id for a in corpus.articles}
    assert all(report.article_ids[0] in s.article_ids for s in corpus.stories)
    store.close()
