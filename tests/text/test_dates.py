"""Partial ISO dates and calendar words."""

from __future__ import annotations

import datetime as dt

import pytest

from newsloom.text.dates import (
    MONTH_WORDS,
    WEEKDAYS,
    exact_day,
    first_day,
    iso_date,
    parse_partial,
)
from newsloom.text.names import is_calendar_word

# (value, first day it may mean, precision, ISO written back); None: not a date
PARTIAL_ROWS = [
    ("2021", dt.date(2021, 1, 1), "year", "2021"),
    ("2021-03", dt.date(2021, 3, 1), "month", "2021-03"),
    ("2021-03-05", dt.date(2021, 3, 5), "day", "2021-03-05"),
    ("2021-03-05T10:00:00Z", dt.date(2021, 3, 5), "day", "2021-03-05"),
    (" 2021-03 ", dt.date(2021, 3, 1), "month", "2021-03"),
    ("2024-02-29", dt.date(2024, 2, 29), "day", "2024-02-29"),
    ("2021-3-05", dt.date(2021, 1, 1), "year", "2021"),  # one-digit month: only the year
    ("2021-02-30", None, None, None),
    ("2023-02-29", None, None, None),
    ("2021-13", None, None, None),
    ("2021-00", None, None, None),
    ("0000", None, None, None),
    ("March 2021", None, None, None),
    ("21-03-05", None, None, None),
    ("", None, None, None),
    (None, None, None, None),
]


@pytest.mark.parametrize(("value", "day", "precision", "iso"), PARTIAL_ROWS)
def test_parse_partial(
    value: str | None, day: dt.date | None, precision: str | None, iso: str | None
) -> None:
    parsed = parse_partial(value)
    if day is None:
        assert parsed is None
        assert first_day(value) is None
        assert exact_day(value) is None
        return
    assert parsed is not None
    assert (parsed.date, parsed.precision, parsed.iso()) == (day, precision, iso)
    assert first_day(value) == day
    assert exact_day(value) == (day if precision == "day" else None)


@pytest.mark.parametrize(
    ("parts", "iso"),
    [
        ((2021,), "2021"),
        ((2021, 3), "2021-03"),
        ((2021, 3, 14), "2021-03-14"),
        ((2021, None, 14), "2021"),  # a day without a month is ignored
        ((2021, 2, 29), None),
        ((2021, 13), None),
        ((2021, 0, 1), None),
        ((0,), None),
        ((10000,), None),
    ],
)
def test_iso_date(parts: tuple[int | None, ...], iso: str | None) -> None:
    assert iso_date(*parts) == iso  # type: ignore[arg-type]


def test_calendar_tables() -> None:
    assert MONTH_WORDS["sept"] == MONTH_WORDS["sep"] == MONTH_WORDS["september"] == 9
    assert MONTH_WORDS["may"] == 5 and len({*MONTH_WORDS.values()}) == 12
    assert WEEKDAYS["monday"] == dt.date(2024, 3, 4).weekday()


@pytest.mark.parametrize(
    ("word", "calendar"),
    [
        ("May", True),
        ("Sept.", True),
        ("Tues", True),
        ("sunday", True),
        ("Maya", False),
        ("", False),
    ],
)
def test_is_calendar_word(word: str, calendar: bool) -> None:
    assert is_calendar_word(word) is calendar
