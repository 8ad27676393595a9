"""The one scorer the example-corpus gate uses (newsloom.eval.gold), on hand-made rows."""

from __future__ import annotations

import pytest

from newsloom.eval.gold import FieldScore, Item, first, holds, locate, on_spot, score


def same_text(want: str, got: str) -> bool:
    return want == got


def test_recall_counts_items_without_a_match_as_missed():
    items = [Item("a", "x", ["x", "y"]), Item("a", "z", ["y"]), Item("b", "w", [])]
    result = score(items, first(same_text))
    assert [(m.where, m.gold, m.found) for m in result.matched] == [("a", "x", "x")]
    assert [i.gold for i in result.missed] == ["z", "w"]
    assert result.rate == 1 / 3


def test_nothing_to_find_scores_one():
    assert score([], first(same_text)).rate == 1.0


def test_figure_is_f1_with_both_sides_and_the_one_side_otherwise():
    recall = score([Item("a", "x", ["x"]), Item("a", "y", [])], first(same_text))  # 1/2
    precision = score([Item("a", "x", ["x"])], first(same_text))  # 1/1
    both = FieldScore("pairs", recall=recall, precision=precision)
    assert both.f1 == 2 * 0.5 * 1.0 / 1.5 == both.figure
    assert FieldScore("r", recall=recall).figure == 0.5
    assert FieldScore("p", precision=precision).figure == 1.0
    assert (
        FieldScore(
            "none", recall=score([], first(same_text)), precision=score([], first(same_text))
        ).f1
        == 1.0
    )


def test_a_wrong_prediction_falls_below_its_floor():
    """The case that must fail: one gold item of two found is below a 0.9 floor, and the line
    printed with the failure names the miss."""
    result = FieldScore(
        "quotes", recall=score([Item("a", "x", ["x"]), Item("b", "y", ["q"])], first(same_text))
    )
    assert result.figure < 0.9
    assert result.misses() == [("b", "y")]
    assert "quotes (floor 0.9): 0.50" in result.line(0.9)


def test_note_replaces_the_gold_in_misses():
    result = FieldScore(
        "people", recall=score([Item("k", {"name": "Ann"}, [], note="Ann")], first(same_text))
    )
    assert result.misses() == [("k", "Ann")]


@pytest.mark.parametrize(
    ("text", "quote", "expected"),
    [
        ('He said "yes" and "yes" again.', "yes", (9, 12)),  # the first occurrence
        ("Nothing quoted here.", "yes", None),
        ("", "", (0, 0)),
    ],
)
def test_locate_rows(text, quote, expected):
    assert locate(text, quote) == expected


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        (("a1", 0, 10), ("a1", 2, 12), True),
        (("a1", 0, 10), ("a2", 0, 10), False),  # same offsets, another article
        (("a1", 0, 10), ("a1", 8, 20), False),  # 2 of 10 shared
    ],
)
def test_on_spot_rows(a, b, expected):
    assert on_spot(a, b) is expected


# One tracked quote's mentions: the same words in two articles.
GROUP = [("a1", 100, 160), ("a2", 40, 100)]


@pytest.mark.parametrize(
    ("spots", "expected"),
    [
        ([("a1", 100, 160), ("a2", 40, 100)], True),  # both mentions
        ([("a2", 50, 90)], True),  # a part of one (a truncation found whole)
        ([("a1", 100, 160), ("a3", 0, 60)], False),  # one of them is elsewhere
        ([("a1", 0, 60)], False),  # another quote of the same article
        ([], True),  # nothing asked
    ],
)
def test_holds_rows(spots, expected):
    assert holds(GROUP, spots) is expected
