"""Tracked quotes on the web: ``GET /api/quotes/{id}`` and ``/api/tracked-quotes``, the page
``quote-ID.html`` (served and in the static report), and the links to it from story pages and
search. A real store built by ingesting invented articles (``TRACKED_RECORDS``): two stories on
different topics seven months apart quoting one line, cut short in one and with a word swapped
in the other."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import lxml.html
import pytest

from newsloom.models import TrackedLink, TrackedMention, TrackedQuote
from newsloom.render.html import Pages, near_wording, write_report
from newsloom.store import open_store
from newsloom.stories import consolidate
from tests.stories.builders import quoted

from .conftest import HARBOUR_CUT, HARBOUR_LINE, HARBOUR_SWAPPED, running

FEBRUARY, SEPTEMBER = "Saltmere council votes", "Farrant enters race"


@pytest.fixture(scope="module")
def client(tracked_server):
    with httpx.Client(base_url=tracked_server, timeout=60) as c:
        yield c


@pytest.fixture(scope="module")
def harbour(client) -> dict:
    """The tracked quote of the harbour line, found as a client would: by its words."""
    listing = client.get("/api/tracked-quotes", params={"q": "A MUSEUM for ships"}).json()
    assert listing["total"] == 1, listing
    found = client.get(f"/api/quotes/{listing['items'][0]['id']}")
    assert found.status_code == 200
    return found.json()


def _doc(html: str) -> lxml.html.HtmlElement:
    return lxml.html.fromstring(html)


def _text(element: lxml.html.HtmlElement) -> str:
    return " ".join(element.text_content().split())


def _terms(doc: lxml.html.HtmlElement, cls: str) -> dict[str, str]:
    """A description list's terms and their descriptions, as text."""
    (found,) = doc.xpath(f'//dl[@class="{cls}"]')
    return {_text(d.xpath("dt")[0]): _text(d.xpath("dd")[0]) for d in found.xpath("div")}


# -- the JSON API -------------------------------------------------------------------------------


def test_one_utterance_across_two_stories_months_apart(client, harbour):
    assert harbour["text"] == HARBOUR_LINE and harbour["speaker"] == "Odile Farrant"
    assert (harbour["first_outlet"], harbour["first_date"]) == ("Saltmere Herald", "2023-02-14")
    assert harbour["last_date"] == "2023-09-20" and len(harbour["story_ids"]) == 2
    shown = [(m["outlet"], m["published"], m["variant"], m["text"]) for m in harbour["mentions"]]
    assert shown == [
        ("Saltmere Herald", "2023-02-14", "identical", HARBOUR_LINE),
        ("Coastline Courier", "2023-02-15", "truncated", HARBOUR_CUT),
        ("Northshore Post", "2023-09-19", "word_change", HARBOUR_SWAPPED),
        ("Daily Tidings", "2023-09-20", "word_change", HARBOUR_SWAPPED),
    ]
    assert len({m["story_id"] for m in harbour["mentions"][:2]}) == 1
    assert harbour["mentions"][0]["story_id"] != harbour["mentions"][2]["story_id"]
    (link,) = harbour["links"]  # the two stories' quotes, joined by alignment
    assert link["relation"] == "near" and link["aligned"] >= 0.9
    for m in harbour["mentions"]:  # every span points at its words
        text = client.get(f"/api/articles/{m['article_id']}").json()["text"]
        assert text[m["start"] : m["end"]] == m["text"]


def test_a_tracked_quote_by_prefix_and_an_unknown_one(client, harbour):
    assert client.get(f"/api/quotes/{harbour['id'][:6]}").json()["id"] == harbour["id"]
    for unknown in ("0000000000000000", "not-hex", "f" * 40):
        response = client.get(f"/api/quotes/{unknown}")
        assert response.status_code == 404
        assert response.json()["detail"].startswith("no tracked quote with id")
    assert client.get("/api/quotes").json()["total"] >= 4  # the mention rows are still there


