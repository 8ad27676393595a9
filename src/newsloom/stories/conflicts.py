"""Facts stated differently: figures that different outlets attach to the same thing, compared.

Claims (from the claims stage) of one kind and one dimension (same currency; durations in days;
measures in SI units) are candidates when they share their subject's head word or much of
their clause ("12,000 people were evacuated" vs "12 people died" share the subject but not the
clause). Ages are matched by the person they describe, through the story's merged entities
("Roe" is "Jane Roe"; "Katie Jenkin" is not "John Jenkin"). Candidates are merged best-first,
never putting two different values from one article into one group (one article giving two
values names two things).

Two statements are compared on value intervals: a stated figure covers its rounding ("$3m" is
2.5m-3.5m), "about" widens it, "less than"/"more than" open it on one side.

- ``agree``: the same value, however written ("$3m", "US$3 million"), or the same bound
  ("more than 50" and "over 50");
- ``approximate``: different figures that can both hold ("about 50" and "52", "more than 50");
- ``update``: figures that cannot both hold at one time but need not be stated at one time: an
  age a birthday later (by the publication dates), a running figure (counts and shares: a death
  toll, turnout) stated at different moments or at moments the articles do not show;
- ``conflict``: same subject, same quantity, same time, values that cannot both hold.

Time of an age. A story's articles cover one event, so an age stated in an undated article is
stated at some moment of the story: the span its known dates cover (the publication days of its
dated articles and the dates the two statements' own sentences carry, from the dates stage).
When that span is under a year (``ONE_EVENT_YEARS``; a story without any date counts as one
moment), two ages of one person conflict when no birthday inside the span can part them
(``AGE_SLACK`` as for dated ages); a longer span only shows an update may lie between.

Unnamed people. An age or a figure's owner the article gives only as a description with an age
("a 60-year-old woman was arrested", "a 36-year-old man died after he fell 200m") is the
story's one person stated (with a certain subject) to be that old, when the description's noun
is a person's (a gendered noun, or a role the story gives that person) and, for an indefinite
description, the article never names that person (an article naming Roe that also speaks of
"a 60-year-old woman" speaks of someone else; "the 26-year-old actress" refers back). Two
people of that age, or none, leave the description apart and uncertain.

Precision first: two statements with disjoint values join one group only when both subjects are
certain (``Claim.subject_certain``), the heads, verbs and owners of their phrases agree
(``strongly_same``); anything less stays apart rather than raise a false conflict. Each group
keeps the comparison of every pair of outlets with its reason in words.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from ..models import (
    ArticleAnalysis,
    Claim,
    FactComparison,
    FactGroup,
    FactStatement,
    FactStatus,
    StoryEntity,
    stable_id,
)
from ..text.dates import exact_day, first_day
from ..text.described import NOUN_GENDER, definite_before, described_age
from ..text.units import to_base
from .entities import AGE_SLACK, DAYS_PER_YEAR, age_conflict
from .outlets import outlet_key, outlet_names
from .person_forms import PersonForms

# Claims are one fact at or above this score. A shared subject head scores 0.5 + half the
# clause overlap, so it needs some shared context; without one, the clauses must share most
# content words. Set on the hand-built stories in tests/stories/test_conflicts.py.
SAME_FACT = 0.6
APPROX_TOLERANCE = 0.1  # "about 3 million" covers +-10% besides its rounding
MAX_PAIRS = 200_000  # candidate pairs examined per story (blocking keeps typical stories far below)
# Kinds whose value runs on while an event unfolds (a toll, a turnout, a share of traffic
# down): two different values are one update unless the articles show the same moment.
RUNNING_KINDS = frozenset({"count", "percent"})
# Undated ages of one story are one moment when its known dates span less than this many years:
# the rule ("articles of one story cover one event"); beyond it years may lie between.
ONE_EVENT_YEARS = 1.0
# Worst first: a group's status is its worst pair's.
STATUS_ORDER: dict[str, int] = {"conflict": 0, "update": 1, "approximate": 2, "agree": 3}


@dataclass
class Item:
    claim: Claim
    article_id: str
    outlet: str  # key
    name: str  # display name
    source: str | None
    published: str | None
    dimension: str | None
    low: float
    high: float
    subject: str  # folded; a person's canonical name for ages
    subject_words: frozenset[str]
    context: frozenset[str]
    owner: str | None  # folded canonical
    certain: bool = True  # the claim's subject_certain, or a description resolved here
    sentence_days: tuple[date, ...] = ()  # dates the statement's sentence carries
    story_days: tuple[date, ...] = ()  # publication days of the story's dated articles


def group_claims(
    analyses: Sequence[ArticleAnalysis], entities: Sequence[StoryEntity] = ()
) -> list[FactGroup]:
    """Every fact group of the story, single-outlet ones included (see ``line_up_facts``)."""
    canonical = PersonForms.of(entities)
    names = outlet_names(analyses)
    days = tuple(sorted({d for a in analyses if (d := exact_day(a.article.published))}))
    items = [
        item
        for analysis in analyses
        for claim in analysis.claims
        if (item := _item(analysis, claim, canonical, names, days)) is not None
    ]
    _resolve_described(items, analyses, entities, canonical)
    groups = _cluster(items)
    return sorted(
        (_fact_group(members) for members in groups),
        key=lambda g: (STATUS_ORDER[g.status], -len(g.outlets), g.id),
    )


def line_up_facts(
    analyses: Sequence[ArticleAnalysis], entities: Sequence[StoryEntity] = ()
) -> list[FactGroup]:
    """Facts stated by more than one outlet, conflicts first."""
    return [g for g in group_claims(analyses, entities) if len(g.outlets) > 1]


def _resolve_described(
    items: list[Item],
    analyses: Sequence[ArticleAnalysis],
    entities: Sequence[StoryEntity],
    canonical: PersonForms,
) -> None:
    """Descriptions with an age made the story's one person of that age (module docstring)."""
    people = canonical.people()
    by_age: dict[int, set[str]] = defaultdict(set)
    for item in items:
        if item.claim.kind == "age" and item.certain and item.subject in people:
            by_age[int(float(item.claim.value))].add(item.subject)
    roles: dict[str, set[str]] = defaultdict(set)
    for entity in entities:
        for role in entity.roles:
            if role.split():
                roles[entity.name.casefold()].add(role.split()[-1].casefold())
    named: dict[str, set[str]] = {
        a.article.id: {canonical.canonical(e.name, a.article.id) for e in a.entities}
        for a in analyses
    }

    def person(age: int, noun: str, item: Item, definite: bool) -> str | None:
        found = by_age.get(age, set())
        if len(found) != 1:
            return None
        (who,) = found
        is_person = noun in NOUN_GENDER or noun in roles.get(who, set())
        elsewhere = definite or who not in named.get(item.article_id, set())
        return who if is_person and elsewhere else None

    texts = {a.article.id: a.article.text for a in analyses}

    for item in items:
        age = described_age(item.owner)
        if age is not None:
            noun = (item.owner or "").split()[-1]
            item.owner = person(age, noun, item, definite=False) or item.owner
        claim = item.claim
        words = item.subject.split()
        described = claim.attachment == "description" and len(words) == 1
        if claim.kind == "age" and not item.certain and described:
            definite = definite_before(texts[item.article_id], claim.start)
            who = person(round(float(claim.value)), words[0], item, definite)
            if who is not None:
                item.subject, item.certain = who, True
                item.subject_words = frozenset(who.split())


