"""Implausible publication dates are dropped at read time with a warning; the article stays."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from newsloom.config import Settings, load_settings
from newsloom.ingest import read_inputs, record_article
from newsloom.models import Article

TEXT = "The council voted on the new bridge today after a long debate in the town hall."


def _in_days(days: int) -> str:
    return (dt.datetime.now(dt.UTC).date() + dt.timedelta(days=days)).isoformat()


# (published as written, kept value or None, words the warning holds)
ROWS = [
    ("2021-03-14", "2021-03-14", None),
    ("1900-01-01", "1900-01-01", None),
    ("1899-12-31", None, "before 1900"),
    ("1800-06-01", None, "before 1900"),
    ("1500", None, "before 1900"),
    ("9999-12-31", None, "after"),
    ("9999", None, "after"),
    (_in_days(1), _in_days(1), None),
    (_in_days(30), None, "max_published_days_ahead = 2"),
]


def test_absurd_dates_in_a_jsonl_file_are_dropped_with_warnings(tmp_path):
    path = tmp_path / "feed.jsonl"
    path.write_text(
        "".join(
            json.dumps({"text": f"{TEXT} ({i})", "date": d}) + "\n"
            for i, (d, _, _) in enumerate(ROWS)
        )
    )
    items = list(read_inputs([str(path)], Settings()))
    assert all(isinstance(a, Article) for a in items), items
    for article, (raw, kept, warning) in zip(items, ROWS, strict=True):
        assert isinstance(article, Article)
        assert article.published == kept, raw
        if warning is None:
            assert not article.warnings, article.warnings
        else:
            (message,) = article.warnings
            assert warning in message and raw in message and "dropped" in message


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("courier_1850-03-14_bridge.txt", f"{TEXT}\n"),
        ("bridge.txt", f" date 9999-12-31 RIVERTON • {TEXT}\n"),
        ("bridge.json", json.dumps({"text": TEXT, "published": "0001-01-01"})),
    ],
)
def test_every_reader_checks_the_date(tmp_path, name, content):
    path = tmp_path / name
    path.write_text(content)
    (article,) = list(read_inputs([str(path)], Settings()))
    assert isinstance(article, Article), article
    assert article.published is None
    assert any("dropped" in w for w in article.warnings), article.warnings


def test_the_range_is_configurable(tmp_path, monkeypatch):
    record = {"text": TEXT, "published": "1850-03-14"}
    assert record_article(record, "api:1", Settings()).published is None  # type: ignore[union-attr]
    older = Settings(min_published_year=1800)
    assert record_article(record, "api:1", older).published == "1850-03-14"  # type: ignore[union-attr]
    ahead = {"text": TEXT, "published": _in_days(30)}
    assert record_article(ahead, "api:1", Settings(max_published_days_ahead=40)).published
    monkeypatch.setenv("NEWSLOOM_MIN_PUBLISHED_YEAR", "1700")
    assert load_settings(None).min_published_year == 1700
