"""Upgrading a store an older newsloom wrote, when it is opened (under the schema lock).

Each step only adds (columns, and their values from what the store already holds), so an
upgraded store loses nothing, and it commits with the new version number or not at all. Steps
are plain SQL that SQLite and PostgreSQL both run; a step finds what is already there before
it adds anything, so a store half-upgraded by hand still upgrades.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from sqlalchemy import Connection, Table, bindparam, inspect, select, text, update

from ..models import Story
from . import schema as t
from .base import STORY_INDEX_KEY
from .index import upgrade_json_state
from .lists import fill_story_dates, story_columns, write_story_facets
from .profiles import write_profiles
from .tracking import update_tracking

# The quote columns of version 3: the words naming the speaker, the attribution's confidence
# and the kind of speaker. The stored analyses (JSON) hold them for every quote.
SPEAKER_COLUMNS = ("speaker_text", "speaker_confidence", "speaker_kind")
# Stored analyses parsed at a time while the new columns are filled: memory stays flat on a
# store of millions of articles.
FILL_PAGE = 500
# The story columns of version 6 and the value a story has before it is filled.
STORY_LIST_COLUMNS = {
    "first_date": "''",
    "last_date": "''",
    "n_outlets": "0",
    "n_quotes": "0",
    "n_conflicts": "0",
}
# The indexes version 6 adds to tables older stores already have (``create_all`` only makes
# the indexes of tables it creates).
LIST_INDEXES = (
    (t.articles, "ix_articles_published"),
    (t.articles, "ix_articles_source"),
    (t.stories, "ix_stories_size"),
    (t.stories, "ix_stories_first_date"),
    (t.tracked_quotes, "ix_tracked_quotes_mentions_id"),
)
# The index version 11 adds to ``tracked_mentions`` (the variant facet's counts and filter).
VARIANT_INDEX = "ix_tracked_mentions_variant"


def upgrade(conn: Connection, found: int) -> None:
    """Bring a store at schema version ``found`` up to ``schema.SCHEMA_VERSION``."""
    if found < 11:  # the column first: the tracking steps below write it
        _add_variant_column(conn)
    if found < 3:
        _add_speaker_columns(conn)
    if found < 4:
        _track_stored_stories(conn)
    elif found < 9:
        _retrack_stored_stories(conn)
    if found < 5:
        upgrade_json_state(conn, STORY_INDEX_KEY)
    if found < 6:
        _add_list_columns(conn)
    if found < 7:
        _profile_stored_stories(conn)
    if found < 10:
        _add_facet_rows(conn)
    if found < 11:
        _fill_mention_variants(conn)
    if found < 12:
        _cover_profile_names(conn)


# The outlet profile's index before version 10 (its two columns lead the one replacing it).
OLD_OUTLET_INDEX = "ix_profile_outlets_outlet"


def _add_facet_rows(conn: Connection) -> None:
    """Version 10: the story list's facet rows (a new table) from the stored stories, their
    articles and quotes, and the outlet profile's covering index in place of the old one."""
    conn.execute(t.list_facets.delete())
    write_story_facets(conn, set(), None)
    _replace_index(conn, t.profile_outlets, OLD_OUTLET_INDEX)


# The profile names' index by name before version 12 (without the key).
OLD_NAMES_INDEX = "ix_profile_names_name"


def _cover_profile_names(conn: Connection) -> None:
    """Version 12: the profile names' index by name holds the key, in place of the old one."""
    _replace_index(conn, t.profile_names, OLD_NAMES_INDEX)


def _replace_index(conn: Connection, table: Table, old: str) -> None:
    """Drop ``table``'s index ``old`` when the store has it, and make ``table``'s indexes."""
    names = {i["name"] for i in inspect(conn).get_indexes(table.name)}
    if old in names:
        conn.execute(text(f"DROP INDEX {conn.dialect.identifier_preparer.quote(old)}"))
    for index in table.indexes:
        index.create(conn, checkfirst=True)


def _add_variant_column(conn: Connection) -> None:
    """Version 11: ``tracked_mentions.variant`` and its index (the lists' variant facet)."""
    table = t.tracked_mentions
    if "variant" not in {c["name"] for c in inspect(conn).get_columns(table.name)}:
        quote = conn.dialect.identifier_preparer.quote
        column_type = table.c.variant.type.compile(dialect=conn.dialect)
        conn.execute(
            text(f"ALTER TABLE {quote(table.name)} ADD COLUMN {quote('variant')} {column_type}")
        )
    next(i for i in table.indexes if i.name == VARIANT_INDEX).create(conn, checkfirst=True)


