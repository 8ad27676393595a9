"""What a figure is about: the entity the parse attaches an age, count or amount to.

An age belongs to the noun phrase the syntax ties it to, never merely to the nearest name:

- apposition: ``Roe, 33,`` · ``Roe (33)`` · ``Roe, aged 33,`` -> Roe;
- pre-modifier: ``the 33-year-old actress`` -> the person that description resolves to (a
  name in apposition, ``the 33-year-old actress Jane Roe``; the noun in apposition to a name,
  ``Roe, a 33-year-old actress``; the one person whose stated role ends with that noun, as
  speakers are resolved; or the person the entities stage tied that age to);
- predicate: ``Roe is 33`` -> the subject of the copula;
- possessed: ``Roe's 33-year-old wife`` -> "wife of Jane Roe", not Roe.

A pronoun ("she is 33", "he slipped and fell 200m") stands for its antecedent person
(``antecedents.py``: the subject of the clause its clause hangs from, else the one person of
agreeing gender named in reach); a subject described with an age and named nowhere ("a
36-year-old man died after he fell") owns its figures as that description, which the story
stage matches to the story's one person of that age.

A description that resolves to nobody ("a 33-year-old man") and an age read only from a name
nearby are kept with ``certain=False``: the story stage never raises a conflict on them.
Counts and amounts get the figure's subject from ``claims._subject``; here they get the verb
their phrase is an argument of (``predicate``) and whose figure it is (``owner``: the verb's
subject or the noun's possessor, "Carter scored 14 points"), so two players' points or two
victims' children are never one fact.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from spacy.tokens import Span, Token

from ..models import Entity
from ..text.described import DEFINITE
from .antecedents import Antecedents

SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass"})
# Dependencies by which a pre-modifying age ("33-year-old") hangs on its noun.
MODIFIER_DEPS = frozenset({"amod", "compound", "nummod", "npadvmod", "nmod"})
# Links by which a clause without its own subject takes the subject of the one it hangs from
# ("died after slipping and falling", "ran it while serving", "wants to pay").
CLAUSE_LINKS = frozenset({"advcl", "conj", "xcomp", "pcomp", "prep", "pobj", "acl", "relcl"})
MAX_CLAUSE_CLIMB = 6  # clauses climbed looking for a subject; deeper ones are other sentences'


@dataclass(frozen=True)
class Attachment:
    subject: str | None
    how: str
    certain: bool


class People:
    """The article's people, for resolving a noun phrase to one of them."""

    def __init__(self, entities: Iterable[Entity], antecedents: Antecedents | None = None) -> None:
        self.antecedents = antecedents
        self.spans: list[tuple[int, int, str]] = []
        self.by_role: dict[str, set[str]] = {}
        self.age_at: list[tuple[int, int, str]] = []
        for e in entities:
            if e.type != "PERSON":
                continue
            self.spans.extend((m.start, m.end, e.name) for m in e.mentions)
            for role in e.roles:
                words = role.split(" of ")[0].split()
                if words:
                    self.by_role.setdefault(words[-1].lower(), set()).add(e.name)
            if e.age_span is not None:
                self.age_at.append((e.age_span.start, e.age_span.end, e.name))

    def at(self, token: Token) -> str | None:
        """The person whose mention covers ``token``."""
        start, end = token.idx, token.idx + len(token)
        for s, e, name in self.spans:
            if s < end and start < e:
                return name
        return None

    def with_role(self, noun: Token) -> str | None:
        found = self.by_role.get(noun.lower_, set())
        return next(iter(found)) if len(found) == 1 else None

    def aged_at(self, start: int, end: int) -> str | None:
        """The person the entities stage tied the age written at ``[start, end)`` to."""
        for s, e, name in self.age_at:
            if start <= s < end or s <= start < e:
                return name
        return None

    def nearest(self, span: Span) -> str | None:
        sent = span.sent
        best: tuple[int, str] | None = None
        for start, end, name in self.spans:
            if start < sent.start_char or end > sent.end_char:
                continue
            gap = span.start_char - end if end <= span.start_char else start - span.end_char
            if best is None or max(gap, 0) < best[0]:
                best = (max(gap, 0), name)
        return best[1] if best else None


def _outer(span: Span) -> Token:
    """The token of ``span`` whose head lies outside it (the figure's attachment point)."""
    for token in span:
        if not (span.start <= token.head.i < span.end) or token.head.i == token.i:
            return token
    return span.root


def _before_comma(span: Span) -> Token | None:
    """``Roe, 33,`` / ``Roe (33)`` / ``Roe, aged 33``: the word before the comma or bracket."""
    doc = span.doc
    i = span.start
    if i >= 2 and doc[i - 1].text in (",", "(") and doc[i - 2].pos_ in ("PROPN", "NOUN"):
        return doc[i - 2]
    return None


