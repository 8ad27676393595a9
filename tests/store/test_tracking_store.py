"""Tracked quotes kept by the store story write by story write: equal to tracking at once."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from newsloom.store import open_store
from newsloom.stories import consolidate
from tests.stories.builders import analysis, quoted

SPEECH = "We will rebuild every bridge in this county before the winter comes, I promise you that"
CUT = "We will rebuild every bridge in this county before the winter comes"
CHANGED = "We will rebuild every bridge in this county before the summer comes, I promise you that"
FRAGMENT = "rebuild every bridge in this county"
OTHER = "The ferry timetable will change on the first of May for every single route"


def _analyses():
    return {
        "a0": quoted("a0", (SPEECH, "Dana Holt"), published="2026-01-05"),
        "a1": quoted("a1", (CUT, "Dana Holt"), published="2026-02-10"),
        "a2": quoted("a2", (OTHER, "Mark Ruiz"), published="2026-03-01"),
        "a3": quoted("a3", (CHANGED, "Dana Holt"), published="2026-04-20"),
        # unattributed, in an article naming Dana Holt: her words (``_vouched``)
        "a4": analysis(
            "a4",
            f'"{FRAGMENT}," a candidate said. Dana Holt spoke later.',
            source="Outlet a4",
            published="2026-03-15",
            quotes=[(FRAGMENT, "a candidate")],
            entities=[{"name": "Dana Holt"}],
        ),
    }


def _tracked(store):
    stories = store.stories()
    quotes = store.tracked_quotes_of([s.id for s in stories])
    ids = {q.id: q.tracked_quote_id for s in stories for q in s.quotes}
    return (
        sorted(
            (q.id, q.text, sorted((m.article_id, m.variant) for m in q.mentions)) for q in quotes
        ),
        ids,
    )


def check_story_by_story_equals_all_at_once(url_steps: str, url_once: str) -> None:
    arts = _analyses()
    steps = open_store(url_steps)
    steps.add_analyses(arts.values())
    # One story per article, written one at a time; then a2's story absorbs a3 (a rebuild
    # that moves a re-quote from one story to another) and a0's story is written again.
    for aid in ("a0", "a1", "a2", "a3", "a4"):
        steps.replace_stories([consolidate([arts[aid]])])
    steps.replace_stories([consolidate([arts["a2"], arts["a3"]])])
    steps.replace_stories([consolidate([arts["a0"]])])
    once = open_store(url_once)
    once.add_analyses(arts.values())
    once.replace_stories(
        [
            consolidate([arts["a0"]]),
            consolidate([arts["a1"]]),
            consolidate([arts["a2"], arts["a3"]]),
            consolidate([arts["a4"]]),
        ]
    )
    assert _tracked(steps) == _tracked(once)
    quotes, _ = _tracked(once)
    (speech,) = [q for q in quotes if q[1] == SPEECH]
    assert speech[2] == [
        ("a0", "identical"),
        ("a1", "truncated"),
        ("a3", "word_change"),
        ("a4", "truncated"),
    ]
    rows = once.tracked_quotes()
    assert [(r.mentions, r.stories, r.first_date, r.last_date) for r in rows][0] == (
        4,
        4,
        "2026-01-05",
        "2026-04-20",
    )
    assert [r.text for r in once.tracked_quotes(speaker="dana holt", query="BRIDGE")] == [SPEECH]
    assert once.count_tracked_quotes(speaker="Mark Ruiz") == 1
    full = once.tracked_quote(rows[0].id[:6])
    assert full is not None and full.first_outlet == "Outlet a0"
    steps.close()
    once.close()


def test_story_by_story_equals_all_at_once(tmp_path):
    check_story_by_story_equals_all_at_once(
        f"sqlite:///{tmp_path / 'steps.db'}", f"sqlite:///{tmp_path / 'once.db'}"
    )


def check_a_version_3_store_gets_its_tracked_quotes(url: str) -> None:
    arts = _analyses()
    store = open_store(url)
    store.add_analyses(arts.values())
    store.replace_stories([consolidate([a]) for a in arts.values()])
    expected = _tracked(store)
    with store.transaction() as conn:  # what a version-3 store looks like on disk
        for table in (
            "tracked_mentions",
            "tracked_quotes",
            "tracked_keys",
            "tracked_nodes",
            "tracked_prints",
            "tracked_stops",
        ):
            conn.execute(text(f"DROP TABLE {table}"))
        conn.execute(text("UPDATE newsloom_meta SET value = '3' WHERE key = 'schema_version'"))
    store.close()
    upgraded = open_store(url)
    assert _tracked(upgraded) == expected
    assert len(expected[0]) == 2
    upgraded.close()


def test_a_version_3_store_gets_its_tracked_quotes(tmp_path):
    check_a_version_3_store_gets_its_tracked_quotes(f"sqlite:///{tmp_path / 'v3.db'}")


@pytest.mark.parametrize("version", ["7", "8"])
def test_an_older_store_is_retracked(tmp_path, version):
    url = f"sqlite:///{tmp_path / 'old.db'}"
    arts = _analyses()
    store = open_store(url)
    store.add_analyses(arts.values())
    store.replace_stories([consolidate([a]) for a in arts.values()])
    expected = _tracked(store)
    with store.transaction() as conn:  # version 7: no stop tables; version 8: no people kept
        if version == "7":
            for table in ("tracked_prints", "tracked_stops"):
                conn.execute(text(f"DROP TABLE {table}"))
        conn.execute(text("UPDATE tracked_nodes SET tracked_id = NULL"))
        conn.execute(
            text("UPDATE newsloom_meta SET value = :v WHERE key = 'schema_version'"), {"v": version}
        )
    store.close()
    upgraded = open_store(url)
    assert _tracked(upgraded) == expected
    with upgraded.engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM tracked_prints")).scalar_one() > 0
    upgraded.close()


def check_an_earlier_id_leads_to_its_tracked_quote(url: str) -> None:
    arts = _analyses()
    store = open_store(url)
    store.add_analyses(arts.values())
    store.replace_stories([consolidate([arts["a1"]])])  # CUT alone: its id is a1's
    (first,) = store.tracked_quotes_of([consolidate([arts["a1"]]).id])
    store.replace_stories([consolidate([arts["a0"]])])  # SPEECH, keyed earlier: a0's id now
    (joined,) = [q for q in store.tracked_quotes_of([consolidate([arts["a0"]]).id])]
    assert joined.id != first.id and {m.article_id for m in joined.mentions} == {"a0", "a1"}
    found = store.tracked_quote(first.id)
    assert found is not None and found.id == joined.id
    # a0's story rebuilt without its quote: the a1 id is in use again, a0's leads back to it
    store.replace_stories([consolidate([arts["a0"]]).model_copy(update={"quotes": []})])
    again = store.tracked_quote(first.id)
    assert again is not None and again.id == first.id
    back = store.tracked_quote(joined.id)
    assert back is not None and back.id == first.id
    with store.engine.connect() as conn:
        rows = conn.execute(text("SELECT old_id, new_id FROM tracked_redirects")).all()
    assert [tuple(r) for r in rows] == [(joined.id, first.id)]
    store.close()


def test_an_earlier_id_leads_to_its_tracked_quote(tmp_path):
    check_an_earlier_id_leads_to_its_tracked_quote(f"sqlite:///{tmp_path / 'ids.db'}")


NINE = "rebuild every bridge in this county before the winter"
SHORT = "every bridge in this county"
PEOPLE = [{"name": "Dana Holt", "at": ["Holt"]}, {"name": "Mark Ruiz", "at": ["Ruiz"]}]


def _guarded():
    """Articles the guards of ``stories/tracking.py`` decide: an unattributed line naming both
    people (joins Holt's), Ruiz's fragment inside it (stays apart: ``_carried_off``), a line
    given to Ruiz through "who" (no evidence: joins Holt's), Holt's fragment said of Ruiz
    inside her line said of Lee (``_said_of_another``), and one phrase given to two
    descriptions naming Holt (``_camp``)."""
    lee = "Lee is very, very weak on the budget, and the unions know it too"
    people = [*PEOPLE, {"name": "Ann Lee", "at": ["Lee"]}]

    def art(aid, text, quote, speaker, when, fields=None):
        extra = ("direct", fields) if fields else ()
        return analysis(
            aid,
            text,
            source=f"Outlet {aid}",
            published=when,
            quotes=[(quote, speaker, *extra)],
            entities=people,
            sentences=True,
        )

    return {
        "b0": art("b0", f'"{SPEECH}," Holt said.', SPEECH, "Dana Holt", "2026-01-05"),
        "b1": art("b1", f'"{NINE}." Holt and Ruiz spoke.', NINE, None, "2026-02-01"),
        "b2": art("b2", f'"{SHORT}," Ruiz said.', SHORT, "Mark Ruiz", "2026-03-01"),
        "b3": art(
            "b3",
            f'"{CUT}," said Ruiz, who spoke after Holt.',
            CUT,
            "Mark Ruiz",
            "2026-03-05",
            {"speaker_text": "who"},
        ),
        "b4": art("b4", f'"{lee}," Holt said.', lee, "Dana Holt", "2026-01-10"),
        "b5": art(
            "b5",
            'Holt called Ruiz "very weak on the budget."',
            "very weak on the budget.",
            "Dana Holt",
            "2026-03-10",
        ),
        "b6": art(
            "b6",
            '"Overspending run amok." Holt left.',
            "Overspending run amok.",
            "One Holt spokesman",
            "2026-01-05",
        ),
        "b7": art(
            "b7",
            '"Overspending run amok." Holt left.',
            "Overspending run amok.",
            "Some Holt allies",
            "2026-01-09",
        ),
    }


def check_guarded_story_by_story_equals_all_at_once(url_steps: str, url_once: str) -> None:
    arts = _guarded()
    steps = open_store(url_steps)
    steps.add_analyses(arts.values())
    for aid in ("b2", "b5", "b3", "b1", "b7", "b0", "b4", "b6"):  # fragments before wholes
        steps.replace_stories([consolidate([arts[aid]])])
    once = open_store(url_once)
    once.add_analyses(arts.values())
    once.replace_stories([consolidate([a]) for a in arts.values()])
    assert _tracked(steps) == _tracked(once)
    groups = sorted(
        sorted({m.article_id for m in q.mentions})
        for q in once.tracked_quotes_of([s.id for s in once.stories()])
    )
    assert groups == [["b0", "b1", "b3"], ["b2"], ["b4"], ["b5"], ["b6", "b7"]]
    steps.close()
    once.close()


def test_the_guards_decide_story_by_story_as_all_at_once(tmp_path):
    check_guarded_story_by_story_equals_all_at_once(
        f"sqlite:///{tmp_path / 'steps.db'}", f"sqlite:///{tmp_path / 'once.db'}"
    )
