"""Dates stage: date expressions resolved against the publication date, with their tense."""

from __future__ import annotations

from ...pipeline import StageContext, StageSpec
from ..dates import extract_dates


def find_dates(ctx: StageContext) -> None:
    ctx.analysis.dates = list(
        extract_dates(
            ctx.doc,
            ctx.analysis.article,
            ctx.analysis.paragraphs,
            ctx.analysis.sentences,
            ctx.analysis.posts,
        )
    )


SPEC = StageSpec(
    "dates", find_dates, requires=("paragraphs", "sentences", "posts"), assigns=("dates",)
)
