"""The HTML helpers and the store's search, table-driven, with negative rows."""

from __future__ import annotations

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


# -- the coverage chart: a bounded number of bars whatever the span ---------------------------


def _dated(*days: str) -> list:
    from newsloom.models import Article

    return [
        Article(id=f"a{i}", text="x", origin=f"a{i}", source=f"s{i % 3}", published=d)
        for i, d in enumerate(days)
    ]


@pytest.mark.parametrize(
    ("first", "last", "unit", "bars"),
    [
        ("2024-03-01", "2024-03-01", "day", 1),
        ("2024-03-01", "2024-03-10", "day", 10),
        ("2024-03-01", "2024-05-01", "day", 62),
        ("2024-03-04", "2024-09-01", "week", 26),  # Monday to Sunday: 26 whole weeks
        ("2021-01-15", "2024-03-10", "month", 39),
        ("1990-06-01", "2024-03-10", "year", 35),
        ("1900-01-01", "2024-03-10", "5 years", 25),
        ("1000-01-01", "9999-12-31", "250 years", 36),
    ],
)
def test_coverage_chart_picks_a_unit_that_bounds_the_bars(first, last, unit, bars):
    from newsloom.render.html import MAX_CHART_BARS, coverage_chart

    chart = coverage_chart(_dated(first, last, last))
    assert chart is not None
    assert chart["unit"] == unit
    assert len(chart["bars"]) == bars <= MAX_CHART_BARS
    assert sum(b["count"] for b in chart["bars"]) == 3
    if bars > 1:
        assert chart["bars"][0]["count"] == 1 and chart["bars"][-1]["count"] == 2
    if unit == "week":
        assert chart["first"] == "week of 2024-03-04" and chart["last"] == "week of 2024-08-26"


def test_a_story_spanning_centuries_renders_a_bounded_chart():
    """Dates from 1800 to 9999 (if a store holds them) no longer mean 98,400 bars."""
    from newsloom.render.html import MAX_CHART_BARS, Pages
    from newsloom.stories import consolidate
    from tests.stories.builders import analysis

    years = [1800, 1850, 1900, 1950, 2000, 2024, 5000, 9999]
    analyses = [
        analysis(
            f"a{y}",
            f"Floods forced residents of Riverton from their homes in {y}.",
            source=f"Outlet {y}",
            published=f"{y}-03-04",
        )
        for y in years
    ]
    story = consolidate(analyses)
    page = Pages().story(story, {a.article.id: a for a in analyses})
    assert 1 <= page.count('class="bar"') <= MAX_CHART_BARS
    assert len(page) < 200_000


# -- written files respect the umask (they used to keep the temporary file's 0600) ------------


@pytest.fixture()
def umask():
    """Set the process umask for one test (pytest runs tests in one thread), then restore it."""
    import os

    saved = os.umask(0o022)

    def set_umask(mask: int) -> int:
        os.umask(mask)
        return mask

    yield set_umask
    os.umask(saved)


def _mode(path) -> int:
    import stat

    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.parametrize("mask", [0o022, 0o002, 0o077, 0o027])
def test_the_json_export_respects_the_umask(tmp_path, umask, mask):
    from newsloom.models import Corpus
    from newsloom.render.json import write_corpus

    umask(mask)
    out = tmp_path / "out" / "corpus.json"
    write_corpus(Corpus(articles=[], stories=[]), out)
    assert _mode(out) == 0o666 & ~mask
    write_corpus(Corpus(articles=[], stories=[]), out)  # replacing a file: the same mode
    assert _mode(out) == 0o666 & ~mask
    assert [p.name for p in out.parent.iterdir()] == ["corpus.json"]  # no temporary left


