"""The quotes stage: direct quotations and indirect attributions, with cue and speaker.

Quote marks are paired per paragraph line (quotemarks.py); each quoted segment gets its cue
and speaker from the dependency parse (attribution.py), or, in a paragraph that only carries
on a quotation, the previous speaker. Speakers resolve to the article's entities: pronouns to
the speaker or person just before, surnames to the full name, ``Roe's spokesperson`` to
``Jane Roe's spokesperson`` (or to the person named in apposition), ``the TV host`` to the one
person the article gave that role. A quotation inside an embedded post is its author's, and so
is a first-person report there ("I'll be back, I promise"); a post's words never name the
speaker of a quotation outside it.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from spacy.tokens import Doc, Span, Token

from ..models import Entity, Paragraph, Post, QuoteMention
from .attribution import (
    NON_SPEAKER_SUBJECTS,
    WEAK_VERBS,
    Cue,
    antecedent,
    cue_before_colon,
    find_cue,
    is_speech_verb,
    speaker_span,
    subject_of,
)
from .quotemarks import Segment, paragraph_segments, paragraph_spans, single_segments

# Paragraph labels whose quotation marks are not reporting. Metadata and call-to-action lines
# are kept: a date-marker line may carry the first sentence, and a short line ending in "here"
# may be a quote.
SKIPPED_LABELS = frozenset({"caption", "related_headline"})
# A pronoun speaker resolves to a person named as a subject earlier in its paragraph, else to
# the previous speaker when that one spoke this many paragraphs ago at most, else to the
# nearest person mentioned before it. Small reaches (2-3) are what news paragraphs support;
# not searched over.
PRONOUN_SPEAKER_REACH = 3
# A quotation with no cue carries on the previous speaker when it opens its paragraph and
# the previous quotation is at most this many paragraphs back.
CONTINUATION_REACH = 2
# Pronouns that resolve to a person.
PERSONAL_PRONOUNS = frozenset({"he", "she", "him", "her"})
# Pronouns that, inside an embedded post, stand for its author.
FIRST_PERSON = frozenset({"i", "me", "we", "us"})
_SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass"})
# '“…” ― Jorge Falcon': a name signed after a dash right behind the closing mark.
_SIGNATURE = re.compile(
    r"[^\S\n]*(―|—|–|--?)[^\S\n]*([A-Z][\w.'’-]*(?:[^\S\n]+[A-Z][\w.'’-]*){0,4})"
)
# 'WALLACE: …' opening a quoted transcript turn: the speaker in capitals before a colon.
_TRANSCRIPT = re.compile(r"([A-Z][A-Z.'’-]+(?:[^\S\n][A-Z][A-Z.'’-]+){0,3}):\s")
# Quoted title-case phrases up to this many words are names of shows, books or laws unless a
# speech verb takes them as its words. Set by reading PolNeAR dev errors (show and book titles
# run to 6-7 words); not searched over.
TITLE_MAX_WORDS = 8
_BLANK = re.compile(r"\n[ \t]*\n")


def blank_line_paragraphs(text: str) -> list[Paragraph]:
    """Minimal body paragraphs from blank lines (for running this stage on its own)."""
    out = []
    start = 0
    for m in [*_BLANK.finditer(text), None]:
        end = m.start() if m else len(text)
        if text[start:end].strip():
            out.append(Paragraph(start=start, end=end, label="body", reason="blank lines"))
        start = m.end() if m else len(text)
    return out


@dataclass
class _Person:
    start: int
    end: int
    name: str
    entity_id: str | None
    is_person: bool
    subject: bool = False
    quoted: bool = False


class _People:
    """Name mentions in text order, from the entities stage or, without it, the model's PERSON ents."""

    def __init__(self, doc: Doc, entities: list[Entity], quoted: list[tuple[int, int]]) -> None:
        mentions: list[_Person] = []
        if entities:
            for ent in entities:
                for m in ent.mentions:
                    mentions.append(_Person(m.start, m.end, ent.name, ent.id, ent.type == "PERSON"))
        else:
            full: dict[str, str] = {}
            for span in doc.ents:
                if span.label_ != "PERSON":
                    continue
                words = [t.text for t in span if t.is_alpha or t.text.endswith(".")]
                if not words:
                    continue
                if len(words) >= 2:
                    full[words[-1]] = " ".join(words)
                name = full.get(words[-1], " ".join(words))
                end = span[-1].idx if span[-1].tag_ == "POS" else span.end_char
                mentions.append(_Person(span.start_char, end, name, None, True))
        mentions.sort(key=lambda p: p.start)
        quoted = sorted(quoted)
        quoted_starts = [s for s, _ in quoted]
        for p in mentions:
            found = doc.char_span(p.start, p.end, alignment_mode="expand")
            if found is not None and len(found):
                root = found.root
                # "Roe's wife, Ana Ruelas, thanked fans": the name in apposition to a subject.
                p.subject = root.dep_ in _SUBJECT_DEPS or (
                    root.dep_ == "appos" and root.head.dep_ in _SUBJECT_DEPS
                )
            k = bisect_right(quoted_starts, p.start) - 1
            p.quoted = k >= 0 and p.end <= quoted[k][1]
        self.mentions = mentions
        self.starts = [p.start for p in mentions]

    def at(self, start: int, end: int) -> _Person | None:
        i = bisect_right(self.starts, end) - 1
        while i >= 0 and self.mentions[i].end > start - 200:
            p = self.mentions[i]
            if p.start < end and start < p.end:
                return p
            i -= 1
        return None

    def subject_between(self, lo: int, hi: int) -> _Person | None:
        """The last person named as a clause subject in [lo, hi) (the pronoun's antecedent)."""
        i = bisect_right(self.starts, hi) - 1
        while i >= 0 and self.mentions[i].start >= lo:
            p = self.mentions[i]
            if p.is_person and p.end <= hi and p.subject and not p.quoted:
                return p
            i -= 1
        return None

    def by_surname(self, token: Token) -> _Person | None:
        """A capitalised word the model did not tag, matched to a person named before it."""
        word = token.text
        if not word[:1].isupper() or token.pos_ != "PROPN":
            return None
        i = bisect_right(self.starts, token.idx) - 1
        while i >= 0:
            p = self.mentions[i]
            if p.is_person and p.name.split()[-1] == word:
                return p
            i -= 1
        return None

    def person_before(self, offset: int) -> _Person | None:
        i = bisect_right(self.starts, offset) - 1
        while i >= 0:
            if self.mentions[i].is_person and self.mentions[i].end <= offset:
                return self.mentions[i]
            i -= 1
        return None


