"""When a quote was said, as its article dates it: the occasion of a quote mention.

An article reporting a remark often dates it next to the cue ("he said during a debate in
Miami last week", "On Monday, she told reporters"). The occasion is the earliest date of the
cue's sentence that

- stands within ``OCCASION_REACH`` characters of the cue, on the cue's side of the quotation
  (a date past the quotation dates the next clause: '… she said, "…", and he replied on
  Monday');
- lies outside the quotation (dates inside it are what the speaker talks about);
- is not after the article's publication (a date ahead is a plan or a misresolved weekday).

A quotation outside the cue's sentence (a cue the quote stage took from a later sentence) has
no occasion. Tracking reads it to keep a line said again on a later occasion apart from its
first saying (``tracking._said_after``).
"""

from __future__ import annotations

import datetime as dt

from ..models import ArticleAnalysis, QuoteMention
from ..text.dates import first_day

# Characters between a cue and a date that dates it: "said during a debate in Miami last
# week" puts 20 between them, "On Monday, one questioner claimed" 17. Read from the dated cues
# of the articles of the labelled PolNeAR pairs (tests/data/quote_link_pairs.tsv), where dates
# further off mostly belong to another clause ("recalling a 2007 bill", "who died in 2000");
# the pairs' figures are the same for any bound from 30 up (docs/benchmarks.md), the other
# conditions decide them.
OCCASION_REACH = 60


def occasion(analysis: ArticleAnalysis, quote: QuoteMention) -> str | None:
    """The partial ISO date the article gives for when ``quote`` was said, or None."""
    if quote.cue_start is None or quote.cue_end is None:
        return None
    cue_start, cue_end = quote.cue_start, quote.cue_end
    published = first_day(analysis.article.published)
    found: list[tuple[dt.date, str]] = []
    for d in analysis.dates:
        if not d.sentence_start <= cue_start < d.sentence_end:
            continue
        if quote.end <= d.sentence_start or d.sentence_end <= quote.start:
            continue  # the quotation is not in the cue's sentence
        if d.start < quote.end and quote.start < d.end:
            continue  # the speaker's own words
        lo, hi = min(d.start, cue_start), max(d.end, cue_end)
        if hi - lo - (d.end - d.start) - (cue_end - cue_start) > OCCASION_REACH:
            continue
        if lo <= quote.start and quote.end <= hi:
            continue  # the quotation stands between them: the date is another clause's
        day = first_day(d.value)
        if day is None or (published is not None and day > published):
            continue
        found.append((day, d.value))
    return min(found)[1] if found else None
