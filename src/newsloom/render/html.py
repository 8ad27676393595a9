"""Story pages as HTML: the static report (`newsloom report`) and the pages `newsloom serve` shows.

Everything that reaches a page is untrusted article text, so the Jinja2 environment escapes
every value (autoescape on for all templates, no ``|safe`` anywhere) and article URLs become
links only when they are http(s). Pages link to each other by relative file names
(``index.html``, ``story-ID.html``, ``article-ID.html``), so the same templates work from
``file://`` and from the server.

Every item a story page shows links to the article it comes from, at ``#q-START-END``: the
article page wraps each such span in a ``<mark id="q-START-END">``. One ``StoryLinks`` object
makes both the links and the marks, so a link never points at a span the page lacks.

A quote repeated in other stories (a tracked quote, ``stories/tracking.py``) has its own page,
``quote-ID.html``: its wording over time, outlet by outlet, each mention linked to its span
(every quote mention is marked on its article page) and to its story.
"""

from __future__ import annotations

import difflib
import heapq
import re
import shutil
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlencode, urlsplit

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from ..models import (
    Article,
    ArticleAnalysis,
    Quote,
    Story,
    StoryEntity,
    StoryPost,
    TrackedLink,
    TrackedMention,
    TrackedQuote,
)
from ..store.listing import ListPage, ListQuery
from ..text import outlets as text_outlets
from ..text.dates import exact_day
from .charts import (
    CHART_AXIS,
    CHART_HEIGHT,
    CHART_WIDTH,
    bar_chart,
    chart_unit,
    outlet_day_chart,
)
from .charts import MAX_CHART_BARS as MAX_CHART_BARS  # the coverage chart's (tests read it)
from .json import write_atomic
from .profiles import CONTEXTS, ProfileLinks, profile_href, profile_names, read_profiles
from .speakers import ShownSpeaker, mention_speaker, quote_speaker, shown_speaker

TEMPLATES = Path(__file__).parent / "templates"
STATIC = Path(__file__).parent / "static"

# Characters of a copied passage shown before the rest is folded away.
PASSAGE_PREVIEW = 280

TOKEN = re.compile(r"\w+|[^\w\s]|\s+")
WORD = re.compile(r"\w+")


def environment() -> Environment:
    """The one Jinja2 environment: autoescape on for every template, undefined names fail."""
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["http_url"] = http_url
    env.globals["anchor"] = anchor
    env.globals["mention_speaker"] = mention_speaker
    return env


def http_url(url: str | None) -> str | None:
    """``url`` when it is a plain http(s) URL, else None (never a javascript:/data: link)."""
    if not url or any(ch.isspace() or ord(ch) < 32 for ch in url):
        return None
    parts = urlsplit(url)
    return url if parts.scheme.lower() in ("http", "https") and parts.netloc else None


def anchor(start: int, end: int) -> str:
    return f"q-{start}-{end}"


def article_href(article_id: str, start: int | None = None, end: int | None = None) -> str:
    page = f"article-{article_id}.html"
    return page if start is None or end is None else f"{page}#{anchor(start, end)}"


def quote_href(tracked_id: str) -> str:
    """The page of a tracked quote."""
    return f"quote-{tracked_id}.html"


def story_href(story_id: str) -> str:
    return f"story-{story_id}.html"


@dataclass(frozen=True)
class Spread:
    """How far a tracked quote travelled: its mentions and the stories they are in."""

    mentions: int
    stories: int


# -- word-level differences -------------------------------------------------------------------

# Variants that differ from the canonical wording only by words cut, added, masked or filled in
# (stories/quotes.py ``classify``), or swapped (a tracked quote's ``word_change``,
# stories/tracking.py ``variant``): marking those words reads well.
NEAR_VARIANTS = frozenset(
    {"identical", "truncated", "extended", "censored", "filler", "word_change"}
)
# A rewording ("paraphrased") whose words match the canonical wording at least this much is a
# word change (one word of ten swapped scores 0.9, two 0.8); below it the marks cover most of
# the quote and the two wordings read better side by side without them.
WORD_CHANGE_RATIO = 0.8


def near_wording(base: str, other: str, variants: Iterable[str], indirect: bool) -> bool:
    """Whether ``other`` is near enough to ``base`` for a word-level diff to read well.

    Truncation, extension, censoring and fillers are; a paraphrase (or an unlabelled wording)
    only when it is a word change (``WORD_CHANGE_RATIO``); a merged quote or an indirect report
    never is.
    """
    labels = set(variants)
    if indirect or "merged" in labels:
        return False
    if labels and labels <= NEAR_VARIANTS:
        return True
    return word_similarity(base, other) >= WORD_CHANGE_RATIO


def word_similarity(base: str, other: str) -> float:
    """difflib's ratio on the two wordings' case-folded words (punctuation and spacing aside)."""
    a, b = WORD.findall(base.casefold()), WORD.findall(other.casefold())
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