def test_report_pages_respect_the_umask(tmp_path, umask, memory_store):
    from newsloom.render.html import write_report
    from newsloom.stories import consolidate
    from tests.stories.builders import analysis

    analyses = [
        analysis(
            f"a{i}",
            f"Floods forced residents of Riverton from their homes ({i}).",
            source=f"Outlet {i}",
            published=f"2024-03-0{i + 1}",
        )
        for i in range(2)
    ]
    memory_store.add_analyses(analyses)
    memory_store.replace_stories([consolidate(analyses)])
    mask = umask(0o027)
    summary = write_report(memory_store, tmp_path / "site")
    assert summary.stories == 1 and summary.articles == 2
    pages = sorted((tmp_path / "site").rglob("*.*"))
    assert any(p.name.startswith("story-") for p in pages)
    assert {p.name: _mode(p) for p in pages} == {p.name: 0o666 & ~mask for p in pages}


# -- readable variants: marks only between near-identical wordings ---------------------------

FULL = "We will rebuild this city together, stronger than before, whatever it takes"
CUT = "We will rebuild this city together, stronger"  # a truncation
SWAPPED = FULL.replace("city", "town")  # one word changed
REWORDED = "Together we will build the city again, stronger than ever"  # a paraphrase


def _wording_figures(page: str) -> dict[str, str]:
    """Each wording's figure on a story page, keyed by the wording's plain text."""
    import html
    import re

    figures = re.findall(r'<figure class="wording">(.*?)</figure>', page, re.S)
    plain = {}
    for figure in figures:
        quote = re.search(r"<blockquote[^>]*>(.*?)</blockquote>", figure, re.S)
        assert quote is not None
        shown = re.sub(r"<del>.*?</del>", "", quote.group(1), flags=re.S)
        plain[html.unescape(re.sub(r"<[^>]+>", "", shown))] = figure
    return plain


def test_a_paraphrase_is_shown_as_written_while_a_truncation_is_marked():
    from newsloom.render.html import Pages
    from newsloom.stories import consolidate
    from tests.stories.builders import analysis

    said = [("a1", FULL), ("a2", FULL), ("a3", CUT), ("a4", REWORDED), ("a5", SWAPPED)]
    analyses = [
        analysis(aid, f'"{text}," Jane Roe said.', source=f"Outlet {aid}", quotes=[(text, "Roe")])
        for aid, text in said
    ]
    story = consolidate(analyses)
    (quote,) = story.quotes
    variants = {m.text: m.variant for m in quote.mentions}
    assert variants == {
        FULL: "identical",
        CUT: "truncated",
        REWORDED: "paraphrased",
        SWAPPED: "paraphrased",
    }
    figures = _wording_figures(Pages().story(story, {a.article.id: a for a in analyses}))
    assert set(figures) == {FULL, CUT, REWORDED, SWAPPED}
    assert "<del>" in figures[CUT] and ">truncated<" in figures[CUT]
    assert "<del>city</del><ins>town</ins>" in figures[SWAPPED]  # a word change is marked
    reworded = figures[REWORDED]
    assert "<del>" not in reworded and "<ins>" not in reworded  # shown as written
    assert f">{REWORDED}</blockquote>" in reworded and ">paraphrased<" in reworded
    assert "<del>" not in figures[FULL] and "<ins>" not in figures[FULL]


@pytest.mark.parametrize(
    ("other", "variants", "indirect", "near"),
    [
        (CUT, {"truncated"}, False, True),
        (FULL + " and more", {"extended"}, False, True),
        (FULL.replace("city", "c**y"), {"censored"}, False, True),
        (SWAPPED, {"paraphrased"}, False, True),
        (REWORDED, {"paraphrased"}, False, False),
        (REWORDED, {"word_change"}, False, True),  # a tracked word change: marked, as labelled
        (CUT, {"merged"}, False, False),
        (CUT, {"truncated"}, True, False),  # an indirect report is never marked
        (SWAPPED, set(), False, True),  # unlabelled: by word similarity
        (REWORDED, set(), False, False),
    ],
)
def test_near_wording(other, variants, indirect, near):
    from newsloom.render.html import near_wording

    assert near_wording(FULL, other, variants, indirect) is near
