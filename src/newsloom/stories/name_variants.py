"""One person spelled two ways by two outlets: the full names, and what the story says of each.

Outlets misspell surnames ("Duncan Raite" and "Duncan Robert Rait" for one climber) in ways
the typo rule of ``text.names`` keeps apart, rightly so for short words in general ("Mark" and
"Mary" are two names). Inside one story the bar can be set by the name and by the evidence:

- the names: the same given name (or an initial of it), middle names given by one outlet only
  or the same, and surnames that start alike and lie within ``variant_edits`` of each other;
- no evidence against: stated ages that cannot all hold (``age_conflict``), genders that
  differ (a title, a gendered role noun); one article naming both as two people is checked by
  the caller (two entities of one article are two people);
- evidence for: the same stated age, a shared role, or one spelling being the rarer (written
  by fewer articles: a misspelling is rarely repeated); with neither, two equally common
  spellings stay two people.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from rapidfuzz.distance import OSA

from ..text.described import NOUN_GENDER, TITLE_GENDER
from .ages import age_conflict

# Surnames shorter than this are left to the typo rule: three-letter surnames one letter apart
# (Lee/Lea, Kim/Kin) are different names too often.
MIN_VARIANT_SURNAME = 4
# Edits allowed between two spellings of a surname: one per this many letters of the shorter,
# and at least one (Rait/Raite, 4 letters: one; Alishbandi/Alishvandi, 10: up to two;
# Kowalczyk/Kowalski: four edits, never). Set on the invented pairs of
# tests/stories/test_entities.py and checked on the ECB+ dev stories (five merges, all right).
LETTERS_PER_EDIT = 4


@dataclass(frozen=True)
class Evidence:
    """What a story's articles state of one person besides the name."""

    ages: tuple[tuple[int, date | None], ...]  # one stated age per article, with its date
    genders: frozenset[str]  # "m"/"f" from titles and gendered role nouns
    roles: frozenset[str]  # role head nouns, folded
    articles: int  # articles naming the person

    def joined(self, other: Evidence) -> Evidence:
        return Evidence(
            ages=self.ages + other.ages,
            genders=self.genders | other.genders,
            roles=self.roles | other.roles,
            articles=self.articles + other.articles,
        )


def gender_of(titles: Iterable[str], roles: Iterable[str]) -> frozenset[str]:
    """Genders shown by the words written before a person's name ("Mrs", "Mr.") and by the
    role nouns given ("sister", "mother of two")."""
    found = {g for t in titles if (g := TITLE_GENDER.get(t.casefold().rstrip(".")))}
    for role in roles:
        words = role.split(" of ")[0].split()
        if words and (g := NOUN_GENDER.get(words[-1].casefold())):
            found.add(g)
    return frozenset(found)


def variant_edits(a: str, b: str) -> int:
    """Edits allowed between two spellings of a surname (see LETTERS_PER_EDIT)."""
    return max(1, min(len(a), len(b)) // LETTERS_PER_EDIT)


def _compatible(a: str, b: str) -> bool:
    """Two given or middle names of one person: equal, or one an initial of the other."""
    return a == b or ((len(a) == 1 or len(b) == 1) and a[0] == b[0])


def variant_names(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Whether two full names (folded words) may spell one person with a surname variant."""
    sa, sb = a[-1], b[-1]
    if sa == sb or sa[0] != sb[0] or min(len(sa), len(sb)) < MIN_VARIANT_SURNAME:
        return False
    if OSA.distance(sa, sb) > variant_edits(sa, sb):
        return False
    if not _compatible(a[0], b[0]):
        return False
    middle_a, middle_b = a[1:-1], b[1:-1]
    if middle_a and middle_b:
        return len(middle_a) == len(middle_b) and all(map(_compatible, middle_a, middle_b))
    return True


def contradicts(x: Evidence, y: Evidence) -> bool:
    """Stated ages that cannot all hold, or two genders."""
    return age_conflict([*x.ages, *y.ages]) or len(x.genders | y.genders) > 1


def supports(x: Evidence, y: Evidence) -> bool:
    """The same person by what is stated: ages both stated and compatible, or a shared role."""
    ages = bool(x.ages and y.ages) and not age_conflict([*x.ages, *y.ages])
    return ages or bool(x.roles & y.roles)


def same_person(
    a: tuple[str, ...],
    b: tuple[str, ...],
    x: Evidence,
    y: Evidence,
) -> bool:
    """Two full names and what is stated of each: one person (see the module docstring)."""
    if not variant_names(a, b) or contradicts(x, y):
        return False
    full_given = len(a[0]) > 1 and len(b[0]) > 1
    rarer = x.articles != y.articles
    return supports(x, y) or (full_given and rarer)
