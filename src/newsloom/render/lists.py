"""A list page (``/stories``, ``/quotes`` ... of ``store/lists.py``): its table, its facets with
counts, its sort links, its pager and the links to its ``.json`` and ``.csv`` twins.

Every link keeps the request's other parameters: choosing a facet value or a sort starts again
from the first page (a cursor belongs to one sort and one set of filters); the twins carry
the same filters (the CSV without a cursor: it holds every matching row).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from ..store.listing import FacetCounts, ListPage, ListSpec
from ..store.lists import UNKNOWN_OUTLET, UNTRACKED_VARIANT
from .html import Pages, anchor

# The parameters that say where a page starts: dropped whenever the filters or sort change.
CURSORS = ("after", "before")


@dataclass(frozen=True)
class ListView:
    """How a list shows: its columns (key, heading) and the column linking to a row's page."""

    columns: Sequence[tuple[str, str]]
    link_column: str | None = None
    link: Callable[[Mapping[str, Any]], str | None] | None = None


VIEWS: dict[str, ListView] = {
    "stories": ListView(
        [
            ("title", "Story"),
            ("n_articles", "Articles"),
            ("n_outlets", "Outlets"),
            ("n_quotes", "Quotes"),
            ("n_conflicts", "Conflicts"),
            ("first_date", "First"),
            ("last_date", "Last"),
        ],
        "title",
        lambda row: f"story-{row['id']}.html",
    ),
    "quotes": ListView(
        [
            ("text", "Quote"),
            ("speaker", "Speaker"),
            ("mentions", "Mentions"),
            ("outlets", "Outlets"),
            ("stories", "Stories"),
            ("first_date", "First"),
            ("last_date", "Last"),
        ],
        "text",
        lambda row: f"quote-{row['id']}.html",
    ),
    "mentions": ListView(
        [
            ("text", "Quote"),
            ("speaker", "Speaker"),
            ("kind", "Kind"),
            ("variant", "Variant"),
            ("source", "Outlet"),
            ("published", "Date"),
        ],
        "text",
        lambda row: f"article-{row['article_id']}.html#{anchor(row['start'], row['end'])}",
    ),
    "speakers": ListView(
        [
            ("speaker", "Speaker"),
            ("quotes", "Quotes"),
            ("articles", "Articles"),
            ("kind", "Kind"),
            ("first_date", "First"),
            ("last_date", "Last"),
        ],
        "speaker",
        lambda row: "mentions?" + urlencode({"speaker": row["speaker"]}),
    ),
    "people": ListView(
        [
            ("name", "Name"),
            ("articles", "Articles"),
            ("mentions", "Mentions"),
            ("youngest_age", "Age (lowest)"),
            ("oldest_age", "Age (highest)"),
            ("first_date", "First"),
            ("last_date", "Last"),
        ],
        "name",
        lambda row: "articles?" + urlencode({"q": row["name"]}),
    ),
    "posts": ListView(
        [
            ("text", "Post"),
            ("platform", "Platform"),
            ("handle", "Handle"),
            ("date", "Date"),
            ("articles", "Articles"),
        ]
    ),
    "outlets": ListView(
        [
            ("outlet", "Outlet"),
            ("articles", "Articles"),
            ("stories", "Stories"),
            ("first_date", "First"),
            ("last_date", "Last"),
        ],
        "outlet",
        lambda row: "articles?" + urlencode({"outlet": row["outlet"]}),
    ),
    "articles": ListView(
        [("title", "Title"), ("source", "Outlet"), ("published", "Date"), ("format", "Format")],
        "title",
        lambda row: f"article-{row['id']}.html",
    ),
}
# Cells of these columns that are empty read as this (an outlet the store has no name for).
EMPTY_CELLS = {
    "outlet": UNKNOWN_OUTLET,
    "source": UNKNOWN_OUTLET,
    "title": "(untitled)",
    "variant": UNTRACKED_VARIANT,
}


