"""Search on both backends (SQLite FTS5, the LIKE fallback on PostgreSQL): a total, pages
through every hit, and snippets that show the matching text (a speaker hit shows the quote)."""

from __future__ import annotations

import pytest

from newsloom.store import SearchPage, open_store
from tests.store.test_sql import make_analysis

N_ARTICLES = 7  # 7 articles + 7 quotes: pages of 3 end on a partial page


def harbour_text(i: int) -> str:
    return f'Jane Roe said: "We will mend harbour wall {i} soon." The council agreed on plan {i}.'


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def filled_store(request, tmp_path):
    url = str(tmp_path / "s.db") if request.param == "sqlite" else request.getfixturevalue("pg_url")
    store = open_store(url)
    store.add_analyses(make_analysis(harbour_text(i)) for i in range(N_ARTICLES))
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