@dataclass
class _Speaker:
    text: str
    start: int
    end: int
    name: str
    entity_id: str | None
    is_person: bool


class _Resolver:
    def __init__(self, doc: Doc, people: _People, entities: Sequence[Entity] = ()) -> None:
        self.doc = doc
        self.people = people
        # People by the last word of each of their roles ("host" for "Golden Crust host").
        self.roles: dict[str, list[Entity]] = {}
        for e in entities:
            if e.type != "PERSON":
                continue
            for word in dict.fromkeys(r.split()[-1].lower() for r in e.roles if r.split()):
                self.roles.setdefault(word, []).append(e)
        self.last: _Speaker | None = None
        self.last_paragraph = -99

    def resolve(self, first: int, last: int, paragraph: int, para_start: int = -1) -> _Speaker:
        doc = self.doc
        span = doc[first:last]
        head = span.root
        text = span.text
        start, end = span.start_char, span.end_char
        if len(span) == 1 and head.lower_ in PERSONAL_PRONOUNS:
            subject = self.people.subject_between(para_start, start)
            if subject is not None:
                return _Speaker(text, start, end, subject.name, subject.entity_id, True)
            prev = self.last
            if (
                prev is not None
                and prev.is_person
                and paragraph - self.last_paragraph <= PRONOUN_SPEAKER_REACH
            ):
                return _Speaker(text, start, end, prev.name, prev.entity_id, prev.is_person)
            person = self.people.person_before(start)
            if person is not None:
                return _Speaker(text, start, end, person.name, person.entity_id, True)
            return _Speaker(text, start, end, text, None, False)
        if len(span) == 1 and head.lower_ in ("they", "it", "we"):
            prev = self.last
            if prev is not None and not prev.is_person and paragraph - self.last_paragraph <= 1:
                return _Speaker(text, start, end, prev.name, prev.entity_id, False)
            return _Speaker(text, start, end, text, None, False)
        target = antecedent(head) if len(span) == 1 else head
        if target is not head:
            first, last = speaker_span(target)
            head = target
        owner = self.people.at(head.idx, head.idx + len(head)) or self.people.by_surname(head)
        if owner is not None:
            return _Speaker(text, start, end, owner.name, owner.entity_id, owner.is_person)
        # Roe's lawyer, John Smith, said: the person named, not the role.
        for child in head.children:
            if child.dep_ == "appos":
                person = self.people.at(child.idx, child.idx + len(child))
                if person is not None and person.is_person:
                    return _Speaker(text, start, end, person.name, person.entity_id, True)
        for child in head.children:
            if child.dep_ == "poss":
                possessor = self.people.at(
                    child.idx, child.idx + len(child)
                ) or self.people.by_surname(child)
                if possessor is not None and possessor.is_person:
                    rest = doc[child.i + 1 : last].text
                    rest = re.sub(r"^(?:'s|’s|'|’)\s*", "", rest)
                    return _Speaker(
                        text, start, end, f"{possessor.name}'s {rest}".strip(), None, False
                    )
        known = self._by_role(head, start)
        if known is not None:
            return _Speaker(text, start, end, known.name, known.id, True)
        return _Speaker(text, start, end, doc[first:last].text, None, False)

    def _by_role(self, head: Token, before: int) -> Entity | None:
        """'the TV host tweeted': the one person named before whose role ends with this noun
        (a definite role noun refers back; "a spokesperson" does not)."""
        if head.pos_ != "NOUN" or not head.text.islower() or head.tag_ != "NN":
            return None
        if not any(c.dep_ == "det" and c.lower_ == "the" for c in head.children):
            return None
        if any(c.dep_ == "poss" for c in head.children):
            return None
        found = [
            e
            for e in self.roles.get(head.lower_, [])
            if e.mentions and e.mentions[0].start < before
        ]
        return found[0] if len(found) == 1 else None

    def spoke(self, speaker: _Speaker, paragraph: int) -> None:
        self.last = speaker
        self.last_paragraph = paragraph


