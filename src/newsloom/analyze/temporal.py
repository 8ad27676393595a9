"""Temporal expressions: find them with precompiled regexes and resolve them to ISO dates.

Pure functions over strings and ``datetime.date`` (no spaCy), used by the dates stage and by
the story timeline. ``find_expressions`` yields every date-like phrase of a text with exact
offsets, leftmost-longest and not overlapping; ``resolve`` turns one into a ``PartialDate``
(a date and its precision, ``text/dates.py``) against the publication date, the previous date
of the context (for ``the night before``, ``a year later``), a tense hint (``will play on
Sunday``) and the sentence's reference time (``said on Monday that it would reopen on
Tuesday``).

Choices, each the reading a news reader would make:
- A value is as precise as the text allows and never more: ``last week`` is the month that
  holds the whole Monday-Sunday week (or the year, when the week straddles two months), since
  ISO ``YYYY``/``YYYY-MM``/``YYYY-MM-DD`` has no week.
- Decades (``the 1990s``), centuries and winters (which straddle two years) are not read:
  no ISO value of those three forms holds them.
- Numeric dates are read only with a four-digit year and when day and month cannot be
  swapped (``3/14/2021``, not ``3/4/2021``); ``24/7`` and ``9/11`` are never dates.
- A bare number other than a four-digit year is never a date (ages like ``Roe, 33,``).
- A bare year or bare month name is ``weak``: the caller must confirm it from the parse.
- The tense hint is ``past`` (back from publication), ``future`` (``will``, ``is to``,
  ``plans to``, ``is playing on Sunday``: forward from publication, and never before it) or
  ``conditional`` (``would``, the future seen from a past moment: forward from the
  sentence's reference time, an earlier date of the same sentence, else from publication).
- A weekday is the most recent at or before publication with a past or no hint, the nearest
  at or after its origin with a future or conditional one. ``this Friday`` is forward unless
  the hint is past. A year-less date follows a past hint (back) or a future or conditional
  one (forward); with none (present tense, no verb) it is the nearest occurrence: ``the
  Nov. 8 election`` in September is that November, ``leaves office on Jan. 20`` the next
  January. ``last``/``next`` exclude the publication day or month.
- ``in two days`` is a point in time only with a future or conditional hint (``finished in
  two days`` is a duration).
- A relative expression with a future hint that would land before publication is
  contradictory (a misread tense or phrase) and is not resolved.
- Relative expressions need a publication date at least as precise as their unit
  (``yesterday`` needs the day, ``last month`` the month, ``last year`` the year).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Literal

from ..text.dates import MONTH_ABBREVIATIONS, MONTHS, WEEKDAYS, PartialDate, Precision

Kind = Literal["date", "weekday", "offset", "weekend", "season"]
# What an offset counts from: publication; the previous date of the context only; or that
# date when there is one and publication otherwise ("the night before").
Base = Literal["pub", "anchor", "anchor_or_pub"]
Direction = Literal["last", "this", "next"] | None
Tense = Literal["past", "future", "conditional"] | None
FORWARD: frozenset[Tense] = frozenset({"future", "conditional"})
# A bare year / month name: the caller confirms it from the parse. "ahead": a count of units
# ("in two days") that is a point in time only with a forward tense.
Weak = Literal["year", "month", "ahead"] | None

# Meteorological seasons of the northern hemisphere: (first month, last month). Winter is left
# out on purpose: it straddles two years.
SEASONS = {"spring": (3, 5), "summer": (6, 8), "autumn": (9, 11), "fall": (9, 11)}
# Holidays on a fixed calendar day (movable feasts such as Easter are not read).
HOLIDAYS = {
    "christmas day": (12, 25), "christmas eve": (12, 24), "new year's day": (1, 1),
    "new year's eve": (12, 31), "valentine's day": (2, 14), "halloween": (10, 31),
}  # fmt: skip
COUNTS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}  # fmt: skip
PARTS_OF_DAY = ("morning", "afternoon", "evening", "night")
UNIT_RANK = {"year": 0, "month": 1, "week": 2, "weekend": 2, "day": 2}
PRECISION_RANK: dict[str, int] = {"year": 0, "month": 1, "day": 2}
FIRST_YEAR, LAST_YEAR = 1600, 2099  # four-digit numbers read as years


def _cased(words: Iterable[str]) -> str:
    """Title Case and UPPER CASE forms, longest first (``the march`` is not a month)."""
    forms = {f for w in words for f in (w.title(), w.upper())}
    return "|".join(re.escape(f) for f in sorted(forms, key=len, reverse=True))


_MONTH = rf"(?:{_cased(MONTHS)}|(?:{_cased(MONTH_ABBREVIATIONS)})\.?)(?![\w'’])"
_FULL_MONTH = rf"(?:{_cased(MONTHS)})(?![\w'’-])"
_WEEKDAY = rf"(?:{_cased(WEEKDAYS)})(?!\w)"
_DAY = r"(?P<day>[0-3]?\d)(?:st|nd|rd|th)?(?![\d:])"
_YEAR = r"(?P<year>(?:1[6-9]|20)\d\d)(?![\d%])"
# Words that place a point inside a period without changing its value ("early 2020").
_MOD = (
    r"(?i:early|late|mid-|mid|the\s+(?:end|start|beginning|middle|turn)\s+of"
    r"|(?:the\s+)?(?:spring|summer|autumn|fall)\s+(?:of\s+)?)"
)
# A clause ends here: "the day before," is anaphoric, "the day before the vote" is not.
_CLAUSE_END = r"(?=\s*(?:[.,;:!?)\"”’—–]|$|\band\b|\bbut\b|\bwhen\b|\bas\b))"
_DECADE_SUFFIX = re.compile(r"['’]s\b")
_NUMBER = r"(?:\d{1,3}|(?i:" + "|".join(COUNTS) + r"))"

PATTERNS: dict[str, re.Pattern[str]] = {
    "iso": re.compile(
        r"(?<![\w/.-])(?P<year>(?:1[6-9]|20)\d\d)(?P<sep>[-/.])(?P<month>[01]\d)(?P=sep)"
        r"(?P<day>[0-3]\d)(?![\w/-])"
    ),
    "numeric": re.compile(
        r"(?<![\w/.-])(?P<a>[0-3]?\d)/(?P<b>[0-3]?\d)/(?P<year>(?:1[6-9]|20)\d\d)(?![\w/])"
    ),
    "month_day": re.compile(
        rf"(?<![\w-])(?:{_WEEKDAY},?\s+)?(?:(?i:the\s+)?{_MOD}\s*)?(?P<month>{_MONTH})\s+{_DAY}"
        rf"(?:\s*[-–]\s*[0-3]?\d(?![\d:]))?(?:,?\s+{_YEAR})?(?!\w)"
    ),
    "day_month": re.compile(
        rf"(?<![\w$£€.,/-])(?:{_WEEKDAY},?\s+)?(?:(?i:the)\s+)?{_DAY}\s+(?:(?i:of)\s+)?"
        rf"(?P<month>{_MONTH})(?:,?\s+{_YEAR})?(?!\w)"
    ),
    "month_year": re.compile(
        rf"(?<![\w-])(?:{_MOD}\s*)?(?P<month>{_MONTH})(?:\s+(?i:of))?,?\s+{_YEAR}(?!\w)"
    ),
    "month": re.compile(
        rf"(?<![\w-])(?:(?P<dir>(?i:last|this|next))\s+|(?P<mod>{_MOD})\s*)?(?P<month>{_FULL_MONTH})"
    ),
    "year_range": re.compile(
        r"(?<![\w$£€#.,/-])(?P<year>(?:1[6-9]|20)\d\d)\s*[-–—]\s*(?P<year2>(?:1[6-9]|20)\d\d|\d\d)"
        r"(?![\w%/-])"
    ),
    "year": re.compile(rf"(?<![\w$£€#.,/-])(?:(?P<mod>{_MOD})\s*)?{_YEAR}(?![\w/-]|[.,]\d)"),
    "holiday": re.compile(
        r"(?<!\w)(?:(?P<dir>(?i:last|this|next))\s+)?(?P<holiday>Christmas\s+(?:Day|Eve)"
        r"|New\s+Year['’]s\s+(?:Day|Eve)|Valentine['’]s\s+Day|Halloween)(?:,?\s+"
        + _YEAR
        + r")?(?!\w)"
    ),
    "weekday": re.compile(
        rf"(?<![\w-])(?:(?P<dir>(?i:last|this|next))\s+)?(?P<weekday>{_WEEKDAY})"
        rf"(?:\s+(?i:{'|'.join(PARTS_OF_DAY)})\b)?"
    ),
    "pub_day": re.compile(
        r"(?i)(?<![\w-])(?:the\s+day\s+(?P<around>before\s+yesterday|after\s+tomorrow)"
        r"|(?P<word>today|tonight|yesterday|tomorrow)"
        r"|(?P<dir>this|last)\s+(?P<part>morning|afternoon|evening|night))(?!\w)"
    ),
    "calendar": re.compile(
        r"(?i)(?<![\w-])(?:(?P<mod>early|late|mid-|mid|the\s+(?:end|start|beginning|middle)\s+of)\s*)?"
        r"(?:(?P<when>earlier|later)\s+(?P<within>this|in\s+the)\s+|(?P<dir>last|this|next)\s+"
        r"|the\s+(?P<rel>previous|following)\s+)"
        r"(?P<unit>week|weekend|month|year|spring|summer|autumn|fall)(?!\w)"
    ),
    "counted": re.compile(
        rf"(?<![\w-])(?<!\bnot\s)(?P<n>{_NUMBER})[\s-]+(?P<unit>(?i:day|week|month|year))s?\s+"
        rf"(?P<rel>(?i:ago|earlier|later|(?:before|after){_CLAUSE_END}))(?!\w)"
    ),
    "ahead": re.compile(
        rf"(?<![\w-])(?i:in)\s+(?P<n>{_NUMBER})[\s-]+(?P<unit>(?i:day|week|month|year))s?(?![\w-])"
    ),
    "anaphoric": re.compile(
        r"(?i)(?<![\w-])(?:the\s+(?P<rel>next|following|previous)\s+(?P<unit>day|morning|afternoon"
        r"|evening|night|week|month|year)(?!\w)"
        r"|the\s+(?P<unit2>day|night|evening|morning|week|month|year)\s+(?P<rel2>before|after)"
        + _CLAUSE_END
        + r"|(?P<same>that|the\s+same)\s+(?P<unit3>day|morning|afternoon|evening|night|week|month"
        r"|year)(?![\w-]))"
    ),
}


@dataclass(frozen=True)
class Expression:
    """A temporal phrase found in text: ``text[start:end]`` is exactly what was matched."""

    start: int
    end: int
    kind: Kind
    year: int | None = None
    month: int | None = None
    day: int | None = None
    weekday: int | None = None
    unit: str | None = None  # offset: year|month|week|weekend|day; season: its name
    shift: int = 0
    base: Base = "pub"
    direction: Direction = None
    weak: Weak = None


def find_expressions(text: str, start: int = 0, end: int | None = None) -> Iterator[Expression]:
    """Temporal expressions in ``text[start:end]``, left to right, leftmost-longest, disjoint."""
    end = len(text) if end is None else end
    found: list[Expression] = []
    for name, pattern in PATTERNS.items():
        for match in pattern.finditer(text, start, end):
            found.extend(_READERS[name](match))
    found.sort(key=lambda e: (e.start, -(e.end - e.start)))
    last_end = -1
    for expr in found:
        if expr.start >= last_end:
            yield expr
            last_end = expr.end


# --- readers: one regex match -> expressions ------------------------------------------------


def _month_number(word: str) -> int:
    word = word.rstrip(".").lower()
    return MONTHS.get(word) or MONTH_ABBREVIATIONS[word]


def _valid_day(year: int | None, month: int, day: int) -> bool:
    try:
        dt.date(year or 2000, month, day)  # 2000 is a leap year: "February 29" stays valid
    except ValueError:
        return False
    return True


def _year(match: re.Match[str]) -> int | None:
    year = match.group("year")
    return int(year) if year else None


def _direction(match: re.Match[str]) -> Direction:
    word = (match.group("dir") or "").lower()
    return word if word in ("last", "this", "next") else None  # type: ignore[return-value]


def _read_iso(match: re.Match[str]) -> Iterator[Expression]:
    year, month, day = int(match["year"]), int(match["month"]), int(match["day"])
    if _valid_day(year, month, day):
        yield Expression(match.start(), match.end(), "date", year, month, day)


def _read_numeric(match: re.Match[str]) -> Iterator[Expression]:
    a, b, year = int(match["a"]), int(match["b"]), int(match["year"])
    if a > 12 and b <= 12:
        month, day = b, a
    elif b > 12 and a <= 12 or a == b:
        month, day = a, b
    else:  # 3/4/2021: March 4 in the US, 3 April elsewhere; not guessed
        return
    if _valid_day(year, month, day):
        yield Expression(match.start(), match.end(), "date", year, month, day)


def _read_day_date(match: re.Match[str]) -> Iterator[Expression]:
    month, day, year = _month_number(match["month"]), int(match["day"]), _year(match)
    if day >= 1 and _valid_day(year, month, day):
        yield Expression(match.start(), match.end(), "date", year, month, day)


def _read_month_year(match: re.Match[str]) -> Iterator[Expression]:
    yield Expression(
        match.start(), match.end(), "date", _year(match), _month_number(match["month"])
    )


def _read_month(match: re.Match[str]) -> Iterator[Expression]:
    direction = _direction(match)
    weak: Weak = None if direction or match.group("mod") else "month"
    month = _month_number(match["month"])
    yield Expression(
        match.start(), match.end(), "date", None, month, direction=direction, weak=weak
    )


def _read_year_range(match: re.Match[str]) -> Iterator[Expression]:
    first, second = int(match["year"]), match["year2"]
    last = int(second) if len(second) == 4 else first // 100 * 100 + int(second)
    if first < last <= LAST_YEAR:
        yield Expression(match.start("year"), match.end("year"), "date", first)
        yield Expression(match.start("year2"), match.end("year2"), "date", last)


def _read_year(match: re.Match[str]) -> Iterator[Expression]:
    year = int(match["year"])
    if year % 10 == 0 and _DECADE_SUFFIX.match(match.string, match.end()):
        return  # a decade: "the 1990's" ("1990s" never matches: a letter follows)
    weak: Weak = None if match.group("mod") else "year"
    yield Expression(match.start(), match.end(), "date", year, weak=weak)


def _read_holiday(match: re.Match[str]) -> Iterator[Expression]:
    name = re.sub(r"\s+", " ", match["holiday"]).replace("’", "'").lower()
    month, day = HOLIDAYS[name]
    direction = _direction(match)
    yield Expression(
        match.start(), match.end(), "date", _year(match), month, day, direction=direction
    )


def _read_weekday(match: re.Match[str]) -> Iterator[Expression]:
    weekday = WEEKDAYS[match["weekday"].lower()]
    yield Expression(
        match.start(), match.end(), "weekday", weekday=weekday, direction=_direction(match)
    )


def _read_pub_day(match: re.Match[str]) -> Iterator[Expression]:
    around = (match.group("around") or "").lower()
    word = (match.group("word") or "").lower()
    if around:
        shift = -2 if around.startswith("before") else 2
    elif word:
        shift = {"today": 0, "tonight": 0, "yesterday": -1, "tomorrow": 1}[word]
    else:  # "last night" is the evening before; "last morning" is not said
        if match["dir"].lower() == "last" and match["part"].lower() != "night":
            return
        shift = -1 if match["dir"].lower() == "last" else 0
    yield Expression(match.start(), match.end(), "offset", unit="day", shift=shift)


def _read_calendar(match: re.Match[str]) -> Iterator[Expression]:
    unit = match["unit"].lower()
    word = (match.group("dir") or match.group("rel") or "this").lower()
    shift = {"last": -1, "previous": -1, "this": 0, "next": 1, "following": 1}[word]
    base: Base = "pub"
    if match.group("rel"):
        base = "anchor_or_pub" if shift < 0 else "anchor"
    elif (match.group("within") or "").lower().startswith("in"):
        base = "anchor_or_pub"  # "later in the year": the year of the story's last date
    start, end = match.start(), match.end()
    if unit in SEASONS:
        if base != "pub":
            return
        direction: Direction = "last" if shift < 0 else "next" if shift > 0 else "this"
        yield Expression(start, end, "season", unit=unit, direction=direction)
    elif unit == "weekend":
        yield Expression(start, end, "weekend", shift=shift, base=base)
    else:
        yield Expression(start, end, "offset", unit=unit, shift=shift, base=base)


def _read_counted(match: re.Match[str]) -> Iterator[Expression]:
    raw = match["n"].lower()
    n = COUNTS[raw] if raw in COUNTS else int(raw)
    rel = match["rel"].lower()
    if rel == "ago":
        shift, base = -n, "pub"
    elif rel in ("earlier", "before"):
        shift, base = -n, "anchor_or_pub"
    else:
        shift, base = n, "anchor"
    unit = match["unit"].lower()
    yield Expression(match.start(), match.end(), "offset", unit=unit, shift=shift, base=base)  # type: ignore[arg-type]


def _read_ahead(match: re.Match[str]) -> Iterator[Expression]:
    raw = match["n"].lower()
    n = COUNTS[raw] if raw in COUNTS else int(raw)
    unit = match["unit"].lower()
    yield Expression(
        match.start(), match.end(), "offset", unit=unit, shift=n, base="pub", weak="ahead"
    )


def _read_anaphoric(match: re.Match[str]) -> Iterator[Expression]:
    if match.group("rel"):
        rel, unit = match["rel"].lower(), match["unit"].lower()
        shift = -1 if rel == "previous" else 1
    elif match.group("rel2"):
        rel, unit = match["rel2"].lower(), match["unit2"].lower()
        shift = -1 if rel == "before" else 1
    else:
        unit, shift = match["unit3"].lower(), 0
    base: Base = "anchor_or_pub" if shift < 0 else "anchor"
    if unit in PARTS_OF_DAY:
        unit = "day"
    yield Expression(match.start(), match.end(), "offset", unit=unit, shift=shift, base=base)


_READERS = {
    "iso": _read_iso,
    "numeric": _read_numeric,
    "month_day": _read_day_date,
    "day_month": _read_day_date,
    "month_year": _read_month_year,
    "month": _read_month,
    "year_range": _read_year_range,
    "year": _read_year,
    "holiday": _read_holiday,
    "weekday": _read_weekday,
    "pub_day": _read_pub_day,
    "calendar": _read_calendar,
    "counted": _read_counted,
    "ahead": _read_ahead,
    "anaphoric": _read_anaphoric,
}


# --- resolution --------------------------------------------------------------------------


def resolve(
    expr: Expression,
    published: PartialDate | None,
    anchor: PartialDate | None = None,
    tense: Tense = None,
    reference: PartialDate | None = None,
) -> PartialDate | None:
    """The expression's value, or None when the text does not allow one (see module doc).

    ``reference`` is the time the sentence speaks from when it names one before this
    expression (``said on Monday that ...``); only a conditional hint counts from it.
    """
    try:
        when = _resolve(expr, published, anchor, tense, reference)
    except (ValueError, OverflowError):  # a date outside the calendar
        return None
    if when is not None and tense == "future" and _relative(expr) and _before(when, published):
        return None
    return when


def _resolve(
    expr: Expression,
    published: PartialDate | None,
    anchor: PartialDate | None,
    tense: Tense,
    reference: PartialDate | None,
) -> PartialDate | None:
    origin = reference if tense == "conditional" and _at_least(reference, "day") else published
    if expr.kind == "date":
        return _resolve_date(expr, published if expr.direction else origin, tense)
    if expr.kind == "weekday":
        return _resolve_weekday(expr, published, origin, tense)
    if expr.kind == "season":
        return _resolve_season(expr, published)
    if expr.weak == "ahead":
        if tense not in FORWARD:
            return None
        base: PartialDate | None = origin
    else:
        base = _base(expr.base, published, anchor)
    if base is None or PRECISION_RANK[base.precision] < UNIT_RANK[expr.unit or "week"]:
        return None
    if expr.kind == "weekend":
        return _resolve_weekend(expr, base)
    return _resolve_offset(expr, base)


def _relative(expr: Expression) -> bool:
    """Whether the value depends on publication or context (not ``March 3, 2021``)."""
    return expr.kind != "date" or expr.year is None


def _before(when: PartialDate, published: PartialDate | None) -> bool:
    """Whether ``when`` lies wholly before publication, compared at the coarser precision."""
    if published is None:
        return False
    rank = min(PRECISION_RANK[when.precision], PRECISION_RANK[published.precision])
    return _cut(when.date, rank) < _cut(published.date, rank)


def _cut(date: dt.date, rank: int) -> tuple[int, ...]:
    return (date.year, date.month, date.day)[: rank + 1]


def _base(
    base: Base, published: PartialDate | None, anchor: PartialDate | None
) -> PartialDate | None:
    if base == "pub":
        return published
    if base == "anchor":
        return anchor
    return anchor or published


def _at_least(when: PartialDate | None, precision: Precision) -> bool:
    return when is not None and PRECISION_RANK[when.precision] >= PRECISION_RANK[precision]


def _resolve_date(
    expr: Expression, published: PartialDate | None, tense: Tense
) -> PartialDate | None:
    month, day = expr.month, expr.day
    precision: Precision = "day" if day else "month" if month else "year"
    if expr.year is not None:
        return PartialDate(dt.date(expr.year, month or 1, day or 1), precision)
    if month is None or published is None or not _at_least(published, "month"):
        return None
    pub = published.date
    this_year = dt.date(pub.year, month, 1)
    # Compare at the finest precision both have: a day-less date or publication compares months.
    if day is not None and published.precision == "day" and _valid_day(pub.year, month, day):
        this_year, pub_point = dt.date(pub.year, month, day), pub
    else:
        pub_point = pub.replace(day=1)
    year = pub.year
    if expr.direction == "last":
        year = pub.year if this_year < pub_point else pub.year - 1
    elif expr.direction == "next":
        year = pub.year if this_year > pub_point else pub.year + 1
    elif expr.direction is None:
        ahead = this_year if this_year >= pub_point else _shift_year(this_year, 1)
        back = this_year if this_year <= pub_point else _shift_year(this_year, -1)
        nearer_ahead = (ahead - pub_point) < (pub_point - back)
        forward = tense in FORWARD or (tense is None and nearer_ahead)
        year = ahead.year if forward else back.year
    if day is not None and not _valid_day(year, month, day):
        return None
    return PartialDate(dt.date(year, month, day or 1), precision)


def _shift_year(date: dt.date, years: int) -> dt.date:
    day = min(date.day, 28) if date.month == 2 else date.day  # February 29
    return date.replace(year=date.year + years, day=day)


def _resolve_weekday(
    expr: Expression, published: PartialDate | None, origin: PartialDate | None, tense: Tense
) -> PartialDate | None:
    """``last``/``next`` count from publication; a bare weekday from the origin (publication,
    or the reference time of a conditional), forward with a forward tense, else back."""
    if published is None or published.precision != "day" or expr.weekday is None:
        return None
    if expr.direction in ("last", "next") or origin is None or origin.precision != "day":
        origin = published
    point = origin.date
    back = (point.weekday() - expr.weekday) % 7  # days since the most recent such weekday
    ahead = (expr.weekday - point.weekday()) % 7
    if expr.direction == "last":
        delta = -(back or 7)
    elif expr.direction == "next":
        delta = ahead or 7
    elif tense in FORWARD or (expr.direction == "this" and tense != "past"):
        delta = ahead
    else:
        delta = -back
    return PartialDate(point + dt.timedelta(days=delta), "day")


def _resolve_season(expr: Expression, published: PartialDate | None) -> PartialDate | None:
    first, last = SEASONS[expr.unit or "summer"]
    if published is None:
        return None
    year = published.date.year
    if expr.direction != "this":
        if not _at_least(published, "month"):
            return None
        month = published.date.month
        if expr.direction == "last":
            year = year if month > last else year - 1
        else:
            year = year if month < first else year + 1
    return PartialDate(dt.date(year, 1, 1), "year")


def _resolve_weekend(expr: Expression, base: PartialDate) -> PartialDate | None:
    monday = base.date - dt.timedelta(days=base.date.weekday())
    saturday = monday + dt.timedelta(days=5 + 7 * expr.shift)
    return _containing(saturday, saturday + dt.timedelta(days=1))


def _resolve_offset(expr: Expression, base: PartialDate) -> PartialDate | None:
    unit, shift, date = expr.unit, expr.shift, base.date
    if unit == "day":
        return PartialDate(date + dt.timedelta(days=shift), "day")
    if unit == "week":
        point = date + dt.timedelta(weeks=shift)
        monday = point - dt.timedelta(days=point.weekday())
        return _containing(monday, monday + dt.timedelta(days=6))
    if unit == "month":
        index = date.year * 12 + date.month - 1 + shift
        return PartialDate(dt.date(index // 12, index % 12 + 1, 1), "month")
    return PartialDate(dt.date(date.year + shift, 1, 1), "year")


def _containing(first: dt.date, last: dt.date) -> PartialDate | None:
    """The most precise ISO unit that holds the whole period ``first..last``."""
    if first.year != last.year:
        return None
    if first.month != last.month:
        return PartialDate(dt.date(first.year, 1, 1), "year")
    return PartialDate(first.replace(day=1), "month")