def test_an_ambiguous_tracked_quote_prefix_is_a_400_saying_what_to_do(tmp_path):
    # Seventeen tracked quotes (no two share a word): two of them share a first hex digit.
    remarks = [" ".join(f"w{n}x{k}" for k in range(8)) for n in range(17)]
    analysis = quoted("0a1", *[(remark, "Jo Li") for remark in remarks])
    db = str(tmp_path / "many.db")
    store = open_store(db)
    store.add_analyses([analysis])
    store.replace_stories([consolidate([analysis])])
    ids = sorted(r.id for r in store.tracked_quotes(limit=None))
    store.close()
    assert len(ids) == 17
    shared = next(a[0] for a, b in zip(ids, ids[1:], strict=False) if a[0] == b[0])
    from newsloom.web import create_app

    with running(create_app(db)) as url, httpx.Client(base_url=url, timeout=30) as c:
        response = c.get(f"/api/quotes/{shared}")
        assert response.status_code == 400 and "give more characters" in response.json()["detail"]
        assert c.get(f"/api/quotes/{ids[0]}").json()["id"] == ids[0]


def test_the_tracked_quote_listing(client, harbour):
    everything = client.get("/api/tracked-quotes").json()
    assert everything["total"] == len(everything["items"]) >= 2
    assert [r["mentions"] for r in everything["items"]] == sorted(
        (r["mentions"] for r in everything["items"]), reverse=True
    )
    top = everything["items"][0]
    assert top["id"] == harbour["id"]
    assert (top["mentions"], top["outlets"], top["stories"]) == (4, 4, 2)
    assert (top["first_date"], top["last_date"]) == ("2023-02-14", "2023-09-20")
    hers = client.get("/api/tracked-quotes", params={"speaker": "odile farrant"}).json()
    assert harbour["id"] in {r["id"] for r in hers["items"]}
    assert all(r["speaker"] == "Odile Farrant" for r in hers["items"])
    nobody = client.get("/api/tracked-quotes", params={"speaker": "Nobody Atall"}).json()
    assert nobody == {"total": 0, "items": []}
    paged = client.get("/api/tracked-quotes", params={"limit": 1, "offset": 1}).json()
    assert paged["total"] == everything["total"] and paged["items"] == everything["items"][1:2]
    assert client.get("/api/tracked-quotes", params={"limit": 0}).status_code == 422


@pytest.mark.parametrize(
    ("variant", "listed"),
    [
        ("truncated", True),  # the February cut
        ("word_change", True),  # September's "boats"
        ("censored", False),
        ("paraphrased", False),
    ],
)
def test_the_tracked_quote_listing_by_variant(client, harbour, variant, listed):
    found = client.get("/api/tracked-quotes", params={"variant": variant}).json()
    assert (harbour["id"] in {r["id"] for r in found["items"]}) is listed
    assert found["total"] == len(found["items"])
    # The list route and its JSON twin filter by the same stored variants.
    twin = client.get("/quotes.json", params={"variant": variant}).json()
    assert {r["id"] for r in twin["items"]} == {r["id"] for r in found["items"]}
    mentions = client.get("/mentions.json", params={"variant": variant, "limit": 500}).json()
    assert all(m["variant"] == variant for m in mentions["items"])
    spans = {(m["article_id"], m["start"], m["end"]) for m in mentions["items"]}
    hers = {(m["article_id"], m["start"], m["end"]): m["variant"] for m in harbour["mentions"]}
    assert {s for s in hers if s in spans} == {s for s, v in hers.items() if v == variant}
    assert any(v == variant for v in hers.values()) is listed
    assert client.get("/api/tracked-quotes", params={"variant": "sarcastic"}).status_code == 422


def test_story_quotes_and_search_hits_name_their_tracked_quote(client, harbour):
    for story_id in harbour["story_ids"]:
        story = client.get(f"/api/stories/{story_id}").json()
        (quote,) = [q for q in story["quotes"] if "museum" in q["text"]]
        assert quote["tracked_quote_id"] == harbour["id"]
    hits = client.get("/api/search", params={"q": "museum"}).json()["items"]
    quotes = [h for h in hits if h["kind"] == "quote"]
    assert len(quotes) == 4 and {h["tracked_quote_id"] for h in quotes} == {harbour["id"]}
    assert all(h["tracked_quote_id"] is None for h in hits if h["kind"] == "article")


