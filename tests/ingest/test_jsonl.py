"""JSONL and JSON articles: fields and their aliases, dates, and bad lines that skip alone."""

from __future__ import annotations

import json

import pytest

from newsloom.config import Settings
from newsloom.ingest import read_inputs
from newsloom.ingest.dates import normalise_date
from newsloom.models import Article, Skipped, article_id
from newsloom.text.urls import date_from_url, source_from_url

# (record, expected fields of the Article)
RECORD_ROWS = [
    (
        {
            "text": "Body one.",
            "title": "T",
            "url": "https://news.example/a",
            "source": "Courier",
            "published": "2021-03-14",
        },
        {
            "text": "Body one.",
            "title": "T",
            "url": "https://news.example/a",
            "source": "Courier",
            "published": "2021-03-14",
        },
    ),
    (
        {
            "content": "Body.",
            "headline": "H",
            "publisher": "P",
            "date": "2021-03-14T23:30:00-05:00",
        },
        {"text": "Body.", "title": "H", "source": "P", "published": "2021-03-14"},
    ),
    (
        {"body": "Body.", "outlet": "O", "published_at": "Sun, 14 Mar 2021 10:00:00 GMT"},
        {"text": "Body.", "source": "O", "published": "2021-03-14"},
    ),
    (
        {
            "Content": "Body.",
            "publishedAt": "2021-03-14T10:00:00Z",
            "source": {"id": None, "name": "Daily Courier"},
        },
        {"text": "Body.", "source": "Daily Courier", "published": "2021-03-14"},
    ),
    (
        {"text": "Body.", "url": "https://www.daily-courier.example/2021/03/14/x"},
        {"source": "daily-courier", "published": None},
    ),
    (
        {"text": ["First paragraph.", "Second one."], "pubdate": 1615716000},
        {"text": "First paragraph.\n\nSecond one.", "published": "2021-03-14"},
    ),
    ({"text": "Body.", "date": "March 2021"}, {"published": "2021-03"}),
    ({"text": "Body.", "date": 2021}, {"published": "2021"}),  # a year, not 1970 + 2021 s
    ({"text": "Body.", "date": 86400 * 365}, {"published": "1971-01-01"}),
    ({"text": "Body.", "date": "2021"}, {"published": "2021"}),
    (
        {"text": "Body.", "title": "", "source": "  ", "url": 7},
        {"title": None, "source": None, "url": None},
    ),
]


def write_lines(path, lines):
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(("record", "expected"), RECORD_ROWS)
def test_record_fields_and_aliases(tmp_path, record, expected):
    path = write_lines(tmp_path / "a.jsonl", [json.dumps(record)])
    (article,) = list(read_inputs([str(path)], Settings()))
    assert isinstance(article, Article), article
    assert (article.path, article.origin, article.format) == (None, f"{path}:1", "jsonl")
    assert article.id == article_id(article.text)
    for key, value in expected.items():
        assert getattr(article, key) == value, key


def test_unreadable_date_is_a_warning_not_a_guess(tmp_path):
    path = write_lines(tmp_path / "a.jsonl", [json.dumps({"text": "Body.", "date": "03/04/2021"})])
    (article,) = list(read_inputs([str(path)], Settings()))
    assert isinstance(article, Article)
    assert article.published is None
    assert "not a date" in article.warnings[0]


def test_bad_lines_are_skipped_alone_and_the_file_goes_on(tmp_path):
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(
        b'{"text": "First."}\n'
        b"{not json\n"
        b"\n"
        b'{"title": "no text here"}\n'
        b'["a", "list"]\n'
        b'{"text": "caf\xe9"}\n'
        b'{"text": "   "}\n'
        b'{"text": "Last."}'  # no final newline
    )
    items = list(read_inputs([str(path)], Settings()))
    got = [(type(i).__name__, i.origin) for i in items]
    assert got == [
        ("Article", f"{path}:1"),
        ("Skipped", f"{path}:2"),
        ("Skipped", f"{path}:4"),
        ("Skipped", f"{path}:5"),
        ("Skipped", f"{path}:6"),
        ("Skipped", f"{path}:7"),
        ("Article", f"{path}:8"),
    ]
    reasons = [i.reason for i in items if isinstance(i, Skipped)]
    assert reasons[0].startswith("invalid JSON")
    assert reasons[1].startswith("no article text")
    assert reasons[2].startswith("not a JSON object")
    assert reasons[3].startswith("not UTF-8")
    assert reasons[4].startswith("no article text")
    assert all("\n" not in r for r in reasons)


