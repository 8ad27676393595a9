"""Outlet names: how an article's outlet is keyed and shown, from its ``source`` string."""

from __future__ import annotations

import re

# Characters of the article id shown for an article with no known outlet.
UNKNOWN_ID_CHARS = 8


def outlet_key(source: str | None, article_id: str) -> str:
    """Articles from one outlet share this key: 'The Daily Courier' = 'daily courier'.

    An article with no source is an outlet of its own (``article:<id>``).
    """
    if not source or not source.strip():
        return f"article:{article_id}"
    key = re.sub(r"^the\s+", "", source.strip().casefold())
    return re.sub(r"\W+", " ", key).strip() or f"article:{article_id}"


def outlet_name(source: str | None, article_id: str) -> str:
    """The outlet as shown: its source, else ``unknown source (<id prefix>)``."""
    if source and source.strip():
        return source.strip()
    return f"unknown source ({article_id[:UNKNOWN_ID_CHARS]})"
