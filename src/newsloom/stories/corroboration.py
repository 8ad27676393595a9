"""Corroboration: for each quote, fact and timeline event, which outlets carry it and how many
of them are independent confirmations.

An outlet carrying an item is *not* independent of another outlet P that carries it too when

- ``wire``: its article is a syndicated copy of P's — copied passages shared with one article
  of P cover most of its body (``WIRE_SHARE``), or its dateline names P as the agency
  ("MILLBROOK (Metro Wire) —") while sharing a copied passage with it;
- ``copy``: its text for the item lies in a copied passage (``passages.find_copied_passages``)
  whose first publisher is P (when the dates cannot tell, the passage's articles are counted
  once, the first by date and story order standing for them);
- ``credit``: it credits P (a credited source with publisher evidence, or one naming a story
  outlet) in the paragraph of the item (``CREDIT_REACH``). A credited outlet outside the
  story is a source too: the item rests on it, not on the outlet that repeats it.

An outlet is independent when one of its articles carrying the item rests on nobody. No outlet
rests on an outlet that (through others) rests on it: the first dependency found in date
order stands, a later one that would close a circle is dropped. ``sources`` counts the
independent outlets plus the outside outlets credited by the others; an item with one source
is ``single_source``.
"""

from __future__ import annotations

import bisect
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from ..models import (
    ArticleAnalysis,
    CopiedPassage,
    Corroboration,
    Dependency,
    Story,
)
from ..spans import body_ranges
from .credits import compact_key, outlet_keys
from .outlets import outlet_key, outlet_names
from .passages import date_interval

# An article is a syndicated copy of another when the passages they share cover at least this
# share of its body characters. A wire reprint keeps nearly all of the wire's text (its own
# headline, a trimmed or added paragraph: 0.7-1.0 in examples/corpus and the hand-built rows
# of tests/stories/test_corroboration.py); an article borrowing a paragraph or two stays
# under 0.4.
WIRE_SHARE = 0.6
# A credit counts for items in its own paragraph and in this many paragraphs after it. Zero:
# in examples/corpus the paragraph after "first reported by X" is the outlet's own interview
# or a statement made in public ("We are going to find out exactly what failed," Whitcombe
# said on Monday), which the credit does not cover.
CREDIT_REACH = 0

_AGENCY = re.compile(r"[ \t]*\(([^()\n]{2,40})\)")

Span = tuple[str, int, int]  # (article id, start, end)
MAX_OFFSET = 2**63  # above any character offset: bisects to the paragraph starting at or before


@dataclass(frozen=True)
class _Article:
    index: int
    id: str
    outlet: str  # outlet key
    order: tuple[str, int]  # (earliest possible publication, story position)
    paragraphs: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class _Link:
    on: str  # outlet key, or "source:<compact name>" for an outlet outside the story
    via: str
    evidence: str


