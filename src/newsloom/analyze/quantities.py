"""The number grammar the claims stage uses: find figures in text and normalise them.

Pure functions over a string (no spaCy): ``find_quantities`` yields every money amount,
percentage, age, duration, measured quantity and bare number (a count candidate) with exact
offsets, its value normalised (``US$3 million`` = ``$3m`` = ``$3,000,000`` -> 3e6 USD), the
words that bound it (``less than three years``) and ranges (``three to five years``). Numbers
that are dates, times, ordinals or parts of identifiers (``COVID-19``) are not figures.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from ..text.dates import MONTH_ABBREVIATIONS, MONTH_NAMES
from ..text.numbers import SMALL_NUMBERS, TENS
from ..text.units import MEASURE_UNITS

SCALES = {
    "hundred": 1e2, "thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12,
    "k": 1e3, "m": 1e6, "mn": 1e6, "mln": 1e6, "mil": 1e6, "b": 1e9, "bn": 1e9, "bln": 1e9,
    "tn": 1e12, "trn": 1e12,
}  # fmt: skip
# One-letter scales ("3m", "3b", "3k") are read as scales only next to a currency: without
# one, "3m" is as likely three metres.
LETTER_SCALES = {"k", "m", "b"}

CURRENCY_PREFIXES = {
    "us$": "USD", "u.s.$": "USD", "$": "USD", "a$": "AUD", "au$": "AUD", "c$": "CAD",
    "ca$": "CAD", "nz$": "NZD", "hk$": "HKD", "s$": "SGD", "£": "GBP", "€": "EUR", "¥": "JPY",
    "₹": "INR", "usd": "USD", "eur": "EUR", "gbp": "GBP", "aud": "AUD", "cad": "CAD",
    "jpy": "JPY", "inr": "INR", "chf": "CHF", "rs": "INR", "rs.": "INR",
}  # fmt: skip
CURRENCY_WORDS = {
    "dollars": "USD", "dollar": "USD", "euros": "EUR", "euro": "EUR", "yen": "JPY",
    "rupees": "INR", "pounds sterling": "GBP", "usd": "USD", "eur": "EUR", "gbp": "GBP",
    "aud": "AUD", "cad": "CAD", "francs": "CHF",
}  # fmt: skip
DURATION_UNITS = {
    "second": "second", "seconds": "second", "minute": "minute", "minutes": "minute",
    "hour": "hour", "hours": "hour", "day": "day", "days": "day", "week": "week",
    "weeks": "week", "month": "month", "months": "month", "year": "year", "years": "year",
    "decade": "decade", "decades": "decade", "century": "century", "centuries": "century",
}  # fmt: skip
# Words before a figure that bound it, and what they mean for the true value.
QUALIFIERS = {
    "about": "approx", "around": "approx", "approximately": "approx", "roughly": "approx",
    "nearly": "approx", "almost": "approx", "some": "approx", "an estimated": "approx",
    "estimated": "approx", "close to": "approx", "just about": "approx", "circa": "approx",
    "more than": "above", "over": "above", "at least": "above", "upwards of": "above",
    "in excess of": "above", "no fewer than": "above", "no less than": "above",
    "just over": "above", "well over": "above", "greater than": "above",
    "less than": "below", "under": "below", "fewer than": "below", "up to": "below",
    "at most": "below", "no more than": "below", "as many as": "below", "as much as": "below",
    "just under": "below", "nearly all of": "approx", "shy of": "below",
}  # fmt: skip

MONTHS = "|".join([m.title() for m in MONTH_NAMES] + [m.title() for m in MONTH_ABBREVIATIONS])

_WORD_NUMBER = (
    r"(?:(?:" + "|".join(TENS) + r")(?:[- ](?:one|two|three|four|five|six|seven|eight|nine))?"
    r"|(?:a\s+)?dozen|" + "|".join(k for k in SMALL_NUMBERS if k != "dozen") + r")"
)
_DIGITS = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+"
_NUMBER = rf"(?:{_DIGITS}|(?i:{_WORD_NUMBER})(?![\w]))"
_SCALE = r"(?:hundred|thousand|million|billion|trillion|mln|mn|mil|bln|bn|trn|tn|[kmb])"
_CURRENCY_PRE = (
    r"(?:U\.S\.\$|US\$|AU\$|NZ\$|HK\$|CA\$|[ACS]\$|\$|£|€|¥|₹|"
    r"(?:USD|EUR|GBP|AUD|CAD|JPY|INR|CHF|Rs\.?)\s?)"
)

# A figure's core: optional currency, a number (digits or words), optional scale. The
# look-behind keeps numbers inside words and identifiers ("COVID-19", "G7", "3/4") out.
CORE_RE = re.compile(
    rf"(?<![\w.,/#-])(?P<cur>{_CURRENCY_PRE})?(?P<num>{_NUMBER})"
    rf"(?:(?P<glue>{_SCALE})(?![\w])|"
    r"\s?(?P<scale>(?i:hundred|thousand|million|billion|trillion|mln|mn|bln|bn|trn|tn))(?![\w]))?"
)
# (the words of a range stay on one line: "$3m to ¶ 40" is two figures)
_RANGE_RE = re.compile(
    rf"[^\S\n]*(?:-|–|—|to|and)[^\S\n]*(?:{_CURRENCY_PRE})?(?P<num>{_NUMBER})"
    rf"(?:(?P<glue>{_SCALE})(?![\w])|"
    r"\s?(?P<scale>(?i:hundred|thousand|million|billion|trillion|mln|mn|bln|bn|trn|tn))(?![\w]))?"
)
_PERCENT_RE = re.compile(r"\s?(?:%|(?i:per\s?cent|percentage points?))(?![\w])")
_AGE_RE = re.compile(r"(?i:[- ](?P<unit>year|month|week|day)s?[- ]old)(?![\w])")
_DURATION_RE = re.compile(r"(?i:[- ]?(?P<unit>" + "|".join(DURATION_UNITS) + r"))(?![\w])")
_CURRENCY_WORD_RE = re.compile(
    r"\s(?P<cur>(?i:pounds sterling|dollars|dollar|euros|euro|yen|rupees|francs|"
    r"usd|eur|gbp|aud|cad))(?![\w])"
)
_MEASURE_RE = re.compile(
    r"[- ]?(?P<unit>"
    + "|".join(sorted((re.escape(u) for u in MEASURE_UNITS), key=len, reverse=True))
    + r")(?![\w/])",
    re.IGNORECASE,
)
# The words before a figure that belong to it ("aged 41", "about $3m") stand on its line: a
# paragraph's last word is never the next one's qualifier.
_AGED_RE = re.compile(r"(?i:\b(?:aged|age)[^\S\r\n])$")
_BETWEEN_RE = re.compile(r"(?i:\bbetween[^\S\r\n])$")
_QUALIFIER_RE = re.compile(
    r"(?i:\b(?P<q>"
    + "|".join(sorted((re.escape(q) for q in QUALIFIERS), key=len, reverse=True))
    + r")[^\S\r\n]+)$"
)
_TIME_AFTER = re.compile(r"(?i:(?::\d)|\s?(?:a\.?m\.?|p\.?m\.?)(?![\w])|(?:st|nd|rd|th|s)\b|/\d)")
_MONTH_BEFORE = re.compile(rf"\b(?:{MONTHS})\.?\s+$")
_MONTH_AFTER = re.compile(rf"^(?:\s+of)?\s+(?:{MONTHS})\b")


@dataclass(frozen=True)
class Quantity:
    """A figure found in text: ``text[start:end]`` is exactly what was matched."""

    start: int
    end: int
    kind: str  # money | percent | age | duration | quantity | number
    value: float
    unit: str | None = None
    value_high: float | None = None
    qualifier: str | None = None
    bound: str = "exact"
    digits: str = ""  # the number as written, for rounding precision


def parse_number(text: str) -> float | None:
    """``"3,000,000"`` -> 3e6, ``"two"`` -> 2, ``"twenty-five"`` -> 25, ``"a dozen"`` -> 12."""
    raw = text.strip().lower().replace(",", "")
    if not raw:
        return None
    try:
        return float(raw)
    except ValueError:
        pass
    raw = re.sub(r"^a\s+", "", raw)
    if raw in SMALL_NUMBERS:
        return float(SMALL_NUMBERS[raw])
    parts = re.split(r"[- ]", raw)
    if parts[0] in TENS:
        tail = parts[1] if len(parts) > 1 else ""
        return float(TENS[parts[0]] + SMALL_NUMBERS.get(tail, 0))
    return None


def precision(digits: str, scale: float = 1.0) -> float:
    """Half the step of the last significant digit as written: how far rounding may hide.

    ``"3"`` million -> 0.5e6; ``"3.2"`` million -> 0.05e6; ``"12,000"`` -> 500 (trailing
    zeros of a whole number are read as rounding); a number word -> 0.5.
    """
    raw = digits.replace(",", "").strip()
    if not re.fullmatch(r"\d*\.?\d+", raw):
        return 0.5 * scale
    if "." in raw:
        decimals = len(raw.split(".", 1)[1])
        return 0.5 * 10 ** (-decimals) * scale
    stripped = raw.rstrip("0") or "0"
    zeros = len(raw) - len(stripped)
    return 0.5 * 10**zeros * scale


def _scale_of(match: re.Match[str], has_currency: bool) -> tuple[float, bool]:
    """The scale factor and whether a one-letter glued scale was refused (then it is a unit)."""
    word = (match.group("glue") or match.group("scale") or "").lower()
    if not word:
        return 1.0, False
    if word in LETTER_SCALES and not has_currency:
        return 1.0, True
    return SCALES.get(word, 1.0), False


def _is_date_or_time(text: str, start: int, end: int, num: str, kind: str, scale: float) -> bool:
    """Times ("3pm", "3:30"), ordinals ("3rd"), day numbers next to a month, and years."""
    if _TIME_AFTER.match(text, start + len(num)) or (start > 0 and text[start - 1] == ":"):
        return True
    if kind != "number":
        return False
    if _MONTH_BEFORE.search(text[max(0, start - 12) : start]) or _MONTH_AFTER.match(
        text[end : end + 14]
    ):
        return True
    # A bare four-digit number between 1000 and 2100 is a year unless a unit says otherwise.
    return scale == 1.0 and bool(re.fullmatch(r"1\d{3}|20\d{2}|2100", num))


def find_quantities(text: str) -> Iterator[Quantity]:
    """Every figure in ``text`` (see the module docstring), left to right, not overlapping."""
    pos = 0
    while True:
        match = CORE_RE.search(text, pos)
        if match is None:
            return
        quantity = _read(text, match)
        if quantity is None:
            pos = match.end()
            continue
        yield quantity
        pos = max(quantity.end, match.end())


def _read(text: str, match: re.Match[str]) -> Quantity | None:
    num = match.group("num")
    value = parse_number(num)
    if value is None:
        return None
    currency = CURRENCY_PREFIXES.get((match.group("cur") or "").strip().lower())
    scale, letter_unit = _scale_of(match, currency is not None)
    start, end = match.start(), match.end()
    if letter_unit:  # "3m" without a currency: the letter is a unit, read below
        end = match.start("num") + len(num)
    low, high, digits, end = _range(text, match, start, end, value, scale, currency)
    kind, unit, end = _unit(text, end, currency, scale)
    if kind == "number" and (end < len(text) and text[end].isalnum()):
        return None  # part of a token such as "3D" or "4x4"
    if kind == "number" and scale == 1.0 and num.strip().lower() in ("one", "zero"):
        return None  # "one of", "one day": a count only with a unit ("one year")
    if currency is None and _is_date_or_time(text, match.start("num"), end, num, kind, scale):
        return None
    before = text[max(0, start - 24) : start]
    if kind in ("age", "number") and (aged := _AGED_RE.search(before)):
        if kind == "number" and not 0 < value < 130:
            return None
        kind, unit, start = "age", unit or "year", start - len(aged.group(0))
    qualifier, bound = None, "exact"
    q = _QUALIFIER_RE.search(text[max(0, start - 24) : start])
    # "over three years" usually means "during"; ages are stated, not bounded.
    if q and kind != "age" and not (kind == "duration" and q.group("q").lower() == "over"):
        qualifier, bound = q.group("q"), QUALIFIERS[q.group("q").lower()]
        start -= len(q.group(0))
    elif high is not None and (between := _BETWEEN_RE.search(text[max(0, start - 8) : start])):
        qualifier, start = "between", start - len(between.group(0))
    return Quantity(start, end, kind, low, unit, high, qualifier, bound, digits)


def _range(
    text: str,
    match: re.Match[str],
    start: int,
    end: int,
    value: float,
    scale: float,
    currency: str | None,
) -> tuple[float, float | None, str, int]:
    """``(low, high, digits, end)``: "3 to 5 years", "$3m-$5m", "between 200 and 300".

    "from 3 to 5" is a change, not a range, and "3 and 5" is a range only after "between".
    """
    low, digits = value * scale, match.group("num")
    more = _RANGE_RE.match(text, end)
    before = text[max(0, start - 8) : start]
    if more is None or re.search(r"(?i:\bfrom\s)$", before):
        return low, None, digits, end
    if more.group(0).strip()[:3].lower() == "and" and not _BETWEEN_RE.search(before):
        return low, None, digits, end
    second = parse_number(more.group("num"))
    glue = (more.group("glue") or more.group("scale") or "").lower()
    letter = glue in LETTER_SCALES and not currency
    second_scale = SCALES[glue] if glue and not letter else scale
    if second is None or second * second_scale <= low:
        return low, None, digits, end
    if not (match.group("glue") or match.group("scale")):
        low = value * second_scale  # "3 to 5 million": the scale binds both ends
    new_end = more.start("num") + len(more.group("num")) if letter else more.end()
    return low, second * second_scale, more.group("num"), new_end


def _unit(text: str, end: int, currency: str | None, scale: float) -> tuple[str, str | None, int]:
    """What follows the number: its kind, canonical unit and the new end of the figure."""
    if currency:
        return "money", currency, end
    if m := _PERCENT_RE.match(text, end):
        return "percent", "%", m.end()
    if m := _AGE_RE.match(text, end):
        return "age", m.group("unit").lower(), m.end()
    if m := _CURRENCY_WORD_RE.match(text, end):
        return "money", CURRENCY_WORDS[m.group("cur").lower()], m.end()
    if m := _DURATION_RE.match(text, end):
        return "duration", DURATION_UNITS[m.group("unit").lower()], m.end()
    if m := _MEASURE_RE.match(text, end):
        unit = MEASURE_UNITS[m.group("unit").lower()][0]
        return "quantity", unit, m.end()
    return "number", None, end