def test_the_docs_list_the_tracked_quote_routes(client):
    docs = client.get("/docs").text
    assert "<code>GET /api/quotes/{tracked_id}</code>" in docs
    assert "<code>GET /api/tracked-quotes</code>" in docs
    assert "<code>GET /api/quotes</code>" in docs


# -- the pages ----------------------------------------------------------------------------------


def check_quote_page(html: str, harbour: dict) -> lxml.html.HtmlElement:
    """The quote page as a reader checks it: who, first seen, each wording in date order with
    its variant and marks, links to every span and story, and the link evidence."""
    doc = _doc(html)
    assert _text(doc.xpath("//h1")[0]) == "A quote by Odile Farrant"
    (canonical,) = doc.xpath('//figure[contains(@class, "canonical")]/blockquote')
    assert _text(canonical) == HARBOUR_LINE
    assert _terms(doc, "facts-row") == {
        "First seen": "Saltmere Herald, 2023-02-14",
        "Last seen": "2023-09-20",
        "Mentions": "4 in 4 outlets",
        "Stories": "2",
    }
    (first,) = doc.xpath('//dl[@class="facts-row"]//a')
    m = harbour["mentions"][0]
    assert first.get("href") == f"article-{m['article_id']}.html#q-{m['start']}-{m['end']}"
    items = doc.xpath('//ol[@class="mentions"]/li')
    heads = [_text(li.xpath(".//h3")[0]) for li in items]
    assert heads == [
        "2023-02-14 · Saltmere Herald identical",
        "2023-02-15 · Coastline Courier truncated",
        "2023-09-19 · Northshore Post word change",
        "2023-09-20 · Daily Tidings word change",
    ]
    same, cut, swapped, _ = items
    assert not same.xpath(".//ins|.//del")
    assert [_text(d) for d in cut.xpath(".//del")] == [
        "and we will pay for the dredging ourselves if we have to,"
    ]
    assert [_text(d) for d in swapped.xpath(".//del")] == ["ships"]
    assert [_text(i) for i in swapped.xpath(".//ins")] == ["boats"]
    spans = [li.xpath('.//a[starts-with(@href, "article-")]/@href')[0] for li in items]
    assert spans == [
        f"article-{m['article_id']}.html#q-{m['start']}-{m['end']}" for m in harbour["mentions"]
    ]
    stories = doc.xpath('//section[@id="stories"]//a/@href')
    assert sorted(stories) == sorted(f"story-{i}.html" for i in harbour["story_ids"])
    (evidence,) = doc.xpath('//section[@id="evidence"]//details')
    assert "1 link between stories' quotes" in _text(evidence.xpath("summary")[0])
    assert "near most words of both wordings in the same order; 96%" in _text(evidence)
    return doc


def test_the_served_quote_page(client, harbour):
    page = client.get(f"/quote-{harbour['id']}.html")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    doc = check_quote_page(page.text, harbour)
    for href in doc.xpath('//ol[@class="mentions"]//a[starts-with(@href, "article-")]/@href'):
        article, anchor = href.split("#")
        assert f'id="{anchor}"' in client.get(f"/{article}").text  # the span is marked there
    prefixed = client.get(f"/quote-{harbour['id'][:8]}.html")
    assert prefixed.status_code == 200 and prefixed.text == page.text
    missing = client.get("/quote-0000000000000000.html", headers={"Accept": "text/html"})
    assert missing.status_code == 404 and "quote with this id" in missing.text


def test_story_pages_link_the_quote_other_stories_quote_too(client, harbour):
    for story_id in harbour["story_ids"]:
        doc = _doc(client.get(f"/story-{story_id}.html").text)
        (link,) = doc.xpath('//p[@class="tracked"]/a')  # only the quote other stories share
        assert link.get("href") == f"quote-{harbour['id']}.html"
        assert _text(link) == "Also quoted in 1 other story"
        assert "museum" in _text(link.xpath("ancestor::div[@class='quote']")[0])


