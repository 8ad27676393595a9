"""Claims stage: figures in the outlet's own reporting (counts, money, ages …) and their subject."""

from __future__ import annotations

from ...pipeline import StageContext, StageSpec
from ...spans import excluded_spans
from ..claims import extract_claims


def find_claims(ctx: StageContext) -> None:
    ctx.analysis.claims = sorted(
        extract_claims(
            ctx.doc,
            ctx.analysis.paragraphs,
            ctx.analysis.entities,
            excluded_spans(ctx.analysis.quotes, ctx.analysis.posts),
            ctx.article.text,
        ),
        key=lambda c: (c.start, c.end),
    )


SPEC = StageSpec(
    "claims",
    find_claims,
    requires=("doc", "paragraphs", "entities", "quotes", "posts"),
    assigns=("claims",),
)
