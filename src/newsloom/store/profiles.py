"""Profiles of speakers, outlets and people, kept in SQL so their pages read a few indexed rows.

When stories are written (``SqlStore.replace_stories``), ``write_profiles`` replaces their rows
in the ``profile_*`` tables (``schema.py``) in the same transaction: the spellings each name key
stands for, each story's dates, each outlet's share of each story with what it alone reported
(``Story.outlets``), the passages it copied from an earlier publisher (``copied_passages``),
the sources it credited (``credited_sources``) and its hedging, each article's outlet, and the
conflicts each person is part of. The readers below answer a page from those rows, the tracked
quotes and the entities table: never by loading stories into Python.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, delete, func, insert, select

from ..models import CopiedPassage, CreditedSource, FactGroup, OutletReport, Story, StoryEntity
from ..text.keys import name_key, outlet_name_key
from ..text.names import word_key
from ..text.words import words
from . import schema as t
from .tracking import chunks

SPEAKER, OUTLET, PERSON = "speaker", "outlet", "person"
# Rows a profile page shows of each list, newest or biggest first: one screenful each; the
# counts beside them are over everything.
PROFILE_ROWS = 50
# Exclusive items kept per story and outlet for the outlet page (the count keeps them all).
EXCLUSIVES_KEPT = 5
# Stories linked per quote on a speaker's page (the count beside them is of all).
STORIES_PER_QUOTE = 5
# Characters of a copied passage or an exclusive quote kept for the outlet page.
PREVIEW_CHARS = 200


# -- what the pages get ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ProfileStory:
    id: str
    title: str | None


@dataclass(frozen=True, slots=True)
class SpokenQuote:
    """One tracked quote of a speaker: its wording, where and when it ran."""

    id: str
    text: str
    mentions: int
    first_date: str | None
    last_date: str | None
    outlets: list[str]
    stories: list[ProfileStory]  # the first STORIES_PER_QUOTE of them
    n_stories: int


@dataclass(frozen=True, slots=True)
class SpeakerProfile:
    key: str
    name: str
    names: list[str]
    total_quotes: int
    quotes: list[SpokenQuote]
    outlets: dict[str, int]  # outlet -> mentions of the shown quotes it carried


@dataclass(frozen=True, slots=True)
class OutletArticle:
    id: str
    title: str | None
    published: str | None
    story_id: str


@dataclass(frozen=True, slots=True)
class OutletStory:
    """An outlet in one story: its share of the story's articles and what it did there."""

    id: str
    title: str | None
    first_date: str | None
    n_articles: int
    story_articles: int
    exclusives: int
    copied: int
    credits: int
    detail: dict[str, Any]  # exclusives, copied passages and credited sources (see _outlet_data)


@dataclass(frozen=True, slots=True)
class HedgingPeriod:
    """An outlet's hedging in one month: hedges per 100 of its own words."""

    month: str
    stories: int
    hedges: int
    own_words: int
    hedge_score: float


@dataclass(frozen=True, slots=True)
class OutletProfile:
    key: str
    name: str
    names: list[str]
    n_articles: int
    n_stories: int
    first_date: str | None
    last_date: str | None
    exclusives: int
    copied: int
    credits: int
    articles: list[OutletArticle]
    stories: list[OutletStory]
    hedging: list[HedgingPeriod]


@dataclass(frozen=True, slots=True)
class PersonState:
    """An age and roles stated for a person, and the articles (dates) stating them."""

    age: int | None
    roles: list[str]
    first_date: str | None
    last_date: str | None
    articles: int


@dataclass(frozen=True, slots=True)
class PersonConflict:
    story: ProfileStory
    kind: str
    subject: str | None
    explanation: str
    statements: list[dict[str, Any]]  # text, value, outlet, article_id, start, end


@dataclass(frozen=True, slots=True)
class PersonProfile:
    key: str
    name: str
    names: list[str]
    n_articles: int
    states: list[PersonState]
    conflicts: list[PersonConflict]
    speaker_key: str | None  # the person's speaker page, when they are quoted


