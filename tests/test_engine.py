"""Local engine: two worker processes give the same analyses, in input order, as one."""

from __future__ import annotations

import pytest

from newsloom.config import Settings
from newsloom.engine import run_analysis
from newsloom.models import Article, ArticleAnalysis, article_id


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
