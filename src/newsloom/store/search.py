"""Search helpers shared by the store's SQLite (FTS5) and PostgreSQL (tsvector) paths: query
words and snippets."""

from __future__ import annotations

import re

# Search: at most this many words of a query are used (a pasted paragraph stays cheap).
MAX_SEARCH_TERMS = 12
# Words of context a snippet shows around the match (FTS5 `snippet()` token budget).
SNIPPET_TOKENS = 18
# What a snippet shows where it cuts its text short (FTS5 `snippet()` ellipsis).
ELLIPSIS = "…"
# Snippet highlight markers: control characters that never occur in stored text.
MARK_OPEN, MARK_CLOSE = "\x02", "\x03"
WORD = re.compile(r"\w+")


def search_terms(query: str) -> list[str]:
    """The words of a user query; operators and punctuation of a query language (FTS5,
    tsquery) are never interpreted."""
    return WORD.findall(query)[:MAX_SEARCH_TERMS]


def split_snippet(marked: str) -> tuple[str, list[tuple[int, int]]]:
    """A snippet with MARK_OPEN/MARK_CLOSE markers → plain text and highlight offsets."""
    out: list[str] = []
    highlights: list[tuple[int, int]] = []
    pos = 0
    start = None
    for ch in marked:
        if ch == MARK_OPEN:
            start = pos
        elif ch == MARK_CLOSE:
            if start is not None and pos > start:
                highlights.append((start, pos))
            start = None
        else:
            out.append(ch)
            pos += 1
    return "".join(out), highlights


def cut_snippet(marked: str, source: str) -> tuple[str, list[tuple[int, int]]]:
    """A marked excerpt of ``source`` (PostgreSQL's ``ts_headline``) → plain text with an
    ellipsis on each side where ``source`` goes on, as FTS5 ``snippet()`` writes it, and the
    highlight offsets into that text."""
    plain, highlights = split_snippet(marked)
    at = source.find(plain)
    if at < 0 or not plain:
        return plain, highlights
    prefix = ELLIPSIS if at > 0 else ""
    suffix = ELLIPSIS if at + len(plain) < len(source) else ""
    shifted = [(start + len(prefix), end + len(prefix)) for start, end in highlights]
    return prefix + plain + suffix, shifted
