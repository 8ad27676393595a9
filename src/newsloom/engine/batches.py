"""What every engine sends to a worker: batches of articles, and the two functions a worker runs.

Batches, not single articles, cross the process or network boundary so that ``nlp.pipe``
batching is kept inside each worker and the cost of moving data stays small next to the parse.
The functions are module-level so that process pools and Dask can pickle them by reference.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator

from ..config import Settings
from ..models import Article, ArticleAnalysis, Skipped, Story


def batches(articles: Iterable[Article], size: int) -> Iterator[list[Article]]:
    it = iter(articles)
    while batch := list(itertools.islice(it, size)):
        yield batch


def warm_model(model: str) -> None:
    """Run on each worker when it starts: load the model now, not inside the first batch."""
    from ..nlp import load_nlp

    load_nlp(model)


def analyze_batch(settings: Settings, batch: list[Article]) -> list[ArticleAnalysis | Skipped]:
    """Run on a worker: one ``nlp.pipe`` batch through every stage."""
    from ..analyze import analyze_articles

    return list(analyze_articles(batch, settings))


def build_story(data: list[str] | None) -> Story | None:
    """Run on a worker (or in the main process): one story from the stored JSON text of its
    members' analyses, in the index's member order (None: the story was merged away)."""
    if data is None:
        return None
    from ..stories import consolidate

    return consolidate([ArticleAnalysis.model_validate_json(d) for d in data])