def _item(
    analysis: ArticleAnalysis,
    claim: Claim,
    canonical: PersonForms,
    names: dict[str, str],
    story_days: tuple[date, ...] = (),
) -> Item | None:
    if isinstance(claim.value, str):
        return None
    dimension, low = to_base(claim.kind, claim.unit, float(claim.value))
    _, high = to_base(
        claim.kind,
        claim.unit,
        float(claim.value_high if claim.value_high is not None else claim.value),
    )
    subject = (claim.subject or "").casefold()
    article = analysis.article
    certain = claim.subject_certain
    if claim.kind == "age":
        subject = canonical.canonical(claim.subject, article.id)
        certain = certain and canonical.certain(claim.subject, article.id)
    return Item(
        claim=claim,
        article_id=article.id,
        outlet=outlet_key(article),
        name=names[outlet_key(article)],
        source=article.source,
        published=article.published,
        dimension=f"{claim.kind}:{dimension}",
        low=low,
        high=high,
        subject=subject,
        subject_words=frozenset(subject.split()),
        context=frozenset(claim.context),
        owner=canonical.canonical(claim.owner, article.id) if claim.owner else None,
        certain=certain,
        sentence_days=tuple(
            d
            for m in analysis.dates
            if m.sentence_start == claim.sentence_start and (d := first_day(m.value))
        ),
        story_days=story_days,
    )


