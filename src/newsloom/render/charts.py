"""Coverage over time as plain server-side SVG: articles per outlet per day (a story's small
multiples), stories by day (the front page) and a profile's values by month.

Every chart is laid out here as numbers for an inline ``<svg>`` (``templates/charts.html``),
with a title, a description and the same figures as a table for readers who cannot see it:
no script, no external file, so it shows from ``file://`` as from the server. Days are
bucketed as the story page's coverage chart buckets them (``html.chart_unit``: day, week,
month, years, whichever fits MAX_CHART_BARS bars).
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..text.dates import exact_day

# Bars in the coverage chart at most: two months of daily bars, ≥ 5 px a bar in the 320-unit
# chart at phone width. A story's span picks the finest unit that fits (day, week, month,
# year, then groups of YEAR_STEPS years), so the page stays small whatever dates it holds.
MAX_CHART_BARS = 62
YEAR_STEPS = (1, 2, 5, 10, 25, 50, 100, 250, 500, 1000)  # 9999 years / 250 = 40 bars
CHART_WIDTH, CHART_HEIGHT, CHART_AXIS = 320, 80, 16

# Outlets drawn as their own row at most; the rest share one "other outlets" row. Eight rows
# of ROW_HEIGHT keep the chart under a phone screen's height.
MAX_OUTLET_ROWS = 8
ROW_HEIGHT = 22
ROW_GAP = 4
# Width of the outlet names' column, in the chart's units (of CHART_WIDTH): names longer than
# about LABEL_CHARS characters are cut with an ellipsis (the table gives them whole).
LABEL_WIDTH = 110
LABEL_CHARS = 18
BAR_CHART_HEIGHT = 80
AXIS_SPACE = 16
OTHER_OUTLETS = "other outlets"


@dataclass(frozen=True)
class ChartUnit:
    """How the coverage chart buckets days: ``days`` for day/week, else ``years`` (0: months)."""

    name: str
    days: int = 0
    years: int = 0

    def index(self, day: dt.date) -> int:
        """The bucket number of ``day`` (consecutive buckets have consecutive numbers)."""
        if self.days:
            return (day.toordinal() - 1) // self.days  # ordinal 1 (0001-01-01) is a Monday
        if self.years:
            return day.year // self.years
        return day.year * 12 + day.month - 1

    def label(self, index: int) -> str:
        """The bucket's name: its day, the Monday of its week, ``YYYY-MM``, ``YYYY`` or a range."""
        if self.days:
            start = dt.date.fromordinal(index * self.days + 1).isoformat()
            return f"week of {start}" if self.days == 7 else start
        if self.years == 1:
            return f"{index:04d}"
        if self.years:
            return f"{index * self.years:04d}–{index * self.years + self.years - 1:04d}"
        return f"{index // 12:04d}-{index % 12 + 1:02d}"


CHART_UNITS = (
    ChartUnit("day", days=1),
    ChartUnit("week", days=7),
    ChartUnit("month"),
    *(ChartUnit("year" if n == 1 else f"{n} years", years=n) for n in YEAR_STEPS),
)


def chart_unit(first: dt.date, last: dt.date) -> ChartUnit:
    """The finest unit that shows ``first`` to ``last`` in at most MAX_CHART_BARS bars."""
    for unit in CHART_UNITS:
        if unit.index(last) - unit.index(first) < MAX_CHART_BARS:
            return unit
    return CHART_UNITS[-1]


def _buckets(days: Sequence[dt.date]) -> tuple[ChartUnit, int, list[str]]:
    """The unit, the first bucket's number and every bucket's label from first to last day."""
    unit = chart_unit(min(days), max(days))
    low, high = unit.index(min(days)), unit.index(max(days))
    return unit, low, [unit.label(i) for i in range(low, high + 1)]


