"""What each outlet alone reported in a story, and how hedged its own reporting is.

An outlet is an article's ``source``, else its URL's domain (articles with neither each stand
alone, named by their file: ``text.outlets``). A quote mention is the outlet's alone when its
merged quote (``quotes.group_quotes``: truncations, dropped words, censoring and rewordings are
one quote) holds no other outlet; a fact when its fact group (``conflicts.group_claims``) holds
no other outlet; a post when its merged post (``posts.merge_posts``) is embedded by no other
outlet. With a single outlet nothing is "alone", so only framing is given.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from ..models import (
    Article,
    ArticleAnalysis,
    ExportQuoteMention,
    FactGroup,
    OutletReport,
    Quote,
    StoryPost,
)
from ..text import outlets as text_outlets
from .posts import merge_posts
from .quotes import group_quotes


def outlet_key(article: Article) -> str:
    """Articles from one outlet share this key: 'The Daily Courier' = 'daily courier'."""
    return text_outlets.outlet_key(article.source, article.id, article.url)


def outlet_names(analyses: Sequence[ArticleAnalysis]) -> dict[str, str]:
    """Outlet key -> the name shown for it (as its first article in the story spells it)."""
    names: dict[str, str] = {}
    for analysis in analyses:
        names.setdefault(outlet_key(analysis.article), analysis.article.outlet)
    return names


def _group(analyses: Sequence[ArticleAnalysis]) -> dict[str, list[ArticleAnalysis]]:
    groups: dict[str, list[ArticleAnalysis]] = defaultdict(list)
    for analysis in analyses:
        groups[outlet_key(analysis.article)].append(analysis)
    return groups


def outlet_reports(
    analyses: Sequence[ArticleAnalysis],
    fact_groups: Sequence[FactGroup] = (),
    quotes: Sequence[Quote] | None = None,
    posts: Sequence[StoryPost] | None = None,
) -> list[OutletReport]:
    """One report per outlet; ``fact_groups`` are all groups, single-outlet ones included.

    ``quotes`` and ``posts`` are the story's merged ones (computed here when not given).
    """
    groups = _group(analyses)
    several = len(groups) > 1
    names = outlet_names(analyses)
    outlet_of = {a.article.id: outlet_key(a.article) for a in analyses}
    if quotes is None:
        quotes = group_quotes(analyses)
    if posts is None:
        posts = merge_posts(analyses)
    quoted_by = _quote_outlets(quotes, outlet_of)
    reports = []
    for key, members in groups.items():
        report = _framing(names[key], members)
        if several:
            report.exclusive_quotes = [m for m, keys in quoted_by if keys == {key}]
            report.exclusive_posts = [
                p for p in posts if {outlet_of.get(a) for a in p.article_ids} == {key}
            ]
            report.exclusive_facts = [
                s for g in fact_groups if g.outlets == [names[key]] for s in g.statements
            ]
        else:
            report.explanation += "; only one outlet covers this story, so nothing is exclusive"
        reports.append(report)
    return sorted(reports, key=lambda r: r.outlet.casefold())


def _quote_outlets(
    quotes: Sequence[Quote], outlet_of: dict[str, str]
) -> list[tuple[ExportQuoteMention, set[str]]]:
    """Each mention with every outlet quoting the same utterance.

    A merged mention sits in two quotes; it is an outlet's alone only if both are."""
    outlets: dict[tuple[str, int, int], set[str]] = {}
    first: dict[tuple[str, int, int], ExportQuoteMention] = {}
    for quote in quotes:
        keys = {outlet_of.get(m.article_id, m.article_id) for m in quote.mentions}
        for m in quote.mentions:
            at = (m.article_id, m.start, m.end)
            outlets.setdefault(at, set()).update(keys)
            first.setdefault(at, m)
    return [(first[at], keys) for at, keys in outlets.items()]


def _framing(name: str, members: list[ArticleAnalysis]) -> OutletReport:
    hedges = words = hedged = sentences = boosters = 0
    for analysis in members:
        framing = analysis.framing
        if framing is None:
            continue
        hedges += len(framing.hedges)
        words += framing.own_words
        hedged += framing.hedged_sentences
        sentences += framing.sentences
        boosters += len(framing.boosters)
    score = round(100.0 * hedges / words, 3) if words else 0.0
    share = round(hedged / sentences, 3) if sentences else 0.0
    if words:
        explanation = (
            f"{hedges} hedge(s) in {words} words of own reporting across {len(members)} "
            f"article(s) = {score:.2f} per 100 words; {hedged} of {sentences} sentence(s) "
            f"hedged; {boosters} assertive marker(s)"
        )
    else:
        explanation = "no framing measured (no own reporting, or the framing stage did not run)"
    return OutletReport(
        outlet=name,
        article_ids=[a.article.id for a in members],
        hedges=hedges,
        own_words=words,
        hedge_score=score,
        hedged_sentence_share=share,
        explanation=explanation,
    )
