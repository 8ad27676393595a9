"""Posts stage: embedded social posts, and the paragraphs relabelled around them."""

from __future__ import annotations

from ...pipeline import StageContext, StageSpec
from ..posts import find_posts


def find_posts_stage(ctx: StageContext) -> None:
    posts, paragraphs = find_posts(ctx.article.text, ctx.analysis.paragraphs)
    ctx.analysis.posts = posts
    ctx.analysis.paragraphs = paragraphs


# The post's paragraphs become ``post`` and ``embed_signature``: it rewrites ``paragraphs``.
SPEC = StageSpec(
    "posts", find_posts_stage, requires=("paragraphs",), assigns=("posts", "paragraphs")
)
