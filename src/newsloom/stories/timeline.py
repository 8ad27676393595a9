"""The story's timeline: dated events merged across articles, each with its supporting articles.

Every resolved date mention (dates stage) is an event candidate described by its sentence.
Mentions of one date value are one event when their sentences share content words (two
outlets telling what happened on 3 March share "evacuated", "residents", "flood"), so two
different things that happened on one day stay apart. The event's text is the sentence that
shares most with the others (trimmed; a whole sentence before a phrase the dates stage cut
out of one), and events are sorted by date. No text stands for two events: an event whose
sentences all tell an earlier event already is told by the part of one around its date.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from ..models import ArticleAnalysis, TimelineEvent
from ..text.names import is_calendar_word
from ..text.unionfind import UnionFind
from ..text.words import content_stems, words

# Sentences of one date are about the same thing when they share this many content stems
# (date words left out) or this share of the smaller sentence's stems. Set on the rows in
# tests/stories/test_timeline.py and examples/corpus: retellings share 2-5 stems (or one of a
# three-word sentence), different events of one day 0-1.
MIN_SHARED = 2
MIN_SHARE = 0.34
MAX_TEXT = 240  # characters of the event's sentence kept
MAX_GROUP = 2000  # mentions of one date compared pairwise at most (a huge story's main day)


@dataclass
class _Mention:
    value: str
    article_index: int
    article_id: str
    sentence: str
    stems: frozenset[str]
    date_text: str


def _sentence(text: str, start: int, end: int) -> str:
    return " ".join(text[start:end].split())


def trim(sentence: str, limit: int = MAX_TEXT) -> str:
    """At most ``limit`` characters, cut at a word boundary."""
    if len(sentence) <= limit:
        return sentence
    cut = sentence[:limit].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + "…"


def _mentions(analyses: Sequence[ArticleAnalysis]) -> list[_Mention]:
    out: list[_Mention] = []
    for index, analysis in enumerate(analyses):
        text = analysis.article.text
        seen: set[tuple[str, int]] = set()
        for d in analysis.dates:
            if not d.value or (d.value, d.sentence_start) in seen:
                continue
            seen.add((d.value, d.sentence_start))
            sentence = _sentence(text, d.sentence_start, d.sentence_end)
            date_words = set(words(d.text))
            stems = content_stems(
                [w for w in words(sentence) if w not in date_words and not is_calendar_word(w)]
            )
            out.append(
                _Mention(d.value, index, analysis.article.id, sentence, frozenset(stems), d.text)
            )
    return out


def _same_thing(a: _Mention, b: _Mention) -> bool:
    shared = len(a.stems & b.stems)
    if shared and len(a.value) == len("YYYY-MM-DD"):
        # One story, one day, a shared content word: retellings of that day's event far more
        # often than two things that happened on it (examples/corpus: "checked into a
        # residential centre" / "entered a treatment centre" on the same Tuesday).
        return True
    smaller = min(len(a.stems), len(b.stems))
    return shared >= MIN_SHARED or (smaller > 0 and shared / smaller >= MIN_SHARE)


def build_timeline(analyses: Sequence[ArticleAnalysis]) -> list[TimelineEvent]:
    by_value: dict[str, list[_Mention]] = defaultdict(list)
    for m in _mentions(analyses):
        by_value[m.value].append(m)
    events: list[tuple[str, int, TimelineEvent, list[_Mention]]] = []
    for value, members in by_value.items():
        for group in _cluster(members[:MAX_GROUP]):
            events.append((value, -len({m.article_id for m in group}), _event(value, group), group))
    events.sort(key=lambda e: (_sort_key(e[0]), e[1], e[2].text))
    used: set[str] = set()
    out: list[TimelineEvent] = []
    for _, _, event, group in events:
        if event.text in used:
            event = event.model_copy(update={"text": _untold(group, used)})
        used.add(event.text)
        out.append(event)
    return out


def _untold(group: list[_Mention], used: set[str]) -> str:
    """A text for the event that no earlier event has: another sentence of its group, else
    the clause (between commas or semicolons) around the date of its first mention, else
    that sentence up to its date or from it on."""
    for m in sorted(group, key=_preference, reverse=True):
        if trim(m.sentence) not in used:
            return trim(m.sentence)
    first = group[0]
    at = first.sentence.find(first.date_text)
    if at < 0:
        return trim(first.sentence)
    sentence, after = first.sentence, at + len(first.date_text)
    cuts = [i for i, c in enumerate(sentence) if c in ",;"]
    left = max((i + 1 for i in cuts if i < at), default=0)
    right = min((i for i in cuts if i >= after), default=len(sentence))
    # The clause, else the sentence up to its date, else from its date on.
    for start, end in ((left, right), (0, after), (at, len(sentence))):
        text = trim(sentence[start:end].strip())
        if text not in used:
            return text
    return trim(sentence)


def _preference(m: _Mention) -> tuple[bool, int]:
    """A whole sentence (capital first, closing punctuation last) before a cut-out phrase;
    then the shorter."""
    whole = m.sentence[:1].isupper() and m.sentence.rstrip("\"'”’)")[-1:] in ".!?"
    return whole, -len(m.sentence)


def _sort_key(value: str) -> str:
    # "2024" sorts before "2024-03" and "2024-03-05": the coarse date first, as it is read.
    return value if re.fullmatch(r"-?\d{4}(-\d{2}){0,2}", value) else "~" + value


def _cluster(members: list[_Mention]) -> list[list[_Mention]]:
    union = UnionFind(len(members))
    for i in range(len(members)):
        for j in range(i + 1, len(members)):
            if union.find(i) != union.find(j) and _same_thing(members[i], members[j]):
                union.union(i, j)
    return [[members[i] for i in group] for group in union.groups()]


def _event(value: str, group: list[_Mention]) -> TimelineEvent:
    # The sentence sharing most with the others stands for the event (ties: a whole sentence,
    # then the shorter).
    text = max(
        group,
        key=lambda m: (sum(len(m.stems & o.stems) for o in group if o is not m), *_preference(m)),
    ).sentence
    article_ids: list[str] = []
    for m in sorted(group, key=lambda m: m.article_index):
        if m.article_id not in article_ids:
            article_ids.append(m.article_id)
    return TimelineEvent(date=value, text=trim(text), article_ids=article_ids)
