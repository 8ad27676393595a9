"""Reading articles: files, folders, globs, JSONL, HTML and stdin → ``Article`` records.

``read_inputs`` is the one entry point. It streams (one file in memory at a time; JSONL line
by line) and never raises for a bad input: a file that cannot be read becomes a ``Skipped``
with a one-line reason naming it, and reading goes on. Formats are chosen by extension
(``.txt``/``.text`` plain text, ``.jsonl``/``.ndjson`` JSONL, ``.json`` JSON, ``.html``/
``.htm``/``.xhtml`` HTML); any other file is sniffed: HTML when it opens like an HTML page,
plain text when it decodes as text, skipped otherwise (binary).
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator, Sequence
from typing import TextIO

from ..config import Settings
from ..errors import InputError
from ..models import Article, SkipCode, Skipped
from .dates import checked_published
from .decode import Decoded, decode, read_bytes
from .discover import Found, discover
from .html import html_article
from .jsonl import read_json, read_jsonl, record_article
from .text import text_article

__all__ = ["read_inputs", "record_article"]

EXTENSIONS = {
    ".txt": "text",
    ".text": "text",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".json": "json",
    ".html": "html",
    ".htm": "html",
    ".xhtml": "html",
}
HTML_START = re.compile(
    rb"\s*(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html)\b", re.IGNORECASE | re.DOTALL
)


def read_inputs(
    paths: Sequence[str], settings: Settings, stdin: TextIO | None = None
) -> Iterator[Article | Skipped]:
    """Every article behind ``paths`` (files, folders, globs, ``-``), or why it was skipped."""
    for found in discover(paths):
        if isinstance(found, Skipped):
            yield found
            continue
        try:
            yield from _read(found, settings, stdin)
        except InputError as exc:
            yield Skipped(origin=exc.origin, reason=exc.reason, code=exc.code)
        except Exception as exc:  # the last line of defence: one odd file must not end a run
            yield Skipped(
                origin=found.path,
                reason=f"could not be read ({type(exc).__name__}: {exc}); please report this",
                code=SkipCode.READER_FAILED,
            )


def _read(found: Found, settings: Settings, stdin: TextIO | None) -> Iterator[Article | Skipped]:
    """The articles of one input; every publication date is checked against ``settings``."""
    if found.is_stdin:
        article = _read_stdin(stdin if stdin is not None else sys.stdin, settings.max_file_bytes)
        yield checked_published(article, settings)
        return
    path = found.path
    kind = EXTENSIONS.get(os.path.splitext(path)[1].lower())
    if kind == "jsonl":
        yield from read_jsonl(path, settings)  # records are checked by record_article
        return
    if kind == "json":
        yield from read_json(path, settings)
        return
    data = read_bytes(path, settings.max_file_bytes)
    if kind == "html" or (kind is None and HTML_START.match(data[:4096])):
        yield checked_published(html_article(path, data), settings)
        return
    yield checked_published(text_article(decode(path, data), origin=path, path=path), settings)


def _read_stdin(stdin: TextIO, max_bytes: int) -> Article:
    """stdin as one plain-text article (bytes decoded by the file policy when available)."""
    buffer = getattr(stdin, "buffer", None)
    if buffer is not None:
        data = buffer.read(max_bytes + 1)
        if len(data) > max_bytes:
            raise InputError(
                "-",
                f"input too large (over max_file_bytes = {max_bytes} bytes)",
                SkipCode.TOO_LARGE,
            )
        decoded = decode("-", data)
    else:
        text = stdin.read(max_bytes + 1)
        if len(text) > max_bytes:
            raise InputError(
                "-",
                f"input too large (over max_file_bytes = {max_bytes} characters)",
                SkipCode.TOO_LARGE,
            )
        decoded = decode("-", text.encode("utf-8", "surrogatepass"))
    return text_article(Decoded(decoded.text, exact=False, warnings=decoded.warnings), "-", None)
