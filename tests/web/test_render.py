"""The HTML helpers and the store's search, table-driven, with negative rows."""

from __future__ import annotations

import re

import pytest

from newsloom.render.html import Highlight, http_url, snippet_pieces, text_pieces, word_diff
from newsloom.store.search import search_terms, split_snippet


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://example.org/a?b=1", "https://example.org/a?b=1"),
        ("HTTP://EXAMPLE.ORG/", "HTTP://EXAMPLE.ORG/"),
        ("javascript:alert(1)", None),
        ("JaVaScRiPt:alert(1)", None),
        (" javascript:alert(1)", None),
        ("java\tscript:alert(1)", None),
        ("data:text/html,<script>alert(1)</script>", None),
        ("//evil.example/x", None),
        ("https:///nohost", None),
        ("", None),
        (None, None),
    ],
)
def test_only_http_urls_become_links(url, expected):
    assert http_url(url) == expected


@pytest.mark.parametrize(
    ("base", "other", "expected"),
    [
        ("we will rebuild", "we will rebuild", [("same", "we will rebuild")]),
        (
            "we will rebuild",
            "we will not rebuild",
            [("same", "we will "), ("ins", "not "), ("same", "rebuild")],
        ),
        ("we will rebuild it", "we will rebuild", [("same", "we will rebuild"), ("del", " it")]),
        (
            "the city would ask",
            "the mayor would ask",
            [("same", "the "), ("del", "city"), ("ins", "mayor"), ("same", " would ask")],
        ),
        ("a  b", "a b", [("same", "a b")]),
        ("a b", "a\nb", [("same", "a\nb")]),
    ],
)
def test_word_diff(base, other, expected):
    pieces = word_diff(base, other)
    assert pieces == expected
    assert "".join(t for op, t in pieces if op != "del") == other  # the wording shown is exact


def _render(text: str, marks: list[Highlight]) -> str:
    out = []
    for kind, value in text_pieces(text, marks):
        if kind == "text":
            out.append(value)
        elif kind == "open":
            out.append(f"[{value['id'] or '+' + value['part_of']}|")
        else:
            out.append("]")
    return "".join(out)


@pytest.mark.parametrize(
    ("text", "spans", "expected"),
    [
        ("abcdef", [(1, 3)], "a[q-1-3|bc]def"),
        ("abcdef", [(0, 6), (2, 4)], "[q-0-6|ab[q-2-4|cd]ef]"),
        ("abcdef", [(0, 3), (2, 5)], "[q-0-3|ab[q-2-5|c]][+q-2-5|de]f"),  # crossing: cut, continued
        ("abcdef", [(0, 2), (2, 4)], "[q-0-2|ab][q-2-4|cd]ef"),
        ("abc", [(2, 9), (-1, 1), (1, 1)], "abc"),  # out of range or empty: not marked
        ("", [], ""),
    ],
)
def test_text_pieces_nest_and_keep_the_text(text, spans, expected):
    marks = [Highlight(s, e, {"quote"}) for s, e in spans]
    rendered = _render(text, marks)
    assert rendered == expected
    assert "".join(v for k, v in text_pieces(text, marks) if k == "text") == text


@pytest.mark.parametrize(
    ("marked", "plain", "highlights"),
    [
        ("a \x02b\x03 c", "a b c", [(2, 3)]),
        ("\x02ab\x03\x02c\x03", "abc", [(0, 2), (2, 3)]),
        ("none", "none", []),
        ("\x03odd\x02", "odd", []),
    ],
)
def test_split_snippet(marked, plain, highlights):
    assert split_snippet(marked) == (plain, highlights)


def test_snippet_pieces():
    assert snippet_pieces("a <b> c", [[2, 5]]) == [(False, "a "), (True, "<b>"), (False, " c")]


@pytest.mark.parametrize(
    ("query", "terms"),
    [
        ("bridge collapse", ["bridge", "collapse"]),
        ('"NEAR(a b) OR *', ["NEAR", "a", "b", "OR"]),
        ("", []),
        ("!!!", []),
    ],
)
def test_search_terms_are_words_only(query, terms):
    assert search_terms(query) == terms


def test_fts_and_like_search_agree(corpus_db):
    from newsloom.store import open_store

    store = open_store(str(corpus_db))
    try:
        for query in ["thunder", "Whitcombe", "truss"]:  # whole words: both find the same spans
            fts = {(h.kind, h.article_id, h.start) for h in store.search(query, 200).hits}
            like = {
                (h.kind, h.article_id, h.start)
                for h in store._search_like(search_terms(query), 200).hits
            }
            assert like and like <= fts
        assert store.search("zzqxnotaword").hits == []
        assert store._search_like(["zzqxnotaword"], 5).hits == []
        for hit in store._search_like(["thunder"], 20).hits:
            for start, end in hit.highlights:
                assert re.fullmatch("thunder", hit.snippet[start:end], re.IGNORECASE)
    finally:
        store.close()
