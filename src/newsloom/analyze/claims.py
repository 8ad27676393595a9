"""Claims stage: the figures an article states in its own reporting, each tied to what it is about.

Money, counts, ages, durations, percentages and measured quantities are found by the number
grammar in ``quantities.py`` inside body paragraphs, outside direct quotes and embedded posts
(a figure in a quote is the speaker's claim, not the outlet's). Each gets a *subject* from the
dependency parse: the noun it modifies ("a $3m payout", "a two-year contract"), the noun it
completes ("a payout of US$3 million", "40 percent of residents"), the subject of a copula
("the payout was $3m") or the verb it measures ("left after three years"). Ages are tied to
the person the syntax attaches them to (``subjects.py``), with ``subject_certain`` False when
it does not say. ``context`` keeps the clause's content lemmas and ``predicate`` its verb so
the story stage can tell "12,000 people were evacuated" from "12 people died".
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from ..models import Claim, Entity, Paragraph
from ..spans import body_ranges
from ..text.ranges import RangeSet
from .antecedents import Antecedents
from .quantities import Quantity, find_quantities
from .subjects import Attachment, People, age_subject, owner_of, predicate_of

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span, Token

# Nouns after a bare number that do not name counted things ("three times", "two of").
NOT_COUNTED = frozenset({"time", "times", "percent", "way", "ways"})
# Prepositions that link a head noun to the figure that completes it ("payout of $3m").
COMPLEMENT_PREPS = frozenset({"of", "worth", "at", "for", "totalling", "totaling", "to"})
# Words of a clause that carry no content for matching facts across outlets.
CONTEXT_POS = frozenset({"NOUN", "PROPN", "VERB", "ADJ"})
MAX_CONTEXT = 30  # lemmas kept per claim; a long clause adds noise beyond that
MAX_AGE = 125  # an age above this is a misread figure


def extract_claims(
    doc: Doc,
    paragraphs: Iterable[Paragraph],
    entities: Iterable[Entity],
    excluded: list[tuple[int, int]],
    text: str | None = None,
) -> Iterator[Claim]:
    """``text`` is the text ``doc`` parses (``Doc.text`` is rebuilt on every access)."""
    text = doc.text if text is None else text
    entities = list(entities)
    people = People(entities, Antecedents(doc, entities, excluded))
    seen: set[tuple[int, int]] = set()
    excluded_set = RangeSet(excluded)
    for pstart, pend in body_ranges(paragraphs, len(text)):
        for q in find_quantities(text[pstart:pend]):
            start, end = q.start + pstart, q.end + pstart
            if excluded_set.overlaps(start, end):
                continue
            claim = _claim(doc, text, q, start, end, people)
            if claim is not None and (start, end) not in seen:
                seen.add((start, end))
                yield claim
    yield from _entity_ages(doc, text, entities, paragraphs, excluded_set, seen)


def _claim(doc: Doc, text: str, q: Quantity, start: int, end: int, people: People) -> Claim | None:
    span = doc.char_span(start, end, alignment_mode="expand")
    if span is None or len(span) == 0:
        return None
    sent = span.sent
    kind = q.kind
    noun: Token | None = None
    if kind == "number":
        noun = _counted_noun(span)
        if noun is None:
            return None
        kind = "count"
        attached = Attachment(_phrase(noun, span), "counted", True)
    elif kind == "age":
        if not 0 < q.value <= MAX_AGE:
            return None
        attached = age_subject(span, people)
    else:
        attached = _subject(span, kind)
        run = _next_tokens(span)
        noun = run[-1] if run else None
    verb = predicate_of(noun if noun is not None else span.root)
    owner = owner_of(noun, verb, people) if kind != "age" else None
    if attached.how == "verb" and owner is not None:  # "Roe fell 60 metres": Roe's fall
        attached = Attachment(attached.subject, "verb", True)
    return Claim(
        start=start,
        end=end,
        text=text[start:end],
        kind=kind,
        value=q.value,
        value_high=q.value_high,
        unit=q.unit,
        qualifier=q.qualifier,
        bound=q.bound,  # type: ignore[arg-type]
        subject=attached.subject,
        sentence_start=sent.start_char,
        sentence_end=sent.end_char,
        context=_context(span, attached.subject),
        attachment=attached.how,
        subject_certain=attached.certain,
        predicate=verb.lemma_.lower() if verb is not None else None,
        owner=owner,
    )


def _next_tokens(span: Span) -> list[Token]:
    """The noun run right after the figure ("$3m payout", "two-year contract")."""
    doc = span.doc
    run: list[Token] = []
    for token in doc[span.end : min(len(doc), span.end + 3)]:
        if token.pos_ in ("NOUN", "ADJ", "PROPN") and token.is_alpha and token.ent_type_ != "DATE":
            if token.pos_ == "PROPN" and token.text[:1].isupper():
                break  # "3 Downing Street" is an address, "two Americans" is fine below
            run.append(token)
        else:
            break
    return run


def _counted_noun(span: Span) -> Token | None:
    """A bare number counts the noun right after it ("12,000 people", "three young children")."""
    run = _next_tokens(span)
    nouns = [t for t in run if t.pos_ == "NOUN"]
    if nouns and nouns[-1].lemma_.lower() not in NOT_COUNTED:
        return nouns[-1]
    head = span.root.head
    if span.root.dep_ == "nummod" and head.pos_ == "NOUN" and head.i >= span.end:
        return head if head.lemma_.lower() not in NOT_COUNTED else None
    return None


def _phrase(token: Token, span: Span | None = None) -> str:
    """A head word with its compound modifiers, lower-cased: 'signing bonus', 'contract'.

    Words of the figure itself ("two-year" in "two-year contract") are not part of it.
    """
    parts = [
        c
        for c in token.lefts
        if c.dep_ == "compound"
        and c.is_alpha
        and not (span is not None and span.start <= c.i < span.end)
    ]
    words = [c.lower_ for c in parts] + [
        token.lemma_.lower() if token.pos_ != "PROPN" else token.text
    ]
    return " ".join(words)


def _subject(span: Span, kind: str) -> Attachment:
    """What the figure is about, from the parse (see the module docstring for the order); a
    verb alone or nothing leaves it uncertain."""
    root = span.root
    run = _next_tokens(span)
    if run:
        return Attachment(_phrase(run[-1], span), "counted", True)
    doc = span.doc
    after = doc[span.end] if span.end < len(doc) else None
    if (
        after is not None
        and after.lower_ in ("of", "in")
        and kind in ("percent", "quantity", "money")
    ):
        objects = [c for c in after.children if c.dep_ == "pobj" and c.pos_ in ("NOUN", "PROPN")]
        if objects:
            return Attachment(_phrase(objects[0]), "complement", True)
    head = root.head
    if root.dep_ == "pobj" and head.lower_ in COMPLEMENT_PREPS | {"after", "in", "within", "by"}:
        owner = head.head
        if owner.pos_ in ("NOUN", "PROPN") and head.lower_ in COMPLEMENT_PREPS:
            return Attachment(_phrase(owner), "complement", True)
        if owner.pos_ in ("VERB", "AUX"):
            return Attachment(owner.lemma_.lower(), "verb", False)
    if root.dep_ in ("attr", "acomp") and head.lemma_ == "be":
        subjects = [c for c in head.children if c.dep_ in ("nsubj", "nsubjpass")]
        if subjects and subjects[0].pos_ in ("NOUN", "PROPN"):
            return Attachment(_phrase(subjects[0]), "predicate", True)
    if root.dep_ in ("appos",) and head.pos_ in ("NOUN", "PROPN"):
        return Attachment(_phrase(head), "apposition", True)
    if head.pos_ in ("VERB", "AUX") and head.i != root.i:
        return Attachment(head.lemma_.lower(), "verb", False)
    if head.pos_ == "NOUN" and head.i != root.i and not (span.start <= head.i < span.end):
        return Attachment(_phrase(head), "complement", True)
    return Attachment(None, "none", False)


def _context(span: Span, subject: str | None) -> list[str]:
    """Content lemmas of the clause holding the figure (not the figure's own words)."""
    clause = span.root
    for _ in range(len(span.doc)):  # a parse is a tree, but never trust a loop to end by itself
        if clause.pos_ in ("VERB", "AUX") or clause.head.i == clause.i:
            break
        clause = clause.head
    words = {
        t.lemma_.lower()
        for t in clause.subtree
        if t.pos_ in CONTEXT_POS
        and t.is_alpha
        and not t.is_stop
        and not (span.start <= t.i < span.end)
    }
    if subject:
        words.update(subject.lower().split())
    return sorted(words)[:MAX_CONTEXT] if len(words) > MAX_CONTEXT else sorted(words)


def _entity_ages(
    doc: Doc,
    text: str,
    entities: Iterable[Entity],
    paragraphs: Iterable[Paragraph],
    excluded: RangeSet,
    seen: set[tuple[int, int]],
) -> Iterator[Claim]:
    """Ages the entities stage read from appositions ("Roe, 33,")."""
    body = RangeSet(body_ranges(paragraphs, len(text)))
    for entity in entities:
        span = entity.age_span
        if entity.age is None or span is None or (span.start, span.end) in seen:
            continue
        if not body.overlaps(span.start, span.end) or excluded.overlaps(span.start, span.end):
            continue
        if any(s <= span.start and span.end <= e for s, e in seen):
            continue
        if text[span.start : span.end] != span.text or not 0 < entity.age <= MAX_AGE:
            continue
        tokens = doc.char_span(span.start, span.end, alignment_mode="expand")
        if tokens is None or len(tokens) == 0:
            continue
        seen.add((span.start, span.end))
        sent = tokens.sent
        yield Claim(
            start=span.start,
            end=span.end,
            text=span.text,
            kind="age",
            value=float(entity.age),
            unit="year",
            subject=entity.name,
            sentence_start=sent.start_char,
            sentence_end=sent.end_char,
            context=_context(tokens, entity.name),
            attachment="apposition",
            subject_certain=True,
        )
