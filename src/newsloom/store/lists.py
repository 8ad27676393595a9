"""The store's lists: stories, quotes (tracked), quote mentions, speakers, people, posts,
outlets and articles, each declared once as a ``ListSpec`` (``listing.py`` pages, sorts,
counts and filters them), and the story columns those lists read.

Adding a list: write a function returning its ``ListSpec`` and name it in ``LISTS``; the web
app's routes (``web/lists.py``) and their ``.json``/``.csv`` twins follow from that name.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import (
    Connection,
    and_,
    column,
    delete,
    func,
    insert,
    literal,
    select,
    tuple_,
    update,
)
from sqlalchemy import table as sql_table
from sqlalchemy.dialects.postgresql import REGCONFIG

from ..models import Story
from . import pg_search
from . import schema as t
from .listing import Facet, ListSpec, Sort, bucket, like_words

# Story sizes as the story list counts them: a single article (no outlet to compare with), a
# few articles, a story many outlets ran, a big one. Upper bounds; the last label has none.
STORY_SIZES = ((1, "1 article"), (4, "2-4 articles"), (9, "5-9 articles"), (0, "10+ articles"))
# How many stories a tracked quote reached, as the quote list counts them.
QUOTE_SPREADS = ((1, "1 story"), (2, "2 stories"), (4, "3-4 stories"), (0, "5+ stories"))
# An outlet the store has no name for is counted and listed under this label.
UNKNOWN_OUTLET = "unknown outlet"
# The variant facet (``TrackedMention.variant``: identical, truncated, censored, word_change,
# paraphrased ...): a mention of no tracked quote reads as the first label; a tracked mention
# whose variant is not filled (never, once a store is upgraded) as the second.
UNTRACKED_VARIANT = "not tracked"
UNFILLED_VARIANT = "unknown"


def _year(column: Any) -> Any:
    return func.substr(column, 1, 4)


def _matching_articles(dialect: str, words: Sequence[str]) -> Any:
    """The ids of the articles whose title or text, or one of whose quotes (or its speaker),
    holds every word: the store's full-text index (FTS5 on SQLite, tsvector on PostgreSQL)."""
    if dialect == "sqlite":
        fts = _fts_table()
        return select(fts.c.article_id).where(_fts_match(fts, words))
    if dialect == "postgresql":
        query = _tsquery(words)
        a = sql_table(t.articles.name, column("id"), column(pg_search.COLUMN)).alias("matched")
        q = sql_table(t.quotes.name, column("article_id"), column(pg_search.COLUMN)).alias(
            "matched_quotes"
        )
        return (
            select(a.c.id)
            .where(a.c[pg_search.COLUMN].op("@@")(query))
            .union(select(q.c.article_id).where(q.c[pg_search.COLUMN].op("@@")(query)))
        )
    return select(t.articles.c.id).where(like_words(t.articles.c.title, words))


def _tsquery(words: Sequence[str]) -> Any:
    """PostgreSQL's query of every word (``pg_search``: plainto_tsquery, never parsed)."""
    return func.plainto_tsquery(literal(pg_search.CONFIG).cast(REGCONFIG), " ".join(words))


def _fts_table() -> Any:
    """SQLite's FTS5 search table (``schema.SEARCH_DDL``) as SQLAlchemy sees it."""
    name = t.SEARCH_TABLE
    return sql_table(
        name,
        column("article_id"),
        column("span_start"),
        column("span_end"),
        column("kind"),
        column(name),
    )


def _fts_match(fts: Any, words: Sequence[str]) -> Any:
    """Rows holding every word (each quoted: FTS5's query syntax is never interpreted)."""
    match = " ".join(f'"{w}"' for w in words)
    return fts.c[t.SEARCH_TABLE].op("MATCH")(match)


def _matching_quote_spans(dialect: str, words: Sequence[str]) -> Any:
    """(article id, start, end) of the quotes whose words or speaker hold every word."""
    q = t.quotes.c
    if dialect == "sqlite":
        fts = _fts_table()
        return select(fts.c.article_id, fts.c.span_start, fts.c.span_end).where(
            _fts_match(fts, words), fts.c.kind == "quote"
        )
    if dialect == "postgresql":
        matched = sql_table(
            t.quotes.name,
            column("article_id"),
            column("start"),
            column("end"),
            column(pg_search.COLUMN),
        ).alias("matched_quotes")
        return select(matched.c.article_id, matched.c.start, matched.c.end).where(
            matched.c[pg_search.COLUMN].op("@@")(_tsquery(words))
        )
    return select(q.article_id, q.start, q.end).where(like_words(q.text, words))


