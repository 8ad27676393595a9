"""Claims stage: figures in the article's own reporting, normalised, each with its subject."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from newsloom.analyze.quantities import find_quantities, parse_number, precision
from newsloom.analyze.stages.claims import find_claims
from newsloom.config import Settings
from newsloom.models import (
    Article,
    ArticleAnalysis,
    Entity,
    EntityMention,
    Paragraph,
    Post,
    QuoteMention,
    Span,
    article_id,
)
from newsloom.pipeline import StageContext

# (text, [(matched text, kind, value, unit, bound)]) -- the number grammar alone.
QUANTITY_ROWS = [
    ("a payout of US$3 million", [("US$3 million", "money", 3e6, "USD", "exact")]),
    ("a $3m payout", [("$3m", "money", 3e6, "USD", "exact")]),
    ("paid $3,000,000 in total", [("$3,000,000", "money", 3e6, "USD", "exact")]),
    ("3 million dollars", [("3 million dollars", "money", 3e6, "USD", "exact")]),
    (
        "£1.5bn and €20,000",
        [("£1.5bn", "money", 1.5e9, "GBP", "exact"), ("€20,000", "money", 2e4, "EUR", "exact")],
    ),
    ("about $3m", [("about $3m", "money", 3e6, "USD", "approx")]),
    ("a two-year contract", [("two-year", "duration", 2.0, "year", "exact")]),
    ("after less than three years", [("less than three years", "duration", 3.0, "year", "below")]),
    ("more than 20 people", [("more than 20", "number", 20.0, None, "above")]),
    ("About 40 percent of them", [("About 40 percent", "percent", 40.0, "%", "approx")]),
    ("up 15% on the year", [("15%", "percent", 15.0, "%", "exact")]),
    ("5 per cent", [("5 per cent", "percent", 5.0, "%", "exact")]),
    ("the 33-year-old actress", [("33-year-old", "age", 33.0, "year", "exact")]),
    ("Roe, aged 45, said", [("aged 45", "age", 45.0, "year", "exact")]),
    ("2.5 kg of drugs", [("2.5 kg", "quantity", 2.5, "kg", "exact")]),
    ("twenty-five people", [("twenty-five", "number", 25.0, None, "exact")]),
    ("a dozen eggs", [("a dozen", "number", 12.0, None, "exact")]),
    # "over" a period means "during", not "more than".
    ("over three years", [("three years", "duration", 3.0, "year", "exact")]),
    # Negatives: dates, times, ordinals, identifiers and "one" are not figures.
    ("on March 3, 2021", []),
    ("on 3 March", []),
    ("in 2019", []),
    ("at 3pm or 10:30 or 5 p.m.", []),
    ("the 3rd time", []),
    ("COVID-19 and the G7", []),
    ("on 3/4/2021", []),
    ("one of them", []),
    ("in the 1990s", []),
]


@pytest.mark.parametrize(("text", "expected"), QUANTITY_ROWS)
def test_find_quantities(text, expected):
    found = [
        (text[q.start : q.end], q.kind, q.value, q.unit, q.bound) for q in find_quantities(text)
    ]
    assert found == expected


RANGE_ROWS = [
    ("jailed for three to five years", "three to five years", 3.0, 5.0, None),
    ("between 200 and 300 people", "between 200 and 300", 200.0, 300.0, "between"),
    ("$3m-$5m", "$3m-$5m", 3e6, 5e6, None),
    ("3 to 5 million", "3 to 5 million", 3e6, 5e6, None),
]


@pytest.mark.parametrize(("text", "matched", "low", "high", "qualifier"), RANGE_ROWS)
def test_ranges(text, matched, low, high, qualifier):
    (q,) = list(find_quantities(text))
    assert (text[q.start : q.end], q.value, q.value_high, q.qualifier) == (
        matched,
        low,
        high,
        qualifier,
    )


def test_a_range_never_crosses_a_line_break():
    found = [(q.value, q.value_high) for q in find_quantities("paid $3m to\n\n40 fans")]
    assert found == [(3e6, None), (40.0, None)]


def test_a_qualifier_never_crosses_a_line_break():
    found = [(q.start, q.qualifier) for q in find_quantities("it cost about \n\n $3m, aged\n40")]
    assert found == [(17, None), (27, None)]


def test_a_change_is_not_a_range():
    found = [(q.value, q.value_high) for q in find_quantities("rose from 3 to 5 percent")]
    assert (5.0, None) in found and all(high is None for _, high in found)


@pytest.mark.parametrize(
    ("text", "value"),
    [("3,000,000", 3e6), ("two", 2), ("twenty-five", 25), ("a dozen", 12), ("nonsense", None)],
)
def test_parse_number(text, value):
    assert parse_number(text) == value


@pytest.mark.parametrize(
    ("digits", "scale", "pad"),
    [("3", 1e6, 5e5), ("3.2", 1e6, 5e4), ("12,000", 1, 500), ("two", 1, 0.5)],
)
def test_precision(digits, scale, pad):
    assert precision(digits, scale) == pytest.approx(pad)


def _run(nlp, text, paragraphs=None, quotes=(), entities=(), posts=()):
    article = Article(id=article_id(text), text=text, origin="test")
    analysis = ArticleAnalysis(
        article=article,
        paragraphs=paragraphs
        if paragraphs is not None
        else [Paragraph(start=0, end=len(text), label="body")],
        quotes=list(quotes),
        entities=list(entities),
        posts=list(posts),
    )
    ctx = StageContext(article=article, doc=nlp(text), settings=Settings(), analysis=analysis)
    find_claims(ctx)
    return ctx.analysis.claims


# (text, [(claim text, kind, value, unit, subject)])
CLAIM_ROWS = [
    (
        "The club agreed a payout of US$3 million to Jane Roe.",
        [("US$3 million", "money", 3e6, "USD", "payout")],
    ),
    ("Roe received a $3m payout after she left.", [("$3m", "money", 3e6, "USD", "payout")]),
    ("According to the paper, the payout was $3m.", [("$3m", "money", 3e6, "USD", "payout")]),
    (
        "She signed a two-year contract with the club.",
        [("two-year", "duration", 2.0, "year", "contract")],
    ),
    (
        "She left after less than three years.",
        [("less than three years", "duration", 3.0, "year", "leave")],
    ),
    (
        "The company paid $3,000,000 to settle the case.",
        [("$3,000,000", "money", 3e6, "USD", "pay")],
    ),
    (
        "About 40 percent of residents were evacuated.",
        [("About 40 percent", "percent", 40.0, "%", "resident")],
    ),
    ("Officers seized 2.5 kg of drugs.", [("2.5 kg", "quantity", 2.5, "kg", "drug")]),
    (
        "Five people died and three children were injured.",
        [("Five", "count", 5.0, None, "people"), ("three", "count", 3.0, None, "child")],
    ),
    # Negatives: a date is not money, a bare year is not a count, a lone number counts nothing.
    ("The deal was signed on March 3, 2021 in Paris.", []),
    ("The season began in 2019.", []),
    ("The score was 2 at half time.", []),
]


@pytest.mark.parametrize(("text", "expected"), CLAIM_ROWS)
def test_claims(nlp, text, expected):
    claims = _run(nlp, text)
    assert [(c.text, c.kind, c.value, c.unit, c.subject) for c in claims] == expected
    for c in claims:
        assert text[c.start : c.end] == c.text
        assert c.sentence_start <= c.start < c.end <= c.sentence_end


def test_qualifier_is_kept(nlp):
    (claim,) = _run(nlp, "She left after less than three years.")
    assert (claim.qualifier, claim.bound) == ("less than", "below")


def test_number_in_a_quote_is_the_speakers(nlp):
    text = 'Roe said: "We paid $5 million for it." The club paid $3 million.'
    quote_start = text.index('"')
    quote_end = text.index('"', quote_start + 1) + 1
    quote = QuoteMention(start=quote_start, end=quote_end, text=text[quote_start:quote_end])
    claims = _run(nlp, text, quotes=[quote])
    assert [c.text for c in claims] == ["$3 million"]


def test_indirect_speech_is_own_reporting(nlp):
    text = "Police said the thieves took $5 million."
    span = text.index("the thieves")
    quote = QuoteMention(start=span, end=len(text) - 1, text=text[span:-1], kind="indirect")
    assert [c.text for c in _run(nlp, text, quotes=[quote])] == ["$5 million"]


def test_only_body_paragraphs(nlp):
    caption = "Jane Roe with her $2m trophy Photo: Agency"
    body = "The club paid $3 million to Roe."
    post = "I earned 500 dollars today pic.twitter.com/x — Sam (@sam) March 2, 2021"
    text = f"{caption}\n\n{body}\n\n{post}"
    b = text.index(body)
    p = text.index(post)
    paragraphs = [
        Paragraph(start=0, end=len(caption), label="caption"),
        Paragraph(start=b, end=b + len(body), label="body"),
        Paragraph(start=p, end=len(text), label="post"),
    ]
    assert [c.text for c in _run(nlp, text, paragraphs=paragraphs)] == ["$3 million"]


def test_post_inside_a_body_paragraph_is_excluded(nlp):
    text = "The club paid $3 million. I earned 500 dollars today — Sam (@sam) March 2, 2021"
    p = text.index("I earned")
    post = Post(
        id="p",
        handle="@sam",
        text="I earned 500 dollars today",
        start=p,
        end=len(text),
        text_start=p,
        text_end=p + 26,
    )
    assert [c.text for c in _run(nlp, text, posts=[post])] == ["$3 million"]


def _person(name, text, age=None, age_text=None):
    start = text.index(name)
    mention = EntityMention(start=start, end=start + len(name), text=name)
    span = None
    if age_text is not None:
        a = text.index(age_text)
        span = Span(start=a, end=a + len(age_text), text=age_text)
    return Entity(id=name, name=name, type="PERSON", mentions=[mention], age=age, age_span=span)


def test_ages_name_the_person(nlp):
    text = "Jane Roe, 33, left the club. The 34-year-old John Doe stayed."
    entities = [_person("Jane Roe", text, 33, "33"), _person("John Doe", text)]
    ages = [
        (c.text, c.value, c.subject) for c in _run(nlp, text, entities=entities) if c.kind == "age"
    ]
    assert ages == [("33", 33.0, "Jane Roe"), ("34-year-old", 34.0, "John Doe")]


def test_context_tells_clauses_apart(nlp):
    (a,) = _run(nlp, "Some 12,000 people were evacuated from the valley.")
    (b,) = _run(nlp, "Twelve people died in the flood.")
    assert a.subject == b.subject == "people"
    assert "evacuate" in a.context and "die" in b.context and "die" not in a.context


@pytest.mark.parametrize(
    "text", ["", "   ", "\n\n", "$", "US$ million", "%%%", "1,,,000", "—" * 50]
)
def test_odd_input_does_not_crash(nlp, text):
    for claim in _run(nlp, text):
        assert text[claim.start : claim.end] == claim.text


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            list("0123456789 ,.$£%-kmbMyearsold")
            + [" million", " years", " percent", "about ", "less than "]
        ),
        max_size=40,
    ).map("".join)
    | st.text(max_size=80)
)
def test_quantity_offsets_are_exact(text):
    end = 0
    for q in find_quantities(text):
        assert 0 <= q.start < q.end <= len(text)
        assert q.start >= end  # left to right, not overlapping
        end = q.end


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(
        st.sampled_from(
            [
                "The",
                "club",
                "paid",
                "$3m",
                "US$3 million",
                "to",
                "Roe,",
                "33,",
                "a",
                "two-year",
                "contract",
                "about",
                "40%",
                "of",
                "fans",
                "12,000",
                "people",
                '"',
                "“",
                "”",
                "\n\n",
                ".",
                "2021",
                "March",
                "less than",
                "three years",
            ]
        ),
        max_size=40,
    ).map(" ".join)
)
def test_stage_offsets_are_exact(nlp, text):
    for claim in _run(nlp, text):
        assert text[claim.start : claim.end] == claim.text
        assert (
            0 <= claim.sentence_start <= claim.start < claim.end <= claim.sentence_end <= len(text)
        )