def test_a_line_over_the_limit_is_skipped_without_reading_it_whole(tmp_path):
    path = tmp_path / "long.jsonl"
    long_line = json.dumps({"text": "x" * 5000})
    write_lines(path, [json.dumps({"text": "Short."}), long_line, json.dumps({"text": "After."})])
    items = list(read_inputs([str(path)], Settings(max_file_bytes=1000)))
    assert [type(i).__name__ for i in items] == ["Article", "Skipped", "Article"]
    skipped, after = items[1], items[2]
    assert isinstance(skipped, Skipped) and isinstance(after, Article)
    assert skipped.origin == f"{path}:2" and "too long" in skipped.reason
    assert after.text == "After."


def test_bom_on_first_line_is_accepted(tmp_path):
    path = tmp_path / "bom.jsonl"
    path.write_bytes(b'\xef\xbb\xbf{"text": "Body."}\n')
    (article,) = list(read_inputs([str(path)], Settings()))
    assert isinstance(article, Article) and article.text == "Body."


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ([{"text": "A."}, {"body": "B."}], [("Article", "[0]"), ("Article", "[1]")]),
        (
            {"status": "ok", "articles": [{"content": "A."}, 3]},
            [("Article", "[0]"), ("Skipped", "[1]")],
        ),
        ({"text": "One article."}, [("Article", "")]),
    ],
)
def test_json_files(tmp_path, content, expected):
    path = tmp_path / "export.json"
    path.write_text(json.dumps(content), encoding="utf-8")
    items = list(read_inputs([str(path)], Settings()))
    assert [(type(i).__name__, i.origin) for i in items] == [(k, f"{path}{o}") for k, o in expected]


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ("", "empty file"),
        ("[]", "JSON array is empty"),
        ('"just a string"', "JSON holds a str"),
        ("{broken", "invalid JSON"),
    ],
)
def test_bad_json_files(tmp_path, content, reason):
    path = tmp_path / "export.json"
    path.write_text(content, encoding="utf-8")
    (item,) = list(read_inputs([str(path)], Settings()))
    assert isinstance(item, Skipped) and item.origin == str(path)
    assert item.reason.startswith(reason)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2021-03-14", "2021-03-14"),
        ("2021-03-14T10:00:00Z", "2021-03-14"),
        ("2021-03-14 10:00:00+01:00", "2021-03-14"),
        ("2021/3/4", "2021-03-04"),
        ("20210314", "2021-03-14"),
        ("2021-03", "2021-03"),
        ("2021", "2021"),
        ("March 14, 2021", "2021-03-14"),
        ("Mar. 14th 2021", "2021-03-14"),
        ("14 March 2021", "2021-03-14"),
        ("Sept 2020", "2020-09"),
        ("Sun, 14 Mar 2021 10:00:00 GMT", "2021-03-14"),
        ("14/03/2021", "2021-03-14"),
        ("03/14/2021", "2021-03-14"),
        (1615716000, "2021-03-14"),
        (1615716000000, "2021-03-14"),
        ("1615716000", "2021-03-14"),
        # not dates, or ambiguous: None rather than a guess
        ("03/04/2021", None),
        ("2021-02-30", None),
        ("2021-13", None),
        ("yesterday", None),
        ("", None),
        (None, None),
        (True, None),
        ({"a": 1}, None),
        ("1500", "1500"),  # parsed; whether it is plausible is checked_published's call
        ("0001", "0001"),
        ("Smarch 14, 2021", None),
    ],
)
def test_normalise_date(value, expected):
    assert normalise_date(value) == expected


@pytest.mark.parametrize(
    ("url", "source", "date"),
    [
        ("https://www.daily-courier.example/2021/03/14/bridge-vote", "daily-courier", "2021-03-14"),
        ("https://news.example/world/2021-03-14-bridge", "news", "2021-03-14"),
        ("https://m.news.example/20210314/story.html", "news", "2021-03-14"),
        ("https://edition.cnn.com/2021/03/story", "cnn", "2021-03"),
        ("http://news.bbc.co.uk/1/hi/world/2021/story", "bbc", None),  # a bare year is no date
        ("https://www.smh.com.au/id/2021/99/x", "smh", None),  # month 99
        ("https://Courier.Example:8080/a", "courier", None),
        ("http://127.0.0.1:8000/2021/03/14/", "127.0.0.1", "2021-03-14"),
        ("http://localhost/a", None, None),
        ("not a url", None, None),
        ("", None, None),
        ("http://[bad", None, None),
    ],
)
def test_url_source_and_date(url, source, date):
    assert source_from_url(url) == source
    assert date_from_url(url) == date
