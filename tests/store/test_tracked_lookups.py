"""The store's lookups for pages that point at tracked quotes: the tracked quote of a quote
mention's span (a search hit's), and the listing of given tracked quotes (a page's quotes).
Stories built from hand-made analyses (no spaCy), as the story tests build them; on SQLite and
on PostgreSQL (scripts/pg-up.sh; skipped when none is up)."""

from __future__ import annotations

import pytest

from newsloom.store import open_store
from newsloom.stories import consolidate
from tests.stories.builders import quoted

LINE = "We will not let this harbour become a museum for ships that no longer come"
OTHER = "The channel has silted up by almost a metre since the last dredging"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store(request):
    url = ":memory:" if request.param == "sqlite" else request.getfixturevalue("pg_url")
    store = open_store(url)
    yield store
    store.close()


@pytest.fixture()
def two_stories(store):
    """Story A quotes LINE and OTHER; story B, months later, quotes LINE only."""
    a = [
        quoted("a1", (LINE, "Odile Farrant"), (OTHER, "Engineers"), published="2023-02-14"),
        quoted("a2", (LINE, "Odile Farrant"), published="2023-02-15"),
    ]
    b = [quoted("b1", (LINE, "Odile Farrant"), published="2023-09-19")]
    store.add_analyses(a + b)
    store.replace_stories([consolidate(a), consolidate(b)])
    return store, a + b


def test_a_mention_span_finds_its_tracked_quote(two_stories):
    store, analyses = two_stories
    mentions = [(x.article.id, q) for x in analyses for q in x.quotes]
    spans = [(aid, q.start, q.end) for aid, q in mentions]
    found = store.tracked_ids_at(spans)
    assert set(found) == set(spans)  # every stored quote mention belongs to one
    line = {found[(aid, q.start, q.end)] for aid, q in mentions if q.text == LINE}
    assert len(line) == 1  # the three mentions of LINE, in two stories, are one quote
    assert found[spans[1]] != found[spans[0]]  # OTHER is another


@pytest.mark.parametrize(
    "span",
    [
        ("a1", 0, 3),  # a span that is no quote mention
        ("nope", 0, 10),  # an article not stored
    ],
)
def test_a_span_that_is_no_quote_mention_has_no_tracked_quote(two_stories, span):
    store, _ = two_stories
    assert store.tracked_ids_at([span]) == {}
    assert store.tracked_ids_at([]) == {}


def test_the_listing_of_given_tracked_quotes(two_stories):
    store, _ = two_stories
    everything = store.tracked_quotes(limit=None)
    assert [r.mentions for r in everything] == [3, 1]  # most mentioned first
    line, other = everything
    assert (line.stories, other.stories) == (2, 1)
    assert store.tracked_quotes(tracked_ids=[other.id, line.id]) == everything
    assert store.tracked_quotes(tracked_ids=[other.id]) == [other]
    assert store.tracked_quotes(tracked_ids=[]) == []
    assert store.tracked_quotes(tracked_ids=["0" * 16]) == []
    assert store.tracked_quotes(tracked_ids=[line.id[:6]]) == []  # full ids only, no prefixes
    assert store.tracked_quotes(limit=1, offset=1, tracked_ids=[line.id, other.id]) == [other]
    assert store.tracked_quotes(speaker="engineers", tracked_ids=[line.id, other.id]) == [other]
