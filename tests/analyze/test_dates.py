"""Dates stage: temporal expressions, resolved against the publication date, with exact spans."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from newsloom.analyze.stages.dates import find_dates
from newsloom.analyze.temporal import find_expressions, resolve
from newsloom.config import Settings
from newsloom.models import Article, ArticleAnalysis, Paragraph, Post, article_id
from newsloom.pipeline import StageContext
from newsloom.text.dates import parse_partial

WED = "2021-03-17"  # a Wednesday
SUN = "2021-03-14"  # a Sunday


def _run(nlp, text, published=WED, paragraphs=(), body_start=0, posts=()):
    article = Article(
        id=article_id(text), text=text, origin="test", published=published, body_start=body_start
    )
    doc = nlp(text)
    analysis = ArticleAnalysis(
        article=article,
        paragraphs=list(paragraphs),
        posts=list(posts),
        sentences=[(s.start_char, s.end_char) for s in doc.sents],
    )
    ctx = StageContext(article=article, doc=doc, settings=Settings(), analysis=analysis)
    find_dates(ctx)
    return ctx.analysis.dates


# (text, published, [(date text, ISO value)])
ROWS = [
    # Absolute, as precise as written.
    ("The deal was signed on March 14, 2021 in Paris.", WED, [("March 14, 2021", "2021-03-14")]),
    ("She was born on 14 March 1990.", WED, [("14 March 1990", "1990-03-14")]),
    ("The filing is dated 2021-03-14.", WED, [("2021-03-14", "2021-03-14")]),
    ("The form is dated 3/14/2021.", WED, [("3/14/2021", "2021-03-14")]),
    ("She joined the club in August 2016.", WED, [("August 2016", "2016-08")]),
    ("She moved to Paris in 2015.", WED, [("2015", "2015")]),
    ("2015 was a hard year for the club.", WED, [("2015", "2015")]),
    (
        "Talks began in mid-2019 and ended in late March.",
        WED,
        [("mid-2019", "2019"), ("late March", "2021-03")],
    ),
    ("It was hot in the summer of 2019.", WED, [("the summer of 2019", "2019")]),
    ("The 2015-16 season was her last.", WED, [("2015", "2015"), ("16", "2016")]),
    ("On Sunday, March 14, 2021 she spoke.", WED, [("Sunday, March 14, 2021", "2021-03-14")]),
    ("She sang on New Year's Eve 2019.", WED, [("New Year's Eve 2019", "2019-12-31")]),
    # Year-less dates: the tense decides; with none, the nearest occurrence.
    ("In March, she signed a new deal.", "2021-05-10", [("March", "2021-03")]),
    ("In March, she signed a new deal.", "2021-02-10", [("March", "2020-03")]),
    ("She was arrested on March 3.", WED, [("March 3", "2021-03-03")]),
    ("The hearing will be held on April 2.", WED, [("April 2", "2021-04-02")]),
    (
        "The outcome of the Nov. 8 election could be close.",
        "2016-09-27",
        [("Nov. 8", "2016-11-08")],
    ),
    ("Shootings have risen since January 1.", "2016-09-29", [("January 1", "2016-01-01")]),
    ("She sang on Christmas Day.", WED, [("Christmas Day", "2020-12-25")]),
    ("He left last March.", WED, [("last March", "2020-03")]),
    # Relative to publication.
    ("She was arrested yesterday.", WED, [("yesterday", "2021-03-16")]),
    ("The mayor spoke today.", WED, [("today", "2021-03-17")]),
    ("Police were called last night.", WED, [("last night", "2021-03-16")]),
    ("The mayor spoke on Sunday.", WED, [("Sunday", "2021-03-14")]),
    ("The mayor spoke on Sunday.", SUN, [("Sunday", "2021-03-14")]),
    ("The mayor spoke last Sunday.", SUN, [("last Sunday", "2021-03-07")]),
    ("The final will be played on Sunday.", WED, [("Sunday", "2021-03-21")]),
    ("The mayor spoke on Monday night.", WED, [("Monday night", "2021-03-15")]),
    ("Sales fell last year.", WED, [("last year", "2020")]),
    ("Sales fell last month.", WED, [("last month", "2021-02")]),
    ("Sales will rise next year.", WED, [("next year", "2022")]),
    ("The report came out earlier this month.", WED, [("earlier this month", "2021-03")]),
    ("The report came out earlier this year.", WED, [("earlier this year", "2021")]),
    ("Two years ago, she left the band.", WED, [("Two years ago", "2019")]),
    ("She left three months ago.", WED, [("three months ago", "2020-12")]),
    ("She left 10 days ago.", WED, [("10 days ago", "2021-03-07")]),
    ("Last summer, she toured Europe.", WED, [("Last summer", "2020")]),
    ("The trial starts next week.", WED, [("next week", "2021-03")]),
    # A week straddling two months is only known to the year.
    ("She resigned last week.", "2021-04-07", [("last week", "2021")]),
    ("Fans gathered last weekend.", WED, [("last weekend", "2021-03")]),
    # Anaphoric: from the previous date of the context, or publication for "before".
    (
        "She was arrested on March 3. The night before, she had called her lawyer.",
        WED,
        [("March 3", "2021-03-03"), ("The night before", "2021-03-02")],
    ),
    ("The night before, she had called her lawyer.", WED, [("The night before", "2021-03-16")]),
    (
        "The band formed in 2015. A year later, it split.",
        WED,
        [("2015", "2015"), ("A year later", "2016")],
    ),
    (
        "Roe was charged on March 3, 2021. The next day, she resigned.",
        WED,
        [("March 3, 2021", "2021-03-03"), ("The next day", "2021-03-04")],
    ),
    (
        "The club moved in 1984. That year, it won the cup.",
        WED,
        [("1984", "1984"), ("That year", "1984")],
    ),
    # "later"/"next" need a date to count from.
    ("The next day, she resigned.", WED, []),
    ("Two days later, she returned.", WED, []),
    # Negatives: ages, durations, scores, identifiers, counts, modal "may", the noun "march".
    ("Jane Roe, 33, told the court she was innocent.", WED, []),
    ("She served three years in prison.", WED, []),
    ("He stayed for two weeks.", WED, []),
    ("The court's 7-2 vote stood.", WED, []),
    ("COVID-19 cases rose again.", WED, []),
    ("In 2000 cases the court ruled for the state.", WED, []),
    ("More than 2,000 people joined the protest.", WED, []),
    ("She may go to Paris.", WED, []),
    ("The march drew a large crowd.", WED, []),
    ("March organisers said it was peaceful.", WED, []),
    ("The Sunday Times reported it first.", WED, []),
    ("USA Today reported it first.", WED, []),
    ("The shop is open 24/7 and the 9/11 memorial is near.", WED, []),
    ("The club was founded in the 1990s.", WED, []),
    ("The form is dated 3/4/2021.", WED, []),  # day and month could be swapped
    ("The day before the vote, she left.", WED, []),
    ("Two years after the crash, she returned.", WED, []),
    ('"We will start when he is ready, and not one day before."', WED, []),
]


MON = "2022-03-14"  # a Monday, the day a report on the event is published

# Tense and modality of the governing verb decide the direction of a weekday or relative date
# (text, published, [(date text, ISO value)]).
TENSE_ROWS = [
    # Simple past and past perfect: back.
    ("The mayor spoke on Tuesday.", MON, [("Tuesday", "2022-03-08")]),
    ("The mayor did not speak on Tuesday.", MON, [("Tuesday", "2022-03-08")]),
    ("She had called her lawyer on Friday.", MON, [("Friday", "2022-03-11")]),
    ("She could not be reached on Friday.", MON, [("Friday", "2022-03-11")]),
    ("She declined to comment on Friday.", MON, [("Friday", "2022-03-11")]),
    ("Police were searching the river on Saturday.", MON, [("Saturday", "2022-03-12")]),
    # Present simple (the reporting present): back, as a past.
    ("The mayor says on Friday that she regrets nothing.", MON, [("Friday", "2022-03-11")]),
    # Present progressive: forward.
    ("The team is playing on Sunday.", MON, [("Sunday", "2022-03-20")]),
    ("The council is meeting next week.", MON, [("next week", "2022-03")]),
    # will, going to, modal + infinitive, is to / plans to / expected to: forward.
    ("The final will be played on Sunday.", MON, [("Sunday", "2022-03-20")]),
    ("The final will not be played on Sunday.", MON, [("Sunday", "2022-03-20")]),
    ("The club is going to announce it on Friday.", MON, [("Friday", "2022-03-18")]),
    ("Repairs may begin on Thursday.", MON, [("Thursday", "2022-03-17")]),
    ("The minister is to visit on Friday.", MON, [("Friday", "2022-03-18")]),
    ("The club plans to sign him on Friday.", MON, [("Friday", "2022-03-18")]),
    ("Rovers are expected to decide by Friday.", MON, [("Friday", "2022-03-18")]),
    ("The hearing will be held in March.", "2022-05-02", [("March", "2023-03")]),
    ("The bridge will reopen in two days.", MON, [("in two days", "2022-03-16")]),
    ("It is due to reopen this Friday.", MON, [("this Friday", "2022-03-18")]),
    # would (conditional, reported speech): forward from publication or the sentence's date.
    ("Buses would be rerouted on Tuesday.", MON, [("Tuesday", "2022-03-15")]),
    (
        "The district said buses would be rerouted on Tuesday.",
        MON,
        [("Tuesday", "2022-03-15")],
    ),
    (
        "Oduya said investigators would arrive in Millbrook on Wednesday.",
        MON,
        [("Wednesday", "2022-03-16")],
    ),
    ("The district said it would not reopen on Tuesday.", MON, [("Tuesday", "2022-03-15")]),
    (
        "On March 8, 2022, the district said buses would be rerouted on Thursday.",
        MON,
        [("March 8, 2022", "2022-03-08"), ("Thursday", "2022-03-10")],
    ),
    ("The mayor said the bridge would reopen in two days.", MON, [("in two days", "2022-03-16")]),
    # would have (a past counterfactual): back.
    ("The repairs would have begun on Friday.", MON, [("Friday", "2022-03-11")]),
    # Negative: a future tense never lands before publication; "in two days" is a duration
    # in the past.
    ("The report will be published last month.", MON, []),
    ("The verdict will be read yesterday.", MON, []),
    ("The crews finished the job in two days.", MON, []),
    ("The crews are working in two shifts.", MON, []),
]


@pytest.mark.parametrize(("text", "published", "expected"), TENSE_ROWS)
def test_tense_decides_direction(nlp, text, published, expected):
    dates = _run(nlp, text, published)
    assert [(d.text, d.value) for d in dates] == expected


def test_sentence_with_two_dates_describes_each_by_its_own_clause(nlp):
    text = (
        "A 2019 inspection rated its condition as poor, and deck repairs were due to begin in "
        "July, according to city records."
    )
    dates = _run(nlp, text, MON)
    described = {d.value: text[d.sentence_start : d.sentence_end] for d in dates}
    assert described["2019"] == text
    assert described["2022-07"].startswith("deck repairs were due to begin in July")


@pytest.mark.parametrize(("text", "published", "expected"), ROWS)
def test_dates(nlp, text, published, expected):
    dates = _run(nlp, text, published)
    assert [(d.text, d.value) for d in dates] == expected
    for d in dates:
        assert text[d.start : d.end] == d.text
        assert d.sentence_start <= d.start < d.end <= d.sentence_end


UNKNOWN_PUBLICATION = (
    "She moved to Paris in 2015 and signed on March 14, 2021. She was arrested yesterday. "
    "The mayor spoke on Sunday. Sales fell last year. Two years ago she left. In March she "
    "signed. The night before, she had called."
)


def test_unknown_publication_date_skips_relative_expressions(nlp):
    dates = _run(nlp, UNKNOWN_PUBLICATION, published=None)
    assert [(d.text, d.value) for d in dates] == [
        ("2015", "2015"),
        ("March 14, 2021", "2021-03-14"),
    ]


def test_relative_expression_needs_publication_precise_to_its_unit(nlp):
    text = "She was arrested yesterday. Sales fell last month. The mayor spoke on Sunday."
    assert [(d.text, d.value) for d in _run(nlp, text, published="2021-03")] == [
        ("last month", "2021-02")
    ]


def test_anchor_too_far_back_is_not_used(nlp):
    text = "The club moved in 1984. " + "Fans cheered. " * 5 + "A year later, it won."
    assert [d.text for d in _run(nlp, text)] == ["1984"]


def test_skipped_paragraphs_and_header_region(nlp):
    text = (
        " date 2021-03-10 PARIS • The mayor spoke on Sunday.\n\n"
        "Jane Roe at the premiere on March 2, 2021 Kim Lee / Agency\n\n"
        "Read more: Mayor Spoke In 2019\n\n"
        "She had left in 2015."
    )
    p1 = text.index("Jane")
    p2 = text.index("Read")
    p3 = text.index("She had")
    paragraphs = [
        Paragraph(start=0, end=p1 - 2, label="body"),
        Paragraph(start=p1, end=p2 - 2, label="caption"),
        Paragraph(start=p2, end=p3 - 2, label="related_headline"),
        Paragraph(start=p3, end=len(text), label="body"),
    ]
    dates = _run(
        nlp, text, published="2021-03-10", paragraphs=paragraphs, body_start=text.index("The")
    )
    assert [(d.text, d.value) for d in dates] == [("Sunday", "2021-03-07"), ("2015", "2015")]


def test_post_signature_date_is_the_posts_not_the_articles(nlp):
    text = (
        "Nobody believed her for years. #JusticeForX — Sam (@sam_writes) March 2, 2021\n\n"
        "She had left in 2015."
    )
    sig = text.index("—")
    post = Post(
        id="p",
        handle="sam_writes",
        text=text[:sig].strip(),
        start=0,
        end=text.index("\n"),
        text_start=0,
        text_end=sig,
    )
    assert [d.text for d in _run(nlp, text, posts=[post])] == ["2015"]


@pytest.mark.parametrize(
    ("value", "iso"),
    [("2021-03-14", "2021-03-14"), ("2021-03", "2021-03"), ("2021", "2021"),
     ("2021-03-14T10:00:00Z", "2021-03-14"), ("2021-02-30", None), ("soon", None), (None, None)],
)  # fmt: skip
def test_parse_partial(value, iso):
    when = parse_partial(value)
    assert (when.iso() if when else None) == iso


@settings(max_examples=200, deadline=None)
@given(
    st.text(
        alphabet=st.sampled_from(list("0123456789/-–,. 'sMarchSundayMaylastyeagotheday")),
        max_size=60,
    )
)
def test_grammar_never_crashes_and_spans_are_exact(text):
    published = parse_partial(WED)
    last_end = 0
    for expr in find_expressions(text):
        assert 0 <= last_end <= expr.start < expr.end <= len(text)
        last_end = expr.end
        for tense in (None, "past", "future"):
            resolve(expr, published, published, tense)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["", "   ", "\n\n", "”“«»", "2021-13-45 99/99/9999 Feb 30, 2021"])
def test_odd_input_does_not_crash(nlp, text):
    assert all(text[d.start : d.end] == d.text for d in _run(nlp, text))
