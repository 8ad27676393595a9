"""HTML pages: the main text extracted with trafilatura, metadata from the page.

The article text is trafilatura's main-text extraction with one paragraph per block,
separated by blank lines (the plain-text convention the later stages expect). It is not the
file's content, so ``path`` is None and offsets refer to ``Article.text``. When the first
paragraph is the page's title (the ``<h1>``), ``title_span`` points at it.
"""

from __future__ import annotations

import re
from typing import Any

from ..errors import InputError
from ..models import Article, SkipCode, Span, article_id
from ..text.urls import source_from_url
from .dates import normalise_date
from .decode import refuse_binary

# Fewer words than this is navigation or a teaser left over from a page that holds no
# article (the shortest news briefs run ~40 words; menus and bylines a handful).
MIN_MAIN_TEXT_WORDS = 12
DOMAIN = re.compile(r"[\w-]+(?:\.[\w-]+)+")
# libxml2's HTML parser (under lxml and trafilatura) nests at most this many elements and drops
# whatever sits deeper, so the text of a page nested that deep is lost, not absent. Real pages
# nest 20-40 levels; generated or hostile ones go past the limit.
PARSER_MAX_DEPTH = 256


def _extract(origin: str, data: bytes) -> Any:
    import trafilatura  # slow to import: only when an HTML file is read

    try:
        return trafilatura.bare_extraction(data, with_metadata=True, include_comments=False)
    except Exception as exc:  # a third-party parser on arbitrary bytes: report, don't crash
        raise InputError(
            origin, f"HTML could not be parsed ({type(exc).__name__}: {exc})", SkipCode.BAD_HTML
        ) from exc


def _depth(data: bytes) -> int:
    """How deep the parser nests the page's elements (1 for a bare ``<html>``)."""
    import lxml.html  # installed with trafilatura; only for a page without main text

    try:
        root = lxml.html.document_fromstring(data)
    except Exception:  # nothing to measure: the caller's own reason stands
        return 0
    deepest, stack = 0, [(root, 1)]
    while stack:
        element, depth = stack.pop()
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in element)
    return deepest


def _no_main_text(origin: str, data: bytes) -> InputError:
    if _depth(data) >= PARSER_MAX_DEPTH:
        return InputError(
            origin,
            f"HTML nested too deeply (over {PARSER_MAX_DEPTH - 1} levels of elements); the "
            "parser drops what is deeper, so no article text was left; save the article as "
            "plain text (a browser's reader view or print-to-text) and read that",
            SkipCode.BAD_HTML,
        )
    return InputError(
        origin,
        "no main text found in the HTML; save the article page itself, not an index page",
        SkipCode.NO_TEXT,
    )


def html_article(origin: str, data: bytes) -> Article:
    refuse_binary(origin, data)
    if not data.strip():
        raise InputError(origin, "empty file; nothing to read", SkipCode.EMPTY)
    doc = _extract(origin, data)
    raw = (getattr(doc, "text", None) or "") if doc is not None else ""
    paragraphs = [line.strip() for line in raw.splitlines() if line.strip()]
    if sum(len(p.split()) for p in paragraphs) < MIN_MAIN_TEXT_WORDS:
        raise _no_main_text(origin, data)
    text = "\n\n".join(paragraphs)
    title = (getattr(doc, "title", None) or "").strip() or None
    title_span = (
        Span(start=0, end=len(title), text=title) if title and paragraphs[0] == title else None
    )
    url = getattr(doc, "url", None) or None
    sitename = (getattr(doc, "sitename", None) or "").strip() or None
    if sitename and DOMAIN.fullmatch(sitename):  # trafilatura falls back to the host name
        sitename = source_from_url(f"http://{sitename}")
    return Article(
        id=article_id(text),
        text=text,
        path=None,
        origin=origin,
        format="html",
        source=sitename or source_from_url(url),
        title=title,
        published=normalise_date(getattr(doc, "date", None)),
        url=url,
        title_span=title_span,
        body_start=title_span.end + 2 if title_span and len(paragraphs) > 1 else 0,
    )