def _lines(text: str, paragraphs: list[Paragraph]) -> list[tuple[int, int, str]]:
    """Paragraph lines to pair marks in (a line break ends an open quote too)."""
    if not paragraphs:
        return [(s, e, "body") for s, e in paragraph_spans(text)]
    out: list[tuple[int, int, str]] = []
    for p in paragraphs:
        if p.label in SKIPPED_LABELS:
            continue
        for s, e in paragraph_spans(text[p.start : p.end]):
            out.append((p.start + s, p.start + e, p.label))
    return out


def _token_range(doc: Doc, start: int, end: int) -> tuple[int, int] | None:
    span: Span | None = doc.char_span(start, end, alignment_mode="expand")
    if span is None or len(span) == 0:
        return None
    return span.start, span.end


def _sentence_index(doc: Doc) -> tuple[list[int], list[int]]:
    """Per token, its sentence number; and each sentence's token bounds (start list)."""
    sent_of = [0] * len(doc)
    bounds = []
    for n, sent in enumerate(doc.sents):
        bounds.append(sent.start)
        for i in range(sent.start, sent.end):
            sent_of[i] = n
    bounds.append(len(doc))
    return sent_of, bounds


def _frame(
    doc: Doc, first: int, last: int, sent_of: list[int], bounds: list[int], para: tuple[int, int]
) -> tuple[int, int]:
    """Tokens where the quote's cue may be: its sentences, clipped to its paragraph, plus the
    next sentence when the quote ends its own ("…." he said. / "…." Roe said.)."""
    n0 = sent_of[max(first - 1, 0)]
    n1 = sent_of[min(last, len(doc) - 1)]
    lo, hi = bounds[n0], bounds[n1 + 1]
    if hi - last <= 2 and n1 + 2 < len(bounds):
        hi = bounds[n1 + 2]  # the parser may split '…." he said.' after the quote
    p_lo, p_hi = para
    return max(lo, p_lo), min(hi, p_hi)


