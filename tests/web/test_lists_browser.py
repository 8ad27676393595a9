"""The lists (/stories, /quotes, /mentions, /speakers, /people, /posts, /outlets, /articles) in
real headless Chromium over the example corpus: every list shows its rows and its ``.json`` and
``.csv`` twins agree with it; every facet, clicked, leaves as many rows as it counted (the page,
the JSON and the CSV say so) and unclicked gives them all back; the variant facet leaves rows
worded so; the pager walks every row once;
sorts reorder; the words and dates form filters; and the axe audit finds nothing serious on any
list, light or dark, at desktop and phone width. Screenshots go to out/screenshots/."""

from __future__ import annotations

import csv
import io
import re

import pytest

from newsloom.store import LISTS

from .conftest import CHROMIUM
from .test_accessibility import (
    BLOCKING_IMPACTS,
    DESKTOP_WIDTH,
    PHONE_WIDTH,
    axe_violations,
    describe,
    needs_axe,
    no_horizontal_scroll,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed"),
]
NAMES = sorted(LISTS)
FACETS = [(name, facet.name) for name in NAMES for facet in LISTS[name]().facets]


def shown_total(page) -> int:
    match = re.fullmatch(r"\((\d+)\)", page.locator("h1 .count").inner_text().strip())
    assert match, page.locator("h1").inner_text()
    return int(match.group(1))


def twins_of(page) -> tuple[dict, list[list[str]]]:
    """The page's JSON twin (as linked) and its CSV twin's rows (header first)."""
    json_href = page.locator(".twins a[type='application/json']").get_attribute("href")
    csv_href = page.locator(".twins a[type='text/csv']").get_attribute("href")
    base = page.url.rsplit("/", 1)[0]
    document = page.request.get(f"{base}/{json_href}").json()
    response = page.request.get(f"{base}/{csv_href}")
    assert response.headers["content-type"].startswith("text/csv")
    assert response.text().endswith("\r\n")  # RFC 4180 line ends
    return document, list(csv.reader(io.StringIO(response.text())))


@pytest.mark.parametrize("name", NAMES)
def test_a_list_shows_its_rows_and_its_twins_agree(page, live_server, screenshots, name):
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{live_server}/{name}")
    total = shown_total(page)
    assert total >= 1
    assert page.locator("#list tbody tr").count() == min(total, 50)
    document, rows = twins_of(page)
    assert document["total"] == total
    assert len(document["items"]) == min(total, 50)
    assert rows[0] == list(document["items"][0])  # the CSV's columns are the JSON's keys
    assert len(rows) == total + 1
    page.screenshot(path=str(screenshots / f"list-{name}.png"), full_page=True)


@pytest.mark.parametrize(("name", "facet"), FACETS)
def test_a_facet_leaves_the_rows_it_counted(page, live_server, screenshots, name, facet):
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{live_server}/{name}")
    total = shown_total(page)
    link = page.locator(f"#facet-{facet} li a").first
    assert link.count() == 1, f"the corpus gives {name} no {facet} to count"
    label = link.inner_text()
    counted = int(link.locator("xpath=following-sibling::span").inner_text())
    link.click()
    page.wait_for_selector(".chosen .chip")
    assert shown_total(page) == counted
    assert page.locator(f"#facet-{facet} a[aria-current='true']").inner_text() == label
    document, rows = twins_of(page)
    assert document["total"] == counted == len(rows) - 1
    page.screenshot(path=str(screenshots / f"list-{name}-{facet}.png"))
    page.locator(f"#facet-{facet} a[aria-current='true']").click()  # unchoose it
    page.wait_for_load_state()
    assert shown_total(page) == total
    assert page.locator(".chosen .chip").count() == 0


def test_two_facets_narrow_together_and_a_chip_removes_one(page, live_server):
    page.goto(f"{live_server}/mentions")
    page.locator("#facet-kind li a").first.click()
    page.wait_for_selector(".chosen .chip")
    one = shown_total(page)
    page.locator("#facet-outlet li a").first.click()
    page.wait_for_load_state()
    assert page.locator(".chosen .chip").count() == 2
    both = shown_total(page)
    assert 0 < both <= one
    document, _ = twins_of(page)
    assert document["total"] == both
    page.locator(".chosen .chip", has_text="outlet:").click()
    page.wait_for_load_state()
    assert shown_total(page) == one


