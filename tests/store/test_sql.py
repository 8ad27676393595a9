"""The SQL store on a real SQLite database: idempotent ingest, atomic writes, listings."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from newsloom.errors import AmbiguousIdError, StoreError
from newsloom.models import (
    Article,
    ArticleAnalysis,
    Entity,
    EntityMention,
    Post,
    QuoteMention,
    Story,
    article_id,
)
from newsloom.store import (
    ArticleRow,
    ArticleText,
    PersonRow,
    PostRow,
    QuoteRow,
    SearchHit,
    SpeakerRow,
    StorySummary,
    normalise_url,
    open_store,
)
from newsloom.store.schema import SCHEMA_VERSION
from newsloom.store.sql import SqlStore


def make_analysis(
    text: str, source: str = "Daily Example", age: int | None = None
) -> ArticleAnalysis:
    article = Article(
        id=article_id(text),
        text=text,
        origin="t.txt",
        path="t.txt",
        source=source,
        published="2021-03-14",
        title=text.split(".")[0],
    )
    name_end = text.index("Roe") + 3
    entity = Entity(
        id="e1",
        name="Jane Roe",
        type="PERSON",
        age=age,
        roles=["producer"],
        mentions=[EntityMention(start=0, end=name_end, text=text[:name_end])],
    )
    q0 = text.index('"') + 1
    q1 = text.index('"', q0)
    quote = QuoteMention(start=q0, end=q1, text=text[q0:q1], speaker="Jane Roe", cue="said")
    post = Post(
        id="p1",
        handle="sam_writes",
        author="Sam",
        date="2021-03-02",
        text="Hello",
        start=0,
        end=5,
        text_start=0,
        text_end=5,
    )
    return ArticleAnalysis(article=article, entities=[entity], quotes=[quote], posts=[post])


TEXT_A = 'Jane Roe said: "We will rebuild the bridge." The council agreed.'
TEXT_B = 'Jane Roe told reporters: "Work starts in May." Residents cheered.'
# One sure speaker, one doubtful and one unresolved (the confidences are invented).
TEXT_SPEAKERS = (
    'Jane Roe said: "We will rebuild the bridge." "It opens in May," she added. '
    'An official said: "The budget is tight."'
)
# (quote, resolved speaker, the words naming it, confidence, kind) of TEXT_SPEAKERS.
SPEAKER_QUOTES = [
    ("We will rebuild the bridge.", "Jane Roe", "Jane Roe", 0.97, "person"),
    ("It opens in May,", "Jane Roe", "she", 0.62, "person"),
    ("The budget is tight.", None, "An official", 0.31, "unknown"),
]


def make_speaker_analysis() -> ArticleAnalysis:
    def mention(words, speaker, speaker_words, confidence, kind) -> QuoteMention:
        start = TEXT_SPEAKERS.index(words)
        at = TEXT_SPEAKERS.index(speaker_words)
        return QuoteMention(
            start=start,
            end=start + len(words),
            text=words,
            cue="said",
            speaker=speaker,
            speaker_text=speaker_words,
            speaker_start=at,
            speaker_end=at + len(speaker_words),
            speaker_confidence=confidence,
            speaker_kind=kind,
        )

    article = Article(
        id=article_id(TEXT_SPEAKERS),
        text=TEXT_SPEAKERS,
        origin="speakers.txt",
        source="Daily Example",
        published="2021-03-15",
    )
    return ArticleAnalysis(article=article, quotes=[mention(*q) for q in SPEAKER_QUOTES])


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("newsloom.db", "sqlite:///newsloom.db"),
        (":memory:", "sqlite://"),
        ("sqlite:///x.db", "sqlite:///x.db"),
        ("postgresql+psycopg://u:p@h/db", "postgresql+psycopg://u:p@h/db"),
    ],
)
def test_url_normalisation(given, expected):
    assert normalise_url(given) == expected


def test_same_article_twice_is_stored_once(tmp_path):
    store = open_store(str(tmp_path / "s.db"))
    assert store.add_analysis(make_analysis(TEXT_A)) is True
    assert store.add_analysis(make_analysis(TEXT_A)) is False
    assert store.count_articles() == 1
    # Whitespace-only differences hash to the same id.
    assert store.add_analysis(make_analysis(TEXT_A.replace(" ", "  "))) is False
    assert store.count_articles() == 1


def test_roundtrip_keeps_the_exact_text_and_analysis(memory_store):
    analysis = make_analysis(TEXT_A + "\r\n\r\nSecond\tparagraph.")
    memory_store.add_analysis(analysis)
    (back,) = memory_store.analyses()
    assert back == analysis


def check_a_crash_mid_write_leaves_the_store_as_it_was(url: str, monkeypatch) -> None:
    """Shared with the PostgreSQL tests: a write that fails halfway leaves nothing behind."""
    store = open_store(url)
    store.add_analysis(make_analysis(TEXT_A))
    original = SqlStore._insert

    def insert_then_crash(self, conn, analysis):
        original(self, conn, analysis)
        raise RuntimeError("power cut")

    monkeypatch.setattr(SqlStore, "_insert", insert_then_crash)
    with pytest.raises(RuntimeError):
        store.add_analysis(make_analysis(TEXT_B))
    monkeypatch.undo()
    store.close()
    reopened = open_store(url)
    assert reopened.count_articles() == 1
    assert [p.text for p in reopened.posts()] == ["Hello"]
    assert [r.name for r in reopened.people()] == ["Jane Roe"]
    reopened.close()


def test_a_crash_mid_write_leaves_the_store_as_it_was(tmp_path, monkeypatch):
    check_a_crash_mid_write_leaves_the_store_as_it_was(str(tmp_path / "s.db"), monkeypatch)


def test_people_and_posts_group_across_articles(memory_store):
    memory_store.add_analysis(make_analysis(TEXT_A, age=33))
    memory_store.add_analysis(make_analysis(TEXT_B, age=34))
    (person,) = memory_store.people()
    assert person.ages == [33, 34] and len(person.article_ids) == 2
    (post,) = memory_store.posts()
    assert len(post.article_ids) == 2


def test_stories_are_replaced_not_duplicated(memory_store):
    a, b = make_analysis(TEXT_A), make_analysis(TEXT_B)
    memory_store.add_analyses([a, b])
    ida, idb = a.article.id, b.article.id
    memory_store.replace_stories(
        [Story(id="s1", title="x", article_ids=[ida]), Story(id="s2", title="y", article_ids=[idb])]
    )
    memory_store.replace_stories([Story(id="s3", title="z", article_ids=[ida, idb])])
    assert [s.id for s in memory_store.stories()] == ["s3"]
    assert memory_store.story_of(idb) == "s3"
    assert memory_store.story("s3").title == "z"
    assert memory_store.story("nope") is None


def test_unopenable_store_says_what_to_do(tmp_path):
    with pytest.raises(StoreError, match="--db URL"):
        open_store(f"sqlite:///{tmp_path}/missing-dir/x.db")


def corrupt(db_file) -> None:
    """Overwrite a SQLite store (and its WAL files) with bytes that are not a database."""
    for suffix in ("", "-wal", "-shm"):
        path = type(db_file)(str(db_file) + suffix)
        if path.exists():
            path.write_bytes(b"not a database " * 512)


def test_a_store_corrupted_mid_use_raises_store_error_on_reads(tmp_path):
    db = tmp_path / "s.db"
    store = open_store(str(db))
    store.add_analysis(make_analysis(TEXT_A))
    assert store.count_articles() == 1
    corrupt(db)
    for read in (store.count_articles, store.people, store.stories, lambda: list(store.analyses())):
        with pytest.raises(StoreError, match="not corrupted"):
            read()
    with pytest.raises(StoreError, match="rolled back"):
        store.add_analysis(make_analysis(TEXT_B))
    store.close()


def test_an_ambiguous_prefix_is_the_callers_error_not_the_stores(memory_store):
    a, b = make_analysis(TEXT_A), make_analysis(TEXT_B)
    memory_store.add_analyses([a, b])
    memory_store.replace_stories(
        [
            Story(id="ab1", title="x", article_ids=[a.article.id]),
            Story(id="ab2", title="y", article_ids=[b.article.id]),
        ]
    )
    with pytest.raises(AmbiguousIdError, match="give more characters"):
        memory_store.story("ab")
    assert not issubclass(AmbiguousIdError, StoreError)
    assert memory_store.story("ab2").title == "y"


def test_reads_return_typed_records(memory_store):
    analysis = make_analysis(TEXT_A, age=33)
    memory_store.add_analysis(analysis)
    aid = analysis.article.id
    memory_store.replace_stories([Story(id="s1", title="x", article_ids=[aid])])
    (person,) = memory_store.people()
    assert isinstance(person, PersonRow) and person.ages == [33]
    assert isinstance(memory_store.articles()[0], ArticleRow)
    assert isinstance(memory_store.posts()[0], PostRow)
    (quote,) = memory_store.quotes()
    assert isinstance(quote, QuoteRow) and quote.story_id == "s1"
    assert memory_store.speakers() == [SpeakerRow(speaker="Jane Roe", quotes=1, articles=1)]
    (summary,) = memory_store.story_summaries()
    assert summary == StorySummary("s1", "x", 1, "2021-03-14", "2021-03-14", ["Daily Example"])
    text = memory_store.article_text(aid)
    assert isinstance(text, ArticleText) and text.text == analysis.article.text
    hits = memory_store.search("rebuild").hits
    assert hits and all(isinstance(h, SearchHit) for h in hits)


def test_a_version_1_store_with_the_old_stories_column_still_opens_and_writes(tmp_path):
    db = tmp_path / "old.db"
    store = open_store(str(db))
    with store.transaction() as conn:  # what a version-1 store looks like on disk
        conn.execute(text("ALTER TABLE stories ADD COLUMN first_published VARCHAR(10)"))
        conn.execute(text("UPDATE newsloom_meta SET value = '1' WHERE key = 'schema_version'"))
    store.close()
    old = open_store(str(db))
    analysis = make_analysis(TEXT_A)
    old.add_analysis(analysis)
    old.replace_stories([Story(id="s1", title="x", article_ids=[analysis.article.id])])
    assert [s.id for s in old.stories()] == ["s1"]
    old.close()


def test_speaker_words_confidence_and_kind_round_trip(memory_store):
    analysis = make_speaker_analysis()
    memory_store.add_analysis(analysis)
    (back,) = memory_store.analyses()
    assert back == analysis
    rows = memory_store.quotes()
    assert [
        (r.text, r.speaker, r.speaker_text, r.speaker_confidence, r.speaker_kind) for r in rows
    ] == [(q, s, w, c, k) for q, s, w, c, k in SPEAKER_QUOTES]
    # The unresolved speaker is nobody's: only the resolved mentions count for Jane Roe.
    (jane,) = memory_store.speakers()
    assert (jane.speaker, jane.quotes) == ("Jane Roe", 2)
    assert jane.mean_confidence == pytest.approx((0.97 + 0.62) / 2)


def test_a_speaker_never_scored_has_no_mean_confidence(memory_store):
    memory_store.add_analysis(make_analysis(TEXT_A))
    (row,) = memory_store.quotes()
    assert (row.speaker_text, row.speaker_confidence, row.speaker_kind) == (None, None, None)
    assert memory_store.speakers()[0].mean_confidence is None


def check_a_version_2_store_upgrades_and_loses_nothing(url: str) -> None:
    """Shared with the PostgreSQL tests: the quotes of a version-2 store get the speaker
    columns, filled from the stored analyses, when it is opened; everything else stays."""
    from newsloom.store.migrations import SPEAKER_COLUMNS

    store = open_store(url)
    scored, unscored = make_speaker_analysis(), make_analysis(TEXT_A)
    store.add_analyses([scored, unscored])
    store.replace_stories([Story(id="s1", title="x", article_ids=[scored.article.id])])
    with store.transaction() as conn:  # what a version-2 store looks like on disk
        for name in SPEAKER_COLUMNS:
            conn.execute(text(f"ALTER TABLE quotes DROP COLUMN {name}"))
        conn.execute(text("UPDATE newsloom_meta SET value = '2' WHERE key = 'schema_version'"))
    store.close()

    upgraded = open_store(url)
    assert upgraded.get_meta("schema_version") == str(SCHEMA_VERSION)
    rows = {(r.article_id, r.text): r for r in upgraded.quotes()}
    for words, speaker, speaker_words, confidence, kind in SPEAKER_QUOTES:
        row = rows[scored.article.id, words]
        assert (row.speaker, row.speaker_text, row.speaker_confidence, row.speaker_kind) == (
            speaker,
            speaker_words,
            confidence,
            kind,
        )
    (unscored_quote,) = unscored.quotes
    row = rows[unscored.article.id, unscored_quote.text]
    assert (row.speaker, row.speaker_text, row.speaker_confidence) == ("Jane Roe", None, None)
    assert sorted(upgraded.analyses(), key=lambda a: a.article.id) == sorted(
        [scored, unscored], key=lambda a: a.article.id
    )
    assert [s.id for s in upgraded.stories()] == ["s1"]
    assert {h.kind for h in upgraded.search("budget").hits} == {"article", "quote"}
    assert upgraded.add_analysis(make_analysis(TEXT_B)) is True
    upgraded.close()
    again = open_store(url)  # upgraded once: opening it again changes nothing
    assert again.get_meta("schema_version") == str(SCHEMA_VERSION) and again.count_quotes() == 5
    again.close()


def test_a_version_2_store_upgrades_and_loses_nothing(tmp_path):
    check_a_version_2_store_upgrades_and_loses_nothing(str(tmp_path / "old.db"))


def test_a_store_newer_than_this_newsloom_is_refused(tmp_path):
    db = str(tmp_path / "new.db")
    store = open_store(db)
    store.set_meta("schema_version", "99")
    store.close()
    with pytest.raises(StoreError, match="newer than this newsloom"):
        open_store(db)


def test_stories_stored_with_the_old_empty_extra_field_still_load(memory_store):
    analysis = make_analysis(TEXT_A)
    memory_store.add_analysis(analysis)
    memory_store.replace_stories([Story(id="s1", title="x", article_ids=[analysis.article.id])])
    with memory_store.transaction() as conn:  # how stories were written while `extra` existed
        conn.execute(text("UPDATE stories SET data = json_insert(data, '$.extra', json('{}'))"))
        assert '"extra":{}' in conn.execute(text("SELECT data FROM stories")).scalar_one()
    assert [s.id for s in memory_store.stories()] == ["s1"]
    with pytest.raises(ValueError):  # anything else unknown is still refused
        Story.model_validate({"id": "s", "title": None, "article_ids": [], "extra": {"x": 1}})


def test_article_ids_resolve_from_a_unique_prefix(memory_store):
    a, b = make_analysis(TEXT_A), make_analysis(TEXT_B)
    memory_store.add_analyses([a, b])
    aid, bid = a.article.id, b.article.id
    assert memory_store.resolve_article_id(aid) == aid
    assert memory_store.resolve_article_id(aid[:6]) == aid
    assert memory_store.resolve_article_id("zz") is None
    assert memory_store.resolve_article_id("%") is None  # LIKE wildcards match themselves
    common = next(i for i in range(len(aid)) if aid[i] != bid[i])
    if common:
        with pytest.raises(AmbiguousIdError, match="give more characters"):
            memory_store.resolve_article_id(aid[:common])
    with pytest.raises(AmbiguousIdError, match="article id prefix '' is ambiguous"):
        memory_store.resolve_article_id("")


def test_listings_count_and_page(memory_store):
    memory_store.add_analyses([make_analysis(TEXT_A), make_analysis(TEXT_B)])
    assert memory_store.count_quotes() == 2 and memory_store.count_quotes("JANE ROE") == 2
    assert memory_store.count_quotes("Nobody") == 0
    everything = memory_store.articles()
    assert memory_store.articles(1, offset=1) == everything[1:]


def _index_one(txn, analysis) -> str:
    """Attach ``analysis`` to the index through the transaction's rows; its story key."""
    from newsloom.stories.cluster import StoryIndex

    index = StoryIndex(rows=txn.rows)
    key = index.assign(analysis)
    index.save()
    return key


