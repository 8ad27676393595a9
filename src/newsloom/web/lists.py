"""The store's lists as pages with twins: ``/stories``, ``/quotes``, ``/mentions``,
``/speakers``, ``/people``, ``/posts``, ``/outlets``, ``/articles``, each with ``.json`` and
``.csv`` (``twins.py``), keyset-paginated, sortable, faceted and filtered by words
(``store/listing.py``).

The query parameters are the same on every list: ``q`` (words, the full-text index where the
list has one), ``sort`` (a name; ``-name`` descending, ``+name`` ascending), ``since`` and
``until`` (ISO dates), ``after`` / ``before`` (a cursor from a page's ``next`` / ``prev``),
``limit``, and one parameter per facet of the list (``outlet=Metro Wire``, ``year=2023`` ...).
"""

import inspect
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from pydantic import Field

from ..render.lists import facets_document, list_html
from ..store import LISTS, ListPage, ListQuery
from ..store.listing import ListSpec
from ..store.search import search_terms
from .api import MAX_QUERY_CHARS
from .deps import State, WebState
from .schemas import ApiModel
from .twins import Twin, twins

LIST_PAGE_ROWS = 50  # rows a page shows unless ``limit`` says otherwise
LIST_PAGE_MAX = 500  # rows a page (or a JSON page) holds at most
MAX_CURSOR_CHARS = 1000  # a cursor holds a sort value (a date, a count, a name) and a key
ISO_DATE = r"^(\d{4}(-\d{2}(-\d{2})?)?)?$"  # empty: no bound (a form's empty field)


class FacetValueOut(ApiModel):
    value: str = Field(..., description="What the facet's parameter takes to choose it.")
    label: str
    count: int
    selected: bool


class FacetOut(ApiModel):
    name: str = Field(..., description="The facet's query parameter.")
    label: str
    values: list[FacetValueOut]
    counted: bool = Field(
        ...,
        description="False when counting this facet did not fit the request's time budget "
        "(no values then): narrow the filters to have it counted.",
    )


class ListDocument(ApiModel):
    """One page of a list, with the total, the cursors around it and the facet counts."""

    name: str = Field(..., description="The list (its path).")
    total: int | None = Field(..., description="Matching rows (null when not counted).")
    total_capped: bool = Field(
        ...,
        description="True when counting every matching row did not fit the time budget: "
        "`total` is then a lower bound (at least that many).",
    )
    sort: str
    next: str | None = Field(..., description="Pass as `after` for the next page.")
    prev: str | None = Field(..., description="Pass as `before` for the previous page.")
    items: list[dict[str, Any]]
    facets: list[FacetOut]


def _sorts(spec: ListSpec) -> Any:
    names = [s.name for s in spec.sorts]
    return Literal[tuple(names + [f"-{n}" for n in names] + [f"+{n}" for n in names])]  # type: ignore[valid-type]


def _parameters(spec: ListSpec) -> list[inspect.Parameter]:
    """The query parameters of one list: the common ones, then one per facet."""

    def param(name: str, annotation: Any, default: Any = None) -> inspect.Parameter:
        return inspect.Parameter(
            name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation, default=default
        )

    text = Annotated[str | None, Query(max_length=MAX_QUERY_CHARS)]
    common = [
        param("state", State, inspect.Parameter.empty),
        param(
            "q",
            Annotated[
                str | None,
                Query(max_length=MAX_QUERY_CHARS, description="Words; every one must match."),
            ],
        ),
        param(
            "sort",
            Annotated[
                _sorts(spec) | None,
                Query(description="A sort; -name descending, +name ascending."),
            ],
        ),
        param("since", Annotated[str | None, Query(pattern=ISO_DATE, description="From date.")]),
        param("until", Annotated[str | None, Query(pattern=ISO_DATE, description="To date.")]),
        param(
            "after",
            Annotated[
                str | None,
                Query(max_length=MAX_CURSOR_CHARS, description="A page's `next` cursor."),
            ],
        ),
        param(
            "before",
            Annotated[
                str | None,
                Query(max_length=MAX_CURSOR_CHARS, description="A page's `prev` cursor."),
            ],
        ),
        param("limit", Annotated[int, Query(ge=1, le=LIST_PAGE_MAX)], LIST_PAGE_ROWS),
        param(
            "counts",
            Annotated[
                bool,
                Query(
                    description="Count the total and the facet values (false: the page alone; "
                    "counting costs time in proportion to the matching rows)."
                ),
            ],
            True,
        ),
    ]
    return common + [param(f.name, text) for f in spec.facets]


def _query(
    spec: ListSpec, params: dict[str, Any], budget_ms: int, counts: bool | None = None
) -> ListQuery:
    return ListQuery(
        facets={f.name: params[f.name] for f in spec.facets if params.get(f.name) is not None},
        since=params.get("since") or None,
        until=params.get("until") or None,
        words=search_terms(params.get("q") or ""),
        sort=params.get("sort"),
        after=params.get("after") or None,
        before=params.get("before") or None,
        limit=params.get("limit") or LIST_PAGE_ROWS,
        counts=params.get("counts", True) if counts is None else counts,
        count_budget_ms=budget_ms,
    )


def document(name: str, found: ListPage) -> dict[str, Any]:
    """A page as the ``.json`` twin answers it."""
    return {
        "name": name,
        "total": found.total,
        "total_capped": found.total_capped,
        "sort": found.sort,
        "next": found.next,
        "prev": found.prev,
        "items": found.items,
        "facets": facets_document(found.facets),
    }


def _register(router: APIRouter, name: str) -> None:
    spec = LISTS[name]()

    def endpoint(state: WebState, **params: Any) -> Twin:
        store, budget = state.store, state.settings.count_budget_ms
        query = _query(spec, params, budget)

        def shown(pages: Any) -> str:
            return list_html(pages, spec, params, store.list_page(name, query))

        return Twin(
            document=lambda: document(name, store.list_page(name, query)),
            columns=tuple(spec.columns),
            rows=lambda: store.list_rows(name, _query(spec, params, budget, counts=False)),
            html=shown,
        )

    endpoint.__name__ = f"list_{name}"
    endpoint.__signature__ = inspect.Signature(_parameters(spec))  # type: ignore[attr-defined]
    twins(
        router,
        f"/{name}",
        summary=f"{spec.title}: a page, sorted, faceted and filtered",
        tags=["lists"],
        description="Keyset pages: follow `next` / `prev` (cursors) with `after` / `before`. "
        "Facet counts come with each page; the CSV holds every matching row.",
        response_model=ListDocument,
    )(endpoint)


def lists_router() -> APIRouter:
    """Every list of ``LISTS`` with its twins."""
    router = APIRouter()
    for name in LISTS:
        _register(router, name)
    return router
