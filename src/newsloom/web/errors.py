"""Errors at the HTTP edge: bad input is 400/422, a failing store is 503 (retry later)."""

from typing import Any

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from ..errors import NewsloomError, StoreError

# Field errors listed in a 422's one-line message (the full list is in `detail`).
MAX_FIELD_ERRORS = 5


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


async def invalid_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
    errors = jsonable_encoder(exc.errors())
    return JSONResponse({"detail": errors, "message": field_message(errors)}, status_code=422)


async def store_failed(_request: Request, exc: StoreError) -> JSONResponse:
    """The database failed under the request: the request may well succeed later."""
    return JSONResponse({"detail": str(exc)}, status_code=503)


async def bad_request(_request: Request, exc: NewsloomError) -> JSONResponse:
    """Any other domain error is about the request (e.g. an ambiguous id prefix)."""
    return JSONResponse({"detail": str(exc)}, status_code=400)


def install_error_handlers(app: FastAPI) -> None:
    app.exception_handler(RequestValidationError)(invalid_request)
    # Handlers are chosen by the exception's class hierarchy: StoreError before its base.
    app.exception_handler(StoreError)(store_failed)
    app.exception_handler(NewsloomError)(bad_request)
