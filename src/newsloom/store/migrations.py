"""Upgrading a store an older newsloom wrote, when it is opened (under the schema lock).

Each step only adds (columns, and their values from what the store already holds), so an
upgraded store loses nothing, and it commits with the new version number or not at all. Steps
are plain SQL that SQLite and PostgreSQL both run; a step finds what is already there before
it adds anything, so a store half-upgraded by hand still upgrades.
"""

from __future__ import annotations

import json

from sqlalchemy import Connection, bindparam, inspect, select, text, update

from ..models import Story
from . import schema as t
from .tracking import update_tracking

# The quote columns of version 3: the words naming the speaker, the attribution's confidence
# and the kind of speaker. The stored analyses (JSON) hold them for every quote.
SPEAKER_COLUMNS = ("speaker_text", "speaker_confidence", "speaker_kind")
# Stored analyses parsed at a time while the new columns are filled: memory stays flat on a
# store of millions of articles.
FILL_PAGE = 500


def upgrade(conn: Connection, found: int) -> None:
    """Bring a store at schema version ``found`` up to ``schema.SCHEMA_VERSION``."""
    if found < 3:
        _add_speaker_columns(conn)
    if found < 4:
        _track_stored_stories(conn)
    elif found < 9:
        _retrack_stored_stories(conn)


def _retrack_stored_stories(conn: Connection) -> None:
    """Versions 8 and 9: tracked quotes rebuilt with stop fingerprints (version 8; their
    tables are new and empty), then with every run fingerprinted and the people of each node
    (version 9): the tracked tables are emptied and filled again from the stored stories."""
    tables = (t.tracked_mentions, t.tracked_quotes, t.tracked_keys, t.tracked_nodes)
    for table in (*tables, t.tracked_prints, t.tracked_stops, t.tracked_redirects):
        conn.execute(table.delete())
    _track_stored_stories(conn)


def _track_stored_stories(conn: Connection) -> None:
    """Version 4: tracked quotes of the stories already stored (the tables are new and empty;
    ``create_all`` made them). Stories are read a page at a time; tracking page by page is
    what tracking them all at once gives (``store/tracking.py``)."""
    s = t.stories.c
    after = ""
    while True:
        page = conn.execute(
            select(s.id, s.data).where(s.id > after).order_by(s.id).limit(FILL_PAGE)
        ).all()
        if not page:
            return
        update_tracking(conn, set(), [Story.model_validate_json(data) for _, data in page])
        after = page[-1].id


def _add_speaker_columns(conn: Connection) -> None:
    """Version 3: the quotes' speaker words, confidence and kind, filled from the analyses."""
    have = {c["name"] for c in inspect(conn).get_columns(t.quotes.name)}
    quote = conn.dialect.identifier_preparer.quote
    for name in SPEAKER_COLUMNS:
        if name not in have:
            column_type = t.quotes.c[name].type.compile(dialect=conn.dialect)
            conn.execute(
                text(f"ALTER TABLE {quote(t.quotes.name)} ADD COLUMN {quote(name)} {column_type}")
            )
    _fill_speaker_columns(conn)


def _fill_speaker_columns(conn: Connection) -> None:
    """Copy each stored quote's speaker fields from its article's analysis to its row.

    A row is found by its article and span (the quotes table has no key of its own); a quote
    without any of the fields (every quote of an analysis made before they existed, but for
    ``speaker_text``) leaves its row NULL, as a new store would have it.
    """
    a, q = t.analyses.c, t.quotes.c
    fill = (
        update(t.quotes)
        .where(
            q.article_id == bindparam("b_article"),
            q.start == bindparam("b_start"),
            q.end == bindparam("b_end"),
        )
        .values({name: bindparam(f"b_{name}") for name in SPEAKER_COLUMNS})
    )
    after = ""
    while True:
        page = conn.execute(
            select(a.article_id, a.data)
            .where(a.article_id > after)
            .order_by(a.article_id)
            .limit(FILL_PAGE)
        ).all()
        if not page:
            return
        rows = [
            {
                "b_article": article_id,
                "b_start": quote["start"],
                "b_end": quote["end"],
                **{f"b_{name}": quote.get(name) for name in SPEAKER_COLUMNS},
            }
            for article_id, data in page
            for quote in json.loads(data).get("quotes", [])
            if any(quote.get(name) is not None for name in SPEAKER_COLUMNS)
        ]
        if rows:
            conn.execute(fill, rows)
        after = page[-1].article_id
