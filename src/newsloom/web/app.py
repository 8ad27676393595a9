"""The FastAPI app: the report's pages served from a store, and a JSON API under /api.

Pages have the same names as in the static report (``index.html``, ``story-ID.html``,
``article-ID.html``) so the templates' relative links work in both. The API is described
at ``/openapi.json``. Writes (``POST /api/articles``) need ``Authorization: Bearer TOKEN``
when the app has a token, and are refused outright when ``writes_need_token`` is set without
one (the CLI sets it when the server listens beyond loopback).
"""

# No `from __future__ import annotations`: FastAPI reads the endpoint signatures at runtime,
# and the token dependency refers to a local of create_app.
import json
import math
import secrets
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from typing import Annotated, Any

from fastapi import Depends, FastAPI, HTTPException, Path, Query, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.staticfiles import StaticFiles
from starlette.routing import Match

from ..config import Settings
from ..errors import NewsloomError
from ..models import Story
from ..render.html import STATIC, Pages, Site, article_href
from ..store import SqlStore, open_store
from . import schemas as s
from .ingest import ingest_records

DEFAULT_MAX_BODY_BYTES = 2_000_000  # a POST of a few long articles fits; a stray upload does not
STORIES_PER_PAGE = 100
MAX_SEARCH_HITS = 200
MAX_OFFSET = 1_000_000_000  # SQL integers overflow at 2**63; no store has a billion rows
ID_PATTERN = r"^[0-9a-f]{1,32}$"
CSP = (
    "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; "
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class BodyLimit:
    """Requests with a body over ``max_bytes`` get a 413 before the app reads any of it."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            await self._too_large(send)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await self._too_large(send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        pending = [{"type": "http.request", "body": b"".join(chunks), "more_body": False}]

        async def replay() -> Message:
            return pending.pop() if pending else await receive()

        await self.app(scope, replay, send)

    async def _too_large(self, send: Send) -> None:
        body = json.dumps(
            {
                "detail": f"request body too large: the limit is {self.max_bytes} bytes; "
                "send fewer or shorter articles per request"
            }
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


class SecurityHeaders:
    """No sniffing, no framing, no referrer; a strict CSP on every response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def wrapped(message: Message) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                message["headers"] = list(message["headers"]) + [
                    (b"x-content-type-options", b"nosniff"),
                    (b"x-frame-options", b"DENY"),
                    (b"referrer-policy", b"no-referrer"),
                    (b"content-security-policy", CSP.encode()),
                ]
            await send(message)

        await self.app(scope, receive, wrapped)


class AllowHeader:
    """A 405 lists every method the path has, not only those of the first route matching it."""

    def __init__(self, app: ASGIApp, routes: Callable[[], list[Any]]) -> None:
        self.app = app
        self.routes = routes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def wrapped(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] == 405:
                methods: set[str] = set()
                for route in self.routes():
                    if getattr(route, "methods", None) and route.matches(scope)[0] != Match.NONE:
                        methods |= set(route.methods)
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"allow"]
                message["headers"] = headers + [(b"allow", ", ".join(sorted(methods)).encode())]
            await send(message)

        await self.app(scope, receive, wrapped)


def _field_message(errors: list[dict[str, Any]]) -> str:
    """'body.articles.0.text: Field required; ...' — where each problem is, then what."""
    parts = []
    for err in errors[:5]:
        loc = [str(p) for p in err.get("loc", ())]
        if err.get("type") == "json_invalid":
            reason = (err.get("ctx") or {}).get("error", "")
            at = f" at character {loc[1]}" if len(loc) > 1 else ""
            parts.append(f"body: invalid JSON{at}" + (f" ({reason})" if reason else ""))
            continue
        parts.append(f"{'.'.join(loc)}: {err.get('msg', 'invalid')}")
    return "; ".join(parts)


