"""Publication dates from metadata fields, normalised to ISO ``YYYY[-MM[-DD]]``.

Metadata dates come in a handful of machine formats (ISO 8601 with or without a time,
RFC 2822 from feeds, Unix timestamps) and a few written ones ("March 14, 2021"). This is a
cheap, strict parser for those; it returns None rather than guess (``03/04/2021`` is
ambiguous and stays None). Running text is the dates stage's job, not this one.

Parsing accepts any four-digit year; whether a date is a plausible *publication* date is a
separate check (``checked_published``) against the range in Settings, so a dropped date says
why in the article's warnings instead of silently reading as "not a date".
"""

from __future__ import annotations

import datetime as dt
import email.utils
import re

from ..config import Settings
from ..models import Article
from ..text.dates import MONTH_WORDS, first_day, iso_date

# A time or zone after the date (2021-03-14T10:00:00Z, 2021-03-14 10:00 +01:00) is dropped:
# the date as written at the outlet is the publication date.
ISO = re.compile(r"(\d{4})(?:[-/.](\d{1,2})(?:[-/.](\d{1,2}))?)?(?=$|[T\s])")
COMPACT = re.compile(r"(\d{4})(\d{2})(\d{2})(?=$|T)")
MONTH_FIRST = re.compile(r"([A-Za-z]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b")
DAY_FIRST = re.compile(r"(\d{1,2})(?:st|nd|rd|th)?\s+([A-Za-z]+)\.?,?\s+(\d{4})\b")
MONTH_YEAR = re.compile(r"([A-Za-z]+)\.?,?\s+(\d{4})$")
NUMERIC = re.compile(r"(\d{1,2})[/.](\d{1,2})[/.](\d{4})$")
# Unix timestamps: seconds until ~2286; larger values are milliseconds.
MS_THRESHOLD = 10**11
# A bare integer from this year to 9999 is a year, not seconds after 1970. Any year parses;
# the plausible range of publication dates is Settings', checked by checked_published.
EARLIEST_BARE_YEAR = 1000


def iso(year: int, month: int | None = None, day: int | None = None) -> str | None:
    """The ISO string for a real calendar date (as precise as given), or None."""
    return iso_date(year, month, day)


def _from_timestamp(value: float) -> str | None:
    if value > MS_THRESHOLD:
        value /= 1000
    try:
        return dt.datetime.fromtimestamp(value, tz=dt.UTC).date().isoformat()
    except (OverflowError, OSError, ValueError):
        return None


def normalise_date(value: object) -> str | None:
    """``value`` (str, int, float) as ISO ``YYYY[-MM[-DD]]``, or None when it is not a date."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int) and EARLIEST_BARE_YEAR <= value <= 9999:
        return iso(value)  # a bare year, not seconds after 1970
    if isinstance(value, int | float):
        return _from_timestamp(float(value))
    if not isinstance(value, str):
        return None
    s = value.strip()
    if not s:
        return None
    if s.isdigit() and len(s) >= 9:
        return _from_timestamp(float(s))
    for pattern in (COMPACT, ISO):
        m = pattern.match(s)
        if m:
            year, month, day = (int(g) if g else None for g in m.groups())
            return iso(year, month, day) if year is not None else None
    m = MONTH_FIRST.search(s)
    if m and m.group(1).lower() in MONTH_WORDS:
        return iso(int(m.group(3)), MONTH_WORDS[m.group(1).lower()], int(m.group(2)))
    m = DAY_FIRST.search(s)
    if m and m.group(2).lower() in MONTH_WORDS:
        return iso(int(m.group(3)), MONTH_WORDS[m.group(2).lower()], int(m.group(1)))
    m = MONTH_YEAR.match(s)
    if m and m.group(1).lower() in MONTH_WORDS:
        return iso(int(m.group(2)), MONTH_WORDS[m.group(1).lower()])
    m = NUMERIC.match(s)
    if m:
        first, second, year = (int(g) for g in m.groups())
        if first > 12 >= second:  # 14/03/2021: day first
            return iso(year, second, first)
        if second > 12 >= first:  # 03/14/2021: month first
            return iso(year, first, second)
        return None  # 03/04/2021: ambiguous
    parsed = email.utils.parsedate_tz(s)  # RFC 2822: "Sun, 14 Mar 2021 10:00:00 GMT"
    if parsed and parsed[0]:
        return iso(parsed[0], parsed[1], parsed[2])
    return None


def implausible_reason(published: str, settings: Settings, today: dt.date) -> str | None:
    """Why the ISO date ``published`` cannot be a publication date, or None when it can.

    A partial date (``2021``, ``2021-03``) counts from its first day.
    """
    day = first_day(published)
    if day is None:
        return None
    if day.year < settings.min_published_year:
        return (
            f"publication date {published} is before {settings.min_published_year}; dropped it "
            "as a data error (lower min_published_year for older archives)"
        )
    latest = today + dt.timedelta(days=settings.max_published_days_ahead)
    if day > latest:
        return (
            f"publication date {published} is after {latest.isoformat()} (today plus "
            f"max_published_days_ahead = {settings.max_published_days_ahead}); "
            "dropped it as a data error"
        )
    return None


def checked_published(article: Article, settings: Settings) -> Article:
    """``article`` with an implausible publication date dropped and a warning saying why."""
    if not article.published:
        return article
    reason = implausible_reason(article.published, settings, dt.datetime.now(dt.UTC).date())
    if reason is None:
        return article
    return article.model_copy(update={"published": None, "warnings": [*article.warnings, reason]})
