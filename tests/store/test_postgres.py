"""The same store on a real PostgreSQL server (scripts/pg-up.sh; skipped when none is up).

Each test gets a fresh database. The store's contract tests of test_sql.py run here
unchanged, then the library's own paths: incremental stories, a split across runs, an
atomic write, search (tsvector columns with GIN indexes, added to an older store when it is
opened; tests/store/test_search.py runs the search behaviour on both backends).
"""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, text

from newsloom import api
from newsloom.config import Settings
from newsloom.store import open_store
from newsloom.store.pg_search import COLUMN, VECTORS
from tests.store import test_sql as sqlite_contract
from tests.store.test_search import FLOODING
from tests.test_api import CORPUS, _fire_articles, _groups

pytestmark = pytest.mark.postgres


@pytest.fixture()
def pg_store(pg_url):
    store = open_store(pg_url)
    yield store
    store.close()


@pytest.mark.parametrize(
    "contract",
    [
        sqlite_contract.test_roundtrip_keeps_the_exact_text_and_analysis,
        sqlite_contract.test_speaker_words_confidence_and_kind_round_trip,
        sqlite_contract.test_people_and_posts_group_across_articles,
        sqlite_contract.test_stories_are_replaced_not_duplicated,
        sqlite_contract.test_index_rows_and_pending_rebuilds_commit_together,
        sqlite_contract.test_an_index_update_that_fails_leaves_neither_rows_nor_pending_record,
    ],
    ids=lambda f: f.__name__.removeprefix("test_"),
)
def test_store_contract_holds_on_postgres(pg_store, contract):
    assert pg_store.engine.dialect.name == "postgresql"
    contract(pg_store)


def test_same_article_twice_is_stored_once(pg_store):
    analysis = sqlite_contract.make_analysis(sqlite_contract.TEXT_A)
    assert pg_store.add_analysis(analysis) is True
    assert pg_store.add_analysis(analysis) is False
    assert pg_store.count_articles() == 1


def test_a_crash_mid_write_leaves_the_store_as_it_was(pg_url, monkeypatch):
    sqlite_contract.check_a_crash_mid_write_leaves_the_store_as_it_was(pg_url, monkeypatch)


def test_a_version_2_store_upgrades_and_loses_nothing(pg_url):
    sqlite_contract.check_a_version_2_store_upgrades_and_loses_nothing(pg_url)


def test_incremental_stories_on_postgres_match_one_sqlite_run(pg_url, tmp_path):
    files = sorted(str(p) for p in CORPUS.rglob("*") if p.is_file())
    store = open_store(pg_url)
    api.ingest(files[::2], store, Settings(db_url=pg_url))
    api.ingest(files[1::2], store, Settings(db_url=pg_url))
    db = str(tmp_path / "once.db")
    once = open_store(db)
    api.ingest(files[::2] + files[1::2], once, Settings(db_url=db))
    assert _groups(store) == _groups(once)
    assert sum(len(g) for g in _groups(store)) == store.count_articles() == once.count_articles()
    # The story index rows survive in PostgreSQL between runs: its stories are the stored ones.
    assert {frozenset(g) for g in api.story_index_groups(store)} == _groups(store)
    hits = store.search("Ondrasek").hits
    assert hits and all("ondrasek" in h.snippet.lower() for h in hits)
    once.close()
    store.close()


def test_a_story_split_by_a_later_run_on_postgres(pg_url, tmp_path):
    files = _fire_articles(tmp_path)
    store = open_store(pg_url)
    api.ingest(files[:7], store, Settings(db_url=pg_url))
    assert [len(s.article_ids) for s in store.stories()] == [7]
    api.ingest(files[7:], store, Settings(db_url=pg_url))
    assert [len(s.article_ids) for s in store.stories()] == [6, 6]
    store.close()