def word_diff(base: str, other: str) -> list[tuple[str, str]]:
    """``other`` against ``base`` as (op, text) pieces, op in same/ins/del (difflib on tokens).

    Whitespace-only changes count as the same, so a re-wrapped quote shows no difference.
    """
    a, b = TOKEN.findall(base), TOKEN.findall(other)
    pieces: list[tuple[str, str]] = []

    def add(op: str, text: str) -> None:
        if not text:
            return
        if not text.strip():  # spacing changes are not differences: show the new spacing only
            if op == "del":
                return
            op = "same"
        if pieces and pieces[-1][0] == op:
            pieces[-1] = (op, pieces[-1][1] + text)
        else:
            pieces.append((op, text))

    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            add("same", "".join(b[j1:j2]))
            continue
        if tag in ("replace", "delete"):
            add("del", "".join(a[i1:i2]))
        if tag in ("replace", "insert"):
            add("ins", "".join(b[j1:j2]))
    return pieces


# -- highlights on the article page -----------------------------------------------------------


@dataclass
class Highlight:
    start: int
    end: int
    kinds: set[str] = field(default_factory=set)
    labels: list[str] = field(default_factory=list)

    @property
    def id(self) -> str:
        return anchor(self.start, self.end)


def text_pieces(text: str, highlights: Iterable[Highlight]) -> list[tuple[str, Any]]:
    """The article text as ("text", str) / ("open", dict) / ("close", None) events.

    Marks nest; a span crossing the end of an enclosing one is cut there and continues in
    a second mark without the id (the first piece carries the anchor). The text between
    events is the article text, unchanged and complete.
    """
    heap: list[tuple[int, int, int, Highlight, bool]] = []
    for seq, h in enumerate(highlights):
        if 0 <= h.start < h.end <= len(text):
            heapq.heappush(heap, (h.start, -h.end, seq, h, True))
    seq = len(heap)
    out: list[tuple[str, Any]] = []
    stack: list[int] = []  # end offsets of open marks
    pos = 0

    def emit(upto: int) -> None:
        nonlocal pos
        if upto > pos:
            out.append(("text", text[pos:upto]))
            pos = upto

    def close_until(limit: int) -> None:
        while stack and stack[-1] <= limit:
            emit(stack.pop())
            out.append(("close", None))

    while heap:
        start, neg_end, _, h, first = heapq.heappop(heap)
        end = -neg_end
        close_until(start)
        if stack and end > stack[-1]:  # crosses the enclosing mark: cut, continue later
            seq += 1
            heapq.heappush(heap, (stack[-1], neg_end, seq, h, False))
            end = stack[-1]
        emit(start)
        out.append(
            (
                "open",
                {
                    "id": h.id if first else None,
                    "part_of": None if first else h.id,
                    "cls": " ".join(
                        ["hl", *sorted(f"hl-{k}" for k in h.kinds), "" if first else "hl-cont"]
                    ).strip(),
                    "title": "; ".join(dict.fromkeys(h.labels)),
                },
            )
        )
        stack.append(end)
    close_until(len(text))
    emit(len(text))
    return out


class StoryLinks:
    """Links from a story's items to article spans, and the marks those links need.

    ``link`` returns the href for a span and records the mark on that article's page, so
    rendering a story page first and then asking ``highlights(article_id)`` gives exactly the
    spans the story page links to.
    """

    def __init__(self, analyses: Mapping[str, ArticleAnalysis]) -> None:
        self.analyses = analyses
        self.marks: dict[str, dict[tuple[int, int], Highlight]] = defaultdict(dict)

    def link(
        self, article_id: str, start: int | None, end: int | None, kind: str, label: str = ""
    ) -> str:
        analysis = self.analyses.get(article_id)
        if (
            analysis is None
            or start is None
            or end is None
            or not 0 <= start < end <= len(analysis.article.text)
        ):
            return article_href(article_id)
        mark = self.marks[article_id].setdefault((start, end), Highlight(start, end))
        mark.kinds.add(kind)
        if label:
            mark.labels.append(label)
        return article_href(article_id, start, end)

    def locate(self, article_id: str, snippet: str, kind: str, label: str = "") -> str:
        """A link to the first occurrence of ``snippet`` in the article (found, never rewritten)."""
        analysis = self.analyses.get(article_id)
        at = analysis.article.text.find(snippet) if analysis is not None and snippet else -1
        if at < 0:
            return article_href(article_id)
        return self.link(article_id, at, at + len(snippet), kind, label)

    def highlights(self, article_id: str) -> list[Highlight]:
        return list(self.marks.get(article_id, {}).values())


# -- the story page ---------------------------------------------------------------------------