def test_search_links_quote_hits_to_their_tracked_quote(client, harbour):
    doc = _doc(client.get("/search", params={"q": "museum"}).text)
    quote_hits = doc.xpath('//li[contains(@class, "hit-quote")]')
    assert len(quote_hits) == 4
    for hit in quote_hits:
        (link,) = hit.xpath('.//a[starts-with(@href, "quote-")]')
        assert link.get("href") == f"quote-{harbour['id']}.html"
        assert "(4 mentions in 2 stories)" in _text(hit)
    assert not doc.xpath('//li[contains(@class, "hit-article")]//a[starts-with(@href, "quote-")]')


# -- the static report: every link it writes lands on a page it wrote ---------------------------


def broken_links(folder: Path) -> list[str]:
    """Relative links (href/src) of the report's pages to a file or an anchor that is missing."""
    broken = []
    ids: dict[Path, set[str]] = {}
    for page in sorted(folder.glob("*.html")):
        doc = _doc(page.read_text(encoding="utf-8"))
        for ref in doc.xpath("//a/@href|//link/@href|//script/@src"):
            parts = urlsplit(ref)
            if parts.scheme or parts.netloc or ref.startswith("#"):
                continue
            target = folder / parts.path
            if not target.exists():
                broken.append(f"{page.name} -> {ref}")
            elif parts.fragment and target.suffix == ".html":
                if target not in ids:
                    ids[target] = set(_doc(target.read_text(encoding="utf-8")).xpath("//@id"))
                if parts.fragment not in ids[target]:
                    broken.append(f"{page.name} -> {ref} (no such anchor)")
    return broken


def test_the_report_writes_the_quote_page_and_breaks_no_link(tracked_report, harbour):
    page = tracked_report / f"quote-{harbour['id']}.html"
    check_quote_page(page.read_text(encoding="utf-8"), harbour)
    assert sorted(p.name for p in tracked_report.glob("quote-*.html")) == [page.name]
    for story_id in harbour["story_ids"]:
        story = (tracked_report / f"story-{story_id}.html").read_text(encoding="utf-8")
        assert f'href="quote-{harbour["id"]}.html"' in story
    assert broken_links(tracked_report) == []


def test_a_report_of_one_story_names_the_other_without_linking_it(tracked_db, tmp_path, harbour):
    february = harbour["mentions"][0]
    store = open_store(str(tracked_db))
    try:
        summary = write_report(store, tmp_path, article_ids=[february["article_id"]])
    finally:
        store.close()
    assert (summary.stories, summary.tracked_quotes) == (1, 1)
    doc = _doc((tmp_path / f"quote-{harbour['id']}.html").read_text(encoding="utf-8"))
    assert doc.xpath('//section[@id="stories"]//a/@href') == [f"story-{february['story_id']}.html"]
    stories = _text(doc.xpath('//section[@id="stories"]')[0])
    assert "Farrant enters race for Saltmere mayor (not in this report)" in stories
    later = doc.xpath('//ol[@class="mentions"]/li')[2:]
    assert all("the article is not in this report" in _text(li) for li in later)
    assert broken_links(tmp_path) == []


# -- the page's rendering, from hand-made tracked quotes ----------------------------------------

CANONICAL = "We will rebuild the depot before winter and every family will be home by March"


def mention(text: str, variant: str, outlet: str, day: int, **fields) -> TrackedMention:
    return TrackedMention(
        article_id=f"a{day}",
        start=0,
        end=len(text),
        text=text,
        kind=fields.pop("kind", "direct"),
        outlet=outlet,
        published=f"2024-05-{day:02d}",
        story_id=fields.pop("story_id", "s1"),
        story_quote_id="q1",
        speaker=fields.pop("speaker", "Jane Roe"),
        speaker_confidence=fields.pop("speaker_confidence", 0.62),
        variant=variant,
    )


