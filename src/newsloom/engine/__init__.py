"""Where the per-article analysis runs: in this process, or on local worker processes."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..config import Settings
from ..models import Article, ArticleAnalysis, Skipped


def run_analysis(
    articles: Iterable[Article], settings: Settings
) -> Iterator[ArticleAnalysis | Skipped]:
    """Analyse ``articles`` with ``settings.workers`` processes, streaming, input order kept."""
    if settings.workers <= 1:
        from ..analyze import analyze_articles

        return analyze_articles(articles, settings)
    from .local import analyze_parallel

    return analyze_parallel(articles, settings)