# -- facets kept as rows -----------------------------------------------------------------------

# The list whose facets are kept in ``list_facets`` (its rows' keys are story ids).
STORIES = "stories"


def stored_facet(list_name: str, name: str, label: str, empty_label: str = "(none)") -> Facet:
    """A facet read from the ``list_facets`` rows kept for ``list_name`` (one per key and
    value, so the engine counts rows, not distinct keys)."""
    f = t.list_facets.c
    rows = select(f.key.label("key"), f.value.label("value")).where(
        f.list == list_name, f.facet == name
    )
    return Facet(name, label, link=rows, empty_label=empty_label, unique_pairs=True)


def story_facet_values() -> dict[str, Any]:
    """Each stored facet of the story list: a select of (story id ``key``, ``value``) from the
    stored rows: its articles' outlets, its quotes' speakers, its year, size and whether its
    outlets disagree. NULL reads as '' (``listing.NO_VALUE``)."""
    s, sa, a, q = t.stories.c, t.story_articles.c, t.articles.c, t.quotes.c
    return {
        "outlet": select(sa.story_id.label("key"), func.coalesce(a.source, "").label("value"))
        .join(t.articles, a.id == sa.article_id)
        .distinct(),
        "speaker": select(sa.story_id.label("key"), q.speaker.label("value"))
        .join(t.quotes, q.article_id == sa.article_id)
        .where(q.speaker.is_not(None))
        .distinct(),
        "year": select(s.id.label("key"), _year(s.first_date).label("value")),
        "size": select(s.id.label("key"), bucket(s.n_articles, STORY_SIZES).label("value")),
        "conflict": select(
            s.id.label("key"), bucket(s.n_conflicts, ((0, "no"), (0, "yes"))).label("value")
        ),
    }


def write_story_facets(conn: Connection, old: set[str], story_ids: Sequence[str] | None) -> None:
    """Replace the facet rows of the stories ``old`` (removed or rewritten) by those of
    ``story_ids`` as stored now (their rows and columns written first); every stored story's
    when ``story_ids`` is None (a store upgraded to version 10). INSERT ... SELECT per facet."""
    f = t.list_facets.c
    gone = sorted(old)
    facets = story_facet_values()
    for at in range(0, len(gone), CHUNK):
        # By facet too: the index is (list, facet, key, value), and without the facet SQLite
        # scans every facet row of every story (1.7 ms an article at 1M stored).
        conn.execute(
            delete(t.list_facets).where(
                f.list == STORIES, f.facet.in_(list(facets)), f.key.in_(gone[at : at + CHUNK])
            )
        )
    chunks: list[Sequence[str] | None] = (
        [None]
        if story_ids is None
        else [story_ids[at : at + CHUNK] for at in range(0, len(story_ids), CHUNK)]
    )
    for name, values in facets.items():
        rows = values.subquery()
        for ids in chunks:
            chosen = select(literal(STORIES), literal(name), rows.c.value, rows.c.key)
            if ids is not None:
                chosen = chosen.where(rows.c.key.in_(ids))
            conn.execute(
                insert(t.list_facets).from_select(["list", "facet", "value", "key"], chosen)
            )


# -- stories ----------------------------------------------------------------------------------


def stories() -> ListSpec:
    s, sa = t.stories.c, t.story_articles.c

    def words(dialect: str, found: Sequence[str]) -> Any:
        return s.id.in_(
            select(sa.story_id).where(sa.article_id.in_(_matching_articles(dialect, found)))
        )

    return ListSpec(
        name="stories",
        title="Stories",
        source=t.stories,
        columns={
            "id": s.id,
            "title": s.title,
            "n_articles": s.n_articles,
            "n_outlets": s.n_outlets,
            "n_quotes": s.n_quotes,
            "n_conflicts": s.n_conflicts,
            "first_date": s.first_date,
            "last_date": s.last_date,
        },
        key=[s.id],
        sorts=[
            Sort("size", s.n_articles),
            Sort("date", s.first_date),
            Sort("outlets", s.n_outlets),
            Sort("quotes", s.n_quotes),
            Sort("conflicts", s.n_conflicts),
        ],
        facets=[
            stored_facet(STORIES, "outlet", "Outlet", UNKNOWN_OUTLET),
            stored_facet(STORIES, "speaker", "Speaker"),
            stored_facet(STORIES, "year", "Year", "undated"),
            stored_facet(STORIES, "size", "Size"),
            stored_facet(STORIES, "conflict", "Outlets disagree"),
        ],
        date=s.first_date,
        words=words,
    )


