"""Local multiprocessing: each worker loads the model once and analyses whole batches.

Batches, not single articles, cross the process boundary so that ``nlp.pipe`` batching is
kept inside each worker and pickling cost stays small next to the parse.
"""

from __future__ import annotations

import itertools
import multiprocessing
from collections.abc import Iterable, Iterator

from ..config import Settings
from ..models import Article, ArticleAnalysis, Skipped

# Batches in flight per worker: enough to keep workers busy, few enough that memory stays flat.
PREFETCH_PER_WORKER = 2


def _worker_init(settings: Settings) -> None:
    from ..nlp import load_nlp

    load_nlp(settings.spacy_model)


def _analyze_batch(job: tuple[Settings, list[Article]]) -> list[ArticleAnalysis | Skipped]:
    from ..analyze import analyze_articles

    settings, batch = job
    return list(analyze_articles(batch, settings))


def _batches(articles: Iterable[Article], size: int) -> Iterator[list[Article]]:
    it = iter(articles)
    while batch := list(itertools.islice(it, size)):
        yield batch


def analyze_parallel(
    articles: Iterable[Article], settings: Settings
) -> Iterator[ArticleAnalysis | Skipped]:
    """Stream results in input order; at most workers × PREFETCH batches are held at once."""
    ctx = multiprocessing.get_context("forkserver")
    jobs = ((settings, batch) for batch in _batches(articles, settings.batch_size))
    with ctx.Pool(settings.workers, initializer=_worker_init, initargs=(settings,)) as pool:
        pending = []
        window = settings.workers * PREFETCH_PER_WORKER
        for job in jobs:
            pending.append(pool.apply_async(_analyze_batch, (job,)))
            if len(pending) >= window:
                yield from pending.pop(0).get()
        for result in pending:
            yield from result.get()