def similarity(a: Item, b: Item) -> float:
    """How likely two claims state one fact (0-1); see SAME_FACT."""
    if a.dimension != b.dimension:
        return 0.0
    if a.claim.kind == "age":  # the same person (canonical name) or the same description
        return 1.0 if a.subject and a.subject == b.subject else 0.0
    if a.owner and b.owner and a.owner != b.owner:
        return 0.0  # "Carter scored 14 points", "VanDeest scored 13"
    union = a.context | b.context
    overlap = len(a.context & b.context) / len(union) if union else 0.0
    heads = _head(a) is not None and _head(a) == _head(b)
    return 0.5 + 0.5 * overlap if heads else overlap


def strongly_same(a: Item, b: Item) -> bool:
    """Whether two statements surely state one quantity: certain subjects, the same head, verb
    and owner (the bar for grouping values that cannot both hold)."""
    ca, cb = a.claim, b.claim
    if not (a.certain and b.certain) or a.dimension != b.dimension:
        return False
    if ca.kind == "age":
        return bool(a.subject) and a.subject == b.subject
    return (
        _head(a) is not None
        and _head(a) == _head(b)
        and ca.predicate == cb.predicate
        and a.owner == b.owner
        and (ca.value_high is None) == (cb.value_high is None)
    )


def _head(item: Item) -> str | None:
    words = (item.claim.subject or "").casefold().split()
    return words[-1] if words else None


def _pairs(items: list[Item]) -> list[tuple[float, int, int]]:
    """Candidate pairs by blocking on subject head and context words, scored."""
    index: dict[tuple[str | None, str | None], list[int]] = defaultdict(list)
    for i, item in enumerate(items):
        if item.claim.kind == "age":
            keys = {item.subject} if item.subject else set()
        else:
            head = _head(item)
            keys = set(item.subject_words) | ({head} if head else set())
            keys |= item.context
        for key in keys:
            index[(item.dimension, key)].append(i)
    seen: set[tuple[int, int]] = set()
    scored = []
    for members in index.values():
        if len({items[i].article_id for i in members}) < 2:
            continue  # no pair across articles (one long article has thousands of claims)
        for x, i in enumerate(members):
            for j in members[x + 1 :]:
                if len(seen) >= MAX_PAIRS:
                    break
                pair = (min(i, j), max(i, j))
                if pair in seen or items[i].article_id == items[j].article_id:
                    continue
                seen.add(pair)
                score = similarity(items[i], items[j])
                if score >= SAME_FACT:
                    scored.append((score, *pair))
    scored.sort(key=lambda t: (-t[0], t[1], t[2]))
    return scored


def _cluster(items: list[Item]) -> list[list[Item]]:
    """Best-first merging; one article never gives two different values inside a group."""
    group_of = list(range(len(items)))
    members: dict[int, list[int]] = {i: [i] for i in range(len(items))}
    for _, i, j in _pairs(items):
        gi, gj = group_of[i], group_of[j]
        if gi == gj or not _can_merge(members[gi], members[gj], items):
            continue
        for k in members[gj]:
            group_of[k] = gi
        members[gi].extend(members.pop(gj))
    return [[items[k] for k in sorted(m)] for m in members.values()]


