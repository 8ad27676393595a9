"""Dates stage: every temporal expression of the article, resolved to an ISO date.

Candidates come from the regex grammar in ``temporal.py`` run over the paragraphs that hold
reporting (not metadata, captions, related headlines, calls to action or a post's signature
line, and nothing before ``article.body_start``: the date marker and dateline region). The
parse then judges what the grammar cannot:
- a phrase inside a non-date entity is a name, not a date (``The Sunday Times``,
  ``USA Today``, ``Black Friday``);
- a bare year or month name is kept only after a word that introduces a time (``in 2015``,
  ``since May``) or, for a year, when spaCy tags it DATE (``2015 was hard``); a year read as
  a count (``in 2000 cases``) and the modal ``May`` are dropped;
- the tense of the governing verb (``will play on Sunday``, ``was arrested on March 3``)
  decides whether a year-less date or a weekday lies after or before publication.
spaCy's own DATE entities are not read as dates by themselves: the small model tags ages
(``Roe, 33,``) and durations (``three years``) as DATE, and no rule of the grammar reads a
bare two-digit number or a duration without ``ago``/``later`` as a point in time.

Anaphoric phrases (``the night before``, ``a year later``) count from the previous resolved
date when it is at most ``ANCHOR_SENTENCES`` sentences back, and ``the night before``-like
ones from publication when there is none.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from ..models import Article, DateMention, Paragraph, Post
from ..text.dates import PartialDate, parse_partial
from .temporal import Expression, Tense, find_expressions, resolve

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span

# Paragraphs whose dates are not the article's reporting (a post's signature date is the
# post's own, kept in Post.date).
SKIPPED_LABELS = frozenset(
    {"metadata", "caption", "related_headline", "call_to_action", "embed_signature"}
)
# Entity types a date phrase may sit in; any other type makes it part of a name. Holidays
# are tagged EVENT by the small model, so EVENT is allowed for them only.
DATE_ENTS = frozenset({"", "DATE", "TIME"})
HOLIDAY_ENTS = DATE_ENTS | {"EVENT"}
# Words that introduce a time: a bare year or month name after one is a date.
TIME_CUES = frozenset({
    "in", "on", "since", "until", "till", "by", "from", "through", "throughout", "during",
    "before", "after", "of", "to", "between", "and", "or", "around", "circa", "as", "early",
    "late", "mid", "last", "this", "next",
})  # fmt: skip
# Auxiliaries that put a verb after the moment of writing ("will play", "may go"), unless a
# perfect "have" puts it back ("may have gone").
FUTURE_AUX = frozenset({"will", "'ll", "’ll", "shall", "wo", "may", "might"})
# How far back the previous date may be for "the night before" / "a year later" to count
# from it. Chosen by hand on news-style rows (tests/analyze/test_dates.py): a date further
# back is more often another thread of the story than the event the phrase points back to.
ANCHOR_SENTENCES = 3
PERFECT_AUX = frozenset({"have", "has", "had", "'ve", "’ve", "'d", "’d"})
HEAD_HOPS = 6  # tokens climbed from a date to the verb whose tense it takes


def extract_dates(
    doc: Doc,
    article: Article,
    paragraphs: Iterable[Paragraph],
    sentences: list[tuple[int, int]],
    posts: Iterable[Post] = (),
) -> Iterator[DateMention]:
    text = article.text  # the doc is a parse of it; Doc.text would be rebuilt from tokens
    published = parse_partial(article.published)
    if not sentences:
        sentences = [(s.start_char, s.end_char) for s in doc.sents] if len(doc) else []
    starts = [s for s, _ in sentences]
    signatures = [(p.text_end, p.end) for p in posts if p.text_end < p.end]
    anchor: tuple[PartialDate, int] | None = None  # the previous resolved date and its sentence
    for start, end in _regions(paragraphs, article.body_start, len(text)):
        for expr in find_expressions(text, start, end):
            if any(s <= expr.start < e for s, e in signatures):
                continue
            span = doc.char_span(expr.start, expr.end, alignment_mode="expand")
            if span is None or not len(span) or not _confirmed(expr, span, text):
                continue
            index = max(bisect_right(starts, expr.start) - 1, 0)
            near = anchor[0] if anchor and index - anchor[1] <= ANCHOR_SENTENCES else None
            when = resolve(expr, published, near, _tense(span))
            if when is None:
                continue
            anchor = (when, index)
            s_start, s_end = sentences[index] if sentences else (start, end)
            yield DateMention(
                start=expr.start,
                end=expr.end,
                text=text[expr.start : expr.end],
                value=when.iso(),
                sentence_start=min(s_start, expr.start),
                sentence_end=max(s_end, expr.end),
            )


def _regions(
    paragraphs: Iterable[Paragraph], body_start: int, length: int
) -> list[tuple[int, int]]:
    """Reporting paragraphs from ``body_start`` on; no labels at all means the whole body."""
    body_start = min(max(body_start, 0), length)
    paragraphs = list(paragraphs)
    if not paragraphs:
        return [(body_start, length)] if body_start < length else []
    return [
        (max(p.start, body_start), min(p.end, length))
        for p in paragraphs
        if p.label not in SKIPPED_LABELS and p.end > body_start
    ]


def _confirmed(expr: Expression, span: Span, text: str) -> bool:
    """Whether the parse agrees that the phrase is a date (see the module docstring)."""
    allowed = HOLIDAY_ENTS if expr.kind == "date" and expr.day and expr.weak is None else DATE_ENTS
    if any(t.ent_type_ not in allowed for t in span):
        return False
    if expr.weak is None:
        return True
    first = span[0]
    before = first.nbor(-1) if first.i > 0 else None
    cue = before is not None and before.lower_ in TIME_CUES
    if expr.weak == "month":
        return cue and first.tag_ != "MD"
    after = span[-1].nbor(1) if span[-1].i + 1 < len(span.doc) else None
    if after is not None and after.tag_ == "NNS" and (before is None or before.pos_ != "DET"):
        return False  # "in 2000 cases": a count before a plural noun
    return cue or all(t.ent_type_ == "DATE" for t in span)


def _tense(span: Span) -> Tense:
    """Past or future tense of the verb the date modifies; None for present or no verb."""
    if span.start > 0 and span.doc[span.start - 1].lower_ == "since":
        return "past"
    token = span.root
    for _ in range(HEAD_HOPS):
        if token.pos_ in ("VERB", "AUX"):
            auxes = [c for c in token.children if c.dep_ in ("aux", "auxpass")]
            words = {c.lower_ for c in auxes}
            if words & PERFECT_AUX or token.tag_ == "VBD" or any(c.tag_ == "VBD" for c in auxes):
                return "past"
            if words & FUTURE_AUX:
                return "future"
            return "past" if token.tag_ == "VBN" else None  # "forecast in July"
        if token.head.i == token.i:
            return None
        token = token.head
    return None
