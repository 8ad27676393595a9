"""The metadata stage: dateline, title and URL-derived fields the reader could not fill."""

from __future__ import annotations

import re

import pytest

from newsloom.analyze.stages import STAGES
from newsloom.analyze.stages.metadata import fill_metadata
from newsloom.config import Settings
from newsloom.models import Article, ArticleAnalysis, Paragraph, Span, article_id
from newsloom.pipeline import StageContext

LEDE = "The mayor said on Sunday that the bridge would reopen. Crews worked all night."


def paragraphs_of(text: str, labels: list[str]) -> list[Paragraph]:
    """Paragraphs of ``text`` (split at newlines) labelled in order, as boilerplate would."""
    spans = [(m.start(), m.end()) for m in re.finditer(r"[^\n]*\S[^\n]*", text)]
    assert len(spans) == len(labels), spans
    return [
        Paragraph(start=s, end=e, label=lab)  # type: ignore[arg-type]
        for (s, e), lab in zip(spans, labels, strict=True)
    ]


def run(text: str, labels: list[str], **fields) -> Article:
    article = Article(id=article_id(text), text=text, origin="<test>", **fields)
    analysis = ArticleAnalysis(article=article, paragraphs=paragraphs_of(text, labels))
    ctx = StageContext(article=article, doc=None, settings=Settings(), analysis=analysis)
    fill_metadata(ctx)
    assert ctx.article is ctx.analysis.article
    return ctx.article


# (text, paragraph labels, expected dateline, expected title)
ROWS = [
    # a caption came first, so the reader found no dateline: the first body paragraph has it
    (
        "Jane Roe and John Doe (Photo: Archive Picture)\n\nPARIS — " + LEDE,
        ["caption", "body"],
        "PARIS",
        None,
    ),
    # a headline followed by a single newline: boilerplate labels it, the stage takes it
    (
        "Bridge To Reopen\nWASHINGTON (AP) — " + LEDE,
        ["title", "body"],
        "WASHINGTON",
        "Bridge To Reopen",
    ),
    (
        "  Bridge To Reopen  \nLOS ANGELES, Calif. - " + LEDE,
        ["title", "body"],
        "LOS ANGELES, Calif.",
        "Bridge To Reopen",
    ),
    (
        "Jane Roe (Photo: Kim Lee)\nBridge To Reopen\nHARBOR CITY • " + LEDE,
        ["caption", "title", "body"],
        "HARBOR CITY",
        "Bridge To Reopen",
    ),
    # not datelines: lowercase word + dash, title-case place, a lead-in word, one letter
    ("well — " + LEDE, ["body"], None, None),
    ("Paris — " + LEDE, ["body"], None, None),
    ("BREAKING — " + LEDE, ["body"], None, None),
    ("I — " + LEDE, ["body"], None, None),
    # a dateline later in the text is not the article's dateline
    (LEDE + "\n\nPARIS — Officials met.", ["body", "body"], None, None),
    # a paragraph labelled title after the body started is a mid-text headline, not the title
    (LEDE + "\nSinger Spotted Leaving Court", ["body", "title"], None, None),
    # the lede is never turned into a title
    (LEDE, ["body"], None, None),
    # nothing labelled body, or nothing at all
    ("Watch the clip below:", ["call_to_action"], None, None),
    ("", [], None, None),
]


@pytest.mark.parametrize(("text", "labels", "dateline", "title"), ROWS)
def test_dateline_and_title(text, labels, dateline, title):
    article = run(text, labels)
    assert (article.dateline.text if article.dateline else None) == dateline
    assert article.title == title
    assert (article.title_span is not None) is (title is not None)
    for span in (article.dateline, article.title_span):
        if span is not None:
            assert text[span.start : span.end] == span.text


def test_sentences_from_the_parse_are_not_needed_but_a_real_doc_is_fine(nlp):
    text = "Jane Roe (Photo: Kim Lee)\n\nHARBOR CITY — Mr. Doe, 52, said the road was closed."
    article = Article(id=article_id(text), text=text, origin="<test>")
    analysis = ArticleAnalysis(article=article, paragraphs=paragraphs_of(text, ["caption", "body"]))
    ctx = StageContext(article=article, doc=nlp(text), settings=Settings(), analysis=analysis)
    fill_metadata(ctx)
    assert ctx.article.dateline == Span(start=27, end=38, text="HARBOR CITY")


def test_what_the_reader_found_is_kept():
    text = "Bridge To Reopen\nLONDON — " + LEDE
    found = {
        "title": "Reader Title",
        "source": "courier",
        "published": "2020-01-01",
        "url": "https://www.other.example/2021/03/14/x",
        "dateline": Span(start=17, end=23, text="LONDON"),
    }
    article = run(text, ["title", "body"], **found)
    assert {k: getattr(article, k) for k in found} == found
    assert article.title_span is None


@pytest.mark.parametrize(
    ("url", "published", "source"),
    [
        ("https://www.daily-courier.example/2021/03/14/bridge", "2021-03-14", "daily-courier"),
        ("https://news.example/world/2021/03/bridge-reopens", "2021-03", "news"),
        ("https://news.example/world/bridge-reopens", None, "news"),
        (None, None, None),
        ("garbage", None, None),
    ],
)
def test_url_gives_date_and_source(url, published, source):
    article = run(LEDE, ["body"], url=url)
    assert (article.published, article.source) == (published, source)


def test_stage_is_declared_with_its_contract():
    spec = next(s for s in STAGES if s.name == "metadata")
    assert spec.fn is fill_metadata
    assert spec.requires == ("paragraphs",) and spec.assigns == ("article",)
