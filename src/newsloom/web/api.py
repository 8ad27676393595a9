"""The read-only JSON API under /api: stories, search, quotes, speakers, posts, people, articles.

Endpoint names are part of the OpenAPI document (its operation ids), so they stay as they are.
"""

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Path, Query

from ..models import Story
from ..render.html import article_href
from ..store import as_dict
from . import schemas as s
from .deps import StoreDep

PAGE_MAX = 1000  # stories or quotes per API page
ARTICLES_MAX = 10_000  # article rows per listing (a row is small: no text)
MAX_SEARCH_HITS = 200  # hits ranked to find the stories matching a query
MAX_QUERY_CHARS = 500  # a query longer than a paragraph is a mistake or an attack
MAX_OFFSET = 1_000_000_000  # SQL integers overflow at 2**63; no store has a billion rows
ID_PATTERN = r"^[0-9a-f]{1,32}$"

ERRORS_404: dict[int | str, dict[str, Any]] = {404: {"model": s.ErrorBody}}

router = APIRouter()


@router.get("/api/stories", response_model=s.StoryList, tags=["stories"])
def list_stories(
    store: StoreDep,
    q: Annotated[
        str | None, Query(max_length=MAX_QUERY_CHARS, description="Words to search for.")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=PAGE_MAX)] = 100,
    offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
) -> Any:
    """Stories, biggest first; with ``q``, the stories whose articles or quotes match."""
    if q is None:
        rows = store.story_summaries(limit, offset)
        return {"total": store.count_stories(), "stories": [as_dict(r) for r in rows]}
    hits = store.search(q, MAX_SEARCH_HITS)
    ranked = list(dict.fromkeys(h.story_id for h in hits if h.story_id))
    by_id = {r.id: r for r in store.story_summaries(story_ids=ranked)}
    found = [as_dict(by_id[i]) for i in ranked if i in by_id]
    return {"total": len(found), "stories": found[offset : offset + limit]}


@router.get(
    "/api/stories/{story_id}",
    response_model=Story,
    tags=["stories"],
    responses={
        **ERRORS_404,
        400: {"model": s.ErrorBody, "description": "Ambiguous id prefix."},
    },
)
def get_story(store: StoreDep, story_id: Annotated[str, Path(pattern=ID_PATTERN)]) -> Any:
    """One story with everything consolidated (a unique id prefix is enough)."""
    found = store.story(story_id)
    if found is None:
        raise HTTPException(404, f"no story with id {story_id!r}")
    return found


@router.get("/api/search", response_model=s.SearchResult, tags=["search"])
def search(
    store: StoreDep,
    q: Annotated[
        str, Query(max_length=MAX_QUERY_CHARS, description="Words; every one must match.")
    ],
    limit: Annotated[int, Query(ge=1, le=MAX_SEARCH_HITS)] = 20,
) -> Any:
    """Full-text search over article titles and texts, quotes and speakers."""
    hits = [
        {
            **as_dict(h),
            "url": article_href(h.article_id, *((h.start, h.end) if h.kind == "quote" else ())),
        }
        for h in store.search(q, limit)
    ]
    return {"query": q, "hits": hits}


@router.get("/api/quotes", response_model=list[s.QuoteRow], tags=["quotes"])
def quotes(
    store: StoreDep,
    speaker: Annotated[
        str | None, Query(max_length=MAX_QUERY_CHARS, description="Exact name, any case.")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=PAGE_MAX)] = 100,
    offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
) -> Any:
    """Quote mentions as each article words them, optionally of one speaker."""
    return [as_dict(r) for r in store.quotes(speaker, limit, offset)]


@router.get("/api/speakers", response_model=list[s.SpeakerRow], tags=["quotes"])
def speakers(store: StoreDep) -> Any:
    """Everyone quoted, with how many quotes and articles."""
    return [as_dict(r) for r in store.speakers()]


@router.get("/api/posts", response_model=list[s.PostRow], tags=["posts"])
def posts(store: StoreDep) -> Any:
    """Embedded social posts, one row per post with the articles embedding it."""
    return [as_dict(r) for r in store.posts()]


@router.get("/api/people", response_model=list[s.PersonRow], tags=["people"])
def people(store: StoreDep) -> Any:
    """People named in the articles, with the ages and roles stated."""
    return [as_dict(r) for r in store.people()]


@router.get("/api/articles", response_model=list[s.ArticleRow], tags=["articles"])
def articles(store: StoreDep, limit: Annotated[int, Query(ge=1, le=ARTICLES_MAX)] = 1000) -> Any:
    """Stored articles, newest first."""
    return [as_dict(r) for r in store.articles(limit)]


@router.get(
    "/api/articles/{article_id}",
    response_model=s.ArticleText,
    responses=ERRORS_404,
    tags=["articles"],
)
def article(store: StoreDep, article_id: Annotated[str, Path(pattern=ID_PATTERN)]) -> Any:
    """One article with its exact text (every offset in the API points into it)."""
    row = store.article_text(article_id)
    if row is None:
        raise HTTPException(404, f"no article with id {article_id!r}")
    return {**as_dict(row), "story_id": store.story_of(article_id)}
