"""Full-text search on PostgreSQL: a generated ``tsvector`` column with a GIN index on the
articles (title and text) and on the quotes (speaker and quote text), ranked by ``ts_rank_cd``,
snippets by ``ts_headline`` with the same markers as SQLite's FTS5 ``snippet()``.

The user's query never reaches a query parser: only its words (``search.search_terms``) are
passed, to ``plainto_tsquery``, which ANDs them; quotes, ``-``, ``OR``, ``:*``, ``&`` or ``!``
are punctuation or plain (stop) words.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Connection, Row, text

from .search import MARK_CLOSE, MARK_OPEN, SNIPPET_TOKENS

# The text search configuration: English stemming (Snowball), like the porter tokenizer of
# the SQLite index ("floods" finds "flooding"); English stop words are not searched.
CONFIG = "english"
# The generated column holding each searchable row's words, and what it is computed from.
# Title and text (speaker and quote) weigh the same, as the two columns of the FTS5 table do.
COLUMN = "search_vector"
VECTORS = {
    "articles": f"to_tsvector('{CONFIG}', coalesce(title, '')) || to_tsvector('{CONFIG}', text)",
    "quotes": f"to_tsvector('{CONFIG}', coalesce(speaker, '')) || to_tsvector('{CONFIG}', text)",
}
# ts_rank_cd normalisation 1: the rank divided by 1 + log(length), so a long article does not
# outrank a quote on length alone, while more matches still rank first (bm25's spirit).
RANK_NORMALISATION = 1
# ts_headline: at most SNIPPET_TOKENS words like FTS5's snippet(); a snippet whose document
# does not match (a quote found by its speaker) shows its first SNIPPET_MIN_WORDS words.
SNIPPET_MIN_WORDS = 12
HEADLINE_OPTIONS = (
    f"StartSel={MARK_OPEN}, StopSel={MARK_CLOSE}, "
    f"MaxWords={SNIPPET_TOKENS}, MinWords={SNIPPET_MIN_WORDS}"
)


def index_name(table: str) -> str:
    return f"ix_{table}_{COLUMN}"


def create_search_index(conn: Connection) -> None:
    """Add the search column and its GIN index where they are missing: a new store, or one
    written before search used them (its rows are indexed now, once). Run under the schema
    lock; the catalogue is checked first so that opening an indexed store takes no table lock.
    """
    for table, vector in VECTORS.items():
        has_column = conn.execute(
            text(
                "SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() "
                "AND table_name = :t AND column_name = :c"
            ),
            {"t": table, "c": COLUMN},
        ).first()
        if not has_column:
            conn.execute(
                text(
                    f"ALTER TABLE {table} ADD COLUMN {COLUMN} tsvector "
                    f"GENERATED ALWAYS AS ({vector}) STORED"
                )
            )
        index = index_name(table)
        if conn.execute(text("SELECT to_regclass(:i)"), {"i": index}).scalar() is None:
            conn.execute(text(f"CREATE INDEX {index} ON {table} USING GIN ({COLUMN})"))


_QUERY = f"query AS (SELECT plainto_tsquery('{CONFIG}', :words) AS q)"

_COUNT = text(
    f"WITH {_QUERY} SELECT "
    f"(SELECT count(*) FROM articles AS a, query WHERE a.{COLUMN} @@ query.q) + "
    f"(SELECT count(*) FROM quotes AS qt, query WHERE qt.{COLUMN} @@ query.q)"
)

# The page is chosen on ids and ranks only; texts, snippets and story ids are read for its
# rows alone. Ties keep a fixed order (article, then its quotes by position) so pages do
# not overlap. A quote is found again by its span (LIMIT 1: the quotes table has no key).
_PAGE = text(
    f"WITH {_QUERY}, hits AS ("
    f"SELECT 'article' AS kind, a.id AS article_id, 0 AS span_start, 0 AS span_end, "
    f"ts_rank_cd(a.{COLUMN}, query.q, {RANK_NORMALISATION}) AS rank "
    f"FROM articles AS a, query WHERE a.{COLUMN} @@ query.q "
    "UNION ALL "
    f"SELECT 'quote', qt.article_id, qt.start, qt.\"end\", "
    f"ts_rank_cd(qt.{COLUMN}, query.q, {RANK_NORMALISATION}) "
    f"FROM quotes AS qt, query WHERE qt.{COLUMN} @@ query.q), "
    "page AS (SELECT * FROM hits "
    "ORDER BY rank DESC, article_id, kind, span_start LIMIT :limit OFFSET :offset) "
    "SELECT page.kind, page.article_id, page.span_start, page.span_end, "
    "a.title, a.source, a.published, sa.story_id, qt.speaker, qt.speaker_text, "
    "qt.speaker_confidence, "
    "CASE page.kind WHEN 'quote' THEN qt.text ELSE a.text END AS body, "
    f"ts_headline('{CONFIG}', CASE page.kind WHEN 'quote' THEN qt.text ELSE a.text END, "
    "query.q, :options) AS snip, "
    f"CASE page.kind WHEN 'article' THEN ts_headline('{CONFIG}', coalesce(a.title, ''), "
    "query.q, :options) END AS title_snip "
    "FROM page CROSS JOIN query JOIN articles AS a ON a.id = page.article_id "
    "LEFT JOIN story_articles AS sa ON sa.article_id = page.article_id "
    "LEFT JOIN LATERAL (SELECT q.speaker, q.speaker_text, q.speaker_confidence, q.text "
    "FROM quotes AS q "
    "WHERE page.kind = 'quote' AND q.article_id = page.article_id "
    'AND q.start = page.span_start AND q."end" = page.span_end LIMIT 1) AS qt ON true '
    "ORDER BY page.rank DESC, page.article_id, page.kind, page.span_start"
)


def count_hits(conn: Connection, terms: Sequence[str]) -> int:
    """How many articles and quotes hold every word of ``terms`` (in any of its forms)."""
    return int(conn.execute(_COUNT, {"words": " ".join(terms)}).scalar_one())


def page_rows(conn: Connection, terms: Sequence[str], limit: int, offset: int) -> list[Row]:
    """One page of hits, best first: kind, article_id, span_start/end (0/0 for an article),
    the article's title/source/published/story_id, the quote's speaker (its name, words and
    confidence), ``body`` (the text
    searched) and ``snip``/``title_snip`` (marked headlines of the body and the title)."""
    params = {
        "words": " ".join(terms),
        "limit": limit,
        "offset": offset,
        "options": HEADLINE_OPTIONS,
    }
    return list(conn.execute(_PAGE, params).all())
