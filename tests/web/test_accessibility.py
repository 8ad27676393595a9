"""Accessibility in real headless Chromium: an axe-core audit of every page kind (static report
and served app, light and dark), the keyboard path (skip link, visible focus), the dark colour
scheme, and every page kind usable at 360 px.

axe-core comes from npm (tests/web/axe, installed by `make test` with `npm ci`). Its script is
run with ``page.evaluate`` (the DevTools protocol, which the pages' strict Content-Security-
Policy does not govern), so the audit sees the pages exactly as served: CSP on, no bypass."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .conftest import CHROMIUM

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed"),
]
AXE_SCRIPT = Path(__file__).parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
needs_axe = pytest.mark.skipif(
    not AXE_SCRIPT.exists(),
    reason=f"axe-core is not installed ({AXE_SCRIPT} is missing): run `npm ci` in tests/web/axe "
    "(`make test` does when npm is on the PATH)",
)
# The impacts that fail the audit; "minor" and "moderate" findings are printed, not failed.
BLOCKING_IMPACTS = {"serious", "critical"}
# The narrowest phone width in common use (many Android phones report 360 CSS px).
PHONE_WIDTH = 360
DESKTOP_WIDTH = 1280
# Speaker, outlet and person pages are reached from a story page's first link to one.
PROFILE_KINDS = ["speaker", "outlet", "person"]
PAGE_KINDS = ["index", "story", "article", "quote", "search", "docs", "404", *PROFILE_KINDS]
# The dark scheme's page colour is at most this luminance (near black, as dark modes go).
DARK_PAPER = 0.05
# The report has no search, docs or 404 page, and writes quote pages only for quotes that
# other stories quote too (the corpus has none: see the tracked quote audit below).
STATIC_KINDS = ["index", "story", "article", *PROFILE_KINDS]


def _open_story(page) -> None:
    page.locator("#stories > li a").first.click()
    page.wait_for_selector("#quotes")


def _open_article(page) -> None:
    _open_story(page)
    page.locator("#coverage table a").first.click()
    page.wait_for_selector(".article-text")


def open_kind(page, kind: str, where: str, report: Path, server: str) -> None:
    """Go to one page of the given kind, as a reader would reach it."""
    base = (report / "index.html").as_uri() if where == "report" else server + "/"
    direct = {
        "search": "/search?q=bridge&limit=5",
        "docs": "/docs",
        "404": "/no-such-page.html",
    }
    if kind in direct:
        page.goto(server + direct[kind])
        return
    if kind == "quote":  # the most mentioned quote of the store
        top = page.request.get(server + "/api/tracked-quotes?limit=1").json()["items"][0]
        page.goto(f"{server}/quote-{top['id']}.html")
        return
    page.goto(base)
    if kind == "story":
        _open_story(page)
    elif kind == "article":
        _open_article(page)
    elif kind in PROFILE_KINDS:
        _open_story(page)
        page.locator(f'main a[href^="{kind}-"]').first.click()
        page.wait_for_selector(f"nav.crumbs >> text={kind}")


def kinds() -> list[tuple[str, str]]:
    served = [("served", kind) for kind in PAGE_KINDS]
    return [("report", kind) for kind in STATIC_KINDS] + served


def axe_violations(page) -> list[dict]:
    """Run axe-core on the open page; its violations (WCAG 2 A/AA and best practice)."""
    if page.evaluate("typeof window.axe") == "undefined":
        page.evaluate(AXE_SCRIPT.read_text(encoding="utf-8"))
    result = page.evaluate(
        "() => axe.run(document, {resultTypes: ['violations'],"
        " runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa', 'best-practice']}})"
    )
    return result["violations"]


def describe(violations: list[dict]) -> str:
    lines = []
    for v in violations:
        targets = [" ".join(map(str, node["target"])) for node in v["nodes"][:3]]
        lines.append(f"{v['impact']}: {v['id']} ({v['help']}) at {targets}")
    return "\n".join(lines)


def no_horizontal_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


@needs_axe
@pytest.mark.parametrize("width", [DESKTOP_WIDTH, PHONE_WIDTH])
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize(("where", "kind"), kinds())
def test_axe_finds_nothing_serious(
    browser, corpus_report: Path, live_server: str, screenshots: Path, where, kind, scheme, width
):
    context = browser.new_context(color_scheme=scheme, viewport={"width": width, "height": 900})
    page = context.new_page()
    try:
        open_kind(page, kind, where, corpus_report, live_server)
        violations = axe_violations(page)
        blocking = [v for v in violations if v["impact"] in BLOCKING_IMPACTS]
        print(describe(violations))
        assert blocking == [], describe(blocking)
        page.screenshot(path=str(screenshots / f"a11y-{where}-{kind}-{scheme}-{width}.png"))
    finally:
        context.close()


@needs_axe
@pytest.mark.parametrize("width", [DESKTOP_WIDTH, PHONE_WIDTH])
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("where", ["report", "served"])
def test_axe_finds_nothing_serious_where_speakers_are_in_doubt(
    browser, doubt_report: Path, doubt_server: str, screenshots: Path, where, scheme, width
):
    """The marks of a doubtful and an unresolved speaker (the muted words too) pass the audit,
    on the story page and on the article page that lists both."""
    context = browser.new_context(color_scheme=scheme, viewport={"width": width, "height": 900})
    page = context.new_page()
    try:
        page.goto((doubt_report / "index.html").as_uri() if where == "report" else doubt_server)
        _open_story(page)
        article = page.locator("#coverage table a").first.get_attribute("href")
        for kind in ("story", "article"):
            if kind == "article":
                page.locator(f'#coverage table a[href="{article}"]').click()
                page.wait_for_selector(".article-text")
            assert page.locator(".speaker-unclear").count() >= 1
            assert no_horizontal_scroll(page)
            violations = axe_violations(page)
            blocking = [v for v in violations if v["impact"] in BLOCKING_IMPACTS]
            print(describe(violations))
            assert blocking == [], describe(blocking)
            page.screenshot(
                path=str(screenshots / f"a11y-doubt-{where}-{kind}-{scheme}-{width}.png")
            )
        page.go_back()
        page.wait_for_selector("#quotes")
        assert page.locator("#quotes .speaker-doubtful").count() == 1
        if where == "served":  # a quote hit names its unresolved speaker the same way
            page.goto(doubt_server + "/search?q=budget")
            assert page.locator(".hit-quote .speaker-unclear").count() == 1
            blocking = [v for v in axe_violations(page) if v["impact"] in BLOCKING_IMPACTS]
            assert blocking == [], describe(blocking)
    finally:
        context.close()


@needs_axe
@pytest.mark.parametrize("width", [DESKTOP_WIDTH, PHONE_WIDTH])
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("where", ["report", "served"])
def test_axe_finds_nothing_serious_on_a_quote_followed_across_stories(
    browser, tracked_report: Path, tracked_server: str, screenshots: Path, where, scheme, width
):
    """The story page linking a quote other stories quote too, and that quote's page (its
    marks, variant badges, side-by-side wordings and the evidence, unfolded)."""
    context = browser.new_context(color_scheme=scheme, viewport={"width": width, "height": 900})
    page = context.new_page()
    try:
        page.goto((tracked_report / "index.html").as_uri() if where == "report" else tracked_server)
        _open_story(page)
        for kind in ("story", "quote"):
            if kind == "quote":
                page.locator("#quotes p.tracked a").first.click()
                page.wait_for_selector("ol.mentions")
                page.locator("#evidence summary").click()
            assert no_horizontal_scroll(page)
            violations = axe_violations(page)
            blocking = [v for v in violations if v["impact"] in BLOCKING_IMPACTS]
            print(describe(violations))
            assert blocking == [], describe(blocking)
            page.screenshot(
                path=str(screenshots / f"a11y-tracked-{where}-{kind}-{scheme}-{width}.png")
            )
    finally:
        context.close()


@needs_axe
def test_the_audit_catches_a_serious_violation(page, corpus_report: Path):
    """The audit is not vacuous: pale text and an image without a text alternative fail it."""
    page.goto((corpus_report / "index.html").as_uri())
    page.evaluate(
        """() => {
        const p = document.createElement('p');
        p.textContent = 'pale words'; p.style.color = '#eee';
        const img = document.createElement('img'); img.src = 'data:,';
        document.querySelector('main').append(p, img);
    }"""
    )
    found = {v["id"] for v in axe_violations(page) if v["impact"] in BLOCKING_IMPACTS}
    assert {"color-contrast", "image-alt"} <= found, found


@pytest.mark.parametrize(("where", "kind"), kinds())
def test_usable_at_phone_width(page, corpus_report: Path, live_server: str, where, kind):
    page.set_viewport_size({"width": PHONE_WIDTH, "height": 740})
    open_kind(page, kind, where, corpus_report, live_server)
    assert no_horizontal_scroll(page), page.evaluate(
        "`${location.href} is ${document.documentElement.scrollWidth} px wide`"
    )


@pytest.mark.parametrize("where", ["report", "served"])
def test_skip_link_is_the_first_stop_and_jumps_to_the_content(
    page, corpus_report: Path, live_server: str, where
):
    open_kind(page, "story", where, corpus_report, live_server)
    page.keyboard.press("Tab")
    skip = page.locator("a.skip")
    assert skip.evaluate("el => el === document.activeElement")
    box = skip.bounding_box()
    assert box is not None and box["x"] >= 0 and box["y"] >= 0  # on screen when focused
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"#main$"))
    page.keyboard.press("Tab")  # the next stop is inside the content, not the header
    assert page.evaluate("document.activeElement.closest('main') !== null")


# WCAG 1.4.11: a focus indicator needs 3:1 against the colours next to it.
FOCUS_CONTRAST = 3.0
# The focused element's outline colour and the colour painted just outside its ring (what the
# reader sees it against: elementsFromPoint, so a skip link over the header bar counts the bar).
FOCUS_RING_JS = """() => {
  const el = document.activeElement, style = getComputedStyle(el);
  if (style.outlineStyle === 'none' || parseFloat(style.outlineWidth) < 2) return null;
  const box = el.getBoundingClientRect();
  const x = Math.max(0, box.left - parseFloat(style.outlineOffset) - 1);
  let behind = getComputedStyle(document.body).backgroundColor;
  for (const under of document.elementsFromPoint(x, box.top + box.height / 2)) {
    const colour = getComputedStyle(under).backgroundColor;
    if (under !== el && colour !== 'rgba(0, 0, 0, 0)') { behind = colour; break; }
  }
  return {tag: el.tagName, ring: style.outlineColor, behind: behind};
}"""


def relative_luminance(rgb: str) -> float:
    """WCAG 2 relative luminance of a computed ``rgb(r, g, b)`` colour."""

    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    red, green, blue = (int(x) for x in re.findall(r"\d+", rgb)[:3])
    return 0.2126 * channel(red) + 0.7152 * channel(green) + 0.0722 * channel(blue)


def contrast(one: str, other: str) -> float:
    light, dark = sorted((relative_luminance(one), relative_luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_keyboard_stop_shows_a_focus_ring(browser, live_server: str, scheme):
    context = browser.new_context(color_scheme=scheme, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        open_kind(page, "story", "served", Path("/unused"), live_server)
        seen: list[str] = []
        for _ in range(25):  # skip link, search box, button, then the story's own links
            page.keyboard.press("Tab")
            ring = page.evaluate(FOCUS_RING_JS)
            assert ring, f"no visible focus ring on keyboard stop {len(seen) + 1}"
            seen.append(ring["tag"])
            ratio = contrast(ring["ring"], ring["behind"])
            assert ratio >= FOCUS_CONTRAST, (len(seen), ring, round(ratio, 2))
        assert {"A", "INPUT", "BUTTON"} <= set(seen)
    finally:
        context.close()


@pytest.mark.parametrize("where", ["report", "served"])
def test_dark_colour_scheme_is_dark(browser, corpus_report: Path, live_server: str, where):
    context = browser.new_context(color_scheme="dark")
    page = context.new_page()
    try:
        open_kind(page, "article", where, corpus_report, live_server)
        body = page.evaluate(
            "(() => { const s = getComputedStyle(document.body);"
            " return {paper: s.backgroundColor, ink: s.color}; })()"
        )
        assert relative_luminance(body["paper"]) < DARK_PAPER, body
        assert contrast(body["ink"], body["paper"]) >= 7, body  # WCAG AAA for body text
    finally:
        context.close()
