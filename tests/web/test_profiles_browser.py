"""Real headless Chromium on the speaker, outlet and person pages and the coverage charts of
the example corpus, served and from file:// (scripts off there: nothing on them needs one).
Screenshots go to out/screenshots/ for a person to look at."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import CHROMIUM

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed"),
]
STORY = "Golden Crust boss Marla Quennell"
PHONE_WIDTH = 360


def start(page, where: str, server: str, report: Path) -> None:
    page.goto(server + "/" if where == "served" else (report / "index.html").as_uri())
    page.locator("#stories a", has_text=STORY).click()
    page.wait_for_selector("#quotes")


def no_horizontal_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


@pytest.fixture(params=["served", "report"])
def where(request) -> str:
    return request.param


@pytest.fixture
def reader(browser, where):
    """A page; from file:// with JavaScript off (the pages and charts need none)."""
    context = browser.new_context(
        viewport={"width": 1280, "height": 900}, java_script_enabled=where == "served"
    )
    yield context.new_page()
    context.close()


def test_from_a_story_to_what_its_speaker_said(
    reader, where, live_server, corpus_report, screenshots
):
    start(reader, where, live_server, corpus_report)
    reader.locator("#quotes h3 a", has_text="Marla Quennell").click()
    assert reader.locator("h1").inner_text() == "What Marla Quennell said"
    quotes = reader.locator("ol.profile-quotes > li")
    assert quotes.count() >= 5
    first = quotes.first
    assert "disgrace to this kitchen" in first.locator("blockquote").inner_text()
    assert "5 mentions" in first.locator(".meta").inner_text()
    assert first.locator(".meta a").count() == 5  # each outlet carrying it, linked
    reader.screenshot(path=str(screenshots / f"profile-speaker-{where}.png"), full_page=True)
    if where == "report":  # quoted in one story: the report has no page for it
        assert first.locator("blockquote a").count() == 0
        first.locator(".from a").click()
        assert STORY in reader.locator("h1").inner_text()
        return
    first.locator("blockquote a").click()  # to the quote followed across outlets
    assert "Marla Quennell" in reader.locator("h1").inner_text()
    assert reader.locator("ol.mentions > li").count() == 5


def test_an_outlets_share_of_each_story_and_its_hedging(
    reader, where, live_server, corpus_report, screenshots
):
    start(reader, where, live_server, corpus_report)
    reader.locator('#outlets th a[href^="outlet-"]', has_text="Metro Wire").click()
    assert reader.locator("h1").inner_text() == "Metro Wire"
    rows = reader.locator("table.outlet-stories tbody tr")
    assert rows.count() == 6
    golden = rows.filter(has_text=STORY)
    assert "1 of 5" in golden.locator("td").nth(1).inner_text()
    assert golden.locator("td").nth(4).inner_text() == "Starlight Weekly"  # credited
    chart = reader.locator("#hedging-chart-t")
    assert chart.count() == 1 and "Hedges per 100" in chart.text_content()
    assert reader.locator("section[aria-labelledby=articles-h] li").count() == 6
    reader.screenshot(path=str(screenshots / f"profile-outlet-{where}.png"), full_page=True)
    golden.locator("th a").click()
    assert STORY in reader.locator("h1").inner_text()


def test_a_person_with_the_ages_that_disagree(
    reader, where, live_server, corpus_report, screenshots
):
    start(reader, where, live_server, corpus_report)
    reader.locator("#people a", has_text="Marla Quennell").click()
    assert reader.locator("h1").inner_text() == "Marla Quennell"
    ages = reader.locator("section[aria-labelledby=states-h] tbody td:nth-child(3)")
    assert {"52", "53"} <= set(ages.all_inner_texts())
    conflict = reader.locator(".conflict-item")
    assert conflict.count() == 1
    assert "different ages: 52, 53" in conflict.inner_text()
    statements = conflict.locator("li")
    assert statements.count() == 4 and statements.locator("a").count() == 4
    reader.screenshot(path=str(screenshots / f"profile-person-{where}.png"), full_page=True)
    reader.locator("a", has_text="What Marla Quennell said").click()
    assert reader.locator("h1").inner_text() == "What Marla Quennell said"


def test_coverage_charts_with_their_tables(reader, where, live_server, corpus_report, screenshots):
    start(reader, where, live_server, corpus_report)
    chart = reader.locator("#coverage figure.multiples")
    assert chart.locator("svg[role=img] title").first.text_content() == (
        "Articles per outlet per day"
    )
    assert chart.locator("svg > g").count() == 5  # one row per outlet
    assert chart.locator("rect.bar").count() == 5
    chart.locator("summary").click()
    assert chart.locator("tbody tr").count() == 5
    chart.screenshot(path=str(screenshots / f"chart-outlets-{where}.png"))
    reader.locator("nav.crumbs a").click()
    days = reader.locator("figure.chart").first
    assert days.locator("svg title").first.text_content() == "Stories by the day they began"
    assert days.locator("rect.bar").count() >= 7
    days.locator("summary").click()
    assert days.locator("tbody tr").count() == 7  # seven stories, each its own month
    days.screenshot(path=str(screenshots / f"chart-days-{where}.png"))


@pytest.mark.parametrize("kind", ["speaker", "outlet", "person"])
def test_profile_pages_fit_a_phone(browser, live_server, screenshots, kind):
    context = browser.new_context(viewport={"width": PHONE_WIDTH, "height": 800})
    page = context.new_page()
    key = {"speaker": "marla-quennell", "outlet": "metro-wire", "person": "marla-quennell"}[kind]
    page.goto(f"{live_server}/{kind}-{key}.html")
    assert no_horizontal_scroll(page)
    page.screenshot(path=str(screenshots / f"profile-{kind}-phone.png"), full_page=True)
    context.close()


def test_search_finds_speakers_outlets_and_people(page, live_server):
    page.goto(live_server + "/search?q=quennell")
    found = page.locator("section.profiles li")
    assert sorted(found.all_inner_texts()) == [
        "Marla Quennell (person)",
        "Marla Quennell (speaker)",
    ]
    page.goto(live_server + "/search?q=metro+wire")
    page.locator("section.profiles a", has_text="Metro Wire").click()
    assert page.locator("h1").inner_text() == "Metro Wire"


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("/speaker-marla-quennell.html", 200),
        ("/speaker-no-such-name.html", 404),
        ("/outlet-..%2Fetc.html", 404),
        ("/api/speakers/marla-quennell", 200),
        ("/api/outlets/metro-wire", 200),
        ("/api/people/marla-quennell", 200),
        ("/api/people/Marla%20Quennell", 404),  # a name is not a key
    ],
)
def test_profile_routes_answer(page, live_server, path, status):
    assert page.request.get(live_server + path).status == status
