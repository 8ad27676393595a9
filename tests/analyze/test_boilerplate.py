"""Boilerplate stage: paragraphs with exact offsets, labels by general cues, sentences."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from newsloom.analyze.stages.boilerplate import label_boilerplate
from newsloom.config import Settings
from newsloom.models import Article, ArticleAnalysis, Span, article_id
from newsloom.pipeline import StageContext

LEAD = "The court met on Monday, officials said."
TAIL = "The hearing resumes next week, the court said."


def run(nlp, text: str, **fields) -> ArticleAnalysis:
    article = Article(id=article_id(text), text=text, origin="<test>", **fields)
    ctx = StageContext(article, nlp(text), Settings(), ArticleAnalysis(article=article))
    label_boilerplate(ctx)
    return ctx.analysis


def labelled(analysis: ArticleAnalysis) -> list[tuple[str, str, str]]:
    text = analysis.article.text
    return [(p.label, text[p.start : p.end], p.reason) for p in analysis.paragraphs]


# (paragraphs between LEAD and TAIL, [(label, exact paragraph text, fragment of the reason)])
CUE_ROWS = [
    # captions and credits
    (
        "Jane Roe at the premiere Kim Lee / Agency",
        [("caption", "Jane Roe at the premiere Kim Lee / Agency", "Agency")],
    ),
    (
        "Jane Roe and John Doe (Photo: Archive Picture)",
        [("caption", "Jane Roe and John Doe (Photo: Archive Picture)", "parentheses")],
    ),
    ("Credit: Kim Lee", [("caption", "Credit: Kim Lee", "credit label")]),
    (
        "Jane Roe leaves the court. Kim Lee/Getty Images",
        [("caption", "Jane Roe leaves the court. Kim Lee/Getty Images", "")],
    ),
    (
        "Jane Roe on stage in London Alamy Stock Photo",
        [("caption", "Jane Roe on stage in London Alamy Stock Photo", "Images")],
    ),
    (
        "The band on stage in 2019 courtesy of Kim Lee",
        [("caption", "The band on stage in 2019 courtesy of Kim Lee", "courtesy")],
    ),
    # calls to action
    (
        "Watch the clip below:",
        [("call_to_action", "Watch the clip below:", "imperative opening 'Watch'")],
    ),
    (
        "Take a look at the posts.",
        [("call_to_action", "Take a look at the posts.", "'Take a look'")],
    ),
    ("See the pictures here.", [("call_to_action", "See the pictures here.", "'See'")]),
    (
        "Read more: Singer Spotted Leaving Court",
        [("call_to_action", "Read more: Singer Spotted Leaving Court", "'Read'")],
    ),
    (
        "Continue reading at the source.",
        [("call_to_action", "Continue reading at the source.", "'Continue reading'")],
    ),
    ("View this post on Instagram", [("call_to_action", "View this post on Instagram", "'View'")]),
    (
        "Here are some of the reactions:",
        [("call_to_action", "Here are some of the reactions:", "colon")],
    ),
    ("One More Below", [("call_to_action", "One More Below", "pointer")]),
    ("Also this...", [("call_to_action", "Also this...", "pointer")]),
    # related headlines
    (
        "Singer Spotted Leaving Court With New Partner (See Pics Inside)",
        [
            (
                "related_headline",
                "Singer Spotted Leaving Court With New Partner (See Pics Inside)",
                "parenthetical",
            )
        ],
    ),
    (
        "Five Things We Learned From The Trial",
        [("related_headline", "Five Things We Learned From The Trial", "title-case")],
    ),
    # metadata
    ("url: https://example.com/story", [("metadata", "url: https://example.com/story", "url")]),
    (
        "Published: 3 March 2021, 10:15 GMT",
        [("metadata", "Published: 3 March 2021, 10:15 GMT", "published")],
    ),
    (
        "Updated March 4, 2021 at 9:00 a.m.",
        [("metadata", "Updated March 4, 2021 at 9:00 a.m.", "updated")],
    ),
    ("https://example.com/story", [("metadata", "https://example.com/story", "link only")]),
    ("By Jane Roe and John Doe", [("metadata", "By Jane Roe and John Doe", "byline")]),
    (
        "Monday, Sep 10, 2012 | Updated 9:01 AM EDT",
        [("metadata", "Monday, Sep 10, 2012 | Updated 9:01 AM EDT", "date")],
    ),
    (
        "Story Created: Aug 7, 2012 at 9:56 AM AKDT",
        [("metadata", "Story Created: Aug 7, 2012 at 9:56 AM AKDT", "date/time")],
    ),
    (
        "PUBLISHED: 02:31 GMT, 12 March 2013 | UPDATED: 22:19 GMT, 12 March 2013",
        [
            (
                "metadata",
                "PUBLISHED: 02:31 GMT, 12 March 2013 | UPDATED: 22:19 GMT, 12 March 2013",
                "date",
            )
        ],
    ),
    ("6:05 p.m.", [("metadata", "6:05 p.m.", "date/time")]),
    (
        "Courtesy of Kim Lee, staff photographer",
        [("caption", "Courtesy of Kim Lee, staff photographer", "courtesy")],
    ),
    # a post signature (the posts stage takes it from here)
    (
        "— SAM WRITES (@samwrites) March 2, 2021",
        [("embed_signature", "— SAM WRITES (@samwrites) March 2, 2021", "@handle")],
    ),
    # negatives: reporting stays body
    (
        'Roe said:\n\n"I never lied," she told the court.',
        [("body", "Roe said:", "quotation"), ("body", '"I never lied," she told the court.', "")],
    ),
    (
        "Roe said in a statement on Monday:\n\nIt was a mistake, she added.",
        [
            ("body", "Roe said in a statement on Monday:", "speech verb"),
            ("body", "It was a mistake, she added.", ""),
        ],
    ),
    (
        "The trial continues on Monday.",
        [("body", "The trial continues on Monday.", "short sentence")],
    ),
    (
        "Watch parties were held across the city on Sunday night.",
        [("body", "Watch parties were held across the city on Sunday night.", "")],
    ),
    (
        "By Monday, the crowd had grown to thousands.",
        [("body", "By Monday, the crowd had grown to thousands.", "")],
    ),
    (
        "Updated figures will be released next week, the ministry said.",
        [("body", "Updated figures will be released next week, the ministry said.", "")],
    ),
    (
        "Jane Roe arrived at the court in London",
        [("body", "Jane Roe arrived at the court in London", "")],
    ),
    (
        "Roe (pictured) told the court on Monday that she had never met the man, and her lawyer "
        "said the claim would be dropped within a week.",
        [
            (
                "body",
                "Roe (pictured) told the court on Monday that she had never met the man, and her "
                "lawyer said the claim would be dropped within a week.",
                "",
            )
        ],
    ),
    ('"It was wrong." — John Doe, mayor', [("body", '"It was wrong." — John Doe, mayor', "")]),
    (
        "The deal is worth $3m, the AC/DC manager said.",
        [("body", "The deal is worth $3m, the AC/DC manager said.", "")],
    ),
    (
        "The service was restored via alternative routes",
        [("body", "The service was restored via alternative routes", "")],
    ),
    ("See?", [("body", "See?", "")]),
    (
        "Trump, on the other hand, has to accomplish the following:",
        [
            (
                "body",
                "Trump, on the other hand, has to accomplish the following:",
                "introducing reporting",
            )
        ],
    ),
    (
        "Fans were quick to react:\n\nSo sad. — Ann (@ann) March 2, 2021",
        [
            ("call_to_action", "Fans were quick to react:", "before an embed"),
            ("body", "So sad. — Ann (@ann) March 2, 2021", ""),
        ],
    ),
    (
        "The number of votes cast was 1,204 on March 2, 2021 in the city",
        [("body", "The number of votes cast was 1,204 on March 2, 2021 in the city", "")],
    ),
    # a call to action closing a body paragraph, before an embed, is cut out
    (
        "Fans were quick to take sides. Take a look at the posts.\n\nSo sad.\n\n— Ann (@ann) "
        "March 2, 2021",
        [
            ("body", "Fans were quick to take sides.", "inline call to action"),
            ("call_to_action", "Take a look at the posts.", "closing imperative 'Take a look'"),
            ("body", "So sad.", ""),
            ("embed_signature", "— Ann (@ann) March 2, 2021", ""),
        ],
    ),
    (
        "Supporters have argued ever since. One More Below\n\nSo sad. — Ann (@ann) March 2, 2021",
        [
            ("body", "Supporters have argued ever since.", ""),
            ("call_to_action", "One More Below", "closing pointer"),
            ("body", "So sad. — Ann (@ann) March 2, 2021", ""),
        ],
    ),
    (
        "Fans rallied around the actor. Here are some of the reactions:\n\nSo sad. — Ann (@ann) "
        "March 2, 2021",
        [
            ("body", "Fans rallied around the actor.", ""),
            ("call_to_action", "Here are some of the reactions:", "pointer"),
            ("body", "So sad. — Ann (@ann) March 2, 2021", ""),
        ],
    ),
    # ... but not when no embed follows
    (
        "Fans were quick to take sides. Take a look at the history.",
        [("body", "Fans were quick to take sides. Take a look at the history.", "")],
    ),
    # abbreviations end no sentence, so no title-case fragment is cut out
    (
        "A man fell in Aoraki/Mt. Cook National Park on New Zealand’s South Island. He died.",
        [
            (
                "body",
                "A man fell in Aoraki/Mt. Cook National Park on New Zealand’s South Island. He "
                "died.",
                "reporting",
            )
        ],
    ),
    (
        "House Natural Resources Committee Chairman Nick J. Rahall II (D-W. Va.) said so. He left.",
        [
            (
                "body",
                "House Natural Resources Committee Chairman Nick J. Rahall II (D-W. Va.) said "
                "so. He left.",
                "",
            )
        ],
    ),
    (
        "The prayer was led by the Rev. Peter Wherry, of Mayfield Memorial Missionary Baptist "
        "Church. It lasted an hour.",
        [
            (
                "body",
                "The prayer was led by the Rev. Peter Wherry, of Mayfield Memorial Missionary "
                "Baptist Church. It lasted an hour.",
                "reporting",
            )
        ],
    ),
    (
        "She was there. (CNN News Article) It was late.",
        [("body", "She was there. (CNN News Article) It was late.", "")],
    ),
    # related headline pasted mid-paragraph: the paragraph is split around it
    (
        "The appeal failed, the court said. Singer Spotted Leaving Court With New Partner (See "
        "Pics Inside). The judge left.",
        [
            ("body", "The appeal failed, the court said.", "inline related headline"),
            (
                "related_headline",
                "Singer Spotted Leaving Court With New Partner (See Pics Inside).",
                "parenthetical",
            ),
            ("body", "The judge left.", "inline related headline"),
        ],
    ),
    (
        "The court heard from witnesses. Jane Roe Says Goodbye To Hollywood Forever Now. She was "
        "not there.",
        [
            ("body", "The court heard from witnesses.", ""),
            (
                "related_headline",
                "Jane Roe Says Goodbye To Hollywood Forever Now.",
                "every content word",
            ),
            ("body", "She was not there.", ""),
        ],
    ),
    (
        "Jane Roe met John Doe. They went to New York City Hall. It was late.",
        [
            (
                "body",
                "Jane Roe met John Doe. They went to New York City Hall. It was late.",
                "reporting",
            )
        ],
    ),
    (
        "The U.S. Supreme Court ruled on Monday. It was final.",
        [("body", "The U.S. Supreme Court ruled on Monday. It was final.", "")],
    ),
]  # fmt: skip


@pytest.mark.parametrize(("middle", "expected"), CUE_ROWS)
def test_cues(nlp, middle, expected):
    analysis = run(nlp, f"{LEAD}\n\n{middle}\n\n{TAIL}")
    found = labelled(analysis)
    assert found[0][:2] == ("body", LEAD) and found[-1][:2] == ("body", TAIL)
    assert [(label, text) for label, text, _ in found[1:-1]] == [(lab, t) for lab, t, _ in expected]
    for (_, _, reason), (_, _, fragment) in zip(found[1:-1], expected, strict=True):
        assert fragment.lower() in reason.lower()
    for p in analysis.paragraphs:
        assert (
            analysis.article.text[p.start : p.end].strip() == analysis.article.text[p.start : p.end]
        )


# (text, [(label, exact paragraph text)]) -- splitting and offsets
SPLIT_ROWS = [
    (
        "One line.\nAnother line.\nA third line.",
        [("body", "One line."), ("body", "Another line."), ("body", "A third line.")],
    ),
    (
        "First part\nof one paragraph.\n\nSecond paragraph.",
        [("body", "First part\nof one paragraph."), ("body", "Second paragraph.")],
    ),
    (
        "  Padded paragraph.  \r\n\r\n\tSecond one.\r\n",
        [("body", "Padded paragraph."), ("body", "Second one.")],
    ),
    ("Only one paragraph here.", [("body", "Only one paragraph here.")]),
    ("", []),
    ("   \n\n  \n", []),
    # no header, no title_span: a short first line without final punctuation is the title
    (
        "Singer Wins Appeal In Court\n\nThe appeal succeeded, the court said.",
        [
            ("title", "Singer Wins Appeal In Court"),
            ("body", "The appeal succeeded, the court said."),
        ],
    ),
    (
        "Old Hands Help Russia Navigate U.S. Media.\n\nLast week, I watched TV.",
        [
            ("title", "Old Hands Help Russia Navigate U.S. Media."),
            ("body", "Last week, I watched TV."),
        ],
    ),
    (
        "The appeal succeeded, the court said.\n\nIt was final.",
        [("body", "The appeal succeeded, the court said."), ("body", "It was final.")],
    ),
]  # fmt: skip


@pytest.mark.parametrize(("text", "expected"), SPLIT_ROWS)
def test_split(nlp, text, expected):
    analysis = run(nlp, text)
    assert [(label, t) for label, t, _ in labelled(analysis)] == expected


def test_title_span_and_header_lines(nlp):
    text = (
        "url: https://example.com/a\nSinger wins appeal\n\nPARIS • The appeal succeeded.\n\n"
        "It was final."
    )
    title_start = text.index("Singer")
    analysis = run(
        nlp,
        text,
        title_span=Span(start=title_start, end=title_start + 18, text="Singer wins appeal"),
        body_start=text.index("PARIS"),
    )
    assert [(label, t) for label, t, _ in labelled(analysis)] == [
        ("metadata", "url: https://example.com/a"),
        ("title", "Singer wins appeal"),
        ("body", "PARIS • The appeal succeeded."),
        ("body", "It was final."),
    ]


def test_date_marker_line_is_cut_at_body_start(nlp):
    text = (
        " date 2021-03-14 PARIS • The mayor said on Sunday that the bridge would reopen.\n\nIt did."
    )
    analysis = run(nlp, text, body_start=text.index("PARIS"))
    assert [(label, t) for label, t, _ in labelled(analysis)] == [
        ("metadata", "date 2021-03-14"),
        ("body", "PARIS • The mayor said on Sunday that the bridge would reopen."),
        ("body", "It did."),
    ]
    # the sentence is cut at the header boundary too
    sentences = [text[s:e] for s, e in analysis.sentences]
    assert sentences[0] == "date 2021-03-14"
    assert sentences[1].startswith("PARIS")


def test_sentences_are_trimmed_and_stay_inside_paragraphs(nlp):
    text = f"{LEAD} It was late.\n\nWatch the clip below:\n\n{TAIL}"
    analysis = run(nlp, text)
    sentences = [text[s:e] for s, e in analysis.sentences]
    assert sentences == [LEAD, "It was late.", "Watch the clip below:", TAIL]


def test_title_span_is_trimmed(nlp):
    text = "Singer wins appeal \n\nThe appeal succeeded."
    analysis = run(nlp, text, title_span=Span(start=0, end=19, text="Singer wins appeal "))
    assert [(label, t) for label, t, _ in labelled(analysis)] == [
        ("title", "Singer wins appeal"),
        ("body", "The appeal succeeded."),
    ]


def test_title_span_out_of_range_is_ignored(nlp):
    analysis = run(nlp, "Short text.", title_span=Span(start=5, end=99, text="x"))
    assert [(label, t) for label, t, _ in labelled(analysis)] == [("body", "Short text.")]


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.text(alphabet=st.sampled_from(list('ab C:.()/@#—\n\n\r\t"“é😀')), max_size=200))
def test_never_crashes_and_offsets_hold(nlp, text):
    analysis = run(nlp, text)
    previous_end = 0
    for p in analysis.paragraphs:
        piece = text[p.start : p.end]
        assert piece and piece == piece.strip()
        assert p.start >= previous_end
        previous_end = p.end
    for s, e in analysis.sentences:
        assert text[s:e] and text[s:e] == text[s:e].strip()
