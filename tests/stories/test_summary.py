from __future__ import annotations

import pytest

from newsloom.stories.summary import representative_title, summarise

from .builders import analysis

A = (
    "Floods forced thousands of residents to leave their homes in Riverton on Sunday.\n"
    '"We have never seen water like this in our whole lives here," said one resident today.\n'
    "The local bakery on Elm Street also announced a new seasonal menu for customers.\n"
    "Emergency crews rescued dozens of stranded residents from flooded homes overnight."
)
B = (
    "Thousands of Riverton residents fled their homes on Sunday as floods swept the town.\n"
    "Emergency crews rescued dozens of residents stranded in flooded homes overnight.\n"
    "The town council will meet next week to discuss the cost of the damage."
)
C = (
    "Floods swept through Riverton on Sunday, forcing thousands of residents from their homes.\n"
    "Officials said the river had reached its highest level in a century."
)


def _arts():
    return [
        analysis(
            "a1",
            A,
            title="Floods force thousands from homes in Riverton",
            quotes=[("We have never seen water like this in our whole lives here", "resident")],
        ),
        analysis("a2", B, title="Riverton residents flee floods"),
        analysis("a3", C, title="Floods force thousands from Riverton homes"),
    ]


def test_summary_cites_articles_and_skips_quotes():
    summary = summarise(_arts())
    assert 1 <= len(summary) <= 5
    texts = [s["text"] for s in summary]
    assert not any("never seen water" in t for t in texts)
    lead = next(s for s in summary if "thousands" in s["text"].lower())
    assert set(lead["article_ids"]) == {"a1", "a2", "a3"}
    for s in summary:
        article = next(a for a in _arts() if a.article.id == s["article_id"]).article
        assert article.text[s["start"] : s["end"]] == s["text"]
        assert s["article_id"] == s["article_ids"][0]
    # no two retellings of the same fact
    assert sum("thousands" in t.lower() for t in texts) == 1


def test_summary_prefers_shared_facts_over_side_notes():
    texts = [s["text"] for s in summarise(_arts())][:3]
    assert not any("bakery" in t for t in texts)


def test_representative_title():
    assert representative_title(_arts()) == "Floods force thousands from homes in Riverton"
    assert representative_title([analysis("a1", "x")]) is None


def test_empty():
    assert summarise([analysis("a1", "Short.")]) == []


RIVERTON_TITLES = [
    "Riverton mayor orders evacuation as Kell river floods homes",
    "Kell river bursts its banks, thousands leave Riverton",
    "Thousands evacuated from Riverton as river Kell floods",
    "Mayor Jane Roe: Riverton evacuation to last a week",
]


def _titled(titles: list[str]) -> list:
    return [analysis(f"a{i}", "x", title=t) for i, t in enumerate(titles)]


@pytest.mark.parametrize("joining", ["Riverton floods", "Kell river floods", "Floods", "Riverton"])
def test_one_short_article_joining_keeps_the_title(joining):
    before = representative_title(_titled(RIVERTON_TITLES))
    assert representative_title(_titled([*RIVERTON_TITLES, joining])) == before


def test_the_title_moves_when_most_members_word_it_otherwise():
    others = ["Floods force thousands from Riverton homes"] * 3
    assert representative_title(_titled(["Odd first headline", *others])) == others[0]
    assert representative_title(_titled(["Odd first headline", others[0]])) == (
        "Odd first headline"
    )
