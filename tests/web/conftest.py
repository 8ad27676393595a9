"""Web fixtures: the example corpus analysed once per session, real servers on loopback ports,
and Playwright launching Debian's chromium (never a downloaded browser)."""

from __future__ import annotations

import json
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, REPO

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = REPO / "out" / "screenshots"
TOKEN = "test-token-1f2e"

# Untrusted input as it may arrive: markup, event handlers, javascript: URLs, a very long word.
LONG_WORD = "Z" * 3000
EVIL_TEXT = (
    'EVILTOWN — Officials found a <script>window.__pwned = "script"</script> tag in the feed on '
    "Monday, and an image <img src=x onerror=\"window.__pwned = 'img'\"> too.\n\n"
    '"We saw <svg onload=window.__pwned=1> in the page," said Jane Roe, 33, a spokesperson. '
    'Readers were told to click <a href="javascript:window.__pwned=2">here</a>.\n\n'
    f"The longest word was {LONG_WORD} and nobody could read it, Roe said."
)
EVIL_RECORDS = [
    {
        "title": (
            '<script>window.__pwned = "title"</script>Feed attack '
            "<b onmouseover=alert(1)>in Eviltown</b>"
        ),
        "source": "<i>Evil Wire</i>",
        "published": "2024-05-02",
        "url": "javascript:window.__pwned='url'",
        "text": EVIL_TEXT,
    },
    {
        "title": "Eviltown feed attack: officials react",
        "source": "Plain Daily",
        "published": "2024-05-03",
        "url": "https://plaindaily.example/2024/05/03/eviltown",
        "text": EVIL_TEXT.replace("Monday", "Tuesday") + "\n\nThe council will meet on Friday.",
    },
]


# One invented utterance followed across two stories on different topics, seven months apart:
# the February story (a harbour dredging vote) quotes it whole and cut short; the September
# story (a mayoral campaign) quotes it with one word swapped.
HARBOUR_LINE = (
    "We will not let this harbour become a museum for ships that no longer come, "
    "and we will pay for the dredging ourselves if we have to,"
)
HARBOUR_CUT = "We will not let this harbour become a museum for ships that no longer come,"
HARBOUR_SWAPPED = HARBOUR_LINE.replace("ships", "boats")
TRACKED_RECORDS = [
    {
        "title": "Saltmere council votes to dredge the old harbour itself",
        "source": "Saltmere Herald",
        "published": "2023-02-14",
        "url": "https://saltmereherald.example/2023/02/14/dredging-vote",
        "text": "SALTMERE — The town council voted on Monday to pay for dredging the old harbour "
        "channel after the port authority withdrew its funding in January.\n\n"
        f'"{HARBOUR_LINE}" council leader Odile Farrant said after the vote.\n\n'
        "The motion passed by seven votes to two. Engineers told councillors the silt in the "
        "channel had risen by almost a metre since 2019. Work is expected to begin in April and "
        "to last eleven weeks.",
    },
    {
        "title": "Council to fund Saltmere harbour dredging after port authority pulls out",
        "source": "Coastline Courier",
        "published": "2023-02-15",
        "url": "https://coastlinecourier.example/saltmere-dredging",
        "text": "SALTMERE — Councillors have agreed to fund the dredging of Saltmere's silted "
        "harbour channel themselves, after the port authority pulled its money from the "
        "project.\n\n"
        f'"{HARBOUR_CUT}" said Odile Farrant, the council leader.\n\n'
        "Seven councillors backed the plan and two opposed it. The channel's silt has risen by "
        "nearly a metre since 2019, engineers said. Dredging should start in April.",
    },
    {
        "title": "Farrant enters race for Saltmere mayor",
        "source": "Northshore Post",
        "published": "2023-09-19",
        "url": "https://northshorepost.example/farrant-mayor",
        "text": "SALTMERE — Odile Farrant will stand for mayor in the November election. She made "
        "the announcement on Tuesday at a packed rally in the Saltmere Arts Centre.\n\n"
        f'"{HARBOUR_SWAPPED}" Farrant told the rally, repeating her words from the winter.\n\n'
        "Farrant, 52, promised cheaper bus fares, a new library wing and a freeze on parking "
        "charges. Her rival, the former headteacher Bram Oduya, launched his own campaign last "
        "week.",
    },
    {
        "title": "Odile Farrant launches mayoral bid with bus fare pledge",
        "source": "Daily Tidings",
        "published": "2023-09-20",
        "url": "https://dailytidings.example/2023/09/20/farrant-bid",
        "text": "SALTMERE — Odile Farrant launched her bid to become mayor on Tuesday night at the "
        "Saltmere Arts Centre, pledging lower bus fares and a new library wing.\n\n"
        f'"{HARBOUR_SWAPPED}" Farrant said to cheers.\n\n'
        "Farrant faces the former headteacher Bram Oduya, who launched his campaign last week, "
        "in the November election. Parking charges would be frozen for two years under her "
        "plan.",
    },
]


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": str(CHROMIUM), "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


