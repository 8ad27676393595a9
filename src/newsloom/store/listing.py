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
switch to). When facets are chosen that are links, the total and the counts start from the
chosen values' pairs and join the rest by key (with the story list's facets kept as rows in
``list_facets``, each join is an index probe), instead of testing every row of the list.

Counts still cost time in proportion to the matching rows, where a page does not, so they
run on a budget (``ListQuery.count_budget_ms``, as datasette's ``facet_time_limit_ms``): a
count still running when the budget is spent is stopped by the database (SQLite's progress
handler, PostgreSQL's ``statement_timeout``) and its facet comes back ``counted=False`` with
no values; a total that does not fit the budget is counted up to ``total_cap`` rows instead
and comes back ``total_capped`` (at least that many). A number shown is never a guess.
"""

from __future__ import annotations

import base64
import binascii
import json
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, and_, case, exists, func, literal, or_, select
from sqlalchemy.exc import OperationalError

from ..errors import ListQueryError

# Distinct values a facet lists, most frequent first: enough to pick an outlet or a speaker
# from a sidebar; the rest are reached through the words filter.
FACET_VALUES = 20
# A facet value that is NULL or empty in the store is listed (and chosen) as this.
NO_VALUE = ""
# Rows a streamed export reads per round trip (server-side cursor): memory stays flat.
STREAM_ROWS = 1000
# A total that does not fit the budget is counted up to this many rows ("10,000+"): reading
# 10,000 index entries takes a few milliseconds.
TOTAL_CAP = 10_000
# SQLite virtual-machine steps between two looks at the clock while a count runs: about a
# tenth of a millisecond of work, and the look costs ~1% of it.
PROGRESS_STEPS = 1000
# PostgreSQL's error code of a statement stopped by ``statement_timeout``.
QUERY_CANCELED = "57014"

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
    # The link gives each (key, value) pair once (``list_facets`` rows): rows are counted
    # without the DISTINCT a link through other tables needs.
    unique_pairs: bool = False


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
    # What counting may take (see the docstring); None counts in full however long it takes
    # (the CLI and exports); the served app passes its ``count_budget_ms`` setting.
    count_budget_ms: int | None = None
    total_cap: int = TOTAL_CAP  # a total over budget is counted up to this many rows


@dataclass(frozen=True)
class FacetValue:
    value: str
    label: str
    count: int
    selected: bool


@dataclass(frozen=True)
class FacetCounts:
    """A facet's most frequent values; ``counted`` False (and no values) when counting them
    did not fit the request's budget."""

    name: str
    label: str
    values: list[FacetValue]
    counted: bool = True


@dataclass(frozen=True)
class ListPage:
    """One page: the rows (dicts in the list's column order), how many rows match in all
    (None when not counted; at least that many when ``total_capped``), the cursors of the
    next and previous pages (None at an end), the facet counts and the sort used (``-name``
    when descending)."""

    items: list[dict[str, Any]]
    total: int | None
    next: str | None
    prev: str | None
    facets: list[FacetCounts]
    sort: str
    total_capped: bool = False


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
    spec: ListSpec,
    query: ListQuery,
    dialect: str,
    leave_out: str | None = None,
    links: bool = True,
) -> list[Any]:
    """The WHERE clauses of a request (but the facet ``leave_out``'s own choice; and but the
    chosen link facets when not ``links``: ``_chosen_links`` joins them instead)."""
    clauses = [] if spec.base_filter is None else [spec.base_filter]
    for name, value in sorted(query.facets.items()):
        facet = spec.facet(name)
        if name != leave_out and (links or facet.link is None):
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
    total, capped, facets = None, False, []
    if query.counts:
        budget = query.count_budget_ms
        deadline = None if budget is None else time.monotonic() + budget / 1000
        total, capped = _total(conn, spec, query, dialect, deadline)
        facets = [facet_counts(conn, spec, query, f, dialect, deadline) for f in spec.facets]
    return ListPage(
        items=items,
        total=total,
        next=next_cursor,
        prev=prev_cursor,
        facets=facets,
        sort=label,
        total_capped=capped,
    )


# -- counts -----------------------------------------------------------------------------------


def _chosen_links(spec: ListSpec, query: ListQuery, skip: set[str]) -> list[tuple[Facet, str]]:
    """The chosen facets that are links (but those named in ``skip``), with their values."""
    chosen = [(spec.facet(name), value) for name, value in sorted(query.facets.items())]
    return [(f, v) for f, v in chosen if f.link is not None and f.name not in skip]


def _keys(spec: ListSpec, query: ListQuery, dialect: str, skip: str) -> tuple[Any, bool]:
    """The keys of the rows the request's filters leave (but facet ``skip``'s choice), as a
    select to test ``key IN (...)`` against, or None when nothing filters; and whether the
    select gives each key once. With chosen link facets it starts from the first one's
    pairs of its value and joins the others on the key (an index probe each), the other
    filters as ``key IN (rows)``; written as an IN so that SQLite, without statistics, reads
    the chosen keys first and looks up the counted facet's pairs of each."""
    chosen = _chosen_links(spec, query, {skip})
    others = _filters(spec, query, dialect, leave_out=skip, links=False)
    if not chosen:
        if not others:
            return None, True
        return select(spec.key[0]).select_from(spec.source).where(*others), True
    (facet, value), rest = chosen[0], chosen[1:]
    first = facet.link.subquery("chosen0")
    source, unique = first, facet.unique_pairs
    for i, (more, more_value) in enumerate(rest, 1):
        pairs = more.link.subquery(f"chosen{i}")
        source = source.join(
            pairs, and_(pairs.c.key == first.c.key, _is(pairs.c.value, more_value))
        )
        unique = unique and more.unique_pairs
    keys = select(first.c.key).select_from(source).where(_is(first.c.value, value))
    if others:
        keys = keys.where(
            first.c.key.in_(select(spec.key[0]).select_from(spec.source).where(*others))
        )
    return keys, unique


def _total(
    conn: Connection, spec: ListSpec, query: ListQuery, dialect: str, deadline: float | None
) -> tuple[int, bool]:
    """How many rows match, and whether that is a lower bound: counted in full within the
    budget, else up to ``query.total_cap`` rows (a bounded read)."""
    keys, unique = _keys(spec, query, dialect, skip="")
    if _chosen_links(spec, query, set()):
        rows = keys.subquery("matching")
        counted = func.count() if unique else func.count(rows.c.key.distinct())
        statement = select(counted).select_from(rows)
    else:
        clauses = _filters(spec, query, dialect)
        statement = select(func.count()).select_from(spec.source).where(*clauses)
    found = _within(conn, deadline, statement)
    if found is not None:
        return int(found[0][0]), False
    if keys is not None and _chosen_links(spec, query, set()):
        # The chosen keys read from their pairs' index, as the full count would.
        head = (keys if unique else keys.distinct()).limit(query.total_cap + 1)
    else:
        head = select(literal(1)).select_from(spec.source).where(*_filters(spec, query, dialect))
        head = head.limit(query.total_cap + 1)
    capped = head.subquery()
    n = conn.execute(select(func.count()).select_from(capped)).scalar_one()
    return min(n, query.total_cap), n > query.total_cap


def facet_counts(
    conn: Connection,
    spec: ListSpec,
    query: ListQuery,
    facet: Facet,
    dialect: str,
    deadline: float | None = None,
) -> FacetCounts:
    """The FACET_VALUES most frequent values of ``facet`` among the rows the request's other
    filters leave, with how many rows have each (one GROUP BY); not counted when it does not
    end by ``deadline`` (``time.monotonic()``; None: no limit)."""
    if facet.link is not None:
        pairs = facet.link.subquery("counted")
        keys, _ = _keys(spec, query, dialect, skip=facet.name)
        value = pairs.c.value
        counted = func.count() if facet.unique_pairs else func.count(pairs.c.key.distinct())
        counts = select(value, counted).select_from(pairs)
        if keys is not None:
            counts = counts.where(pairs.c.key.in_(keys))
    else:
        clauses = _filters(spec, query, dialect, leave_out=facet.name)
        value, counted = facet.value, func.count()
        counts = select(value, counted).select_from(spec.source).where(*clauses)
    counts = counts.group_by(value).order_by(counted.desc(), value).limit(FACET_VALUES)
    found = _within(conn, deadline, counts)
    if found is None:
        return FacetCounts(name=facet.name, label=facet.label, values=[], counted=False)
    chosen_value = query.facets.get(facet.name)
    values = [
        FacetValue(
            value=NO_VALUE if v is None else str(v),
            label=str(v) if v not in (None, NO_VALUE) else facet.empty_label,
            count=n,
            selected=chosen_value == (NO_VALUE if v is None else str(v)),
        )
        for v, n in found
    ]
    return FacetCounts(name=facet.name, label=facet.label, values=values)


def _within(conn: Connection, deadline: float | None, statement: Any) -> list[Any] | None:
    """The rows of ``statement``, or None when the database stopped it at ``deadline``
    (``time.monotonic()``; None: no limit): SQLite's progress handler interrupts it,
    PostgreSQL's ``statement_timeout`` cancels it (in a savepoint, so the transaction goes
    on)."""
    dialect = conn.dialect.name
    if deadline is None:
        return list(conn.execute(statement))
    if time.monotonic() >= deadline:  # spent before it starts (a budget of 0 counts nothing)
        return None
    if dialect == "sqlite":
        raw = conn.connection.driver_connection
        assert raw is not None
        raw.set_progress_handler(lambda: time.monotonic() >= deadline, PROGRESS_STEPS)
        try:
            return list(conn.execute(statement))
        except OperationalError as exc:
            if "interrupted" not in str(exc.orig):
                raise
            return None
        finally:
            raw.set_progress_handler(None, PROGRESS_STEPS)
    if dialect == "postgresql":
        left = int((deadline - time.monotonic()) * 1000)
        if left < 1:  # the timeout counts whole milliseconds, and 0 turns it off
            return None
        try:
            with conn.begin_nested():
                conn.exec_driver_sql(f"SET LOCAL statement_timeout = {left}")
                rows = list(conn.execute(statement))
                conn.exec_driver_sql("SET LOCAL statement_timeout TO DEFAULT")
                return rows
        except OperationalError as exc:
            if getattr(exc.orig, "sqlstate", None) != QUERY_CANCELED:
                raise
            return None
    return list(conn.execute(statement))


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
