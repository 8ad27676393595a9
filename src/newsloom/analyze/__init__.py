"""Per-article analysis: one spaCy parse, then the stages of ``analyze.stages`` in order."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from ..config import Settings
from ..errors import StageError
from ..models import Article, ArticleAnalysis, SkipCode, Skipped
from ..nlp import load_nlp, parse_texts
from ..pipeline import StageContext, StageSpec, build_pipeline, run_stages
from .stages import STAGES

if TYPE_CHECKING:
    from spacy.language import Language


def analyze_articles(
    articles: Iterable[Article],
    settings: Settings | None = None,
    specs: list[StageSpec] | None = None,
) -> Iterator[ArticleAnalysis | Skipped]:
    """Analyse ``articles`` in one process, streaming: results come out as batches finish.

    An article whose stage fails is yielded as ``Skipped`` with the reason; the run goes on.
    """
    settings = settings or Settings()
    specs = specs if specs is not None else build_pipeline(STAGES, settings.stages)
    nlp = load_nlp(settings.spacy_model)
    batch: list[Article] = []
    for article in articles:
        batch.append(article)
        if len(batch) >= settings.batch_size:
            yield from _analyze_batch(nlp, batch, settings, specs)
            batch = []
    if batch:
        yield from _analyze_batch(nlp, batch, settings, specs)


def _analyze_batch(
    nlp: Language, batch: list[Article], settings: Settings, specs: list[StageSpec]
) -> Iterator[ArticleAnalysis | Skipped]:
    """Results in input order: too-long articles skipped unparsed, the others analysed."""
    parsed = [a for a in batch if too_long(a, settings) is None]
    docs = parse_texts(nlp, (a.text for a in parsed), settings.batch_size)
    for article in batch:
        skipped = too_long(article, settings)
        if skipped is not None:
            yield skipped
            continue
        doc = next(docs)
        analysis = ArticleAnalysis(article=article)
        ctx = StageContext(article=article, doc=doc, settings=settings, analysis=analysis)
        try:
            yield run_stages(specs, ctx)
        except StageError as exc:
            yield Skipped(origin=article.origin, reason=str(exc), code=SkipCode.STAGE_FAILED)


def too_long(article: Article, settings: Settings) -> Skipped | None:
    """A skip for an article over ``settings.max_article_chars``, else None."""
    size = len(article.text)
    if size <= settings.max_article_chars:
        return None
    return Skipped(
        origin=article.origin,
        reason=(
            f"article too long to analyse: {article.origin} has {size:,} characters, over "
            f"max_article_chars = {settings.max_article_chars:,}; to analyse it, raise "
            "max_article_chars (environment NEWSLOOM_MAX_ARTICLE_CHARS, or the --config file)"
        ),
        code=SkipCode.TOO_LONG,
    )


def analyze_text(
    text: str, settings: Settings | None = None, **article_fields: Any
) -> ArticleAnalysis:
    """Analyse one text (tests, notebooks). Raises StageError when a stage fails."""
    from ..models import article_id

    fields = {"origin": "<text>", **article_fields}
    article = Article(id=article_id(text), text=text, **fields)
    (result,) = analyze_articles([article], settings)
    if isinstance(result, Skipped):
        raise StageError(result.reason)
    return result
