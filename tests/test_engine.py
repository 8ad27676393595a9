"""Local engine: two worker processes give the same analyses, in input order, as one, and
build the same stories as this process does."""

from __future__ import annotations

import pytest

from newsloom.api import ingest_items
from newsloom.config import Settings
from newsloom.engine import build_in_process, run_analysis
from newsloom.engine.local import local_pool
from newsloom.models import Article, ArticleAnalysis, article_id
from newsloom.store import open_store


def articles(n: int) -> list[Article]:
    texts = [
        f'Council member Jane Roe{i}, {30 + i}, said on Monday: "Bridge {i} opens in May." '
        f"The vote in Riverton was {i}-2."
        for i in range(n)
    ]
    return [Article(id=article_id(t), text=t, origin=f"mem:{i}") for i, t in enumerate(texts)]


@pytest.mark.multiprocess
def test_parallel_matches_serial_in_input_order():
    items = articles(7)
    serial = list(run_analysis(items, Settings(workers=1, batch_size=2)))
    parallel = list(run_analysis(iter(items), Settings(workers=2, batch_size=2)))
    assert all(isinstance(r, ArticleAnalysis) for r in serial)
    assert [r.article.id for r in parallel] == [a.id for a in items]
    assert parallel == serial


def _stored_json(items: list[Article]) -> list[str]:
    return [a.model_dump_json() for a in run_analysis(items, Settings(workers=1, batch_size=4))]


@pytest.mark.multiprocess
def test_the_pool_builds_stories_in_input_order_like_this_process():
    # Two stories of several members, one merged away (None), one of one article: more
    # inputs than the pool's window, so results come back while inputs are still read.
    data = _stored_json(articles(6))
    inputs = [(f"k{i}", rows) for i, rows in enumerate([data[:3], None, data[3:], data[5:]] * 3)]
    here = list(build_in_process(iter(inputs)))
    with local_pool(Settings(workers=2)) as workers:
        pooled = list(workers.build_stories(iter(inputs)))
    assert [key for key, _ in pooled] == [key for key, _ in inputs]
    assert [story is None for _, story in pooled] == [rows is None for _, rows in inputs]
    assert pooled == here
    assert here[0][1] is not None and here[0][1].article_ids == [a.id for a in articles(3)]


@pytest.mark.multiprocess
def test_ingest_with_two_workers_stores_the_stories_of_one(tmp_path):
    items = articles(7)
    stories = []
    for workers in (1, 2):
        store = open_store(f"sqlite:///{tmp_path / f'w{workers}.db'}")
        try:
            report = ingest_items(iter(items), store, Settings(workers=workers, batch_size=2))
            assert report.added == len(items) and report.rebuilt >= 1
            stories.append(store.stories())
        finally:
            store.close()
    assert stories[0] and stories[1] == stories[0]


# (articles, batch size, workers, the batch sizes the engine sends)
BATCH_ROWS = [
    (0, 32, 2, []),
    (5, 32, 2, [4, 1]),  # fewer than a batch: shrinking batches, the last what is left
    (70, 32, 1, [32, 32, 6]),  # one worker: full batches, the rest last
    (100, 32, 2, [32, 17, 13, 10, 7, 6, 4, 4, 4, 3]),
    (96, 32, 2, [32, 16, 12, 9, 7, 5, 4, 4, 4, 3]),  # the end is known once 96 are read
    (200, 16, 3, [16] * 9 + [10, 8, 7, 6, 5, 4, 4, 4, 4, 4]),
]


@pytest.mark.parametrize("n,size,workers,sizes", BATCH_ROWS)
def test_a_runs_last_batches_shrink_so_workers_finish_together(n, size, workers, sizes):
    from newsloom.engine.batches import batches

    items = articles(n)
    sent = list(batches(items, size, workers))
    assert [len(batch) for batch in sent] == sizes
    assert [a for batch in sent for a in batch] == items  # every article once, in input order


@pytest.mark.parametrize("n,window", [(0, 3), (2, 3), (10, 3), (10, 1)])
def test_tasks_are_handed_on_in_input_order_with_a_bounded_window(n, window):
    from newsloom.engine.batches import in_input_order

    read = 0

    def items():
        nonlocal read
        for i in range(n):
            read += 1
            yield i

    handed = []
    for item, task in in_input_order(items(), lambda number, item: (number, item * 10), window):
        assert read - len(handed) <= window  # never more than the window read ahead
        handed.append((item, task))
    assert handed == [(i, (i, i * 10)) for i in range(n)]
