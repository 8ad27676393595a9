"""Real headless Chromium on a quote followed across stories (the invented TRACKED_RECORDS):
from a story page to the quote's page, its wordings over time with their variants and marks,
the link evidence, a span in its article, the other story; served and from file://.
Screenshots go to out/screenshots/ for a person to look at."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .conftest import CHROMIUM

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed"),
]
PHONE_WIDTH = 360


def no_horizontal_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def check_quote_page(page) -> None:
    """What a reader sees on the harbour line's page."""
    assert page.locator("h1").inner_text() == "A quote by Odile Farrant"
    assert "museum for ships" in page.locator("figure.canonical blockquote").inner_text()
    items = page.locator("ol.mentions > li")
    assert items.count() == 4
    heads = [" ".join(h.split()) for h in items.locator("h3").all_inner_texts()]
    assert heads == [
        "2023-02-14 · Saltmere Herald identical",
        "2023-02-15 · Coastline Courier truncated",
        "2023-09-19 · Northshore Post word change",
        "2023-09-20 · Daily Tidings word change",
    ]
    assert items.nth(0).locator("del, ins").count() == 0
    assert "dredging ourselves" in items.nth(1).locator("del").inner_text()
    assert items.nth(2).locator("del").inner_text() == "ships"
    assert items.nth(2).locator("ins").inner_text() == "boats"
    evidence = page.locator("#evidence details")
    assert not evidence.locator("li").first.is_visible()  # folded until asked for
    evidence.locator("summary").click()
    assert "96% of the shorter wording aligned" in evidence.locator("li").inner_text()


@pytest.mark.parametrize("where", ["served", "report"])
def test_from_a_story_to_the_quote_followed_across_stories(
    page, tracked_server: str, tracked_report: Path, screenshots: Path, where
):
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(
        tracked_server + "/" if where == "served" else (tracked_report / "index.html").as_uri()
    )
    page.locator("#stories a", has_text="Saltmere council votes").click()
    page.wait_for_selector("#quotes")
    link = page.locator("#quotes p.tracked a")
    assert link.count() == 1 and link.inner_text() == "Also quoted in 1 other story"
    page.screenshot(path=str(screenshots / f"tracked-{where}-story.png"), full_page=True)
    link.click()
    page.wait_for_url(re.compile(r"quote-[0-9a-f]+\.html$"))
    quote_url = page.url
    check_quote_page(page)
    assert no_horizontal_scroll(page)
    page.screenshot(path=str(screenshots / f"tracked-{where}-quote.png"), full_page=True)

    page.set_viewport_size({"width": PHONE_WIDTH, "height": 800})
    assert no_horizontal_scroll(page)
    page.screenshot(path=str(screenshots / f"tracked-{where}-quote-phone.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})

    # The swapped word, in its article: the span is marked and targeted.
    page.locator("ol.mentions > li").nth(2).locator(
        "a", has_text="the quote in the article"
    ).click()
    page.wait_for_url(re.compile(r"article-[0-9a-f]+\.html#q-\d+-\d+$"))
    assert "museum for boats" in page.locator("mark:target").inner_text()
    page.screenshot(path=str(screenshots / f"tracked-{where}-article-span.png"))

    # Back on the quote page, on to the later story, which links back to the same page.
    page.goto(quote_url)
    page.locator("#stories a", has_text="Farrant enters race").click()
    page.wait_for_selector("#quotes")
    assert page.locator("h1").inner_text() == "Farrant enters race for Saltmere mayor"
    page.locator("#quotes p.tracked a").click()
    assert page.url == quote_url


def test_search_leads_to_the_quote_followed_across_stories(page, tracked_server: str):
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(tracked_server + "/")
    page.fill("#site-q", "museum")
    page.locator("form.search button").click()
    page.wait_for_url(re.compile(r"/search\?q=museum"))
    hit = page.locator(".hit-quote").first
    assert "(4 mentions in 2 stories)" in hit.inner_text()
    hit.locator("a", has_text="every wording of this quote").click()
    page.wait_for_url(re.compile(r"quote-[0-9a-f]+\.html$"))
    check_quote_page(page)


def test_the_quote_page_reads_without_javascript(browser, tracked_report: Path):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    try:
        (quote,) = tracked_report.glob("quote-*.html")
        page.goto(quote.as_uri())
        check_quote_page(page)
    finally:
        context.close()
