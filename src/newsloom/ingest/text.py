"""Plain-text articles: one article per file (or stdin), header conventions read by offsets.

``Article.text`` is the file exactly as decoded (see decode.py for the encoding policy): no
newline translation, nothing stripped, so every offset also holds in the file when
``Article.path`` is set. Metadata comes, in order of trust, from the file's own header
(headers.py), then its name (``publisher_YYYY-MM-DD_slug.txt``), then its ``url:`` line's
domain. The publisher in a file name is kept as written (``daily-courier``); a source taken
from a URL is the name part of its domain (``daily-courier``), see text/urls.py.
"""

from __future__ import annotations

import os
import re

from ..models import Article, article_id
from ..text.urls import source_from_url
from .dates import iso
from .decode import Decoded
from .headers import parse_header

# publisher_YYYY-MM-DD_slug.ext — the publisher has no underscore; the slug may.
FILE_NAME = re.compile(
    r"(?P<publisher>[^_\s]+)_(?P<y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})_(?P<slug>.+?)(?:\.\w+)?"
)


def name_metadata(path: str) -> tuple[str | None, str | None]:
    """(publisher, ISO date) from a ``publisher_YYYY-MM-DD_slug.txt`` file name."""
    m = FILE_NAME.fullmatch(os.path.basename(path))
    if not m:
        return None, None
    published = iso(int(m["y"]), int(m["m"]), int(m["d"]))
    return (m["publisher"], published) if published else (None, None)


def text_article(decoded: Decoded, origin: str, path: str | None) -> Article:
    """One plain-text article. ``path`` is given only when ``decoded`` is the file as UTF-8."""
    text = decoded.text
    header = parse_header(text)
    warnings = list(decoded.warnings) + header.warnings
    publisher, name_date = name_metadata(origin) if origin != "-" else (None, None)
    published = header.published or name_date
    if header.published and name_date and header.published != name_date:
        warnings.append(
            f"date marker says {header.published}, file name says {name_date}; kept the marker"
        )
    return Article(
        id=article_id(text),
        text=text,
        path=path if decoded.exact else None,
        origin=origin,
        format="text",
        source=publisher or source_from_url(header.url),
        title=header.title_span.text if header.title_span else None,
        published=published,
        url=header.url,
        title_span=header.title_span,
        dateline=header.dateline,
        body_start=header.body_start,
        warnings=warnings,
    )
