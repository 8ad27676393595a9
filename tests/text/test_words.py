"""Folding, plural folding, stems and content words."""

from __future__ import annotations

import pytest

from newsloom.text.names import fold_name, word_key
from newsloom.text.words import content_stems, fold, fold_plural, is_content, stem, words

# (text, folded, folded as a name)
FOLD_ROWS = [
    ("Roe", "roe", "roe"),
    ("O`Neill", "o'neill", "o'neill"),  # a backtick is an apostrophe, ASCII or not
    ("O’Neill", "o'neill", "o'neill"),
    ("O‘Neill", "o'neill", "o'neill"),
    ("O´Neill", "o'neill", "o'neill"),
    ("Éloïse Müller", "eloise muller", "eloise muller"),
    ("STRASSE", "strasse", "strasse"),
    ("Straße", "strasse", "strasse"),  # casefold, not lower
    ("Nuʼuanu", "nu'uanu", "nuʼuanu"),  # U+02BC: a letter in names, an apostrophe elsewhere
    ("", "", ""),
]


@pytest.mark.parametrize(("text", "folded", "as_name"), FOLD_ROWS)
def test_fold(text: str, folded: str, as_name: str) -> None:
    assert fold(text) == folded
    assert fold_name(text) == as_name
    assert fold(text, keep_modifier_apostrophe=True) == as_name


@pytest.mark.parametrize(
    ("word", "key"),
    [("Roe's", "roe"), ("Roes'", "roes"), ("Sen.", "sen"), ("O’Neill", "o'neill"), ("", "")],
)
def test_word_key(word: str, key: str) -> None:
    assert word_key(word) == key


@pytest.mark.parametrize(
    ("word", "folded"),
    [
        ("quakes", "quake"),
        ("cities", "city"),
        ("ties", "tie"),  # too short for -ies: only the -s goes
        ("bus", "bus"),  # -us, -ss, -is are no plurals
        ("glass", "glass"),
        ("crisis", "crisis"),
        ("gas", "gas"),  # too short
        ("quake", "quake"),
    ],
)
def test_fold_plural(word: str, folded: str) -> None:
    assert fold_plural(word) == folded


@pytest.mark.parametrize(
    ("word", "stemmed"),
    [("cutting", "cutt"), ("cuts", "cut"), ("cut", "cut"), ("sings", "sing"), ("is", "is")],
)
def test_stem(word: str, stemmed: str) -> None:
    assert stem(word) == stemmed


def test_words_and_content() -> None:
    assert words("He said: “Don’t go—now!”") == ["he", "said", "don't", "go", "now"]
    assert [w for w in words("The 3 bridges of a town") if is_content(w)] == ["bridges", "town"]
    assert content_stems(["the", "bridges", "closed", "x", "2024"]) == {"bridg", "clos"}