class Corroborator:
    """The story's copies, wire copies and credits, read once; ``of`` answers per item."""

    def __init__(self, analyses: Sequence[ArticleAnalysis], passages: Sequence[CopiedPassage]):
        self.names = outlet_names(analyses)
        self.articles: dict[str, _Article] = {}
        for i, a in enumerate(analyses):
            interval = date_interval(a.article.published)
            self.articles[a.article.id] = _Article(
                i,
                a.article.id,
                outlet_key(a.article),
                (interval[0] if interval else "9999", i),
                tuple(body_ranges(a.paragraphs, len(a.article.text))),
            )
        self.passages = list(passages)
        # Article id -> the passages holding one of its spans (a big story has hundreds).
        self.passages_of: dict[str, list[CopiedPassage]] = defaultdict(list)
        for passage in self.passages:
            for aid in dict.fromkeys(s.article_id for s in passage.spans):
                self.passages_of[aid].append(passage)
        self.wire = _wire_copies(analyses, self.passages, self.articles)
        self.credits = _credits(analyses)
        self.credit_names: dict[str, str] = {}
        for a in analyses:
            for c in a.framing.credits if a.framing else []:
                self.credit_names.setdefault("source:" + compact_key(c.name), c.name)

    def of(self, spans: Sequence[Span]) -> Corroboration:
        """The corroboration of an item carried at ``spans`` (article id, start, end)."""
        spans = [s for s in spans if s[0] in self.articles]
        carriers: dict[str, list[str]] = defaultdict(list)  # outlet -> article ids
        by_article: dict[str, list[tuple[int, int]]] = defaultdict(list)
        for aid, start, end in spans:
            if aid not in carriers[self.articles[aid].outlet]:
                carriers[self.articles[aid].outlet].append(aid)
            by_article[aid].append((start, end))
        order = sorted(carriers, key=lambda o: min(self.articles[a].order for a in carriers[o]))
        chosen: dict[str, tuple[str, _Link]] = {}  # outlet -> (its article, link)
        for outlet in order:
            links: list[tuple[str, _Link]] = []
            for aid in carriers[outlet]:
                link = self._link(aid, by_article[aid], carriers, chosen, outlet)
                if link is None:
                    links = []
                    break  # one article of the outlet rests on nobody: it is independent
                links.append((aid, link))
            if links:
                chosen[outlet] = links[0]
        independent = [o for o in order if o not in chosen]
        outside = {link.on for _, link in chosen.values() if link.on.startswith("source:")}
        sources = len(independent) + len(outside)
        return Corroboration(
            outlets=[self.names[o] for o in order],
            independent_outlets=[self.names[o] for o in independent],
            depends_on=[
                Dependency(
                    outlet=self.names[o],
                    on=self._name(link.on),
                    via=link.via,  # type: ignore[arg-type]
                    article_id=aid,
                    on_in_story=not link.on.startswith("source:"),
                    evidence=link.evidence,
                )
                for o in order
                if o in chosen
                for aid, link in [chosen[o]]
            ],
            sources=sources,
            single_source=sources == 1,
        )

    def _name(self, key: str) -> str:
        return self.names.get(key) or self.credit_names.get(key) or key.removeprefix("source:")

    def _link(
        self,
        aid: str,
        where: list[tuple[int, int]],
        carriers: dict[str, list[str]],
        chosen: dict[str, tuple[str, _Link]],
        outlet: str,
    ) -> _Link | None:
        """What article ``aid``'s text of the item rests on (wire, copy, credit), or None."""

        def allowed(on: str) -> bool:  # no circle: ``on`` must not rest (through others) on us
            seen = set()
            while on in chosen and on not in seen:
                seen.add(on)
                on = chosen[on][1].on
            return on != outlet

        original = self.wire.get(aid)
        if original is not None and original[0] in carriers and allowed(original[0]):
            return _Link(original[0], "wire", original[1])
        for passage in self.passages_of.get(aid, []):
            first = self._first(passage, carriers)
            if first is None or self.articles[first].outlet == outlet:
                continue
            mine = [s for s in passage.spans if s.article_id == aid]
            if not any(s.start <= b and e <= s.end for s in mine for b, e in where):
                continue
            on = self.articles[first].outlet
            if allowed(on):
                reason = passage.earliest_reason or "first by date"
                return _Link(on, "copy", f"copied passage {passage.id} ({reason})")
        for credited, start, cue in self.credits.get(aid, []):
            if credited == outlet or not any(
                self._near(aid, start, b) for b, _ in where
            ):  # fmt: skip
                continue
            in_story = credited in self.names
            if in_story and credited not in carriers:
                continue  # it credits an outlet of the story that does not carry the item
            if allowed(credited):
                return _Link(credited, "credit", f"credits {self._name(credited)} ('{cue}')")
        return None

    def _first(self, passage: CopiedPassage, carriers: dict[str, list[str]]) -> str | None:
        """The article the passage's other copies rest on: its first publisher, else (dates
        cannot tell) the first of its articles by date and story order. Only an article whose
        outlet carries the item counts."""
        members = [s.article_id for s in passage.spans if s.article_id in self.articles]
        members = [m for m in members if m in carriers[self.articles[m].outlet]]
        if passage.earliest_article_id in members:
            return passage.earliest_article_id
        return min(members, key=lambda m: self.articles[m].order, default=None)

    def _near(self, aid: str, credit_at: int, item_at: int) -> bool:
        paragraphs = self.articles[aid].paragraphs  # sorted, not overlapping

        def paragraph(pos: int) -> int | None:
            i = bisect.bisect_right(paragraphs, (pos, MAX_OFFSET)) - 1
            return i if i >= 0 and pos < paragraphs[i][1] else None

        c, i = paragraph(credit_at), paragraph(item_at)
        return c is not None and i is not None and 0 <= i - c <= CREDIT_REACH