@pytest.mark.parametrize("variant", ["truncated", "paraphrased"])
def test_the_variant_facet_leaves_mentions_and_quotes_worded_so(page, live_server, variant):
    """On /mentions every row left shows the variant; on /quotes every quote left has a
    mention worded so, as its own page says."""
    page.goto(f"{live_server}/mentions")
    page.locator("#facet-variant li a", has_text=variant).click()
    page.wait_for_selector(".chosen .chip")
    counted = shown_total(page)
    assert counted >= 1
    cells = page.locator("#list td.col-variant").all_inner_texts()
    assert cells and set(cells) == {variant}
    page.goto(f"{live_server}/quotes")
    total = shown_total(page)
    page.locator("#facet-variant li a", has_text=variant).click()
    page.wait_for_selector(".chosen .chip")
    assert 1 <= shown_total(page) < total
    hrefs = [a.get_attribute("href") for a in page.locator("#list td.col-text a").all()]
    for href in hrefs[:3]:
        page.goto(f"{live_server}/{href}")
        assert variant in page.locator(".mention-head .variant").all_inner_texts()
    page.goto(f"{live_server}/quotes?variant=no-such-variant")
    assert shown_total(page) == 0


def test_the_pager_walks_every_row_once_and_back(page, live_server):
    page.goto(f"{live_server}/mentions?limit=20")
    total = shown_total(page)
    first_page = page.locator("#list tbody tr").all_inner_texts()
    seen: list[str] = []
    pages = 0
    while True:
        seen += [a.get_attribute("href") for a in page.locator("#list td.col-text a").all()]
        pages += 1
        following = page.locator(".pager a[rel='next']")
        if following.count() == 0:
            break
        following.click()
        page.wait_for_load_state()
    assert pages == -(-total // 20) and pages > 2
    assert len(seen) == len(set(seen)) == total
    while page.locator(".pager a[rel='prev']").count():
        page.locator(".pager a[rel='prev']").click()
        page.wait_for_load_state()
    assert page.locator("#list tbody tr").all_inner_texts() == first_page


def test_a_sort_link_orders_the_rows_and_flips(page, live_server):
    page.goto(f"{live_server}/stories")
    page.locator(".sorts a", has_text="date").click()
    page.wait_for_url(re.compile(r"sort=date"))
    dates = page.locator("#list td.col-first_date").all_inner_texts()
    assert dates == sorted(dates, reverse=True) and len(set(dates)) > 1
    page.locator(".sorts a", has_text="date").click()
    page.wait_for_url(re.compile(r"sort=%2Bdate"))
    assert page.locator("#list td.col-first_date").all_inner_texts() == sorted(dates)


def test_words_and_dates_filter_a_list(page, live_server):
    page.goto(f"{live_server}/articles")
    total = shown_total(page)
    page.fill("#list-q", "bridge")
    page.fill("#list-since", "2022-01-01")
    page.locator(".list-filter button").click()
    page.wait_for_url(re.compile(r"q=bridge"))
    found = shown_total(page)
    assert 0 < found < total
    document, _ = twins_of(page)
    assert document["total"] == found
    dates = page.locator("#list td.col-published").all_inner_texts()
    assert all(d >= "2022-01-01" for d in dates)
    page.fill("#list-q", "nosuchwordanywhere")
    page.locator(".list-filter button").click()
    page.wait_for_url(re.compile(r"q=nosuchwordanywhere"))
    assert shown_total(page) == 0
    assert "Nothing matches" in page.locator("main").inner_text()


@needs_axe
@pytest.mark.parametrize("width", [DESKTOP_WIDTH, PHONE_WIDTH])
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("name", NAMES)
def test_axe_finds_nothing_serious_on_a_list(
    browser, live_server, screenshots, name, scheme, width
):
    context = browser.new_context(color_scheme=scheme, viewport={"width": width, "height": 900})
    page = context.new_page()
    try:
        page.goto(f"{live_server}/{name}")
        page.locator(".facets li a").first.click()  # a chosen facet value and its chip too
        page.wait_for_selector(".chosen .chip")
        assert no_horizontal_scroll(page)
        violations = axe_violations(page)
        blocking = [v for v in violations if v["impact"] in BLOCKING_IMPACTS]
        print(describe(violations))
        assert blocking == [], describe(blocking)
        page.screenshot(path=str(screenshots / f"a11y-list-{name}-{scheme}-{width}.png"))
    finally:
        context.close()