def _in_post(posts: list[Post], start: int, end: int) -> Post | None:
    for post in posts:
        if post.start <= start and end <= post.end:
            return post
    return None


def _mention(
    text: str,
    seg_start: int,
    seg_end: int,
    kind: str,
    cue: tuple[int, int] | None,
    speaker: _Speaker | None,
    paragraph_start: int,
    post: Post | None = None,
) -> QuoteMention:
    fields: dict = {
        "start": seg_start,
        "end": seg_end,
        "text": text[seg_start:seg_end],
        "kind": kind,
    }
    if cue is not None:
        fields.update(cue=text[cue[0] : cue[1]], cue_start=cue[0], cue_end=cue[1])
    if post is not None:
        fields.update(speaker=post.author or f"@{post.handle}", post_id=post.id)
    elif speaker is not None:
        fields.update(
            speaker=speaker.name,
            speaker_text=speaker.text,
            speaker_start=speaker.start,
            speaker_end=speaker.end,
            speaker_entity_id=speaker.entity_id,
        )
    fields["paragraph_start"] = paragraph_start
    return QuoteMention(**fields)


def _cue_chars(doc: Doc, cue: Cue) -> tuple[int, int]:
    span = doc[cue.start : cue.end]
    return span.start_char, span.end_char


@dataclass
class _Reported:
    """A speech verb with a subject and a clause complement (``Roe said that …``)."""

    verb: Token
    subject: Token
    start: int  # characters of the reported clause
    end: int


def _according_to(
    doc: Doc,
    token: Token,
    quoted: list[bool],
    lines: list[tuple[int, int, str]],
    line_starts: list[int],
) -> _Reported | None:
    """'X happened, according to Roe': the rest of the sentence is what Roe reported."""
    obj = next(
        (o for c in token.children if c.lower_ == "to" for o in c.children if o.dep_ == "pobj"),
        None,
    )
    if obj is None or quoted[obj.i]:
        return None
    sent = token.sent
    a, b = token.left_edge.i, token.right_edge.i + 1
    before, after = (sent.start, a), (b, sent.end)
    first, last = max(before, after, key=lambda r: r[1] - r[0])
    while first < last and (doc[first].is_punct or doc[first].is_space):
        first += 1
    while last > first and (doc[last - 1].is_punct or doc[last - 1].is_space):
        last -= 1
    if last - first < 3:
        return None
    n = bisect_right(line_starts, token.idx) - 1
    if n < 0:
        return None
    start = max(doc[first].idx, lines[n][0])
    end = min(doc[last - 1].idx + len(doc[last - 1]), lines[n][1])
    return _Reported(token, obj, start, end) if start < end else None


def _reported_speech(
    doc: Doc, text: str, quoted: list[bool], lines: list[tuple[int, int, str]]
) -> list[_Reported]:
    line_starts = [lo for lo, _, _ in lines]
    out = []
    for token in doc:
        if token.lower_ == "according" and not quoted[token.i]:
            found = _according_to(doc, token, quoted, lines, line_starts)
            if found is not None:
                out.append(found)
            continue
        if quoted[token.i] or not is_speech_verb(token):
            continue
        clause = next((c for c in token.children if c.dep_ == "ccomp"), None)
        if clause is None:
            continue
        if token.lemma_.lower() in WEAK_VERBS and not any(
            c.lower_ == "that" for c in clause.children
        ):
            continue
        subject = subject_of(token, quoted)
        if subject is None or subject.lower_ in NON_SPEAKER_SUBJECTS:
            continue
        first, last = clause.left_edge.i, clause.right_edge.i + 1
        if first <= token.i < last or not any(
            not t.is_punct and not quoted[t.i] for t in doc[first:last]
        ):
            continue
        n = bisect_right(line_starts, token.idx) - 1
        if n < 0:
            continue
        lo, hi = lines[n][0], lines[n][1]
        start = max(doc[first].idx, lo)
        end = min(doc[last - 1].idx + len(doc[last - 1]), hi)  # a clause never crosses paragraphs
        while end > start and text[end - 1] in ".,;: \t":
            end -= 1
        if start < end:
            out.append(_Reported(token, subject, start, end))
    return out