def test_index_rows_and_pending_rebuilds_commit_together(memory_store):
    """The index rows and the stories to rebuild are one commit; each rebuilt story clears its
    key in the commit that stores it, and only while the index is at the generation it read."""
    analysis = make_analysis(TEXT_A)
    memory_store.add_analysis(analysis)
    assert memory_store.pending_rebuilds() == (0, [])
    with memory_store.index_transaction() as txn:
        assert txn.generation == 0 and txn.unindexed() == [analysis.article.id]
        assert _index_one(txn, analysis) == "s1"
        assert txn.save(["s2", "s1"]) == 1
        # Reads of this store inside the transaction see what it wrote.
        assert memory_store.index_members("s1") == [analysis.article.id]
        assert txn.unindexed() == []
    assert memory_store.index_members("s2") is None
    assert memory_store.pending_rebuilds() == (1, ["s1", "s2"])
    story = Story(id="x1", title="x", article_ids=[analysis.article.id])
    assert memory_store.finish_rebuild("s1", story, generation=0) is False  # stale copy
    assert memory_store.stories() == [] and memory_store.pending_rebuilds()[1] == ["s1", "s2"]
    assert memory_store.finish_rebuild("s1", story, generation=1) is True
    assert [s.id for s in memory_store.stories()] == ["x1"]
    assert memory_store.finish_rebuild("s2", None, generation=1) is True  # merged away
    assert memory_store.pending_rebuilds() == (1, [])


