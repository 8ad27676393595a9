"""Credited sources read from the parse: outlets, agencies and documents credited for material,
never a person quoted or spoken to, nor an organisation only speaking or spoken to."""

from __future__ import annotations

import pytest

from newsloom.analyze import analyze_text
from newsloom.stories.credits import compact_key, source_key

# (article text, names credited with publisher evidence). Invented outlets and people.
ROWS = [
    ("The footage was first reported by the Daily Lantern on Monday.", ["Daily Lantern"]),
    ("The documents were obtained by the Valley Ledger.", ["Valley Ledger"]),
    (
        "The plan was set out in documents released by the Harbor Gazette last week.",
        ["Harbor Gazette"],
    ),
    ("The mayor will resign, the Millbrook Courier reported on Tuesday.", ["Millbrook Courier"]),
    ('"We are leaving," the coach told the Daily Lantern after the match.', ["Daily Lantern"]),
    ("Photos of the crash were shared via DailyLantern.com overnight.", ["DailyLantern.com"]),
    ("The club confirmed the fee to KVTR, a Millbrook station, on Friday.", ["KVTR"]),
    ("The minister has resigned, according to the Northline News.", ["Northline News"]),
    # negative rows: people and organisations that speak or are spoken to
    ("Dana Whitcombe, talking to Tobias Rennick, said the bridge was unsafe.", []),
    ('"It was chaos," Corinne Blasko said, speaking to reporters outside the court.', []),
    ('"We will rebuild," the mayor told Parliament on Wednesday.', []),
    ("The fire was caused by a cigarette, according to the Millbrook Fire Department.", []),
    ("The striker was acquired by the Rovers in a deal last July.", []),
    ("The fire is under investigation by the Millbrook Police.", []),
]


@pytest.mark.parametrize(("text", "expected"), ROWS)
def test_credit_rows(text, expected):
    analysis = analyze_text(text)
    assert analysis.framing is not None
    credited = [c for c in analysis.framing.credits if c.evidence]
    assert [c.name for c in credited] == expected, [
        (c.name, c.cue, c.evidence) for c in analysis.framing.credits
    ]
    for c in analysis.framing.credits:
        assert text[c.start : c.end] == c.name
        assert text[c.cue_start : c.cue_end]


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("Daily Lantern", "DailyLantern.com", True),
        ("the Daily Lantern", "The Daily Lantern's", True),
        ("Daily Lantern", "Daily Courier", False),
    ],
)
def test_name_variants(a, b, same):
    assert (compact_key(a) == compact_key(b)) is same
    assert source_key("DailyLantern.com") == "dailylantern"