def story_columns(story: Story) -> dict[str, Any]:
    """The story list's columns that the story itself holds (the dates and outlets come from
    its articles: ``fill_story_dates``)."""
    conflicts = sum(f.status == "conflict" for f in story.facts) + sum(
        e.age_conflict for e in story.entities
    )
    return {"n_quotes": len(story.quotes), "n_conflicts": conflicts}


def fill_story_dates(conn: Connection, story_ids: Sequence[str] | None = None) -> None:
    """Set the stories' first and last article dates and outlet count from their articles
    (all stories when ``story_ids`` is None): one UPDATE with correlated subqueries."""
    s, sa, a = t.stories.c, t.story_articles.c, t.articles.c

    def of_story(expr: Any) -> Any:
        return (
            select(expr)
            .select_from(t.story_articles)
            .join(t.articles, a.id == sa.article_id)
            .where(sa.story_id == s.id)
            .scalar_subquery()
        )

    values = {
        "first_date": func.coalesce(of_story(func.min(a.published)), ""),
        "last_date": func.coalesce(of_story(func.max(a.published)), ""),
        "n_outlets": of_story(func.count(func.coalesce(a.source, a.id).distinct())),
    }
    statement = update(t.stories).values(values)
    if story_ids is None:
        conn.execute(statement)
        return
    for at in range(0, len(story_ids), CHUNK):
        conn.execute(statement.where(s.id.in_(story_ids[at : at + CHUNK])))


# Ids in one IN (...) list: well under SQLite's bound on parameters.
CHUNK = 500


def write_story_columns(conn: Connection, stories: Sequence[Story]) -> None:
    """The story list's columns of stories just written (in the transaction writing them)."""
    s = t.stories.c
    for story in stories:
        conn.execute(update(t.stories).where(s.id == story.id).values(story_columns(story)))
    fill_story_dates(conn, [story.id for story in stories])


# -- quotes -----------------------------------------------------------------------------------


def quotes() -> ListSpec:
    """Tracked quotes: one utterance across stories."""
    c, m, a = t.tracked_quotes.c, t.tracked_mentions.c, t.articles.c

    def words(dialect: str, found: Sequence[str]) -> Any:
        spans = _matching_quote_spans(dialect, found)
        return c.id.in_(select(m.tracked_id).where(tuple_(m.article_id, m.start, m.end).in_(spans)))

    return ListSpec(
        name="quotes",
        title="Quotes",
        source=t.tracked_quotes,
        columns={
            "id": c.id,
            "text": c.text,
            "speaker": c.speaker,
            "mentions": c.n_mentions,
            "outlets": c.n_outlets,
            "stories": c.n_stories,
            "first_date": c.first_date,
            "last_date": c.last_date,
        },
        key=[c.id],
        sorts=[
            Sort("mentions", c.n_mentions),
            Sort("outlets", c.n_outlets),
            Sort("stories", c.n_stories),
            Sort("date", func.coalesce(c.first_date, "")),
        ],
        facets=[
            Facet(
                "outlet",
                "Outlet",
                link=select(m.tracked_id.label("key"), a.source.label("value")).join(
                    t.articles, a.id == m.article_id
                ),
                empty_label=UNKNOWN_OUTLET,
            ),
            Facet("speaker", "Speaker", value=func.coalesce(c.speaker, ""), empty_label="unknown"),
            Facet("year", "Year first quoted", value=_year(func.coalesce(c.first_date, ""))),
            Facet("spread", "Stories", value=bucket(c.n_stories, QUOTE_SPREADS)),
            # A quote has a variant when one of its mentions words it so.
            Facet(
                "variant",
                "Variant",
                link=select(m.tracked_id.label("key"), m.variant.label("value")),
                empty_label=UNFILLED_VARIANT,
            ),
        ],
        date=func.coalesce(c.first_date, ""),
        words=words,
    )


