"""analyze_articles: long texts parsed in chunks into one Doc with exact offsets, and the
per-article length cap (max_article_chars) giving a clear skip."""

from __future__ import annotations

import pytest

from newsloom.analyze import analyze_articles
from newsloom.config import Settings
from newsloom.models import Article, ArticleAnalysis, SkipCode, Skipped, article_id
from newsloom.nlp import MAX_CHUNK_CHARS, SPACY_MAX_LENGTH, parse_texts, split_chunks

PARAGRAPH = (
    'Mayor Dana Whitcombe said on Monday that the bridge "will reopen in the spring." '
    "Inspectors from Kessler Works arrived at 9 a.m. and left two hours later."
)

# (text, limit, the pieces expected): paragraph breaks first, then sentence ends, then
# whitespace, then a hard cut, in the second half of the window; each piece ends where the
# next begins.
CHUNK_ROWS = [
    ("short text", 20, ["short text"]),
    ("aaaa bbbb.\n\ncccc dddd eeee", 20, ["aaaa bbbb.\n\n", "cccc dddd eeee"]),
    ("aaaa bbbb.\n \n\ncccc dddd eeee", 20, ["aaaa bbbb.\n \n\n", "cccc dddd eeee"]),
    ("Aaaa bbbbb ccc. Dd eee fff", 20, ["Aaaa bbbbb ccc. ", "Dd eee fff"]),
    ('Aaaa bbbbb "cc." Dd eee fff', 20, ['Aaaa bbbbb "cc." ', "Dd eee fff"]),
    ("aaa bbbbbbb cccc dddd eeee", 20, ["aaa bbbbbbb cccc ", "dddd eeee"]),
    ("x" * 45, 20, ["x" * 20, "x" * 20, "x" * 5]),
    ("", 20, [""]),
]


@pytest.mark.parametrize(("text", "limit", "expected"), CHUNK_ROWS)
def test_split_chunks(text: str, limit: int, expected: list[str]) -> None:
    assert split_chunks(text, limit) == expected


def test_split_chunks_covers_the_text_in_bounded_pieces() -> None:
    text = "\n\n".join([PARAGRAPH] * 200)
    chunks = split_chunks(text, 1000)
    assert "".join(chunks) == text
    assert all(len(c) <= 1000 for c in chunks)
    assert all(c.endswith("\n\n") for c in chunks[:-1])  # every cut at a paragraph break


def test_parse_texts_joins_chunks_into_one_doc_with_exact_offsets(nlp) -> None:
    long = "\r\n\r\n".join([PARAGRAPH] * 30) + "\n"
    texts = ["A short one.", long, "", "Another short one."]
    docs = list(parse_texts(nlp, texts, batch_size=4, chunk_chars=1000))
    assert [d.text for d in docs] == texts
    doc, whole = docs[1], nlp(long)
    assert [(t.idx, t.text) for t in doc] == [(t.idx, t.text) for t in whole]
    assert all(long[t.idx : t.idx + len(t)] == t.text for t in doc)
    assert [(e.start_char, e.end_char, e.label_) for e in doc.ents] == [
        (e.start_char, e.end_char, e.label_) for e in whole.ents
    ]
    assert [s.start_char for s in doc.sents] == [s.start_char for s in whole.sents]


def test_spacy_refuses_a_whole_long_text(nlp) -> None:
    assert nlp.max_length == SPACY_MAX_LENGTH
    assert MAX_CHUNK_CHARS < SPACY_MAX_LENGTH < 1_000_000


def article(text: str, origin: str) -> Article:
    return Article(id=article_id(text), text=text, origin=origin)


def test_an_article_over_the_cap_is_skipped_with_its_reason() -> None:
    settings = Settings(max_article_chars=len(PARAGRAPH) * 2)
    batch = [
        article(PARAGRAPH, "one.txt"),
        article("\n\n".join([PARAGRAPH] * 3), "in/long.txt"),
        article(PARAGRAPH.replace("Monday", "Tuesday"), "three.txt"),
    ]
    first, skipped, third = analyze_articles(batch, settings)
    assert isinstance(first, ArticleAnalysis) and first.article.origin == "one.txt"
    assert isinstance(third, ArticleAnalysis) and third.article.origin == "three.txt"
    assert isinstance(skipped, Skipped) and skipped.code is SkipCode.TOO_LONG
    assert skipped.origin == "in/long.txt"
    size = f"{len(batch[1].text):,} characters"
    for words in ("in/long.txt", size, "max_article_chars", "NEWSLOOM_MAX_ARTICLE_CHARS"):
        assert words in skipped.reason


def test_the_default_cap_is_well_above_real_articles() -> None:
    assert Settings().max_article_chars >= 1_000_000


@pytest.mark.parametrize(
    ("text", "word", "dep"),
    [
        # Without a sentence start after the break, the parser made Shah the object of
        # "treated" in the paragraph before.
        (
            '"Every landowner will be treated fairly."\n\n'
            "Local councillor Amit Shah, who chaired the meeting, called for calm.",
            "Shah",
            "nsubj",
        ),
        ("The bridge reopened on Monday.\nTraffic was light.", "Traffic", "nsubj"),
    ],
)
def test_a_sentence_starts_after_every_line_break(nlp, text: str, word: str, dep: str) -> None:
    doc = nlp(text)
    after = text.index("\n") + 1
    first = next(t for t in doc if t.idx >= after and not t.is_space)
    assert first.is_sent_start
    assert all("\n" not in s.text.strip() for s in doc.sents)
    assert next(t for t in doc if t.text == word).dep_ == dep