def test_a_database_dropped_mid_use_raises_store_error_on_reads(pg_url):
    from newsloom.errors import StoreError
    from tests.conftest import PG_ADMIN_URL

    store = open_store(pg_url)
    store.add_analysis(sqlite_contract.make_analysis(sqlite_contract.TEXT_A))
    assert store.count_articles() == 1
    name = pg_url.rsplit("/", 1)[1]
    admin = create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f"DROP DATABASE {name} WITH (FORCE)"))
        conn.execute(text(f"CREATE DATABASE {name}"))  # for the fixture's own drop
    admin.dispose()
    with pytest.raises(StoreError, match="database server is up") as raised:
        store.count_articles()
    assert "newsloom:***@" in str(raised.value)  # the password never reaches a message
    store.close()


def _gin_indexed_columns(url: str) -> set[tuple[str, str]]:
    engine = create_engine(url)
    with engine.connect() as conn:
        rows = conn.execute(
            text(
                "SELECT c.relname, a.attname FROM pg_index AS i "
                "JOIN pg_class AS c ON c.oid = i.indrelid "
                "JOIN pg_class AS ix ON ix.oid = i.indexrelid "
                "JOIN pg_am AS am ON am.oid = ix.relam AND am.amname = 'gin' "
                "JOIN pg_attribute AS a ON a.attrelid = c.oid AND a.attnum = ANY(i.indkey)"
            )
        ).all()
    engine.dispose()
    return {(table, column) for table, column in rows}


def test_a_store_made_before_full_text_search_is_indexed_when_opened(pg_url, monkeypatch):
    store = open_store(pg_url)
    store.add_analyses([FLOODING, sqlite_contract.make_analysis(sqlite_contract.TEXT_A)])
    with store.engine.begin() as conn:  # as a store written before the search columns existed
        for table in VECTORS:
            conn.execute(text(f"ALTER TABLE {table} DROP COLUMN IF EXISTS {COLUMN}"))
    store.close()
    assert _gin_indexed_columns(pg_url) == set()

    store = open_store(pg_url)
    assert _gin_indexed_columns(pg_url) == {("articles", COLUMN), ("quotes", COLUMN)}
    page = store.search("floods")
    assert [(h.kind, h.article_id) for h in page.hits] == [("article", FLOODING.article.id)]
    assert {h.kind for h in store.search("bridges").hits} == {"article", "quote"}
    store.close()

    # Opening an indexed store again changes nothing and takes no table lock: it opens while
    # another transaction reads the articles (an ALTER TABLE would wait for it).
    monkeypatch.setenv("PGOPTIONS", "-c lock_timeout=5000")
    reader = create_engine(pg_url)
    with reader.connect() as conn, conn.begin():
        conn.execute(text("SELECT count(*) FROM articles")).scalar_one()
        again = open_store(pg_url)
        assert again.search("floods").total == 1
        again.close()
    reader.dispose()
    assert _gin_indexed_columns(pg_url) == {("articles", COLUMN), ("quotes", COLUMN)}


def test_tracked_quotes_story_by_story_on_postgres(pg_url, tmp_path):
    from tests.store.test_tracking_store import check_story_by_story_equals_all_at_once

    check_story_by_story_equals_all_at_once(pg_url, f"sqlite:///{tmp_path / 'once.db'}")


def test_the_tracking_guards_story_by_story_on_postgres(pg_url, tmp_path):
    from tests.store.test_tracking_store import check_guarded_story_by_story_equals_all_at_once

    check_guarded_story_by_story_equals_all_at_once(pg_url, f"sqlite:///{tmp_path / 'once.db'}")


def test_a_version_3_store_gets_its_tracked_quotes_on_postgres(pg_url):
    from tests.store.test_tracking_store import check_a_version_3_store_gets_its_tracked_quotes

    check_a_version_3_store_gets_its_tracked_quotes(pg_url)


def test_an_earlier_tracked_id_leads_to_its_tracked_quote_on_postgres(pg_url):
    from tests.store.test_tracking_store import check_an_earlier_id_leads_to_its_tracked_quote

    check_an_earlier_id_leads_to_its_tracked_quote(pg_url)
