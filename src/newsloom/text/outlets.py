"""Outlet names: how an article's outlet is keyed and shown.

The outlet is the article's ``source`` (metadata), else the name in its URL's domain
(``text.urls.source_from_url``). An article with neither is an outlet of its own, shown by the
file it was read from ("unknown outlet (044_x.txt)"), never by its id.
"""

from __future__ import annotations

import re
from pathlib import PurePath

from .urls import source_from_url

# How an article with no outlet is named; the file name (or "stdin") goes in the brackets.
UNKNOWN_OUTLET = "unknown outlet"
# ``Article.origin`` of text read from standard input (``-``, or ``-:<line>`` for JSONL).
STDIN_ORIGIN = "-"


def known_source(source: str | None, url: str | None = None) -> str | None:
    """The outlet from metadata, else from the URL's domain; None when neither says."""
    if source and source.strip():
        return source.strip()
    return source_from_url(url)


def outlet_key(source: str | None, article_id: str, url: str | None = None) -> str:
    """Articles from one outlet share this key: 'The Daily Courier' = 'daily courier'.

    An article with no source and no URL is an outlet of its own (``article:<id>``).
    """
    known = known_source(source, url)
    if known is None:
        return f"article:{article_id}"
    key = re.sub(r"^the\s+", "", known.casefold())
    return re.sub(r"\W+", " ", key).strip() or f"article:{article_id}"


def outlet_name(source: str | None, url: str | None = None, origin: str | None = None) -> str:
    """The outlet as shown: its source, else its URL's domain, else ``unknown outlet (<file>)``.

    ``origin`` is where the article was read (``Article.origin``: a path, ``path:line`` for
    JSONL, ``-`` for standard input); only its file name is shown.
    """
    known = known_source(source, url)
    if known is not None:
        return known
    where = _file_name(origin)
    return f"{UNKNOWN_OUTLET} ({where})" if where else UNKNOWN_OUTLET


def _file_name(origin: str | None) -> str | None:
    """The last part of ``origin`` ('feed.jsonl:3' for 'data/feed.jsonl:3'), 'stdin' for '-'."""
    if not origin or not origin.strip():
        return None
    origin = origin.strip()
    if origin == STDIN_ORIGIN or origin.startswith(STDIN_ORIGIN + ":"):
        return "stdin" + origin[len(STDIN_ORIGIN) :]
    return PurePath(origin.replace("\\", "/")).name or origin
