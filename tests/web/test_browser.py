"""Real headless Chromium (Debian's /usr/bin/chromium via Playwright): the static report from
file:// and the served app, used as a reader would — find a story, open it, follow a quote to
its highlighted span, search — plus untrusted markup staying inert. Screenshots go to
out/screenshots/ for a person to look at."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .conftest import CHROMIUM, LONG_WORD

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed"),
]
TARGET_BACKGROUND = "rgb(255, 207, 51)"  # --target in style.css


def follow_first_quote(page) -> None:
    """Click the first quote citation on a story page; the article opens at the span, marked."""
    link = page.locator("#quotes .wording .cite").first
    href = link.get_attribute("href")
    match = re.fullmatch(r"article-([0-9a-f]+)\.html#(q-\d+-\d+)", href)
    assert match, href
    quote = link.locator("xpath=ancestor::figure").locator("blockquote").inner_text()
    link.click()
    page.wait_for_url(re.compile(re.escape(href) + "$"))
    target = page.locator(f"mark#{match.group(2)}")
    assert target.evaluate("el => el.matches(':target')")
    assert target.evaluate("el => getComputedStyle(el).backgroundColor") == TARGET_BACKGROUND
    shown = target.inner_text()
    words = re.findall(r"\w+", quote)
    assert words and all(w in shown for w in words[:3]), (
        quote,
        shown,
    )  # diffs mark, never add words


def no_horizontal_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_static_report_from_file(page, corpus_report: Path, screenshots: Path):
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto((corpus_report / "index.html").as_uri())
    stories = page.locator("#stories > li")
    total = stories.count()
    assert total >= 5
    page.fill("#filter-stories", "bridge")  # the light JS: filtering
    assert 1 <= page.locator("#stories > li:visible").count() < total
    page.screenshot(path=str(screenshots / "report-index.png"))
    page.locator("#stories > li:visible a").first.click()
    assert "bridge" in page.locator("h1").inner_text().lower()
    assert page.locator("#coverage svg rect.bar").count() >= 1
    assert page.locator("#quotes .speaker").count() >= 2
    page.screenshot(path=str(screenshots / "report-story.png"))
    page.screenshot(path=str(screenshots / "report-story-full.png"), full_page=True)
    page.fill("#filter-speakers", "Whitcombe")
    assert page.locator("#speakers > .speaker:visible").count() >= 1
    assert (
        page.locator("#speakers > .speaker:visible").count()
        < page.locator("#speakers > .speaker").count()
    )
    page.fill("#filter-speakers", "")
    follow_first_quote(page)
    page.screenshot(path=str(screenshots / "report-article-span.png"))


def test_phone_width(page, corpus_report: Path, screenshots: Path):
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto((corpus_report / "index.html").as_uri())
    assert no_horizontal_scroll(page)
    page.screenshot(path=str(screenshots / "phone-index.png"))
    page.locator("#stories a").first.click()
    assert no_horizontal_scroll(page)
    page.screenshot(path=str(screenshots / "phone-story.png"))
    page.locator("#quotes").scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / "phone-quotes.png"))
    follow_first_quote(page)
    assert no_horizontal_scroll(page)
    page.screenshot(path=str(screenshots / "phone-article.png"))


def test_readable_without_javascript(browser, corpus_report: Path):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto((corpus_report / "index.html").as_uri())
    assert page.locator(
        "[data-filter-box]"
    ).first.is_hidden()  # the filter needs JS; nothing else does
    page.locator("#stories a").first.click()
    page.locator("#quotes blockquote").nth(2).wait_for()  # click() does not wait for the load
    assert page.locator("#quotes blockquote").count() >= 3
    assert page.locator("#people table tbody tr").count() >= 1
    context.close()


def test_served_app_search_and_story(page, live_server: str, screenshots: Path):
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(live_server + "/")
    page.fill("#site-q", "thunder")
    page.locator("form.search button").click()
    page.wait_for_url(re.compile(r"/search\?q=thunder"))
    assert "result" in page.locator("#result-count").inner_text()
    assert page.locator(".hit mark").first.inner_text().lower() == "thunder"
    page.screenshot(path=str(screenshots / "served-search.png"))
    page.locator(".hit-quote .snippet a").first.click()
    target = page.locator("mark:target")
    assert "thunder" in target.inner_text().lower()
    page.locator(".crumbs a").nth(1).click()  # back up to the story
    page.wait_for_url(re.compile(r"/story-"))
    page.locator("#quotes").wait_for()
    assert page.locator("#quotes").count() == 1
    page.screenshot(path=str(screenshots / "served-story.png"))
    follow_first_quote(page)


@pytest.mark.parametrize("where", ["report", "served"])
def test_untrusted_markup_is_inert_and_intact(
    page, evil_report: Path, evil_server: str, screenshots: Path, where
):
    page.set_viewport_size({"width": 390, "height": 844})
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto((evil_report / "index.html").as_uri() if where == "report" else evil_server + "/")
    assert '<script>window.__pwned = "title"</script>' in page.locator("#stories").inner_text()
    page.locator("#stories a").first.click()
    page.screenshot(path=str(screenshots / f"evil-{where}-story.png"), full_page=True)
    page.locator("#coverage table a").first.click()
    text = page.locator(".article-text").inner_text()
    for literal in [
        '<script>window.__pwned = "script"</script>',
        "onerror=\"window.__pwned = 'img'\"",
        '<a href="javascript:window.__pwned=2">here</a>',
        LONG_WORD,
    ]:
        assert literal in text
    for a in page.locator("a").all():  # no javascript: link, whatever the article said
        assert not (a.get_attribute("href") or "").lower().startswith("javascript")
    page.locator(".article-text").hover()
    assert no_horizontal_scroll(page)  # the long word wraps
    page.screenshot(path=str(screenshots / f"evil-{where}-article.png"))
    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert page.locator(".article-text script, .article-text img, .article-text svg").count() == 0
    assert dialogs == []


def test_served_search_pages_forward_and_back(page, live_server: str, screenshots: Path):
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(live_server + "/search?q=bridge&limit=3")
    count = page.locator("#result-count").inner_text()
    total = int(re.match(r"(\d+) results", count).group(1))
    assert total > 6 and "showing 1–3" in count
    first = page.locator(".hit .snippet").all_inner_texts()
    assert len(first) == 3 and page.locator(".pager a[rel=prev]").count() == 0
    page.locator(".pager a[rel=next]").click()
    page.wait_for_url(re.compile(r"offset=3"))
    assert "showing 4–6" in page.locator("#result-count").inner_text()
    second = page.locator(".hit .snippet").all_inner_texts()
    assert len(second) == 3 and second != first
    page.screenshot(path=str(screenshots / "served-search-page-2.png"))
    page.locator(".pager a[rel=prev]").click()
    page.wait_for_url(re.compile(r"offset=0"))
    assert page.locator(".hit .snippet").all_inner_texts() == first


def test_served_docs_list_every_endpoint(page, live_server: str, screenshots: Path):
    blocked: list[str] = []
    page.on("console", lambda m: blocked.append(m.text) if m.type == "error" else None)
    page.on("request", lambda r: None if r.url.startswith(live_server) else blocked.append(r.url))
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(live_server + "/docs")
    operations = sum(
        len(item)
        for item in page.request.get(live_server + "/openapi.json").json()["paths"].values()
    )
    links = page.locator("#endpoint-index a")
    assert links.count() == operations >= 10
    link = page.locator("#endpoint-index a", has_text="GET /api/search")
    link.click()
    section = page.locator("section.endpoint:target")
    assert "offset" in section.locator("table").inner_text()
    assert no_horizontal_scroll(page)
    page.screenshot(path=str(screenshots / "served-docs.png"))
    assert blocked == []  # nothing fetched from elsewhere, no CSP violation


def test_served_missing_page_is_an_html_404(page, live_server: str, screenshots: Path):
    response = page.goto(live_server + "/no-such-page.html")
    assert response is not None and response.status == 404
    assert page.locator("h1").inner_text() == "Not found"
    page.screenshot(path=str(screenshots / "served-404.png"))
    page.locator("main a", has_text="Back to the stories").click()
    page.locator("#stories > li").nth(4).wait_for()  # click() does not wait for the load
    assert page.locator("#stories > li").count() >= 5


def test_an_old_story_url_lands_on_the_story_page_now(page, merged, merged_server, tmp_path):
    """Served: the 301 takes the reader there. Static report: the stub page sends them on."""
    from newsloom.render.html import write_report
    from newsloom.store import open_store

    db, old, new = merged
    page.goto(f"{merged_server}/story-{old}.html")
    page.wait_for_url(re.compile(rf"/story-{new}\.html$"))
    assert page.locator("h1").count() == 1 and "moved" not in page.locator("h1").inner_text()
    store = open_store(str(db))
    try:
        write_report(store, tmp_path)
    finally:
        store.close()
    page.goto((tmp_path / f"story-{old}.html").as_uri())
    page.wait_for_url(re.compile(rf"/story-{new}\.html$"))
    assert page.locator("#quotes, h1").count() >= 1