def mentions() -> ListSpec:
    """Quote mentions: each quote as one article words it, and how it words its tracked quote
    (``variant``; a mention of no tracked quote, e.g. of an article in no story yet, has none)."""
    q, a, m = t.quotes.c, t.articles.c, t.tracked_mentions.c

    def words(dialect: str, found: Sequence[str]) -> Any:
        return tuple_(q.article_id, q.start, q.end).in_(_matching_quote_spans(dialect, found))

    published = func.coalesce(a.published, "")
    return ListSpec(
        name="mentions",
        title="Quote mentions",
        source=t.quotes.join(t.articles, a.id == q.article_id).outerjoin(
            t.tracked_mentions,
            and_(m.article_id == q.article_id, m.start == q.start, m.end == q.end),
        ),
        columns={
            "article_id": q.article_id,
            "start": q.start,
            "end": q.end,
            "text": q.text,
            "kind": q.kind,
            "speaker": q.speaker,
            "speaker_text": q.speaker_text,
            "speaker_confidence": q.speaker_confidence,
            "source": a.source,
            "published": a.published,
            "title": a.title,
            "variant": m.variant,
        },
        key=[q.article_id, q.start, q.end],
        sorts=[Sort("date", published), Sort("speaker", func.coalesce(q.speaker, ""), True)],
        facets=[
            Facet(
                "outlet", "Outlet", value=func.coalesce(a.source, ""), empty_label=UNKNOWN_OUTLET
            ),
            Facet("speaker", "Speaker", value=func.coalesce(q.speaker, ""), empty_label="unknown"),
            Facet("kind", "Kind", value=q.kind),
            Facet("year", "Year", value=_year(published), empty_label="undated"),
            Facet(
                "variant",
                "Variant",
                value=func.coalesce(m.variant, ""),
                empty_label=UNTRACKED_VARIANT,
            ),
        ],
        date=published,
        words=words,
    )


# -- speakers, people, posts, outlets (grouped rows) -----------------------------------------


def speakers() -> ListSpec:
    q, a = t.quotes.c, t.articles.c
    grouped = (
        select(
            q.speaker.label("speaker"),
            func.count().label("quotes"),
            func.count(q.article_id.distinct()).label("articles"),
            func.avg(q.speaker_confidence).label("mean_confidence"),
            func.max(q.speaker_kind).label("kind"),
            func.coalesce(func.min(a.published), "").label("first_date"),
            func.coalesce(func.max(a.published), "").label("last_date"),
        )
        .join(t.articles, a.id == q.article_id)
        .where(q.speaker.is_not(None))
        .group_by(q.speaker)
        .subquery("speakers")
    )
    g = grouped.c
    return ListSpec(
        name="speakers",
        title="Speakers",
        source=grouped,
        columns={col.name: col for col in grouped.c},
        key=[g.speaker],
        sorts=[
            Sort("quotes", g.quotes),
            Sort("articles", g.articles),
            Sort("name", g.speaker, True),
            Sort("date", g.last_date),
        ],
        facets=[
            Facet(
                "outlet",
                "Outlet",
                link=select(q.speaker.label("key"), a.source.label("value"))
                .join(t.articles, a.id == q.article_id)
                .where(q.speaker.is_not(None)),
                empty_label=UNKNOWN_OUTLET,
            ),
            Facet("kind", "Kind", value=func.coalesce(g.kind, ""), empty_label="unknown"),
            Facet("year", "Year last quoted", value=_year(g.last_date), empty_label="undated"),
        ],
        date=g.last_date,
        words=lambda _dialect, found: like_words(g.speaker, found),
    )


def people() -> ListSpec:
    e, a = t.entities.c, t.articles.c
    grouped = (
        select(
            e.name.label("name"),
            func.count(e.article_id.distinct()).label("articles"),
            func.sum(e.mentions).label("mentions"),
            func.min(e.age).label("youngest_age"),
            func.max(e.age).label("oldest_age"),
            func.count(e.age.distinct()).label("ages"),
            func.coalesce(func.min(a.published), "").label("first_date"),
            func.coalesce(func.max(a.published), "").label("last_date"),
        )
        .join(t.articles, a.id == e.article_id)
        .where(e.type == "PERSON")
        .group_by(e.name)
        .subquery("people")
    )
    g = grouped.c
    return ListSpec(
        name="people",
        title="People",
        source=grouped,
        columns={col.name: col for col in grouped.c},
        key=[g.name],
        sorts=[
            Sort("articles", g.articles),
            Sort("mentions", g.mentions),
            Sort("name", g.name, True),
            Sort("date", g.last_date),
        ],
        facets=[
            Facet(
                "outlet",
                "Outlet",
                link=select(e.name.label("key"), a.source.label("value"))
                .join(t.articles, a.id == e.article_id)
                .where(e.type == "PERSON"),
                empty_label=UNKNOWN_OUTLET,
            ),
            Facet("year", "Year last named", value=_year(g.last_date), empty_label="undated"),
            # Ages that differ between articles: the person's age is in conflict.
            Facet("conflict", "Ages disagree", value=bucket(g.ages, ((1, "no"), (0, "yes")))),
        ],
        date=g.last_date,
        words=lambda _dialect, found: like_words(g.name, found),
    )


