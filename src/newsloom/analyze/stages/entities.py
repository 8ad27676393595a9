"""Entities stage: people, organisations and places, merged per article, with ages and roles."""

from __future__ import annotations

from ...pipeline import StageContext, StageSpec
from ..entities import extract_entities


def find_entities(ctx: StageContext) -> None:
    analysis = ctx.analysis
    authors = [p.author for p in analysis.posts if p.author]
    analysis.entities = extract_entities(
        ctx.doc, analysis.article.id, analysis.paragraphs, authors, analysis.article.text
    )


SPEC = StageSpec("entities", find_entities, requires=("paragraphs", "posts"), assigns=("entities",))