def coverage_chart(articles: Sequence[Article]) -> dict[str, Any] | None:
    """Bars of articles per day, week, month or years (by span), laid out for an inline SVG."""
    days = sorted(d for d in (exact_day(a.published) for a in articles) if d is not None)
    if not days:
        return None
    unit = chart_unit(days[0], days[-1])
    low = unit.index(days[0])
    buckets: dict[str, list[str]] = {
        unit.label(i): [] for i in range(low, unit.index(days[-1]) + 1)
    }
    labels = list(buckets)
    for a in articles:
        d = exact_day(a.published)
        if d is not None:
            buckets[labels[unit.index(d) - low]].append(a.outlet)
    top = max(len(v) for v in buckets.values())
    slot = CHART_WIDTH / len(buckets)
    plot = CHART_HEIGHT - CHART_AXIS
    bars = []
    for i, (key, outlets) in enumerate(buckets.items()):
        h = plot * len(outlets) / top
        bars.append(
            {
                "x": round(i * slot + slot * 0.1, 2),
                "y": round(plot - h, 2),
                "w": round(slot * 0.8, 2),
                "h": round(h, 2),
                "label": key,
                "count": len(outlets),
                "title": f"{key}: {len(outlets)} article{'s' if len(outlets) != 1 else ''}"
                + (f" ({', '.join(sorted(set(outlets)))})" if outlets else ""),
            }
        )
    undated = sum(1 for a in articles if exact_day(a.published) is None)
    return {
        "width": CHART_WIDTH,
        "height": CHART_HEIGHT,
        "axis_y": CHART_HEIGHT - 3,
        "bars": bars,
        "first": next(iter(buckets)),
        "last": list(buckets)[-1],
        "unit": unit.name,
        "total": len(articles) - undated,
        "undated": undated,
    }


def _entity_span(analysis: ArticleAnalysis, entity: StoryEntity) -> tuple[int, int] | None:
    names = {entity.name, *entity.aliases}
    for e in analysis.entities:
        if e.name in names or names.intersection(e.aliases):
            if e.age_span is not None:
                return e.age_span.start, e.age_span.end
            if e.mentions:
                return e.mentions[0].start, e.mentions[0].end
    return None


def _post_span(analysis: ArticleAnalysis, post: StoryPost) -> tuple[int, int] | None:
    for p in analysis.posts:
        if p.handle.lower() == post.handle.lower() and (p.text == post.text or p.date == post.date):
            return p.start, p.end
    for p in analysis.posts:
        if p.handle.lower() == post.handle.lower():
            return p.start, p.end
    return None


@dataclass(frozen=True)
class Citer:
    """Makes a story page's citations: the link (recorded as a mark), the outlet and the date."""

    arts: Mapping[str, Article]
    links: StoryLinks

    def outlet(self, aid: str) -> str:
        if aid in self.arts:
            return self.arts[aid].outlet
        return text_outlets.outlet_name(None)  # a name even for an article not loaded

    def _date(self, aid: str) -> str:
        return self.arts[aid].published or "" if aid in self.arts else ""

    def cite(
        self, aid: str, start: int | None, end: int | None, kind: str, label: str = ""
    ) -> dict[str, str]:
        return {
            "href": self.links.link(aid, start, end, kind, label),
            "outlet": self.outlet(aid),
            "date": self._date(aid),
        }

    def cite_text(self, aid: str, snippet: str, kind: str) -> dict[str, str]:
        """A citation at the first occurrence of ``snippet`` in the article."""
        return {
            "href": self.links.locate(aid, snippet, kind),
            "outlet": self.outlet(aid),
            "date": self._date(aid),
        }


# One builder per section of the story page. They run in page order because each link also
# records its mark (and label) for the article pages, and the labels keep that order.


def summary_section(story: Story, c: Citer) -> list[dict[str, Any]]:
    return [
        {
            "text": s.text,
            "cites": [c.cite(s.article_id, s.start, s.end, "summary")]
            + [c.cite_text(aid, s.text, "summary") for aid in s.article_ids if aid != s.article_id],
        }
        for s in story.summary
    ]


def _quote_row(q: Quote, c: Citer, spread: Mapping[str, Spread]) -> dict[str, Any]:
    """One quote with each distinct wording, its citations and its variant label.

    A wording near the canonical text (``near_wording``) carries its word-level diff; the
    others (paraphrases, merged quotes, indirect reports) are shown as written, side by side.
    A quote also quoted in other stories (``spread``) links to its tracked quote's page.
    """
    wordings: dict[str, list[dict[str, str]]] = {}
    variants: dict[str, set[str]] = defaultdict(set)
    indirect: set[str] = set()
    for m in q.mentions:
        own = mention_speaker(m)  # what this article says; the story's when it says nothing
        label = f"quote: {(own if own.state != 'unattributed' else quote_speaker(q)).label}"
        wordings.setdefault(m.text, []).append(c.cite(m.article_id, m.start, m.end, "quote", label))
        if m.variant:
            variants[m.text].add(m.variant)
        if m.kind == "indirect":
            indirect.add(m.text)
    shown = [
        {
            "text": text,
            "cites": cites,
            "variant": ", ".join(sorted(variants[text])) or None,
            "indirect": text in indirect,
            "diff": _wording_diff(q.text, text, variants[text], text in indirect)
            if len(wordings) > 1
            else None,
        }
        for text, cites in wordings.items()
    ]
    return {
        "id": q.id,
        "text": q.text,
        "wordings": shown,
        "speaker": quote_speaker(q),
        "speaker_conflict": q.speaker_conflict,
        "kind": q.mentions[0].kind if q.mentions else "direct",
        "outlets": len({m.article_id for m in q.mentions}),
        "tracked": _tracked_link(q.tracked_quote_id, spread),
        "corroboration": q.corroboration,
    }