def _signed(doc: Doc, text: str, seg: Segment) -> Cue | None:
    """Speakers the layout names: a dash signature after the quote, a transcript turn in it."""
    m = _TRANSCRIPT.match(text, seg.start)
    if m is None and seg.closed:
        m = _SIGNATURE.match(text, seg.close_end)
        if (
            m is not None
            and m.end(2) < len(text)
            and not (text[m.end(2)].isspace() or text[m.end(2)] in ".,;")
        ):
            m = None
    if m is None:
        return None
    group = 1 if m.re is _TRANSCRIPT else 2
    cue_span = doc.char_span(*m.span(1 if group == 2 else 0), alignment_mode="expand")
    name = doc.char_span(*m.span(group), alignment_mode="expand")
    if name is None or cue_span is None:
        return None
    return Cue(cue_span.start, cue_span.end, (name.start, name.end), "signature")


def _is_title(doc: Doc, first: int, last: int) -> bool:
    """A name or title in quote marks ("Morning Joe", "Make Your Kid a Millionaire")."""
    words = [t for t in doc[first:last] if t.is_alpha]
    if len(words) < 2 or len(words) > TITLE_MAX_WORDS or doc[last - 1].text in (".", "!", "?", ","):
        return False
    return all(t.text[:1].isupper() or t.is_stop and len(t) <= 4 for t in words)


def _says_title(doc: Doc, cue: Cue, first: int, last: int) -> bool:
    """'Trump called her "Crooked Hillary"': the words in title case are what was said."""
    if cue.how != "governs":
        return False
    verb = doc[cue.start]
    root = doc[first:last].root
    return (
        root.dep_ in ("oprd", "attr", "ccomp", "xcomp", "dobj")
        and root.head.i == verb.i
        and (verb.lemma_ not in ("tell", "ask", "inform"))
    )


def _not_speech(text: str, seg: Segment) -> bool:
    """Stage directions "(CROSSTALK.)" and markup attribute values are not quotations."""
    inside = text[seg.start : seg.end].strip()
    if inside[:1] == "(" and inside.rstrip(".")[-1:] == ")":
        return True
    return seg.open_start > 0 and text[seg.open_start - 1] == "="


def _carried_on(
    doc: Doc,
    text: str,
    seg: Segment,
    n: int,
    lines: list[tuple[int, int, str]],
    previous: tuple[int, _Speaker | None],
    people: _People,
    line_tokens: list[tuple[int, int]],
    quoted: list[bool],
    resolver: _Resolver,
) -> _Speaker | None:
    """The speaker of a quotation without a cue: the one quoted just before in the same
    paragraph, or, for a paragraph that opens with a quotation, the previous paragraph's
    speaker (or the person its last sentence is about)."""
    prev_n, prev_speaker = previous
    lo = lines[n][0]
    if prev_n == n:
        return prev_speaker
    if text[lo : seg.open_start].strip():
        return None
    if n >= 1 and text[lo : lines[n - 1][1]].rstrip().endswith(":"):
        # "He said: ¶ "…"": the cue closes the previous paragraph.
        cue = cue_before_colon(doc, *line_tokens[n - 1], quoted)
        if cue is not None and cue.speaker is not None:
            return resolver.resolve(*cue.speaker, n - 1, lines[n - 1][0])
    if prev_n == n - 1 and prev_speaker is not None:
        return prev_speaker
    if n >= 1:
        p_lo, p_hi = lines[n - 1][0], lines[n - 1][1]
        subject = people.subject_between(p_lo, p_hi)
        if subject is not None:
            return _Speaker(
                subject.name, subject.start, subject.end, subject.name, subject.entity_id, True
            )
    if prev_speaker is not None and n - prev_n <= CONTINUATION_REACH:
        return prev_speaker
    return None