def _can_merge(a: list[int], b: list[int], items: list[Item]) -> bool:
    """One value per article, and two values that cannot both hold only between statements
    that surely state one quantity (``strongly_same``)."""
    values: dict[str, set[tuple[float, float]]] = defaultdict(set)
    for k in a + b:
        values[items[k].article_id].add((items[k].low, items[k].high))
    if not all(len(v) == 1 for v in values.values()):
        return False
    for i in a:
        for j in b:
            x, y = items[i], items[j]
            if not _overlap(interval(x), interval(y)) and not strongly_same(x, y):
                return False
    return True


def rounding(value: float) -> float:
    """Half the step of the last significant digit: 3e6 -> 5e5, 3.2e6 -> 5e4, 33 -> 0.5."""
    if value == 0 or not math.isfinite(value):
        return 0.5
    exponent = Decimal(repr(abs(value))).normalize().as_tuple().exponent
    return 0.5 * 10.0 ** int(exponent)


def interval(item: Item) -> tuple[float, float]:
    """The values the statement allows, in base units (see the module docstring)."""
    claim = item.claim
    scale = item.low / float(claim.value) if float(claim.value) else 1.0
    pad = rounding(float(claim.value)) * scale
    if claim.kind == "age":
        pad = 0.5 * scale
    low, high = item.low - pad, item.high + pad
    if claim.bound == "approx":
        low, high = low - APPROX_TOLERANCE * abs(item.low), high + APPROX_TOLERANCE * abs(item.high)
    elif claim.bound == "above":
        low, high = item.low, math.inf
    elif claim.bound == "below":
        low, high = -math.inf if claim.kind in ("percent",) else 0.0, item.high
    return low, high


