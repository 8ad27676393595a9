"""Every page's ``.json`` and ``.csv`` twins: one function serves a page, its JSON and its CSV
with the same query parameters (datasette's convention: ``/stories``, ``/stories.json``,
``/stories.csv``).

How a page registers its twins::

    from .twins import Twin, twins

    @twins(router, "/speaker-{name}", summary="One speaker's quotes", tags=["quotes"])
    def speaker_page(store: StoreDep, name: str, year: str | None = None) -> Twin:
        return Twin(
            document=lambda: {...},             # the .json body (one page of rows)
            columns=("text", "outlet", "date"),  # the .csv header
            rows=lambda: store.list_rows(...),   # every row for the .csv, an iterator
            html=lambda pages: pages.env.get_template(...).render(...),  # the page
        )

The function's parameters (path, query and ``Depends``) are read by FastAPI as for any
endpoint, and are the same for the three routes: ``PATH`` (HTML, not in the OpenAPI document),
``PATH.json`` and ``PATH.csv`` (both documented). Each route calls only the part of the
``Twin`` it needs, so a CSV request never counts facets and a JSON request never renders.
The CSV is streamed (RFC 4180: CRLF line ends, fields quoted when needed, a header row) from
the ``rows`` iterator, so it holds one batch of rows in memory whatever the total; it has
every row the filters leave, where the page and the JSON have one page of them.
"""

import inspect
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, StreamingResponse

from ..render.html import Pages
from ..render.tables import csv_chunks
from .deps import web_pages
from .schemas import ErrorBody

# A request the page refuses with a reason (e.g. a cursor of another sort): documented on both
# twins, as a domain error becomes a 400 (``errors.py``).
REFUSED: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorBody, "description": "A request the page cannot answer (why, in detail)."}
}


@dataclass(frozen=True)
class Twin:
    """What a page with twins answers: each part is computed only when its route asks."""

    document: Callable[[], Mapping[str, Any]]
    columns: Sequence[str]
    rows: Callable[[], Iterable[Mapping[str, Any]]]
    html: Callable[[Pages], str]


class CsvResponse(StreamingResponse):
    media_type = "text/csv"


def _csv_name(path: str, params: Mapping[str, Any]) -> str:
    """The file name a browser saves the CSV as: the path's words and ids ("stories.csv")."""
    name = path.strip("/").format(**{k: v for k, v in params.items() if isinstance(v, str)})
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in name)
    return f"{safe or 'list'}.csv"


def _with_request(signature: inspect.Signature) -> inspect.Signature:
    """``signature`` with a leading ``request`` parameter (the routes need the app state)."""
    request = inspect.Parameter(
        "request", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=Request
    )
    return signature.replace(
        parameters=[request, *signature.parameters.values()],
        return_annotation=inspect.Signature.empty,  # a Twin is no response model
    )


def twins(
    router: APIRouter,
    path: str,
    *,
    summary: str,
    tags: Sequence[str] = (),
    description: str = "",
    response_model: Any = None,
) -> Callable[[Callable[..., Twin]], Callable[..., Twin]]:
    """Register ``path`` (HTML), ``path.json`` and ``path.csv``, all served by the decorated
    function (see the module's docstring)."""

    def register(make: Callable[..., Twin]) -> Callable[..., Twin]:
        signature = _with_request(inspect.signature(make, eval_str=True))

        def page(request: Request, **params: Any) -> HTMLResponse:
            return HTMLResponse(make(**params).html(web_pages(request)))

        def document(request: Request, **params: Any) -> JSONResponse:
            del request
            return JSONResponse(dict(make(**params).document()))

        def table(request: Request, **params: Any) -> CsvResponse:
            del request
            twin = make(**params)
            chunks: Iterator[str] = csv_chunks(twin.rows(), twin.columns)
            disposition = f'attachment; filename="{_csv_name(path, params)}"'
            return CsvResponse(chunks, headers={"Content-Disposition": disposition})

        endpoints: list[Any] = [page, document, table]
        for endpoint in endpoints:
            endpoint.__signature__ = signature  # FastAPI reads the parameters from here
            endpoint.__name__ = f"{make.__name__}_{endpoint.__name__}"
        name = make.__name__
        router.add_api_route(
            f"{path}.json",
            document,
            methods=["GET"],
            summary=f"{summary} (JSON)",
            description=description,
            tags=list(tags),
            operation_id=f"{name}_json",
            response_model=response_model,
            responses=REFUSED,
        )
        router.add_api_route(
            f"{path}.csv",
            table,
            methods=["GET"],
            summary=f"{summary} (CSV, every matching row)",
            description=description,
            tags=list(tags),
            operation_id=f"{name}_csv",
            response_class=CsvResponse,
            responses={200: {"content": {"text/csv": {"schema": {"type": "string"}}}}, **REFUSED},
        )
        # The page last: a path parameter of it ("/speaker-{name}") would match "x.json" too.
        router.add_api_route(
            path, page, methods=["GET"], response_class=HTMLResponse, include_in_schema=False
        )
        return make

    return register
