"""Listings as files: CSV, JSON Lines and JSON writers over a sequence of row dicts.

The CLI's list commands and ``newsloom export`` pick one; each writer streams the rows it is
given, so an iterator of rows is never held in memory whole (JSON, one document, is the
exception and takes a sequence).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, TextIO

# How a list field (ages, roles, article ids, outlets) reads in one CSV cell: a separator that
# spreadsheet users read at a glance and that no id contains.
LIST_SEPARATOR = "; "

Row = Mapping[str, Any]
# Rows a streamed CSV writes per piece it hands on (a response body chunk of some 100 kB).
CSV_CHUNK_ROWS = 500


def csv_cell(value: Any) -> str:
    """One CSV cell: empty for None, list items joined by ``LIST_SEPARATOR``, else ``str``."""
    if value is None:
        return ""
    if isinstance(value, list | tuple):
        return LIST_SEPARATOR.join(csv_cell(item) for item in value)
    return str(value)


def write_csv(rows: Iterable[Row], columns: Sequence[str], out: TextIO) -> None:
    """A header row of ``columns`` and one row per record, quoted as RFC 4180 asks."""
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([csv_cell(row.get(col)) for col in columns])


def csv_chunks(rows: Iterable[Row], columns: Sequence[str]) -> Iterator[str]:
    """``write_csv``'s text in pieces of CSV_CHUNK_ROWS rows (the header first), for a
    response that streams: memory holds one piece, whatever the number of rows."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(columns)
    pending = 0
    for row in rows:
        writer.writerow([csv_cell(row.get(col)) for col in columns])
        pending += 1
        if pending == CSV_CHUNK_ROWS:
            yield buffer.getvalue()
            buffer.seek(0)
            buffer.truncate()
            pending = 0
    yield buffer.getvalue()


def write_jsonl(rows: Iterable[Row], columns: Sequence[str], out: TextIO) -> None:
    """One JSON object per line, its keys in record order (``columns`` is unused)."""
    del columns
    for row in rows:
        out.write(json.dumps(dict(row), ensure_ascii=False))
        out.write("\n")


def write_json(rows: Iterable[Row], columns: Sequence[str], out: TextIO) -> None:
    """One JSON array, indented as the CLI's ``--json`` has always printed it."""
    del columns
    out.write(json.dumps([dict(row) for row in rows], ensure_ascii=False, indent=1))
    out.write("\n")


Writer = Callable[[Iterable[Row], Sequence[str], TextIO], None]

# The file formats by name, as ``--format`` takes them.
WRITERS: dict[str, Writer] = {"csv": write_csv, "jsonl": write_jsonl, "json": write_json}
