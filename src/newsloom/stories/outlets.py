"""What each outlet alone reported in a story, and how hedged its own reporting is.

An outlet is an article's ``source`` (articles with no known source each stand alone). A quote
is the outlet's alone when no other outlet's quote is the same utterance (text similarity that
tolerates truncation, a dropped word and censoring); a fact when its fact group
(``conflicts.group_claims``) holds no other outlet; a post when no other outlet embeds the same
handle with the same text. With a single outlet nothing is "alone", so only framing is given.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence

from rapidfuzz import fuzz

from ..models import (
    Article,
    ArticleAnalysis,
    ExportQuoteMention,
    FactGroup,
    OutletReport,
    Post,
    QuoteMention,
    StoryPost,
)

# Two quote mentions are one utterance at or above this rapidfuzz score (0-100): token_set
# covers a dropped or added word and reordering, partial covers a truncation. Set on the
# quote-variant rows in tests/stories/test_outlets.py (variants score >= 90, different
# quotes about the same event < 60).
SAME_QUOTE = 85.0
MIN_PARTIAL_WORDS = 4  # a truncated quote must keep this many words to match by containment
SAME_POST = 85.0  # same for an embedded post's text, with the same handle

# A censored word: a letter, then masking characters ("f***ing", "f—–g", "f--king").
_CENSORED = re.compile(r"\b(\w)\w*(?:[*#@$%—–_]|-{2,})[\w*#@$%—–_-]*")
_NON_WORD = re.compile(r"[^\w\s]+")


def outlet_key(article: Article) -> str:
    """Articles from one outlet share this key: 'The Daily Courier' = 'daily courier'."""
    if not article.source or not article.source.strip():
        return f"article:{article.id}"
    key = re.sub(r"^the\s+", "", article.source.strip().casefold())
    return re.sub(r"\W+", " ", key).strip() or f"article:{article.id}"


def outlet_name(article: Article) -> str:
    return (
        article.source.strip()
        if article.source and article.source.strip()
        else f"unknown source ({article.id[:8]})"
    )


def outlet_names(analyses: Sequence[ArticleAnalysis]) -> dict[str, str]:
    """Outlet key -> the name shown for it (as its first article in the story spells it)."""
    names: dict[str, str] = {}
    for analysis in analyses:
        names.setdefault(outlet_key(analysis.article), outlet_name(analysis.article))
    return names


def normalise_quote(text: str) -> str:
    """Lower-cased words; a censored word keeps its first letter ('f***ing' = 'f—–g' = 'f')."""
    text = _CENSORED.sub(lambda m: m.group(1), text.casefold())
    return " ".join(_NON_WORD.sub(" ", text).split())


def same_utterance(a: str, b: str) -> bool:
    if not a or not b:
        return False
    if fuzz.token_set_ratio(a, b) >= SAME_QUOTE and min(len(a.split()), len(b.split())) >= 2:
        return True
    shorter = min(a, b, key=len)
    return len(shorter.split()) >= MIN_PARTIAL_WORDS and fuzz.partial_ratio(a, b) >= SAME_QUOTE


def _group(analyses: Sequence[ArticleAnalysis]) -> dict[str, list[ArticleAnalysis]]:
    groups: dict[str, list[ArticleAnalysis]] = defaultdict(list)
    for analysis in analyses:
        groups[outlet_key(analysis.article)].append(analysis)
    return groups


def outlet_reports(
    analyses: Sequence[ArticleAnalysis], fact_groups: Sequence[FactGroup] = ()
) -> list[OutletReport]:
    """One report per outlet; ``fact_groups`` are all groups, single-outlet ones included."""
    groups = _group(analyses)
    several = len(groups) > 1
    names = outlet_names(analyses)
    quotes = {key: _quotes(members) for key, members in groups.items()}
    posts = {
        key: [(a.article.id, p) for a in members for p in a.posts]
        for key, members in groups.items()
    }
    reports = []
    for key, members in groups.items():
        report = _framing(names[key], members)
        if several:
            others_q = [q for k, qs in quotes.items() if k != key for q in qs]
            report.exclusive_quotes = [
                _export(aid, q)
                for aid, q, norm in quotes[key]
                if not any(same_utterance(norm, o[2]) for o in others_q)
            ]
            others_p = [p for k, ps in posts.items() if k != key for _, p in ps]
            report.exclusive_posts = _exclusive_posts(posts[key], others_p)
            report.exclusive_facts = [
                s for g in fact_groups if g.outlets == [names[key]] for s in g.statements
            ]
        else:
            report.explanation += "; only one outlet covers this story, so nothing is exclusive"
        reports.append(report)
    return sorted(reports, key=lambda r: r.outlet.casefold())


def _quotes(members: list[ArticleAnalysis]) -> list[tuple[str, QuoteMention, str]]:
    return [
        (a.article.id, q, normalise_quote(q.text))
        for a in members
        for q in a.quotes
        if q.post_id is None and q.text.strip()
    ]


def _export(article_id: str, q: QuoteMention) -> ExportQuoteMention:
    return ExportQuoteMention(
        article_id=article_id,
        start=q.start,
        end=q.end,
        text=q.text,
        kind=q.kind,
        cue=q.cue,
        speaker=q.speaker,
        speaker_start=q.speaker_start,
        speaker_end=q.speaker_end,
    )


def _same_post(a: Post, b: Post) -> bool:
    if a.handle.casefold().lstrip("@") != b.handle.casefold().lstrip("@"):
        return False
    return fuzz.ratio(normalise_quote(a.text), normalise_quote(b.text)) >= SAME_POST


def _exclusive_posts(own: list[tuple[str, Post]], others: list[Post]) -> list[StoryPost]:
    out: list[StoryPost] = []
    merged: list[tuple[Post, list[str]]] = []
    for article_id, post in own:
        if any(_same_post(post, o) for o in others):
            continue
        for seen, ids in merged:  # the same post twice in this outlet's articles is one
            if _same_post(post, seen):
                ids.append(article_id)
                break
        else:
            merged.append((post, [article_id]))
    for post, ids in merged:
        out.append(
            StoryPost(
                platform=post.platform,
                handle=post.handle,
                author=post.author,
                date=post.date,
                text=post.text,
                hashtags=list(post.hashtags),
                article_ids=sorted(set(ids)),
            )
        )
    return out


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