def row_cells(item: Mapping[str, Any], view: ListView) -> list[dict[str, Any]]:
    """One row's cells as the table shows them: (column key, shown value, link or None)."""
    cells = []
    for key, _heading in view.columns:
        value = item.get(key)
        if value in (None, ""):
            value = EMPTY_CELLS.get(key, "")
        elif isinstance(value, float):
            value = f"{value:.2f}"
        link = view.link(item) if view.link and key == view.link_column else None
        cells.append({"key": key, "value": value, "href": link})
    return cells


def facets_document(facets: Sequence[FacetCounts]) -> list[dict[str, Any]]:
    """Facet counts as the ``.json`` twins hold them."""
    return [
        {
            "name": f.name,
            "label": f.label,
            "values": [
                {"value": v.value, "label": v.label, "count": v.count, "selected": v.selected}
                for v in f.values
            ],
            "counted": f.counted,
        }
        for f in facets
    ]


def href(name: str, params: Mapping[str, Any], **changes: Any) -> str:
    """``name?query`` with ``params`` changed by ``changes`` (None drops a parameter)."""
    merged = {**params, **changes}
    kept = {k: v for k, v in merged.items() if v not in (None, "")}
    return f"{name}?{urlencode(kept)}" if kept else name


def list_context(
    spec: ListSpec, params: Mapping[str, Any], found: ListPage, view: ListView
) -> dict[str, Any]:
    """Everything the template shows, hrefs made (see the module's docstring)."""
    name = spec.name
    restart = {c: None for c in CURSORS}
    current = found.sort.lstrip("-+")
    sorts = []
    for sort in spec.sorts:
        active = sort.name == current
        # A sort label without a sign runs in the sort's own direction.
        ascending = found.sort.startswith("+") or (sort.ascending and found.sort == sort.name)
        flip = ("-" if ascending else "+") + sort.name if active else sort.name
        sorts.append(
            {
                "name": sort.name,
                "active": active,
                "direction": ("ascending" if ascending else "descending") if active else "",
                "href": href(name, params, sort=flip, **restart),
            }
        )
    facets = [
        {
            "name": f.name,
            "label": f.label,
            "counted": f.counted,
            "values": [
                {
                    "label": v.label,
                    "count": v.count,
                    "selected": v.selected,
                    "href": href(
                        name, params, **{f.name: None if v.selected else v.value}, **restart
                    ),
                }
                for v in f.values
            ],
        }
        for f in found.facets
        if f.values or not f.counted
    ]
    rows = [row_cells(item, view) for item in found.items]
    filters = {k: v for k, v in params.items() if k in {f.name for f in spec.facets} and v}
    hidden = {k: v for k, v in params.items() if k in ("sort", "limit", "counts") or k in filters}
    return {
        "name": name,
        "title": spec.title,
        "total": found.total,
        "total_capped": found.total_capped,
        "columns": [heading for _key, heading in view.columns],
        "rows": rows,
        "facets": facets,
        "sorts": sorts,
        "hidden": {k: v for k, v in hidden.items() if v not in (None, "")},
        "q": params.get("q") or "",
        "since": params.get("since") or "",
        "until": params.get("until") or "",
        "chosen": [
            {"label": f"{k}: {v}", "href": href(name, params, **{k: None}, **restart)}
            for k, v in filters.items()
        ],
        "next_href": href(name, params, after=found.next, before=None) if found.next else None,
        "prev_href": href(name, params, before=found.prev, after=None) if found.prev else None,
        "first_href": href(name, params, **restart) if found.prev else None,
        "json_href": href(f"{name}.json", params),
        "csv_href": href(f"{name}.csv", params, **restart, limit=None),
    }


def list_html(pages: Pages, spec: ListSpec, params: Mapping[str, Any], found: ListPage) -> str:
    """The page of one list (``list.html``)."""
    context = list_context(spec, params, found, VIEWS[spec.name])
    return pages.env.get_template("list.html").render(site=pages.site, **context)
