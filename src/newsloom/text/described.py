"""An unnamed person described with an age ("a 36-year-old man"), written as one key.

The claims stage names a figure's owner so when the article never names the person; the
story stage reads the age back to match the description to the story's one person stated to
be that old.
"""

from __future__ import annotations

import re

from .numbers import COUNT_WORDS, word_number

# English nouns for people that carry a gender (grammar of the language, not of a corpus).
_MALE = ("man", "boy", "father", "husband", "son", "brother", "uncle", "grandfather", "nephew")
_FEMALE = ("woman", "girl", "mother", "wife", "daughter", "sister", "aunt", "grandmother", "niece")
NOUN_GENDER = {**dict.fromkeys(_MALE, "m"), **dict.fromkeys(_FEMALE, "f")}
# Titles before a name that carry a gender (folded, without the dot).
TITLE_GENDER = {
    "mr": "m",
    "mrs": "f",
    "ms": "f",
    "miss": "f",
    # British honours and peerages name a gender too ("Sir Keir", "Dame Judi", "Lady Hart")
    "sir": "m",
    "lord": "m",
    "dame": "f",
    "lady": "f",
}
# Determiners that make a description definite ("the 33-year-old actress" refers back).
DEFINITE = frozenset({"the", "this", "that"})
_DESCRIBED = re.compile(r"(\d{1,3})-year-old (\S.*)")
# "the 56-year-old", "the 56-year-old actor": the age a description states.
_AGE = re.compile(rf"\b(\d{{1,3}}|{COUNT_WORDS})[- ]year[- ]old\b", re.IGNORECASE)


def stated_age(text: str) -> int | None:
    """The age a description states ("the 56-year-old", "the ten-year-old"), or None."""
    found = _AGE.search(text)
    if not found:
        return None
    raw = found.group(1)
    return int(raw) if raw.isdigit() else word_number(raw)


def described_person(age: int, noun: str) -> str:
    """``36, "man"`` -> ``"36-year-old man"``."""
    return f"{age}-year-old {noun}"


def described_age(key: str | None) -> int | None:
    """The age of a key ``described_person`` wrote, else None (a name is no description)."""
    match = _DESCRIBED.fullmatch(key or "")
    return int(match.group(1)) if match else None


def definite_before(text: str, start: int) -> bool:
    """Whether the word right before ``start`` makes the description there definite."""
    words = text[max(0, start - 12) : start].split()
    return bool(words) and words[-1].lower() in DEFINITE
