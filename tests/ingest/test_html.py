"""HTML pages: main text by trafilatura, metadata from the page, exact title span."""

from __future__ import annotations

import pytest

from newsloom.config import Settings
from newsloom.ingest import read_inputs
from newsloom.models import Article, Skipped, article_id

PAGE = """<!DOCTYPE html>
<html><head><title>Flooding closes Harbor Road | The Courier</title>
<meta property="og:site_name" content="The Courier">
<meta property="article:published_time" content="2021-03-14T10:00:00Z">
<link rel="canonical" href="https://www.courier.example/2021/03/14/flood"></head>
<body><nav><a href="/">Home</a> | <a href="/news">News</a></nav>
<article><h1>Flooding closes Harbor Road</h1>
<p>HARBOR CITY — Heavy rain closed Harbor Road on Tuesday, officials said. The road will stay
closed until Friday at the earliest, the city's roads department said.</p>
<p>Fire chief Ann Lee told reporters: "Stay home tonight." She said the water was still rising
near the old bridge and that crews would work through the night.</p></article>
<footer>Copyright 2021 The Courier. All rights reserved.</footer></body></html>
"""


def read(tmp_path, name: str, content: str | bytes):
    path = tmp_path / name
    if isinstance(content, str):
        content = content.encode("utf-8")
    path.write_bytes(content)
    items = list(read_inputs([str(path)], Settings()))
    assert len(items) == 1
    return path, items[0]


def test_main_text_and_metadata(tmp_path):
    path, article = read(tmp_path, "page.html", PAGE)
    assert isinstance(article, Article), article
    assert (article.path, article.origin, article.format) == (None, str(path), "html")
    assert article.title == "Flooding closes Harbor Road"
    assert article.published == "2021-03-14"
    assert article.source == "The Courier"
    assert article.url == "https://www.courier.example/2021/03/14/flood"
    assert "Fire chief Ann Lee told reporters" in article.text
    assert "Home" not in article.text and "Copyright" not in article.text
    assert "\n\nFire chief" in article.text  # paragraphs separated by blank lines
    span = article.title_span
    assert span is not None and article.text[span.start : span.end] == span.text == article.title
    assert article.text[article.body_start :].startswith("HARBOR CITY")
    assert article.id == article_id(article.text)


def test_no_extension_is_sniffed_as_html(tmp_path):
    _, article = read(tmp_path, "saved-page", "<!-- saved -->\n" + PAGE)
    assert isinstance(article, Article) and article.format == "html"


def test_source_falls_back_to_the_url_domain(tmp_path):
    page = PAGE.replace('<meta property="og:site_name" content="The Courier">', "")
    page = page.replace("| The Courier", "")
    _, article = read(tmp_path, "page.htm", page)
    assert isinstance(article, Article)
    assert article.source == "courier"  # the same form a url: line in a text file gives


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ("<html><body><nav>Home</nav></body></html>", "no main text"),
        ("", "empty file"),
        (b"\x89PNG\r\n\x1a\n\x00\x00", "binary file"),
    ],
)
def test_pages_without_an_article_are_skipped(tmp_path, content, reason):
    path, item = read(tmp_path, "page.html", content)
    assert isinstance(item, Skipped) and item.origin == str(path)
    assert item.reason.startswith(reason)