def outlet_day_chart(articles: Iterable[tuple[str, str | None]]) -> dict[str, Any] | None:
    """Small multiples of a story's coverage: one row of bars per outlet (its articles per day,
    week or month, by span), on one time axis and one scale. ``articles``: (outlet, date).

    None when fewer than two outlets have dated articles (the story's total chart says it all).
    """
    dated = [(o, d) for o, date in articles if (d := exact_day(date)) is not None]
    outlets = Counter(o for o, _ in dated)
    if len(outlets) < 2:
        return None
    unit, low, labels = _buckets([d for _, d in dated])
    shown = [o for o, _ in sorted(outlets.items(), key=lambda kv: (-kv[1], kv[0]))]
    if len(shown) > MAX_OUTLET_ROWS:
        shown = shown[: MAX_OUTLET_ROWS - 1] + [OTHER_OUTLETS]
    row_of = {o: (o if o in shown else OTHER_OUTLETS) for o in outlets}
    counts: Counter[tuple[str, int]] = Counter((row_of[o], unit.index(d) - low) for o, d in dated)
    top = max(counts.values())
    slot = (CHART_WIDTH - LABEL_WIDTH) / len(labels)
    rows = []
    for r, outlet in enumerate(shown):
        y0 = r * (ROW_HEIGHT + ROW_GAP)
        bars = []
        for i, label in enumerate(labels):
            n = counts.get((outlet, i), 0)
            if n:
                h = (ROW_HEIGHT - 2) * n / top
                bars.append(
                    {
                        "x": round(LABEL_WIDTH + i * slot + slot * 0.1, 2),
                        "y": round(y0 + ROW_HEIGHT - h, 2),
                        "w": round(max(slot * 0.8, 1), 2),
                        "h": round(h, 2),
                        "title": f"{outlet}, {label}: {n} article{'s' if n != 1 else ''}",
                    }
                )
        name = outlet if len(outlet) <= LABEL_CHARS else outlet[: LABEL_CHARS - 1] + "…"
        rows.append({"name": name, "full": outlet, "y": y0, "base": y0 + ROW_HEIGHT, "bars": bars})
    table = [
        {"bucket": labels[i], "outlet": outlet, "count": n}
        for (outlet, i), n in sorted(counts.items(), key=lambda kv: (kv[0][1], kv[0][0]))
    ]
    return {
        "width": CHART_WIDTH,
        "height": len(shown) * (ROW_HEIGHT + ROW_GAP),
        "label_width": LABEL_WIDTH,
        "rows": rows,
        "unit": unit.name,
        "first": labels[0],
        "last": labels[-1],
        "outlets": len(outlets),
        "total": len(dated),
        "table": table,
    }


def bar_chart(
    values: Iterable[tuple[str, float]], what: str, by_day: bool = True
) -> dict[str, Any] | None:
    """One row of bars: ``values`` are (ISO day, or a label when not ``by_day``, value).

    By day, days are summed into the finest bucket that fits (empty buckets drawn empty);
    else each label is one bar in the order given. ``what`` names the value ("stories").
    """
    pairs = list(values)
    if by_day:
        dated = [(d, v) for day, v in pairs if (d := exact_day(day)) is not None]
        if not dated:
            return None
        unit, low, labels = _buckets([d for d, _ in dated])
        sums = [0.0] * len(labels)
        for d, v in dated:
            sums[unit.index(d) - low] += v
        unit_name = unit.name
    else:
        if not pairs:
            return None
        labels, sums, unit_name = [p[0] for p in pairs], [float(p[1]) for p in pairs], "month"
    top = max(sums) or 1.0
    slot = CHART_WIDTH / len(labels)
    plot = BAR_CHART_HEIGHT - AXIS_SPACE
    bars = []
    for i, (label, v) in enumerate(zip(labels, sums, strict=True)):
        h = plot * v / top
        shown = f"{v:g}"
        bars.append(
            {
                "x": round(i * slot + slot * 0.1, 2),
                "y": round(plot - h, 2),
                "w": round(max(slot * 0.8, 1), 2),
                "h": round(h, 2),
                "title": f"{label}: {shown} {what}",
            }
        )
    return {
        "width": CHART_WIDTH,
        "height": BAR_CHART_HEIGHT,
        "axis_y": plot,
        "bars": bars,
        "unit": unit_name,
        "first": labels[0],
        "last": labels[-1],
        "what": what,
        "total": f"{sum(sums):g}",
        "table": [
            {"bucket": label, "value": f"{v:g}"} for label, v in zip(labels, sums, strict=True) if v
        ],
    }
