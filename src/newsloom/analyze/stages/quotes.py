"""Quotes stage: direct quotations and reported speech, with cue and resolved speaker (the
trained ranker's pick, or the rules' with ``speakers = "rules"``)."""

from __future__ import annotations

from ...pipeline import StageContext, StageSpec
from ..quotes import find_quotes
from ..speakers.ranker import shipped_ranker


def extract_quotes(ctx: StageContext) -> None:
    """Direct quotations and reported speech of one article, with cue and resolved speaker."""
    analysis = ctx.analysis
    ranker = shipped_ranker() if ctx.settings.speakers == "model" else None
    analysis.quotes = find_quotes(
        ctx.doc,
        analysis.paragraphs,
        analysis.posts,
        analysis.entities,
        analysis.article.text,
        ranker=ranker,
    )


SPEC = StageSpec(
    "quotes", extract_quotes, requires=("paragraphs", "posts", "entities"), assigns=("quotes",)
)
