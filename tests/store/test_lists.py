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


# -- counts on a budget, facet rows kept with the stories --------------------------------------


# Articles of the archive the budget is tested on: enough that every facet count of the
# story list runs past SQLite's first look at the clock (``listing.PROGRESS_STEPS``); on 60
# articles some counts end sooner, and a count that ends is a right count, so it is kept.
BUDGET_ARTICLES = 400


@pytest.fixture(params=["sqlite", "postgresql"])
def big_archive(request, tmp_path):
    url = (
        str(tmp_path / "lists.db")
        if request.param == "sqlite"
        else request.getfixturevalue("pg_url")
    )
    store = open_store(url)
    fill(store, BUDGET_ARTICLES)
    yield store
    store.close()


@pytest.mark.parametrize(
    ("facets", "cap", "capped"),
    [
        ({}, 10_000, False),
        ({"outlet": "Metro Wire"}, 10_000, False),
        ({"outlet": "Metro Wire", "size": STORY_SIZES[1][1]}, 3, None),
        ({"speaker": "Ana Ruelas", "year": "2023"}, 1, True),
        ({"speaker": "Ana Ruelas", "year": "2023"}, 10_000, False),
    ],
)
def test_counts_over_budget_are_flagged_never_guessed(big_archive, facets, cap, capped):
    """A budget of 0 ms: the database stops every facet count (SQLite's progress handler
    interrupts it; PostgreSQL, whose timeout cannot go under 1 ms, is not asked), so no facet
    is counted; the total is exact when its count ends in time or fits the cap, else the cap
    flagged as a lower bound. ``capped`` None: either, by backend."""
    exact = big_archive.list_page("stories", ListQuery(facets=facets, count_budget_ms=60_000))
    assert exact.total and not exact.total_capped
    assert all(f.counted and f.values for f in exact.facets)
    over = big_archive.list_page(
        "stories", ListQuery(facets=facets, count_budget_ms=0, total_cap=cap)
    )
    assert [f.name for f in over.facets] == [f.name for f in exact.facets]
    assert [(f.counted, f.values) for f in over.facets] == [(False, [])] * len(exact.facets)
    if capped is not None:
        assert over.total_capped == capped
    if over.total_capped:
        assert over.total == cap < exact.total
    else:
        assert over.total == exact.total
    assert over.items == exact.items  # the page itself is never on the budget


def _facet_rows(store) -> set[tuple[str, str, str]]:
    with store.engine.connect() as conn:  # type: ignore[attr-defined]
        rows = conn.execute(
            text("SELECT facet, value, key FROM list_facets WHERE list = 'stories'")
        )
        return {tuple(r) for r in rows}


def _expected_facet_rows(store) -> set[tuple[str, str, str]]:
    """The facet rows as the stored stories, articles and quotes give them now."""
    from sqlalchemy import select

    from newsloom.store.lists import story_facet_values

    found = set()
    with store.engine.connect() as conn:  # type: ignore[attr-defined]
        for name, values in story_facet_values().items():
            rows = values.subquery()
            found |= {(name, v, k) for k, v in conn.execute(select(rows.c.key, rows.c.value))}
    return found


def test_facet_rows_follow_the_stories_they_describe(archive):
    before = _facet_rows(archive)
    assert before == _expected_facet_rows(archive)
    assert {facet for facet, _, _ in before} == {"outlet", "speaker", "year", "size", "conflict"}
    # Rewrite: the two biggest stories merged into one under a new id; their rows go with them.
    stories = sorted(archive.stories(), key=lambda s: -len(s.article_ids))
    merged = stories[0].model_copy(
        update={"id": "merged", "article_ids": stories[0].article_ids + stories[1].article_ids}
    )
    archive.replace_stories([merged])
    after = _facet_rows(archive)
    assert after == _expected_facet_rows(archive)
    keys = {k for _, _, k in after}
    assert "merged" in keys and not {stories[0].id, stories[1].id} & keys
    size = len(merged.article_ids)
    label = next((name for bound, name in STORY_SIZES if size <= bound), STORY_SIZES[-1][1])
    assert ("size", label, "merged") in after
    big = archive.list_page("stories", ListQuery(facets={"size": label}, limit=100))
    assert "merged" in {r["id"] for r in big.items}


def test_a_rewritten_storys_facet_rows_are_found_through_the_index(archive):
    """Deleting a story's facet rows names the facet too, so SQLite searches the (list,
    facet, key) index; by list and key alone it scanned every facet row of every story, a
    cost that grew with the archive (1.7 ms an article at 1M stored)."""
    from sqlalchemy import event

    deletes: list[tuple[str, object]] = []

    def seen(conn, cursor, statement, parameters, context, executemany):
        if statement.lstrip().upper().startswith("DELETE FROM LIST_FACETS"):
            deletes.append((statement, parameters))

    engine = archive.engine  # type: ignore[attr-defined]
    event.listen(engine, "before_cursor_execute", seen)
    try:
        story = max(archive.stories(), key=lambda s: len(s.article_ids))
        archive.replace_stories([story.model_copy(update={"id": "rewritten"})])
    finally:
        event.remove(engine, "before_cursor_execute", seen)
    assert deletes
    if engine.dialect.name != "sqlite":
        return
    with engine.connect() as conn:
        for statement, parameters in deletes:
            plan = " ".join(
                r[-1] for r in conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {statement}", parameters)
            )
            assert "(list=? AND facet=? AND key=?)" in plan, plan


def test_a_version_9_store_gets_the_facet_rows_and_outlet_index_when_opened(tmp_path):
    db = tmp_path / "old.db"
    store = open_store(str(db))
    fill(store, 30)
    fresh = store.list_page("stories", ListQuery(facets={"outlet": "Metro Wire"}, limit=100))
    rows = _facet_rows(store)
    store.close()
    import sqlite3

    conn = sqlite3.connect(db)
    conn.execute("DROP TABLE list_facets")
    conn.execute("DROP INDEX ix_profile_outlets_summary")
    conn.execute(
        "CREATE INDEX ix_profile_outlets_outlet ON profile_outlets (outlet_key, first_date)"
    )
    conn.execute("UPDATE newsloom_meta SET value = '9' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()
    store = open_store(str(db))
    try:
        assert store.get_meta("schema_version") == str(SCHEMA_VERSION)
        assert _facet_rows(store) == rows
        again = store.list_page("stories", ListQuery(facets={"outlet": "Metro Wire"}, limit=100))
        assert again == fresh
        with store.engine.connect() as conn:  # type: ignore[attr-defined]
            names = {r[1] for r in conn.execute(text("PRAGMA index_list(profile_outlets)"))}
        assert "ix_profile_outlets_summary" in names and "ix_profile_outlets_outlet" not in names
    finally:
        store.close()
