"""Whether the ages stated of one person on given publication dates can all be true."""

from __future__ import annotations

import math
from datetime import date

# Two stated ages of one person are compatible when the later article's age exceeds the
# earlier one's by between floor(gap) and gap + AGE_SLACK years (gap = years between the
# publication dates). A birthday falls inside a short gap too rarely to excuse a one-year
# difference within the same week or month; from half a year on it is allowed. 52 then 53 a
# year later is fine; 52 and 53 in the same week conflict.
AGE_SLACK = 0.5
DAYS_PER_YEAR = 365.25


def _gap_years(a: date | None, b: date | None) -> float:
    return abs((a - b).days) / DAYS_PER_YEAR if a and b else 0.0


def age_conflict(stated: list[tuple[int, date | None]]) -> bool:
    """Whether ages stated on these publication dates cannot all be true (see AGE_SLACK)."""
    for x, (age_a, day_a) in enumerate(stated):
        for age_b, day_b in stated[x + 1 :]:
            if day_a and day_b and day_b < day_a:
                age_a, day_a, age_b, day_b = age_b, day_b, age_a, day_a
            gap = _gap_years(day_a, day_b)
            grew = age_b - age_a
            if day_a is None or day_b is None or day_a == day_b:
                if grew:
                    return True
                continue
            if not math.floor(gap) - 1e-9 <= grew <= gap + AGE_SLACK:
                return True
    return False