def tracked(*mentions: TrackedMention, confidence: float | None = 0.62) -> TrackedQuote:
    return TrackedQuote(
        id="feed",
        text=CANONICAL,
        speaker="Jane Roe",
        speaker_confidence=confidence,
        first_article_id=mentions[0].article_id,
        first_outlet=mentions[0].outlet,
        first_date=mentions[0].published,
        last_date=mentions[-1].published,
        outlets=sorted({m.outlet for m in mentions}),
        story_ids=sorted({m.story_id for m in mentions}),
        mentions=list(mentions),
        links=[TrackedLink(a="s2:q2", b="s1:q1", relation="contained", aligned=1.0)],
    )


def test_a_doubtful_speaker_is_shown_in_doubt():
    quote = tracked(mention(CANONICAL, "identical", "Outlet One", 1))
    doc = _doc(Pages().tracked_quote(quote, {"s1": "Depot fire"}))
    (doubt,) = doc.xpath('//h1//span[@class="speaker-doubtful"]')
    assert doubt.get("title") == "62% likely to be the speaker"
    assert _text(doc.xpath("//h1")[0]).startswith("A quote by probably Jane Roe")
    sure = _doc(Pages().tracked_quote(tracked(quote.mentions[0], confidence=0.95), {}))
    assert _text(sure.xpath("//h1")[0]) == "A quote by Jane Roe"
    assert not sure.xpath('//*[@class="speaker-doubtful"]')


def test_paraphrases_merged_and_indirect_wordings_stand_beside_the_canonical_one():
    quote = tracked(
        mention(CANONICAL, "identical", "Outlet One", 1),
        mention("Families will be back home by spring, the depot rebuilt", "paraphrased", "Two", 2),
        mention(CANONICAL + ". The budget is tight", "merged", "Three", 3),
        mention(
            "that the depot would be rebuilt before winter",
            "paraphrased",
            "Four",
            4,
            kind="indirect",
        ),
        mention(
            CANONICAL.replace("every family", "each family"),
            "word_change",
            "Five",
            5,
            speaker="John Doe",
            speaker_confidence=0.9,
            story_id="s2",
        ),
    )
    doc = _doc(Pages().tracked_quote(quote, {"s1": "Depot fire", "s2": "Winter plans"}))
    one, paraphrase, merged, indirect, changed = doc.xpath('//ol[@class="mentions"]/li')
    for item in (paraphrase, merged, indirect):
        assert not item.xpath(".//ins|.//del")  # shown as written, never struck through
        wordings = item.xpath('.//div[@class="wordings multi"]/figure/blockquote')
        assert len(wordings) == 2 and _text(wordings[1]) == CANONICAL
    assert indirect.xpath('.//blockquote[@class="indirect"]')
    assert not one.xpath('.//div[@class="wordings multi"]')
    assert [_text(x) for x in changed.xpath(".//del|.//ins")] == ["every", "each"]
    assert "Speaker in this article: John Doe" in _text(changed)  # another name than the quote's
    assert "Speaker in this article" not in _text(one)
    assert list(_terms(doc, "variants")) == ["identical", "word change", "paraphrased", "merged"]
    assert "contained the shorter wording almost whole inside the longer; 100%" in _text(doc)


@pytest.mark.parametrize(
    ("other", "variants", "indirect", "near"),
    [
        ("we will rebuild the depot before summer", ["word_change"], False, True),
        # a word change tracking found with most words swapped is still marked word by word
        ("they shall rebuild some depot after summer", ["word_change"], False, True),
        ("they shall rebuild some depot after summer", ["paraphrased"], False, False),
        ("we will rebuild the depot before summer", ["merged"], False, False),
        ("we will rebuild the depot before summer", ["word_change"], True, False),
    ],
)
def test_a_word_change_is_near_enough_to_mark(other, variants, indirect, near):
    assert (
        near_wording("we will rebuild the depot before winter", other, variants, indirect) is near
    )


def test_the_quote_page_needs_no_script_and_escapes_what_it_shows():
    evil = '<script>alert("x")</script>'
    quote = tracked(mention(CANONICAL, "identical", evil, 1))
    html = Pages().tracked_quote(quote, {"s1": evil})
    assert evil not in html and "&lt;script&gt;" in html
    assert re.findall(r"<script[^>]*>", html) == ['<script src="static/filter.js" defer>']
