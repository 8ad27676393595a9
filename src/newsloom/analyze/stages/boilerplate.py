"""Boilerplate stage: every paragraph labelled (body, title, caption, …), and the sentences."""

from __future__ import annotations

from ...pipeline import StageContext, StageSpec
from ..boilerplate import label_paragraphs, sentence_spans


def label_boilerplate(ctx: StageContext) -> None:
    paragraphs = label_paragraphs(ctx.article, ctx.doc)
    ctx.analysis.paragraphs = paragraphs
    ctx.analysis.sentences = sentence_spans(ctx.doc, paragraphs, ctx.article.text)


SPEC = StageSpec(
    "boilerplate", label_boilerplate, requires=("doc",), assigns=("paragraphs", "sentences")
)