def test_an_index_update_that_fails_leaves_neither_rows_nor_pending_record(memory_store):
    analysis = make_analysis(TEXT_A)
    memory_store.add_analysis(analysis)
    with pytest.raises(RuntimeError), memory_store.index_transaction() as txn:
        _index_one(txn, analysis)
        txn.save(["s1"])
        raise RuntimeError("killed")
    assert memory_store.index_members("s1") is None
    assert memory_store.pending_rebuilds() == (0, [])
    with memory_store.index_transaction() as txn:
        assert txn.rows.totals() == (0, 0) and txn.unindexed() == [analysis.article.id]


def test_sqlite_commits_are_durable_on_power_loss(tmp_path):
    store = open_store(str(tmp_path / "s.db"))
    with store._read() as conn:  # noqa: SLF001 - the pragma of the store's own connections
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
    store.close()


def test_several_rebuilt_stories_commit_together(memory_store):
    """``finish_rebuilds`` stores the stories of still-pending keys and clears the keys in one
    commit; a stale generation writes nothing; a key no longer pending writes no story."""
    a, b = make_analysis(TEXT_A), make_analysis(TEXT_B)
    memory_store.add_analyses([a, b])
    with memory_store.index_transaction() as txn:
        txn.save(["k1", "k2", "k3"])
    generation, keys = memory_store.pending_rebuilds()
    assert keys == ["k1", "k2", "k3"]
    one = Story(id="x1", title="one", article_ids=[a.article.id])
    two = Story(id="x2", title="two", article_ids=[b.article.id])
    rows = [("k1", one), ("k2", None), ("k3", two)]
    assert memory_store.finish_rebuilds(rows, generation + 1) is False
    assert memory_store.stories() == [] and memory_store.pending_rebuilds()[1] == keys
    assert memory_store.finish_rebuilds([("k3", two)], generation) is True
    # k3 is no longer pending: its (stale) story in a later batch is not written again.
    late = Story(id="x3", title="late", article_ids=[b.article.id])
    assert memory_store.finish_rebuilds([*rows[:2], ("k3", late)], generation) is True
    assert sorted(s.id for s in memory_store.stories()) == ["x1", "x2"]
    assert memory_store.pending_rebuilds() == (generation, [])


