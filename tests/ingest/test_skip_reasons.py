"""Skip reasons say what is really wrong: UTF-16 without a byte-order mark, HTML nested too
deeply for the parser, a JSON `text` of the wrong type, and NUL bytes wherever they are."""

from __future__ import annotations

import json

import pytest

from newsloom.config import Settings
from newsloom.ingest import read_inputs
from newsloom.models import Article, SkipCode, Skipped

PROSE = "The council voted on the new bridge today after a long debate in the town hall.\n"
HEAD = 8192  # what the binary sniff used to look at


def _read(path, settings: Settings | None = None) -> list[Article | Skipped]:
    return list(read_inputs([str(path)], settings or Settings()))


@pytest.mark.parametrize(("codec", "name"), [("utf-16-le", "utf-16le"), ("utf-16-be", "utf-16be")])
def test_utf16_without_bom_is_named_with_the_iconv_command(tmp_path, codec, name):
    path = tmp_path / "export.txt"
    path.write_bytes((PROSE * 5).encode(codec))
    (item,) = _read(path)
    assert isinstance(item, Skipped), item
    assert item.code is SkipCode.ENCODING
    assert "UTF-16 without a byte-order mark" in item.reason
    assert f"iconv -f {name} -t utf-8" in item.reason
    assert "binary" not in item.reason


def test_utf16_jsonl_without_bom_is_one_skip_naming_the_encoding(tmp_path):
    path = tmp_path / "feed.jsonl"
    path.write_bytes((json.dumps({"text": PROSE}) + "\n").encode("utf-16-le") * 3)
    (item,) = _read(path)
    assert isinstance(item, Skipped) and item.code is SkipCode.ENCODING
    assert "iconv -f utf-16le -t utf-8" in item.reason


def test_random_bytes_with_nuls_stay_binary(tmp_path):
    path = tmp_path / "blob.txt"
    path.write_bytes(bytes((i * 151 + 7) % 256 for i in range(4000)))
    (item,) = _read(path)
    assert isinstance(item, Skipped) and item.code is SkipCode.BINARY


def test_html_nested_too_deeply_says_so(tmp_path):
    path = tmp_path / "deep.html"
    body = f"<p>{PROSE * 4}</p>"
    path.write_text(f"<html><body>{'<div>' * 400}{body}{'</div>' * 400}</body></html>")
    (item,) = _read(path)
    assert isinstance(item, Skipped), item
    assert "nested too deeply" in item.reason
    assert "no main text" not in item.reason
    assert item.code is SkipCode.BAD_HTML


def test_html_nested_within_the_limit_is_read(tmp_path):
    path = tmp_path / "fine.html"
    body = f"<p>{PROSE * 4}</p>"
    path.write_text(f"<html><body>{'<div>' * 100}{body}{'</div>' * 100}</body></html>")
    (item,) = _read(path)
    assert isinstance(item, Article), item


@pytest.mark.parametrize(
    ("value", "kind"),
    [(42, "a number"), (4.5, "a number"), (True, "true or false"), ({"a": 1}, "an object")],
)
def test_jsonl_text_of_the_wrong_type_says_so(tmp_path, value, kind):
    path = tmp_path / "feed.jsonl"
    path.write_text(json.dumps({"body": value, "title": "t"}) + "\n")
    (item,) = _read(path)
    assert isinstance(item, Skipped) and item.code is SkipCode.NO_TEXT
    assert "no article text" not in item.reason
    assert f"`body` is {kind}" in item.reason


def test_jsonl_without_a_text_field_still_says_no_text(tmp_path):
    path = tmp_path / "feed.jsonl"
    path.write_text(json.dumps({"title": "t"}) + "\n")
    (item,) = _read(path)
    assert isinstance(item, Skipped) and item.reason.startswith("no article text")


@pytest.mark.parametrize("name", ["late.txt", "late.html", "late.json", "late"])
def test_a_nul_byte_after_the_first_8kb_skips_the_file(tmp_path, name):
    """NUL bytes mean binary wherever they are: a whole-file format is skipped whole."""
    filler = PROSE * (2 * HEAD // len(PROSE))
    if name.endswith(".json"):
        data = json.dumps({"text": filler}).encode()
        data = data[:-2] + b"\x00" + data[-2:]
    elif name.endswith(".html"):
        data = f"<html><body><p>{filler}</p></body></html>".encode()
        data = data[:-20] + b"\x00" + data[-20:]
    else:
        data = filler.encode() + b"\x00 and the rest.\n"
    assert data.index(b"\x00") > HEAD
    path = tmp_path / name
    path.write_bytes(data)
    (item,) = _read(path)
    assert isinstance(item, Skipped), item
    assert item.code is SkipCode.BINARY and "NUL" in item.reason


def test_a_nul_in_a_late_jsonl_line_skips_that_line_only(tmp_path):
    """JSONL is read line by line: a line with a NUL (raw or as \\u0000) is skipped alone."""
    good = json.dumps({"text": PROSE * 3}) + "\n"
    lines = [good] * (HEAD // len(good) + 2)
    lines.append('{"text": "a raw \x00 NUL"}\n')
    lines.append(json.dumps({"text": "escaped NUL: \x00 here"}) + "\n")
    lines.append(good)
    path = tmp_path / "feed.jsonl"
    path.write_text("".join(lines))
    items = _read(path)
    skipped = [i for i in items if isinstance(i, Skipped)]
    assert [s.origin for s in skipped] == [
        f"{path}:{len(lines) - 2}",
        f"{path}:{len(lines) - 1}",
    ]
    assert all(s.code is SkipCode.BINARY and "NUL" in s.reason for s in skipped)
    assert len(items) - len(skipped) == len(lines) - 2
    assert not any("\x00" in i.text for i in items if isinstance(i, Article))


def test_a_record_with_a_nul_in_its_text_is_refused():
    from newsloom.ingest import record_article

    item = record_article({"text": "a\x00b"}, "api:1", Settings())
    assert isinstance(item, Skipped) and item.code is SkipCode.BINARY
