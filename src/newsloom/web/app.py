"""The FastAPI app: the report's pages served from a store, and a JSON API under /api.

Pages have the same names as in the static report (``index.html``, ``story-ID.html``,
``article-ID.html``, ``quote-ID.html``) so the templates' relative links work in both. The API
is described at ``/openapi.json``. Writes (``POST /api/articles``) need ``Authorization:
Bearer TOKEN`` when the app has a token, and are refused outright when ``writes_need_token``
is set without one (the CLI sets it when the server listens beyond loopback). A request whose
``Host`` is not a loopback name, the address listened on or one of ``allowed_hosts`` gets a
400, so a page elsewhere cannot reach a loopback server through DNS rebinding. ``/docs`` lists
the endpoints.

The routes live in ``api.py`` (reads), ``ingest.py`` (writes), ``pages.py`` (HTML),
``profiles.py`` (speaker, outlet and person pages and their JSON), ``lists.py`` (the store's
lists with their ``.json`` and ``.csv`` twins, ``twins.py``) and ``docs.py`` (the endpoint
list); ``tracked.py`` finds the tracked quotes that search hits and story pages link to,
``errors.py`` maps errors to statuses, ``middleware.py`` holds the ASGI layers.
"""

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from ..config import Settings, load_settings
from ..render.html import STATIC, Pages, Site
from ..store import open_store
from . import api, docs, ingest, pages, profiles
from .deps import WebState
from .errors import install_error_handlers
from .lists import lists_router
from .middleware import AllowHeader, BodyLimit, HostCheck, SecurityHeaders, allowed_host_names

DEFAULT_MAX_BODY_BYTES = 2_000_000  # a POST of a few long articles fits; a stray upload does not


def create_app(
    store_url: str,
    token: str | None = None,
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    writes_need_token: bool = False,
    settings: Settings | None = None,
    host: str = "127.0.0.1",
    allowed_hosts: Sequence[str] = (),
) -> FastAPI:
    """The web app over the store at ``store_url`` (opened once, closed on shutdown).

    ``host`` is the address the server listens on; ``allowed_hosts`` are further names
    clients may send as ``Host`` (``*`` for any).
    """
    store = open_store(store_url)
    state = WebState(
        store=store,
        settings=settings or load_settings(db_url=store.url),
        pages=Pages(Site(mode="served")),
        token=token,
        writes_need_token=writes_need_token,
    )

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
    install_error_handlers(app)
    app.include_router(api.router)
    app.include_router(ingest.router)
    app.include_router(pages.router)
    app.include_router(profiles.router)
    app.include_router(lists_router())
    app.include_router(docs.router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_middleware(AllowHeader, routes=lambda: app.router.routes)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(BodyLimit, max_bytes=max_body_bytes)
    app.add_middleware(HostCheck, allowed=allowed_host_names(host, allowed_hosts))
    app.state.web = state
    app.state.store = store
    return app
