"""Speaker, outlet and person profiles kept in SQL (store/profiles.py): what they count, that a
rewritten or merged story replaces its rows, that an older store gets them on upgrade, on
SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from sqlalchemy import delete, func, inspect, select, text, update

from newsloom.models import (
    Article,
    ArticleAnalysis,
    CopiedPassage,
    CreditedSource,
    ExportQuoteMention,
    FactGroup,
    FactStatement,
    OutletReport,
    PassageSpan,
    Quote,
    Story,
    StoryEntity,
)
from newsloom.store import open_store
from newsloom.store import schema as t
from newsloom.store.profiles import SPEAKER, name_keys
from newsloom.text.keys import is_key, name_key, outlet_name_key

# (outlet, date) of each article; a1-a3 make story s1, a4 story s2.
ARTICLES = {
    "a1": ("The Daily Courier", "2024-03-01"),
    "a2": ("Metro Wire", "2024-03-02"),
    "a3": ("Metro Wire", "2024-03-02"),
    "a4": ("Daily Courier", "2024-04-10"),
}


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("José Álvarez", "jose-alvarez"),
        ("  Jane   ROE ", "jane-roe"),
        ("O'Brien", "o-brien"),
        ("!!!", ""),
    ],
)
def test_name_keys(name, key):
    assert name_key(name) == key


@pytest.mark.parametrize(
    ("outlet", "key"),
    [
        ("The Daily Courier", "daily-courier"),
        ("Daily Courier", "daily-courier"),
        ("unknown outlet (044_x.txt)", "unknown-outlet-044-x-txt"),
    ],
)
def test_outlet_keys(outlet, key):
    assert outlet_name_key(outlet) == key


@pytest.mark.parametrize(
    ("value", "ok"),
    [
        ("jane-roe", True),
        ("jose", True),
        ("", False),
        ("-jane", False),
        ("a--b", False),
        ("a/b", False),
        ("a_b", False),
        ("x" * 121, False),
    ],
)
def test_keys_a_route_accepts(value, ok):
    assert is_key(value) is ok


def _analysis(aid: str) -> ArticleAnalysis:
    source, day = ARTICLES[aid]
    text = f"Article {aid}. Jane Roe, 41, spoke."
    return ArticleAnalysis(
        article=Article(id=aid, text=text, origin=f"{aid}.txt", source=source, published=day)
    )


def _mention(aid: str, speaker: str, text: str) -> ExportQuoteMention:
    return ExportQuoteMention(
        article_id=aid,
        start=0,
        end=len(text),
        text=text,
        kind="direct",
        cue="said",
        speaker=speaker,
        speaker_start=None,
        speaker_end=None,
    )


def _fact(aid: str, value: int) -> FactStatement:
    return FactStatement(
        article_id=aid,
        source=ARTICLES[aid][0],
        start=0,
        end=2,
        text=str(value),
        kind="count",
        value=value,
        subject="jane roe's votes",
    )


def story_one() -> Story:
    return Story(
        id="s1",
        title="Roe wins",
        article_ids=["a1", "a2", "a3"],
        quotes=[
            Quote(
                id="q1",
                text="We won",
                speaker="Jane Roe",
                mentions=[_mention("a1", "Jane Roe", "We won")],
            ),
        ],
        entities=[
            StoryEntity(
                name="Jane Roe",
                type="PERSON",
                age=41,
                ages={"a1": 41, "a2": 42},
                age_conflict=True,
                article_ids=["a1", "a2"],
            ),
            StoryEntity(name="Bo Li", type="PERSON", article_ids=["a3"]),
        ],
        copied_passages=[
            CopiedPassage(
                id="p1",
                spans=[
                    PassageSpan(article_id="a1", start=0, end=5, text="Roe won"),
                    PassageSpan(article_id="a2", start=0, end=5, text="Roe won"),
                ],
                similarity=1.0,
                earliest_article_id="a1",
                earliest_source="The Daily Courier",
            )
        ],
        credited_sources=[
            CreditedSource(name="Reuters", article_ids=["a2", "a3"]),
            CreditedSource(name="Metro Wire", article_ids=["a3"]),  # itself: no credit
        ],
        facts=[
            FactGroup(
                id="f1",
                kind="count",
                subject="jane roe's votes",
                status="conflict",
                statements=[_fact("a1", 10), _fact("a2", 90)],
                explanation="10 vs 90",
            ),
            FactGroup(
                id="f2",
                kind="count",
                subject="turnout",
                status="conflict",
                statements=[_fact("a1", 1), _fact("a2", 9)],
                explanation="1 vs 9",
            ),
        ],
        outlets=[
            OutletReport(
                outlet="The Daily Courier",
                article_ids=["a1"],
                hedges=2,
                own_words=100,
                exclusive_quotes=[_mention("a1", "Jane Roe", "We won")],
            ),
            OutletReport(outlet="Metro Wire", article_ids=["a2", "a3"], hedges=1, own_words=200),
        ],
    )


def story_two() -> Story:
    return Story(
        id="s2",
        title="Roe again",
        article_ids=["a4"],
        quotes=[
            Quote(
                id="q2",
                text="Again",
                speaker="jane roe",
                mentions=[_mention("a4", "jane roe", "Again")],
            )
        ],
        outlets=[OutletReport(outlet="Daily Courier", article_ids=["a4"], hedges=0, own_words=50)],
    )


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store(request, tmp_path):
    url = str(tmp_path / "p.db") if request.param == "sqlite" else request.getfixturevalue("pg_url")
    found = open_store(url)
    for aid in ARTICLES:
        found.add_analysis(_analysis(aid))
    found.replace_stories([story_one(), story_two()])
    yield found
    found.close()


def test_an_outlet_counts_what_it_did_in_each_story(store):
    courier = store.outlet_profile("daily-courier")
    assert courier is not None
    assert set(courier.names) == {"The Daily Courier", "Daily Courier"}
    assert (courier.n_articles, courier.n_stories) == (2, 2)
    assert (courier.first_date, courier.last_date) == ("2024-03-01", "2024-04-10")
    assert (courier.exclusives, courier.copied, courier.credits) == (1, 0, 0)
    assert [s.id for s in courier.stories] == ["s2", "s1"]  # newest first
    wire = store.outlet_profile("metro-wire")
    assert (wire.exclusives, wire.copied, wire.credits) == (0, 1, 1)
    (s1,) = wire.stories
    assert (s1.n_articles, s1.story_articles) == (2, 3)
    assert s1.detail["credited"] == ["Reuters"]
    assert s1.detail["copied"][0]["from"] == "The Daily Courier"
    assert [(h.month, h.hedges, h.own_words) for h in courier.hedging] == [
        ("2024-03", 2, 100),
        ("2024-04", 0, 50),
    ]
    assert courier.hedging[0].hedge_score == 2.0
    assert store.outlet_profile("reuters") is None  # credited, but no article of its own


def test_a_speaker_is_found_by_any_spelling_of_their_name(store):
    found = store.speaker_profile("jane-roe")
    assert found is not None
    assert set(found.names) == {"Jane Roe", "jane roe"}
    assert found.total_quotes == len(found.quotes) >= 2
    assert {s.id for q in found.quotes for s in q.stories} == {"s1", "s2"}
    assert store.speaker_profile("bo-li") is None  # a person, never quoted


def test_a_person_has_their_ages_and_the_conflicts_naming_them(store):
    roe = store.person_profile("jane-roe")
    assert roe is not None
    kinds = sorted((c.kind, c.subject) for c in roe.conflicts)
    assert kinds == [("age", "Jane Roe"), ("count", "jane roe's votes")]  # not "turnout"
    age = next(c for c in roe.conflicts if c.kind == "age")
    assert {(s["value"], s["outlet"]) for s in age.statements} == {
        (41, "The Daily Courier"),
        (42, "Metro Wire"),
    }
    assert roe.speaker_key == "jane-roe"
    li = store.person_profile("bo-li")
    assert li is not None and li.conflicts == [] and li.speaker_key is None
    assert store.person_profile("nobody") is None


def test_stories_by_day_and_names_found_by_search(store):
    assert [(d.day, d.count) for d in store.stories_by_day()] == [
        ("2024-03-01", 1),
        ("2024-04-10", 1),
    ]
    found = {(m.kind, m.key) for m in store.find_profiles("roe")}
    assert found == {("speaker", "jane-roe"), ("person", "jane-roe")}
    assert store.find_profiles("%") == []
    assert store.profile_keys("outlet", ["Metro Wire", "Nope"]) == {"Metro Wire": "metro-wire"}


def _rows(store, table) -> int:
    with store.engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(table)).scalar_one()


def test_a_rewritten_or_merged_story_replaces_its_rows(store):
    before = {tb.name: _rows(store, tb) for tb in (t.profile_outlets, t.profile_articles)}
    store.replace_stories([story_one()])  # the same story again: nothing doubles
    assert {tb.name: _rows(store, tb) for tb in (t.profile_outlets, t.profile_articles)} == before
    merged = story_one().model_copy(update={"id": "s3", "article_ids": ["a1", "a2", "a3", "a4"]})
    merged.outlets[0].article_ids.append("a4")
    store.replace_stories([merged])
    courier = store.outlet_profile("daily-courier")
    assert [s.id for s in courier.stories] == ["s3"]
    assert courier.n_articles == 2
    assert _rows(store, t.profile_stories) == 1


def test_an_older_store_gets_its_profiles_when_opened(tmp_path):
    db = str(tmp_path / "old.db")
    store = open_store(db)
    for aid in ARTICLES:
        store.add_analysis(_analysis(aid))
    store.replace_stories([story_one(), story_two()])
    expected = store.outlet_profile("daily-courier")
    with store.engine.begin() as conn:  # as version 4 left it: no profile rows
        for table in (
            t.profile_names,
            t.profile_stories,
            t.profile_outlets,
            t.profile_articles,
            t.profile_conflicts,
        ):
            conn.execute(delete(table))
        conn.execute(update(t.meta).where(t.meta.c.key == "schema_version").values(value="4"))
    store.close()
    assert open_store(db).outlet_profile("daily-courier") == expected


def test_a_version_11_store_gets_the_names_index_that_holds_the_key(store):
    """Version 12 replaces the (kind, name) index with (kind, name, key); a page's lookup by
    name is then answered from that index alone (SQLite planned a scan of every name of the
    kind through the primary key before)."""
    with store.engine.begin() as conn:  # as version 11 left it
        conn.execute(text("DROP INDEX ix_profile_names_by_name"))
        conn.execute(text("CREATE INDEX ix_profile_names_name ON profile_names (kind, name)"))
        conn.execute(update(t.meta).where(t.meta.c.key == "schema_version").values(value="11"))
    url = store.engine.url.render_as_string(hide_password=False)
    store.close()
    upgraded = open_store(url)
    indexes = {
        i["name"]: i["column_names"] for i in inspect(upgraded.engine).get_indexes("profile_names")
    }
    assert indexes == {"ix_profile_names_by_name": ["kind", "name", "key"]}
    assert upgraded.get_meta("schema_version") == str(t.SCHEMA_VERSION)
    with upgraded.engine.connect() as conn:
        assert name_keys(conn, SPEAKER, ["Jane Roe", "Nobody"]) == {"Jane Roe": "jane-roe"}
        if conn.dialect.name == "sqlite":
            n = t.profile_names.c
            query = select(n.name, n.key).where(n.kind == SPEAKER, n.name.in_(["a", "b"]))
            compiled = query.compile(conn, compile_kwargs={"literal_binds": True})
            plan = " ".join(r[-1] for r in conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {compiled}"))
            assert "COVERING INDEX ix_profile_names_by_name (kind=? AND name=?)" in plan
    upgraded.close()
