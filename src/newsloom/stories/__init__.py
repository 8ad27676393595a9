"""Cross-article analysis: group articles into stories, then consolidate each story.

``build_stories`` is the batch entry point. Grouping lives in ``cluster.py``; each
consolidation (quote variants, posts, people, timeline, copied passages, facts, ...) is one
module with one function taking the story's ``ArticleAnalysis`` list.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..models import ArticleAnalysis, Story, stable_id


def story_id(article_ids: Sequence[str]) -> str:
    """Stable across re-runs: depends on the earliest-known member, not on the run order."""
    return stable_id("story", min(article_ids))


def consolidate(analyses: Sequence[ArticleAnalysis], sid: str | None = None) -> Story:
    """One Story from the analyses of its articles."""
    ids = [a.article.id for a in analyses]
    first = analyses[0].article
    return Story(id=sid or story_id(ids), title=first.title, article_ids=ids)


def build_stories(analyses: Sequence[ArticleAnalysis]) -> list[Story]:
    """Until clustering lands: each article is its own story (the export shape stays)."""
    return [consolidate([a]) for a in analyses]
