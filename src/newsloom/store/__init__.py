"""Persistent storage of articles, analyses and stories, chosen by URL."""

from .base import STORY_INDEX_KEY, IndexTransaction, Store
from .connect import normalise_url
from .listing import FacetCounts, FacetValue, ListPage, ListQuery
from .lists import LISTS
from .records import (
    ArticleRow,
    ArticleText,
    PersonRow,
    PostRow,
    QuoteRow,
    SearchHit,
    SearchPage,
    SpeakerRow,
    StorySummary,
    TrackedQuoteRow,
    as_dict,
)
from .sql import SqlStore, open_store

__all__ = [
    "ArticleRow",
    "ArticleText",
    "FacetCounts",
    "FacetValue",
    "IndexTransaction",
    "LISTS",
    "ListPage",
    "ListQuery",
    "PersonRow",
    "PostRow",
    "QuoteRow",
    "SearchHit",
    "SearchPage",
    "STORY_INDEX_KEY",
    "SpeakerRow",
    "Store",
    "StorySummary",
    "SqlStore",
    "TrackedQuoteRow",
    "as_dict",
    "normalise_url",
    "open_store",
]
