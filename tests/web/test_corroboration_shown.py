"""Corroboration on the story page, the API and the terminal: the factory-fire story of
examples/corpus has a wire reprint (the Lakeshore Times), a credited copy (the Valley Ledger
credits the Eastfield Star) and two outlets quoting the fire chief themselves."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import CHROMIUM
from .test_accessibility import AXE_SCRIPT, BLOCKING_IMPACTS, axe_violations, describe

QUOTE = "The fire was fed by drums of solvent"


def _fire_story_id(server: str, request) -> str:
    found = request.get(server + "/api/stories?q=Brennock&limit=5").json()["items"]
    assert found, "the factory-fire story is not in the store"
    return found[0]["id"]


def test_api_story_carries_corroboration(live_server):
    import httpx

    sid = httpx.get(live_server + "/api/stories?q=Brennock&limit=5").json()["items"][0]["id"]
    story = httpx.get(f"{live_server}/api/stories/{sid}").json()
    (quote,) = [q for q in story["quotes"] if q["text"].startswith(QUOTE)]
    c = quote["corroboration"]
    assert {"Eastfield Star", "Metro Wire"} <= set(c["independent_outlets"])
    assert [(d["on"], d["via"]) for d in c["depends_on"]] == [("Metro Wire", "wire")]
    assert len(c["outlets"]) == len(c["independent_outlets"]) + len(c["depends_on"])
    assert c["single_source"] is False


@pytest.mark.parametrize("where", ["report", "served"])
@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed")
def test_story_page_shows_independent_outlets_and_the_chain(
    page, corpus_report: Path, live_server: str, screenshots: Path, where
):
    sid = _fire_story_id(live_server, page.request)
    if where == "report":
        page.goto((corpus_report / f"story-{sid}.html").as_uri())
    else:
        page.goto(f"{live_server}/story-{sid}.html")
    quote = page.locator(".quote", has_text=QUOTE).first
    details = quote.locator("details.corroboration")
    summary = details.locator("summary")
    assert summary.inner_text().startswith("reported by ")
    assert "independently" in summary.inner_text()
    chain = details.locator("li", has_text="rests on Metro Wire")
    assert not chain.is_visible()  # folded until the reader asks
    summary.click()
    assert chain.is_visible()
    assert "wire copy" in chain.inner_text()
    assert details.locator("li", has_text="Eastfield Star: independent").is_visible()
    # the 23 night-shift workers accounted for rest on one source: the Ledger's paragraph
    # stating it credits the Eastfield Star
    fact = page.locator("#facts .fact details.corroboration", has_text="single source")
    assert fact.count() >= 1
    page.screenshot(path=str(screenshots / f"corroboration-{where}.png"), full_page=True)


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed")
@pytest.mark.skipif(not AXE_SCRIPT.exists(), reason="axe-core is not installed (npm ci)")
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_serious_with_the_chain_open(browser, live_server: str, scheme):
    context = browser.new_context(color_scheme=scheme, viewport={"width": 360, "height": 900})
    page = context.new_page()
    try:
        sid = _fire_story_id(live_server, page.request)
        page.goto(f"{live_server}/story-{sid}.html")
        for summary in page.locator("details.corroboration > summary").all():
            if summary.is_visible():
                summary.click()
        assert page.locator("details.corroboration[open]").count() >= 2
        blocking = [v for v in axe_violations(page) if v["impact"] in BLOCKING_IMPACTS]
        assert blocking == [], describe(blocking)
    finally:
        context.close()


@pytest.mark.parametrize(
    ("outlets", "independent", "deps", "expected"),
    [
        (["A"], ["A"], [], ""),  # one outlet: nothing to say
        (["A", "B"], ["A", "B"], [], "reported by 2 outlets, 2 independently"),
        (
            ["A", "B"],
            ["A"],
            [("B", "A", "wire")],
            "reported by 2 outlets, 1 independently (single source); B rests on A (wire copy)",
        ),
    ],
)
def test_terminal_line(outlets, independent, deps, expected):
    from newsloom.models import Corroboration, Dependency
    from newsloom.render.terminal import corroboration_text

    c = Corroboration(
        outlets=outlets,
        independent_outlets=independent,
        depends_on=[Dependency(outlet=o, on=on, via=via, article_id="x") for o, on, via in deps],
        sources=len(independent),
        single_source=len(independent) == 1,
    )
    assert corroboration_text(c) == expected


def test_terminal_story_view_prints_the_chain(corpus_db):
    from rich.console import Console

    from newsloom.render.terminal import print_story
    from newsloom.store import open_store

    store = open_store(str(corpus_db))
    try:
        (story,) = [s for s in store.stories() if "Brennock" in (s.title or "")]
    finally:
        store.close()
    console = Console(record=True, width=200)
    print_story(console, story)
    text = console.export_text()
    assert "rests on Metro Wire (wire copy)" in text
    assert "independently" in text
