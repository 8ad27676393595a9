"""The header conventions of plain-text article files (INPUT-FORMATS.md), found by offsets.

In the order they can appear at the top of a file::

    url: https://www.daily-courier.example/2021/03/14/bridge      optional first line
     date 2021-03-14 <text goes on on the same line>             optional date marker
    Council Approves New Bridge                                   optional title line ...
                                                                  ... followed by a blank line
    RIVERTON (AP) — The town council approved ...                 optional dateline

Nothing is removed from the text: ``parse_header`` returns spans into it and ``body_start``,
the offset where the article's own text begins. The dateline and title tests are also used
by the metadata stage for text that did not come with them on top.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..models import Span
from ..spans import find_dateline
from .dates import iso

URL_LINE = re.compile(r"[ \t]*url:[ \t]*(https?://\S+)[ \t]*(?:\r?\n|\r|$)", re.IGNORECASE)
# A space, the word `date`, a space, an ISO date, then the text on the same line. The leading
# space is optional (some exports trim it), the lowercase `date` is not: a body sentence
# never starts with a lowercase "date 2021-03-14".
DATE_MARKER = re.compile(r"[ \t]*date[ \t]+(\d{4})-(\d{2})-(\d{2})(?:[ \t]+|[ \t]*(?=\r?\n|\r|$))")
BLANK_LINES = re.compile(r"(?:[ \t]*(?:\r\n|\n|\r))+")
LINE = re.compile(r"[^\r\n]*")
BLANK_LINE_AFTER = re.compile(r"(?:\r\n|\n|\r)[ \t]*(?:\r\n|\n|\r)")

# Title test thresholds. Headlines in English news run 5-15 words and well under 200
# characters (examples/corpus: 7-12 words, at most 69 characters); a longer line is a lede.
MAX_TITLE_CHARS = 200
MAX_TITLE_WORDS = 25
# Share of capitalised words (of 4+ letters, after the first) that makes a line ending in a
# full stop still read as a (Title Case) headline. On examples/corpus, 1 of 123 body
# sentences reaches 0.6 (median 0.18); Title Case headlines score ~0.9.
TITLE_CASE_SHARE = 0.6
# Photo captions and credits: "(Photo: Archive Picture)", "Photo: ...", "Kim Lee / Agency".
CAPTION = re.compile(
    r"\((?:[^()]*\b(?:photo|photograph|image|picture|pictured|credit|courtesy|file|video)s?\b"
    r"[^()]*)\)"
    r"|\b(?:photo|photograph|image|picture|credit|courtesy)s?\s*(?:by\b|:)"
    r"|\S[ \t]+/[ \t]+[A-Z][\w.&'-]*(?:[ \t]+[A-Z][\w.&'-]*)*[ \t]*$",
    re.IGNORECASE,
)
# Lines exports put above an article that are not its headline: a byline, a "Published:"
# field, a bare date. General words only.
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
META_LINE = re.compile(
    r"[Bb][Yy]\s+(?![Tt]he\b)[A-Z][\w.'’-]*(?:\s+[A-Z][\w.'’-]*){0,3}\s*(?:(?:,|\band\b|&|\|).*)?$"
    r"|(?i:(?:published|updated|posted|last\s+updated|modified|filed|source|author|tags|category)"
    r"\s*:)"
    r"|(?i:(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s+)?"
    rf"(?:{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}|\d{{1,2}}\s+{_MONTH},?\s+\d{{4}}"
    r"|\d{4}-\d{2}-\d{2})"
    r"(?:[,\s]+(?:at\s+)?\d{1,2}[:.]\d{2}(?:\s*[ap]\.?m\.?)?(?:\s+[A-Z]{2,4})?)?\s*$)"
)
SIGNATURE_START = re.compile(r"[ \t]*(?:—|–|-|•)")
# Hashtags, handles and links belong to posts and link lines, never to a headline.
POST_MARKS = re.compile(r"(?:^|[\s(])[#@]\w|\w#\w|pic\.twitter\.com/|https?://|www\.\w")
WORD = re.compile(r"[^\W\d_][\w'’-]*")


@dataclass
class Header:
    """What the top of a plain-text article says, as offsets into its text."""

    published: str | None = None
    url: str | None = None
    title_span: Span | None = None
    dateline: Span | None = None
    body_start: int = 0
    warnings: list[str] = field(default_factory=list)


def title_case_share(line: str) -> float:
    words = [w for w in WORD.findall(line)[1:] if len(w) >= 4]
    if not words:
        return 1.0 if line[:1].isupper() else 0.0
    return sum(w[0].isupper() for w in words) / len(words)


def title_problem(line: str) -> str | None:
    """Why ``line`` (stripped) is not a headline, or None when it reads as one."""
    words = WORD.findall(line)
    if len(words) < 1 or sum(c.isalpha() for c in line) < 3:
        return "too little text"
    if len(line) > MAX_TITLE_CHARS or len(line.split()) > MAX_TITLE_WORDS:
        return "too long for a title"
    first_letter = next((c for c in line if c.isalpha()), "")
    if first_letter.islower():
        return "starts in lower case"
    if line.endswith((":", ",", ";")):
        return "ends like a lead-in"
    if META_LINE.match(line):
        return "a byline, metadata field or date line"
    if CAPTION.search(line):
        return "a photo caption or credit"
    if SIGNATURE_START.match(line) or POST_MARKS.search(line):
        return "a post signature, hashtag, handle or link"
    if find_dateline(line, 0):
        return "opens with a dateline (the body's first line)"
    if (
        line.endswith(".")
        and not line.endswith("...")
        and title_case_share(line) < TITLE_CASE_SHARE
    ):
        return "a sentence (ends with a full stop, not Title Case)"
    return None


def _title_at(text: str, pos: int) -> tuple[Span, int] | None:
    """A title line at ``pos`` followed by a blank line and more text: (span, next pos)."""
    line_end = LINE.match(text, pos).end()  # type: ignore[union-attr]
    blank = BLANK_LINE_AFTER.match(text, line_end)
    if not blank:
        return None
    after = BLANK_LINES.match(text, line_end)
    body = after.end() if after else line_end
    if not text[body:].strip():
        return None  # the only paragraph is the body, not a title
    raw = text[pos:line_end]
    start = pos + len(raw) - len(raw.lstrip())
    end = pos + len(raw.rstrip())
    line = text[start:end]
    if not line or title_problem(line):
        return None
    return Span(start=start, end=end, text=line), body


def _skip_blank(text: str, pos: int) -> int:
    m = BLANK_LINES.match(text, pos)
    return m.end() if m else pos


def parse_header(text: str) -> Header:
    """The header conventions at the top of ``text`` (see the module docstring)."""
    header = Header()
    pos = 1 if text.startswith("\ufeff") else 0
    m = URL_LINE.match(text, pos)
    if m:
        header.url = m.group(1)
        pos = _skip_blank(text, m.end())
    m = DATE_MARKER.match(text, pos)
    if m:
        value = iso(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        if value:
            header.published = value
            pos = _skip_blank(text, m.end())
        else:
            header.warnings.append(f"date marker {m.group(0).strip()!r} is not a real date")
    found = _title_at(text, pos)
    if found:
        header.title_span, pos = found
    header.dateline = find_dateline(text, pos)
    header.body_start = pos
    return header
