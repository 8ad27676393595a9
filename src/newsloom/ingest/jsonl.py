"""JSONL (one article per line) and JSON (an array of articles) files.

Fields are matched by name with common aliases (case, ``_`` and ``-`` ignored):
``text`` (``content``, ``body``, ``article``, ``maintext``, ``full_text``, ``story``),
``title`` (``headline``), ``url`` (``link``, ``canonical_url``), ``source`` (``publisher``,
``outlet``, ``site_name``, ``publication``, ``domain``; an object with a ``name`` is fine, as
NewsAPI writes it) and ``published`` (``date``, ``published_at``, ``pubdate``,
``date_published``, ``timestamp``, …), normalised to ISO by dates.py. A source missing from
the record is taken from the URL's domain.

A bad line (invalid JSON, not an object, no text, too long) is one ``Skipped`` naming
``file:line``; the rest of the file is read. The file is read line by line, and a line's
size is bounded by ``max_file_bytes`` (the limit is per article, not per file, so a corpus
of a million articles in one JSONL file streams).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import IO, Any

from ..errors import InputError
from ..models import Article, SkipCode, Skipped, article_id
from ..text.urls import source_from_url
from .dates import normalise_date
from .decode import binary_reason, read_bytes

ALIASES: dict[str, tuple[str, ...]] = {
    "text": (
        "text",
        "content",
        "body",
        "article",
        "maintext",
        "fulltext",
        "articlebody",
        "articletext",
        "story",
    ),
    "title": ("title", "headline", "heading"),
    "url": ("url", "link", "canonicalurl", "sourceurl", "uri", "permalink"),
    "source": (
        "source",
        "publisher",
        "outlet",
        "sitename",
        "site",
        "sourcename",
        "publication",
        "domain",
        "media",
    ),
    "published": (
        "published",
        "date",
        "publishedat",
        "publishdate",
        "pubdate",
        "datepublished",
        "publisheddate",
        "publicationdate",
        "datetime",
        "timestamp",
        "created",
        "createdat",
    ),
}
# Keys under which a JSON document holds its list of articles (feed/API exports).
LIST_KEYS = ("articles", "items", "data", "results", "entries", "documents")
NON_LETTERS = re.compile(r"[^a-z]")
DRAIN_CHUNK = 1 << 20


def _norm(key: str) -> str:
    return NON_LETTERS.sub("", key.lower())


def _pick(record: dict[str, Any], field: str) -> Any:
    for alias in ALIASES[field]:
        if alias in record and record[alias] not in (None, ""):
            return record[alias]
    return None


def _as_text(value: Any) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return "\n\n".join(value)  # a list of paragraphs
    return None


def _as_name(value: Any) -> str | None:
    if isinstance(value, dict):
        value = value.get("name") or value.get("title")
    return (value.strip() or None) if isinstance(value, str) else None


def record_article(record: Any, origin: str) -> Article | Skipped:
    """One article from one JSON object, or the reason it is not one."""
    if not isinstance(record, dict):
        return Skipped(
            origin=origin,
            reason=f"not a JSON object (a {type(record).__name__})",
            code=SkipCode.BAD_JSON,
        )
    fields: dict[str, Any] = {}
    for key, value in record.items():
        fields.setdefault(_norm(str(key)), value)
    text = _as_text(_pick(fields, "text"))
    if text is None or not text.strip():
        return Skipped(
            origin=origin,
            reason=(
                "no article text (looked for text, content, body, article); name the field `text`"
            ),
            code=SkipCode.NO_TEXT,
        )
    warnings = []
    raw_date = _pick(fields, "published")
    published = normalise_date(raw_date)
    if raw_date is not None and published is None:
        warnings.append(f"published value {str(raw_date)[:40]!r} is not a date newsloom can read")
    url = _pick(fields, "url")
    url = url.strip() if isinstance(url, str) and url.strip() else None
    title = _pick(fields, "title")
    return Article(
        id=article_id(text),
        text=text,
        path=None,
        origin=origin,
        format="jsonl",
        source=_as_name(_pick(fields, "source")) or source_from_url(url),
        title=(title.strip() or None) if isinstance(title, str) else None,
        published=published,
        url=url,
        warnings=warnings,
    )


def _line_record(line: bytes, origin: str) -> Article | Skipped | None:
    try:
        decoded = line.decode("utf-8").lstrip("\ufeff").strip()
    except UnicodeDecodeError as exc:
        return Skipped(
            origin=origin,
            reason=f"not UTF-8 (invalid byte 0x{line[exc.start]:02x})",
            code=SkipCode.ENCODING,
        )
    if not decoded:
        return None
    try:
        record = json.loads(decoded)
    except json.JSONDecodeError as exc:
        return Skipped(
            origin=origin,
            reason=f"invalid JSON ({exc.msg} at column {exc.colno})",
            code=SkipCode.BAD_JSON,
        )
    except RecursionError:
        return Skipped(
            origin=origin, reason="invalid JSON (nested too deeply)", code=SkipCode.BAD_JSON
        )
    return record_article(record, origin)


def _drain_line(fh: IO[bytes]) -> None:
    while chunk := fh.readline(DRAIN_CHUNK):
        if chunk.endswith(b"\n"):
            return


def read_jsonl(path: str, max_line_bytes: int) -> Iterator[Article | Skipped]:
    """Every line of a JSONL file as an Article or a Skipped naming ``path:line``."""
    try:
        fh = open(path, "rb")  # noqa: SIM115 - closed below; a generator holds it open
    except OSError as exc:
        raise InputError(path, f"cannot read ({exc.strerror or exc}); check the path") from exc
    with fh:
        reason = binary_reason(fh.read(8192))
        if reason:
            raise InputError(path, reason, SkipCode.BINARY)
        fh.seek(0)
        found = False
        lineno = 0
        while line := fh.readline(max_line_bytes + 1):
            lineno += 1
            origin = f"{path}:{lineno}"
            if len(line) > max_line_bytes and not line.endswith(b"\n"):
                _drain_line(fh)
                found = True
                yield Skipped(
                    origin=origin,
                    reason=f"line too long (over max_file_bytes = {max_line_bytes} bytes)",
                    code=SkipCode.TOO_LARGE,
                )
                continue
            item = _line_record(line, origin)
            if item is not None:
                found = True
                yield item
        if not found:
            raise InputError(path, "empty file; no JSON lines to read", SkipCode.EMPTY)


def read_json(path: str, max_bytes: int) -> Iterator[Article | Skipped]:
    """A JSON file: one article object, an array of them, or {"articles": [...]}."""
    data = read_bytes(path, max_bytes)
    reason = binary_reason(data)
    if reason:
        raise InputError(path, reason, SkipCode.BINARY)
    try:
        doc = json.loads(data.decode("utf-8").lstrip("\ufeff"))
    except UnicodeDecodeError as exc:
        raise InputError(
            path,
            f"not UTF-8 (invalid byte 0x{data[exc.start]:02x} at offset {exc.start})",
            SkipCode.ENCODING,
        ) from exc
    except json.JSONDecodeError as exc:
        if not data.strip():
            raise InputError(path, "empty file; nothing to read", SkipCode.EMPTY) from exc
        raise InputError(
            path,
            f"invalid JSON ({exc.msg} at line {exc.lineno}); "
            "for one article per line name it .jsonl",
            SkipCode.BAD_JSON,
        ) from exc
    except RecursionError as exc:
        raise InputError(path, "invalid JSON (nested too deeply)", SkipCode.BAD_JSON) from exc
    if isinstance(doc, dict):
        listed = next((doc[k] for k in LIST_KEYS if isinstance(doc.get(k), list)), None)
        if listed is None:
            yield record_article(doc, path)
            return
        doc = listed
    if not isinstance(doc, list):
        raise InputError(
            path, f"JSON holds a {type(doc).__name__}, not articles", SkipCode.BAD_JSON
        )
    if not doc:
        raise InputError(path, "JSON array is empty; nothing to read", SkipCode.EMPTY)
    for i, record in enumerate(doc):
        yield record_article(record, f"{path}[{i}]")