def _tracked_link(tracked_id: str | None, spread: Mapping[str, Spread]) -> dict[str, Any] | None:
    """The link to a tracked quote's page, when the quote is also quoted in other stories."""
    found = spread.get(tracked_id) if tracked_id else None
    if tracked_id is None or found is None or found.stories < 2:
        return None
    return {"href": quote_href(tracked_id), "others": found.stories - 1}


def _wording_diff(
    base: str, text: str, variants: set[str], indirect: bool
) -> list[tuple[str, str]] | None:
    if text == base or not near_wording(base, text, variants, indirect):
        return None
    return word_diff(base, text)


def quotes_section(
    story: Story, c: Citer, spread: Mapping[str, Spread]
) -> list[tuple[str, list[dict[str, Any]]]]:
    """Quotes grouped by speaker: most-cited speakers first; last the quotes whose speaker is
    unresolved or not named, under a heading saying which."""
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for q in story.quotes:
        groups[q.speaker or ""].append(_quote_row(q, c, spread))
    ranked = sorted(
        groups.items(), key=lambda kv: (kv[0] == "", -sum(q["outlets"] for q in kv[1]), kv[0])
    )
    return [(name or _nameless_heading(quotes), quotes) for name, quotes in ranked]


def _nameless_heading(quotes: list[dict[str, Any]]) -> str:
    unclear = any(q["speaker"].state == "unresolved" for q in quotes)
    return "Unclear or unattributed" if unclear else "Unattributed"


def posts_section(
    story: Story, analyses: Mapping[str, ArticleAnalysis], c: Citer
) -> list[dict[str, Any]]:
    def post_cite(aid: str, post: StoryPost) -> dict[str, str]:
        span = _post_span(analyses[aid], post) if aid in analyses else None
        start, end = span or (None, None)
        return c.cite(aid, start, end, "post", f"post by @{post.handle}")

    return [{"post": p, "cites": [post_cite(aid, p) for aid in p.article_ids]} for p in story.posts]


def entity_row(e: StoryEntity, analyses: Mapping[str, ArticleAnalysis], c: Citer) -> dict[str, Any]:
    """A person or organisation with its ages and citations, each at its mention if found."""
    spans = {aid: _entity_span(analyses[aid], e) for aid in e.article_ids if aid in analyses}

    def at(aid: str, label: str) -> dict[str, str]:
        start, end = spans.get(aid) or (None, None)
        return c.cite(aid, start, end, "person", label)

    ages = [{"age": age, **at(aid, f"{e.name}, {age}")} for aid, age in e.ages.items()]
    return {"entity": e, "ages": ages, "cites": [at(aid, e.name) for aid in e.article_ids]}


def timeline_section(story: Story, c: Citer) -> list[dict[str, Any]]:
    return [
        {"event": ev, "cites": [c.cite_text(aid, ev.text, "timeline") for aid in ev.article_ids]}
        for ev in story.timeline
    ]


def passages_section(story: Story, c: Citer) -> list[dict[str, Any]]:
    """Copied passages, each shown from its earliest copy with the rest folded away."""
    passages = []
    for cp in story.copied_passages:
        spans = sorted(cp.spans, key=lambda s: (s.published or "9999", s.source or ""))
        passages.append(
            {
                "passage": cp,
                "earliest": c.outlet(cp.earliest_article_id) if cp.earliest_article_id else None,
                "preview": spans[0].text[:PASSAGE_PREVIEW] if spans else "",
                "rest": spans[0].text[PASSAGE_PREVIEW:] if spans else "",
                "spans": [
                    {
                        **c.cite(s.article_id, s.start, s.end, "passage", "copied passage"),
                        "earliest": s.article_id == cp.earliest_article_id,
                    }
                    for s in spans
                ],
            }
        )
    return passages


def credits_section(story: Story, c: Citer) -> list[dict[str, Any]]:
    return [
        {
            "credit": cs,
            "cites": [
                c.cite(ct.article_id, ct.start, ct.end, "credit", f"credit: {ct.cue}")
                for ct in cs.citations
            ],
        }
        for cs in story.credited_sources
    ]


# Fact groups where outlets disagree come first; groups all outlets word the same come last.
FACT_STATUS_ORDER = {"conflict": 0, "update": 1, "approximate": 2, "agree": 3}


def facts_section(story: Story, c: Citer) -> list[dict[str, Any]]:
    return [
        {
            "group": g,
            "statements": [
                {
                    "s": st,
                    **c.cite(st.article_id, st.start, st.end, "fact", f"{g.kind}: {st.text}"),
                }
                for st in g.statements
            ],
        }
        for g in sorted(story.facts, key=lambda g: FACT_STATUS_ORDER.get(g.status, 9))
    ]