def _build_store(paths: list[str], db: Path) -> Path:
    from newsloom import api
    from newsloom.config import Settings

    store = api.open_store(str(db))
    try:
        api.ingest(paths, store, Settings(db_url=str(db)))
    finally:
        store.close()
    return db


@pytest.fixture(scope="session")
def corpus_db(tmp_path_factory) -> Path:
    """examples/corpus analysed into a store, once per session (about 15 s)."""
    return _build_store([str(EXAMPLES / "corpus")], tmp_path_factory.mktemp("corpus") / "corpus.db")


@pytest.fixture(scope="session")
def evil_db(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("evil")
    feed = folder / "evil.jsonl"
    feed.write_text("".join(json.dumps(r) + "\n" for r in EVIL_RECORDS), encoding="utf-8")
    return _build_store([str(feed)], folder / "evil.db")


@pytest.fixture(scope="session")
def tracked_db(tmp_path_factory) -> Path:
    """TRACKED_RECORDS ingested (the real pipeline): two stories sharing one tracked quote."""
    folder = tmp_path_factory.mktemp("tracked")
    feed = folder / "saltmere.jsonl"
    feed.write_text("".join(json.dumps(r) + "\n" for r in TRACKED_RECORDS), encoding="utf-8")
    return _build_store([str(feed)], folder / "tracked.db")


def copy_db(db: Path, target: Path) -> Path:
    """A private copy of a store (the server may write to it)."""
    for suffix in ("", "-wal", "-shm"):
        src = Path(str(db) + suffix)
        if src.exists():
            shutil.copyfile(src, Path(str(target) + suffix))
    return target


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def running(app) -> Iterator[str]:
    """Serve ``app`` with uvicorn on a free loopback port in a thread; yield its base URL."""
    import uvicorn

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.fixture(scope="session")
def live_server(corpus_db, tmp_path_factory) -> Iterator[str]:
    """The app over a copy of the corpus store, with a write token."""
    from newsloom.web import create_app

    db = copy_db(corpus_db, tmp_path_factory.mktemp("live") / "live.db")
    with running(create_app(str(db), token=TOKEN)) as url:
        yield url


@pytest.fixture(scope="session")
def evil_server(evil_db, tmp_path_factory) -> Iterator[str]:
    from newsloom.web import create_app

    db = copy_db(evil_db, tmp_path_factory.mktemp("evil-live") / "evil.db")
    with running(create_app(str(db))) as url:
        yield url


def _write_report(db: Path, out: Path) -> Path:
    """The static report of the store at ``db``, written to ``out``."""
    from newsloom.render.html import write_report
    from newsloom.store import open_store

    store = open_store(str(db))
    try:
        write_report(store, out)
    finally:
        store.close()
    return out


@pytest.fixture(scope="session")
def corpus_report(corpus_db, tmp_path_factory) -> Path:
    return _write_report(corpus_db, tmp_path_factory.mktemp("report"))


@pytest.fixture(scope="session")
def evil_report(evil_db, tmp_path_factory) -> Path:
    return _write_report(evil_db, tmp_path_factory.mktemp("evil-report"))


@pytest.fixture(scope="session")
def tracked_report(tracked_db, tmp_path_factory) -> Path:
    return _write_report(tracked_db, tmp_path_factory.mktemp("tracked-report"))


@pytest.fixture(scope="session")
def tracked_server(tracked_db) -> Iterator[str]:
    from newsloom.web import create_app

    with running(create_app(str(tracked_db))) as url:
        yield url


@pytest.fixture(scope="session")
def doubt_db(tmp_path_factory) -> Path:
    """A store holding one invented story whose speakers are sure, doubtful and unresolved
    (``tests.stories.builders.speakers_in_doubt``)."""
    from newsloom.store import open_store
    from newsloom.stories import consolidate
    from tests.stories.builders import speakers_in_doubt

    db = tmp_path_factory.mktemp("doubt") / "doubt.db"
    analyses = speakers_in_doubt()
    store = open_store(str(db))
    try:
        store.add_analyses(analyses)
        store.replace_stories([consolidate(analyses)])
    finally:
        store.close()
    return db


@pytest.fixture(scope="session")
def doubt_report(doubt_db, tmp_path_factory) -> Path:
    return _write_report(doubt_db, tmp_path_factory.mktemp("doubt-report"))


@pytest.fixture(scope="session")
def doubt_server(doubt_db) -> Iterator[str]:
    from newsloom.web import create_app

    with running(create_app(str(doubt_db))) as url:
        yield url


@pytest.fixture(scope="session")
def merged(tmp_path_factory) -> tuple[Path, str, str]:
    """A store where one story was merged into another: (db, old id, id now)."""
    from newsloom.store import open_store
    from tests.reliability.test_story_ids import ingest_merging

    db = tmp_path_factory.mktemp("merged") / "merged.db"
    store = open_store(str(db))
    try:
        old, new = ingest_merging(store, str(db))
    finally:
        store.close()
    return db, old, new


@pytest.fixture(scope="session")
def merged_server(merged) -> Iterator[str]:
    from newsloom.web import create_app

    with running(create_app(str(merged[0]))) as url:
        yield url
