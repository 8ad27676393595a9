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
- the tense and modality of the governing verb decide whether a year-less date, a weekday or
  ``in two days`` lies after or before publication, read from the parse (modal and
  auxiliary children, ``token.morph`` Tense/Aspect): past and past perfect back (``was
  arrested on March 3``, ``declined to comment on Monday``); ``will``/``may``, a present
  progressive (``is playing on Sunday``) or an infinitive under a present head (``plans
  to``, ``is to``, ``is expected to``, ``is going to``) forward; ``would`` forward from an
  earlier date of the same sentence (the reference time) or publication; the reporting
  present (``says on Monday``) back.

When a sentence dates several events (``A 2019 inspection rated it poor, and repairs were due
to begin in July``), the date whose verb sits nearest the root keeps the sentence as its
description and each other date gets the largest phrase around it that holds no other date;
the story timeline shows that span as the event's text.
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
from dataclasses import dataclass
from itertools import groupby
from typing import TYPE_CHECKING, Literal

from ..models import Article, DateMention, Paragraph, Post
from ..text.dates import PartialDate, parse_partial
from .temporal import Expression, Tense, find_expressions, resolve

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span, Token

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
# Modals that put a verb after the moment of writing ("will play", "may go", "should arrive"),
# unless a perfect "have" puts it back ("may have gone"). "could" and "can" are left out: as
# often past or present ability ("could not be reached on Monday") as a future.
FUTURE_MODALS = frozenset({"will", "'ll", "’ll", "shall", "wo", "may", "might", "should", "must"})
# The future seen from a past moment ("said buses would be rerouted on Tuesday").
CONDITIONAL_MODALS = frozenset({"would", "'d", "’d"})
# How far back the previous date may be for "the night before" / "a year later" to count
# from it. Chosen by hand on news-style rows (tests/analyze/test_dates.py): a date further
# back is more often another thread of the story than the event the phrase points back to.
ANCHOR_SENTENCES = 3
PERFECT_AUX = frozenset({"have", "has", "had", "'ve", "’ve", "'d", "’d"})
HEAD_HOPS = 6  # tokens climbed from a date to the verb whose tense it takes
CLAUSE_TRIM = " ,;:—–-"  # left off the end of a phrase cut out of a sentence


@dataclass(frozen=True)
class _Found:
    expr: Expression
    span: Span
    when: PartialDate
    sentence: int


def extract_dates(
    doc: Doc,
    article: Article,
    paragraphs: Iterable[Paragraph],
    sentences: list[tuple[int, int]],
    posts: Iterable[Post] = (),
) -> Iterator[DateMention]:
    text = article.text  # the doc is a parse of it; Doc.text would be rebuilt from tokens
    if not sentences:
        sentences = [(s.start_char, s.end_char) for s in doc.sents] if len(doc) else []
    found = list(_resolved(doc, article, paragraphs, sentences, posts))
    for index, group in groupby(found, key=lambda f: f.sentence):
        members = list(group)
        bounds = sentences[index] if sentences else (members[0].expr.start, members[-1].expr.end)
        for f in members:
            start, end = _described(f, members, bounds, text)
            yield DateMention(
                start=f.expr.start,
                end=f.expr.end,
                text=text[f.expr.start : f.expr.end],
                value=f.when.iso(),
                sentence_start=min(start, f.expr.start),
                sentence_end=max(end, f.expr.end),
            )


def _resolved(
    doc: Doc,
    article: Article,
    paragraphs: Iterable[Paragraph],
    sentences: list[tuple[int, int]],
    posts: Iterable[Post],
) -> Iterator[_Found]:
    """Every confirmed expression with its value and sentence index, in text order."""
    text = article.text
    published = parse_partial(article.published)
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
            # The reference time: an earlier date of the same sentence, up to publication.
            reference = near if anchor and anchor[1] == index else None
            if reference is not None and published and reference.date > published.date:
                reference = None
            when = resolve(expr, published, near, _tense(span), reference)
            if when is None:
                continue
            anchor = (when, index)
            yield _Found(expr, span, when, index)


