"""Tracked quotes (one utterance across stories) as the pages and the API point at them: the
tracked quote of each search hit, and how far each quote on a page travelled."""

from collections.abc import Iterable
from typing import Any

from ..render.html import Spread
from ..store import Store


def spread_of(store: Store, tracked_ids: Iterable[str | None]) -> dict[str, Spread]:
    """Mentions and stories of each tracked quote (a page's few ids; one read)."""
    ids = sorted({i for i in tracked_ids if i})
    if not ids:
        return {}
    rows = store.tracked_quotes(limit=None, tracked_ids=ids)
    return {r.id: Spread(r.mentions, r.stories) for r in rows}


def with_tracked_ids(store: Store, hits: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Search hits (as dicts) with the tracked quote of each quote hit (None for the rest)."""
    spans = [(h["article_id"], h["start"], h["end"]) for h in hits if h["kind"] == "quote"]
    found = store.tracked_ids_at(spans) if spans else {}
    return [
        {**h, "tracked_quote_id": found.get((h["article_id"], h["start"], h["end"]))}
        if h["kind"] == "quote"
        else {**h, "tracked_quote_id": None}
        for h in hits
    ]
