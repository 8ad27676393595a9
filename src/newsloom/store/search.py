"""Search helpers shared by the store's FTS5 and LIKE paths: query words and snippets."""

from __future__ import annotations

import re

# Search: at most this many words of a query are used (a pasted paragraph stays cheap).
MAX_SEARCH_TERMS = 12
# Words of context a snippet shows around the match (FTS5 `snippet()` token budget).
SNIPPET_TOKENS = 18
# Characters of context either side of the first match in the LIKE fallback's snippets.
SNIPPET_CHARS = 90
# Snippet highlight markers: control characters that never occur in stored text.
MARK_OPEN, MARK_CLOSE = "\x02", "\x03"
WORD = re.compile(r"\w+")


def search_terms(query: str) -> list[str]:
    """The words of a user query; FTS5 operators and punctuation are never interpreted."""
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


def like_snippet(body: str, terms: list[str]) -> tuple[str, list[tuple[int, int]]]:
    """A window of ``body`` around the first match of any term, with every term highlighted."""
    pattern = re.compile("|".join(re.escape(w) for w in terms), re.IGNORECASE)
    first = pattern.search(body)
    lo = max(0, (first.start() if first else 0) - SNIPPET_CHARS)
    hi = min(len(body), (first.end() if first else 0) + SNIPPET_CHARS)
    prefix, suffix = ("…" if lo else ""), ("…" if hi < len(body) else "")
    window = prefix + body[lo:hi] + suffix
    return window, [(m.start(), m.end()) for m in pattern.finditer(window)]
