"""The library's entry points on a real SQLite store: incremental stories, recovery, export."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import delete

from newsloom import api
from newsloom.config import Settings
from newsloom.store import open_store
from newsloom.store import schema as t
from newsloom.store.index import clear_index
from tests.conftest import EXAMPLES

CORPUS = EXAMPLES / "corpus"


def _inputs() -> tuple[list[str], list[str]]:
    """The example corpus in two halves, each holding part of several stories."""
    files = sorted(str(p) for p in CORPUS.rglob("*") if p.is_file())
    return files[::2], files[1::2]


def _groups(store) -> set[frozenset[str]]:
    return {frozenset(s.article_ids) for s in store.stories()}


def _ids(store) -> dict[frozenset[str], str]:
    """Story id by members: ids must not depend on how the same input was split into runs."""
    return {frozenset(s.article_ids): s.id for s in store.stories()}


def _tracked(store) -> list[tuple[str, str, list[tuple[str, int, str]]]]:
    """Every tracked quote: id, canonical wording, its mentions (article, start, variant)."""
    stories = store.stories()
    quotes = store.tracked_quotes_of([s.id for s in stories])
    assert all(q.tracked_quote_id for s in stories for q in s.quotes)
    return sorted(
        (q.id, q.text, sorted((m.article_id, m.start, m.variant) for m in q.mentions))
        for q in quotes
    )


@pytest.fixture(scope="module")
def batch_run(tmp_path_factory) -> tuple[dict[frozenset[str], str], list]:
    db = tmp_path_factory.mktemp("batch") / "batch.db"
    store = open_store(str(db))
    first, second = _inputs()
    api.ingest(first + second, store, Settings(db_url=str(db)))
    ids, tracked = _ids(store), _tracked(store)
    store.close()
    return ids, tracked


@pytest.fixture(scope="module")
def batch_ids(batch_run) -> dict[frozenset[str], str]:
    return batch_run[0]


@pytest.fixture(scope="module")
def batch_groups(batch_ids) -> set[frozenset[str]]:
    return set(batch_ids)


@pytest.mark.slow
def test_ingesting_in_two_runs_attaches_to_existing_stories(
    tmp_path, batch_groups, batch_ids, batch_run
):
    db = str(tmp_path / "incremental.db")
    store = open_store(db)
    first, second = _inputs()
    report_a = api.ingest(first, store, Settings(db_url=db))
    stories_after_a = {s.id: set(s.article_ids) for s in store.stories()}
    report_b = api.ingest(second, store, Settings(db_url=db))
    assert report_a.added + report_b.added == store.count_articles()
    # Every story of the first run lives on, grown or as it was: the second run attached
    # articles to it instead of re-clustering the store.
    final = _groups(store)
    for members in stories_after_a.values():
        assert any(members <= group for group in final)
    assert final == batch_groups
    assert _ids(store) == batch_ids
    # Quotes are tracked across stories as one run tracks them.
    assert _tracked(store) == batch_run[1]
    # Every id of the first run still names a story, or redirects to the one it became.
    for sid in stories_after_a:
        assert store.story(sid) is not None or store.story_redirect(sid) is not None
    # No article is in two stories, and every stored article is in one.
    assert sum(len(g) for g in final) == store.count_articles()
    store.close()


@pytest.mark.slow
def test_articles_stored_by_an_interrupted_run_get_a_story_next_time(tmp_path, batch_groups):
    db = str(tmp_path / "recover.db")
    store = open_store(db)
    first, second = _inputs()
    api.ingest(first, store, Settings(db_url=db))
    # Simulate a run that stored its articles but died before saving the story index.
    with store.transaction() as conn:
        clear_index(conn)
    api.ingest(second, store, Settings(db_url=db))
    assert sum(len(g) for g in _groups(store)) == store.count_articles()
    assert _groups(store) == batch_groups
    store.close()


def test_a_run_with_nothing_new_rebuilds_the_stories_left_pending(tmp_path):
    db = str(tmp_path / "pending.db")
    store = open_store(db)
    first, _ = _inputs()
    api.ingest(first[:4], store, Settings(db_url=db))
    expected = store.stories()
    # As a run killed right after saving the index leaves it: stories pending, none stored.
    with store.transaction() as conn:
        conn.execute(delete(t.story_articles))
        conn.execute(delete(t.stories))
    with store.index_transaction() as txn:
        keys = [s.key for s in txn.rows.all_stories()]
        txn.save(keys)
    report = api.ingest_items([], store, Settings(db_url=db))
    assert report.rebuilt == len(keys)
    assert store.stories() == expected
    assert store.pending_rebuilds()[1] == []
    store.close()


def test_export_holds_the_stories_of_the_articles_asked_for(tmp_path):
    db = str(tmp_path / "export.db")
    store = open_store(db)
    first, _ = _inputs()
    report = api.ingest(first[:3], store, Settings(db_url=db))
    corpus = api.export(store, report.article_ids[:1])
    assert report.article_ids[0] in {a.id for a in corpus.articles}
    assert all(report.article_ids[0] in s.article_ids for s in corpus.stories)
    store.close()


# Two look-alike fires in one town (same chief, same words), years apart: a stream puts the
# first article of the second fire into the first fire's story; the index splits it later.
FIRE_SHARED = [
    "Fire crews fought a large warehouse blaze in Norbury on {day}, fire chief Anna Pell said.",
    "Chief Pell said {crews} firefighters were sent to the industrial estate in Norbury.",
    "Smoke could be seen across Norbury and residents were told to keep windows closed.",
    "The Norbury fire service said the blaze was under control by the evening.",
    "Anna Pell praised the crews who worked through the night in Norbury.",
]
FIRE_EVENTS = {
    "a": [
        "The fire destroyed the Kestrel Logistics depot on Mill Lane in March 2019.",
        "Kestrel Logistics owner Tomas Verey said the depot held furniture for export.",
        "Investigators blamed an electrical fault in the Kestrel depot's loading bay.",
        "Verey said 85 Kestrel workers would be moved to the company's other site.",
        "Mill Lane stayed closed for two days while the Kestrel building was made safe.",
        "The 2019 fire was the largest in Norbury for a decade, Pell said.",
    ],
    "b": [
        "The blaze gutted the Orwin Paper store on Canal Street in October 2023.",
        "Orwin Paper director Lisa Marchetti said the store held recycled card and pulp.",
        "Police are treating the Orwin Paper fire as arson after a witness saw two men.",
        "Marchetti said 30 Orwin staff had been sent home on full pay.",
        "Canal Street residents were evacuated as Orwin's roof collapsed.",
        "Detectives appealed for footage from Canal Street taken in October 2023.",
    ],
}


def _fire_articles(tmp_path, seed: int = 1) -> list[str]:
    import random

    rng = random.Random(seed)
    files = []
    for event in ("a", "b"):
        for i in range(6):
            lines = rng.sample(FIRE_SHARED, 4) + rng.sample(FIRE_EVENTS[event], 3)
            rng.shuffle(lines)
            body = "\n\n".join(
                line.format(
                    day=rng.choice(["Tuesday", "Wednesday"]), crews=rng.choice([60, 70, 80])
                )
                for line in lines
            )
            path = tmp_path / f"{event}{i}.txt"
            path.write_text(f"Warehouse fire report {event}{i}\n\n{body}\n", encoding="utf-8")
            files.append(str(path))
    return files


def test_a_story_split_by_a_later_run_is_stored_as_two_stories(tmp_path):
    files = _fire_articles(tmp_path)
    db = str(tmp_path / "split.db")
    store = open_store(db)
    api.ingest(files[:7], store, Settings(db_url=db))  # six of fire A and the first of fire B
    assert [len(s.article_ids) for s in store.stories()] == [7]
    api.ingest(files[7:], store, Settings(db_url=db))
    by_id = {a.article.id: a.article.path for a in store.analyses()}
    stored = {frozenset(Path(by_id[aid]).name[0] for aid in s.article_ids) for s in store.stories()}
    assert stored == {frozenset("a"), frozenset("b")}
    assert [len(s.article_ids) for s in store.stories()] == [6, 6]
    # The same articles in one run give the same stories.
    db_once = str(tmp_path / "once.db")
    once = open_store(db_once)
    api.ingest(files, once, Settings(db_url=db_once))
    assert _ids(once) == _ids(store)
    once.close()
    store.close()


ARTICLE = (
    "RIVERTON — The town council approved a new bridge on Sunday.\n\n"
    'Mayor Jane Roe, 52, said: "We will rebuild it stronger than before."\n'
)


def test_analyze_without_a_store_url_leaves_no_database_behind(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.txt").write_text(ARTICLE, encoding="utf-8")
    report, corpus = api.analyze(["a.txt"], None, Settings())
    assert report.added == 1 and len(corpus.articles) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt"]


def test_ingest_records_reads_dicts_like_jsonl_lines(memory_store):
    report = api.ingest_records(
        [{"text": ARTICLE, "source": "Courier"}, {"title": "no text"}, "not a record"],
        memory_store,
        Settings(),
    )
    assert report.added == 1 and report.article_ids
    assert [(s.origin, s.code.value) for s in report.skipped] == [
        ("api:2", "no_text"),
        ("api:3", "bad_json"),
    ]


def test_story_quote_counts_match_the_stories(tmp_path):
    """``count_story_quotes`` (the run summary's quotes) adds up what the stories hold."""
    store = open_store(str(tmp_path / "counts.db"))
    first, _ = _inputs()
    report = api.ingest(first, store, Settings())
    stories = store.stories()
    by_id = {s.id: len(s.quotes) for s in stories}
    assert len(by_id) >= 2 and sum(by_id.values()) > 0
    one = max(by_id, key=by_id.__getitem__)
    rows = [
        (list(by_id), sum(by_id.values())),
        ([one], by_id[one]),
        ([one, "no-such-story"], by_id[one]),
        (["no-such-story"], 0),
        ([], 0),
    ]
    for story_ids, expected in rows:
        assert store.count_story_quotes(story_ids) == expected, story_ids
    assert report.quotes == sum(by_id.values())
    store.close()
