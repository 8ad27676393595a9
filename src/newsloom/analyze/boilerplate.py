"""Boilerplate stage: split the article into paragraphs and label what is not reporting.

Paragraphs are blank-line separated; a text that uses single newlines only has one paragraph
per line. Header lines before ``article.body_start`` are split per line and labelled
``metadata``; ``article.title_span`` (when set) is one ``title`` paragraph. Every other
paragraph gets a label from general cues, with the cue in ``reason``:

- ``metadata``: ``url:`` lines, lines that are mostly dates and times (``Published: …``,
  ``Monday, Sep 10, 2012 | Updated 9:01 AM EDT``), bare links, bylines;
- ``embed_signature``: a social-post signature (``— Name (@handle) March 2, 2021``);
- ``caption``: photo credits (``(Photo: …)``, ``Credit: …``, ``Name / Agency``, ``… Images``,
  ``Courtesy of …``);
- ``call_to_action``: short lines opening with a verb of looking/reading/watching in the
  imperative (``Watch the clip below:``; the parse's tag rules out ``Watch parties were…``),
  short lines ending in a colon that open with a pointer or come right before an embed
  (``Here are some of the reactions:``), very short lines ending in a pointer
  (``One More Below``, ``Also this...``). A colon line after a speech verb or before a quotation
  is reporting (``Roe said:``), and so is one that introduces a list or an argument;
- ``related_headline``: title-case lines without a final period, or ending in a
  ``(See Pics Inside)``-style parenthetical;
- ``title``: when the reader found neither a header nor a title, a short first line without
  final punctuation, or a first line in title case;
- ``body``: everything else.

Sentences pasted *inside* a body paragraph are cut out of it: a title-case related headline
anywhere ("…the court said. Singer Spotted Leaving Court (See Pics Inside). The judge…"), and a
call to action closing the paragraph when an embed follows ("Fans took sides. Take a look at
the posts."). The paragraph is split into ``body`` / ``related_headline`` / ``body`` pieces (the
reason says so), so paragraphs never overlap and ``label == "body"`` alone selects the
reporting; a consumer counting paragraphs sees the pieces as paragraphs. Sentence ends here are
a cheap regex that skips abbreviations ("Jr.", "U.S.", "J.").

Sentences (``analysis.sentences``) are the parse's sentences, clipped to paragraphs (a sentence
never crosses a paragraph or header boundary) and trimmed of surrounding whitespace. Text is
never rewritten.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeGuard

from ..models import Article, Paragraph, ParagraphLabel
from ..text.dates import MONTH_WORDS, WEEKDAYS
from ..text.ranges import strip_span
from .social import LINK, SIGNATURE

if TYPE_CHECKING:
    from spacy.tokens import Doc

# --- thresholds (calibrated on the patterns of INPUT-FORMATS.md and hand-made counter-examples
# in tests/analyze/test_boilerplate.py: every call to action there has 2-8 words, every caption
# fewer than 25; news body sentences that open with "See"/"Read" run longer) ------------------
MAX_CTA_WORDS = 14  # an imperative or colon-ending line longer than this is reporting
MAX_POINTER_WORDS = 5  # "One More Below", "Also this..."
MAX_CAPTION_WORDS = 40  # a caption is a line or two; a body paragraph with "(pictured)" is longer
MAX_METADATA_WORDS = 16  # "PUBLISHED: 02:31 GMT, 12 March 2013 | UPDATED: 22:19 GMT, …" (13)
# A date line is mostly dates, times and their labels; 0.6 takes every such line of the ECB+
# dev texts ("Story Created: Aug 7, 2012 at 9:56 AM AKDT": 7 of 9) and no sentence there.
DATE_LINE_SHARE = 0.6
MAX_HEADLINE_WORDS = 20  # a related headline is one line
MIN_HEADLINE_CONTENT_WORDS = 4  # "Singer Spotted Leaving Court" (fewer is a name or a label)
MIN_PAREN_HEADLINE_CONTENT_WORDS = 3  # the parenthetical is a cue of its own
MIN_INLINE_HEADLINE_CONTENT_WORDS = 5  # inside a paragraph, without a parenthetical: stricter
# Share of capitalised content words in a title-case line. At 0.85 a lead sentence of the
# ECB+ dev texts ("Voting for MPs to Majlis (Parliament) began in ...") passed; 0.9 keeps every
# title-case headline there and in INPUT-FORMATS.md.
TITLE_CASE_SHARE = 0.9
MAX_TITLE_WORDS = 25  # a first line taken as the title when the reader found none
LOOKAHEAD = 2  # a colon line introduces an embed when one follows within this many paragraphs

# Words that stay lower case in title case; they do not count either way.
FUNCTION_WORDS = frozenset(
    {
        "a", "an", "the", "and", "or", "nor", "but", "of", "in", "on", "at", "to", "for", "with",
        "by", "from", "as", "into", "onto", "over", "via", "vs", "v", "per", "up", "off", "out",
        "is", "are", "was", "be",
    }
)  # fmt: skip
# Lemmas of verbs that introduce a quotation ("Roe said:"): general English.
SPEECH_LEMMAS = frozenset(
    {
        "say", "tell", "write", "add", "explain", "tweet", "post", "state", "reply", "respond",
        "answer", "insist", "claim", "note", "declare", "announce", "continue", "comment",
        "recall", "ask", "argue", "warn", "caption", "share",
    }
)  # fmt: skip

BLANK_LINE = re.compile(r"\n[^\S\n]*\n\s*")
NEWLINE = re.compile(r"\n\s*")
WORD = re.compile(r"[^\W\d_][\w'’\-]*")
FINAL_PUNCT = re.compile(r"[.!?][\"'”’)\]]*\s*$")
ELLIPSIS_END = re.compile(r"(?:\.\.\.|…)\s*$")
OPENING_QUOTE = re.compile(r"^\s*[\"“‘'«„]")

# metadata
URL_LINE = re.compile(r"^url\s*:", re.I)
DATE_LINE = re.compile(
    r"^(?:date|published|updated|posted|last\s+(?:updated|modified)|first\s+published)\b", re.I
)
BYLINE = re.compile(r"^By\s+[A-Z][\w.'’\-]*(?:(?:\s+|,\s*)(?:and\s+)?[A-Z][\w.'’\-]*){0,6}$")
# Words of a date/time line besides numbers (general English; months and weekdays).
DATE_WORDS = (
    frozenset(MONTH_WORDS)
    | frozenset(WEEKDAYS)
    | {"mon", "tue", "wed", "thu", "fri", "sat", "sun", "am", "pm", "a.m", "p.m", "at", "on"}
    | {"updated", "published", "posted", "last", "modified", "first", "date", "time"}
)
TIME_ZONE = re.compile(r"[A-Z]{2,4}|[AP]M|[ap]m")
# A time (10:15, 02.16PM), a year, a numeric date or a month name: what makes a line a date line.
DATE_OR_TIME = re.compile(
    r"\b\d{1,2}[:.]\d{2}\s*(?:[AaPp]\.?[Mm]\b)?|\b(?:19|20)\d{2}\b|\b\d{1,2}[/.\-]\d{1,2}[/.\-]\d{2,4}\b"
    r"|\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\b",
    re.I,
)
# caption
PAREN_CREDIT = re.compile(
    r"\((?:photo|photograph|image|picture|pic|credit|pictured|video|source)s?\b[^)]*\)[.\s]*$",
    re.I,
)
CREDIT_LABEL = re.compile(
    r"\b(?:photo|photograph|image|picture)s?(?:\s+credit)?\s*:|\bcredits?\s*:", re.I
)
_CAP_RUN = r"[A-Z][\w.&'’\-]*(?:\s+[A-Z][\w.&'’\-]*){0,3}"
# "Kim Lee / Agency" (spaced slash) or "Kim Lee/Agency Images"; "AC/DC" and "24/7" are not.
AGENCY_SLASH = re.compile(
    rf"{_CAP_RUN}(?:\s+/\s*|\s*/\s+){_CAP_RUN}\.?\s*$"
    rf"|{_CAP_RUN}\s*/\s*{_CAP_RUN}\s+(?:Images|Photos?|Pictures)\s*$"
)
AGENCY_WORD = re.compile(r"\b[A-Z][\w&'’\-]*\s+(?:Images|Photos?|Pictures|Stock(?:\s+Photo)?)\s*$")
COURTESY = re.compile(
    rf"\b(?:[Cc]ourtesy(?:\s+of)?|via)\s+{_CAP_RUN}\s*$"
    r"|^(?:[Cc]ourtesy\s+of|(?:[Pp]hoto(?:graph)?s?|PHOTOS?)\s+(?:by|BY))\b"
)
# call to action
LOOK_OPENING = re.compile(
    r"^(?:(?:take|have)\s+a\s+(?:look|peek|listen)|see|watch|look|view|read|continue\s+reading|"
    r"keep\s+reading|check\s+(?:out|it\s+out)|click|scroll|listen|tap|swipe|find\s+out)\b",
    re.I,
)
# A pointer word closing a very short line: "One More Below", "Also this...".
POINTER = re.compile(r"\b(?:below|above|here|this|these|following)\W*$", re.I)
DEICTIC_OPENING = re.compile(r"^(?:here|these|this|below|above)\b", re.I)
# related headline
TITLE_PAREN_END = re.compile(r"\((?:[A-Z][\w'’]*[^\S\n]*){1,5}\)[.!]?\s*$")
SENTENCE_BREAK = re.compile(r"(?<=[.!?])[\"”’)]*\s+(?=[\"“‘(]?[A-Z])")
# A period after these (or after an initial, or inside "U.S.") ends no sentence: general
# English abbreviations written before names and in company names.
ABBREVIATIONS = frozenset(
    {
        "mr", "mrs", "ms", "dr", "jr", "sr", "st", "rev", "gen", "sen", "rep", "gov", "lt",
        "col", "capt", "sgt", "prof", "mt", "ft", "no", "vs", "inc", "co", "corp", "ltd", "fr",
    }
)  # fmt: skip
_LAST_WORD = re.compile(r"(\S+?)[\"”’)]*\s*$")


@dataclass(frozen=True)
class Cues:
    """What the classifier may know beyond the paragraph's own text."""

    tags: Sequence[str] = ()  # fine-grained POS tags of the paragraph's tokens (first ones)
    lemmas: frozenset[str] = frozenset()
    following: tuple[str, ...] = ()  # the next paragraphs' texts (up to LOOKAHEAD)
    first: bool = False  # first paragraph of the text, and the reader found no title