def _described(
    found: _Found, members: list[_Found], bounds: tuple[int, int], text: str
) -> tuple[int, int]:
    """The text that tells the dated event: the sentence, or, when the sentence dates other
    events too, the largest phrase around this date that holds none of theirs (``deck
    repairs were due to begin in July`` of ``A 2019 inspection rated it poor, and deck
    repairs were due to begin in July``). The date whose verb is closest to the sentence's
    root keeps the whole sentence."""
    others = [m for m in members if m.when != found.when]
    if not others:
        return bounds
    main = min(members, key=_rank)
    if main.when == found.when:
        return bounds
    token = found.span.root
    start, end = found.expr.start, found.expr.end
    while token.head.i != token.i:
        token = token.head
        left, right = token.left_edge.idx, token.right_edge.idx + len(token.right_edge)
        if any(left <= m.expr.start < right for m in others):
            break
        start, end = min(start, left), max(end, right)
    start, end = max(start, bounds[0]), min(end, bounds[1])
    while end > found.expr.end and text[end - 1] in CLAUSE_TRIM:
        end -= 1
    return start, end


def _rank(found: _Found) -> tuple[int, int]:
    """How close a date hangs to its sentence's root: its verb's depth, then its own."""
    verb = _governing_verb(found.span.root)
    return (_depth(verb) if verb is not None else len(found.span.doc), _depth(found.span.root))


def _depth(token: Token) -> int:
    depth = 0
    while token.head.i != token.i and depth < len(token.doc):
        token, depth = token.head, depth + 1
    return depth


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
    if expr.weak in (None, "ahead"):
        return True  # "in two days" is judged by its tense when resolved
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
    """The tense hint of the verb the date modifies (see the module docstring)."""
    if span.start > 0 and span.doc[span.start - 1].lower_ == "since":
        return "past"
    verb = _governing_verb(span.root)
    if verb is None:
        return None
    if _infinitive(verb):
        # "plans to sign next month", "is to visit on Friday", "is going to announce on
        # Friday": later than a present or future head; after a past head ("declined to
        # comment on Monday", "were due to begin in July") the infinitive does not say.
        head = _finite_tense(verb.head) if verb.head.i != verb.i else None
        if head == "conditional":
            return head
        return "future" if head in ("present", "future") else None
    tense = _finite_tense(verb)
    if tense == "present":
        return "future" if _progressive(verb) else None  # "is playing on Sunday"
    return tense


def _governing_verb(token: Token) -> Token | None:
    for _ in range(HEAD_HOPS):
        if token.pos_ in ("VERB", "AUX"):
            return token
        if token.head.i == token.i:
            return None
        token = token.head
    return None


def _infinitive(verb: Token) -> bool:
    return verb.tag_ == "VB" and any(c.dep_ == "aux" and c.tag_ == "TO" for c in verb.children)


def _progressive(verb: Token) -> bool:
    return "Prog" in verb.morph.get("Aspect", []) and verb.tag_ == "VBG"


FiniteTense = Literal["past", "present", "future", "conditional"] | None


def _finite_tense(verb: Token) -> FiniteTense:
    """The tense a verb group shows: its modal, then the tense morphology of its first
    auxiliary or of the verb itself; None for a bare participle or infinitive."""
    auxes = [c for c in verb.children if c.dep_ in ("aux", "auxpass") and c.i < verb.i]
    words = {c.lower_ for c in auxes}
    modal = next((c.lower_ for c in auxes if c.tag_ == "MD"), None)
    if modal is not None:
        if (words - {modal}) & PERFECT_AUX:
            return "past"  # "would have arrived on Tuesday", "may have left on Monday"
        if modal in CONDITIONAL_MODALS:
            return "conditional"
        return "future" if modal in FUTURE_MODALS else None
    if words & PERFECT_AUX:
        return "past"  # "has left", "had called"
    finite = next((c for c in auxes if "Fin" in c.morph.get("VerbForm", [])), None)
    for token in (finite, verb):
        if token is not None and "Past" in token.morph.get("Tense", []) and token.tag_ != "VBN":
            return "past"
        if token is not None and "Pres" in token.morph.get("Tense", []) and token.tag_ != "VBG":
            return "present"
    if verb.tag_ == "VBG" and finite is None:
        return None
    return "past" if verb.tag_ == "VBN" and finite is None else None  # "forecast in July"