def outlets_section(story: Story, c: Citer) -> list[dict[str, Any]]:
    """Per outlet: its articles and what it alone reported (quotes, facts, posts)."""
    return [
        {
            "report": r,
            "articles": [
                c.cite(aid, None, None, "article") | {"title": c.arts[aid].title or aid}
                for aid in r.article_ids
                if aid in c.arts
            ],
            "quotes": [
                {
                    "q": m,
                    **c.cite(
                        m.article_id,
                        m.start,
                        m.end,
                        "quote",
                        f"quote: {mention_speaker(m).label}",
                    ),
                }
                for m in r.exclusive_quotes
            ],
            "facts": [
                {
                    "s": st,
                    **c.cite(st.article_id, st.start, st.end, "fact", f"{st.kind}: {st.text}"),
                }
                for st in r.exclusive_facts
            ],
            "posts": r.exclusive_posts,
        }
        for r in story.outlets
    ]


def story_context(
    story: Story,
    analyses: Mapping[str, ArticleAnalysis],
    links: StoryLinks,
    spread: Mapping[str, Spread] | None = None,
) -> dict[str, Any]:
    """Everything the story template shows, with every item's link made through ``links``;
    ``spread`` (tracked quote id -> its spread) says which quotes other stories quote too."""
    arts = {aid: analyses[aid].article for aid in story.article_ids if aid in analyses}
    c = Citer(arts, links)
    articles = sorted(arts.values(), key=lambda a: (a.published or "9999", a.outlet))
    # Sections are built in page order (see above), so this dict is not built inline.
    summary = summary_section(story, c)
    speakers = quotes_section(story, c, spread or {})
    posts = posts_section(story, analyses, c)
    people = [entity_row(e, analyses, c) for e in story.entities if e.type == "PERSON"]
    others = [entity_row(e, analyses, c) for e in story.entities if e.type != "PERSON"]
    timeline = timeline_section(story, c)
    passages = passages_section(story, c)
    credits = credits_section(story, c)
    facts = facts_section(story, c)
    outlets = outlets_section(story, c)
    return {
        "story": story,
        "title": story.title or "(untitled story)",
        "articles": articles,
        "outlet_of": {a.id: a.outlet for a in articles},
        "chart": coverage_chart(articles),
        "outlet_chart": outlet_day_chart((a.outlet, a.published) for a in articles),
        "summary": summary,
        "speakers": speakers,
        "posts": posts,
        "people": people,
        "others": others,
        "timeline": timeline,
        "passages": passages,
        "credits": credits,
        "facts": facts,
        "outlets": outlets,
        "n_quote_mentions": sum(len(q.mentions) for q in story.quotes),
    }


def article_context(
    analysis: ArticleAnalysis, story: Story | None, links: StoryLinks
) -> dict[str, Any]:
    """The article page: its text with every linked span (and every quote) marked."""
    a = analysis.article
    marks = {(h.start, h.end): h for h in links.highlights(a.id)}
    for q in analysis.quotes:
        h = marks.setdefault((q.start, q.end), Highlight(q.start, q.end))
        h.kinds.add("quote")
        h.labels.append(f"quote: {mention_speaker(q).label}")
    return {
        "article": a,
        "outlet": a.outlet,
        "url": http_url(a.url),
        "story": story,
        "story_title": (story.title or "(untitled story)") if story else None,
        "pieces": text_pieces(a.text, marks.values()),
        "n_marks": len(marks),
        "quotes": sorted(analysis.quotes, key=lambda q: q.start),
    }


# -- the tracked quote page -------------------------------------------------------------------

# What each variant of a tracked mention means, for the page's legend (stories/tracking.py).
VARIANT_MEANINGS = {
    "identical": "the canonical wording, word for word",
    "truncated": "part of it, words cut at the start or end",
    "extended": "more words than the canonical wording",
    "censored": "a word masked (f***)",
    "filler": "fillers such as “um” or “you know” left in or out",
    "word_change": "a word swapped for another",
    "paraphrased": "reworded",
    "merged": "run together with another remark",
}
# How two stories' quotes were found to be one utterance (``TrackedLink.relation``).
RELATION_MEANINGS = {
    "near": "most words of both wordings in the same order",
    "contained": "the shorter wording almost whole inside the longer",
}


def variant_label(variant: str) -> str:
    return variant.replace("_", " ")