@dataclass(frozen=True, slots=True)
class DayCount:
    day: str
    count: int


@dataclass(frozen=True, slots=True)
class NameMatch:
    kind: str
    key: str
    name: str


# -- writing -----------------------------------------------------------------------------------


def write_profiles(conn: Connection, old: set[str], stories: Sequence[Story]) -> None:
    """Replace the profile rows of the stories ``old`` (ids removed or rewritten) by those of
    ``stories`` (just written)."""
    for table in (t.profile_stories, t.profile_outlets, t.profile_articles, t.profile_conflicts):
        for chunk in chunks(old | {s.id for s in stories}):
            conn.execute(delete(table).where(table.c.story_id.in_(chunk)))
    published = _dates(conn, [a for s in stories for a in s.article_ids])
    names: set[tuple[str, str, str]] = set()
    for story in stories:
        names |= _write_story(conn, story, published)
    _add_names(conn, names)


def _dates(conn: Connection, article_ids: Iterable[str]) -> dict[str, str | None]:
    a = t.articles.c
    found: dict[str, str | None] = {}
    for chunk in chunks(article_ids):
        found.update(conn.execute(select(a.id, a.published).where(a.id.in_(chunk))).tuples().all())
    return found


def _add_names(conn: Connection, names: set[tuple[str, str, str]]) -> None:
    n = t.profile_names.c
    by_kind: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for kind, key, name in names:
        by_kind[kind].add((key, name))
    for kind, pairs in by_kind.items():
        # Read by key, the primary key's second column (a rebuild knows its keys).
        for chunk in chunks({key for key, _ in pairs}):
            query = select(n.key, n.name).where(n.kind == kind, n.key.in_(chunk))
            pairs -= set(conn.execute(query).tuples().all())
        if pairs:
            rows = [dict(kind=kind, key=k, name=name) for k, name in sorted(pairs)]
            conn.execute(insert(t.profile_names), rows)


def _write_story(
    conn: Connection, story: Story, published: dict[str, str | None]
) -> set[tuple[str, str, str]]:
    """One story's profile rows; returns the (kind, key, name) spellings it names."""
    dates = sorted(d for a in story.article_ids if (d := published.get(a)))
    conn.execute(
        insert(t.profile_stories).values(
            story_id=story.id,
            first_date=dates[0] if dates else None,
            last_date=dates[-1] if dates else None,
            n_articles=len(story.article_ids),
        )
    )
    names = {
        (SPEAKER, k, q.speaker) for q in story.quotes if q.speaker and (k := name_key(q.speaker))
    }
    outlet_of = {aid: outlet_name_key(r.outlet) for r in story.outlets for aid in r.article_ids}
    shown = {aid: r.outlet for r in story.outlets for aid in r.article_ids}
    copied = _copied_by(story.copied_passages, outlet_of)
    credited = _credited_by(story.credited_sources, outlet_of)
    rows, articles = [], []
    for report in story.outlets:
        key = outlet_name_key(report.outlet)
        if not key:
            continue
        names.add((OUTLET, key, report.outlet))
        own = sorted(d for a in report.article_ids if (d := published.get(a)))
        detail = _outlet_data(report, copied.get(key, []), credited.get(key, []))
        rows.append(
            dict(
                story_id=story.id,
                outlet_key=key,
                outlet=report.outlet,
                n_articles=len(report.article_ids),
                story_articles=len(story.article_ids),
                first_date=own[0] if own else None,
                exclusives=len(report.exclusive_quotes)
                + len(report.exclusive_facts)
                + len(report.exclusive_posts),
                copied=len(copied.get(key, [])),
                credits=len(credited.get(key, [])),
                hedges=report.hedges,
                own_words=report.own_words,
                data=json.dumps(detail),
            )
        )
        articles += [
            dict(article_id=a, story_id=story.id, outlet_key=key, published=published.get(a))
            for a in report.article_ids
        ]
    if rows:
        conn.execute(insert(t.profile_outlets), _merged(rows))
    if articles:
        conn.execute(insert(t.profile_articles), articles)
    conflicts = [
        dict(story_id=story.id, person_key=key, data=json.dumps(data))
        for key, data in _conflicts(story, shown, published)
    ]
    if conflicts:
        conn.execute(insert(t.profile_conflicts), conflicts)
    names |= {
        (PERSON, k, e.name)
        for e in story.entities
        if e.type == "PERSON" and (k := name_key(e.name))
    }
    return names


