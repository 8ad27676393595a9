"""Outlet keys and names from plain source strings."""

from __future__ import annotations

import pytest

from newsloom.text.outlets import outlet_key, outlet_name

ID = "9c4ea3030a1d62d8"

# (source, key, name shown)
ROWS = [
    ("The Daily Courier", "daily courier", "The Daily Courier"),
    ("daily-courier", "daily courier", "daily-courier"),
    ("  Metro Wire ", "metro wire", "Metro Wire"),
    ("THE   TIMES", "times", "THE   TIMES"),
    (None, f"article:{ID}", "unknown source (9c4ea303)"),
    ("", f"article:{ID}", "unknown source (9c4ea303)"),
    ("   ", f"article:{ID}", "unknown source (9c4ea303)"),
    ("—", f"article:{ID}", "—"),  # no word character: no key to share, but shown as written
]


@pytest.mark.parametrize(("source", "key", "name"), ROWS)
def test_outlet_key_and_name(source: str | None, key: str, name: str) -> None:
    assert outlet_key(source, ID) == key
    assert outlet_name(source, ID) == name


def test_same_outlet_two_spellings() -> None:
    assert outlet_key("The Daily Courier", "a") == outlet_key("daily courier", "b")
    assert outlet_key(None, "a") != outlet_key(None, "b")