def find_quotes(
    doc: Doc,
    paragraphs: list[Paragraph],
    posts: list[Post],
    entities: list[Entity],
    text: str | None = None,
) -> list[QuoteMention]:
    """Direct and indirect quotations in ``doc``; ``text`` is the text it parsed (``Doc.text``
    is rebuilt from the tokens on every access)."""
    text = doc.text if text is None else text
    lines = _lines(text, paragraphs)
    segments: list[tuple[int, Segment]] = []
    for n, (lo, hi, label) in enumerate(lines):
        segs = paragraph_segments(text, lo, hi)
        if label == "title" and not segs:
            segs = single_segments(text, lo, hi)
        segments.extend((n, s) for s in segs)
    quoted = [False] * len(doc)
    ranges: list[tuple[int, int] | None] = []
    for _, seg in segments:
        rng = _token_range(doc, seg.start, seg.end)
        ranges.append(rng)
        marks = _token_range(doc, seg.open_start, seg.close_end)
        if marks is not None:
            for i in range(*marks):
                quoted[i] = True
    sent_of, bounds = _sentence_index(doc)
    line_tokens = [_token_range(doc, lo, hi) or (0, 0) for lo, hi, _ in lines]
    people = _People(doc, entities, [(seg.open_start, seg.close_end) for _, seg in segments])
    resolver = _Resolver(doc, people, entities)
    line_starts = [lo for lo, _, _ in lines]
    # Direct and reported speech in text order, so a pronoun meets the speakers before it.
    events: list[tuple[int, int, object]] = [
        (seg.start, k, k) for k, (_, seg) in enumerate(segments)
    ]
    events.extend(
        (r.verb.idx, len(segments), r) for r in _reported_speech(doc, text, quoted, lines)
    )
    events.sort(key=lambda e: (e[0], e[1]))
    out: list[QuoteMention] = []
    previous: tuple[int, _Speaker | None] = (-99, None)
    for _, _, item in events:
        if isinstance(item, _Reported):
            n = bisect_right(line_starts, item.verb.idx) - 1
            verb = item.verb
            said = (verb.idx, verb.idx + len(verb))
            own_post = _in_post(posts, item.start, item.end)
            if own_post is not None and item.subject.lower_ in FIRST_PERSON:
                # "I'll be back, I promise" in a post: its author speaks.
                para = lines[n][0]
                out.append(
                    _mention(text, item.start, item.end, "indirect", said, None, para, own_post)
                )
                continue
            if own_post is None and _in_post(posts, item.subject.idx, item.subject.idx + 1):
                continue  # a post's words never report speech outside it
            reporter = resolver.resolve(*speaker_span(item.subject), n, lines[n][0])
            out.append(
                _mention(text, item.start, item.end, "indirect", said, reporter, lines[n][0])
            )
            continue
        assert isinstance(item, int)
        (n, seg), rng = segments[item], ranges[item]
        if rng is None:
            continue
        lo, hi, _label = lines[n]
        post = _in_post(posts, seg.start, seg.end)
        first, last = rng
        if _not_speech(text, seg):
            continue
        cue = None
        if post is None:
            frame = _frame(doc, first, last, sent_of, bounds, line_tokens[n])
            cue = _signed(doc, text, seg) or find_cue(doc, first, last, frame, quoted)
            if (
                cue is not None
                and cue.speaker is not None
                and _in_post(posts, doc[cue.speaker[0]].idx, doc[cue.speaker[1] - 1].idx + 1)
            ):
                cue = None  # an embedded post's text or signature names no speaker outside it
            if (
                cue is not None
                and _is_title(doc, first, last)
                and not _says_title(doc, cue, first, last)
            ):
                continue
        speaker: _Speaker | None = None
        cue_chars: tuple[int, int] | None = None
        if cue is not None and cue.speaker is not None:
            speaker = resolver.resolve(*cue.speaker, n, lo)
            cue_chars = _cue_chars(doc, cue)
        elif post is None:
            speaker = _carried_on(
                doc, text, seg, n, lines, previous, people, line_tokens, quoted, resolver
            )
        if speaker is not None:
            resolver.spoke(speaker, n)
            previous = (n, speaker)
        elif post is None:
            continue  # a quoted phrase nobody is said to have said (scare quotes, names)
        out.append(_mention(text, seg.start, seg.end, "direct", cue_chars, speaker, lo, post))
    out.sort(key=lambda q: (q.start, q.end))
    return out