def tracked_context(
    quote: TrackedQuote,
    story_titles: Mapping[str, str | None],
    linked: AbstractSet[str] | None = None,
) -> dict[str, Any]:
    """Everything the tracked quote page shows: the canonical wording and speaker, first seen,
    every mention in date order (a word-level diff for near wordings, side by side with the
    canonical wording otherwise), the stories, and the evidence of each link.

    A story is linked (and its articles' spans) only when ``linked`` holds it (all when None):
    a static report of some stories has no pages for the others.
    """

    def story_of(story_id: str) -> dict[str, Any]:
        title = story_titles.get(story_id) or "(untitled story)"
        has_page = linked is None or story_id in linked
        return {"id": story_id, "title": title, "href": story_href(story_id) if has_page else None}

    def span_href(m: TrackedMention) -> str | None:
        has_page = linked is None or m.story_id in linked
        return article_href(m.article_id, m.start, m.end) if has_page else None

    canonical = shown_speaker(quote.speaker, (), quote.speaker_confidence)
    mentions: list[dict[str, Any]] = []
    for m in quote.mentions:
        indirect = m.kind == "indirect"
        near = m.text == quote.text or near_wording(quote.text, m.text, [m.variant], indirect)
        said = shown_speaker(m.speaker, (), m.speaker_confidence)
        mentions.append(
            {
                "m": m,
                "href": span_href(m),
                "story": story_of(m.story_id),
                "variant": variant_label(m.variant),
                "indirect": indirect,
                # the same words need no marks; a near wording is marked; the rest side by side
                "diff": word_diff(quote.text, m.text) if near and m.text != quote.text else None,
                "side_by_side": not near,
                "speaker": said if said.name != canonical.name else None,
            }
        )
    first = next((x for x in mentions if x["m"].article_id == quote.first_article_id), None)
    stories = []
    for story_id in quote.story_ids:
        own = [m for m in quote.mentions if m.story_id == story_id]
        dates = sorted(m.published for m in own if m.published)
        stories.append(
            {
                **story_of(story_id),
                "mentions": len(own),
                "outlets": sorted({m.outlet for m in own}),
                "first": dates[0] if dates else None,
                "last": dates[-1] if dates else None,
            }
        )
    stories.sort(key=lambda x: (x["first"] or "9999", x["title"], x["id"]))
    return {
        "q": quote,
        "title": _short(quote.text),
        "said_by": canonical,
        "first": first,
        "mentions": mentions,
        "stories": stories,
        "variants": [
            (variant_label(v), VARIANT_MEANINGS[v])
            for v in VARIANT_MEANINGS
            if any(m.variant == v for m in quote.mentions)
        ],
        "links": [_evidence(link, quote, story_of) for link in quote.links],
    }


# Characters of a quote's wording in its page's title.
TITLE_CHARS = 70


def _short(text: str) -> str:
    text = " ".join(text.split()).rstrip(",.;: ")
    return text if len(text) <= TITLE_CHARS else text[: TITLE_CHARS - 1].rstrip() + "…"


def _evidence(
    link: TrackedLink, quote: TrackedQuote, story_of: Callable[[str], dict[str, Any]]
) -> dict[str, Any]:
    """One link between two stories' quotes: which wordings, how they relate, how much aligned."""

    def side(key: str) -> dict[str, Any]:
        story_id, _, quote_id = key.partition(":")
        own = [m for m in quote.mentions if m.story_id == story_id]
        exact = [m for m in own if m.story_quote_id == quote_id]
        wording = max((m.text for m in exact or own), key=len, default="")
        return {"story": story_of(story_id), "wording": wording}

    return {
        "a": side(link.a),
        "b": side(link.b),
        "relation": link.relation,
        "meaning": RELATION_MEANINGS.get(link.relation, ""),
        "aligned": round(link.aligned * 100),
    }


# -- pages ------------------------------------------------------------------------------------


# The lists the site's navigation links (path, label): the served app's routes, and the files
# of a static report that writes them (``static_lists.py``).
LIST_NAV = (
    ("stories", "Stories"),
    ("quotes", "Quotes"),
    ("speakers", "Speakers"),
    ("people", "People"),
    ("posts", "Posts"),
    ("outlets", "Outlets"),
    ("articles", "Articles"),
)


@dataclass(frozen=True)
class Site:
    """How pages are served: ``static`` (file://, filter only) or ``served`` (search form).
    ``lists``: a static site has the list files (``static_lists.py``) to link."""

    mode: str = "static"
    generator: str = "newsloom"
    lists: bool = False

    @property
    def nav(self) -> list[tuple[str, str]]:
        """The navigation's (href, label) of each list; none when the site has no lists."""
        if self.mode == "served":
            return list(LIST_NAV)
        return [(f"{path}.html", label) for path, label in LIST_NAV] if self.lists else []


