"""Story ids are permanent: every id ever issued resolves, directly or through a redirect.

Real ingests on a real SQLite store (``api.ingest_records`` / ``api.ingest``, as the HTTP API
and the CLI call them): a story grows by an article whose id sorts first, two stories merge,
a story splits; after each run every id seen so far must still find a story.
"""

from __future__ import annotations

from newsloom import api
from newsloom.config import Settings
from newsloom.models import article_id
from newsloom.store import Store, open_store
from tests.test_api import _fire_articles

STORY = (
    "RIVERTON — The Riverton council approved a new bridge over the Kell river on Sunday "
    "after the old crossing collapsed, Mayor Jane Roe said.\n\n"
    "Roe said engineers from Hallam Works would start on the Kell bridge in March.\n\n"
    "The collapse of the Riverton bridge cut the town's only road to the coast.\n"
)
# A short follow-up of the same story; variants are tried until its id sorts before the
# story's first article, the case that used to give the story a new id.
FOLLOW_UP = (
    "RIVERTON — Mayor Jane Roe said the new Kell bridge in Riverton would open next year "
    "after the collapse ({n}).\n"
)


def smaller_follow_up(than: str) -> str:
    return next(
        text for text in (FOLLOW_UP.format(n=n) for n in range(1000)) if article_id(text) < than
    )


def _resolves(store: Store, sid: str) -> str | None:
    """The live id ``sid`` leads to, or None."""
    if store.story(sid) is not None:
        return sid
    return store.story_redirect(sid)


def test_a_story_keeps_its_id_when_an_article_with_a_smaller_id_joins(tmp_path):
    db = str(tmp_path / "ids.db")
    store = open_store(db)
    settings = Settings(db_url=db)
    first = api.ingest_records([{"text": STORY, "source": "Courier"}], store, settings)
    [before] = store.stories()
    follow_up = smaller_follow_up(first.article_ids[0])
    api.ingest_records([{"text": follow_up, "source": "Herald"}], store, settings)
    [after] = store.stories()
    assert len(after.article_ids) == 2, "the follow-up should join the story"
    assert after.id == before.id
    assert after.title == before.title
    store.close()


# Three reports of one fire: the second, six weeks after the first, opens a story of its own
# (too far apart in time); the third, in between, joins the first and links the two stories,
# which merge. The older story absorbs the younger and keeps its id.
MERGING = [
    ("Verey said 85 Kestrel workers would be moved to the company's other site.", "2024-01-01"),
    (
        "Fire crews fought a large warehouse blaze in Norbury on Tuesday, fire chief Anna Pell "
        "said. Investigators blamed an electrical fault in the Kestrel depot's loading bay. "
        "Chief Pell said 60 firefighters were sent to the industrial estate in Norbury.",
        "2024-02-18",
    ),
    (
        "Fire crews fought a large warehouse blaze in Norbury on Tuesday, fire chief Anna Pell "
        "said. Verey said 85 Kestrel workers would be moved to the company's other site.",
        "2024-01-14",
    ),
]


def ingest_merging(store: Store, db: str) -> tuple[str, str]:
    """Ingest MERGING one run per article; the (merged-away id, surviving id)."""
    settings = Settings(db_url=db)
    issued: list[set[str]] = []
    for text, published in MERGING:
        api.ingest_records([{"text": text, "published": published}], store, settings)
        issued.append({s.id for s in store.stories()})
    assert [len(ids) for ids in issued] == [1, 2, 1], "the scenario needs a merge"
    [oldest] = issued[0]
    [younger] = issued[1] - issued[0]
    assert issued[2] == {oldest}
    return younger, oldest


def test_a_merged_away_story_id_redirects_to_the_story_that_absorbed_it(tmp_path):
    db = str(tmp_path / "merge.db")
    store = open_store(db)
    younger, oldest = ingest_merging(store, db)
    assert store.story_redirect(younger) == oldest
    assert store.story_redirects() == {younger: oldest}
    assert store.story_redirect(oldest) is None  # a live id is no redirect
    store.close()


def test_every_issued_id_resolves_after_merges_and_splits(tmp_path):
    """The fire scenario of tests/test_api.py: one story holds two fires, then splits."""
    files = _fire_articles(tmp_path)
    db = str(tmp_path / "split.db")
    store = open_store(db)
    settings = Settings(db_url=db)
    issued: set[str] = set()
    for run in (files[:3], files[3:7], files[7:9], files[9:]):
        api.ingest(run, store, settings)
        issued |= {s.id for s in store.stories()}
        for sid in issued:
            assert _resolves(store, sid) is not None, f"story id {sid} no longer resolves"
    assert len(store.stories()) == 2
    store.close()
