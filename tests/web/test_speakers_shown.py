"""Speakers in doubt, wherever a speaker is shown: a sure name as before; a doubtful one marked
"probably", its percentage in a tooltip and in words for screen readers; an unresolved one as
its words, muted, never as a name. On the story and article pages (report and served), the
JSON API and the terminal, for the invented story of ``tests.stories.builders``."""

from __future__ import annotations

import httpx
import lxml.html
import pytest
from rich.console import Console

from newsloom.models import ArticleAnalysis, Story
from newsloom.render.html import Pages
from newsloom.render.speakers import DOUBTFUL_BELOW, shown_speaker
from newsloom.render.terminal import print_story, speaker_cell
from newsloom.stories import consolidate
from tests.stories.builders import BUDGET, FIRE, REBUILD, speakers_in_doubt


@pytest.mark.parametrize(
    ("name", "words", "confidence", "state", "label"),
    [
        ("Jane Roe", (), None, "named", "Jane Roe"),  # never scored: as sure as before
        ("Jane Roe", ("she",), 0.95, "named", "Jane Roe"),
        ("Jane Roe", (), DOUBTFUL_BELOW, "named", "Jane Roe"),
        ("Jane Roe", ("she",), 0.62, "doubtful", "probably Jane Roe (62%)"),
        ("Jane Roe", (), 0.799, "doubtful", "probably Jane Roe (79%)"),  # never rounded up
        (None, ("she",), 0.35, "unresolved", "unclear speaker (“she”)"),
        (None, ("she",), None, "unresolved", "unclear speaker (“she”)"),
        (
            None,
            ("she", " she ", "the official"),
            0.4,
            "unresolved",
            "unclear speaker (“she”, “the official”)",
        ),
        ("", ("she",), 0.9, "unresolved", "unclear speaker (“she”)"),
        (None, (), 0.2, "unattributed", "unattributed"),
        (None, ("  ",), None, "unattributed", "unattributed"),
    ],
)
def test_shown_speaker(name, words, confidence, state, label):
    shown = shown_speaker(name, words, confidence)
    assert (shown.state, shown.label) == (state, label)
    if state == "unresolved":
        assert shown.name is None  # the words are all a page has to show


@pytest.fixture(scope="module")
def story() -> tuple[Story, dict[str, ArticleAnalysis]]:
    analyses = speakers_in_doubt()
    return consolidate(analyses), {a.article.id: a for a in analyses}


def _doc(page: str) -> lxml.html.HtmlElement:
    return lxml.html.fromstring(page)


def _text(element: lxml.html.HtmlElement) -> str:
    return " ".join(element.text_content().split())


def _quote_block(doc: lxml.html.HtmlElement, words: str) -> lxml.html.HtmlElement:
    (block,) = [q for q in doc.xpath('//div[@class="quote"]') if words in q.text_content()]
    return block


def _heading(block: lxml.html.HtmlElement) -> str:
    (heading,) = block.xpath("ancestor::section[@data-filter-item]/h3")
    return _text(heading)


def check_story_page(page: str) -> None:
    """The story page's quotes, each with its speaker shown as sure as the evidence is."""
    doc = _doc(page)
    sure = _quote_block(doc, REBUILD)
    assert _heading(sure).startswith("Jane Roe")
    assert not sure.xpath('.//*[@class="said-by"]')  # a sure speaker needs no note
    assert "Outlets disagree on who said this: John Doe" in _text(sure)  # still flagged

    doubtful = _quote_block(doc, FIRE)
    assert _heading(doubtful).startswith("John Doe")
    (mark,) = doubtful.xpath('.//*[@class="said-by"]//span[@class="speaker-doubtful"]')
    assert mark.get("title") == "55% likely to be the speaker"
    assert _text(mark) == "probably John Doe (55% likely to be the speaker)"
    (spoken,) = mark.xpath('.//span[@class="visually-hidden"]')
    assert "55% likely" in _text(spoken)

    unresolved = _quote_block(doc, BUDGET)
    assert _heading(unresolved) == "Unclear or unattributed (1)"
    (words,) = unresolved.xpath('.//span[@class="speaker-unclear"]')
    assert _text(words) == "unclear speaker (“she”)"
    assert "Jane Roe" not in _text(unresolved) and "John Doe" not in _text(unresolved)

    # What each outlet alone reported names its quotes' speakers the same way.
    (outlets,) = doc.xpath('//section[@id="outlets"]')
    alone = {_text(li).split("” — ")[1] for li in outlets.xpath(".//li[contains(., '” — ')]")}
    assert alone == {
        "probably John Doe (55% likely to be the speaker)",
        "unclear speaker (“she”)",
    }


