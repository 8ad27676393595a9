"""Cross-article analysis: group articles into stories, then consolidate each story.

``build_stories`` is the batch entry point. Grouping lives in ``cluster.py``; each
consolidation (quote variants, posts, people, timeline, copied passages, facts, ...) is one
module with one function taking the story's ``ArticleAnalysis`` list.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..models import ArticleAnalysis, Story, SummarySentence, stable_id
from .cluster import StoryIndex, cluster_analyses
from .conflicts import group_claims
from .corroboration import add_corroboration
from .credits import credited_sources
from .entities import merge_entities
from .outlets import outlet_reports
from .passages import find_copied_passages
from .posts import merge_posts
from .quotes import group_quotes
from .summary import representative_title, summarise
from .timeline import build_timeline

__all__ = ["StoryIndex", "build_stories", "cluster_analyses", "consolidate", "story_id"]


def story_id(article_ids: Sequence[str]) -> str:
    """The id of a story whose members are ``article_ids`` in the index's order: a hash of its
    founding article (the first member), so articles joining later never change it.

    ``StoryIndex`` keeps the founder first: a merge keeps the members of the story that
    absorbs the other in front, a split leaves the founder in the half that keeps the story.
    An id a story loses (merged away) is recorded by the store as a redirect.
    """
    return stable_id("story", article_ids[0])


def consolidate(analyses: Sequence[ArticleAnalysis], sid: str | None = None) -> Story:
    """One Story from the analyses of its articles.

    People are merged first: quote speakers and ages in facts are resolved through them.
    """
    ids = [a.article.id for a in analyses]
    first = analyses[0].article
    story = Story(
        id=sid or story_id(ids),
        title=representative_title(analyses) or first.title,
        article_ids=ids,
    )
    story.entities = merge_entities(analyses)
    story.quotes = group_quotes(analyses, story.entities)
    story.posts = merge_posts(analyses)
    story.timeline = build_timeline(analyses)
    story.summary = [SummarySentence(**sentence) for sentence in summarise(analyses)]
    _add_sourcing(story, analyses)
    return story


def _add_sourcing(story: Story, analyses: Sequence[ArticleAnalysis]) -> None:
    """Copied passages, credited sources, facts lined up, what each outlet alone reported,
    and which outlets carry each quote, fact and timeline event independently.

    Runs after entity, quote and post merging: ages are matched through ``story.entities``,
    and a quote or post is one outlet's alone when its merged group holds no other outlet.
    """
    fact_groups = group_claims(analyses, story.entities)
    story.copied_passages = find_copied_passages(analyses)
    story.credited_sources = credited_sources(analyses)
    story.facts = [g for g in fact_groups if len(g.outlets) > 1]
    story.outlets = outlet_reports(analyses, fact_groups, story.quotes, story.posts)
    add_corroboration(story, analyses)


def build_stories(analyses: Sequence[ArticleAnalysis]) -> list[Story]:
    """Batch: cluster ``analyses`` (in a canonical order, so any input order gives the same
    stories) and consolidate each group."""
    return [consolidate(group) for group in cluster_analyses(analyses)]
