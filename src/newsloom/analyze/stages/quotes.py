"""Quotes stage: direct quotations and reported speech, with cue and resolved speaker."""

from __future__ import annotations

from ...pipeline import StageContext, StageSpec
from ..quotes import find_quotes


def extract_quotes(ctx: StageContext) -> None:
    """Direct quotations and reported speech of one article, with cue and resolved speaker."""
    analysis = ctx.analysis
    analysis.quotes = find_quotes(
        ctx.doc, analysis.paragraphs, analysis.posts, analysis.entities, analysis.article.text
    )


SPEC = StageSpec(
    "quotes", extract_quotes, requires=("paragraphs", "posts", "entities"), assigns=("quotes",)
)
