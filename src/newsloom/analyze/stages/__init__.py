"""The per-article stages, one module each, in the order they run.

Each module holds one stage function and its ``SPEC`` (name, requires, assigns) and calls the
helpers in ``newsloom.analyze``; stages never import each other (import-linter checks it).
A new stage goes in its own module here and into ``STAGES`` at its place.
"""

from __future__ import annotations

from ...pipeline import StageSpec
from . import boilerplate, claims, dates, entities, framing, metadata, posts, quotes

# The pipeline in order: boilerplate → metadata → posts → entities → quotes → dates → claims
# → framing. ``build_pipeline(STAGES, names)`` checks the declarations against ArticleAnalysis.
STAGES: tuple[StageSpec, ...] = (
    boilerplate.SPEC,
    metadata.SPEC,
    posts.SPEC,
    entities.SPEC,
    quotes.SPEC,
    dates.SPEC,
    claims.SPEC,
    framing.SPEC,
)

__all__ = ["STAGES"]
