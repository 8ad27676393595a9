"""Opening a database: URLs as users type them, and SQLite set up for several writers.

SQLite runs in WAL mode with ``synchronous=FULL``; a write transaction starts with ``BEGIN
IMMEDIATE`` so that writers queue on the busy timeout instead of failing mid-transaction.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

from sqlalchemy import Connection
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError


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


# How long an SQLite write waits for another process's write transaction before failing with
# "database is locked": an index update of a large batch holds the write lock for seconds.
SQLITE_BUSY_TIMEOUT_S = 60.0
# Pause between tries to switch a new SQLite file to WAL: the other opener needs milliseconds.
WAL_RETRY_S = 0.01
# FULL: a committed write (a stored article, an acknowledged POST) survives a power loss. In
# WAL mode that is one fsync of the log per commit, small next to analysing one article;
# NORMAL could lose the last commits on power loss (never on a crash of the process).
SQLITE_SYNCHRONOUS = "FULL"


def sqlite_connect(dbapi_conn: Any, _record: Any) -> None:
    # The driver's implicit BEGIN is off: ``sqlite_begin`` starts every transaction.
    dbapi_conn.isolation_level = None
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA foreign_keys=ON")
    _enable_wal(cur)
    cur.execute(f"PRAGMA synchronous={SQLITE_SYNCHRONOUS}")
    cur.close()


def _enable_wal(cur: sqlite3.Cursor) -> None:
    """Switch to WAL; a new database is switched once, by whichever opener gets there first.

    The switch needs the file to itself for a moment, and SQLite answers "database is locked"
    at once (the busy timeout does not cover it) to another process opening the same new file
    at that instant: wait and retry for as long as the busy timeout allows.
    """
    deadline = time.monotonic() + SQLITE_BUSY_TIMEOUT_S
    while True:
        try:
            cur.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(WAL_RETRY_S)


def sqlite_begin(conn: Connection) -> None:
    """A write transaction takes SQLite's write lock when it begins (BEGIN IMMEDIATE), so two
    processes queue on the busy timeout instead of failing when a reader turns writer."""
    write = conn.get_execution_options().get(WRITE_OPTION, False)
    conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


# The execution option marking a connection's transaction as a write (SQLite: IMMEDIATE).
WRITE_OPTION = "newsloom_write"


def missing_sqlite_file(url: str) -> str | None:
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
