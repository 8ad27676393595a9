"""Datelines: the place in capitals that opens a wire-style body (``PARIS •``,
``HARBOR CITY —``, ``WASHINGTON (AP) —``)."""

from __future__ import annotations

import re

# A dateline: a place in capitals (ST. LOUIS, WINSTON-SALEM, O'FALLON), an optional region
# (", Calif.", ", D.C."), an optional date (", March 3", Reuters' style), an optional agency
# in brackets ("(AP)"), then a separator.
# Bounded repeats (a place has at most 6 words of at most 32 letters) keep the match cheap on
# a long all-caps line.
_PLACE_WORD = r"[A-Z][A-Z'’.\-]{0,30}[A-Z.]"
DATELINE = re.compile(
    rf"(?P<place>{_PLACE_WORD}(?:[ \t]+{_PLACE_WORD}){{0,5}}"
    r"(?:,[ \t]+[A-Z][A-Za-z.]*(?:[ \t]+[A-Z][A-Za-z.]*)?)?)"
    r"(?:,[ \t]+[A-Z][a-z]{2,8}\.?[ \t]+\d{1,2}(?:,[ \t]+\d{4})?)?"
    r"(?:[ \t]*\([A-Z][A-Za-z&.\- ]{0,30}\))?"
    r"[ \t]*(?:•|—|–|―|--?)[ \t]+(?=\S)"
)
# Capitalised lead-ins that take a separator like a dateline but name no place (general
# newsroom words, not names).
NOT_PLACES = frozenset(
    {
        "BREAKING",
        "BREAKING NEWS",
        "UPDATE",
        "UPDATED",
        "EXCLUSIVE",
        "WATCH",
        "LIVE",
        "OPINION",
        "ANALYSIS",
        "EDITOR'S NOTE",
        "EDITOR’S NOTE",
        "CORRECTION",
        "NOTE",
        "REVIEW",
        "VIDEO",
        "PHOTOS",
        "SPOILER",
        "SPOILERS",
        "WARNING",
        "FACT CHECK",
        "OP-ED",
    }
)


# A numeric date marker some feeds print before the dateline on its line ("2021-03-14 PARIS •").
_DATE_MARKER = re.compile(r"\d[\d\-/.:]*[ \t]+")


# A live page's time stamp opening an entry ("10:42 p.m. —", "14:05 GMT -").
_TIME_STAMP = re.compile(
    r"\d{1,2}[:.]\d{2}(?:[ \t]*[ap]\.?m\.?)?(?:[ \t]+[A-Z]{2,4})?[ \t]*(?:•|—|–|―|--?)[ \t]+(?=\S)",
    re.IGNORECASE,
)


def _dateline_match(text: str, pos: int) -> re.Match[str] | None:
    m = DATELINE.match(text, pos)
    if not m:
        return None
    place = m.group("place")
    if place.rstrip(".").upper() in NOT_PLACES or sum(c.isalpha() for c in place) < 2:
        return None
    return m


def dateline_at(text: str, pos: int) -> tuple[int, int] | None:
    """``[start, end)`` of the dateline place when ``text`` at ``pos`` opens with one."""
    m = _dateline_match(text, pos)
    return (m.start("place"), m.end("place")) if m else None


def own_words_start(text: str, pos: int) -> int:
    """Where a paragraph starting at ``pos`` has its own words: after a dateline with its
    separator ("LONDON (Reuters) - ") or a live page's time stamp ("10:15 p.m. — ")."""
    m = _TIME_STAMP.match(text, pos) or _dateline_match(text, pos)
    return m.end() if m else pos


def line_dateline(line: str) -> tuple[int, int] | None:
    """The dateline place of a line (at its start, after blanks and a date marker)."""
    pos = len(line) - len(line.lstrip(" \t"))
    marker = _DATE_MARKER.match(line, pos)
    return dateline_at(line, marker.end() if marker else pos)
