"""Every skipped input carries a reason code beside its message, and the export keeps it."""

from __future__ import annotations

import json

import pytest

from newsloom.config import Settings
from newsloom.ingest import read_inputs
from newsloom.ingest.jsonl import record_article
from newsloom.models import Corpus, SkipCode, Skipped

# (file name, content, expected code): one row per way a reader refuses an input.
CODE_ROWS = [
    ("empty.txt", b"", SkipCode.EMPTY),
    ("blank.txt", b"  \n\t  ", SkipCode.EMPTY),
    ("nul.txt", bytes(range(256)) * 4, SkipCode.BINARY),
    ("scan.pdf", b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj", SkipCode.BINARY),
    ("shift-jis.txt", "東京で大雨。市長は日曜日に語った。".encode("shift_jis"), SkipCode.ENCODING),
    ("empty.jsonl", b"\n\n", SkipCode.EMPTY),
    ("broken.json", b'{"text": ', SkipCode.BAD_JSON),
    ("number.json", b"42", SkipCode.BAD_JSON),
    ("array.json", b"[]", SkipCode.EMPTY),
    ("empty.html", b"", SkipCode.EMPTY),
    ("index.html", b"<html><body><p>Home</p></body></html>", SkipCode.NO_TEXT),
]


@pytest.mark.parametrize(("name", "content", "code"), CODE_ROWS)
def test_each_refusal_has_its_code(tmp_path, name, content, code):
    path = tmp_path / name
    path.write_bytes(content)
    (item,) = list(read_inputs([str(path)], Settings()))
    assert isinstance(item, Skipped), item
    assert item.code is code, item.reason


def test_jsonl_lines_and_paths_have_codes(tmp_path):
    feed = tmp_path / "feed.jsonl"
    feed.write_bytes(b'[1]\n{"title": "no text"}\nnot json\n\xff\xfe\n')
    codes = [i.code for i in read_inputs([str(feed)], Settings()) if isinstance(i, Skipped)]
    assert codes == [SkipCode.BAD_JSON, SkipCode.NO_TEXT, SkipCode.BAD_JSON, SkipCode.ENCODING]
    (missing,) = read_inputs([str(tmp_path / "nowhere")], Settings())
    assert isinstance(missing, Skipped) and missing.code is SkipCode.NOT_FOUND
    big = tmp_path / "big.txt"
    big.write_text("word " * 100)
    (large,) = read_inputs([str(big)], Settings(max_file_bytes=10))
    assert isinstance(large, Skipped) and large.code is SkipCode.TOO_LARGE
    assert record_article("x", "api:1", Settings()).code is SkipCode.BAD_JSON


def test_the_export_writes_the_code_as_a_string():
    corpus = Corpus(
        articles=[],
        stories=[],
        skipped=[Skipped(origin="a.txt", reason="empty file", code=SkipCode.EMPTY)],
    )
    doc = json.loads(corpus.model_dump_json())
    assert doc["skipped"] == [{"origin": "a.txt", "reason": "empty file", "code": "empty"}]