class Pages:
    """Renders the index, story, article and search pages with one environment."""

    def __init__(self, site: Site | None = None) -> None:
        self.env = environment()
        self.site = site or Site()
        self.link_profiles(None)

    def link_profiles(self, known: AbstractSet[tuple[str, str]] | None) -> None:
        """Link names to their speaker, outlet and person pages: every name (None) or the
        (kind, key) pages of ``known`` (a static report's)."""
        self.env.globals["profile_href"] = ProfileLinks(known)

    def profile(self, kind: str, profile: Any, linked: AbstractSet[str] | None = None) -> str:
        """A speaker's, an outlet's or a person's page (``render/profiles.py``); ``linked``:
        the stories with pages, all when None."""
        return self._render(f"{kind}.html", **CONTEXTS[kind](profile, linked))

    def _render(self, name: str, **context: Any) -> str:
        return self.env.get_template(name).render(site=self.site, **context)

    def index(
        self,
        stories: Sequence[Mapping[str, Any]],
        total: int | None = None,
        page: int = 1,
        pages: int = 1,
        days: Iterable[tuple[str, int]] = (),
    ) -> str:
        """The front page: ``days`` are (day, stories that began that day), for its chart."""
        return self._render(
            "index.html",
            day_chart=bar_chart(days, "stories"),
            stories=stories,
            total=len(stories) if total is None else total,
            page=page,
            pages=pages,
        )

    def story(
        self,
        story: Story,
        analyses: Mapping[str, ArticleAnalysis],
        spread: Mapping[str, Spread] | None = None,
    ) -> str:
        """A story page; a quote whose tracked quote (``spread``) is in other stories links to
        that quote's page."""
        context = story_context(story, analyses, StoryLinks(analyses), spread)
        return self._render("story.html", **context)

    def tracked_quote(
        self,
        quote: TrackedQuote,
        story_titles: Mapping[str, str | None],
        linked: AbstractSet[str] | None = None,
    ) -> str:
        """A tracked quote's page. ``story_titles``: the title of each of its stories;
        ``linked``: the stories with pages (their articles' pages too), all when None."""
        return self._render("quote.html", **tracked_context(quote, story_titles, linked))

    def article(
        self,
        analysis: ArticleAnalysis,
        story: Story | None,
        analyses: Mapping[str, ArticleAnalysis] | None = None,
    ) -> str:
        links = StoryLinks(analyses or {analysis.article.id: analysis})
        if story is not None:
            story_context(story, links.analyses, links)  # registers the spans the story links to
        return self._render("article.html", **article_context(analysis, story, links))

    def search(
        self,
        query: str,
        hits: Sequence[Mapping[str, Any]],
        total: int | None = None,
        offset: int = 0,
        limit: int | None = None,
        spread: Mapping[str, Spread] | None = None,
        profiles: Sequence[Any] = (),
    ) -> str:
        """A page of search hits: ``total`` in all, these from ``offset``, ``limit`` a page.

        A quote hit with a ``tracked_quote_id`` links to that quote's page (``spread`` gives
        its mentions and stories)."""
        shown = [
            dict(
                h,
                pieces=snippet_pieces(h["snippet"], h["highlights"]),
                shown=_hit_speaker(h),
                tracked=_hit_tracked(h, spread or {}),
            )
            for h in hits
        ]
        total = len(hits) if total is None else total
        limit = limit or max(1, len(hits))

        def href(at: int) -> str:
            return "search?" + urlencode({"q": query, "offset": at, "limit": limit})

        return self._render(
            "search.html",
            profiles=[
                dict(kind=p.kind, name=p.name, href=f"{p.kind}-{p.key}.html") for p in profiles
            ],
            query=query,
            hits=shown,
            total=total,
            first=offset + 1,
            last=offset + len(hits),
            prev_href=href(max(0, offset - limit)) if offset > 0 else None,
            next_href=href(offset + limit) if offset + limit < total else None,
        )

    def docs(self, endpoints: Sequence[Mapping[str, Any]]) -> str:
        """The API's endpoints as a plain page (``web`` builds them from the OpenAPI document)."""
        return self._render("docs.html", endpoints=endpoints)

    def moved(self, old_id: str, new_id: str) -> str:
        """A stub for a story id that lives on under ``new_id``: a meta refresh and a link."""
        return self._render("moved.html", old_id=old_id, href=f"story-{new_id}.html")

    def not_found(self, what: str) -> str:
        return self._render("not_found.html", what=what)


def _hit_speaker(hit: Mapping[str, Any]) -> ShownSpeaker:
    """The speaker of a quote hit as pages show it (an article hit has none)."""
    if hit["kind"] != "quote":
        return shown_speaker(None)
    words = [hit["speaker_text"]] if hit.get("speaker_text") else []
    return shown_speaker(hit.get("speaker"), words, hit.get("speaker_confidence"))


def _hit_tracked(hit: Mapping[str, Any], spread: Mapping[str, Spread]) -> dict[str, Any] | None:
    """The link from a quote hit to its tracked quote's page, with how far it travelled."""
    tracked_id = hit.get("tracked_quote_id")
    if hit["kind"] != "quote" or not tracked_id:
        return None
    found = spread.get(tracked_id)
    return {
        "href": quote_href(tracked_id),
        "mentions": found.mentions if found else None,
        "stories": found.stories if found else None,
    }


def snippet_pieces(snippet: str, highlights: Sequence[Sequence[int]]) -> list[tuple[bool, str]]:
    """A search snippet as (highlighted, text) pieces for the template to escape and mark."""
    out: list[tuple[bool, str]] = []
    pos = 0
    for start, end in sorted((int(h[0]), int(h[1])) for h in highlights):
        if start < pos:
            continue
        out += [(False, snippet[pos:start]), (True, snippet[start:end])]
        pos = end
    out.append((False, snippet[pos:]))
    return [p for p in out if p[1]]


