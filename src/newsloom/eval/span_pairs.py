"""What the files of labelled span pairs share (``tests/data/fact_pairs.tsv``,
``tests/data/quote_link_pairs.tsv``): tab-separated rows under a fixed header, two spans per
row (file, offsets, the first 12 hex digits of the SHA-1 of the sliced text), one id per row.
Each file's own module checks its own columns (file names, labels) on top of these.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

HASH_CHARS = 12
_HASH = re.compile(rf"[0-9a-f]{{{HASH_CHARS}}}")
SIDES = ("a", "b")


class HasPairId(Protocol):
    @property
    def pair(self) -> str: ...


Row = TypeVar("Row", bound=HasPairId)


@dataclass(frozen=True)
class SpanPair:
    """The columns every pairs file starts with: an id, two spans (file, offsets, short
    hash) and the label; each file's record adds its own columns after these."""

    pair: str
    file_a: str
    start_a: int
    end_a: int
    sha1_a: str
    file_b: str
    start_b: int
    end_b: int
    sha1_b: str
    label: str

    @property
    def same(self) -> bool:
        return self.label == "same"

    def sides(self) -> tuple[tuple[str, str, int, int, str], ...]:
        """``(side, file, start, end, short hash)`` of span a, then of span b."""
        return (
            ("a", self.file_a, self.start_a, self.end_a, self.sha1_a),
            ("b", self.file_b, self.start_b, self.end_b, self.sha1_b),
        )


def span_pair_fields(rec: dict[str, str], numbers: dict[str, int]) -> dict[str, Any]:
    """The ``SpanPair`` fields of a checked row (``numbers``: its offsets as integers)."""
    fields: dict[str, Any] = {"pair": rec["pair"], "label": rec["label"]}
    for side in SIDES:
        fields[f"file_{side}"] = rec[f"file_{side}"]
        fields[f"start_{side}"] = numbers[f"start_{side}"]
        fields[f"end_{side}"] = numbers[f"end_{side}"]
        fields[f"sha1_{side}"] = rec[f"sha1_{side}"]
    return fields


def short_hash(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:HASH_CHARS]


def parse_rows(
    text: str, columns: Sequence[str], parse: Callable[[dict[str, str]], Row]
) -> list[Row]:
    """The rows of a pairs file's ``text``, each ``parse``d from its fields by column name.

    Raises ValueError ``line N: reason`` (no file name: the caller adds it, in its own error)
    for a wrong header, a row of the wrong width, a row ``parse`` rejects, or a pair id seen
    before. Blank lines are skipped.
    """
    lines = text.splitlines()
    if not lines or tuple(lines[0].split("\t")) != tuple(columns):
        raise ValueError(f"line 1: the header must be {' '.join(columns)}")
    rows: list[Row] = []
    seen: set[str] = set()
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        fields = line.split("\t")
        try:
            if len(fields) != len(columns):
                raise ValueError(f"{len(fields)} fields, expected {len(columns)}")
            row = parse(dict(zip(columns, fields, strict=True)))
        except ValueError as exc:
            raise ValueError(f"line {number}: {exc}") from None
        if row.pair in seen:
            raise ValueError(f"line {number}: pair {row.pair} appears twice")
        seen.add(row.pair)
        rows.append(row)
    return rows


def int_fields(rec: dict[str, str], columns: Sequence[str]) -> dict[str, int]:
    """``columns`` of ``rec`` as non-negative integers (ValueError naming the column)."""
    out: dict[str, int] = {}
    for col in columns:
        if not rec[col].isdigit():
            raise ValueError(f"{col} must be a non-negative integer, got {rec[col]!r}")
        out[col] = int(rec[col])
    return out


def check_span(rec: dict[str, str], numbers: dict[str, int], side: str) -> None:
    """Span ``side`` of a row: not empty or reversed, with a well-formed short hash."""
    if numbers[f"start_{side}"] >= numbers[f"end_{side}"]:
        raise ValueError(f"span {side} is empty or reversed")
    if not _HASH.fullmatch(rec[f"sha1_{side}"]):
        raise ValueError(f"sha1_{side} must be {HASH_CHARS} lowercase hex digits")
