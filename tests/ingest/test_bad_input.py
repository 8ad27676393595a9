"""Bad input never stops a run: each file gets a one-line reason naming it, or is read
exactly. Includes the Hypothesis property over random bytes and odd encodings."""

from __future__ import annotations

import contextlib
import os
import tempfile
import tracemalloc

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from newsloom.config import Settings
from newsloom.ingest import read_inputs
from newsloom.models import Article, Skipped

LATIN_TEXT = "Le café est fermé à Paris, a déclaré le maire dimanche.\n"

# (file name, content, expected reason prefix)
SKIP_ROWS = [
    ("empty.txt", b"", "empty file"),
    ("blank.txt", b"  \n\t\r\n  ", "only whitespace"),
    ("bom-only.txt", b"\xef\xbb\xbf\n", "only whitespace"),
    ("nul.txt", bytes(range(256)) * 4, "binary file (NUL bytes)"),
    ("controls.txt", bytes(range(1, 9)) * 50 + b"text", "binary file (control characters)"),
    ("scan.pdf", b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj", "binary file (a PDF)"),
    ("archive.txt", b"\x1f\x8b\x08\x00" + bytes(100), "binary file (a gzip archive"),
    ("photo", b"\xff\xd8\xff\xe0\x00\x10JFIF", "binary file (a JPEG image)"),
    ("shift-jis.txt", "東京で大雨。市長は日曜日に語った。".encode("shift_jis"), "not UTF-8"),
    ("cp1251.txt", "Мэр заявил в воскресенье, что мост закрыт.".encode("cp1251"), "not UTF-8"),
    (
        "random.txt",
        bytes((i * 151 + 7) % 256 for i in range(1, 400) if (i * 151 + 7) % 256),
        "not UTF-8",
    ),
    ("empty.jsonl", b"\n\n", "empty file"),
    ("nul.jsonl", b'{"text": "a"}\x00\n', "binary file (NUL bytes)"),
    ("empty.html", b"", "empty file"),
    ("utf16-empty.txt", "   ".encode("utf-16"), "only whitespace"),
    ("bad-utf16.txt", b"\xff\xfe" + b"a\x00\x00\xd8", "not valid UTF-16"),
]


@pytest.mark.parametrize(("name", "content", "reason"), SKIP_ROWS)
def test_bad_files_are_skipped_with_a_one_line_reason(tmp_path, name, content, reason):
    path = tmp_path / name
    path.write_bytes(content)
    (item,) = list(read_inputs([str(path)], Settings()))
    assert isinstance(item, Skipped), item
    assert item.origin == str(path)
    assert item.reason.startswith(reason), item.reason
    assert "\n" not in item.reason


def test_not_utf8_reason_names_the_byte_and_says_how_to_convert(tmp_path):
    path = tmp_path / "sjis.txt"
    path.write_bytes(b"Tokyo: " + "東京で大雨".encode("shift_jis"))
    (item,) = list(read_inputs([str(path)], Settings()))
    assert isinstance(item, Skipped)
    assert "invalid byte 0x93 at offset 7" in item.reason and "iconv" in item.reason


def test_missing_path_and_empty_folder(tmp_path):
    (tmp_path / "empty").mkdir()
    items = list(read_inputs([str(tmp_path / "missing.txt"), str(tmp_path / "empty")], Settings()))
    assert [(type(i).__name__, i.origin) for i in items] == [
        ("Skipped", str(tmp_path / "missing.txt")),
        ("Skipped", str(tmp_path / "empty")),
    ]


def test_latin1_text_is_read_as_cp1252_with_a_warning_and_no_path(tmp_path):
    path = tmp_path / "latin.txt"
    path.write_bytes(LATIN_TEXT.encode("latin-1"))
    (article,) = list(read_inputs([str(path)], Settings()))
    assert isinstance(article, Article)
    assert article.text == LATIN_TEXT
    assert article.path is None and article.origin == str(path)
    assert article.warnings and article.warnings[0].startswith("not UTF-8 (invalid byte 0xe9")
    assert "iconv -f cp1252" in article.warnings[0]


def test_cp1252_curly_quotes_are_read(tmp_path):
    path = tmp_path / "quotes.txt"
    text = "\u201cWe will rebuild,\u201d the mayor said. It\u2019s done.\n"
    path.write_bytes(text.encode("cp1252"))
    (article,) = list(read_inputs([str(path)], Settings()))
    assert isinstance(article, Article) and article.text == text


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32"])
def test_text_with_a_byte_order_mark_is_decoded_with_a_warning(tmp_path, encoding):
    text = "Council Approves New Bridge\n\nRIVERTON • The council met.\n"
    raw = text.encode(encoding)
    if encoding == "utf-16-be":
        raw = b"\xfe\xff" + raw
    path = tmp_path / "wide.txt"
    path.write_bytes(raw)
    (article,) = list(read_inputs([str(path)], Settings()))
    assert isinstance(article, Article), article
    assert article.text == text and article.path is None
    assert article.title == "Council Approves New Bridge"
    assert "iconv -f utf-" in article.warnings[0]


def test_a_50_mb_file_is_skipped_without_being_read(tmp_path):
    path = tmp_path / "huge.txt"
    with open(path, "wb") as fh:
        fh.truncate(50_000_000)  # sparse: instant, takes no disk
    tracemalloc.start()
    try:
        (item,) = list(read_inputs([str(path)], Settings()))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert isinstance(item, Skipped) and item.origin == str(path)
    assert item.reason.startswith("file too large (50.0 MB, limit 20.0 MB)")
    assert "max_file_bytes" in item.reason
    assert peak < 5_000_000  # the 50 MB were never loaded


def test_the_limit_comes_from_settings(tmp_path):
    path = tmp_path / "a.txt"
    path.write_text("The council met on Sunday.\n", encoding="utf-8")
    (item,) = list(read_inputs([str(path)], Settings(max_file_bytes=10)))
    assert isinstance(item, Skipped) and item.reason.startswith("file too large")
    (item,) = list(read_inputs([str(path)], Settings(max_file_bytes=27)))
    assert isinstance(item, Article)


def test_run_goes_on_past_bad_files_in_order(tmp_path):
    (tmp_path / "a.txt").write_text("First article.\n", encoding="utf-8")
    (tmp_path / "b.txt").write_bytes(b"")
    (tmp_path / "c.txt").write_bytes(bytes(range(256)))
    (tmp_path / "d.txt").write_text("Last article.\n", encoding="utf-8")
    items = list(read_inputs([str(tmp_path), str(tmp_path / "nope")], Settings()))
    assert [type(i).__name__ for i in items] == [
        "Article",
        "Skipped",
        "Skipped",
        "Article",
        "Skipped",
    ]


def test_reading_streams(tmp_path):
    for i in range(3):
        (tmp_path / f"{i}.txt").write_text(f"Article {i}.\n", encoding="utf-8")
    items = read_inputs([str(tmp_path)], Settings())
    first = next(items)  # a generator: the first article comes before the rest are read
    assert isinstance(first, Article) and first.text == "Article 0.\n"
    (tmp_path / "2.txt").unlink()  # gone before its turn: reported, not a crash
    rest = list(items)
    assert [type(i).__name__ for i in rest] == ["Article", "Skipped"]
    assert isinstance(rest[1], Skipped) and rest[1].reason.startswith("cannot read")


def test_a_crashing_reader_is_reported_not_raised(tmp_path, monkeypatch):
    import newsloom.ingest as ingest

    def boom(*_a, **_k):
        raise RuntimeError("parser exploded")

    monkeypatch.setattr(ingest, "text_article", boom)
    (tmp_path / "a.txt").write_text("Text.\n", encoding="utf-8")
    (item,) = list(read_inputs([str(tmp_path / "a.txt")], Settings()))
    assert isinstance(item, Skipped) and "parser exploded" in item.reason


# --- property: nothing crashes, everything read is exact -------------------------------

HEADERS = [
    "",
    " date 2021-03-14 ",
    "date 2021-02-30 ",
    "url: https://www.x.example/2021/03/14/a\n",
    "Title Line Here\n\n",
    "PARIS • ",
    "A (Photo: B)\n\n",
    "\ufeff",
    "\r\n\r\n",
    "HARBOR CITY — ",
]
texts = st.builds(lambda h, t: h + t, st.sampled_from(HEADERS), st.text(max_size=300))
contents = st.one_of(
    st.binary(max_size=600),
    texts.map(lambda t: t.encode("utf-8", "surrogatepass")),
    texts.map(lambda t: t.encode("utf-16")),
    st.text(alphabet=st.characters(max_codepoint=255), max_size=300).map(
        lambda t: t.encode("latin-1")
    ),
    st.text(max_size=200).map(lambda t: f'{{"text": {t}}}\n'.encode("utf-8", "surrogatepass")),
)


def decodings(raw: bytes) -> set[str]:
    out = set()
    for enc in ("utf-8", "utf-16", "utf-32", "cp1252"):
        with contextlib.suppress(UnicodeDecodeError):
            out.add(raw.decode(enc))
    return out


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(raw=contents, suffix=st.sampled_from([".txt", "", ".jsonl", ".json", ".html", ".md"]))
def test_any_bytes_give_exact_articles_or_a_skip_naming_the_file(raw, suffix):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "input" + suffix)
        with open(path, "wb") as fh:
            fh.write(raw)
        items = list(read_inputs([path], Settings()))
        assert items
        for item in items:
            assert isinstance(item, Article | Skipped)
            assert path in item.origin
            if isinstance(item, Skipped):
                assert item.reason and "\n" not in item.reason
                continue
            assert item.text.strip()
            for span in (item.title_span, item.dateline):
                if span is not None:
                    assert item.text[span.start : span.end] == span.text
            assert 0 <= item.body_start <= len(item.text)
            if item.path is not None:
                with open(item.path, encoding="utf-8", newline="") as fh:
                    assert fh.read() == item.text
            elif item.format == "text":
                assert item.text in decodings(raw) and item.warnings
