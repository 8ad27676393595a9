"""The HTML pages, named as in the static report (``index.html``, ``story-ID.html``,
``article-ID.html``, ``quote-ID.html`` ...)."""

import math
from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from ..render.html import Pages
from ..store import SearchPage, as_dict
from .api import MAX_OFFSET, MAX_QUERY_CHARS, MAX_SEARCH_HITS, MOVED_PERMANENTLY
from .deps import PagesDep, StoreDep, is_id
from .tracked import spread_of, with_tracked_ids

STORIES_PER_PAGE = 100
SEARCH_PAGE_HITS = 50  # hits a search page shows (one screenful of snippets or so)

router = APIRouter(include_in_schema=False)


def _not_found(pages: Pages, what: str) -> HTMLResponse:
    return HTMLResponse(pages.not_found(what), status_code=404)


@router.get("/", response_class=HTMLResponse)
@router.get("/index.html", response_class=HTMLResponse)
def index(
    store: StoreDep,
    pages: PagesDep,
    page: Annotated[int, Query(ge=1, le=MAX_OFFSET // STORIES_PER_PAGE)] = 1,
) -> HTMLResponse:
    total = store.count_stories()
    n_pages = max(1, math.ceil(total / STORIES_PER_PAGE))
    rows = store.story_summaries(STORIES_PER_PAGE, (page - 1) * STORIES_PER_PAGE)
    days = [(d.day, d.count) for d in store.stories_by_day()]
    html = pages.index([as_dict(r) for r in rows], total=total, page=page, pages=n_pages, days=days)
    return HTMLResponse(html)


@router.get("/story-{story_id}.html", response_class=HTMLResponse)
def story_page(store: StoreDep, pages: PagesDep, story_id: str) -> Response:
    """One story; an id the story had before a merge answers 301 to its page now."""
    found = store.story(story_id) if is_id(story_id) else None
    if found is None:
        moved = store.story_redirect(story_id) if is_id(story_id) else None
        if moved is not None:
            return RedirectResponse(f"story-{moved}.html", status_code=MOVED_PERMANENTLY)
        return _not_found(pages, "story with this id")
    analyses = {a.article.id: a for a in store.analyses(found.article_ids)}
    spread = spread_of(store, (q.tracked_quote_id for q in found.quotes))
    return HTMLResponse(pages.story(found, analyses, spread))


@router.get("/quote-{tracked_id}.html", response_class=HTMLResponse)
def tracked_quote_page(store: StoreDep, pages: PagesDep, tracked_id: str) -> HTMLResponse:
    """One quote followed across stories (a unique id prefix is enough, as for stories)."""
    found = store.tracked_quote(tracked_id) if is_id(tracked_id) else None
    if found is None:
        return _not_found(pages, "quote with this id")
    titles = {r.id: r.title for r in store.story_summaries(story_ids=found.story_ids)}
    return HTMLResponse(pages.tracked_quote(found, titles, linked=set(titles)))


@router.get("/article-{article_id}.html", response_class=HTMLResponse)
def article_page(store: StoreDep, pages: PagesDep, article_id: str) -> HTMLResponse:
    """One article; a unique id prefix is enough, as for stories."""
    full_id = store.resolve_article_id(article_id) if is_id(article_id) else None
    analysis = next(iter(store.analyses([full_id])), None) if full_id else None
    if analysis is None:
        return _not_found(pages, "article with this id")
    story_id = store.story_of(analysis.article.id)
    story = store.story(story_id) if story_id else None
    return HTMLResponse(pages.article(analysis, story))


@router.get("/search", response_class=HTMLResponse)
def search_page(
    store: StoreDep,
    pages: PagesDep,
    q: Annotated[str, Query(max_length=MAX_QUERY_CHARS)] = "",
    offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
    limit: Annotated[int, Query(ge=1, le=MAX_SEARCH_HITS)] = SEARCH_PAGE_HITS,
) -> HTMLResponse:
    """One page of hits with the total and links to the previous and next pages."""
    found = store.search(q, limit, offset) if q.strip() else SearchPage(total=0, hits=[])
    hits = with_tracked_ids(store, [as_dict(h) for h in found.hits])
    spread = spread_of(store, (h["tracked_quote_id"] for h in hits))
    return HTMLResponse(
        pages.search(
            q,
            hits,
            total=found.total,
            offset=offset,
            limit=limit,
            spread=spread,
            profiles=store.find_profiles(q) if q.strip() and offset == 0 else [],
        )
    )