def _wire_copies(
    analyses: Sequence[ArticleAnalysis],
    passages: Sequence[CopiedPassage],
    articles: dict[str, _Article],
) -> dict[str, tuple[str, str]]:
    """Article id -> (outlet key it is a syndicated copy of, why)."""
    shared: dict[tuple[str, str], int] = defaultdict(int)  # (article, other) -> chars
    for p in passages:
        for s in p.spans:
            for o in p.spans:
                if articles[o.article_id].outlet != articles[s.article_id].outlet:
                    shared[(s.article_id, o.article_id)] += s.end - s.start
    agencies = outlet_keys(analyses)
    out: dict[str, tuple[str, str]] = {}
    for a in analyses:
        aid = a.article.id
        body = sum(e - s for s, e in articles[aid].paragraphs) or 1
        others = [(o, n) for (x, o), n in shared.items() if x == aid]
        agency = _dateline_agency(a)
        named = agencies.get(compact_key(agency)) if agency else None
        for other, chars in sorted(others, key=lambda x: (-x[1], articles[x[0]].order)):
            on = articles[other].outlet
            if named == on:
                out[aid] = (on, f"dateline credits {agency}; shares copied passages with it")
                break
            earlier = articles[other].order < articles[aid].order
            if chars / body >= WIRE_SHARE and earlier:
                share = round(100 * min(1.0, chars / body))
                out[aid] = (on, f"{share}% of its body is the same text as an earlier article")
                break
    return out


def _dateline_agency(analysis: ArticleAnalysis) -> str | None:
    """'Metro Wire' for a body opening 'MILLBROOK (Metro Wire) —'."""
    dateline = analysis.article.dateline
    if dateline is None:
        return None
    m = _AGENCY.match(analysis.article.text, dateline.end)
    return m.group(1).strip() if m else None


def _credits(analyses: Sequence[ArticleAnalysis]) -> dict[str, list[tuple[str, int, str]]]:
    """Article id -> (credited outlet key or 'source:<name>', offset, cue) per credit."""
    story = outlet_keys(analyses)
    out: dict[str, list[tuple[str, int, str]]] = defaultdict(list)
    for a in analyses:
        for c in a.framing.credits if a.framing else []:
            key = compact_key(c.name)
            if key in story:
                out[a.article.id].append((story[key], c.start, c.cue))
            elif c.evidence and key:
                out[a.article.id].append(("source:" + key, c.start, c.cue))
    return out


def timeline_spans(
    analyses: Sequence[ArticleAnalysis], date: str, ids: Sequence[str]
) -> list[Span]:
    """Where each article tells a timeline event: its sentences holding a date of that value."""
    wanted = set(ids)
    return [
        (a.article.id, d.sentence_start, d.sentence_end)
        for a in analyses
        if a.article.id in wanted
        for d in a.dates
        if d.value == date
    ]


def add_corroboration(story: Story, analyses: Sequence[ArticleAnalysis]) -> None:
    """Set ``corroboration`` on the story's quotes, facts and timeline events (needs its copied
    passages)."""
    c = Corroborator(analyses, story.copied_passages)
    for quote in story.quotes:
        quote.corroboration = c.of([(m.article_id, m.start, m.end) for m in quote.mentions])
    for group in story.facts:
        group.corroboration = c.of([(s.article_id, s.start, s.end) for s in group.statements])
    for event in story.timeline:
        event.corroboration = c.of(timeline_spans(analyses, event.date, event.article_ids))
