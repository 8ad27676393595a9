"""Every stage, run on the example corpus, changes only the ArticleAnalysis fields it assigns."""

from __future__ import annotations

from typing import Any

import pytest

from newsloom.analyze.stages import STAGES
from newsloom.config import Settings
from newsloom.ingest import read_inputs
from newsloom.models import Article, ArticleAnalysis, Paragraph, article_id
from newsloom.pipeline import StageContext, StageSpec, build_pipeline

from .conftest import EXAMPLES


def changed_fields(before: dict[str, Any], analysis: ArticleAnalysis) -> set[str]:
    after = analysis.model_dump()
    return {name for name in after if after[name] != before[name]}


def undeclared_changes(spec: StageSpec, ctx: StageContext) -> set[str]:
    """Run ``spec`` on ``ctx``; the fields it changed without declaring them in ``assigns``."""
    before = ctx.analysis.model_dump()  # a deep copy: in-place edits show up too
    spec.fn(ctx)
    return changed_fields(before, ctx.analysis) - set(spec.assigns)


@pytest.fixture(scope="module")
def corpus() -> list[Article]:
    found = list(read_inputs([str(EXAMPLES / "corpus")], Settings()))
    articles = [a for a in found if isinstance(a, Article)]
    assert articles and len(articles) == len(found), "the example corpus reads without skips"
    return articles


def test_every_stage_changes_only_what_it_assigns(nlp, corpus):
    settings = Settings()
    specs = build_pipeline(STAGES)
    seen: dict[str, set[str]] = {s.name: set() for s in specs}
    for article in corpus:
        analysis = ArticleAnalysis(article=article)
        ctx = StageContext(
            article=article, doc=nlp(article.text), settings=settings, analysis=analysis
        )
        for spec in specs:
            before = ctx.analysis.model_dump()
            extra = undeclared_changes(spec, ctx)
            assert not extra, f"stage '{spec.name}' changed {sorted(extra)} on {article.origin}"
            seen[spec.name] |= changed_fields(before, ctx.analysis)
            assert ctx.article is ctx.analysis.article  # the context follows a replaced article
    # Every stage does something on the corpus, so the check above checked something.
    assert all(seen.values()), {name: sorted(fields) for name, fields in seen.items()}


def test_an_undeclared_change_is_caught():
    text = "Roe said the bridge would reopen."
    article = Article(id=article_id(text), text=text, origin="<text>")
    analysis = ArticleAnalysis(article=article)
    ctx = StageContext(article=article, doc=None, settings=Settings(), analysis=analysis)

    def sneaky(ctx: StageContext) -> None:
        ctx.analysis.posts = []  # unchanged: not a change
        ctx.analysis.paragraphs.append(Paragraph(start=0, end=len(text), label="body", reason=""))

    assert undeclared_changes(StageSpec("sneaky", sneaky, (), ("posts",)), ctx) == {"paragraphs"}
    assert undeclared_changes(StageSpec("sneaky", sneaky, (), ("paragraphs",)), ctx) == set()
