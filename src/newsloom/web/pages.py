"""The HTML pages, named as in the static report (``index.html``, ``story-ID.html`` ...)."""

import math
from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import HTMLResponse

from ..render.html import Pages
from ..store import as_dict
from .api import MAX_OFFSET, MAX_QUERY_CHARS
from .deps import PagesDep, StoreDep

STORIES_PER_PAGE = 100
SEARCH_PAGE_HITS = 50  # hits a search page shows (one screenful of snippets or so)
MAX_ID_CHARS = 32  # ids are hex digests cut to at most this many characters
HEX = frozenset("0123456789abcdef")

router = APIRouter(include_in_schema=False)


def _is_id(value: str) -> bool:
    return 0 < len(value) <= MAX_ID_CHARS and all(c in HEX for c in value)


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
    html = pages.index([as_dict(r) for r in rows], total=total, page=page, pages=n_pages)
    return HTMLResponse(html)


@router.get("/story-{story_id}.html", response_class=HTMLResponse)
def story_page(store: StoreDep, pages: PagesDep, story_id: str) -> HTMLResponse:
    found = store.story(story_id) if _is_id(story_id) else None
    if found is None:
        return _not_found(pages, "story with this id")
    analyses = {a.article.id: a for a in store.analyses(found.article_ids)}
    return HTMLResponse(pages.story(found, analyses))


@router.get("/article-{article_id}.html", response_class=HTMLResponse)
def article_page(store: StoreDep, pages: PagesDep, article_id: str) -> HTMLResponse:
    analysis = next(iter(store.analyses([article_id])), None) if _is_id(article_id) else None
    if analysis is None:
        return _not_found(pages, "article with this id")
    story_id = store.story_of(article_id)
    story = store.story(story_id) if story_id else None
    return HTMLResponse(pages.article(analysis, story))


@router.get("/search", response_class=HTMLResponse)
def search_page(
    store: StoreDep, pages: PagesDep, q: Annotated[str, Query(max_length=MAX_QUERY_CHARS)] = ""
) -> HTMLResponse:
    hits = store.search(q, SEARCH_PAGE_HITS) if q.strip() else []
    return HTMLResponse(pages.search(q, [as_dict(h) for h in hits]))
