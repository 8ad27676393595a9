"""Variant labels of tracked quotes against the tracked quote's canonical wording, from the
invented re-quoted line of the tracked quote page's tests (tests/web/test_tracked_quotes.py).

A story whose outlets word one quote two ways (cut short in one, a word swapped in the other)
labels the swapped wording ``paraphrased`` against the *story's* canonical wording (it is both
longer than the cut one and changed); the tracked quote labels it against the *tracked*
canonical wording, where it is one word swapped: ``word_change``.
"""

from __future__ import annotations

from newsloom.stories import consolidate
from newsloom.stories.tracking import ArticleInfo, track_stories
from tests.stories.builders import quoted

FULL = (
    "We will not let this harbour become a museum for ships that no longer come, "
    "and we will pay for the dredging ourselves if we have to"
)
CUT = "We will not let this harbour become a museum for ships that no longer come"
SWAPPED = FULL.replace("ships", "boats")


def variants() -> dict[str, str]:
    february = [
        quoted("a1", (FULL, "Odile Farrant"), published="2023-02-14"),
        quoted("a2", (FULL, "Odile Farrant"), published="2023-02-15"),
    ]
    september = [
        quoted("b1", (CUT, "Odile Farrant"), published="2023-09-19"),
        quoted("b2", (SWAPPED, "Odile Farrant"), published="2023-09-20"),
    ]
    infos = {a.article.id: ArticleInfo(a.article.outlet, a.article.published) for a in february}
    infos |= {a.article.id: ArticleInfo(a.article.outlet, a.article.published) for a in september}
    tracking = track_stories([consolidate(february), consolidate(september)], infos)
    (quote,) = [q for q in tracking.quotes if len(q.story_ids) == 2]
    assert quote.text == FULL
    return {m.article_id: m.variant for m in quote.mentions}


def test_the_cut_line_is_truncated_against_the_tracked_wording():
    assert variants()["b1"] == "truncated"


def test_one_swapped_word_is_a_word_change_against_the_tracked_wording():
    assert variants()["b2"] == "word_change"