def _overlap(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def _statement(item: Item) -> FactStatement:
    c = item.claim
    return FactStatement(
        article_id=item.article_id,
        source=item.source,
        start=c.start,
        end=c.end,
        text=c.text,
        kind=c.kind,
        value=c.value,
        value_high=c.value_high,
        unit=c.unit,
        qualifier=c.qualifier,
        bound=c.bound,
        subject=c.subject,
        subject_certain=item.certain,
        published=item.published,
    )


def _describe(item: Item) -> str:
    return f"'{item.claim.text}' ({item.name})"


def compare_pair(a: Item, b: Item) -> tuple[FactStatus, str]:
    """``(status, reason)`` for two statements of one fact (see the module docstring)."""
    if (a.low, a.high) == (b.low, b.high) and (
        {a.claim.bound, b.claim.bound} <= {"exact", "approx"} or a.claim.bound == b.claim.bound
    ):  # "about 50" and "50" state one value; "more than 50" twice states one bound
        return "agree", f"same value: {_describe(a)} and {_describe(b)}"
    if _overlap(interval(a), interval(b)):
        reasons = sorted({_why_approximate(a), _why_approximate(b)} - {""})
        return (
            "approximate",
            f"both can hold ({', '.join(reasons) or 'within rounding'}): "
            f"{_describe(a)} and {_describe(b)}",
        )
    first, second = _in_time_order(a, b)
    day_a, day_b = exact_day(first.published), exact_day(second.published)
    if a.claim.kind == "age":
        return _compare_ages(first, second, day_a, day_b)
    if a.claim.kind in RUNNING_KINDS:
        if day_a and day_b and day_a != day_b:
            moved = "rose" if second.low > first.low else "was revised"
            return (
                "update",
                f"a running figure {moved} from {_describe(first)} on {day_a} "
                f"to {_describe(second)} on {day_b}",
            )
        return (
            "update",
            f"a running figure stated at moments the articles do not show to be the same: "
            f"{_describe(a)} and {_describe(b)}",
        )
    return "conflict", f"cannot both be true: {_describe(a)} vs {_describe(b)}"


def _compare_ages(
    first: Item, second: Item, day_a: date | None, day_b: date | None
) -> tuple[FactStatus, str]:
    if day_a is None or day_b is None:
        return _compare_undated_ages(first, second)
    stated: list[tuple[int, date | None]] = [
        (int(float(first.claim.value)), day_a),
        (int(float(second.claim.value)), day_b),
    ]
    if day_a != day_b and not age_conflict(stated):
        return (
            "update",
            f"an age a birthday later: {_describe(first)} on {day_a}, "
            f"{_describe(second)} on {day_b}",
        )
    return (
        "conflict",
        f"cannot both be true (published {day_a} and {day_b}): "
        f"{_describe(first)} vs {_describe(second)}",
    )


def _compare_undated_ages(first: Item, second: Item) -> tuple[FactStatus, str]:
    """Ages of one person where an article is undated: one moment of the story's span (see
    the module docstring)."""
    known = {*first.story_days, *first.sentence_days, *second.sentence_days}
    span = (max(known) - min(known)).days / DAYS_PER_YEAR if known else 0.0
    pair = f"{_describe(first)} and {_describe(second)}"
    if span >= ONE_EVENT_YEARS:
        return (
            "update",
            f"ages of one person where the story's dates span {span:.1f} years (a birthday, "
            f"or years, may lie between): {pair}",
        )
    grew = abs(float(first.claim.value) - float(second.claim.value))
    within = f"{round(span * DAYS_PER_YEAR)} days" if known else "no dates"
    if grew <= span + AGE_SLACK:
        return "update", f"an age a birthday apart within the story's {within}: {pair}"
    return (
        "conflict",
        f"cannot both be true: one person's ages in one story (its dates: {within}): "
        f"{_describe(first)} vs {_describe(second)}",
    )


def _in_time_order(a: Item, b: Item) -> tuple[Item, Item]:
    if a.published and b.published and b.published < a.published:
        return b, a
    return a, b


def compare(members: list[Item]) -> tuple[FactStatus, str, list[FactComparison]]:
    """``(status, explanation, comparisons)`` for one group: its worst pair decides."""
    if len({m.outlet for m in members}) < 2:
        return "agree", "stated by one outlet only", []
    comparisons = [
        FactComparison(first=i, second=j, status=status, reason=reason)
        for i in range(len(members))
        for j in range(i + 1, len(members))
        if members[i].outlet != members[j].outlet
        for status, reason in [compare_pair(members[i], members[j])]
    ]
    worst = min(comparisons, key=lambda c: STATUS_ORDER[c.status]).status
    shown = [c.reason for c in comparisons if c.status == worst]
    more = f" (+{len(shown) - 3} more)" if len(shown) > 3 else ""
    if worst == "agree":
        same = "; ".join(sorted({m.claim.text for m in members}))
        return worst, f"all {len(members)} statements give the same value ({same})", comparisons
    return worst, "; ".join(shown[:3]) + more, comparisons


def _why_approximate(item: Item) -> str:
    bound = item.claim.bound
    if bound in ("above", "below"):
        return f"'{item.claim.qualifier}' is a bound"
    if bound == "approx":
        return f"'{item.claim.qualifier}' is approximate"
    if item.claim.value_high is not None:
        return "a range"
    return ""


def _fact_group(members: list[Item]) -> FactGroup:
    status, explanation, comparisons = compare(members)
    subjects = Counter(m.claim.subject for m in members if m.claim.subject)
    if members[0].claim.kind == "age":  # the fullest name of the person
        subject = max(subjects, key=lambda s: (len(s.split()), subjects[s])) if subjects else None
    else:
        subject = subjects.most_common(1)[0][0] if subjects else None
    units = Counter(m.claim.unit for m in members if m.claim.unit)
    return FactGroup(
        id=stable_id("fact", *sorted(f"{m.article_id}:{m.claim.start}" for m in members)),
        kind=members[0].claim.kind,
        subject=subject,
        unit=units.most_common(1)[0][0] if units else None,
        statements=[_statement(m) for m in members],
        outlets=sorted({m.name for m in members}),
        status=status,
        explanation=explanation,
        comparisons=comparisons,
    )