def _fill_mention_variants(conn: Connection) -> None:
    """Version 11: each tracked mention's variant, read from its stored tracked quote (the
    JSON holds every mention with its variant). Only tracked quotes with a mention not filled
    yet are read, ``FILL_PAGE`` at a time: none when an earlier step tracked them again."""
    c, m = t.tracked_quotes.c, t.tracked_mentions.c
    unfilled = select(m.tracked_id).where(m.variant.is_(None))
    fill = (
        update(t.tracked_mentions)
        .where(
            m.article_id == bindparam("b_article"),
            m.start == bindparam("b_start"),
            m.end == bindparam("b_end"),
            m.tracked_id == bindparam("b_tracked"),
        )
        .values(variant=bindparam("b_variant"))
    )
    after = ""
    while True:
        page = conn.execute(
            select(c.id, c.data)
            .where(c.id > after, c.id.in_(unfilled))
            .order_by(c.id)
            .limit(FILL_PAGE)
        ).all()
        if not page:
            return
        rows = [
            {
                "b_article": mention["article_id"],
                "b_start": mention["start"],
                "b_end": mention["end"],
                "b_tracked": tracked_id,
                "b_variant": mention["variant"],
            }
            for tracked_id, data in page
            for mention in json.loads(data)["mentions"]
        ]
        if rows:
            conn.execute(fill, rows)
        after = page[-1].id


def _retrack_stored_stories(conn: Connection) -> None:
    """Versions 8 and 9: tracked quotes rebuilt with stop fingerprints (version 8; their
    tables are new and empty), then with every run fingerprinted and the people of each node
    (version 9): the tracked tables are emptied and filled again from the stored stories."""
    tables = (t.tracked_mentions, t.tracked_quotes, t.tracked_keys, t.tracked_nodes)
    for table in (*tables, t.tracked_prints, t.tracked_stops, t.tracked_redirects):
        conn.execute(table.delete())
    _track_stored_stories(conn)


def _profile_stored_stories(conn: Connection) -> None:
    """Version 7: the profile rows of the stories already stored (new, empty tables)."""
    for page in _stored_story_pages(conn):
        write_profiles(conn, set(), page)


def _add_list_columns(conn: Connection) -> None:
    """Version 6: the story list's columns, filled from the stored stories (quotes and
    conflicts) and their articles (dates and outlets), and the lists' indexes."""
    have = {c["name"] for c in inspect(conn).get_columns(t.stories.name)}
    quote = conn.dialect.identifier_preparer.quote
    for name, default in STORY_LIST_COLUMNS.items():
        if name not in have:
            column_type = t.stories.c[name].type.compile(dialect=conn.dialect)
            conn.execute(
                text(
                    f"ALTER TABLE {quote(t.stories.name)} ADD COLUMN {quote(name)} "
                    f"{column_type} NOT NULL DEFAULT {default}"
                )
            )
    for table, name in LIST_INDEXES:
        next(i for i in table.indexes if i.name == name).create(conn, checkfirst=True)
    for page in _stored_story_pages(conn):
        for story in page:
            values = story_columns(story)
            conn.execute(update(t.stories).where(t.stories.c.id == story.id).values(values))
    fill_story_dates(conn)


def _track_stored_stories(conn: Connection) -> None:
    """Version 4: tracked quotes of the stories already stored (the tables are new and empty;
    ``create_all`` made them). Tracking page by page is what tracking them all at once gives
    (``store/tracking.py``)."""
    for page in _stored_story_pages(conn):
        update_tracking(conn, set(), page)


def _stored_story_pages(conn: Connection) -> Iterator[list[Story]]:
    """The stored stories, ``FILL_PAGE`` at a time in id order (memory stays flat)."""
    s = t.stories.c
    after = ""
    while True:
        page = conn.execute(
            select(s.id, s.data).where(s.id > after).order_by(s.id).limit(FILL_PAGE)
        ).all()
        if not page:
            return
        yield [Story.model_validate_json(data) for _, data in page]
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
