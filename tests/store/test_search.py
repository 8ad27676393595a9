"""Search on both backends (SQLite FTS5, PostgreSQL tsvector + GIN), one behaviour: whole
words with stemming, ranked, a total, pages through every hit, snippets that show the matching
text (a speaker hit shows the quote), and a query's operators taken as plain words."""

from __future__ import annotations

import re

import pytest

from newsloom.models import Article, ArticleAnalysis, article_id
from newsloom.store import SearchPage, open_store
from tests.store.test_sql import make_analysis

N_ARTICLES = 7  # 7 articles + 7 quotes: pages of 3 end on a partial page

BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


def harbour_text(i: int) -> str:
    return f'Jane Roe said: "We will mend harbour wall {i} soon." The council agreed on plan {i}.'


def article_only(text: str, title: str) -> ArticleAnalysis:
    """An analysed article with no quotes: its hits are article hits only."""
    article = Article(id=article_id(text), text=text, origin="t.txt", title=title)
    return ArticleAnalysis(article=article)


# Titles and texts of similar length; "bridge" as a word only in WORDS_TWICE/THRICE.
KINGSBRIDGE = article_only(
    "Kingsbridge council met on Monday evening to discuss the parking plans downtown.",
    "Council meeting",
)
FLOODING = article_only(
    "Flooding closed the river road on Monday evening and residents left their homes.",
    "Road closed",
)
BRIDGE_ONCE = article_only(
    "The old bridge was closed on Monday evening after inspectors found cracks in it.",
    "Inspection",
)
BRIDGE_THRICE = article_only(
    "The bridge, the bridge tower and the bridge deck were closed on Monday evening.",
    "Closure",
)


@pytest.fixture(params=BACKENDS)
def store_url(request, tmp_path):
    if request.param == "sqlite":
        return str(tmp_path / "s.db")
    return request.getfixturevalue("pg_url")


@pytest.fixture()
def filled_store(store_url):
    store = open_store(store_url)
    store.add_analyses(make_analysis(harbour_text(i)) for i in range(N_ARTICLES))
    yield store
    store.close()


@pytest.fixture()
def word_store(store_url):
    store = open_store(store_url)
    store.add_analyses([KINGSBRIDGE, FLOODING, BRIDGE_ONCE, BRIDGE_THRICE])
    yield store
    store.close()


def test_search_pages_cover_every_hit_once_with_the_total(filled_store):
    whole = filled_store.search("harbour", limit=100)
    assert isinstance(whole, SearchPage)
    assert whole.total == len(whole.hits) == 2 * N_ARTICLES  # each article and its quote
    keys = [(h.kind, h.article_id, h.start) for h in whole.hits]
    paged = []
    for offset in range(0, whole.total, 3):
        page = filled_store.search("harbour", limit=3, offset=offset)
        assert page.total == whole.total and len(page.hits) == min(3, whole.total - offset)
        paged += [(h.kind, h.article_id, h.start) for h in page.hits]
    assert paged == keys
    past = filled_store.search("harbour", limit=3, offset=whole.total)
    assert past.total == whole.total and past.hits == []
    assert filled_store.search("zzqxnotaword") == SearchPage(total=0, hits=[])


def test_a_speaker_hit_shows_the_quote(filled_store):
    page = filled_store.search("Jane", limit=100)
    quotes = [h for h in page.hits if h.kind == "quote"]
    assert len(quotes) == N_ARTICLES
    for hit in quotes:
        assert hit.speaker == "Jane Roe"
        assert "We will mend harbour wall" in hit.snippet, hit.snippet
        assert hit.highlights == []  # the quote's words did not match, its speaker did


def test_a_quote_hit_carries_its_speakers_words_and_confidence(store_url):
    from tests.store.test_sql import make_speaker_analysis

    store = open_store(store_url)
    store.add_analyses([make_speaker_analysis(), make_analysis(harbour_text(1))])
    found = {}
    for query in ("budget", "opens", "harbour"):
        for hit in store.search(query).hits:
            found[query, hit.kind] = (hit.speaker, hit.speaker_text, hit.speaker_confidence)
    store.close()
    assert found == {
        ("budget", "article"): (None, None, None),
        ("budget", "quote"): (None, "An official", 0.31),  # unresolved: its words only
        ("opens", "article"): (None, None, None),
        ("opens", "quote"): ("Jane Roe", "she", 0.62),
        ("harbour", "article"): (None, None, None),
        ("harbour", "quote"): ("Jane Roe", None, None),  # never scored
    }


def _ids(page: SearchPage) -> list[str]:
    return [h.article_id for h in page.hits]


def test_a_word_matches_whole_words_only(word_store):
    page = word_store.search("bridge")
    assert KINGSBRIDGE.article.id not in _ids(page)
    assert sorted(_ids(page)) == sorted([BRIDGE_ONCE.article.id, BRIDGE_THRICE.article.id])
    assert page.total == 2


def test_a_word_finds_its_other_forms(word_store):
    page = word_store.search("floods")
    assert _ids(page) == [FLOODING.article.id]
    (hit,) = page.hits
    assert [hit.snippet[s:e] for s, e in hit.highlights] == ["Flooding"]


def test_more_matches_rank_first(word_store):
    assert _ids(word_store.search("bridge")) == [BRIDGE_THRICE.article.id, BRIDGE_ONCE.article.id]


def test_an_article_hit_carries_its_span_and_a_highlighted_snippet(word_store):
    (hit,) = word_store.search("inspectors cracks").hits
    text = BRIDGE_ONCE.article.text
    assert (hit.kind, hit.start, hit.end, hit.title) == ("article", 0, len(text), "Inspection")
    plain = hit.snippet.strip("…")
    assert plain and plain in text
    assert [hit.snippet[s:e] for s, e in hit.highlights] == ["inspectors", "cracks"]


def test_a_title_only_match_shows_the_title(word_store):
    (hit,) = word_store.search("Inspection").hits
    assert [hit.snippet[s:e] for s, e in hit.highlights] == ["Inspection"]


@pytest.mark.parametrize(
    "query",
    [
        '"bridge',
        "-bridge",
        "bridge:*",
        "!bridge",
        "bridge & ",
        "(bridge",
        "bridge'",
        "bridge*",
        "NOT bridge",
    ],
)
def test_operators_in_a_query_are_plain_words(word_store, query):
    """Quotes, minus, prefix stars, `&`, `!`, brackets: what a query language would read as
    syntax is punctuation here; the words are searched as written."""
    words = re.findall(r"\w+", query)
    expected = word_store.search(" ".join(words))
    assert word_store.search(query) == expected
    if words == ["bridge"]:
        assert expected.total == 2  # "-bridge" and "!bridge" are no negations


@pytest.mark.parametrize("query", ["bridge OR Kingsbridge", "bri:*", "bri*"])
def test_or_and_prefixes_are_no_operators(word_store, query):
    """OR is no union (no article holds both words) and `bri` matches no word by prefix."""
    assert word_store.search(query) == SearchPage(total=0, hits=[])
