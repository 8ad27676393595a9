"""Metadata stage: the Article fields the reader could not find (dateline, title, date, source)."""

from __future__ import annotations

from ...pipeline import StageContext, StageSpec
from ..metadata import metadata_update


def fill_metadata(ctx: StageContext) -> None:
    article = ctx.analysis.article
    update = metadata_update(article, ctx.analysis.paragraphs)
    if update:
        ctx.analysis.article = article.model_copy(update=update)
        ctx.article = ctx.analysis.article


# It replaces the article record (a copy with the found fields), so it assigns ``article``.
SPEC = StageSpec("metadata", fill_metadata, requires=("paragraphs",), assigns=("article",))
