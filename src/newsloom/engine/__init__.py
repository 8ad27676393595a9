"""Where the per-article analysis runs: in this process, on local worker processes, or on a
Dask distributed cluster (``settings.engine``)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..config import Settings
from ..models import Article, ArticleAnalysis, Skipped


def run_analysis(
    articles: Iterable[Article], settings: Settings
) -> Iterator[ArticleAnalysis | Skipped]:
    """Analyse ``articles`` with ``settings.workers`` processes (local or a Dask LocalCluster)
    or on the Dask scheduler ``settings.scheduler``; streaming, input order kept."""
    if settings.engine == "dask":
        from .dask import analyze_on_dask

        return analyze_on_dask(articles, settings)
    if settings.workers <= 1:
        from ..analyze import analyze_articles

        return analyze_articles(articles, settings)
    from .local import analyze_parallel

    return analyze_parallel(articles, settings)