def _merged(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per outlet key (two spellings of one outlet in a story share a key)."""
    by_key: dict[str, dict[str, Any]] = {}
    for row in rows:
        have = by_key.get(row["outlet_key"])
        if have is None:
            by_key[row["outlet_key"]] = row
            continue
        for field in ("n_articles", "exclusives", "copied", "credits", "hedges", "own_words"):
            have[field] += row[field]
        dates = [d for d in (have["first_date"], row["first_date"]) if d]
        have["first_date"] = min(dates) if dates else None
    return list(by_key.values())


def _copied_by(
    passages: Sequence[CopiedPassage], outlet_of: dict[str, str]
) -> dict[str, list[dict[str, Any]]]:
    """Outlet key -> the passages it ran after an earlier publisher (a known one) ran them."""
    out: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for p in passages:
        first = outlet_of.get(p.earliest_article_id or "")
        if first is None:
            continue
        for later in sorted({outlet_of.get(s.article_id, "") for s in p.spans} - {first, ""}):
            span = next(s for s in p.spans if outlet_of.get(s.article_id) == later)
            out[later].append(
                {
                    "text": span.text[:PREVIEW_CHARS],
                    "article_id": span.article_id,
                    "start": span.start,
                    "end": span.end,
                    "from": p.earliest_source,
                }
            )
    return out


def _credited_by(
    sources: Sequence[CreditedSource], outlet_of: dict[str, str]
) -> dict[str, list[str]]:
    """Outlet key -> the names of the other sources its articles credit."""
    out: dict[str, set[str]] = defaultdict(set)
    for source in sources:
        for aid in source.article_ids:
            key = outlet_of.get(aid)
            if key and outlet_name_key(source.name) != key:
                out[key].add(source.name)
    return {k: sorted(v) for k, v in out.items()}


def _outlet_data(
    report: OutletReport, copied: list[dict[str, Any]], credited: list[str]
) -> dict[str, Any]:
    return {
        "quotes": [
            {
                "text": m.text[:PREVIEW_CHARS],
                "speaker": m.speaker,
                "article_id": m.article_id,
                "start": m.start,
                "end": m.end,
            }
            for m in report.exclusive_quotes[:EXCLUSIVES_KEPT]
        ],
        "facts": [
            {
                "text": s.text,
                "kind": s.kind,
                "article_id": s.article_id,
                "start": s.start,
                "end": s.end,
            }
            for s in report.exclusive_facts[:EXCLUSIVES_KEPT]
        ],
        "posts": [
            {"handle": p.handle, "text": p.text[:PREVIEW_CHARS]}
            for p in report.exclusive_posts[:EXCLUSIVES_KEPT]
        ],
        "copied": copied[:EXCLUSIVES_KEPT],
        "credited": credited,
    }


def _conflicts(
    story: Story, outlets: dict[str, str], published: dict[str, str | None]
) -> Iterable[tuple[str, dict[str, Any]]]:
    """(person key, conflict) for each person whose ages disagree or who is the subject of a
    fact group in conflict (every word of their name is in its subject)."""
    people = [e for e in story.entities if e.type == "PERSON" and name_key(e.name)]
    for e in people:
        if e.age_conflict:
            yield name_key(e.name), _age_conflict(e, outlets, published)
    for group in story.facts:
        if group.status != "conflict" or not group.subject:
            continue
        subject = _name_words(group.subject)
        for e in people:
            if _name_words(e.name) <= subject and not (group.kind == "age" and e.age_conflict):
                yield name_key(e.name), _fact_conflict(group, published)


def _name_words(text: str) -> set[str]:
    """Words as names compare them: folded, without a possessive ("Roe's" is "roe")."""
    return {word_key(w) for w in words(text)}


def _age_conflict(
    entity: StoryEntity, outlets: dict[str, str], published: dict[str, str | None]
) -> dict[str, Any]:
    ages = ", ".join(str(a) for a in sorted(set(entity.ages.values())))
    return {
        "kind": "age",
        "subject": entity.name,
        "explanation": f"articles give {entity.name} different ages: {ages}",
        "statements": [
            {
                "text": str(age),
                "value": age,
                "outlet": outlets.get(aid),
                "published": published.get(aid),
                "article_id": aid,
            }
            for aid, age in sorted(entity.ages.items())
        ],
    }


def _fact_conflict(group: FactGroup, published: dict[str, str | None]) -> dict[str, Any]:
    return {
        "kind": group.kind,
        "subject": group.subject,
        "explanation": group.explanation,
        "statements": [
            {
                "text": s.text,
                "value": s.value,
                "outlet": s.source,
                "published": published.get(s.article_id),
                "article_id": s.article_id,
                "start": s.start,
                "end": s.end,
            }
            for s in group.statements
        ],
    }


# -- reading -----------------------------------------------------------------------------------


def _names(conn: Connection, kind: str, key: str) -> list[str]:
    n = t.profile_names.c
    query = select(n.name).where(n.kind == kind, n.key == key).order_by(n.name)
    return list(conn.execute(query).scalars())


def _titles(conn: Connection, story_ids: Iterable[str]) -> dict[str, str | None]:
    s = t.stories.c
    found: dict[str, str | None] = {}
    for chunk in chunks(story_ids):
        found.update(conn.execute(select(s.id, s.title).where(s.id.in_(chunk))).tuples().all())
    return found


def speaker_profile(conn: Connection, key: str, limit: int = PROFILE_ROWS) -> SpeakerProfile | None:
    """The speaker with this key: their most mentioned tracked quotes, with outlets, dates and
    stories. Read from the tracked quotes' columns and mention rows (a quote repeated by
    thousands of articles costs an index range, never its whole JSON)."""
    names = _names(conn, SPEAKER, key)
    if not names:
        return None
    c, m, pa, nd = (
        t.tracked_quotes.c,
        t.tracked_mentions.c,
        t.profile_articles.c,
        t.tracked_nodes.c,
    )
    total = conn.execute(
        select(func.count()).select_from(t.tracked_quotes).where(c.speaker.in_(names))
    ).scalar_one()
    rows = conn.execute(
        select(c.id, c.text, c.speaker, c.n_mentions, c.n_stories, c.first_date, c.last_date)
        .where(c.speaker.in_(names))
        .order_by(c.n_mentions.desc(), c.id)
        .limit(limit)
    ).all()
    ids = [r.id for r in rows]
    carried: dict[str, Counter[str]] = defaultdict(Counter)
    if ids:
        by_outlet = (
            select(m.tracked_id, pa.outlet_key, func.count())
            .join(t.profile_articles, pa.article_id == m.article_id)
            .where(m.tracked_id.in_(ids))
            .group_by(m.tracked_id, pa.outlet_key)
        )
        for tracked_id, outlet, n in conn.execute(by_outlet):
            carried[tracked_id][outlet] += n
    outlet_names = _shown_names(conn, OUTLET, {o for c_ in carried.values() for o in c_})
    stories = {
        i: list(
            conn.execute(
                select(nd.story_id)
                .where(nd.tracked_id == i)
                .distinct()
                .order_by(nd.story_id)
                .limit(STORIES_PER_QUOTE)
            ).scalars()
        )
        for i in ids
    }
    titles = _titles(conn, {s for found in stories.values() for s in found})
    outlets: Counter[str] = Counter()
    for found in carried.values():
        for outlet, n in found.items():
            outlets[outlet_names.get(outlet, outlet)] += n
    said = Counter(r.speaker for r in rows if r.speaker)
    return SpeakerProfile(
        key=key,
        name=said.most_common(1)[0][0] if said else names[0],
        names=names,
        total_quotes=total,
        quotes=[
            SpokenQuote(
                id=r.id,
                text=r.text,
                mentions=r.n_mentions,
                first_date=r.first_date,
                last_date=r.last_date,
                outlets=sorted(outlet_names.get(o, o) for o in carried[r.id]),
                stories=[ProfileStory(s, titles.get(s)) for s in stories[r.id] if s in titles],
                n_stories=r.n_stories,
            )
            for r in rows
        ],
        outlets=dict(outlets.most_common()),
    )


def _shown_names(conn: Connection, kind: str, keys: Iterable[str]) -> dict[str, str]:
    """One spelling of each key (the first in order) to show it by."""
    n = t.profile_names.c
    found: dict[str, str] = {}
    for chunk in chunks(keys):
        query = (
            select(n.key, func.min(n.name)).where(n.kind == kind, n.key.in_(chunk)).group_by(n.key)
        )
        found.update(conn.execute(query).tuples().all())
    return found


def outlet_profile(conn: Connection, key: str, limit: int = PROFILE_ROWS) -> OutletProfile | None:
    """The outlet with this key: its articles, its stories with what it alone reported, copied
    and credited there, and its hedging month by month."""
    names = _names(conn, OUTLET, key)
    if not names:
        return None
    o, pa, a, s = t.profile_outlets.c, t.profile_articles.c, t.articles.c, t.stories.c
    totals = conn.execute(
        select(
            func.count(),
            func.coalesce(func.sum(o.n_articles), 0),
            func.coalesce(func.sum(o.exclusives), 0),
            func.coalesce(func.sum(o.copied), 0),
            func.coalesce(func.sum(o.credits), 0),
            func.min(o.first_date),
        ).where(o.outlet_key == key)
    ).one()
    last = conn.execute(select(func.max(pa.published)).where(pa.outlet_key == key)).scalar()
    articles = conn.execute(
        select(pa.article_id, a.title, pa.published, pa.story_id)
        .join(t.articles, a.id == pa.article_id)
        .where(pa.outlet_key == key)
        .order_by(pa.published.desc(), pa.article_id)
        .limit(limit)
    ).all()
    stories = conn.execute(
        select(
            o.story_id,
            s.title,
            o.first_date,
            o.n_articles,
            o.story_articles,
            o.exclusives,
            o.copied,
            o.credits,
            o.data,
        )
        .join(t.stories, s.id == o.story_id)
        .where(o.outlet_key == key)
        .order_by(o.first_date.desc(), o.story_id)
        .limit(limit)
    ).all()
    month = func.substr(o.first_date, 1, 7)
    hedging = conn.execute(
        select(month, func.count(), func.sum(o.hedges), func.sum(o.own_words))
        .where(o.outlet_key == key, o.first_date.is_not(None))
        .group_by(month)
        .order_by(month)
    ).all()
    shown = conn.execute(
        select(o.outlet, func.count()).where(o.outlet_key == key).group_by(o.outlet)
    ).all()
    return OutletProfile(
        key=key,
        name=max(shown, key=lambda r: (r[1], r[0]))[0] if shown else names[0],
        names=names,
        n_articles=int(totals[1]),
        n_stories=int(totals[0]),
        first_date=totals[5],
        last_date=last,
        exclusives=int(totals[2]),
        copied=int(totals[3]),
        credits=int(totals[4]),
        articles=[OutletArticle(r.article_id, r.title, r.published, r.story_id) for r in articles],
        stories=[
            OutletStory(
                id=r.story_id,
                title=r.title,
                first_date=r.first_date,
                n_articles=r.n_articles,
                story_articles=r.story_articles,
                exclusives=r.exclusives,
                copied=r.copied,
                credits=r.credits,
                detail=json.loads(r.data),
            )
            for r in stories
        ],
        hedging=[
            HedgingPeriod(
                month=m,
                stories=n,
                hedges=int(h or 0),
                own_words=int(w or 0),
                hedge_score=round(100 * (h or 0) / w, 2) if w else 0.0,
            )
            for m, n, h, w in hedging
        ],
    )


def person_profile(conn: Connection, key: str, limit: int = PROFILE_ROWS) -> PersonProfile | None:
    """The person with this key: each age and roles stated for them with the dates of the
    articles stating them, and the conflicts they are part of."""
    names = _names(conn, PERSON, key)
    if not names:
        return None
    e, a = t.entities.c, t.articles.c
    where = (e.name.in_(names), e.type == "PERSON")
    states = conn.execute(
        select(e.age, e.roles, func.min(a.published), func.max(a.published), func.count())
        .join(t.articles, a.id == e.article_id)
        .where(*where)
        .group_by(e.age, e.roles)
        .order_by(func.min(a.published), e.age, e.roles)
        .limit(limit)
    ).all()
    n_articles = conn.execute(
        select(func.count(e.article_id.distinct())).where(*where)
    ).scalar_one()
    pc = t.profile_conflicts.c
    rows = conn.execute(
        select(pc.story_id, pc.data).where(pc.person_key == key).order_by(pc.story_id).limit(limit)
    ).all()
    titles = _titles(conn, {r.story_id for r in rows})
    conflicts = []
    for story_id, data in rows:
        found = json.loads(data)
        conflicts.append(
            PersonConflict(
                story=ProfileStory(story_id, titles.get(story_id)),
                kind=found["kind"],
                subject=found["subject"],
                explanation=found["explanation"],
                statements=found["statements"],
            )
        )
    spoke = _names(conn, SPEAKER, key)
    return PersonProfile(
        key=key,
        name=max(names, key=len),
        names=names,
        n_articles=n_articles,
        states=[
            PersonState(age, json.loads(roles), first, last, n)
            for age, roles, first, last, n in states
        ],
        conflicts=conflicts,
        speaker_key=key if spoke else None,
    )


def stories_by_day(conn: Connection) -> list[DayCount]:
    """How many stories began on each day (by their first dated article)."""
    p = t.profile_stories.c
    query = (
        select(p.first_date, func.count())
        .where(p.first_date.is_not(None))
        .group_by(p.first_date)
        .order_by(p.first_date)
    )
    return [DayCount(d, n) for d, n in conn.execute(query)]


def name_keys(conn: Connection, kind: str, names: Iterable[str]) -> dict[str, str]:
    """The key of each of ``names`` that has a profile of ``kind`` (a page's few names)."""
    n = t.profile_names.c
    found: dict[str, str] = {}
    for chunk in chunks(names):
        query = select(n.name, n.key).where(n.kind == kind, n.name.in_(chunk))
        found.update(conn.execute(query).tuples().all())
    return found


def find_names(conn: Connection, query: str, limit: int) -> list[NameMatch]:
    """Speakers, outlets and people whose key holds the query's key (search)."""
    wanted = name_key(query)
    if not wanted:
        return []
    n = t.profile_names.c
    escaped = wanted.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    rows = conn.execute(
        select(n.kind, n.key, func.min(n.name))
        .where(n.key.like(f"%{escaped}%", escape="\\"))
        .group_by(n.kind, n.key)
        .order_by(n.kind, n.key)
        .limit(limit)
    ).all()
    return [NameMatch(kind, key, name) for kind, key, name in rows]