def _resolve(noun: Token, people: People, span: Span, how: str) -> Attachment:
    """The person a noun phrase names or describes (see the module docstring)."""
    named = people.at(noun)
    if named is not None:
        return Attachment(named, how, True)
    for child in noun.children:  # "the 33-year-old actress Jane Roe"
        if child.dep_ == "appos" and (person := people.at(child)) is not None:
            return Attachment(person, how, True)
    if noun.dep_ == "appos" and (person := people.at(noun.head)) is not None:
        return Attachment(person, "apposition", True)  # "Roe, a 33-year-old actress,"
    for child in noun.children:
        if child.dep_ == "poss" and child.pos_ != "PRON":
            owner = people.at(child) or child.text
            return Attachment(f"{noun.lemma_.lower()} of {owner}", "possessed", True)
    if noun.pos_ == "PRON":
        found = people.antecedents.person_for(noun) if people.antecedents else None
        if found is not None and found.named:
            return Attachment(found.name, "pronoun", True)
        return Attachment(None, "pronoun", False)
    definite = any(c.dep_ == "det" and c.lower_ in DEFINITE for c in noun.children)
    if definite:
        # The entities stage reads "the 33-year-old actress's agent, John Doe" as Doe's age:
        # a description that owns another noun is resolved by its role alone.
        tied = people.aged_at(span.start_char, span.end_char) if noun.dep_ != "poss" else None
        person = tied or people.with_role(noun)
        if person is not None:
            return Attachment(person, "description", True)
    return Attachment(noun.lemma_.lower(), "description", False)


def age_subject(span: Span, people: People) -> Attachment:
    """Whose age the figure ``span`` ("33", "33-year-old", "aged 33") states."""
    before = _before_comma(span)
    if before is not None and (person := people.at(before)) is not None:
        return Attachment(person, "apposition", True)
    root = _outer(span)
    head = root.head
    if root.dep_ in ("attr", "acomp") and head.lemma_ == "be":
        subjects = [c for c in head.children if c.dep_ in SUBJECT_DEPS]
        if subjects:
            return _resolve(subjects[0], people, span, "predicate")
    attached = root.dep_ in MODIFIER_DEPS | {"appos"} and head.pos_ in ("NOUN", "PROPN")
    if attached and not (span.start <= head.i < span.end):
        how = "apposition" if head.i < span.start else "premodifier"
        return _resolve(head, people, span, how)
    person = people.aged_at(span.start_char, span.end_char)
    if person is not None:
        return Attachment(person, "description", True)
    return Attachment(people.nearest(span), "nearby", False)


def predicate_of(token: Token) -> Token | None:
    """The verb whose argument the phrase holding ``token`` is ("12 people were killed")."""
    node = token
    for _ in range(len(token.doc)):  # a parse is a tree; never trust a loop to end by itself
        if node.pos_ in ("VERB", "AUX") and node.i != token.i:
            return node
        if node.head.i == node.i:
            return None
        node = node.head
    return None


def owner_of(noun: Token | None, verb: Token | None, people: People) -> str | None:
    """Whose figure it is: the noun's possessor, else the named subject of its verb or of the
    clause that verb hangs from ("Roe died after falling 60 metres": Roe's fall)."""
    if noun is not None:
        for child in noun.children:
            if child.dep_ == "poss" and child.pos_ != "PRON":
                return people.at(child) or child.text
    node = verb
    for _ in range(MAX_CLAUSE_CLIMB):
        if node is None or (noun is not None and noun.dep_ in SUBJECT_DEPS and node is verb):
            return None
        subjects = [c for c in node.children if c.dep_ in SUBJECT_DEPS]
        if subjects:
            return _person(subjects[0], people)
        if node.dep_ not in CLAUSE_LINKS or node.head.i == node.i:
            return None
        node = node.head
    return None


def _person(subject: Token, people: People) -> str | None:
    """Who a clause subject is: a name; the antecedent of a he/she; the person a description
    names (in apposition, or the one person of that role); an unnamed person it describes
    with an age ("A 36-year-old man died after he slipped" -> "36-year-old man")."""
    named = people.at(subject)
    if named is not None:
        return named
    if subject.pos_ == "PROPN":
        return subject.text
    found = None
    if people.antecedents is not None:
        if subject.pos_ == "PRON":
            found = people.antecedents.person_for(subject)
        elif subject.pos_ == "NOUN":
            for child in subject.children:  # "the climber, Jane Roe,"
                if child.dep_ == "appos" and (person := people.at(child)) is not None:
                    return person
            definite = any(c.dep_ == "det" and c.lower_ in DEFINITE for c in subject.children)
            if definite and (person := people.with_role(subject)) is not None:
                return person
            found = people.antecedents.describe(subject)
    return found.name if found is not None else None
