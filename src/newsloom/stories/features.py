"""What story clustering looks at in one article: words, names, years and publication day.

Cheap regex passes over the text the per-article stages already marked (no spaCy call):

- ``words``: content words, lowercased, stop words dropped, plural ``-s`` folded; the topic.
- ``pairs``: successive content words of one clause ("promise treatment", "sign angel"):
  look-alike events share their vocabulary far more than their phrases, which come from one
  event's own wire copy, statements and details.
- ``names``: what tells two look-alike events apart: the entities the entities stage found
  (when it ran), else capitalised words that are not just sentence-initial, adjacent
  capitalised pairs ("tara reid"), multi-digit numbers and month-day dates.
- ``years``: years the article mentions (text, resolved dates, publication year), as a
  distribution: two rehab stories five years apart rarely cite the same year.
- ``day``: publication day (days since 1970-01-01) when known.

Counts are log-scaled (1 + ln tf) and each channel is L2-normalised without IDF: the index
applies its own document frequencies when it compares (IDF is learned from the stream).
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import date

from spacy.lang.en.stop_words import STOP_WORDS

from ..models import ArticleAnalysis
from ..text.dates import MONTHS, WEEKDAYS, exact_day
from ..text.words import fold_plural

# Paragraph labels whose words describe the event (not the page around it).
EVENT_LABELS = frozenset({"title", "body", "caption"})
# Month words of a month-day date: full names and their first three letters ("Sep", not "Sept").
_MONTH_INDEX = MONTHS | {m[:3]: i for m, i in MONTHS.items()}
# Capitalised words that are calendar or discourse words, not names.
NOT_NAMES = frozenset(_MONTH_INDEX) | frozenset(WEEKDAYS) | {"mr", "mrs", "ms", "dr"}
# Word pairs kept per article: the first ones in reading order (title and lead carry the
# event's specifics). 40 scores like no cap on ECB+ dev (20 loses ~0.02 within-topic ARI)
# and keeps the index ~45% smaller than no cap in bench/bench_stories.py.
MAX_PAIRS = 40
# Oldest and newest year taken for a year (older/newer 4-digit numbers are counts or codes).
MIN_YEAR, MAX_YEAR = 1900, 2099
EPOCH = date(1970, 1, 1)  # publication days are counted from here

_TOKEN = re.compile(r"[A-Za-z][A-Za-z'’\-]*[A-Za-z]|[A-Za-z]|\d+(?:[.,:]\d+)*")
_SENTENCE_GAP = re.compile(r"[.!?:;\"“”()\n]\s*$")
_CLAUSE_GAP = re.compile(r"[.!?:;,\"“”()\n]")
_YEAR = re.compile(r"(?<![\d.,])(?:19|20)\d{2}(?![\d.,]\d)")
_MONTH_DAY = re.compile(
    r"\b(" + "|".join(sorted(_MONTH_INDEX, key=len, reverse=True)) + r")\.?\s+(\d{1,2})\b",
    re.IGNORECASE,
)


@dataclass
class Features:
    words: dict[str, float] = field(default_factory=dict)
    names: dict[str, float] = field(default_factory=dict)
    years: dict[str, float] = field(default_factory=dict)
    day: int | None = None
    pairs: dict[str, float] = field(default_factory=dict)


def _normalise(counts: Counter[str]) -> dict[str, float]:
    weights = {k: 1.0 + math.log(v) for k, v in counts.items() if v > 0}
    norm = math.sqrt(sum(w * w for w in weights.values())) or 1.0
    return {k: w / norm for k, w in weights.items()}


def event_text(analysis: ArticleAnalysis) -> str:
    """Title plus body paragraphs, or the whole text when no paragraph was labelled."""
    text = analysis.article.text
    parts = [analysis.article.title or ""]
    kept = [text[p.start : p.end] for p in analysis.paragraphs if p.label in EVENT_LABELS]
    parts.extend(kept if kept else [text])
    return "\n".join(parts)


def _day(iso: str | None) -> int | None:
    """Days since 1970-01-01 of a date precise to the day, else None."""
    day = exact_day(iso)
    return (day - EPOCH).days if day is not None else None


def extract_features(analysis: ArticleAnalysis) -> Features:
    text = event_text(analysis)
    words: Counter[str] = Counter()
    names: Counter[str] = Counter()
    pairs: Counter[str] = Counter()
    initial_only: Counter[str] = Counter()
    previous_cap: str | None = None
    previous_word: str | None = None  # the clause's last content word, for ``pairs``
    previous = ""
    last_end = 0
    for match in _TOKEN.finditer(text):
        token = match.group()
        lower = token.lower().replace("’", "'")
        gap = text[last_end : match.start()]
        last_end = match.end()
        if gap == " ":  # most words: no sentence or clause break before them
            sentence_start = match.start() == 0
        else:
            sentence_start = bool(_SENTENCE_GAP.search(gap)) or match.start() == 0
            if _CLAUSE_GAP.search(gap):
                previous_word = None
        after_month = previous in _MONTH_INDEX
        previous = lower
        if token[0].isdigit():
            previous_cap = None
            previous_word = None
            digits = sum(c.isdigit() for c in token)
            # Day numbers after a month are taken as month-day keys below, not as counts.
            if digits >= 2 and not _YEAR.fullmatch(token) and not after_month:
                names["#" + token.replace(",", "")] += 1
            continue
        if lower not in STOP_WORDS and len(lower) > 2:
            word = fold_plural(lower)
            words[word] += 1
            if previous_word is not None:
                pairs[previous_word + " " + word] += 1
            previous_word = word
        is_name = token[0].isupper() and lower not in STOP_WORDS and lower not in NOT_NAMES
        if not is_name:
            previous_cap = None
            continue
        if sentence_start:
            initial_only[lower] += 1  # kept only if the word is also capitalised mid-sentence
        else:
            names[lower] += 1
            if previous_cap is not None and not gap.strip():
                names[previous_cap + " " + lower] += 1
        previous_cap = lower
    for word, count in initial_only.items():
        if word in names:
            names[word] += count
    for month, day in _MONTH_DAY.findall(text):
        names[f"@{_MONTH_INDEX[month.lower()]}-{int(day)}"] += 1
    if analysis.entities:
        for entity in analysis.entities:
            key = entity.name.lower()
            # Entity names weigh like a name said once per mention (at least once).
            names["=" + key] += max(1, len(entity.mentions))
    return Features(
        words=_normalise(words),
        names=_normalise(names),
        years=_years(analysis),
        day=_day(analysis.article.published),
        pairs=_normalise(Counter(dict(itertools.islice(pairs.items(), MAX_PAIRS)))),
    )


def _years(analysis: ArticleAnalysis) -> dict[str, float]:
    """Share of the article's year mentions per year (all text: datelines carry years too)."""
    counts: Counter[str] = Counter()
    for match in _YEAR.finditer(analysis.article.text):
        year = int(match.group())
        if MIN_YEAR <= year <= MAX_YEAR:
            counts[str(year)] += 1
    for mention in analysis.dates:
        counts[mention.value[:4]] += 1
    if analysis.article.published:
        counts[analysis.article.published[:4]] += 2  # the article's own year weighs more
    total = sum(counts.values())
    return {y: c / total for y, c in counts.items()} if total else {}
