"""The static report's lists: ``stories.html``, ``quotes.html``, ``speakers.html``,
``people.html``, ``posts.html``, ``outlets.html`` and ``articles.html`` (the served lists of
``store/lists.py``), readable from ``file://`` without JavaScript.

Each is every row of its list in the list's default sort, ``STATIC_LIST_ROWS`` rows a file
(``speakers.html``, ``speakers-2.html`` ...) with a pager, and beside it ``speakers.csv`` and
``speakers.json``: the columns of the served ``.csv`` and ``.json`` twins, every row (the JSON
is the served document with every row as its ``items``). A row links to the report's page of
it (story, tracked quote, speaker, person, outlet or article) when the report wrote one, and
is plain text otherwise. The facet counts are shown as they are, a summary: with no server
there is nothing to filter (``newsloom serve`` filters).

The rows are read once, through the store's streamed export (one server-side cursor), and go
to the three files as they come: memory holds one page of rows, whatever the list's size.
"""

from __future__ import annotations

import csv
import json
import os
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol, TextIO

from ..store.listing import ListPage, ListQuery
from ..store.lists import LISTS
from .html import LIST_NAV, Pages, article_href, quote_href, story_href
from .json import write_atomic
from .lists import VIEWS, ListView, facets_document, row_cells
from .profiles import OUTLET, PERSON, SPEAKER, profile_href, profile_key
from .tables import csv_cell

# The lists a report writes: the served app's (its navigation's). The quote mentions are left
# out: each tracked quote's page lists its mentions.
STATIC_LISTS = tuple(name for name, _label in LIST_NAV)
# Rows one list file holds: the served app's largest page (``web/lists.LIST_PAGE_MAX``); a
# 500-row table is some 100-200 kB of HTML, which a browser shows at once from disk.
STATIC_LIST_ROWS = 500

Row = Mapping[str, Any]


class ListSource(Protocol):
    """What the list files read from a store (``SqlStore`` has both)."""

    def list_page(self, name: str, query: ListQuery) -> ListPage: ...

    def list_rows(self, name: str, query: ListQuery) -> Iterator[dict[str, Any]]: ...


def list_file(name: str, number: int) -> str:
    """The file of page ``number`` (from 1) of a list: ``speakers.html``, ``speakers-2.html``."""
    return f"{name}.html" if number == 1 else f"{name}-{number}.html"


def _profile(kind: str, column: str) -> Callable[[Row], str | None]:
    def link(row: Row) -> str | None:
        key = profile_key(kind, row.get(column))
        return profile_href(kind, key) if key else None

    return link


# Where a row of each list links in a report (when that page was written).
PAGE_OF_ROW: dict[str, Callable[[Row], str | None]] = {
    "stories": lambda row: story_href(row["id"]),
    "quotes": lambda row: quote_href(row["id"]),
    "speakers": _profile(SPEAKER, "speaker"),
    "people": _profile(PERSON, "name"),
    "outlets": _profile(OUTLET, "outlet"),
    "articles": lambda row: article_href(row["id"]),
}


def static_view(name: str, out_dir: Path) -> ListView:
    """The served list's columns, each row linked to its page in ``out_dir`` if there is one."""
    served = VIEWS[name]
    page_of = PAGE_OF_ROW.get(name)
    if page_of is None:
        return ListView(served.columns)

    def link(row: Row) -> str | None:
        href = page_of(row)
        return href if href and (out_dir / href).is_file() else None

    return ListView(served.columns, served.link_column, link)


def write_static_lists(
    store: ListSource, out_dir: Path, pages: Pages, rows_per_file: int = STATIC_LIST_ROWS
) -> dict[str, int]:
    """Write every list of ``STATIC_LISTS`` into ``out_dir`` (after the pages its rows link
    to); the number of rows of each list."""
    return {name: _write_list(store, out_dir, pages, name, rows_per_file) for name in STATIC_LISTS}


def _write_list(
    store: ListSource, out_dir: Path, pages: Pages, name: str, rows_per_file: int
) -> int:
    spec = LISTS[name]()
    counted = store.list_page(name, ListQuery(limit=1))
    total = counted.total or 0
    n_files = max(1, -(-total // rows_per_file))
    view = static_view(name, out_dir)
    sort = spec.sort(None)
    context = {
        "name": name,
        "title": spec.title,
        "total": total,
        "pages": n_files,
        "columns": [heading for _key, heading in view.columns],
        "sort": f"{sort.name} ({'ascending' if sort.ascending else 'descending'})",
        "facets": [f for f in facets_document(counted.facets) if f["values"]],
    }
    template = pages.env.get_template("static_list.html")
    header = {
        "name": name,
        "total": total,
        "sort": counted.sort,
        "next": None,
        "prev": None,
        "facets": facets_document(counted.facets),
    }
    columns = list(spec.columns)
    written = 0
    number = 1
    with (
        _atomic_text(out_dir / f"{name}.csv", newline="") as table,
        _atomic_text(out_dir / f"{name}.json") as document,
    ):
        writer = csv.writer(table, lineterminator="\r\n")
        writer.writerow(columns)
        document.write(json.dumps(header, ensure_ascii=False)[:-1] + ', "items": [')
        batch: list[Row] = []
        for row in store.list_rows(name, ListQuery(counts=False)):
            writer.writerow([csv_cell(row.get(col)) for col in columns])
            document.write(("," if written else "") + "\n" + json.dumps(row, ensure_ascii=False))
            written += 1
            batch.append(row)
            if len(batch) == rows_per_file:
                _write_page(out_dir, template, pages, context, number, batch, view, written)
                number, batch = number + 1, []
        document.write("\n]}\n")
        if batch or number == 1:
            _write_page(out_dir, template, pages, context, number, batch, view, written)
        else:
            number -= 1
    _remove_stale_pages(out_dir, name, number)
    return written


def _write_page(
    out_dir: Path,
    template: Any,
    pages: Pages,
    context: Mapping[str, Any],
    number: int,
    rows: Sequence[Row],
    view: ListView,
    written: int,
) -> None:
    last = context["pages"]
    html = template.render(
        site=pages.site,
        **context,
        page=number,
        first_row=written - len(rows) + 1 if rows else 0,
        last_row=written,
        rows=[row_cells(row, view) for row in rows],
        first_href=list_file(context["name"], 1) if number > 1 else None,
        prev_href=list_file(context["name"], number - 1) if number > 1 else None,
        next_href=list_file(context["name"], number + 1) if number < last else None,
        last_href=list_file(context["name"], last) if number < last else None,
    )
    write_atomic(out_dir / list_file(context["name"], number), html)


def _remove_stale_pages(out_dir: Path, name: str, pages: int) -> None:
    """Pages an earlier report of a longer list left (``name-N.html`` with N > ``pages``)."""
    pattern = re.compile(rf"{re.escape(name)}-(\d+)\.html")
    for path in out_dir.glob(f"{name}-*.html"):
        found = pattern.fullmatch(path.name)
        if found and int(found.group(1)) > pages:
            path.unlink()


@contextmanager
def _atomic_text(path: Path, newline: str | None = None) -> Iterator[TextIO]:
    """A text file written under a temporary name and renamed when complete: readers never
    see half a file, and an error leaves the old one."""
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        with tmp.open("w", encoding="utf-8", newline=newline) as handle:
            yield handle
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
