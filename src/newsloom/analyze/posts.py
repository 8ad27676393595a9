"""Posts stage: embedded social posts as they survive text export.

Two shapes (INPUT-FORMATS.md). Inline, in one paragraph: the post's words, media links, then
the signature (``… #Tag pic.twitter.com/x — Sam (@sam) March 2, 2021``); the post text starts
at the paragraph start, or after an earlier signature in the same paragraph. Split: the
signature is a paragraph of its own and the post text is the paragraph just before it. When an
introduction (a call to action, or a line ending in a colon: "She wrote on Instagram:") closes
a short run of paragraphs before the signature, the whole run is the post (a multi-paragraph
post); a title, header line, caption or earlier embed stops the walk back. Paragraphs holding
only links are absorbed into the embed.

The post text excludes leading/trailing links and the signature; ``start``/``end`` cover
text, links and signature. The post's paragraphs are relabelled ``post`` and the signature
``embed_signature`` (pieces of a paragraph outside the embed keep their label). A handle in
parentheses is required: a dash attribution in reporting (``— John Doe, mayor``) is no post.

A post's id hashes its platform, lower-cased handle and text normalised for the purpose
(NFKC, case-folded, links and punctuation dropped), so the same post embedded by two outlets
gets one id whatever their quote marks, spacing around a glued hashtag or pic link.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..models import Paragraph, ParagraphLabel, Post, stable_id
from .social import (
    HASHTAG,
    LINK,
    MENTION,
    Signature,
    find_signatures,
    normalise_post_text,
    platform_of,
)

# A split-shape post may run over several paragraphs only when an introduction (a call to
# action, a line ending in a colon) closes the run within this many paragraphs and characters:
# a 280-character tweet with line breaks fits; two paragraphs of reporting usually do not.
MAX_POST_PARAGRAPHS = 4
MAX_MULTI_PARAGRAPH_CHARS = 600

# Labels that introduce an embed: the post's text starts right after them.
INTRO_LABELS = frozenset({"call_to_action"})
# Labels that end the walk back from a signature without introducing anything.
STOP_LABELS = frozenset({"embed_signature", "post", "title", "metadata", "caption"})


def find_posts(text: str, paragraphs: list[Paragraph]) -> tuple[list[Post], list[Paragraph]]:
    """The posts in ``text`` and ``paragraphs`` relabelled around them."""
    paragraphs = sorted(paragraphs, key=lambda p: (p.start, p.end))
    posts: list[Post] = []
    regions: list[tuple[int, int, int]] = []  # (text_start, signature start, signature end)
    for i, par in enumerate(paragraphs):
        if par.label == "title":
            continue
        pos = par.start
        for sig in find_signatures(text, par.start, par.end):
            if sig.start > pos and text[pos : sig.start].strip():
                text_start = pos  # inline: the words before the signature in this paragraph
            elif pos == par.start:
                text_start = _split_text_start(text, paragraphs, i, regions)
            else:
                text_start = sig.start  # two signatures in a row: no text of its own
            post = _make_post(text, text_start, sig)
            posts.append(post)
            regions.append((text_start, sig.start, sig.end))
            pos = sig.end
    return posts, _relabel(text, paragraphs, regions, posts)


def _split_text_start(
    text: str, paragraphs: list[Paragraph], i: int, regions: list[tuple[int, int, int]]
) -> int:
    """Start of a split-shape post's text: paragraph(s) just before signature paragraph ``i``."""
    taken_until = regions[-1][2] if regions else -1
    run: list[Paragraph] = []  # walking back; links-only paragraphs ride along
    words: list[Paragraph] = []
    introduced = False
    for par in reversed(paragraphs[:i]):
        if par.end <= taken_until or (par.label in STOP_LABELS and not _links_only(text, par)):
            break
        if par.label in INTRO_LABELS or text[par.start : par.end].rstrip().endswith(":"):
            introduced = True  # "Here are some of the reactions:", "She wrote on Instagram:"
            break
        run.append(par)
        if not _links_only(text, par):
            words.append(par)
            if len(words) >= MAX_POST_PARAGRAPHS:
                break
    if not words:
        return run[-1].start if run else paragraphs[i].start
    if introduced and sum(p.end - p.start for p in words) <= MAX_MULTI_PARAGRAPH_CHARS:
        return words[-1].start
    return words[0].start  # default: one paragraph of text (with any links after it)


def _links_only(text: str, par: Paragraph) -> bool:
    words = text[par.start : par.end].split()
    return bool(words) and all(LINK.fullmatch(w) for w in words)


def _make_post(text: str, text_start: int, sig: Signature) -> Post:
    body_start, body_end = _strip_links(text, text_start, sig.start)
    words = text[body_start:body_end]
    region = text[text_start : sig.start]
    embed = text[text_start : sig.end]
    platform = platform_of(embed, sig.handle)
    handle = sig.handle
    hashtags = _unique(
        m.group(1) for m in HASHTAG.finditer(words) if not _in_link(words, m.start())
    )
    mentions = _unique(
        m.group(1)
        for m in MENTION.finditer(words)
        if m.group(1).lower() != handle.lower() and not _in_link(words, m.start())
    )
    media = [m.group(0) for m in LINK.finditer(region)]
    return Post(
        id=stable_id("post", platform, handle.lower(), normalise_post_text(words)),
        platform=platform,
        author=sig.name,
        handle=handle,
        date=sig.date,
        text=words,
        hashtags=hashtags,
        mentions=mentions,
        media=media,
        start=len(region) - len(region.lstrip()) + text_start,
        end=sig.end,
        text_start=body_start,
        text_end=body_end,
    )


def _strip_links(text: str, start: int, end: int) -> tuple[int, int]:
    """``[start, end)`` without surrounding whitespace and links."""
    while True:
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        m = LINK.match(text, start, end)
        if m is not None:
            start = m.end()
            continue
        last = max(
            (m for m in LINK.finditer(text, start, end)), key=lambda m: m.end(), default=None
        )
        if last is not None and last.end() == end:
            end = last.start()
            continue
        return start, end


def _in_link(words: str, pos: int) -> bool:
    return any(m.start() <= pos < m.end() for m in LINK.finditer(words))


def _unique(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _relabel(
    text: str, paragraphs: list[Paragraph], regions: list[tuple[int, int, int]], posts: list[Post]
) -> list[Paragraph]:
    """Paragraphs with each embed's text labelled ``post`` and its signature
    ``embed_signature``; the parts of a paragraph outside every embed keep their label."""
    if not regions:
        return paragraphs
    cuts: list[tuple[int, int, ParagraphLabel, str]] = []
    for (text_start, sig_start, sig_end), post in zip(regions, posts, strict=True):
        cuts.append((text_start, sig_start, "post", f"text of a post by @{post.handle}"))
        cuts.append((sig_start, sig_end, "embed_signature", f"signature of @{post.handle}"))
    out: list[Paragraph] = []
    for par in paragraphs:
        inside = [c for c in cuts if c[0] < par.end and par.start < c[1]]
        if not inside:
            out.append(par)
            continue
        pos = par.start
        for start, end, label, reason in inside:
            out.extend(_piece(text, pos, max(pos, start), par.label, par.reason))
            out.extend(_piece(text, max(pos, start), min(end, par.end), label, reason))
            pos = max(pos, min(end, par.end))
        out.extend(_piece(text, pos, par.end, par.label, par.reason))
    return out


def _piece(text: str, start: int, end: int, label: ParagraphLabel, reason: str) -> list[Paragraph]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if start >= end:
        return []
    return [Paragraph(start=start, end=end, label=label, reason=reason)]
