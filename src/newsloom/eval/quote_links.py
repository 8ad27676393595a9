"""Hand-labelled pairs of quoted spans for tracked quotes (``tests/data/quote_link_pairs.tsv``).

Each pair joins two direct quotes of PolNeAR articles from different publishers and says
whether they are the same utterance (``same``) or not (``different``), with the kind of
variation or of look-alike (tests/data/README.md). The file holds pointers only: a span is a
file (``train/<stem>`` or ``dev/<stem>``), character offsets into its text read as
``read_text`` reads it, and the first 12 hex digits of the SHA-1 of the sliced text, so a
changed corpus copy is caught instead of silently scoring other words.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from .polnear import SPLITS, read_text
from .span_pairs import (
    SIDES,
    SpanPair,
    check_span,
    int_fields,
    parse_rows,
    short_hash,
    span_pair_fields,
)

COLUMNS = (
    "pair",
    "file_a",
    "start_a",
    "end_a",
    "sha1_a",
    "file_b",
    "start_b",
    "end_b",
    "sha1_b",
    "label",
    "kind",
    "days_apart",
    "note",
)
# The kinds a label allows: how two wordings of one utterance differ, or what makes two
# different utterances look alike (``unrelated`` for the easy negatives).
KINDS = {
    "same": frozenset(
        {
            "identical",
            "truncated",
            "extended",
            "censored",
            "word_change",
            "filler",
            "merged",
            "paraphrase",
        }
    ),
    "different": frozenset(
        {"same_speaker_other_remark", "shared_slogan", "similar_wording", "unrelated"}
    ),
}
# Articles more than this many days apart make a cross-week pair.
CROSS_WEEK_DAYS = 7
_FILE = re.compile(r"(?P<split>[a-z]+)/(?P<stem>[^/\s]+)")


@dataclass(frozen=True)
class LinkPair(SpanPair):
    """One labelled pair: two spans (file, offsets, short SHA-1 of the text), the label and
    its kind, the days between the two articles' publication dates, and a note."""

    kind: str
    days_apart: int
    note: str

    @property
    def cross_week(self) -> bool:
        return self.days_apart > CROSS_WEEK_DAYS


def load_link_pairs(path: Path) -> list[LinkPair]:
    """The pairs of a tab-separated file with the header row ``COLUMNS`` (no quoting: a
    field is everything between two tabs). A malformed row raises ValueError naming the
    file and the line."""
    try:
        return parse_rows(read_text(path), COLUMNS, _parse_row)
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None


def _parse_row(rec: dict[str, str]) -> LinkPair:
    for col in ("pair", "note"):
        if not rec[col].strip():
            raise ValueError(f"empty {col}")
    numbers = int_fields(rec, ("start_a", "end_a", "start_b", "end_b", "days_apart"))
    for side in SIDES:
        match = _FILE.fullmatch(rec[f"file_{side}"])
        if match is None or match["split"] not in SPLITS:
            raise ValueError(
                f"file_{side} must be <split>/<stem> with split one of {', '.join(SPLITS)}, "
                f"got {rec[f'file_{side}']!r}"
            )
        check_span(rec, numbers, side)
    label, kind = rec["label"], rec["kind"]
    if label not in KINDS:
        raise ValueError(f"label must be same or different, got {label!r}")
    if kind not in KINDS[label]:
        raise ValueError(f"kind of a {label} pair must be one of {', '.join(sorted(KINDS[label]))}")
    return LinkPair(
        **span_pair_fields(rec, numbers),
        kind=kind,
        days_apart=numbers["days_apart"],
        note=rec["note"],
    )


def span_text(data: Path, file: str, start: int, end: int) -> str:
    """The text of one span: ``data/<split>/text/<stem>.txt`` sliced ``[start:end]``
    (``data`` is the PolNeAR folder)."""
    split, stem = file.split("/", 1)
    return read_text(Path(data) / split / "text" / f"{stem}.txt")[start:end]


def check_pair_hashes(data: Path, pairs: Iterable[LinkPair]) -> list[str]:
    """Problems with the spans of ``pairs`` against the corpus at ``data``: a span whose text
    no longer hashes to its recorded SHA-1, runs past its text's end, or whose file is
    missing. Empty when every span points at the words it was labelled on."""
    problems = []
    for pair in pairs:
        for side, file, start, end, sha1 in pair.sides():
            try:
                text = span_text(data, file, start, end)
            except OSError as exc:
                problems.append(f"{pair.pair} {side}: {file}: {exc.strerror or exc}")
                continue
            if len(text) != end - start:
                problems.append(f"{pair.pair} {side}: {file} {start}-{end} runs past the text")
                continue
            got = short_hash(text)
            if got != sha1:
                problems.append(
                    f"{pair.pair} {side}: {file} {start}-{end} hashes to {got}, not {sha1}"
                )
    return problems
