"""What every engine sends to a worker: batches of articles, and the two functions a worker runs.

Batches, not single articles, cross the process or network boundary so that ``nlp.pipe``
batching is kept inside each worker and the cost of moving data stays small next to the parse.
The functions are module-level so that process pools and Dask can pickle them by reference.
"""

from __future__ import annotations

import itertools
import math
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

from ..config import Settings
from ..models import Article, ArticleAnalysis, Skipped, Story

Item = TypeVar("Item")
Handle = TypeVar("Handle")

# Smallest batch of a run's last articles on several workers: below it the cost of a batch
# (moving it, a pipe call) starts to show next to its parse.
MIN_TAIL_BATCH = 4


def batches(articles: Iterable[Article], size: int, workers: int = 1) -> Iterator[list[Article]]:
    """Batches of ``size`` articles in input order. For several workers the last articles are
    cut into shrinking batches (each about a 2 × ``workers``-th of what is left, at least
    MIN_TAIL_BATCH): a run ends when its last batch does, and one full batch left to one worker
    idles the others for up to a batch's parse (1.6 s on 32 generated articles, 3 % of a
    1,000-article run on 2 workers). To know where the input ends, ``workers`` + 1 batches
    of articles are read ahead."""
    it = iter(articles)
    if workers <= 1:
        while batch := list(itertools.islice(it, size)):
            yield batch
        return
    ahead: deque[Article] = deque()
    held = (workers + 1) * size
    for article in it:
        ahead.append(article)
        if len(ahead) == held:
            yield [ahead.popleft() for _ in range(size)]
    while ahead:
        take = min(size, max(MIN_TAIL_BATCH, math.ceil(len(ahead) / (2 * workers))))
        yield [ahead.popleft() for _ in range(min(take, len(ahead)))]


def in_input_order(
    items: Iterable[Item], submit: Callable[[int, Item], Handle], window: int
) -> Iterator[tuple[Item, Handle]]:
    """Each item with its submitted task (``submit(number, item)``), in input order, at most
    ``window`` submitted and not yet handed on: items are read only as the window moves."""
    pending: deque[tuple[Item, Handle]] = deque()
    for number, item in enumerate(items):
        pending.append((item, submit(number, item)))
        if len(pending) >= window:
            yield pending.popleft()
    while pending:
        yield pending.popleft()


def warm_model(model: str) -> None:
    """Run on each worker when it starts: load the model now, not inside the first batch."""
    from ..nlp import load_nlp

    load_nlp(model)


def analyze_batch(settings: Settings, batch: list[Article]) -> list[ArticleAnalysis | Skipped]:
    """Run on a worker: one ``nlp.pipe`` batch through every stage."""
    from ..analyze import analyze_articles

    return list(analyze_articles(batch, settings))


def warm_stories() -> None:
    """Run on each worker once its last batch is analysed: import what ``build_story`` needs
    (the stories package and the copied-passage search's MinHash, about 0.4 s of CPU) while
    the main process still stores and links, not when the first story arrives."""
    from ..stories.passages import minhash_classes

    minhash_classes()


def build_story(data: list[str] | None) -> Story | None:
    """Run on a worker (or in the main process): one story from the stored JSON text of its
    members' analyses, in the index's member order (None: the story was merged away)."""
    if data is None:
        return None
    from ..stories import consolidate

    return consolidate([ArticleAnalysis.model_validate_json(d) for d in data])


def build_story_text(data: list[str] | None) -> str | None:
    """Run on a worker: ``build_story`` as the story's JSON text, which crosses back to the
    main process (``read_story``) in about two thirds of the CPU time of a pickled Story
    (mostly its many small records), and as the same Story."""
    story = build_story(data)
    return None if story is None else story.model_dump_json()


def read_story(text: str | None) -> Story | None:
    """The Story of a ``build_story_text`` result (the store reads stories the same way)."""
    return None if text is None else Story.model_validate_json(text)
