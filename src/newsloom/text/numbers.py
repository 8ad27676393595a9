"""English number words ("seven", "twenty-five") and their values."""

from __future__ import annotations

import re

SMALL_NUMBERS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19, "dozen": 12,
}  # fmt: skip
TENS = {
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
    "eighty": 80, "ninety": 90,
}  # fmt: skip
_UNITS = "one|two|three|four|five|six|seven|eight|nine"
# A counting number from one to ninety-nine in words (no "zero", no "dozen"): an age.
COUNT_WORDS = (
    r"(?:(?:" + "|".join(TENS) + rf")(?:[-‐–](?:{_UNITS}))?"
    r"|" + "|".join(k for k in SMALL_NUMBERS if k not in ("zero", "dozen")) + r")"
)


def word_number(raw: str) -> int | None:
    """The value of "seven", "twenty", "twenty-five" (any case), else None."""
    raw = raw.lower()
    if raw in SMALL_NUMBERS:
        return SMALL_NUMBERS[raw]
    parts = re.split(r"[-‐– ]", raw)
    if parts[0] in TENS and len(parts) <= 2:
        tail = parts[1] if len(parts) > 1 else ""
        if tail and tail not in SMALL_NUMBERS:
            return None
        return TENS[parts[0]] + SMALL_NUMBERS.get(tail, 0)
    return None