def create_app(
    store_url: str,
    token: str | None = None,
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    writes_need_token: bool = False,
    settings: Settings | None = None,
) -> FastAPI:
    """The web app over the store at ``store_url`` (opened once, closed on shutdown)."""
    store: SqlStore = open_store(store_url)
    settings = settings or Settings(db_url=store.url)
    pages = Pages(Site(mode="served"))
    write_lock = threading.Lock()  # one ingest at a time: the story index is read-modify-write

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        yield
        store.close()

    app = FastAPI(
        title="newsloom",
        version="1",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        description="Stories from news articles: who said what, posts, people, timeline. "
        "Pages at /, JSON under /api.",
    )
    bearer = HTTPBearer(
        auto_error=False, description="Needed for writes when the server has a token."
    )

    def writer(creds: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]) -> None:
        if token is None:
            if writes_need_token:
                raise HTTPException(
                    403,
                    "writes are disabled: this server listens beyond loopback "
                    "without a token; restart it with --token",
                )
            return
        if creds is None:
            raise HTTPException(
                401,
                "this endpoint needs `Authorization: Bearer TOKEN`",
                headers={"WWW-Authenticate": "Bearer"},
            )
        if not secrets.compare_digest(creds.credentials.encode(), token.encode()):
            raise HTTPException(403, "wrong token")

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = jsonable_encoder(exc.errors())
        return JSONResponse({"detail": errors, "message": _field_message(errors)}, status_code=422)

    @app.exception_handler(NewsloomError)
    async def domain_error(_request: Request, exc: NewsloomError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=400)

    def find_story(story_id: str) -> Story:
        found = store.story(story_id)
        if found is None:
            raise HTTPException(404, f"no story with id {story_id!r}")
        return found

    errors_404: dict[int | str, dict[str, Any]] = {404: {"model": s.ErrorBody}}

    # -- JSON API ------------------------------------------------------------------------

    @app.get("/api/stories", response_model=s.StoryList, tags=["stories"])
    def list_stories(
        q: Annotated[str | None, Query(max_length=500, description="Words to search for.")] = None,
        limit: Annotated[int, Query(ge=1, le=1000)] = 100,
        offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
    ) -> Any:
        """Stories, biggest first; with ``q``, the stories whose articles or quotes match."""
        if q is None:
            return {"total": store.count_stories(), "stories": store.story_summaries(limit, offset)}
        ranked = list(
            dict.fromkeys(h["story_id"] for h in store.search(q, MAX_SEARCH_HITS) if h["story_id"])
        )
        rows = {r["id"]: r for r in store.story_summaries(story_ids=ranked)}
        found = [rows[i] for i in ranked if i in rows]
        return {"total": len(found), "stories": found[offset : offset + limit]}

    @app.get(
        "/api/stories/{story_id}",
        response_model=Story,
        tags=["stories"],
        responses={
            **errors_404,
            400: {"model": s.ErrorBody, "description": "Ambiguous id prefix."},
        },
    )
    def get_story(story_id: Annotated[str, Path(pattern=ID_PATTERN)]) -> Any:
        """One story with everything consolidated (a unique id prefix is enough)."""
        return find_story(story_id)

    @app.get("/api/search", response_model=s.SearchResult, tags=["search"])
    def search(
        q: Annotated[str, Query(max_length=500, description="Words; every one must match.")],
        limit: Annotated[int, Query(ge=1, le=MAX_SEARCH_HITS)] = 20,
    ) -> Any:
        """Full-text search over article titles and texts, quotes and speakers."""
        hits = store.search(q, limit)
        for h in hits:
            h["url"] = article_href(
                h["article_id"], *((h["start"], h["end"]) if h["kind"] == "quote" else ())
            )
        return {"query": q, "hits": hits}

    @app.get("/api/quotes", response_model=list[s.QuoteRow], tags=["quotes"])
    def quotes(
        speaker: Annotated[
            str | None, Query(max_length=500, description="Exact name, any case.")
        ] = None,
        limit: Annotated[int, Query(ge=1, le=1000)] = 100,
        offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
    ) -> Any:
        """Quote mentions as each article words them, optionally of one speaker."""
        return store.quotes(speaker, limit, offset)

    @app.get("/api/speakers", response_model=list[s.SpeakerRow], tags=["quotes"])
    def speakers() -> Any:
        """Everyone quoted, with how many quotes and articles."""
        return store.speakers()

    @app.get("/api/posts", response_model=list[s.PostRow], tags=["posts"])
    def posts() -> Any:
        """Embedded social posts, one row per post with the articles embedding it."""
        return store.posts()

    @app.get("/api/people", response_model=list[s.PersonRow], tags=["people"])
    def people() -> Any:
        """People named in the articles, with the ages and roles stated."""
        return store.people()

    @app.get("/api/articles", response_model=list[s.ArticleRow], tags=["articles"])
    def articles(limit: Annotated[int, Query(ge=1, le=10000)] = 1000) -> Any:
        """Stored articles, newest first."""
        return store.articles(limit)

    @app.get(
        "/api/articles/{article_id}",
        response_model=s.ArticleText,
        responses=errors_404,
        tags=["articles"],
    )
    def article(article_id: Annotated[str, Path(pattern=ID_PATTERN)]) -> Any:
        """One article with its exact text (every offset in the API points into it)."""
        row = store.article_text(article_id)
        if row is None:
            raise HTTPException(404, f"no article with id {article_id!r}")
        return {**row, "story_id": store.story_of(article_id)}

    write_errors: dict[int | str, dict[str, Any]] = {
        code: {"model": s.ErrorBody} for code in (400, 401, 403, 413)
    }

    @app.post(
        "/api/articles",
        response_model=s.IngestResult,
        status_code=201,
        tags=["articles"],
        dependencies=[Depends(writer)],
        responses=write_errors,
    )
    def add_articles(body: s.IngestRequest) -> Any:
        """Analyse and store new articles and attach them to stories (stored ones are skipped)."""
        with write_lock:
            report = ingest_records(
                store, [a.model_dump(exclude_none=True) for a in body.articles], settings
            )
        return {
            "read": report.read,
            "added": report.added,
            "already_stored": report.already_stored,
            "skipped": [k.model_dump(include={"origin", "reason"}) for k in report.skipped],
            "article_ids": report.article_ids,
            "story_ids": [store.story_of(aid) for aid in report.article_ids],
        }

    # -- pages ---------------------------------------------------------------------------

    def not_found(what: str) -> HTMLResponse:
        return HTMLResponse(pages.not_found(what), status_code=404)

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    @app.get("/index.html", response_class=HTMLResponse, include_in_schema=False)
    def index(
        page: Annotated[int, Query(ge=1, le=MAX_OFFSET // STORIES_PER_PAGE)] = 1,
    ) -> HTMLResponse:
        total = store.count_stories()
        n_pages = max(1, math.ceil(total / STORIES_PER_PAGE))
        rows = store.story_summaries(STORIES_PER_PAGE, (page - 1) * STORIES_PER_PAGE)
        return HTMLResponse(pages.index(rows, total=total, page=page, pages=n_pages))

    @app.get("/story-{story_id}.html", response_class=HTMLResponse, include_in_schema=False)
    def story_page(story_id: str) -> HTMLResponse:
        found = store.story(story_id) if _is_id(story_id) else None
        if found is None:
            return not_found("story with this id")
        analyses = {a.article.id: a for a in store.analyses(found.article_ids)}
        return HTMLResponse(pages.story(found, analyses))

    @app.get("/article-{article_id}.html", response_class=HTMLResponse, include_in_schema=False)
    def article_page(article_id: str) -> HTMLResponse:
        analysis = next(iter(store.analyses([article_id])), None) if _is_id(article_id) else None
        if analysis is None:
            return not_found("article with this id")
        story_id = store.story_of(article_id)
        story = store.story(story_id) if story_id else None
        return HTMLResponse(pages.article(analysis, story))

    @app.get("/search", response_class=HTMLResponse, include_in_schema=False)
    def search_page(q: Annotated[str, Query(max_length=500)] = "") -> HTMLResponse:
        hits = store.search(q, 50) if q.strip() else []
        return HTMLResponse(pages.search(q, hits))

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_middleware(AllowHeader, routes=lambda: app.router.routes)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(BodyLimit, max_bytes=max_body_bytes)
    app.state.store = store
    return app


def _is_id(value: str) -> bool:
    return 0 < len(value) <= 32 and all(c in "0123456789abcdef" for c in value)
