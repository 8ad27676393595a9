"""Outlet keys and names: from the source, else the URL's domain, else the file name."""

from __future__ import annotations

import pytest

from newsloom.text.outlets import outlet_key, outlet_name

ID = "9c4ea3030a1d62d8"

# (source, key, name shown) for an article with no URL and no origin
ROWS = [
    ("The Daily Courier", "daily courier", "The Daily Courier"),
    ("daily-courier", "daily courier", "daily-courier"),
    ("  Metro Wire ", "metro wire", "Metro Wire"),
    ("THE   TIMES", "times", "THE   TIMES"),
    (None, f"article:{ID}", "unknown outlet"),
    ("", f"article:{ID}", "unknown outlet"),
    ("   ", f"article:{ID}", "unknown outlet"),
    ("—", f"article:{ID}", "—"),  # no word character: no key to share, but shown as written
]


@pytest.mark.parametrize(("source", "key", "name"), ROWS)
def test_outlet_key_and_name(source: str | None, key: str, name: str) -> None:
    assert outlet_key(source, ID) == key
    assert outlet_name(source) == name


# (source, url, origin, name shown): metadata first, then the URL's domain, then the file
NAME_ROWS = [
    ("Metro Wire", "https://www.daily-courier.example/x", "a/b.txt", "Metro Wire"),
    (None, "https://www.daily-courier.example/news/x", "a/b.txt", "daily-courier"),
    ("  ", "https://news.bbc.co.uk/1/x.stm", None, "bbc"),
    (
        None,
        None,
        "examples/corpus/044_c81d5e0b7a2f3394.txt",
        "unknown outlet (044_c81d5e0b7a2f3394.txt)",
    ),
    (None, "not a url", "data/feed.jsonl:3", "unknown outlet (feed.jsonl:3)"),
    (None, None, r"C:\news\story.txt", "unknown outlet (story.txt)"),
    (None, None, "-", "unknown outlet (stdin)"),
    (None, None, "-:2", "unknown outlet (stdin:2)"),
    (None, None, None, "unknown outlet"),
    (None, None, "", "unknown outlet"),
]


@pytest.mark.parametrize(("source", "url", "origin", "name"), NAME_ROWS)
def test_outlet_name_is_a_name(
    source: str | None, url: str | None, origin: str | None, name: str
) -> None:
    assert outlet_name(source, url, origin) == name
    assert ID not in name and ID[:8] not in name


def test_same_outlet_two_spellings() -> None:
    assert outlet_key("The Daily Courier", "a") == outlet_key("daily courier", "b")
    assert outlet_key(None, "a") != outlet_key(None, "b")


def test_url_domain_keys_with_the_source_it_names() -> None:
    """An article known only by its URL is one outlet with the articles its domain names."""
    by_url = outlet_key(None, "a", "https://www.daily-courier.example/news/x")
    assert (
        by_url
        == outlet_key("daily-courier", "b")
        == outlet_key(None, "c", "http://daily-courier.example/")
    )