def check_article_pages(pages: dict[str, str]) -> None:
    """An article's quote list and its marks' titles name the speaker this article gives."""
    first, second = _doc(pages["d0000000000000a1"]), _doc(pages["d0000000000000a2"])
    listed = {_text(li) for li in first.xpath("//section//ol/li")}
    assert listed == {f"“{REBUILD}” — Jane Roe", f"“{BUDGET}” — unclear speaker (“she”)"}
    titles = {m.get("title") for m in first.xpath("//mark[@title]")}
    assert "quote: unclear speaker (“she”)" in titles and "quote: Jane Roe" in titles
    (rebuilt,) = [m for m in second.xpath("//mark[@id]") if _text(m) == REBUILD]
    assert rebuilt.get("title") == "quote: probably Jane Roe (62%)"  # "she", 62% sure


def test_story_and_article_pages(story):
    found, analyses = story
    pages = Pages()
    check_story_page(pages.story(found, analyses))
    check_article_pages({aid: pages.article(a, found, analyses) for aid, a in analyses.items()})


def test_the_static_report_shows_doubt(doubt_report):
    (story_page,) = doubt_report.glob("story-*.html")
    check_story_page(story_page.read_text(encoding="utf-8"))
    check_article_pages(
        {
            p.stem.removeprefix("article-"): p.read_text(encoding="utf-8")
            for p in doubt_report.glob("article-*.html")
        }
    )


def test_the_served_pages_and_the_api_show_doubt(doubt_server):
    with httpx.Client(base_url=doubt_server, timeout=60) as client:
        (summary,) = client.get("/api/stories").json()["items"]
        check_story_page(client.get(f"/story-{summary['id']}.html").text)
        check_article_pages(
            {aid: client.get(f"/article-{aid}.html").text for aid in ("d0000000000000a1",)}
            | {"d0000000000000a2": client.get("/article-d0000000000000a2.html").text}
        )

        quotes = {q["text"]: q for q in client.get("/api/quotes").json()["items"]}
        budget = quotes[BUDGET]
        assert (budget["speaker"], budget["speaker_text"]) == (None, "she")
        assert (budget["speaker_confidence"], budget["speaker_kind"]) == (0.35, "unknown")
        speakers = client.get("/api/speakers").json()["items"]
        assert {s["speaker"]: round(s["mean_confidence"], 3) for s in speakers} == {
            "Jane Roe": round((0.95 + 0.62) / 2, 3),
            "John Doe": round((0.55 + 0.3) / 2, 3),
        }

        hits = client.get("/api/search", params={"q": "budget"}).json()["items"]
        (hit,) = [h for h in hits if h["kind"] == "quote"]
        assert (hit["speaker"], hit["speaker_text"], hit["speaker_confidence"]) == (
            None,
            "she",
            0.35,
        )
        for query, shown in (("budget", "unclear speaker (“she”)"), ("depot", "probably John Doe")):
            found = _doc(client.get("/search", params={"q": query}).text)
            (meta,) = found.xpath('//li[contains(@class, "hit-quote")]/p[@class="meta"]')
            assert shown in _text(meta)

        full = client.get(f"/api/stories/{summary['id']}").json()
        by_text = {q["text"]: q for q in full["quotes"]}
        assert by_text[REBUILD]["speaker_confidence"] == 0.95
        assert by_text[REBUILD]["speaker_conflict"] == ["John Doe"]
        assert (by_text[BUDGET]["speaker"], by_text[BUDGET]["speaker_confidence"]) == (None, None)
        (mention,) = by_text[BUDGET]["mentions"]
        assert (mention["speaker_text"], mention["speaker_confidence"]) == ("she", 0.35)


def test_the_terminal_marks_doubt(story):
    console = Console(record=True, width=200)
    print_story(console, story[0])
    shown = console.export_text()
    assert "probably John Doe (55%)" in shown and "unclear speaker (“she”)" in shown
    assert "other outlets name: John Doe" in shown
    assert speaker_cell(shown_speaker("Jane Roe", (), 0.5)).style == "yellow"
    assert speaker_cell(shown_speaker(None, ("she",), 0.5)).style == "dim italic"
    assert speaker_cell(shown_speaker("Jane Roe", (), 0.9)).style == ""
    assert speaker_cell(shown_speaker(None)).plain == "?"