def story_summary(story: Story, articles: Mapping[str, Article]) -> dict[str, Any]:
    """The index row of a story (the store's ``story_summaries`` gives the same keys)."""
    dates = sorted(
        a.published for aid in story.article_ids if (a := articles.get(aid)) and a.published
    )
    return {
        "id": story.id,
        "title": story.title,
        "n_articles": len(story.article_ids),
        "first_published": dates[0] if dates else None,
        "last_published": dates[-1] if dates else None,
        "outlets": sorted({a.outlet for aid in story.article_ids if (a := articles.get(aid))}),
    }


def copy_static(out_dir: Path) -> None:
    target = out_dir / "static"
    target.mkdir(parents=True, exist_ok=True)
    for src in STATIC.iterdir():
        if src.is_file():
            shutil.copyfile(src, target / src.name)


@dataclass
class ReportSummary:
    stories: int
    articles: int
    index: Path
    tracked_quotes: int = 0  # quote-ID.html pages: quotes of the stories also quoted elsewhere
    # The rows of each list file set (``static_lists.py``: speakers.html, .csv, .json ...).
    lists: dict[str, int] = field(default_factory=dict)


class ReportSource(Protocol):
    """What ``write_report`` reads from a store (``SqlStore`` has both)."""

    def stories(self) -> list[Story]: ...

    def analyses(self, article_ids: Sequence[str] | None = None) -> Iterator[ArticleAnalysis]: ...

    def story_redirects(self) -> dict[str, str]: ...

    def tracked_quotes_of(self, story_ids: Sequence[str]) -> list[TrackedQuote]: ...

    def speaker_profile(self, key: str) -> Any: ...

    def outlet_profile(self, key: str) -> Any: ...

    def person_profile(self, key: str) -> Any: ...

    def list_page(self, name: str, query: ListQuery) -> ListPage: ...

    def list_rows(self, name: str, query: ListQuery) -> Iterator[dict[str, Any]]: ...


def write_report(
    store: ReportSource, out_dir: Path, article_ids: Sequence[str] | None = None
) -> ReportSummary:
    """Write the static site: index.html, story-ID.html per story, article-ID.html per article,
    quote-ID.html per quote of these stories that other stories quote too (a tracked quote),
    speaker-, outlet- and person-KEY.html per name these stories give (``render/profiles.py``),
    and a stub story-OLD.html sending on to the story for each id a story had before a merge.

    Only the stories touching ``article_ids`` when given (all stories otherwise); a quote page
    links the stories outside the report by title only. One story's analyses and tracked
    quotes are in memory at a time. Pages are written atomically; static/ holds the CSS/JS.
    """
    from .static_lists import write_static_lists  # it renders with this module's pages

    pages = Pages(Site(mode="static", lists=True))
    stories: list[Story] = store.stories()
    titles = {s.id: s.title for s in stories}
    if article_ids:
        wanted = set(article_ids)
        stories = [s for s in stories if wanted.intersection(s.article_ids)]
    written = {story.id for story in stories}
    out_dir.mkdir(parents=True, exist_ok=True)
    copy_static(out_dir)
    profiles = read_profiles(store, profile_names(stories))
    pages.link_profiles(set(profiles))
    for (kind, key), profile in profiles.items():
        write_atomic(out_dir / profile_href(kind, key), pages.profile(kind, profile, written))
    rows = []
    n_articles = 0
    quote_pages: set[str] = set()
    for story in stories:
        analyses = {a.article.id: a for a in store.analyses(story.article_ids)}
        rows.append(story_summary(story, {aid: a.article for aid, a in analyses.items()}))
        travelled = [q for q in store.tracked_quotes_of([story.id]) if len(q.story_ids) > 1]
        spread = {q.id: Spread(len(q.mentions), len(q.story_ids)) for q in travelled}
        write_atomic(out_dir / story_href(story.id), pages.story(story, analyses, spread))
        for analysis in analyses.values():
            write_atomic(
                out_dir / article_href(analysis.article.id),
                pages.article(analysis, story, analyses),
            )
            n_articles += 1
        for q in travelled:
            if q.id not in quote_pages:
                write_atomic(out_dir / quote_href(q.id), pages.tracked_quote(q, titles, written))
                quote_pages.add(q.id)
    for old_id, new_id in store.story_redirects().items():
        if new_id in written:  # a saved link to a story's old id still lands on its page
            write_atomic(out_dir / f"story-{old_id}.html", pages.moved(old_id, new_id))
    index = out_dir / "index.html"
    began = Counter(r["first_published"] for r in rows if r["first_published"])
    write_atomic(index, pages.index(rows, days=sorted(began.items())))
    listed = write_static_lists(store, out_dir, pages)
    return ReportSummary(
        stories=len(stories),
        articles=n_articles,
        index=index,
        tracked_quotes=len(quote_pages),
        lists=listed,
    )
