"""The list engine: keyset pages, sorts, facets counted in SQL and word filters over any list.

A list (``ListSpec``, declared in ``lists.py``) is a FROM clause (a table, a join or a grouped
subquery) with named output columns, a unique key, the sorts it offers, its facets and how
words filter it. A request (``ListQuery``) picks facet values, a date range, words, a sort and
a position; ``page`` answers with one page, the total, the facet counts and the cursors of the
pages around it.

Pages are keyset pages, never OFFSET: a cursor carries the sort value and the key of the row
a page starts after (or before), and the next page is ``WHERE (sort, key) > cursor ORDER BY
sort, key LIMIT n`` — an index range scan, so page 1,000 costs what page 1 costs. The key
runs in the sort's direction, so one index on (sort, key) serves both directions. A cursor is
opaque to clients (base64 of JSON) and names its sort, so a cursor made under another sort is
refused rather than misread. Sort expressions are never NULL (the lists coalesce them), so
comparing them needs no NULL rules, which SQLite and PostgreSQL order differently.

A facet is a value of each row (``value``), or for a row with many values (a story's outlets)
a ``link``: a select of ``(key, value)`` pairs, filtered as ``EXISTS (a pair of this row's
key and the value)``. Counts are one ``GROUP BY`` per facet over the rows the other filters
leave (a facet's own choice is left out of its counts, so the other values stay visible to
switch to); they, and the total, cost time in proportion to those rows, where a page does not.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, and_, case, exists, func, literal, or_, select

from ..errors import ListQueryError

# Distinct values a facet lists, most frequent first: enough to pick an outlet or a speaker
# from a sidebar; the rest are reached through the words filter.
FACET_VALUES = 20
# A facet value that is NULL or empty in the store is listed (and chosen) as this.
NO_VALUE = ""
# Rows a streamed export reads per round trip (server-side cursor): memory stays flat.
STREAM_ROWS = 1000

# A words filter: (dialect name, the query's words) -> a WHERE clause on the list's rows.
WordsFilter = Callable[[str, Sequence[str]], Any]


@dataclass(frozen=True)
class Sort:
    """A sort a list offers: ``column`` (never NULL), descending first unless ``ascending``."""

    name: str
    column: Any
    ascending: bool = False


@dataclass(frozen=True)
class Facet:
    """Rows counted and filtered by one value each (``value``), or by many (``link``: a
    select with a ``key`` column holding the list's key and a ``value`` column)."""

    name: str
    label: str
    value: Any = None
    link: Any = None
    # How a value reads (e.g. an empty outlet reads "unknown outlet").
    empty_label: str = "(none)"


@dataclass(frozen=True)
class ListSpec:
    name: str
    title: str
    source: Any  # a FROM clause: a table, a join or a subquery
    columns: Mapping[str, Any]  # output name -> expression, in output order
    key: Sequence[Any]  # unique over the rows; the keyset's tie-break
    sorts: Sequence[Sort]  # the first is the default
    facets: Sequence[Facet] = ()
    date: Any = None  # the ISO date the range filter (``since``/``until``) applies to
    words: WordsFilter | None = None
    base_filter: Any = None  # a WHERE every request of the list carries

    def sort(self, name: str | None) -> Sort:
        for sort in self.sorts:
            if sort.name == name:
                return sort
        if name is None:
            return self.sorts[0]
        raise ListQueryError(
            f"the {self.name} list has no sort {name!r}; "
            f"sorts: {', '.join(s.name for s in self.sorts)}"
        )

    def facet(self, name: str) -> Facet:
        for facet in self.facets:
            if facet.name == name:
                return facet
        raise ListQueryError(
            f"the {self.name} list has no facet {name!r}; "
            f"facets: {', '.join(f.name for f in self.facets) or 'none'}"
        )


@dataclass(frozen=True)
class ListQuery:
    """What one request asks of a list. ``sort`` may start with ``-`` (descending) or ``+``."""

    facets: Mapping[str, str] = field(default_factory=dict)
    since: str | None = None
    until: str | None = None
    words: Sequence[str] = ()
    sort: str | None = None
    after: str | None = None
    before: str | None = None
    limit: int = 50
    counts: bool = True  # facet counts and the total (an export needs neither)


@dataclass(frozen=True)
class FacetValue:
    value: str
    label: str
    count: int
    selected: bool


@dataclass(frozen=True)
class FacetCounts:
    name: str
    label: str
    values: list[FacetValue]


@dataclass(frozen=True)
class ListPage:
    """One page: the rows (dicts in the list's column order), how many rows match in all
    (None when not counted), the cursors of the next and previous pages (None at an end),
    the facet counts and the sort used (``-name`` when descending)."""

    items: list[dict[str, Any]]
    total: int | None
    next: str | None
    prev: str | None
    facets: list[FacetCounts]
    sort: str


# -- the sort and the cursor ------------------------------------------------------------------


def _direction(spec: ListSpec, asked: str | None) -> tuple[Sort, bool]:
    """The sort and whether it runs ascending."""
    if asked and asked[0] in "+-":
        sort = spec.sort(asked[1:])
        return sort, asked[0] == "+"
    sort = spec.sort(asked)
    return sort, sort.ascending


def sort_label(sort: Sort, ascending: bool) -> str:
    return sort.name if ascending == sort.ascending else ("" if ascending else "-") + sort.name


def encode_cursor(sort: str, values: Sequence[Any]) -> str:
    raw = json.dumps([sort, *values], separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str, sort: str, width: int) -> list[Any]:
    """The values a cursor holds; a ListQueryError when it is no cursor of this sort."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        decoded = json.loads(raw)
    except (binascii.Error, ValueError) as exc:
        raise ListQueryError(f"the cursor {cursor[:40]!r} is not one this list made") from exc
    if not isinstance(decoded, list) or len(decoded) != width + 1 or decoded[0] != sort:
        raise ListQueryError(
            f"the cursor {cursor[:40]!r} belongs to another sort or list; start from the first "
            "page of this sort"
        )
    if not all(isinstance(v, str | int | float) and not isinstance(v, bool) for v in decoded[1:]):
        raise ListQueryError(f"the cursor {cursor[:40]!r} is not one this list made")
    return decoded[1:]


def _beyond(columns: Sequence[tuple[Any, bool]], values: Sequence[Any]) -> Any:
    """Rows strictly after ``values`` in the order ``columns`` (expression, ascending) give:
    ``c0 >= v0 AND (c0 > v0 OR <the same for the rest>)``, which an index on the columns
    serves as a range (a plain OR chain would not be)."""
    (column, ascending), value = columns[0], values[0]
    strict = column > value if ascending else column < value
    if len(columns) == 1:
        return strict
    loose = column >= value if ascending else column <= value
    return and_(loose, or_(strict, _beyond(columns[1:], values[1:])))


# -- filters -----------------------------------------------------------------------------------


def _is(column: Any, value: str) -> Any:
    """``column`` equals ``value``; NO_VALUE also matches NULL (the counts list both as one)."""
    return or_(column == value, column.is_(None)) if value == NO_VALUE else column == value


def _facet_filter(facet: Facet, value: str, key: Any) -> Any:
    """A row has the value: EXISTS on the link for a many-valued facet (correlated, so a page
    read in its sort's index order probes each row it passes and stops at the page's end,
    where ``key IN (...)`` would gather every matching key and sort them first)."""
    if facet.link is not None:
        link = facet.link.subquery()
        return exists(
            select(literal(1)).select_from(link).where(link.c.key == key, _is(link.c.value, value))
        )
    return _is(facet.value, value)


def _filters(
    spec: ListSpec, query: ListQuery, dialect: str, leave_out: str | None = None
) -> list[Any]:
    """The WHERE clauses of a request (but the facet ``leave_out``'s own choice)."""
    clauses = [] if spec.base_filter is None else [spec.base_filter]
    for name, value in sorted(query.facets.items()):
        facet = spec.facet(name)
        if name != leave_out:
            clauses.append(_facet_filter(facet, value, spec.key[0]))
    if (query.since or query.until) and spec.date is None:
        raise ListQueryError(f"the {spec.name} list has no dates to filter by")
    if query.since:
        clauses.append(spec.date >= query.since)
    if query.until:
        # A date is compared on as many characters as it has ("2024-05" is in May 2024).
        clauses.append(spec.date <= query.until + "\uffff")
    if query.words:
        if spec.words is None:
            raise ListQueryError(f"the {spec.name} list cannot be filtered by words")
        clauses.append(spec.words(dialect, query.words))
    return clauses


def like_words(column: Any, words: Sequence[str]) -> Any:
    """Every word somewhere in ``column``, any case (LIKE, its wildcards escaped)."""
    clauses = []
    for word in words:
        escaped = word.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        clauses.append(func.lower(column).like(f"%{escaped}%", escape="\\"))
    return and_(*clauses)


# -- the page ---------------------------------------------------------------------------------


def _rows(spec: ListSpec) -> Any:
    """The list's columns, and its key and sort columns under private names (the cursor)."""
    shown = [expr.label(name) for name, expr in spec.columns.items()]
    keys = [expr.label(f"_key{i}") for i, expr in enumerate(spec.key)]
    sorts = [s.column.label(f"_sort_{s.name}") for s in spec.sorts]
    return select(*shown, *keys, *sorts).select_from(spec.source)


def page(conn: Connection, spec: ListSpec, query: ListQuery) -> ListPage:
    """One page of ``spec`` as ``query`` asks (see the module's docstring)."""
    if query.after and query.before:
        raise ListQueryError("give a cursor to start after or before, not both")
    dialect = conn.dialect.name
    sort, ascending = _direction(spec, query.sort)
    label = sort_label(sort, ascending)
    order = [(sort.column, ascending), *((k, ascending) for k in spec.key)]
    clauses = _filters(spec, query, dialect)
    backwards = query.before is not None
    cursor = query.before or query.after
    rows = _rows(spec).where(*clauses)
    if cursor:
        values = decode_cursor(cursor, label, len(order))
        walked = [(col, asc != backwards) for col, asc in order]
        rows = rows.where(_beyond(walked, values))
    walk = [(col, asc != backwards) for col, asc in order]
    rows = rows.order_by(*(col.asc() if asc else col.desc() for col, asc in walk))
    found = [dict(r._mapping) for r in conn.execute(rows.limit(query.limit + 1))]
    more = len(found) > query.limit
    found = found[: query.limit]
    if backwards:
        found.reverse()

    def position(row: Mapping[str, Any]) -> str:
        keys = [row[f"_key{i}"] for i in range(len(spec.key))]
        return encode_cursor(label, [row[f"_sort_{sort.name}"], *keys])

    next_cursor = prev_cursor = None
    if found:
        next_cursor = position(found[-1]) if (more and not backwards) or backwards else None
        prev_cursor = position(found[0]) if (more and backwards) or query.after else None
    items = [{name: row[name] for name in spec.columns} for row in found]
    total = facets = None
    if query.counts:
        total = conn.execute(
            select(func.count()).select_from(spec.source).where(*clauses)
        ).scalar_one()
        facets = [facet_counts(conn, spec, query, f, dialect) for f in spec.facets]
    return ListPage(
        items=items,
        total=total,
        next=next_cursor,
        prev=prev_cursor,
        facets=facets or [],
        sort=label,
    )


def facet_counts(
    conn: Connection, spec: ListSpec, query: ListQuery, facet: Facet, dialect: str
) -> FacetCounts:
    """The FACET_VALUES most frequent values of ``facet`` among the rows the request's other
    filters leave, with how many rows have each (one GROUP BY)."""
    clauses = _filters(spec, query, dialect, leave_out=facet.name)
    if facet.link is not None:
        link = facet.link.subquery()
        value, counted = link.c.value, func.count(link.c.key.distinct())
        counts = select(value, counted).select_from(link)
        if clauses:
            chosen = select(spec.key[0]).select_from(spec.source).where(*clauses)
            counts = counts.where(link.c.key.in_(chosen))
    else:
        value, counted = facet.value, func.count()
        counts = select(value, counted).select_from(spec.source).where(*clauses)
    counts = counts.group_by(value).order_by(counted.desc(), value).limit(FACET_VALUES)
    chosen_value = query.facets.get(facet.name)
    values = [
        FacetValue(
            value=NO_VALUE if v is None else str(v),
            label=str(v) if v not in (None, NO_VALUE) else facet.empty_label,
            count=n,
            selected=chosen_value == (NO_VALUE if v is None else str(v)),
        )
        for v, n in conn.execute(counts)
    ]
    return FacetCounts(name=facet.name, label=facet.label, values=values)


def stream(conn: Connection, spec: ListSpec, query: ListQuery) -> Iterator[dict[str, Any]]:
    """Every row the request's filters leave, in its sort, read STREAM_ROWS at a time through
    one server-side cursor (one sort, memory flat whatever the number of rows)."""
    sort, ascending = _direction(spec, query.sort)
    order = [(sort.column, ascending), *((k, ascending) for k in spec.key)]
    rows = (
        select(*(expr.label(name) for name, expr in spec.columns.items()))
        .select_from(spec.source)
        .where(*_filters(spec, query, conn.dialect.name))
        .order_by(*(col.asc() if asc else col.desc() for col, asc in order))
    )
    result = conn.execution_options(stream_results=True, yield_per=STREAM_ROWS).execute(rows)
    for row in result:
        yield dict(row._mapping)


def bucket(column: Any, bounds: Sequence[tuple[int, str]]) -> Any:
    """``column`` as the label of the first bound it is at most; the last label above them."""
    *upto, (_, last) = bounds
    return case(*((column <= bound, literal(name)) for bound, name in upto), else_=literal(last))
