"""Errors at the HTTP edge: bad input is 400/422, a failing store is 503 (retry later).

The API always answers with JSON; a browser asking for a page that does not exist
(``Accept: text/html``, outside ``/api``) gets the site's HTML "not found" page.
"""

import json
from typing import Any

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..errors import NewsloomError, StoreError

# Field errors listed in a 422's one-line message (the full list is in `detail`).
MAX_FIELD_ERRORS = 5
# Field errors listed in a 422's `detail`: a body of thousands of bad fields is not echoed.
MAX_DETAIL_ERRORS = 50
# Characters of an invalid value a 422 echoes back: enough to recognise it, never the whole
# (up to --max-body bytes) body; a longer value is cut and ends with ELLIPSIS.
MAX_ECHO_CHARS = 200
ELLIPSIS = "…"
API_PREFIX = "/api/"


def field_message(errors: list[dict[str, Any]]) -> str:
    """'body.articles.0.text: Field required; ...' — where each problem is, then what."""
    parts = []
    for err in errors[:MAX_FIELD_ERRORS]:
        loc = [str(p) for p in err.get("loc", ())]
        if err.get("type") == "json_invalid":
            reason = (err.get("ctx") or {}).get("error", "")
            at = f" at character {loc[1]}" if len(loc) > 1 else ""
            parts.append(f"body: invalid JSON{at}" + (f" ({reason})" if reason else ""))
            continue
        parts.append(f"{'.'.join(loc)}: {err.get('msg', 'invalid')}")
    return "; ".join(parts)


def capped(value: Any) -> Any:
    """An echoed input as is when short, else its first MAX_ECHO_CHARS characters (as text)."""
    if value is None or isinstance(value, bool | int | float):
        return value
    shown = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    if len(shown) <= MAX_ECHO_CHARS:
        return value
    return shown[:MAX_ECHO_CHARS] + ELLIPSIS


def echoed(errors: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The field errors a 422 lists: at most MAX_DETAIL_ERRORS, each input capped."""
    return [
        {**err, "input": capped(err["input"])} if "input" in err else err
        for err in errors[:MAX_DETAIL_ERRORS]
    ]


async def invalid_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
    errors = jsonable_encoder(exc.errors())
    return JSONResponse(
        {"detail": echoed(errors), "message": field_message(errors)}, status_code=422
    )


def wants_html(request: Request) -> bool:
    """A browser asking for a page (not a client of the JSON API)."""
    accept = request.headers.get("accept", "")
    return "text/html" in accept and not request.url.path.startswith(API_PREFIX)


async def not_found_or_other(request: Request, exc: StarletteHTTPException) -> Response:
    """A browser gets the HTML "not found" page; everything else the JSON error."""
    if exc.status_code == 404 and wants_html(request):
        html = request.app.state.web.pages.not_found("page at this address")
        return HTMLResponse(html, status_code=404)
    return await http_exception_handler(request, exc)


async def store_failed(_request: Request, exc: StoreError) -> JSONResponse:
    """The database failed under the request: the request may well succeed later."""
    return JSONResponse({"detail": str(exc)}, status_code=503)


async def bad_request(_request: Request, exc: NewsloomError) -> JSONResponse:
    """Any other domain error is about the request (e.g. an ambiguous id prefix)."""
    return JSONResponse({"detail": str(exc)}, status_code=400)


def install_error_handlers(app: FastAPI) -> None:
    app.exception_handler(RequestValidationError)(invalid_request)
    app.exception_handler(StarletteHTTPException)(not_found_or_other)
    # Handlers are chosen by the exception's class hierarchy: StoreError before its base.
    app.exception_handler(StoreError)(store_failed)
    app.exception_handler(NewsloomError)(bad_request)
