"""Entities stage: people, organisations, places and nationalities, resolved within the article.

Mentions come from the model's entity spans, cleaned by ``mentions.py`` (roles and titles cut
off names, surnames the model called ORG or LAW relabelled, names it missed after "rapper" or
"Mr." added). People are then resolved by ``names.resolve_people``: surname-only and
first-name-only mentions join the full name, typos merge, two people sharing a surname stay
apart. Other names group by their words, with acronyms tied to their long forms. Last, each
person's age and roles are read next to every mention by ``appositions.describe`` — except in
captions, related headlines, calls to action and metadata lines, which repeat names without
describing them — and "The 41-year-old actor" opening a sentence gives its age to the person
who was the subject just before. A name given with "born" joins the person it was the birth
name of (``birth_names.py``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from spacy.tokens import Doc, Token

from ..models import Entity, EntityMention, Paragraph, Span, stable_id
from ..text.described import NOUN_GENDER
from ..text.names import acronym_of, core_parts, is_full_name, is_person_noun, resolve_people
from .antecedents import gendered_apposition, title_gender
from .appositions import MAX_AGE, Age, describe, distinct_roles, name_head
from .birth_names import merge_birth_names
from .mentions import COMPANY_SUFFIXES, Mention, find_mentions

# Paragraphs whose words are names only: ages and roles are not read there.
UNDESCRIBED_LABELS = frozenset({"caption", "related_headline", "call_to_action", "metadata"})
# "The 41-year-old actor" opening a sentence (group 1: the digits).
_AGE_SUBJECT = re.compile(r"\bThe (\d{1,3})[-‐–]years?[-‐–]old\b")
# How many sentence starts may lie between a person named as subject and "The 41-year-old
# actor" referring back to them: the next sentence or the one after (a news paragraph's
# reach); further back the reference is not clear.
BACK_REFERENCE_SENTENCES = 2
_SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass"})


@dataclass
class _Group:
    type: str
    members: list[Mention] = field(default_factory=list)
    age: Age | None = None
    roles: list[str] = field(default_factory=list)


def extract_entities(
    doc: Doc,
    article_id: str,
    paragraphs: Iterable[Paragraph] = (),
    authors: Iterable[str] = (),
    text: str | None = None,
) -> list[Entity]:
    """The article's entities, in order of first mention. ``authors``: display names of the
    embedded posts' authors, who spell their own names right ("Jonh" twice in the copy,
    "— John Delacroix (@johndelacroix)" under his post). ``text``: the text ``doc`` parsed
    (``Doc.text`` is rebuilt from the tokens on every access)."""
    text = doc.text if text is None else text
    mentions = find_mentions(doc)
    groups = _people(doc, mentions) + _others(mentions)
    own_spelling = {" ".join(a.split()) for a in authors}
    names = {id(g): _name(g, own_spelling) for g in groups}
    owners: dict[int, str] = {}
    for g in groups:
        for m in g.members:
            owners.update(dict.fromkeys(range(m.first, m.last), names[id(g)]))
    quiet = [(p.start, p.end) for p in paragraphs if p.label in UNDESCRIBED_LABELS]
    for g in groups:
        if g.type == "PERSON":
            _describe(doc, g, names[id(g)], owners, quiet)
    _ages_referred_back(doc, text, [g for g in groups if g.type == "PERSON"])
    return merge_birth_names(doc, _entities(text, groups, names, article_id))


def _ages_referred_back(doc: Doc, text: str, people: Sequence[_Group]) -> None:
    """'Night Ferry star Desmond Achterberg relapsed ... ¶ The 41-year-old actor entered ...':
    a sentence whose subject is "The N-year-old <person noun>" gives the age of the person
    who was the subject just before (within BACK_REFERENCE_SENTENCES sentences), when that
    person has no age yet."""
    subjects = sorted(
        (m.first, g)
        for g in people
        for m in g.members
        if name_head(doc, m.first, m.last).dep_ in _SUBJECT_DEPS
    )
    if not subjects:
        return
    for match in _AGE_SUBJECT.finditer(text):
        span = doc.char_span(match.start(), match.end(), alignment_mode="expand")
        if span is None or not span[0].is_sent_start:
            continue
        noun = next((t for t in doc[span.end : span.end + 4] if t.pos_ == "NOUN"), None)
        if noun is None or noun.dep_ not in _SUBJECT_DEPS or not is_person_noun(noun.text):
            continue
        sent_start = span[0].i
        earlier = [(i, g) for i, g in subjects if i < sent_start]
        if not earlier:
            continue
        i, group = earlier[-1]
        if (
            group.age is not None
            or _sentences_between(doc, i, sent_start) > BACK_REFERENCE_SENTENCES
        ):
            continue
        digits = match.start(1), match.end(1)
        value = int(match.group(1))
        if 0 < value <= MAX_AGE:
            group.age = Age(value, digits[0], digits[1], match.end())


def _sentences_between(doc: Doc, first: int, last: int) -> int:
    return sum(1 for t in doc[first + 1 : last + 1] if t.is_sent_start)


def _people(doc: Doc, mentions: Sequence[Mention]) -> list[_Group]:
    people = [m for m in mentions if m.label == "PERSON"]
    clusters = resolve_people(
        [m.parts for m in people], [m.weak for m in people], [_gender_shown(doc, m) for m in people]
    )
    groups: dict[int, _Group] = {}
    for mention, cluster in zip(people, clusters, strict=True):
        if cluster is not None:
            groups.setdefault(cluster, _Group("PERSON")).members.append(mention)
    return list(groups.values())


def _gender_shown(doc: Doc, mention: Mention) -> str | None:
    """The gender a title opening the name or right before it gives ("Mrs Ellery": "f"), else
    a noun for a man or a woman in apposition ("her husband, Tom Ellery": "m")."""
    titled = title_gender(doc, mention.first)
    if titled is not None:
        return titled
    noun = gendered_apposition(doc[mention.first : mention.last].root)
    return None if noun is None else NOUN_GENDER[noun]


def _others(mentions: Sequence[Mention]) -> list[_Group]:
    """Organisations, places and nationalities grouped by their words. An acronym joins its
    long form ("World Health Organization (WHO)", or any long form whose initials it is); a
    bare company name joins "Name Corp."."""
    by_key: dict[tuple[str, ...], list[Mention]] = {}
    for m in mentions:
        if m.label == "PERSON":
            continue
        key = m.parts
        if m.acronym_of is not None and mentions[m.acronym_of].label != "PERSON":
            key = mentions[m.acronym_of].parts  # introduced in parentheses after it
        by_key.setdefault(key, []).append(m)
    long_forms = [(k, members[0].text.split()) for k, members in by_key.items() if len(k) >= 2]
    groups: dict[tuple[str, ...], list[Mention]] = {}
    for key, members in by_key.items():
        target = key
        for long, words in long_forms:
            if _short_form(key, members[0], long, words):
                target = long
                break
        groups.setdefault(target, []).extend(members)
    out = []
    for members in groups.values():
        members.sort(key=lambda m: m.start)
        labels = Counter(m.label for m in members)
        top = max(labels.values())
        out.append(_Group(next(m.label for m in members if labels[m.label] == top), members))
    return out


def _short_form(
    key: tuple[str, ...], mention: Mention, long: tuple[str, ...], words: list[str]
) -> bool:
    """'WHO' for 'World Health Organization'; 'Acme' for 'Acme Corp.'."""
    if len(key) == 1 and mention.is_acronym:
        return acronym_of(mention.text, words)
    return (
        len(long) > len(key)
        and long[: len(key)] == key
        and all(w in COMPANY_SUFFIXES or w == "co" for w in long[len(key) :])
    )


def _name(group: _Group, own_spelling: set[str]) -> str:
    """The longest full form; ties go to a post author's own spelling, then the most
    frequent, then the first written."""
    counts = Counter(m.text for m in group.members)
    first_at: dict[str, int] = {}
    for m in group.members:
        first_at.setdefault(m.text, m.start)
    person = group.type == "PERSON"

    def rank(m: Mention) -> tuple:
        full = is_full_name(m.parts) if person else not m.is_acronym
        words = len(core_parts(m.parts)) if person else len(m.parts)
        own = " ".join(m.text.split()) in own_spelling
        return (
            not full,
            -words,
            m.text.isupper(),
            not own,
            -len(m.text),
            -counts[m.text],
            first_at[m.text],
        )

    best = min(group.members, key=rank)
    return " ".join((best.full_name or best.text).split())


def _describe(
    doc: Doc, group: _Group, name: str, owners: dict[int, str], quiet: list[tuple[int, int]]
) -> None:
    def owner(token: Token) -> str | None:
        found = owners.get(token.i)
        return None if found == name else found

    for m in group.members:
        if any(s <= m.start < e for s, e in quiet):
            continue
        description = describe(doc, m.first, m.last, owner)
        if group.age is None and description.age is not None:
            group.age = description.age
        group.roles.extend(description.roles)


def _entities(
    text: str, groups: Sequence[_Group], names: dict[int, str], article_id: str
) -> list[Entity]:
    # Two groups that end with one name and type are one entity (one id).
    merged: dict[tuple[str, str], _Group] = {}
    for g in groups:
        key = (names[id(g)], g.type)
        if key not in merged:
            merged[key] = g
            continue
        into = merged[key]
        into.members = sorted(into.members + g.members, key=lambda m: m.start)
        into.roles += g.roles
        if g.age is not None and (into.age is None or g.age.start < into.age.start):
            into.age = g.age
    entities = []
    for (name, etype), g in merged.items():
        age = g.age
        entities.append(
            Entity(
                id=stable_id("entity", article_id, name, etype),
                name=name,
                type=etype,  # type: ignore[arg-type]
                mentions=[
                    EntityMention(start=s, end=e, text=text[s:e])
                    for s, e in sorted({(m.start, m.end) for m in g.members})
                ],
                aliases=[a for a in dict.fromkeys(m.text for m in g.members) if a != name],
                age=age.value if age else None,
                age_span=Span(start=age.start, end=age.end, text=text[age.start : age.end])
                if age
                else None,
                roles=list(distinct_roles(g.roles)),
            )
        )
    return sorted(entities, key=lambda e: (e.mentions[0].start, e.name))
