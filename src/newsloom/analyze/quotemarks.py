"""Pairing quotation marks into quoted segments, robustly, on the raw text.

Handles curly, straight and mixed marks, the NYT's ``''`` (and TeX-style ````` ``  ```), odd numbers
of marks (a quote left open stops at the end of its paragraph, so it never swallows the rest
of the article), and paragraphs that open a quote without closing it (a multi-paragraph quote:
each paragraph gives one segment, flagged ``continues``). Single marks are paired only where
asked (headlines), and apostrophes (``don't``, ``Roe's``, ``'90s``) are never marks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..text.ranges import strip_span

# Double quotation marks. ``''`` and ```` `` ```` are two-character marks (NYT, TeX-style text).
_DOUBLE = re.compile(r"''|``|[\"“”„«»]")
_SINGLE = re.compile(r"['‘’]")
_OPENING_ONLY = frozenset({"“", "``", "„", "«"})
_CLOSING_ONLY = frozenset({"”", "»"})
# Characters after which a straight mark opens a quote, and before which it closes one.
_OPEN_BEFORE = frozenset("([{―—–-/:;,")
_CLOSE_AFTER = frozenset(".,;:!?)]}―—–-…/")
# Elisions that start with an apostrophe ('90s, 'em, 'til, 'cause, 'n').
_ELISION = re.compile(
    r"['‘’](?:\d0s|\d\d\b|em\b|til\b|cause\b|n['‘’]|n\b|tis\b|twas\b)", re.IGNORECASE
)


@dataclass(frozen=True)
class Segment:
    """The inside of one quotation: ``text[start:end]`` excludes the marks."""

    start: int
    end: int
    open_start: int  # where the opening mark starts (== start when there is none)
    close_end: int  # where the closing mark ends (== end when there is none)
    closed: bool  # a closing mark was found in the paragraph
    opened: bool  # an opening mark was found (False: continues the previous paragraph)
    single: bool = False


def _direction(text: str, start: int, end: int, lo: int, hi: int) -> str:
    """'open', 'close' or 'either' for the mark text[start:end] inside paragraph [lo, hi)."""
    mark = text[start:end]
    before = text[start - 1] if start > lo else " "
    after = text[end] if end < hi else " "
    opens = before.isspace() or before in _OPEN_BEFORE or before in "“‘"
    closes = after.isspace() or after in _CLOSE_AFTER or after in "”’\"'"
    if mark in _OPENING_ONLY:
        # A “ glued to the end of a word and followed by a space is a misused closing mark.
        return "close" if closes and not opens else "open"
    if mark in _CLOSING_ONLY:
        return "open" if opens and not closes and start == lo else "close"
    if opens and not closes:
        return "open"
    if closes and not opens:
        return "close"
    return "either"


def paragraph_segments(text: str, lo: int, hi: int) -> list[Segment]:
    """Quoted segments of the paragraph ``text[lo:hi]`` (double marks).

    A clear opening mark inside an open quote starts a nested quote (``“he calls “hell” …”``);
    whatever is still open at the paragraph's end runs to it (a multi-paragraph quote or a
    lost closing mark), so one bad mark never reaches past its paragraph.
    """
    out: list[Segment] = []
    stack: list[tuple[int, int]] = []  # open marks (start, end), outermost first
    for m in _DOUBLE.finditer(text, lo, hi):
        way = _direction(text, m.start(), m.end(), lo, hi)
        if not stack:
            if way == "close" and m.start() > lo:
                # Closes a quote opened in an earlier paragraph (or a lost opening mark).
                begin = out[-1].close_end if out else lo
                s, e = strip_span(text, begin, m.start())
                if s < e:
                    out.append(Segment(s, e, s, m.end(), closed=True, opened=False))
            else:
                stack.append(m.span())
        elif way == "open" and len(stack) == 1 and _direction(text, *stack[0], lo, hi) != "open":
            stack[0] = m.span()  # the pending mark was really a stray close; start again here
        elif way == "open":
            stack.append(m.span())  # a quote inside the quote
        else:
            outer = stack[0]
            stack.pop()
            if not stack:
                s, e = strip_span(text, outer[1], m.start())
                if s < e:
                    out.append(Segment(s, e, outer[0], m.end(), closed=True, opened=True))
    if stack:
        outer = stack[0]
        s, e = strip_span(text, outer[1], hi)
        if s < e:
            out.append(Segment(s, e, outer[0], e, closed=False, opened=True))
    return out


def single_segments(text: str, lo: int, hi: int) -> list[Segment]:
    """Single-quoted segments (headlines: ``'I never lied': Roe insists``), apostrophes skipped."""
    out: list[Segment] = []
    open_at: int | None = None
    skip_to = lo
    for m in _SINGLE.finditer(text, lo, hi):
        i = m.start()
        if i < skip_to:
            continue
        elision = _ELISION.match(text, i)
        if elision is not None and (text[i - 1 : i].isspace() or i == lo):
            skip_to = elision.end()
            continue
        before = text[i - 1] if i > lo else " "
        after = text[i + 1] if i + 1 < hi else " "
        if before.isalnum() and after.isalnum():
            continue  # don't, Roe's
        if open_at is None:
            opens = before.isspace() or before in _OPEN_BEFORE or before in '“"'
            if opens and after.isalnum():
                open_at = m.end()
        elif (after.isspace() or after in _CLOSE_AFTER or after in '”"') and not before.isspace():
            if before in "sS" and after.isspace() and text[open_at:i].count(" ") > 8:
                continue  # probably a plural possessive ("the players' union")
            s, e = strip_span(text, open_at, i)
            if s < e:
                out.append(
                    Segment(s, e, open_at - 1, m.end(), closed=True, opened=True, single=True)
                )
            open_at = None
    return out


def paragraph_spans(text: str) -> list[tuple[int, int]]:
    """Lines of text as paragraphs (used when no paragraph labels exist)."""
    spans = []
    start = 0
    for m in re.finditer(r"\n", text):
        if start < m.start():
            spans.append((start, m.start()))
        start = m.end()
    if start < len(text):
        spans.append((start, len(text)))
    return spans