def split_paragraphs(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """Paragraph spans of ``text[start:end]``, trimmed of surrounding whitespace."""
    end = len(text) if end is None else end
    separator = BLANK_LINE if BLANK_LINE.search(text, start, end) else NEWLINE
    return list(_pieces(text, start, end, separator))


def _pieces(
    text: str, start: int, end: int, separator: re.Pattern[str]
) -> Iterator[tuple[int, int]]:
    pos = start
    for m in separator.finditer(text, start, end):
        yield from _trim(text, pos, m.start())
        pos = m.end()
    yield from _trim(text, pos, end)


def _trim(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    """The span without its surrounding whitespace, or nothing when it is blank."""
    start, end = strip_span(text, start, end)
    if start < end:
        yield start, end


def label_paragraphs(article: Article, doc: Doc | None = None) -> list[Paragraph]:
    """Every paragraph of ``article`` with its label and the cue that decided it."""
    text = article.text
    body_start = min(max(article.body_start, 0), len(text))
    title = _title(article)
    spans = [(s, e, True) for s, e in _pieces(text, 0, body_start, NEWLINE)]
    spans += [(s, e, False) for s, e in split_paragraphs(text, body_start)]
    if title is not None:  # cut the title out of whatever paragraph holds it
        spans = [piece for s, e, header in spans for piece in _cut(text, s, e, *title, header)]
        spans.append((*title, True))
        spans.sort()
    parsed = doc if _usable(doc, text) else None
    token_starts = [t.idx for t in parsed] if parsed is not None else None
    paragraphs: list[Paragraph] = []
    for i, (s, e, header) in enumerate(spans):
        if (s, e) == title:
            paragraphs.append(Paragraph(start=s, end=e, label="title", reason="title_span"))
            continue
        if header:
            label, reason = _metadata(text[s:e]) or ("metadata", "header line before body_start")
            paragraphs.append(Paragraph(start=s, end=e, label=label, reason=reason))
            continue
        cues = Cues(
            following=tuple(text[a:b] for a, b, _ in spans[i + 1 : i + 1 + LOOKAHEAD]),
            first=title is None
            and body_start == 0  # a reader that parsed a header and found no title is trusted
            and i + 1 < len(spans)
            and all(p.label == "metadata" for p in paragraphs),
            **(
                _token_cues(parsed, token_starts, s, e)
                if parsed is not None and token_starts is not None
                else {}
            ),
        )
        label, reason = classify(text[s:e], cues)
        if label == "body":
            embed_follows = any(_is_embed(t) for t in cues.following)
            paragraphs.extend(_split_inline(text, s, e, reason, embed_follows))
        else:
            paragraphs.append(Paragraph(start=s, end=e, label=label, reason=reason))
    return paragraphs


def _title(article: Article) -> tuple[int, int] | None:
    """The reader's title span, trimmed of surrounding whitespace; None when unusable."""
    span = article.title_span
    if span is None or not 0 <= span.start < span.end <= len(article.text):
        return None
    return next(_trim(article.text, span.start, span.end), None)


def _cut(
    text: str, s: int, e: int, cut_start: int, cut_end: int, header: bool
) -> list[tuple[int, int, bool]]:
    if e <= cut_start or cut_end <= s:
        return [(s, e, header)]
    return [(a, b, header) for a, b in (*_trim(text, s, cut_start), *_trim(text, cut_end, e))]


def _usable(doc: Doc | None, text: str) -> TypeGuard[Doc]:
    """Whether ``doc`` is a parse of ``text`` (cheaply: without rebuilding ``doc.text``)."""
    if doc is None or not hasattr(doc, "__len__"):
        return False
    if len(doc) == 0:
        return not text
    last = doc[len(doc) - 1]
    return bool(last.idx + len(last.text_with_ws) == len(text))


def _token_cues(doc: Doc, token_starts: list[int], start: int, end: int) -> dict:
    first, last = bisect_left(token_starts, start), bisect_left(token_starts, end)
    if last - first > MAX_CTA_WORDS * 2:  # only short paragraphs need the parse's view
        return {"tags": (doc[first].tag_,)}
    tokens = doc[first:last]
    return {
        "tags": tuple(t.tag_ for t in tokens),
        "lemmas": frozenset(t.lemma_.lower() for t in tokens),
    }


def classify(par: str, cues: Cues | None = None) -> tuple[str, str]:
    """``(label, reason)`` of one paragraph's text."""
    cues = cues or Cues()
    words = par.split()
    n = len(words)
    final = bool(FINAL_PUNCT.search(par)) and not ELLIPSIS_END.search(par)
    found = _signature(par) or _metadata(par) or _caption(par, n, final)
    if found:
        return found
    colon = par.rstrip().endswith(":")
    if n <= MAX_CTA_WORDS and not par.endswith("?") and (m := LOOK_OPENING.match(par)):
        # "Watch parties were held" is no imperative: the parse tags "Watch" JJ there. A lone
        # "See" is always one (the small model tags "See Pics Inside" NNP).
        first_tag = cues.tags[0] if cues.tags else "VB"
        if not first_tag.startswith(("NN", "JJ")) or m.group(0).lower() == "see":
            return "call_to_action", f"imperative opening '{m.group(0)}'"
    if colon and n <= MAX_CTA_WORDS:
        return _colon_line(par, cues)
    content = _content_words(par)
    share = _title_share(content)
    if cues.first and n <= MAX_TITLE_WORDS and not colon:
        if not final:
            return "title", "first line, short, no final punctuation (no title_span)"
        if len(content) >= MIN_HEADLINE_CONTENT_WORDS and share >= TITLE_CASE_SHARE:
            return "title", "first line in title case (no title_span)"
    if n <= MAX_POINTER_WORDS and not final and (m := POINTER.search(par)):
        return "call_to_action", f"short pointer line ending in '{m.group(0).rstrip('. …')}'"
    if (
        n <= MAX_HEADLINE_WORDS
        and TITLE_PAREN_END.search(par)
        and len(content) >= MIN_PAREN_HEADLINE_CONTENT_WORDS
        and share >= TITLE_CASE_SHARE
    ):
        return "related_headline", "title-case line ending in a parenthetical"
    if (
        n <= MAX_HEADLINE_WORDS
        and not final
        and not colon
        and len(content) >= MIN_HEADLINE_CONTENT_WORDS
        and share >= TITLE_CASE_SHARE
    ):
        return "related_headline", "title-case line without final punctuation"
    return "body", "short sentence" if n <= MAX_CTA_WORDS and final else "reporting"


def _date_time_line(par: str) -> bool:
    """Mostly dates, times and their labels: "PUBLISHED: 02:31 GMT, 12 March 2013 | UPDATED: …",
    "Story Created: Aug 7, 2012 at 9:56 AM AKDT"."""
    if FINAL_PUNCT.search(par) and not par.rstrip().endswith(("a.m.", "p.m.")):
        return False
    if not DATE_OR_TIME.search(par):
        return False
    words = [w.strip(",.;:|@•·-–—()") for w in par.split()]
    words = [w for w in words if w]
    dateish = sum(
        any(c.isdigit() for c in w) or w.lower() in DATE_WORDS or bool(TIME_ZONE.fullmatch(w))
        for w in words
    )
    return dateish >= DATE_LINE_SHARE * len(words)


def _colon_line(par: str, cues: Cues) -> tuple[str, str]:
    """A short line ending in a colon: a call to action when it points at an embed, reporting
    when it introduces a quotation, a list or an argument ("Roe said:", "Imagine that she:")."""
    if cues.following and OPENING_QUOTE.match(cues.following[0]):
        return "body", "colon introduces a quotation"
    if cues.lemmas & SPEECH_LEMMAS:
        return "body", "colon after a speech verb"
    if len(sentence_pieces(par, 0, len(par))) > 1:
        return "body", "colon line after reporting"
    if DEICTIC_OPENING.match(par):
        return "call_to_action", "short line ending in a colon, opening with a pointer"
    if any(_is_embed(t) for t in cues.following):
        return "call_to_action", "short line ending in a colon before an embed"
    return "body", "colon line introducing reporting"


def _is_embed(par: str) -> bool:
    """A post (its signature), a bare link or a captioned picture."""
    words = par.split()
    links_only = bool(words) and all(LINK.fullmatch(w) for w in words)
    return bool(links_only or SIGNATURE.search(par) or PAREN_CREDIT.search(par))


def _metadata(par: str) -> tuple[str, str] | None:
    n = len(par.split())
    if URL_LINE.match(par):
        return "metadata", "url line"
    if n <= MAX_METADATA_WORDS and DATE_LINE.match(par) and any(c.isdigit() for c in par):
        return "metadata", "date/published/updated line"
    if n <= MAX_METADATA_WORDS and _date_time_line(par):
        return "metadata", "date/time line"
    if n <= MAX_METADATA_WORDS and all(LINK.fullmatch(w) for w in par.split()):
        return "metadata", "link only"
    if BYLINE.match(par):
        return "metadata", "byline"
    return None


def _signature(par: str) -> tuple[str, str] | None:
    m = SIGNATURE.match(par)
    if m is not None:
        return "embed_signature", "post signature: name and (@handle)"
    return None


def _caption(par: str, n: int, final: bool) -> tuple[str, str] | None:
    if n > MAX_CAPTION_WORDS:
        return None
    if PAREN_CREDIT.search(par):
        return "caption", "photo credit in parentheses"
    if CREDIT_LABEL.search(par):
        return "caption", "credit label ('Photo:', 'Credit:')"
    if final:
        return None
    if AGENCY_SLASH.search(par):
        return "caption", "'Name / Agency' credit"
    if AGENCY_WORD.search(par):
        return "caption", "ends in an 'X Images'-style credit"
    if COURTESY.search(par):
        return "caption", "'courtesy of'/'via' credit"
    return None


def _content_words(par: str) -> list[str]:
    return [w for w in WORD.findall(par) if w.lower() not in FUNCTION_WORDS]


def _title_share(content: list[str]) -> float:
    if not content:
        return 0.0
    return sum(w[0].isupper() for w in content) / len(content)


def find_inline_boilerplate(
    text: str, start: int, end: int, embed_follows: bool = False
) -> list[tuple[int, int, ParagraphLabel, str]]:
    """Sentences pasted inside a paragraph that are not reporting, as ``(start, end, label,
    reason)``: title-case related headlines anywhere, and a call to action closing the
    paragraph when an embed follows ("Fans took sides. Take a look at the posts.")."""
    pieces = sentence_pieces(text, start, end)
    if len(pieces) < 2:
        return []
    found: list[tuple[int, int, ParagraphLabel, str]] = []
    for k, (a, b) in enumerate(pieces):
        if reason := _inline_headline_reason(text[a:b]):
            found.append((a, b, "related_headline", reason))
        elif k == len(pieces) - 1 and embed_follows and (reason := _inline_cta_reason(text[a:b])):
            found.append((a, b, "call_to_action", reason))
    return found


def sentence_pieces(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """``text[start:end]`` cut at sentence ends (cheap regex, abbreviation-aware), trimmed."""
    breaks = (
        m for m in SENTENCE_BREAK.finditer(text, start, end) if _ends_sentence(text, m.start())
    )
    bounds = [start, *(m.end() for m in breaks), end]
    return [piece for s, e in zip(bounds, bounds[1:], strict=False) for piece in _trim(text, s, e)]


def _inline_cta_reason(sentence: str) -> str | None:
    n = len(sentence.split())
    if n <= MAX_CTA_WORDS and not sentence.endswith("?") and (m := LOOK_OPENING.match(sentence)):
        return f"closing imperative '{m.group(0)}' before an embed"
    if n <= MAX_POINTER_WORDS and not FINAL_PUNCT.search(sentence) and POINTER.search(sentence):
        return "closing pointer line before an embed"
    if n <= MAX_CTA_WORDS and sentence.endswith(":") and DEICTIC_OPENING.match(sentence):
        return "closing colon line with a pointer before an embed"
    return None


def _ends_sentence(text: str, period_end: int) -> bool:
    """Whether the punctuation just before ``period_end`` ends a sentence (not "Jr.", "J.",
    "U.S.")."""
    m = _LAST_WORD.search(text, max(0, period_end - 40), period_end)
    if m is None or text[period_end - 1] != ".":
        return True
    word = re.split(r"[/\-]", m.group(1).rstrip(".").lstrip('"“‘('))[-1]
    return len(word) > 1 and "." not in word and word.lower() not in ABBREVIATIONS


def _inline_headline_reason(sentence: str) -> str | None:
    if len(sentence.split()) > MAX_HEADLINE_WORDS or OPENING_QUOTE.match(sentence):
        return None
    if sentence.count("(") != sentence.count(")"):  # cut inside "(D-W. Va.)": no sentence
        return None
    content = _content_words(sentence)
    share = _title_share(content)
    paren = TITLE_PAREN_END.search(sentence)
    if (
        paren
        and len(_content_words(sentence[: paren.start()])) >= MIN_PAREN_HEADLINE_CONTENT_WORDS
        and share >= TITLE_CASE_SHARE
    ):
        return "inline title-case sentence ending in a parenthetical"
    if len(content) >= MIN_INLINE_HEADLINE_CONTENT_WORDS and share == 1.0 and "," not in sentence:
        # (a comma means an apposition: "Peter Roe, of Mayfield Memorial Baptist Church.")
        return "inline sentence with every content word capitalised"
    return None


def _split_inline(
    text: str, start: int, end: int, reason: str, embed_follows: bool
) -> list[Paragraph]:
    """A body paragraph, cut around the boilerplate sentences pasted inside it."""
    inline = find_inline_boilerplate(text, start, end, embed_follows)
    if not inline:
        return [Paragraph(start=start, end=end, label="body", reason=reason)]
    around = "body around an inline " + " and ".join(
        dict.fromkeys(label.replace("_", " ") for _, _, label, _ in inline)
    )
    out: list[Paragraph] = []
    pos = start
    for a, b, label, why in inline:
        out += [
            Paragraph(start=s, end=e, label="body", reason=around) for s, e in _trim(text, pos, a)
        ]
        out.append(Paragraph(start=a, end=b, label=label, reason=why))
        pos = b
    out += [
        Paragraph(start=s, end=e, label="body", reason=around) for s, e in _trim(text, pos, end)
    ]
    return out


def sentence_spans(
    doc: Doc | None, paragraphs: Sequence[Paragraph], text: str
) -> list[tuple[int, int]]:
    """The parse's sentences clipped to paragraphs, trimmed; paragraphs when there is no parse."""
    spans = sorted((p.start, p.end) for p in paragraphs)
    if not _usable(doc, text) or not doc.has_annotation("SENT_START"):
        return spans
    out: list[tuple[int, int]] = []
    i = 0
    for sent in doc.sents:
        s, e = sent.start_char, sent.end_char
        while i < len(spans) and spans[i][1] <= s:
            i += 1
        j = i
        while j < len(spans) and spans[j][0] < e:
            out.extend(_trim(text, max(s, spans[j][0]), min(e, spans[j][1])))
            j += 1
    return out
