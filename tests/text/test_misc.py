"""Character ranges, units, URLs and datelines."""

from __future__ import annotations

import pytest

from newsloom.text.datelines import dateline_at, line_dateline, own_words_start
from newsloom.text.ranges import inside, strip_span
from newsloom.text.units import to_base
from newsloom.text.urls import date_from_url, source_from_url


@pytest.mark.parametrize(
    ("text", "span", "stripped"),
    [
        ("  ab  ", (0, 6), (2, 4)),
        ("ab", (0, 2), (0, 2)),
        ("   ", (0, 3), (3, 3)),
        ("", (0, 0), (0, 0)),
    ],
)
def test_strip_span(text: str, span: tuple[int, int], stripped: tuple[int, int]) -> None:
    assert strip_span(text, *span) == stripped


@pytest.mark.parametrize(
    ("span", "spans", "hit"),
    [
        ((2, 5), [(4, 8)], True),
        ((2, 5), [(5, 8)], False),
        ((2, 5), [(0, 2)], False),
        ((2, 5), [], False),
    ],
)
def test_inside(span: tuple[int, int], spans: list[tuple[int, int]], hit: bool) -> None:
    assert inside(*span, spans) is hit


@pytest.mark.parametrize(
    ("figure", "base"),
    [
        (("duration", "week", 2.0), ("time", 14.0)),
        (("age", "year", 1.0), ("time", 365.2425)),
        (("quantity", "km", 3.0), ("length", 3000.0)),
        (("quantity", "furlong", 3.0), ("furlong", 3.0)),  # unknown unit: left as it is
        (("money", "USD", 5.0), ("USD", 5.0)),
        (("number", None, 7.0), (None, 7.0)),
    ],
)
def test_to_base(figure: tuple[str, str | None, float], base: tuple[str | None, float]) -> None:
    assert to_base(*figure) == base


@pytest.mark.parametrize(
    ("url", "source", "date"),
    [
        ("https://www.daily-courier.example/2021/03/14/bridge", "daily-courier", "2021-03-14"),
        ("https://news.bbc.co.uk/news/2021-03/x", "bbc", "2021-03"),
        ("https://edition.cnn.com/20210314/x", "cnn", "2021-03-14"),
        ("https://example.com/2021/x", "example", None),  # a bare year is no date
        ("https://example.com/2021/02/30/x", "example", None),
        ("not a url", None, None),
        (None, None, None),
    ],
)
def test_urls(url: str | None, source: str | None, date: str | None) -> None:
    assert source_from_url(url) == source
    assert date_from_url(url) == date


@pytest.mark.parametrize(
    ("text", "place"),
    [
        ("PARIS • The talks", "PARIS"),
        ("HARBOR CITY — The council", "HARBOR CITY"),
        ("WASHINGTON (AP) — Lawmakers", "WASHINGTON"),
        ("ST. LOUIS, Mo. — A storm", "ST. LOUIS, Mo."),
        ("LONDON, March 3 (Reuters) - British lender", "LONDON"),
        ("LONDON, Sept. 12, 2025 (Reuters) - A bank", "LONDON"),
        ("BREAKING — The council", None),
        ("Paris — The talks", None),
        ("PARIS The talks", None),
    ],
)
def test_dateline_at(text: str, place: str | None) -> None:
    found = dateline_at(text, 0)
    assert (text[found[0] : found[1]] if found else None) == place


@pytest.mark.parametrize(
    ("line", "place"),
    [
        ("  PARIS • The talks", "PARIS"),
        ("2021-03-14 PARIS • The talks", "PARIS"),  # a feed's date marker before it
        ("2021-03-14 The talks", None),
        ("Officials in PARIS — said", None),  # capitals inside a line are no dateline
    ],
)
def test_line_dateline(line: str, place: str | None) -> None:
    found = line_dateline(line)
    assert (line[found[0] : found[1]] if found else None) == place


@pytest.mark.parametrize(
    ("text", "own"),
    [
        ("LONDON, March 3 (Reuters) - Inflation fell.", "Inflation fell."),
        ("10:15 p.m. — Turnout was high.", "Turnout was high."),
        ("14:05 GMT - Polls closed.", "Polls closed."),
        ("BREAKING — The council resigned.", "BREAKING — The council resigned."),
        ("The 10:15 train was late.", "The 10:15 train was late."),
    ],
)
def test_own_words_start(text: str, own: str) -> None:
    assert text[own_words_start(text, 0) :] == own
