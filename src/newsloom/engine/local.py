"""Local multiprocessing: each worker loads the model once and analyses whole batches
(``engine.batches``); at the end of a run the same workers consolidate the stories to rebuild
while this process writes them."""

from __future__ import annotations

import multiprocessing
from collections import deque
from collections.abc import Generator, Iterable, Iterator
from contextlib import contextmanager
from multiprocessing.pool import AsyncResult, Pool

from ..config import Settings
from ..models import Article, ArticleAnalysis, Skipped, Story
from .batches import (
    analyze_batch,
    batches,
    build_story_text,
    in_input_order,
    read_story,
    warm_model,
    warm_stories,
)

# Batches in flight per worker: enough to keep workers busy, few enough that memory stays flat.
PREFETCH_PER_WORKER = 2
# Stories in flight per worker while the stories of a run are rebuilt: the main process waits
# for them in order, so a few per worker keep both busy behind one big story. Each holds its
# members' analyses (about 12 kB of JSON per article on generated news).
STORIES_PER_WORKER = 4


class LocalPool:
    """A pool of ``settings.workers`` processes, started on first use (``local_pool``)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._pool: Pool | None = None

    def pool(self) -> Pool:
        if self._pool is None:
            ctx = multiprocessing.get_context("forkserver")
            self._pool = ctx.Pool(
                self.settings.workers, initializer=warm_model, initargs=(self.settings.spacy_model,)
            )
        return self._pool

    def close(self) -> None:
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None

    def analyse(self, articles: Iterable[Article]) -> Iterator[ArticleAnalysis | Skipped]:
        """Stream results in input order; at most workers × PREFETCH batches held at once."""
        pool = self.pool()
        pending: deque[AsyncResult[list[ArticleAnalysis | Skipped]]] = deque()
        window = self.settings.workers * PREFETCH_PER_WORKER
        for batch in batches(articles, self.settings.batch_size, self.settings.workers):
            pending.append(pool.apply_async(analyze_batch, (self.settings, batch)))
            if len(pending) >= window:
                yield from pending.popleft().get()
        for _ in range(self.settings.workers):  # queued behind the last batches
            pool.apply_async(warm_stories)
        while pending:
            yield from pending.popleft().get()

    def build_stories(
        self, inputs: Iterable[tuple[str, list[str] | None]]
    ) -> Generator[tuple[str, Story | None], None, None]:
        """``build_story`` of each (key, data) on the workers (``build_story_text``), results
        in input order; the inputs are read only as the window moves on (at most workers ×
        STORIES_PER_WORKER)."""
        pool = self.pool()

        def submit(_number: int, item: tuple[str, list[str] | None]) -> AsyncResult[str | None]:
            return pool.apply_async(build_story_text, (item[1],))

        window = self.settings.workers * STORIES_PER_WORKER
        for (key, _data), result in in_input_order(inputs, submit, window):
            yield key, read_story(result.get())


@contextmanager
def local_pool(settings: Settings) -> Iterator[LocalPool]:
    """Worker processes for one run, stopped when it ends (started only if used)."""
    workers = LocalPool(settings)
    try:
        yield workers
    finally:
        workers.close()


def analyze_parallel(
    articles: Iterable[Article], settings: Settings
) -> Iterator[ArticleAnalysis | Skipped]:
    """Stream results in input order; at most workers × PREFETCH batches are held at once."""
    with local_pool(settings) as workers:
        yield from workers.analyse(articles)
