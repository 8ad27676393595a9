"""Story ids are permanent: every id ever issued resolves, directly or through a redirect.

Real ingests on a real SQLite store (``api.ingest_records`` / ``api.ingest``, as the HTTP API
and the CLI call them): a story grows by an article whose id sorts first, two stories merge,
a story splits; after each run every id seen so far must still find a story.
"""

from __future__ import annotations

import pytest

from newsloom import api
from newsloom.config import Settings
from newsloom.models import Story, article_id, stable_id
from newsloom.store import Store, open_store
from newsloom.stories import story_id
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


# --- the redirects table on both backends, with stories written as the rebuild writes them


def _store_with_articles(url: str, ids: str) -> Store:
    from tests.stories.builders import analysis

    store = open_store(url)
    for aid in ids:
        store.add_analysis(analysis(aid, f"Article {aid} about the Kell river bridge."))
    return store


def _story(*members: str) -> Story:
    return Story(id=story_id(members), title=None, article_ids=list(members))


def _check_redirect_chains(url: str) -> None:
    store = _store_with_articles(url, "abcde")
    store.replace_stories([_story("a", "b"), _story("c")])
    store.replace_stories([_story("a", "b", "c")])  # c's story merged into a's
    assert store.story_redirects() == {_story("c").id: _story("a").id}
    store.replace_stories([_story("d")])
    store.replace_stories([_story("d", "a", "b", "c")])  # a's story merged into d's
    assert store.story_redirects() == {
        _story("c").id: _story("d").id,
        _story("a").id: _story("d").id,
    }
    # A split whose new half is written first: the old id is not redirected to that half, and
    # the founding half is stored under it again.
    store.replace_stories([_story("a", "b", "e")])
    assert store.story(_story("a").id) is not None
    assert store.story_redirect(_story("a").id) is None
    store.replace_stories([_story("d", "c")])
    assert store.story_redirects() == {_story("c").id: _story("d").id}
    store.close()


def test_redirects_are_one_hop_and_a_live_id_is_never_redirected(tmp_path):
    _check_redirect_chains(str(tmp_path / "redirects.db"))


@pytest.mark.postgres
def test_redirects_on_postgresql(pg_url):
    _check_redirect_chains(pg_url)


def test_a_story_stored_under_its_former_smallest_member_id_redirects(tmp_path):
    """Stores written before ids followed the founder: the rebuilt story's old id redirects."""
    store = _store_with_articles(str(tmp_path / "old.db"), "bac")
    old = Story(id=stable_id("story", "a"), title=None, article_ids=["b", "a"])
    store.replace_stories([old])
    store.replace_stories([_story("b", "a", "c")])
    assert store.story_redirect(old.id) == _story("b").id
    store.close()
