"""Properties of the whole per-article analysis: never crashes, every span points at its text."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from newsloom.analyze import analyze_text
from newsloom.models import ArticleAnalysis

# Fragments of real-looking news text, glued together at random: the stages must cope with
# any order, including unbalanced quote marks and half a tweet.
FRAGMENTS = [
    " date 2021-03-14 PARIS • The mayor said on Sunday that the bridge would reopen.",
    'Jane Roe, 33, said: "We are not done yet." ',
    '"It was, um, a long night," said John Doe.',
    "“Curly quotes,” she said, “and a second part.”",
    'An odd "quote mark never closes. ',
    "Nobody believed her. #JusticeForX pic.twitter.com/AbC12dEf — Sam 🌟 (@sam_writes) "
    "March 2, 2021",
    "— SAM WRITES (@samwrites) March 2, 2021",
    "Watch the clip below:",
    "Singer Spotted Leaving Court With New Partner (See Pics Inside).",
    "Jane Roe at the premiere Kim Lee / Agency",
    "TV producer Jane Roe left the company in 2015, a year after the f***ing row.",
    "'I never lied': Roe insists",
    "According to the statement, the payout was US$3 million.",
    "\ufeffBOM ",
    "\r\n",
    "\n\n",
    "",
]


def spans(analysis: ArticleAnalysis):
    a = analysis
    if a.article.title_span:
        yield a.article.title_span.start, a.article.title_span.end, a.article.title_span.text
    if a.article.dateline:
        yield a.article.dateline.start, a.article.dateline.end, a.article.dateline.text
    for e in a.entities:
        for m in e.mentions:
            yield m.start, m.end, m.text
    for q in a.quotes:
        yield q.start, q.end, q.text
        if q.speaker_start is not None:
            assert q.speaker_end is not None
            yield q.speaker_start, q.speaker_end, q.speaker_text
    for p in a.posts:
        yield p.text_start, p.text_end, p.text
    for d in a.dates:
        yield d.start, d.end, d.text
    for c in a.claims:
        yield c.start, c.end, c.text


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=8), st.sampled_from(["\n\n", "\n", " "]))
def test_any_mix_of_news_fragments_gives_exact_spans(parts, joiner):
    text = joiner.join(parts)
    analysis = analyze_text(text, published="2021-03-14")
    for start, end, span_text in spans(analysis):
        assert 0 <= start <= end <= len(text)
        if span_text is not None:
            assert text[start:end] == span_text


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=400))
def test_arbitrary_unicode_never_crashes(text):
    analysis = analyze_text(text)
    for start, end, span_text in spans(analysis):
        if span_text is not None:
            assert text[start:end] == span_text
