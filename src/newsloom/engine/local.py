"""Local multiprocessing: each worker loads the model once and analyses whole batches
(``engine.batches``)."""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterable, Iterator

from ..config import Settings
from ..models import Article, ArticleAnalysis, Skipped
from .batches import analyze_batch, batches, warm_model

# Batches in flight per worker: enough to keep workers busy, few enough that memory stays flat.
PREFETCH_PER_WORKER = 2


def analyze_parallel(
    articles: Iterable[Article], settings: Settings
) -> Iterator[ArticleAnalysis | Skipped]:
    """Stream results in input order; at most workers × PREFETCH batches are held at once."""
    ctx = multiprocessing.get_context("forkserver")
    with ctx.Pool(
        settings.workers, initializer=warm_model, initargs=(settings.spacy_model,)
    ) as pool:
        pending = []
        window = settings.workers * PREFETCH_PER_WORKER
        for batch in batches(articles, settings.batch_size):
            pending.append(pool.apply_async(analyze_batch, (settings, batch)))
            if len(pending) >= window:
                yield from pending.pop(0).get()
        for result in pending:
            yield from result.get()
