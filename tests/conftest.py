"""Shared fixtures: the spaCy model once per session, stores (in-memory SQLite, a fresh
PostgreSQL database), gold-data paths."""

from __future__ import annotations

import os
import time
import uuid
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
EXAMPLES = REPO / "examples"


@pytest.fixture(scope="session")
def nlp():
    from newsloom.nlp import load_nlp

    return load_nlp()


@pytest.fixture()
def memory_store():
    from newsloom.store import open_store

    store = open_store(":memory:")
    yield store
    store.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def archive(request, tmp_path):
    """The invented archive of ``tests/store/list_builders.py`` in a store of each backend
    (the lists' tests, served and static)."""
    from newsloom.store import open_store
    from tests.store.list_builders import fill

    url = (
        str(tmp_path / "lists.db")
        if request.param == "sqlite"
        else request.getfixturevalue("pg_url")
    )
    store = open_store(url)
    fill(store)
    yield store
    store.close()


DROP_ATTEMPTS = 20  # half a second apart

# The server scripts/pg-up.sh starts (``make test`` runs it); another one by URL.
PG_ADMIN_URL = os.environ.get(
    "NEWSLOOM_TEST_PG", "postgresql+psycopg://newsloom:newsloom@127.0.0.1:54329/postgres"
)


@pytest.fixture()
def pg_url():
    """The URL of a fresh PostgreSQL database, dropped after the test."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.exc import SQLAlchemyError

    admin = create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
    name = "newsloom_test_" + uuid.uuid4().hex[:12]
    try:
        with admin.connect() as conn:
            conn.execute(text(f"CREATE DATABASE {name}"))
    except SQLAlchemyError as exc:
        admin.dispose()
        pytest.skip(
            f"no PostgreSQL at {PG_ADMIN_URL} (start one with scripts/pg-up.sh): "
            f"{exc.__class__.__name__}"
        )
    yield PG_ADMIN_URL.rsplit("/", 1)[0] + "/" + name
    # FORCE ends the test's own sessions, but not an autovacuum worker the server started on
    # the new database (another role's process): wait for it to finish, then drop.
    for attempt in range(DROP_ATTEMPTS):
        try:
            with admin.connect() as conn:
                conn.execute(text(f"DROP DATABASE {name} WITH (FORCE)"))
            break
        except SQLAlchemyError:
            if attempt == DROP_ATTEMPTS - 1:
                raise
            time.sleep(0.5)
    admin.dispose()


@pytest.fixture(scope="session")
def shared_data() -> Path:
    data = SHARED / "data"
    if not data.is_dir():
        pytest.skip("../shared/data is absent (gold data is not part of the repository)")
    return data


def pytest_configure(config):
    # A served list page counts on a time budget (60 ms by default): on a busy machine even a
    # small archive can run over it. The tests check counts exactly, so the served app gets
    # room here, and the budget itself is tested with explicit values (tests/store/test_lists.py,
    # tests/web/test_lists_twins.py).
    os.environ.setdefault("NEWSLOOM_COUNT_BUDGET_MS", "60000")
