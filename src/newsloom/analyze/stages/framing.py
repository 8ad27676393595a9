"""Framing stage: hedges, boosters and credited sources in the outlet's own reporting."""

from __future__ import annotations

from ...pipeline import StageContext, StageSpec
from ...spans import body_ranges, excluded_spans
from ..framing import measure_framing
from ..sourcing import find_credits


def frame(ctx: StageContext) -> None:
    excluded = excluded_spans(ctx.analysis.quotes, ctx.analysis.posts)
    own = body_ranges(ctx.analysis.paragraphs, len(ctx.article.text))
    framing = measure_framing(ctx.doc, own, excluded, ctx.article.text)
    framing.credits = find_credits(ctx.doc, ctx.analysis.entities, own, excluded)
    ctx.analysis.framing = framing


SPEC = StageSpec(
    "framing",
    frame,
    requires=("doc", "paragraphs", "entities", "quotes", "posts"),
    assigns=("framing",),
)
