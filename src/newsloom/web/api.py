"""The read-only JSON API under /api: stories, search, quotes (mentions and tracked quotes),
speakers, posts, people, articles.

Endpoint names are part of the OpenAPI document (its operation ids), so they stay as they are.
"""

from collections.abc import Sequence
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Path, Query
from fastapi.responses import RedirectResponse

from ..models import Story, TrackedQuote, TrackedVariant
from ..render.html import article_href
from ..store import as_dict
from . import schemas as s
from .deps import StoreDep, is_id
from .tracked import with_tracked_ids

PAGE_MAX = 1000  # stories or quotes per API page
ARTICLES_MAX = 10_000  # article rows per listing (a row is small: no text)
MAX_SEARCH_HITS = 200  # hits ranked to find the stories matching a query
MAX_QUERY_CHARS = 500  # a query longer than a paragraph is a mistake or an attack
MAX_OFFSET = 1_000_000_000  # SQL integers overflow at 2**63; no store has a billion rows
MOVED_PERMANENTLY = 301  # an old story id (merged away): the story lives on under another id

ERRORS_404: dict[int | str, dict[str, Any]] = {404: {"model": s.ErrorBody}}
ERRORS_400: dict[int | str, dict[str, Any]] = {
    400: {"model": s.ErrorBody, "description": "Ambiguous id prefix."}
}

IdParam = Annotated[str, Path(description="An id, or a unique prefix of one (hex digits).")]

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
        return {"total": store.count_stories(), "items": [as_dict(r) for r in rows]}
    hits = store.search(q, MAX_SEARCH_HITS).hits
    ranked = list(dict.fromkeys(h.story_id for h in hits if h.story_id))
    by_id = {r.id: r for r in store.story_summaries(story_ids=ranked)}
    found = [as_dict(by_id[i]) for i in ranked if i in by_id]
    return {"total": len(found), "items": found[offset : offset + limit]}


@router.get(
    "/api/stories/{story_id}",
    response_model=Story,
    tags=["stories"],
    responses={
        **ERRORS_404,
        **ERRORS_400,
        MOVED_PERMANENTLY: {"description": "An old id: Location holds the story's id now."},
    },
)
def get_story(store: StoreDep, story_id: IdParam) -> Any:
    """One story with everything consolidated (a unique id prefix is enough). An id the story
    had before it was merged into another answers 301 with the story's id now."""
    found = store.story(story_id) if is_id(story_id) else None
    if found is None:
        moved = store.story_redirect(story_id) if is_id(story_id) else None
        if moved is not None:  # relative: /api/stories/OLD -> /api/stories/NEW
            return RedirectResponse(moved, status_code=MOVED_PERMANENTLY)
        raise HTTPException(404, f"no story with id {story_id!r}")
    return found


@router.get("/api/search", response_model=s.SearchResult, tags=["search"])
def search(
    store: StoreDep,
    q: Annotated[
        str, Query(max_length=MAX_QUERY_CHARS, description="Words; every one must match.")
    ],
    limit: Annotated[int, Query(ge=1, le=MAX_SEARCH_HITS)] = 20,
    offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
) -> Any:
    """Full-text search over article titles and texts, quotes and speakers: one page of hits."""
    found = store.search(q, limit, offset)
    hits = [
        {
            **as_dict(h),
            "url": article_href(h.article_id, *((h.start, h.end) if h.kind == "quote" else ())),
        }
        for h in found.hits
    ]
    return {"total": found.total, "items": with_tracked_ids(store, hits), "query": q}


@router.get("/api/quotes", response_model=s.QuoteList, tags=["quotes"])
def quotes(
    store: StoreDep,
    speaker: Annotated[
        str | None, Query(max_length=MAX_QUERY_CHARS, description="Exact name, any case.")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=PAGE_MAX)] = 100,
    offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
) -> Any:
    """Quote mentions as each article words them, optionally of one speaker."""
    rows = store.quotes(speaker, limit, offset)
    return {"total": store.count_quotes(speaker), "items": [as_dict(r) for r in rows]}


@router.get(
    "/api/quotes/{tracked_id}",
    response_model=TrackedQuote,
    tags=["quotes"],
    responses={**ERRORS_404, **ERRORS_400},
)
def get_tracked_quote(store: StoreDep, tracked_id: IdParam) -> Any:
    """One quote followed across stories and time (a tracked quote; a unique id prefix is
    enough): its canonical wording, speaker, first seen, every mention with its variant against
    the canonical wording, and the evidence of each link between stories."""
    found = store.tracked_quote(tracked_id) if is_id(tracked_id) else None
    if found is None:
        raise HTTPException(
            404,
            f"no tracked quote with id {tracked_id!r} (ids are listed by /api/tracked-quotes; "
            "a story's quotes name theirs in tracked_quote_id)",
        )
    return found


@router.get("/api/tracked-quotes", response_model=s.TrackedQuoteList, tags=["quotes"])
def tracked_quotes(
    store: StoreDep,
    speaker: Annotated[
        str | None, Query(max_length=MAX_QUERY_CHARS, description="Exact name, any case.")
    ] = None,
    q: Annotated[
        str | None,
        Query(max_length=MAX_QUERY_CHARS, description="Words in the canonical wording, any case."),
    ] = None,
    limit: Annotated[int, Query(ge=1, le=PAGE_MAX)] = 100,
    offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
    variant: Annotated[
        TrackedVariant | None,
        Query(description="Only quotes with a mention worded so (truncated, censored ...)."),
    ] = None,
) -> Any:
    """Quotes followed across stories (tracked quotes), most mentioned first."""
    rows = store.tracked_quotes(speaker, q, limit, offset, variant=variant)
    total = store.count_tracked_quotes(speaker, q, variant)
    return {"total": total, "items": [as_dict(r) for r in rows]}


def _everything(rows: Sequence[Any]) -> dict[str, Any]:
    """A list endpoint that answers with all its rows at once."""
    return {"total": len(rows), "items": [as_dict(r) for r in rows]}


@router.get("/api/speakers", response_model=s.SpeakerList, tags=["quotes"])
def speakers(store: StoreDep) -> Any:
    """Everyone quoted, with how many quotes and articles."""
    return _everything(store.speakers())


@router.get("/api/posts", response_model=s.PostList, tags=["posts"])
def posts(store: StoreDep) -> Any:
    """Embedded social posts, one row per post with the articles embedding it."""
    return _everything(store.posts())


@router.get("/api/people", response_model=s.PersonList, tags=["people"])
def people(store: StoreDep) -> Any:
    """People named in the articles, with the ages and roles stated."""
    return _everything(store.people())


@router.get("/api/articles", response_model=s.ArticleList, tags=["articles"])
def articles(
    store: StoreDep,
    limit: Annotated[int, Query(ge=1, le=ARTICLES_MAX)] = 1000,
    offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
) -> Any:
    """Stored articles, newest first."""
    rows = store.articles(limit, offset)
    return {"total": store.count_articles(), "items": [as_dict(r) for r in rows]}


@router.get(
    "/api/articles/{article_id}",
    response_model=s.ArticleText,
    responses={**ERRORS_404, **ERRORS_400},
    tags=["articles"],
)
def article(store: StoreDep, article_id: IdParam) -> Any:
    """One article with its exact text (every offset in the API points into it).

    A unique id prefix is enough, as for stories.
    """
    full_id = store.resolve_article_id(article_id) if is_id(article_id) else None
    row = store.article_text(full_id) if full_id else None
    if row is None:
        raise HTTPException(404, f"no article with id {article_id!r}")
    return {**as_dict(row), "story_id": store.story_of(row.id)}
