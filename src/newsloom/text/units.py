"""Units of measured quantities and durations, and their conversion to comparable values.

Two figures compare only within one dimension: durations in days, measures in SI base units
(metres, kilograms, litres, square metres, metres per second).
"""

from __future__ import annotations

# Measured quantities: the word as written -> (canonical unit, dimension, factor to the base).
MEASURE_UNITS: dict[str, tuple[str, str, float]] = {
    "km": ("km", "length", 1000.0), "kilometres": ("km", "length", 1000.0),
    "kilometers": ("km", "length", 1000.0), "kilometre": ("km", "length", 1000.0),
    "kilometer": ("km", "length", 1000.0), "m": ("m", "length", 1.0),
    "metres": ("m", "length", 1.0), "meters": ("m", "length", 1.0),
    "metre": ("m", "length", 1.0), "meter": ("m", "length", 1.0),
    "cm": ("cm", "length", 0.01), "mm": ("mm", "length", 0.001),
    "miles": ("mile", "length", 1609.344), "mile": ("mile", "length", 1609.344),
    "feet": ("ft", "length", 0.3048), "foot": ("ft", "length", 0.3048),
    "ft": ("ft", "length", 0.3048), "inches": ("in", "length", 0.0254),
    "inch": ("in", "length", 0.0254), "yards": ("yd", "length", 0.9144),
    "kg": ("kg", "mass", 1.0), "kilograms": ("kg", "mass", 1.0), "kilogram": ("kg", "mass", 1.0),
    "kilos": ("kg", "mass", 1.0), "g": ("g", "mass", 0.001), "grams": ("g", "mass", 0.001),
    "pounds": ("lb", "mass", 0.45359237), "pound": ("lb", "mass", 0.45359237),
    "lb": ("lb", "mass", 0.45359237), "lbs": ("lb", "mass", 0.45359237),
    "tons": ("t", "mass", 1000.0), "tonnes": ("t", "mass", 1000.0), "ton": ("t", "mass", 1000.0),
    "tonne": ("t", "mass", 1000.0), "litres": ("l", "volume", 1.0), "liters": ("l", "volume", 1.0),
    "gallons": ("gal", "volume", 3.785411784), "acres": ("acre", "area", 4046.8564224),
    "hectares": ("ha", "area", 10000.0), "mph": ("mph", "speed", 0.44704),
    "km/h": ("km/h", "speed", 0.277777778), "kph": ("km/h", "speed", 0.277777778),
}  # fmt: skip
DURATION_DAYS = {
    "second": 1 / 86400, "minute": 1 / 1440, "hour": 1 / 24, "day": 1.0, "week": 7.0,
    "month": 30.436875, "year": 365.2425, "decade": 3652.425, "century": 36524.25,
}  # fmt: skip


def to_base(kind: str, unit: str | None, value: float) -> tuple[str | None, float]:
    """A comparable (dimension, value): durations in days, measures in SI base units."""
    if kind in ("duration", "age") and unit in DURATION_DAYS:
        return "time", value * DURATION_DAYS[unit]
    if kind == "quantity" and unit:
        for canonical, dimension, factor in MEASURE_UNITS.values():
            if canonical == unit:
                return dimension, value * factor
    return unit, value