def posts() -> ListSpec:
    p, a = t.posts.c, t.articles.c
    grouped = (
        select(
            p.post_id.label("id"),
            func.max(p.platform).label("platform"),
            func.max(p.handle).label("handle"),
            func.max(p.author).label("author"),
            func.coalesce(func.max(p.date), "").label("date"),
            func.max(p.text).label("text"),
            func.count(p.article_id.distinct()).label("articles"),
        )
        .group_by(p.post_id)
        .subquery("posts")
    )
    g = grouped.c
    return ListSpec(
        name="posts",
        title="Posts",
        source=grouped,
        columns={col.name: col for col in grouped.c},
        key=[g.id],
        sorts=[Sort("date", g.date), Sort("articles", g.articles)],
        facets=[
            Facet("platform", "Platform", value=g.platform),
            Facet(
                "outlet",
                "Outlet",
                link=select(p.post_id.label("key"), a.source.label("value")).join(
                    t.articles, a.id == p.article_id
                ),
                empty_label=UNKNOWN_OUTLET,
            ),
            Facet("year", "Year", value=_year(g.date), empty_label="undated"),
        ],
        date=g.date,
        words=lambda _dialect, found: like_words(g.text, found),
    )


def outlets() -> ListSpec:
    a, sa, q = t.articles.c, t.story_articles.c, t.quotes.c
    outlet = func.coalesce(a.source, "")
    grouped = (
        select(
            outlet.label("outlet"),
            func.count(a.id.distinct()).label("articles"),
            func.count(sa.story_id.distinct()).label("stories"),
            func.coalesce(func.min(a.published), "").label("first_date"),
            func.coalesce(func.max(a.published), "").label("last_date"),
        )
        .select_from(t.articles.outerjoin(t.story_articles, sa.article_id == a.id))
        .group_by(outlet)
        .subquery("outlets")
    )
    g = grouped.c
    return ListSpec(
        name="outlets",
        title="Outlets",
        source=grouped,
        columns={col.name: col for col in grouped.c},
        key=[g.outlet],
        sorts=[
            Sort("articles", g.articles),
            Sort("stories", g.stories),
            Sort("name", g.outlet, True),
            Sort("date", g.last_date),
        ],
        facets=[
            Facet(
                "year",
                "Year",
                link=select(outlet.label("key"), _year(a.published).label("value")),
                empty_label="undated",
            ),
            Facet(
                "speaker",
                "Speaker",
                link=select(outlet.label("key"), q.speaker.label("value"))
                .join(t.quotes, q.article_id == a.id)
                .where(q.speaker.is_not(None)),
            ),
        ],
        date=g.last_date,
        words=lambda _dialect, found: like_words(g.outlet, found),
    )


def articles() -> ListSpec:
    a, sa = t.articles.c, t.story_articles.c
    published = func.coalesce(a.published, "")
    return ListSpec(
        name="articles",
        title="Articles",
        source=t.articles.outerjoin(t.story_articles, sa.article_id == a.id),
        columns={
            "id": a.id,
            "title": a.title,
            "source": a.source,
            "published": a.published,
            "format": a.format,
            "story_id": sa.story_id,
        },
        key=[a.id],
        sorts=[Sort("date", published), Sort("title", func.coalesce(a.title, ""), True)],
        facets=[
            Facet(
                "outlet", "Outlet", value=func.coalesce(a.source, ""), empty_label=UNKNOWN_OUTLET
            ),
            Facet("year", "Year", value=_year(published), empty_label="undated"),
            Facet("format", "Format", value=a.format),
        ],
        date=published,
        words=lambda dialect, found: a.id.in_(_matching_articles(dialect, found)),
    )


# The lists by name (the web app's paths: /stories, /stories.json, /stories.csv ...).
LISTS: dict[str, Callable[[], ListSpec]] = {
    "stories": stories,
    "quotes": quotes,
    "mentions": mentions,
    "speakers": speakers,
    "people": people,
    "posts": posts,
    "outlets": outlets,
    "articles": articles,
}