@pytest.mark.parametrize(
    ("stored_before", "batch", "expected"),
    [
        ([], ["a", "b"], [True, True]),
        ([], ["a", "a", "b"], [True, False, True]),  # twice in one batch: stored once
        (["a"], ["a", "b"], [False, True]),
        (["a", "b"], ["b", "a"], [False, False]),
        ([], [], []),
    ],
)
def test_a_batch_stores_each_new_article_once(memory_store, stored_before, batch, expected):
    """``add_batch`` writes a table at a time; what it reports and stores is what storing the
    articles one by one gives: rows, quotes and search rows of each new article once."""
    texts = {"a": TEXT_A, "b": TEXT_B}
    analyses = {k: make_analysis(v) for k, v in texts.items()}
    for key in stored_before:
        assert memory_store.add_analysis(analyses[key]) is True
    assert memory_store.add_batch([analyses[k] for k in batch]) == expected
    wanted = sorted({*stored_before, *batch})
    assert sorted(memory_store.article_ids()) == sorted(analyses[k].article.id for k in wanted)
    quotes = memory_store.quotes()
    assert len(quotes) == sum(len(analyses[k].quotes) for k in wanted)
    assert bool(quotes) == bool(wanted)
    for key in wanted:
        stored = next(iter(memory_store.analyses([analyses[key].article.id])))
        assert stored == analyses[key]
    assert memory_store.search("bridge").total == ("a" in wanted) * 2
