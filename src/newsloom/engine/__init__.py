"""Where the per-article analysis runs: in this process, on local worker processes, or on a
Dask distributed cluster (``settings.engine``)."""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from ..config import Settings
from ..models import Article, ArticleAnalysis, Skipped, Story
from .batches import build_story

# A story to rebuild: its index key and the stored JSON of its members' analyses in member
# order (None: merged away); and what building a sequence of them gives, in the same order.
StoryInput = tuple[str, list[str] | None]
BuildStories = Callable[[Iterable[StoryInput]], Generator[tuple[str, Story | None], None, None]]


@dataclass(frozen=True)
class Engine:
    """Where one run's work goes: the analysis of its articles, and the consolidation of the
    stories it changed (``build_story``), both streaming and in input order."""

    analyse: Callable[[Iterable[Article]], Iterator[ArticleAnalysis | Skipped]]
    build_stories: BuildStories


def build_in_process(
    inputs: Iterable[StoryInput],
) -> Generator[tuple[str, Story | None], None, None]:
    """``build_story`` of each input in this process."""
    for key, data in inputs:
        yield key, build_story(data)


@contextmanager
def open_engine(settings: Settings) -> Iterator[Engine]:
    """The engine of one run. The workers that analyse the articles (a local pool when
    ``workers`` > 1, or the Dask cluster) also consolidate the stories at the end, while this
    process writes them; a single process does both itself."""
    if settings.engine == "dask":
        from .dask import dask_workers

        with dask_workers(settings) as cluster:
            yield Engine(cluster.analyse, cluster.build_stories)
        return
    if settings.workers <= 1:
        yield Engine(lambda articles: run_analysis(articles, settings), build_in_process)
        return
    from .local import local_pool

    with local_pool(settings) as workers:
        yield Engine(workers.analyse, workers.build_stories)


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
