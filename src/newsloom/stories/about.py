"""Whom a quote's sentence names besides its speaker: the people the words may be about.

A reporter who quotes a fragment usually says what it was said of ("Holt later called Ruiz
"weak on the budget""). Tracking reads this to tell a short fragment that truncates a longer
quote from the same few words said of someone else (``tracking._said_of_another``): when the
longer wording names a person right beside the fragment ("Lee is very weak on the budget")
and the fragment's sentence names other people but not that one, the two are two remarks.

The people are the PERSON entities with a mention in the sentences holding the quotation or
its cue, outside the quotation and the speaker's words, other than the speaker. An article
whose sentences are not known gives none (it says nothing either way).
"""

from __future__ import annotations

from ..models import ArticleAnalysis, QuoteMention
from ..text.words import fold


def about(analysis: ArticleAnalysis, quote: QuoteMention) -> list[str]:
    """The names of the people ``quote``'s sentence names besides its speaker, sorted."""
    spots = [(quote.start, quote.end)]
    if quote.cue_start is not None and quote.cue_end is not None:
        spots.append((quote.cue_start, quote.cue_end))
    sentences = [
        (s, e) for s, e in analysis.sentences if any(s < hi and lo < e for lo, hi in spots)
    ]
    speaker = fold(quote.speaker or "")
    names: set[str] = set()
    for entity in analysis.entities:
        if entity.type != "PERSON" or entity.name in names:
            continue
        if entity.id == quote.speaker_entity_id or fold(entity.name) == speaker:
            continue
        for m in entity.mentions:
            if not any(s <= m.start and m.end <= e for s, e in sentences):
                continue
            if quote.start < m.end and m.start < quote.end:
                continue  # the speaker's own words
            if _overlaps(m.start, m.end, quote.speaker_start, quote.speaker_end):
                continue  # the words naming the speaker
            names.add(entity.name)
            break
    return sorted(names)


def _overlaps(start: int, end: int, lo: int | None, hi: int | None) -> bool:
    return lo is not None and hi is not None and lo < end and start < hi
