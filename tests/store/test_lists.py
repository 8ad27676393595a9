"""The store's lists on SQLite and PostgreSQL: keyset pages walked forwards and backwards give
every row once in the sort's order, facet counts equal the rows their filter leaves, words go
through the full-text index, the streamed rows are the paged rows, and a version-4 store gets
the story list's columns when it is opened."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from newsloom.errors import ListQueryError
from newsloom.store import LISTS, ListQuery, open_store
from newsloom.store.lists import STORY_SIZES
from newsloom.store.schema import SCHEMA_VERSION

from .list_builders import fill, invented_archive

# (list, sort) -> the item field holding the sort's value (None: a NULL sorts as '').
SORT_FIELDS = {
    ("stories", "size"): "n_articles",
    ("stories", "date"): "first_date",
    ("stories", "outlets"): "n_outlets",
    ("stories", "quotes"): "n_quotes",
    ("stories", "conflicts"): "n_conflicts",
    ("quotes", "mentions"): "mentions",
    ("quotes", "outlets"): "outlets",
    ("quotes", "stories"): "stories",
    ("quotes", "date"): "first_date",
    ("mentions", "date"): "published",
    ("mentions", "speaker"): "speaker",
    ("speakers", "quotes"): "quotes",
    ("speakers", "articles"): "articles",
    ("speakers", "name"): "speaker",
    ("speakers", "date"): "last_date",
    ("people", "articles"): "articles",
    ("people", "mentions"): "mentions",
    ("people", "name"): "name",
    ("people", "date"): "last_date",
    ("posts", "date"): "date",
    ("posts", "articles"): "articles",
    ("outlets", "articles"): "articles",
    ("outlets", "stories"): "stories",
    ("outlets", "name"): "outlet",
    ("outlets", "date"): "last_date",
    ("articles", "date"): "published",
    ("articles", "title"): "title",
}
# The key fields of each list's rows (unique per row).
KEYS = {
    "stories": ("id",),
    "quotes": ("id",),
    "mentions": ("article_id", "start", "end"),
    "speakers": ("speaker",),
    "people": ("name",),
    "posts": ("id",),
    "outlets": ("outlet",),
    "articles": ("id",),
}
PAGE = 7  # rows a test page holds: several pages per list, and pages cut through ties


@pytest.fixture(params=["sqlite", "postgresql"])
def archive(request, tmp_path):
    url = (
        str(tmp_path / "lists.db")
        if request.param == "sqlite"
        else request.getfixturevalue("pg_url")
    )
    store = open_store(url)
    fill(store)
    yield store
    store.close()


def _key(name: str, item: dict) -> tuple:
    return tuple(item[k] for k in KEYS[name])


def _page_size(total: int) -> int:
    """PAGE rows, fewer for a short list: at least three pages either way."""
    return min(PAGE, max(1, total // 3))


def _walk(store, name: str, sort: str | None, forwards: bool, size: int = PAGE) -> list[dict]:
    """Every page from one end to the other, following the cursors."""
    rows: list[dict] = []
    cursor = None
    while True:
        step = {"after": cursor} if forwards else {"before": cursor}
        found = store.list_page(name, ListQuery(sort=sort, limit=size, counts=False, **step))
        rows = rows + found.items if forwards else found.items + rows
        cursor = found.next if forwards else found.prev
        if cursor is None:
            return rows


@pytest.mark.parametrize("name", sorted(LISTS))
def test_keyset_pages_give_every_row_once_in_order(archive, name):
    spec = LISTS[name]()
    total = archive.list_page(name, ListQuery()).total
    size = _page_size(total)
    assert total >= 3 * size, "the invented archive must need several pages"
    for sort in spec.sorts:
        for sign in ("-", "+"):
            asked = f"{sign}{sort.name}"
            rows = _walk(archive, name, asked, forwards=True, size=size)
            keys = [_key(name, r) for r in rows]
            assert len(keys) == len(set(keys)) == total, (asked, len(keys), total)
            field = SORT_FIELDS[(name, sort.name)]
            values = [r[field] if r[field] is not None else "" for r in rows]
            assert values == sorted(values, reverse=sign == "-"), asked
            # Within a tie, rows come by key (in the sort's direction): the order is total,
            # so pages never overlap.
            for a, b in zip(rows, rows[1:], strict=False):
                if (a[field] or "") == (b[field] or ""):
                    assert (_key(name, a) < _key(name, b)) == (sign == "+"), asked
            streamed = list(archive.list_rows(name, ListQuery(sort=asked)))
            assert [_key(name, r) for r in streamed] == keys, asked


@pytest.mark.parametrize("name", ["stories", "mentions", "speakers", "outlets"])
def test_pages_walked_backwards_are_the_pages_walked_forwards(archive, name):
    size = _page_size(archive.list_page(name, ListQuery()).total)
    forwards = _walk(archive, name, None, forwards=True, size=size)
    cursor = None
    pages: list[list[dict]] = []
    while True:
        found = archive.list_page(name, ListQuery(limit=size, counts=False, after=cursor))
        pages.append(found.items)
        if found.next is None:
            break
        cursor = found.next
    # From the last page, `prev` leads back through the same pages to the first.
    last = archive.list_page(name, ListQuery(limit=size, counts=False, after=cursor))
    back: list[list[dict]] = [last.items] if cursor else []
    prev = last.prev
    while prev is not None:
        found = archive.list_page(name, ListQuery(limit=size, counts=False, before=prev))
        back.insert(0, found.items)
        prev = found.prev
    assert [r for p in back for r in p] == forwards
    assert len(pages) > 2


@pytest.mark.parametrize("name", sorted(LISTS))
def test_facet_counts_are_the_rows_each_value_leaves(archive, name):
    first = archive.list_page(name, ListQuery())
    checked = 0
    for facet in first.facets:
        assert facet.values, f"{name}.{facet.name} counts nothing"
        for value in facet.values:
            chosen = archive.list_page(name, ListQuery(facets={facet.name: value.value}))
            assert chosen.total == value.count, (name, facet.name, value)
            rows = list(archive.list_rows(name, ListQuery(facets={facet.name: value.value})))
            assert len(rows) == value.count
            checked += 1
    assert checked >= len(first.facets)


def test_two_facets_and_a_date_range_narrow_together(archive):
    both = ListQuery(facets={"outlet": "Metro Wire", "size": STORY_SIZES[1][1]})
    found = archive.list_page("stories", both)
    outlet_only = archive.list_page("stories", ListQuery(facets={"outlet": "Metro Wire"}))
    assert 0 < found.total < outlet_only.total
    size = next(f for f in found.facets if f.name == "size")
    chosen = [v for v in size.values if v.selected]
    assert [v.label for v in chosen] == [STORY_SIZES[1][1]]
    assert all(2 <= r["n_articles"] <= 4 for r in found.items)
    dated = archive.list_page("mentions", ListQuery(since="2023-01-01", until="2023-12"))
    assert dated.total and all(r["published"].startswith("2023") for r in dated.items)


@pytest.mark.parametrize(
    ("name", "words", "expected"),
    [
        ("articles", ["dredged"], 60),
        ("articles", ["Article", "17"], 1),
        ("articles", ["nosuchword"], 0),
        ("mentions", ["dredged"], 60),
        ("mentions", ["year"], 60),
        ("speakers", ["ruelas"], 1),
        ("stories", ["nosuchword"], 0),
    ],
)
def test_words_filter(archive, name, words, expected):
    assert archive.list_page(name, ListQuery(words=words)).total == expected


@pytest.mark.parametrize("word", ["dredged", "year", "nosuchword"])
def test_words_find_the_tracked_quotes_of_the_mentions_holding_them(archive, word):
    mentions = list(archive.list_rows("mentions", ListQuery(words=[word])))
    spans = [(m["article_id"], m["start"], m["end"]) for m in mentions]
    expected = set(archive.tracked_ids_at(spans).values())
    found = list(archive.list_rows("quotes", ListQuery(words=[word])))
    assert {q["id"] for q in found} == expected
    assert bool(expected) == (word != "nosuchword")


@pytest.mark.parametrize(
    ("query", "message"),
    [
        (ListQuery(sort="colour"), "no sort 'colour'"),
        (ListQuery(facets={"colour": "red"}), "no facet 'colour'"),
        (ListQuery(after="bm90IGEgY3Vyc29y"), "not one this list made"),
        (ListQuery(after="x", before="y"), "not both"),
    ],
)
def test_bad_requests_say_what_the_list_offers(archive, query, message):
    with pytest.raises(ListQueryError, match=message):
        archive.list_page("stories", query)


def test_a_cursor_of_another_sort_is_refused(archive):
    cursor = archive.list_page("stories", ListQuery(sort="size", limit=2)).next
    with pytest.raises(ListQueryError, match="another sort"):
        archive.list_page("stories", ListQuery(sort="date", after=cursor))


def test_a_version_4_store_gets_the_story_columns_when_opened(tmp_path):
    db = tmp_path / "old.db"
    store = open_store(str(db))
    fill(store, 30)
    fresh = store.list_page("stories", ListQuery(limit=100)).items
    store.close()
    import sqlite3

    conn = sqlite3.connect(db)
    conn.execute("DROP INDEX ix_stories_size")
    conn.execute("DROP INDEX ix_stories_first_date")
    for column in ("first_date", "last_date", "n_outlets", "n_quotes", "n_conflicts"):
        conn.execute(f"ALTER TABLE stories DROP COLUMN {column}")
    conn.execute("UPDATE newsloom_meta SET value = '4' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()
    store = open_store(str(db))
    try:
        assert store.list_page("stories", ListQuery(limit=100)).items == fresh
        assert store.get_meta("schema_version") == str(SCHEMA_VERSION)
        with store.engine.connect() as conn:  # type: ignore[attr-defined]
            names = {r[1] for r in conn.execute(text("PRAGMA index_list(stories)"))}
        assert {"ix_stories_size", "ix_stories_first_date"} <= names
    finally:
        store.close()


def test_the_invented_archive_has_ties_on_every_story_sort():
    _, stories = invented_archive()
    sizes = [len(s.article_ids) for s in stories]
    assert len(set(sizes)) < len(sizes)
