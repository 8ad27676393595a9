"""Rows as a Parquet file, for `newsloom export --format parquet` (the ``parquet`` extra).

pyarrow is optional: without it the export stops with a message naming the extra to install.
The columns are typed from the record's fields, so a column that is empty on the first rows
still gets its real type.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import fields
from itertools import islice
from typing import Any, BinaryIO

from ..errors import NewsloomError

# Rows gathered into one Parquet row group: memory stays flat, and groups are large enough
# for analysts' tools to read quickly.
ROW_GROUP = 10_000
EXTRA_HINT = "pip install 'newsloom[parquet]'"


class ParquetUnavailableError(NewsloomError):
    """pyarrow, which writes Parquet, is not installed."""


def pyarrow_module() -> Any:
    """pyarrow, or ParquetUnavailableError naming the extra that installs it."""
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError as exc:
        raise ParquetUnavailableError(
            f"Parquet output needs pyarrow, which is not installed: {EXTRA_HINT}, "
            "or export with --format csv or jsonl"
        ) from exc
    return pyarrow


def _arrow_type(pa: Any, annotation: str) -> Any:
    """The Arrow type of a record field annotated ``annotation`` (str, int, float, lists)."""
    base = annotation.replace(" | None", "")
    scalars = {"str": pa.string(), "int": pa.int64(), "float": pa.float64()}
    if base.startswith("list[") and base.endswith("]"):
        return pa.list_(scalars[base[5:-1]])
    return scalars[base]


def _batches(rows: Iterable[Mapping[str, Any]]) -> Iterator[list[Mapping[str, Any]]]:
    it = iter(rows)
    while batch := list(islice(it, ROW_GROUP)):
        yield batch


def write_parquet(rows: Iterable[Mapping[str, Any]], record: type, out: BinaryIO) -> None:
    """``rows`` (dicts of ``record``'s fields) as one Parquet file, a row group at a time."""
    pa = pyarrow_module()
    schema = pa.schema([(f.name, _arrow_type(pa, str(f.type))) for f in fields(record)])
    with pa.parquet.ParquetWriter(out, schema) as writer:
        for batch in _batches(rows):
            writer.write_table(pa.Table.from_pylist(batch, schema=schema))
