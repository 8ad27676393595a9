"""Calendar words and partial ISO dates (``YYYY``, ``YYYY-MM``, ``YYYY-MM-DD``).

A date in newsloom is as precise as its source allows, so a value may stop at the year or the
month. ``parse_partial`` reads such a value (a longer ISO timestamp is cut to the day) and
``iso_date`` writes one from numbers, checking that the calendar date exists. The month and
weekday tables are general English, lower case.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Literal

MONTH_NAMES = (
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
)  # fmt: skip
MONTHS = {name: i for i, name in enumerate(MONTH_NAMES, start=1)}
# Written abbreviations ("Sept." as well as "Sep."); "may" needs none.
MONTH_ABBREVIATIONS = {
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9,
    "oct": 10, "nov": 11, "dec": 12,
}  # fmt: skip
# Every month word -> its number.
MONTH_WORDS = MONTHS | MONTH_ABBREVIATIONS

WEEKDAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
WEEKDAYS = {name: i for i, name in enumerate(WEEKDAY_NAMES)}  # Monday is 0, as in datetime
WEEKDAY_ABBREVIATIONS = {
    "mon": 0, "tue": 1, "tues": 1, "wed": 2, "thu": 3, "thurs": 3, "fri": 4, "sat": 5, "sun": 6,
}  # fmt: skip

Precision = Literal["year", "month", "day"]

_PARTIAL = re.compile(r"(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?")


@dataclass(frozen=True)
class PartialDate:
    """A point in time at a precision; ``date`` holds 1 for an unknown month or day."""

    date: dt.date
    precision: Precision

    def iso(self) -> str:
        if self.precision == "year":
            return f"{self.date.year:04d}"
        if self.precision == "month":
            return f"{self.date.year:04d}-{self.date.month:02d}"
        return self.date.isoformat()


def parse_partial(value: str | None) -> PartialDate | None:
    """``YYYY``, ``YYYY-MM`` or ``YYYY-MM-DD`` at the start of ``value`` (surrounding space
    ignored; a longer ISO timestamp is cut to the day); None when it is no real date."""
    if not value:
        return None
    match = _PARTIAL.match(value.strip())
    if match is None:
        return None
    year, month, day = match.group(1), match.group(2), match.group(3)
    try:
        date = dt.date(int(year), int(month or 1), int(day or 1))
    except ValueError:
        return None
    return PartialDate(date, "day" if day else "month" if month else "year")


def first_day(value: str | None) -> dt.date | None:
    """The first day a partial ISO date may mean (``2021-03`` -> 1 March 2021), or None."""
    parsed = parse_partial(value)
    return parsed.date if parsed is not None else None


def exact_day(value: str | None) -> dt.date | None:
    """The day of a partial ISO date precise to the day, else None (``2021-03`` is None)."""
    parsed = parse_partial(value)
    return parsed.date if parsed is not None and parsed.precision == "day" else None


def iso_date(year: int, month: int | None = None, day: int | None = None) -> str | None:
    """The partial ISO string for a real calendar date (as precise as given), or None.

    A day without a month is ignored (``iso_date(2021, None, 5)`` is ``"2021"``).
    """
    if not dt.MINYEAR <= year <= dt.MAXYEAR:
        return None
    if month is None:
        return f"{year:04d}"
    if not 1 <= month <= 12:
        return None
    if day is None:
        return f"{year:04d}-{month:02d}"
    try:
        return dt.date(year, month, day).isoformat()
    except ValueError:
        return None
