"""The occasion of a quote mention (the date its cue's sentence gives) and how tracking reads it."""

from __future__ import annotations

import pytest

from newsloom.stories import consolidate
from newsloom.stories.occasions import occasion
from newsloom.stories.tracking import ArticleInfo, track_stories

from .builders import analysis

LINE = "We will rebuild every bridge in this county before the winter comes"


def _article(aid: str, text: str, quote: str, cue: str, dates, published: str):
    """An article of ``text`` quoting ``quote`` of Dana Holt, its cue the word ``cue`` (the
    last one of the text when it is written twice), dated by ``dates`` (phrase, ISO value)."""
    at = text.rindex(cue)
    fields = {"cue_start": at, "cue_end": at + len(cue)}
    return analysis(
        aid,
        text,
        source=f"Outlet {aid}",
        published=published,
        quotes=[(quote, "Dana Holt", "direct", fields)],
        dates=dates,
        entities=[{"name": "Dana Holt"}],
    )


Q = "We will rebuild every bridge."
# (text, its cue word, its dates, the occasion); the article is published on 2026-03-18
OCCASIONS = [
    (
        f'"{Q}," Holt said during a debate in Leeds last week.',
        "said",
        [("last week", "2026-03")],
        "2026-03",
    ),
    (f'On Monday, Holt told reporters: "{Q}"', "told", [("Monday", "2026-03-16")], "2026-03-16"),
    # the earliest date by the cue: the occasion before it, not the day it was repeated
    (
        f'"{Q}," Holt said on Monday, as she did in 2019.',
        "said",
        [("Monday", "2026-03-16"), ("2019", "2019")],
        "2019",
    ),
    # a date inside the quotation is what the words are about
    (
        'Holt said: "By Monday we will rebuild every bridge."',
        "said",
        [("Monday", "2026-03-16")],
        None,
    ),
    # past the quotation: the next clause's date
    (f'Holt said, "{Q}," and Ruiz answered on Monday.', "said", [("Monday", "2026-03-16")], None),
    # after the article was published: a plan, not when the words were said
    (f'"{Q}," Holt said, promising the work by Friday.', "said", [("Friday", "2026-03-20")], None),
    # the cue of another sentence dates that sentence's words
    (
        f'Holt was firm: "{Q}"\nRuiz said on Monday it would not happen.',
        "said",
        [("Monday", "2026-03-16")],
        None,
    ),
    # too far from the cue: another clause's date
    (
        f"Holt, who ran for the council as a young teacher in the spring of 2004, long before "
        f'the flood that changed the town and its council, said: "{Q}"',
        "said",
        [("2004", "2004")],
        None,
    ),
    (f'"{Q}," Holt said.', "said", [], None),
]


@pytest.mark.parametrize(("text", "cue", "dates", "expected"), OCCASIONS)
def test_the_occasion_is_the_date_the_cue_gives(text, cue, dates, expected):
    quote = "By Monday we will rebuild every bridge." if "By Monday" in text else Q
    article = _article("a0", text, quote, cue, dates, "2026-03-18")
    assert occasion(article, article.quotes[0]) == expected
    (story_quote,) = consolidate([article]).quotes
    assert story_quote.mentions[0].occasion == expected


# (how the later article, published 2026-04-20, dates LINE, its dates, one tracked quote with
# the first article's LINE, published 2026-01-05 with no date): an utterance is reported after
# it is made, so a line dated after the first article came out is the line said again.
SAID_AGAIN = [
    ("at a rally on Monday", [("Monday", "2026-04-13")], False),
    ("at a rally in February", [("February", "2026-02")], False),
    ("at a rally in January", [("January", "2026-01")], True),  # may be the first saying
    ("at a rally on January 6", [("January 6", "2026-01-06")], True),  # a day of slack
    ("at a rally", [], True),  # no date: nothing said against it
]


@pytest.mark.parametrize(("when", "dates", "same"), SAID_AGAIN)
def test_a_line_dated_after_the_other_article_is_said_again(when, dates, same):
    first = _article("a0", f'"{LINE}," Holt said.', LINE, "said", [], "2026-01-05")
    later = _article("a1", f'"{LINE}," Holt said {when}.', LINE, "said", dates, "2026-04-20")
    infos = {a.article.id: ArticleInfo("x", a.article.published) for a in (first, later)}
    quotes = track_stories([consolidate([first]), consolidate([later])], infos).quotes
    assert any(len(q.story_ids) == 2 for q in quotes) == same
