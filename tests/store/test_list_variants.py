"""The variant facet of the quote lists on SQLite and PostgreSQL: on the mentions list each
mention is counted and filtered by how it words its tracked quote (one value; "not tracked"
for a mention of an article in no story), on the quotes list each tracked quote by every
variant its mentions have (many values). The counts and filters agree with the stored tracked
quotes' own mentions (their JSON), and a version-9 store (no variant column) gets the column
filled from those when it is opened; a version-8 store, whose tracked quotes are rebuilt on
opening, gets it too. No spaCy: the mentions are written as records."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, inspect, text

from newsloom.models import Article, ArticleAnalysis, QuoteMention, article_id
from newsloom.store import ListQuery, open_store
from newsloom.store.schema import SCHEMA_VERSION
from newsloom.stories import consolidate

LINE = (
    "We will not let this harbour become a museum for ships that no longer come, "
    "and we will pay for the dredging ourselves"
)
# One wording per article, each article its own story (tracking joins them across stories);
# the paraphrase shares too few words to join and is a tracked quote of its own. The last
# article is in no story: its mention has no tracked quote.
WORDINGS = {
    "first": LINE,
    "again": LINE,
    "cut": "We will not let this harbour become a museum for ships that no longer come",
    "swapped": LINE.replace("ships", "boats"),
    "masked": LINE.replace("dredging", "d******g"),
    "reworded": "The harbour must not turn into a museum, and the town will fund the work itself",
    "unstoried": "Nobody has asked the port authority what it thinks of any of this",
}
IN_NO_STORY = "unstoried"


def _analysis(i: int, name: str, wording: str) -> ArticleAnalysis:
    text_ = f'Report {i} on the harbour. "{wording}," said Odile Farrant on Monday.'
    at = text_.index(wording)
    return ArticleAnalysis(
        article=Article(
            id=article_id(text_),
            text=text_,
            origin=f"gen:{name}",
            title=name,
            source=f"Outlet {i}",
            published=f"2023-02-1{i}",
            format="text",
        ),
        quotes=[
            QuoteMention(
                start=at,
                end=at + len(wording),
                text=wording,
                kind="direct",
                speaker="Odile Farrant",
            )
        ],
    )


def fill_variants(store) -> None:
    analyses = [_analysis(i, name, w) for i, (name, w) in enumerate(WORDINGS.items())]
    store.add_analyses(analyses)
    store.replace_stories([consolidate([a]) for a in analyses if a.article.title != IN_NO_STORY])


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request, tmp_path):
    if request.param == "sqlite":
        return str(tmp_path / "variants.db")
    return request.getfixturevalue("pg_url")


@pytest.fixture()
def archive(url):
    store = open_store(url)
    fill_variants(store)
    yield store
    store.close()


def _mentions(store, variant: str) -> set[str]:
    """The titles of the articles whose mention the variant facet leaves."""
    return {r["title"] for r in store.list_rows("mentions", ListQuery(facets={"variant": variant}))}


def _json_variants(store) -> dict[str, set[str]]:
    """Each tracked quote's variants, read from its stored record (not the column)."""
    ids = [r["id"] for r in store.list_rows("quotes", ListQuery())]
    return {i: {m.variant for m in store.tracked_quote(i).mentions} for i in ids}


# (facet value, the articles whose mention has it, the tracked quotes having it)
ROWS = [
    ("identical", {"first", "again", "reworded"}, 2),
    ("truncated", {"cut"}, 1),
    ("word_change", {"swapped"}, 1),
    ("censored", {"masked"}, 1),
    # Negatives: no mention is a paraphrase of another (the paraphrase is a quote of its own),
    # none is merged, none extends the canonical wording, and no value is made up.
    ("paraphrased", set(), 0),
    ("merged", set(), 0),
    ("extended", set(), 0),
    ("no such variant", set(), 0),
    # A mention of no tracked quote is listed under the empty value ("not tracked").
    ("", {IN_NO_STORY}, 0),
]


@pytest.mark.parametrize(("variant", "titles", "n_quotes"), ROWS)
def test_the_variant_facet_filters_both_quote_lists(archive, variant, titles, n_quotes):
    assert _mentions(archive, variant) == titles
    mentions = archive.list_page("mentions", ListQuery(facets={"variant": variant}))
    assert mentions.total == len(titles)
    assert all(r["variant"] == (variant or None) for r in mentions.items)
    quotes = archive.list_page("quotes", ListQuery(facets={"variant": variant}))
    assert quotes.total == n_quotes
    having = {i for i, found in _json_variants(archive).items() if variant in found}
    assert {r["id"] for r in quotes.items} == having


def test_the_variant_counts_are_the_stored_mentions(archive):
    page = archive.list_page("mentions", ListQuery())
    counted = {v.value: v.count for f in page.facets if f.name == "variant" for v in f.values}
    expected: dict[str, int] = {}
    for variant, titles, _ in ROWS:
        if titles:
            expected[variant] = len(titles)
    assert counted == expected
    labels = {v.value: v.label for f in page.facets if f.name == "variant" for v in f.values}
    assert labels[""] == "not tracked"
    quotes = archive.list_page("quotes", ListQuery())
    counted = {v.value: v.count for f in quotes.facets if f.name == "variant" for v in f.values}
    stored = _json_variants(archive)
    assert counted == {
        v: sum(v in vs for vs in stored.values()) for vs in stored.values() for v in vs
    }
    assert counted["identical"] == 2 and sum(counted.values()) > len(stored)  # many-valued


def test_the_variant_facet_narrows_with_another(archive):
    both = ListQuery(facets={"variant": "truncated", "outlet": "Outlet 2"})
    assert [r["title"] for r in archive.list_rows("mentions", both)] == ["cut"]
    neither = ListQuery(facets={"variant": "truncated", "outlet": "Outlet 0"})
    assert archive.list_page("mentions", neither).total == 0


def _drop_variant_column(url: str, version: str) -> None:
    """What an older newsloom left: no variant column, no index, an older version number."""
    engine = create_engine(url if "://" in url else f"sqlite:///{url}")
    with engine.begin() as conn:
        conn.execute(text("DROP INDEX ix_tracked_mentions_variant"))
        conn.execute(text("ALTER TABLE tracked_mentions DROP COLUMN variant"))
        conn.execute(
            text("UPDATE newsloom_meta SET value = :v WHERE key = 'schema_version'"), {"v": version}
        )
    engine.dispose()


@pytest.mark.parametrize("version", ["9", "8"])
def test_an_older_store_gets_the_variants_when_opened(url, version):
    store = open_store(url)
    fill_variants(store)
    fresh = {n: list(store.list_rows(n, ListQuery())) for n in ("mentions", "quotes")}
    store.close()
    _drop_variant_column(url, version)
    store = open_store(url)
    try:
        assert store.get_meta("schema_version") == str(SCHEMA_VERSION)
        for name, rows in fresh.items():
            assert list(store.list_rows(name, ListQuery())) == rows, name
        assert _mentions(store, "truncated") == {"cut"}
        with store.engine.connect() as conn:  # type: ignore[attr-defined]
            indexes = {i["name"] for i in inspect(conn).get_indexes("tracked_mentions")}
            unfilled = conn.execute(
                text("SELECT count(*) FROM tracked_mentions WHERE variant IS NULL")
            ).scalar_one()
        assert "ix_tracked_mentions_variant" in indexes
        assert unfilled == 0
    finally:
        store.close()
    again = open_store(url)  # upgraded once: opening it again changes nothing
    try:
        assert list(again.list_rows("mentions", ListQuery())) == fresh["mentions"]
    finally:
        again.close()
