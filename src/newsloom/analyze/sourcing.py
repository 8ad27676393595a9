"""Credits to an original source: the outlet or organisation an article says had the material first.

Read from the dependency parse (used by the framing stage), one general pattern per syntactic
role the credited name can take:

- agent of a publishing verb: "first reported by X", "obtained by X", "released by X"
- object of "to"/"with" after a giving or speaking word: "provided to X", "a statement to X",
  "in an interview with X"
- object of "tell": "told X" (but "told reporters" names no outlet)
- subject of a publishing verb: "X reported", "X obtained the footage"
- a report noun owned by X: "a report by X", "X's investigation"
- "according to X"

X must be an organisation: an ORG entity, or a run of capitalised proper nouns that no person,
place or nationality entity covers and that reads as a title ("The Daily Courier") or an acronym
("TMZ"). People, places and common nouns ("reporters", "the statement") are never credited.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from ..models import Entity, SourceCredit
from ..text.ranges import RangeSet

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span, Token

PUBLISH_VERBS = frozenset(
    {"report", "obtain", "release", "publish", "break", "reveal", "film", "share", "post", "air",
     "broadcast", "leak", "acquire", "capture", "uncover", "see", "record", "issue", "provide",
     "distribute", "first"}
)  # fmt: skip
# Verbs whose subject is credited ("X reported"): a subset, since "X shared" or "X provided"
# usually describes a participant rather than a publisher.
SUBJECT_VERBS = frozenset(
    {"report", "obtain", "reveal", "publish", "break", "air", "broadcast", "uncover", "acquire",
     "learn"}
)  # fmt: skip
TO_HEADS = frozenset(
    {"provide", "give", "send", "leak", "confirm", "say", "speak", "talk", "explain", "describe",
     "reveal", "write", "hand", "submit", "statement", "interview", "comment", "email", "letter",
     "remark", "message"}
)  # fmt: skip
WITH_HEADS = frozenset({"interview", "speak", "talk", "sit"})
REPORT_NOUNS = frozenset(
    {"report", "story", "article", "investigation", "exclusive", "interview", "documentary",
     "podcast", "broadcast", "footage", "video", "photo", "photos"}
)  # fmt: skip
NOT_ORG_TYPES = frozenset({"PERSON", "GPE", "LOC", "NORP", "DATE", "TIME", "CARDINAL", "ORDINAL"})
ORG_TYPES = frozenset({"ORG", "WORK_OF_ART", "FAC", "PRODUCT"})


def find_credits(
    doc: Doc,
    entities: Iterable[Entity],
    own: list[tuple[int, int]],
    excluded: list[tuple[int, int]],
) -> list[SourceCredit]:
    entities = list(entities)
    typed = _TypedMentions(entities)
    ent_at = {i: ent for ent in doc.ents for i in range(ent.start, ent.end)}
    own_set, excluded_set = RangeSet(own), RangeSet(excluded)
    person_words = {
        w.lower()
        for e in entities
        if e.type == "PERSON"
        for w in [e.name, *e.aliases]
        for w in w.split()
    }
    credits: list[SourceCredit] = []
    seen: set[tuple[int, int]] = set()
    for cue_tokens, cue, target in _candidates(doc):
        start, end = cue_tokens[0].idx, cue_tokens[-1].idx + len(cue_tokens[-1])
        if not own_set.overlaps(start, end) or excluded_set.overlaps(start, end):
            continue
        name = _organisation(target, typed, ent_at, person_words)
        if name is None or (name[0], name[1]) in seen or excluded_set.overlaps(*name):
            continue
        seen.add((name[0], name[1]))
        sent = target.sent
        named = doc.char_span(name[0], name[1])
        assert named is not None  # entity mentions and parse spans: token boundaries
        credits.append(
            SourceCredit(
                name=named.text,
                start=name[0],
                end=name[1],
                cue=cue,
                cue_start=start,
                cue_end=end,
                sentence_start=sent.start_char,
                sentence_end=sent.end_char,
            )
        )
    return sorted(credits, key=lambda c: c.start)


def _candidates(doc: Doc) -> Iterator[tuple[list[Token], str, Token]]:
    """``(cue tokens, normalised cue, the token naming the credited party)`` per pattern."""
    for token in doc:
        lemma, lower = token.lemma_.lower(), token.lower_
        # Cheap string checks first: most tokens are no cue, and ``.head`` builds an object.
        if not (
            token.dep_ == "agent"
            or lower in ("to", "with")
            or lemma == "tell"
            or lemma in SUBJECT_VERBS
            or lemma in REPORT_NOUNS
        ):
            continue
        head = token.head
        if token.dep_ == "agent" and head.lemma_.lower() in PUBLISH_VERBS:
            first = [c for c in head.children if c.lower_ == "first" and c.i < head.i]
            cue = ("first " if first else "") + f"{head.lower_} by"
            for obj in _objects(token):
                yield [first[0] if first else head, token], cue, obj
        elif token.lower_ == "to" and token.dep_ in ("prep", "dative"):
            if head.lower_ == "according":
                for obj in _objects(token):
                    yield [head, token], "according to", obj
            elif head.lemma_.lower() in TO_HEADS:
                for obj in _objects(token):
                    yield [head, token], f"{head.lower_} to", obj
        elif token.lower_ == "with" and token.dep_ == "prep" and head.lemma_.lower() in WITH_HEADS:
            for obj in _objects(token):
                yield [head, token], f"{head.lower_} with", obj
        elif lemma == "tell" and token.pos_ in ("VERB", "AUX"):
            for obj in token.children:
                if obj.dep_ in ("dobj", "dative"):
                    yield [token], "told", obj
        if lemma in SUBJECT_VERBS and token.pos_ == "VERB" and token.tag_ != "VBN":
            for subj in token.children:
                if subj.dep_ == "nsubj":
                    first = [c for c in token.children if c.lower_ == "first"]
                    yield [token], ("first " if first else "") + token.lower_, subj
        if token.pos_ == "NOUN" and lemma in REPORT_NOUNS:
            for child in token.children:
                if child.dep_ == "poss":
                    yield [token], f"{token.lower_} of", child
                elif child.dep_ == "prep" and child.lower_ in ("by", "from"):
                    for obj in _objects(child):
                        yield [token, child], f"{token.lower_} {child.lower_}", obj


def _objects(prep: Token) -> list[Token]:
    objects = [c for c in prep.children if c.dep_ == "pobj"]
    for obj in list(objects):  # "obtained by TMZ and The Daily Courier"
        objects.extend(c for c in obj.children if c.dep_ == "conj")
    return objects


class _TypedMentions:
    """The entities stage's mentions with their resolved types, sorted by offsets."""

    def __init__(self, entities: list[Entity]) -> None:
        self.typed = sorted((m.start, m.end, e.type) for e in entities for m in e.mentions)
        self.starts = [start for start, _, _ in self.typed]
        self.longest = max((end - start for start, end, _ in self.typed), default=0)

    def at(self, pos: int) -> tuple[int, int, str] | None:
        """The first mention, in sorted order, covering character ``pos``.

        Only mentions starting within ``longest`` characters before ``pos`` can cover it, so
        the search is a bisection plus a short scan, not a pass over the whole article.
        """
        lo = bisect.bisect_left(self.starts, pos - self.longest)
        hi = bisect.bisect_right(self.starts, pos)
        return next((m for m in self.typed[lo:hi] if pos < m[1]), None)


