"""One scorer for newsloom's output against the example corpus's gold (``examples/gold.json``).

Every field is scored the same way. Each gold item (a quote, a person, a post, a date on a
story's timeline …) becomes an ``Item`` with the predictions that could match it (the quotes
newsloom found in that article, the people of the predicted story …), and a *matcher* picks
the one that matches, or none: the share of items matched is the recall. Precision is the same
scorer with the roles swapped (each prediction an item, the gold its candidates), and F1
combines the two. A field that judges matched pairs (a quote's speaker, a person's age) scores
those pairs again as items, with a matcher of its own.

Groups of spans across articles (a tracked quote: one utterance in every article that repeats
it) are matched by where their members sit: a group *holds* a span when one of its members
overlaps it (``holds``), so a gold group is found when one predicted group holds all its
mentions, and two gold mentions are kept apart when no predicted group holds both.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

G = TypeVar("G")
P = TypeVar("P")

# A predicted span matches a gold span when they share at least this share of the shorter one
# (a quote found with its marks, or one paragraph of a multi-paragraph quote, still matches).
SPAN_OVERLAP = 0.5
# Misses shown beside a figure: enough to see the pattern, short enough to read in a log.
MISSES_SHOWN = 12


def load_gold(path: Path) -> dict[str, Any]:
    """The gold file: ``articles`` by corpus key, ``stories``, ``outlets``."""
    gold: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return gold


@dataclass(frozen=True)
class Item(Generic[G, P]):
    """One thing to find: where it is (article key or story id), what it is, and the
    predictions that may match it; ``note`` is what a miss shows when not the gold itself."""

    where: str
    gold: G
    candidates: Sequence[P]
    note: Any = None


# Picks the candidate that matches the item's gold, or None.
Matcher = Callable[[G, Sequence[P]], P | None]


@dataclass(frozen=True)
class Match(Generic[G, P]):
    where: str
    gold: G
    found: P


@dataclass(frozen=True)
class Score(Generic[G, P]):
    """Items matched and missed; ``rate`` is the share matched (1.0 when there is nothing)."""

    matched: list[Match[G, P]]
    missed: list[Item[G, P]]

    @property
    def total(self) -> int:
        return len(self.matched) + len(self.missed)

    @property
    def rate(self) -> float:
        return len(self.matched) / self.total if self.total else 1.0


def score(items: Iterable[Item[G, P]], match: Matcher[G, P]) -> Score[G, P]:
    """Match every item among its candidates."""
    matched: list[Match[G, P]] = []
    missed: list[Item[G, P]] = []
    for item in items:
        found = match(item.gold, item.candidates)
        if found is None:
            missed.append(item)
        else:
            matched.append(Match(item.where, item.gold, found))
    return Score(matched, missed)


def first(same: Callable[[G, P], bool]) -> Matcher[G, P]:
    """The matcher that takes the first candidate ``same`` accepts."""

    def match(gold: G, candidates: Sequence[P]) -> P | None:
        return next((c for c in candidates if same(gold, c)), None)

    return match


@dataclass(frozen=True)
class FieldScore:
    """Recall (gold items found), precision (predictions right) and F1 of one field; a field
    scored on one side only has that side's figure as its ``figure``."""

    field: str
    recall: Score[Any, Any] | None = None
    precision: Score[Any, Any] | None = None

    @property
    def f1(self) -> float:
        p = self.precision.rate if self.precision else 1.0
        r = self.recall.rate if self.recall else 1.0
        return 2 * p * r / (p + r) if p + r else 0.0

    @property
    def figure(self) -> float:
        if self.recall and self.precision:
            return self.f1
        side = self.recall or self.precision
        return side.rate if side else 1.0

    def misses(self) -> list[tuple[str, Any]]:
        """Gold items not found, then predictions not in the gold."""
        sides = (s for s in (self.recall, self.precision) if s is not None)
        return [
            (item.where, item.gold if item.note is None else item.note)
            for s in sides
            for item in s.missed
        ]

    def line(self, floor: float) -> str:
        misses = self.misses()[:MISSES_SHOWN]
        return f"{self.field} (floor {floor}): {self.figure:.2f}; misses: {misses}"


# --- normalisers the matchers share ---------------------------------------------------------


def norm_name(name: str | None) -> str:
    """Lower case, punctuation (but hyphens) to spaces, spaces collapsed."""
    return " ".join(re.sub(r"[^\w\s-]", " ", (name or "").lower()).split())


def outlet_key(name: str | None) -> str:
    """One key for an outlet however it is written: name, domain or URL."""
    s = (name or "").lower().strip()
    s = re.sub(r"^https?://", "", s).removeprefix("www.").split("/")[0]
    s = re.sub(r"\.[a-z]+$", "", s) if " " not in s else s
    s = s.removeprefix("the ")
    return re.sub(r"[^a-z0-9]", "", s)


def overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Spans that share at least ``SPAN_OVERLAP`` of the shorter one."""
    shared = min(a[1], b[1]) - max(a[0], b[0])
    shortest = min(a[1] - a[0], b[1] - b[0])
    return shortest > 0 and shared / shortest >= SPAN_OVERLAP


# --- spans of different articles grouped together (tracked quotes) ---------------------------

# A span in one article: (article id, start, end).
Spot = tuple[str, int, int]


def locate(text: str, quote: str) -> tuple[int, int] | None:
    """Where ``quote`` first sits in ``text`` (None: it does not)."""
    start = text.find(quote)
    return None if start < 0 else (start, start + len(quote))


def on_spot(a: Spot, b: Spot) -> bool:
    """Two spans of one article that ``overlaps`` accepts."""
    return a[0] == b[0] and overlaps((a[1], a[2]), (b[1], b[2]))


def holds(members: Iterable[Spot], spots: Iterable[Spot]) -> bool:
    """A group (its members' spans) has a member on every one of ``spots``."""
    kept = list(members)
    return all(any(on_spot(spot, member) for member in kept) for spot in spots)
