"""Pure helpers for embedded social posts as they survive text export (shared by the
boilerplate and posts stages).

A post signature is a dash (or Instagram's ``A post shared by``), a display name, a handle in
parentheses and usually a date: ``— Sam (@sam_writes) March 2, 2021``. The handle in
parentheses is what makes it a signature: a dash attribution in reporting (``— John Doe,
mayor``) has none, and an e-mail address never opens with ``@``. The month names are general
English; nothing here names a person or an outlet.
"""

from __future__ import annotations

import datetime
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass

from ..text.dates import MONTH_WORDS

_MONTH = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|"
    r"Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)"
)
_DAY = r"(?:[0-3]?\d)(?:st|nd|rd|th)?"
# `March 2, 2021` / `Mar. 2 2021` / `2 March 2021` / `2021-03-02` (with an optional time,
# which embeds add: `at 10:15am PST`, `2021-03-02T10:15:00Z`).
DATE = (
    rf"(?:(?P<m1>{_MONTH})\.?\s+(?P<d1>{_DAY}),?\s+(?P<y1>\d{{4}})"
    rf"|(?P<d2>{_DAY})\s+(?P<m2>{_MONTH})\.?,?\s+(?P<y2>\d{{4}})"
    r"|(?P<iso>\d{4}-\d{2}-\d{2})(?:T[\d:.]+Z?)?)"
    r"(?:,?\s+(?:at\s+)?\d{1,2}:\d{2}\s*(?:[AaPp]\.?[Mm]\.?)?(?:\s+[A-Z]{2,4}\b)?)?"
)

# A handle: Twitter/X `\w{1,15}`; Instagram, Threads and TikTok add dots; Bluesky handles are
# domain names (`name.bsky.social`). Never ends in a dot (sentence punctuation).
HANDLE = r"[A-Za-z0-9_](?:[A-Za-z0-9_.\-]{0,60}[A-Za-z0-9_])?"

# A display name: up to 60 characters of anything but line breaks, parentheses, `@` or dashes
# (so the match starts at the dash nearest the handle). Emoji and capitals are kept as written.
_NAME = r"(?P<name>[^\n()@—–―]{0,60}?)"

SIGNATURE = re.compile(
    rf"(?:(?:(?<=\s)|^)(?:[—–―]|--?)[^\S\n]*|\bA post shared by\s+)"
    rf"{_NAME}[^\S\n]*\([^\S\n]*@(?P<handle>{HANDLE})[^\S\n]*\)"
    rf"(?:[^\S\n]*(?:on[^\S\n]+)?(?P<date>{DATE}))?"
    r"(?:[^\S\n]+(?P<link>https?://\S+))?"
)

# Links: `https://t.co/…`, `pic.twitter.com/…`, `instagram.com/p/…` (a post's media or the post
# itself); sentence punctuation after a link is not part of it.
LINK = re.compile(
    r"(?:https?://|www\.|\b(?:[A-Za-z0-9\-]+\.)+[A-Za-z]{2,}/)[^\s\"“”]*[^\s.,;:!?)\]\"'“”’]"
    r"|\b(?:[A-Za-z0-9\-]+\.)+[A-Za-z]{2,}/"
)
# Hashtags may be glued to the previous word (`THE END#JusticeForX`); `&#39;` is an entity.
HASHTAG = re.compile(r"(?<!&)#(\w*[^\W\d]\w*)")
# A mention is not preceded by a word character (that would be an e-mail address).
MENTION = re.compile(r"(?<![\w.@])@(" + HANDLE + ")")

# Platform by the shapes of its links or embed wording; Twitter when nothing else says.
PLATFORM_CUES = (
    ("instagram", re.compile(r"instagram\.com/|\bA post shared by\b|\bon Instagram\b", re.I)),
    ("threads", re.compile(r"threads\.(?:net|com)/|\bon Threads\b", re.I)),
    ("bluesky", re.compile(r"bsky\.app/|\.bsky\.social\b", re.I)),
    ("tiktok", re.compile(r"tiktok\.com/|\bon TikTok\b", re.I)),
    ("x", re.compile(r"(?<![\w.])x\.com/|\bpic\.x\.com/", re.I)),
)


@dataclass(frozen=True)
class Signature:
    start: int
    end: int
    name: str | None
    handle: str
    date: str | None


def find_signatures(text: str, start: int = 0, end: int | None = None) -> Iterator[Signature]:
    """Post signatures in ``text[start:end]``, offsets into ``text``."""
    for m in SIGNATURE.finditer(text, start, len(text) if end is None else end):
        name = m.group("name").strip() or None
        yield Signature(m.start(), m.end(), name, m.group("handle"), iso_date(m))


def iso_date(m: re.Match[str]) -> str | None:
    """ISO date of a SIGNATURE match's date groups; None when absent or impossible."""
    try:
        if m.group("iso"):
            return datetime.date.fromisoformat(m.group("iso")).isoformat()
        if m.group("m1"):
            month, day, year = m.group("m1"), m.group("d1"), m.group("y1")
        elif m.group("m2"):
            month, day, year = m.group("m2"), m.group("d2"), m.group("y2")
        else:
            return None
        number = MONTH_WORDS[month.lower()]
        return datetime.date(int(year), number, int(re.sub(r"\D", "", day))).isoformat()
    except (ValueError, KeyError):
        return None


def platform_of(embed: str, handle: str) -> str:
    for name, cue in PLATFORM_CUES:
        if cue.search(embed) or cue.search("@" + handle):
            return name
    return "twitter"


def normalise_post_text(text: str) -> str:
    """Post text as hashed for its id: outlets differ in quote marks, spacing around glued
    hashtags, case and punctuation, never in the words."""
    text = LINK.sub(" ", unicodedata.normalize("NFKC", text)).casefold()
    return " ".join(re.findall(r"[^\W_]+", text))
