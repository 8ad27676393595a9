"""The static report's lists (``render/static_lists.py``): every list of the served app written
as ``NAME.html`` (and ``NAME-2.html`` ... beyond a file's rows) with ``NAME.csv`` and
``NAME.json`` beside it. The CSV and JSON hold every row the store lists, in its order, with
the served twins' columns; the counts shown are the store's; every link lands on a file the
report wrote (rows whose page was not written are text); the pages chain from first to last on
SQLite and PostgreSQL and a shorter list removes the pages it no longer has; and in real
Chromium from ``file://`` with JavaScript off, the navigation reaches each list and a row its
page, and the axe audit finds nothing serious."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import lxml.html
import pytest

from newsloom.render.html import Pages, Site, copy_static
from newsloom.render.lists import VIEWS, facets_document, row_cells
from newsloom.render.static_lists import STATIC_LISTS, list_file, write_static_lists
from newsloom.render.tables import csv_cell
from newsloom.store import LISTS, ListQuery, open_store

from .conftest import CHROMIUM
from .test_accessibility import BLOCKING_IMPACTS, axe_violations, describe, needs_axe
from .test_tracked_quotes import broken_links

# Lists whose rows link to a page of the report (posts have no page), with the page prefix.
LINKED = {
    "stories": "story-",
    "quotes": "quote-",
    "speakers": "speaker-",
    "people": "person-",
    "outlets": "outlet-",
    "articles": "article-",
}


def _doc(path: Path) -> lxml.html.HtmlElement:
    return lxml.html.fromstring(path.read_text(encoding="utf-8"))


def _csv(path: Path) -> list[list[str]]:
    return list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"), newline="")))


def _pages(folder: Path, name: str) -> list[Path]:
    """A list's page files, walked through the pager's next links from the first."""
    walked = [folder / list_file(name, 1)]
    while True:
        following = _doc(walked[-1]).xpath('//nav[@class="pager"]/a[@rel="next"]/@href')
        if not following:
            return walked
        walked.append(folder / following[0])


@pytest.fixture(scope="module")
def corpus_store(corpus_db):
    store = open_store(str(corpus_db))
    yield store
    store.close()


@pytest.mark.parametrize("name", STATIC_LISTS)
def test_each_list_has_its_csv_and_json_with_every_row(corpus_report, corpus_store, name):
    expected = corpus_store.list_page(name, ListQuery(limit=1))
    streamed = list(corpus_store.list_rows(name, ListQuery()))
    assert expected.total == len(streamed) >= 1
    rows = _csv(corpus_report / f"{name}.csv")
    columns = list(LISTS[name]().columns)
    assert rows[0] == columns  # the served CSV's header
    assert rows[1:] == [[csv_cell(r[c]) for c in columns] for r in streamed]
    document = json.loads((corpus_report / f"{name}.json").read_text(encoding="utf-8"))
    assert document["total"] == expected.total and document["sort"] == expected.sort
    assert document["items"] == json.loads(json.dumps(streamed))
    assert document["facets"] == facets_document(expected.facets)
    assert (document["next"], document["prev"]) == (None, None)


@pytest.mark.parametrize("name", STATIC_LISTS)
def test_each_list_page_shows_the_rows_and_the_store_counts(corpus_report, corpus_store, name):
    expected = corpus_store.list_page(name, ListQuery(limit=1))
    doc = _doc(corpus_report / f"{name}.html")
    assert doc.xpath("string(//h1/span[@class='count'])") == f"({expected.total})"
    assert len(doc.xpath("//table[@id='list']/tbody/tr")) == expected.total  # one file here
    shown = {
        section.get("id").removeprefix("facet-"): [
            (li.xpath("string(span[1])"), int(li.xpath("string(span[@class='count'])")))
            for li in section.xpath("ul/li")
        ]
        for section in doc.xpath("//aside[@class='facets']/section")
    }
    counted = {f.name: [(v.label, v.count) for v in f.values] for f in expected.facets if f.values}
    assert shown == counted
    assert not doc.xpath("//aside[@class='facets']//a")  # read-only: nothing to filter
    assert not doc.xpath("//form")
    links = doc.xpath("//table[@id='list']//a/@href")
    if name in LINKED:
        assert links and all(h.startswith(LINKED[name]) for h in links), name
    else:
        assert links == []


def test_the_variant_facet_is_summed_up_on_the_quotes_list(corpus_report, corpus_store):
    doc = _doc(corpus_report / "quotes.html")
    labels = doc.xpath("//section[@id='facet-variant']//li/span[1]/text()")
    assert {"identical", "truncated"} <= set(labels)


def test_every_link_of_the_report_lands_on_a_file_it_wrote(corpus_report):
    assert broken_links(corpus_report) == []
    index = _doc(corpus_report / "index.html")
    nav = index.xpath("//span[@class='lists-nav']/a/@href")
    assert nav == [f"{name}.html" for name in STATIC_LISTS]


def test_a_row_without_a_page_in_the_report_is_text(corpus_report):
    """Quotes of one story have no page of their own (the story page shows them)."""
    doc = _doc(corpus_report / "quotes.html")
    cells = doc.xpath("//table[@id='list']//td[@class='col-text']")
    linked = [c for c in cells if c.xpath("a")]
    pages = {p.name for p in corpus_report.glob("quote-*.html")}
    assert {c.xpath("a/@href")[0] for c in linked} == pages
    assert len(cells) > len(linked) >= 1


@pytest.mark.parametrize("per_file", [2, 3])  # an exact multiple and a short last file
def test_a_long_list_is_cut_into_pages_that_chain(archive, tmp_path, per_file):
    out = tmp_path / "report"
    copy_static(out)
    (out / "index.html").write_text("<p>the front page</p>", encoding="utf-8")  # the brand's
    written = write_static_lists(archive, out, Pages(Site(lists=True)), rows_per_file=per_file)
    for name in STATIC_LISTS:
        total = archive.list_page(name, ListQuery(limit=1)).total
        assert written[name] == total
        files = _pages(out, name)
        assert len(files) == -(-total // per_file) == len(list(out.glob(f"{name}*.html")))
        assert len(files) >= 2, "the invented archive must need several files per list"
        shown = [tr.xpath("string(td[1])") for f in files for tr in _doc(f).xpath("//tbody/tr")]
        # The rows of the store's stream, in its order, each once; the CSV holds them too.
        streamed = list(archive.list_rows(name, ListQuery()))
        assert shown == [str(row_cells(r, VIEWS[name])[0]["value"]) for r in streamed]
        assert len(_csv(out / f"{name}.csv")) - 1 == total
        last = _doc(files[-1])
        assert f"Page {len(files)} of {len(files)}" in last.xpath("string(//nav[@class='pager'])")
        assert not last.xpath('//nav[@class="pager"]/a[@rel="next"]')
        back = last.xpath('//nav[@class="pager"]/a[@rel="prev"]/@href')
        assert back == [list_file(name, len(files) - 1)]
        # No story, quote, article or profile page was written: no row links to one.
        assert not any(_doc(f).xpath("//table[@id='list']//a") for f in files)
    assert broken_links(out) == []


def test_a_shorter_list_removes_the_pages_it_no_longer_has(archive, tmp_path):
    out = tmp_path / "report"
    copy_static(out)
    pages = Pages(Site(lists=True))
    write_static_lists(archive, out, pages, rows_per_file=2)
    assert (out / "speakers-2.html").exists() and (out / "articles-30.html").exists()
    (out / "unrelated-2.html").write_text("kept", encoding="utf-8")
    write_static_lists(archive, out, pages, rows_per_file=50)
    assert (out / "articles-2.html").exists() and not (out / "articles-3.html").exists()
    assert not (out / "speakers-2.html").exists()
    assert (out / "unrelated-2.html").read_text(encoding="utf-8") == "kept"
    assert not list(out.glob(".*.tmp"))


# -- in the browser, from file://, without JavaScript ------------------------------------------


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed")
@pytest.mark.parametrize("name", ["speakers", "outlets", "people", "articles", "quotes"])
def test_the_lists_work_from_file_without_javascript(
    browser, corpus_report, corpus_store, screenshots, name
):
    context = browser.new_context(
        java_script_enabled=False, viewport={"width": 1280, "height": 900}
    )
    page = context.new_page()
    try:
        page.goto((corpus_report / "index.html").as_uri())
        page.locator(".lists-nav a", has_text=LISTS[name]().title).click()
        page.wait_for_url(f"**/{name}.html")
        total = corpus_store.list_page(name, ListQuery(limit=1)).total
        assert page.locator("h1 .count").inner_text() == f"({total})"
        assert page.locator("#list tbody tr").count() == total
        page.screenshot(path=str(screenshots / f"static-list-{name}.png"), full_page=True)
        row = page.locator("#list tbody td a").first
        target = row.get_attribute("href")
        row.click()
        page.wait_for_url(f"**/{target}")
        assert page.locator("h1").count() == 1
    finally:
        context.close()


@needs_axe
@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed")
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [1280, 360])
def test_axe_finds_nothing_serious_on_a_static_list(browser, corpus_report, scheme, width):
    context = browser.new_context(color_scheme=scheme, viewport={"width": width, "height": 900})
    page = context.new_page()
    try:
        for name in ("speakers", "quotes"):
            page.goto((corpus_report / f"{name}.html").as_uri())
            violations = axe_violations(page)
            blocking = [v for v in violations if v["impact"] in BLOCKING_IMPACTS]
            assert blocking == [], describe(blocking)
    finally:
        context.close()