def _organisation(
    token: Token, typed: _TypedMentions, ent_at: dict[int, Span], person_words: set[str]
) -> tuple[int, int] | None:
    """``(start, end)`` of the organisation ``token`` names, or None when it names none."""
    doc = token.doc
    mention = typed.at(token.idx)  # the entities stage's resolved types come first
    if mention is not None:
        start, end, etype = mention
        if etype == "ORG":
            return start, end
        if etype in NOT_ORG_TYPES:
            return None
    ent = ent_at.get(token.i)
    if ent is not None and ent.label_ in NOT_ORG_TYPES:
        return None
    if ent is not None and ent.label_ in ORG_TYPES:
        span = ent
    elif token.pos_ != "PROPN":
        return None
    else:
        left = token.i
        while (
            left > 0
            and doc[left - 1].pos_ == "PROPN"
            and doc[left - 1].head.i in range(left, token.i + 1)
        ):
            left -= 1
        span = doc[left : token.i + 1]
        words = [t for t in span if t.is_alpha]
        acronym = len(words) == 1 and words[0].is_upper and len(words[0]) >= 2
        titled = len(words) >= 2 and all(t.text[:1].isupper() for t in words)
        if not (acronym or titled):
            return None
        # "The Daily Courier": a capitalised determiner belongs to the name.
        if left > 0 and doc[left - 1].lower_ == "the" and doc[left - 1].text[:1].isupper():
            span = doc[left - 1 : token.i + 1]
    if any(t.lower_ in person_words for t in span if t.pos_ == "PROPN"):
        return None
    return span.start_char, span.end_char
