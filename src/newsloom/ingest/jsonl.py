"""JSONL (one article per line) and JSON (an array of articles) files.

Fields are matched by name with common aliases (case, ``_`` and ``-`` ignored):
``text`` (``content``, ``body``, ``article``, ``maintext``, ``full_text``, ``story``),
``title`` (``headline``), ``url`` (``link``, ``canonical_url``), ``source`` (``publisher``,
``outlet``, ``site_name``, ``publication``, ``domain``; an object with a ``name`` is fine, as
NewsAPI writes it) and ``published`` (``date``, ``published_at``, ``pubdate``,
``date_published``, ``timestamp``, …), normalised to ISO by dates.py. A source missing from
the record is taken from the URL's domain.

A bad line (invalid JSON, not an object, no text or text of the wrong type, a NUL byte, too
long) is one ``Skipped`` naming ``file:line``; the rest of the file is read. Whether the file
is binary as a whole (a gzip, UTF-16 without a byte-order mark) is decided by its first 8 KB.
The file is read line by line, and a line's size is bounded by ``max_file_bytes`` (the limit
is per article, not per file, so a corpus of a million articles in one JSONL file streams).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import IO, Any

from ..config import Settings
from ..errors import InputError
from ..models import Article, SkipCode, Skipped, article_id
from ..text.urls import source_from_url
from .dates import checked_published, normalise_date
from .decode import SNIFF_BYTES, read_bytes, refuse_binary

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


def _pick_field(record: dict[str, Any], field: str) -> tuple[str, Any] | None:
    """(alias, value) of the first alias of ``field`` the record fills, or None."""
    for alias in ALIASES[field]:
        if alias in record and record[alias] not in (None, ""):
            return alias, record[alias]
    return None


def _pick(record: dict[str, Any], field: str) -> Any:
    picked = _pick_field(record, field)
    return picked[1] if picked else None


def _as_text(value: Any) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return "\n\n".join(value)  # a list of paragraphs
    return None


def _json_kind(value: Any) -> str:
    """What a JSON value is, in JSON's words."""
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list with items that are not text" if value else "an empty list"
    return f"a {type(value).__name__}"


def _as_name(value: Any) -> str | None:
    if isinstance(value, dict):
        value = value.get("name") or value.get("title")
    return (value.strip() or None) if isinstance(value, str) else None


def _no_text(origin: str, fields: dict[str, Any], names: dict[str, str]) -> Skipped:
    """The Skipped for a record without usable text: no text field, or one of the wrong type."""
    picked = _pick_field(fields, "text")
    if picked is None or isinstance(picked[1], str):
        reason = "no article text (looked for text, content, body, article); name the field `text`"
    else:
        alias, value = picked
        reason = (
            f"`{names[alias]}` is {_json_kind(value)}, not text; article text must be a string "
            "(or a list of paragraph strings)"
        )
    return Skipped(origin=origin, reason=reason, code=SkipCode.NO_TEXT)


def _nul_field(values: dict[str, Any]) -> str | None:
    """The first of ``values`` (name: picked string) holding a NUL character, or None."""
    return next((k for k, v in values.items() if isinstance(v, str) and "\x00" in v), None)


def record_article(record: Any, origin: str, settings: Settings) -> Article | Skipped:
    """One article from one JSON object, or the reason it is not one.

    ``settings`` gives the range of plausible publication dates (see dates.checked_published).
    """
    if not isinstance(record, dict):
        return Skipped(
            origin=origin,
            reason=f"not a JSON object (a {type(record).__name__})",
            code=SkipCode.BAD_JSON,
        )
    fields: dict[str, Any] = {}
    names: dict[str, str] = {}
    for key, value in record.items():
        fields.setdefault(_norm(str(key)), value)
        names.setdefault(_norm(str(key)), str(key))
    text = _as_text(_pick(fields, "text"))
    if text is None or not text.strip():
        return _no_text(origin, fields, names)
    url = _pick(fields, "url")
    title = _pick(fields, "title")
    source = _as_name(_pick(fields, "source"))
    nul = _nul_field({"text": text, "title": title, "url": url, "source": source})
    if nul:
        return Skipped(
            origin=origin,
            reason=f"the {nul} holds a NUL character (\\u0000); remove it from the record",
            code=SkipCode.BINARY,
        )
    warnings = []
    raw_date = _pick(fields, "published")
    published = normalise_date(raw_date)
    if raw_date is not None and published is None:
        warnings.append(f"published value {str(raw_date)[:40]!r} is not a date newsloom can read")
    url = url.strip() if isinstance(url, str) and url.strip() else None
    article = Article(
        id=article_id(text),
        text=text,
        path=None,
        origin=origin,
        format="jsonl",
        source=source or source_from_url(url),
        title=(title.strip() or None) if isinstance(title, str) else None,
        published=published,
        url=url,
        warnings=warnings,
    )
    return checked_published(article, settings)


def _line_record(line: bytes, origin: str, settings: Settings) -> Article | Skipped | None:
    nul = line.find(b"\x00")
    if nul != -1:
        return Skipped(
            origin=origin,
            reason=f"NUL byte at column {nul + 1}; the line is binary or corrupt",
            code=SkipCode.BINARY,
        )
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
    return record_article(record, origin, settings)


def _drain_line(fh: IO[bytes]) -> None:
    while chunk := fh.readline(DRAIN_CHUNK):
        if chunk.endswith(b"\n"):
            return


def read_jsonl(path: str, settings: Settings) -> Iterator[Article | Skipped]:
    """Every line of a JSONL file as an Article or a Skipped naming ``path:line``."""
    max_line_bytes = settings.max_file_bytes
    try:
        fh = open(path, "rb")  # noqa: SIM115 - closed below; a generator holds it open
    except OSError as exc:
        raise InputError(path, f"cannot read ({exc.strerror or exc}); check the path") from exc
    with fh:
        refuse_binary(path, fh.read(SNIFF_BYTES))
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
            item = _line_record(line, origin, settings)
            if item is not None:
                found = True
                yield item
        if not found:
            raise InputError(path, "empty file; no JSON lines to read", SkipCode.EMPTY)


def read_json(path: str, settings: Settings) -> Iterator[Article | Skipped]:
    """A JSON file: one article object, an array of them, or {"articles": [...]}."""
    data = read_bytes(path, settings.max_file_bytes)
    refuse_binary(path, data)
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
            yield record_article(doc, path, settings)
            return
        doc = listed
    if not isinstance(doc, list):
        raise InputError(
            path, f"JSON holds a {type(doc).__name__}, not articles", SkipCode.BAD_JSON
        )
    if not doc:
        raise InputError(path, "JSON array is empty; nothing to read", SkipCode.EMPTY)
    for i, record in enumerate(doc):
        yield record_article(record, f"{path}[{i}]", settings)
