"""Who a pronoun or an unnamed description stands for: the gender an article shows of its
people and the person a he/she refers back to.

Shared by the quotes stage (pronoun speakers) and the claims stage (whose age, fall or stay
in hospital a figure states). Gender comes only from the article itself: a title before a
name (Mr, Ms, Mrs), a his/her in a sentence naming only that person, and the few English
nouns that carry it ("man", "mother"); never a list of first names.

``Antecedents.person_for`` is precision-first: a pronoun resolves to the subject of the clause
its own clause hangs from ("A 36-year-old man died after he slipped"), else to the one person
of agreeing gender named in its sentence or the ``PRONOUN_REACH`` sentences before it, the
person reporting the clause it sits in aside ("Gaskin said he fell 200m" may be about anyone).
Two such people, or none, leave it unresolved.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
from spacy.attrs import IDX, LENGTH, LOWER, SENT_START
from spacy.strings import StringStore
from spacy.tokens import Doc, Token

from ..models import Entity
from ..text.described import NOUN_GENDER, TITLE_GENDER, described_person
from .attribution import is_speech_verb
from .quantities import find_quantities

PRONOUN_GENDER = {"he": "m", "him": "m", "his": "m", "she": "f", "her": "f", "hers": "f"}
# Their hashes as the parse stores its words (a hash is a function of the string alone).
_PRONOUN_HASHES = np.array(list(map(StringStore().add, PRONOUN_GENDER)), dtype=np.uint64)
SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass"})
_OBJECT_DEPS = frozenset({"dobj", "dative", "pobj"})
# Links by which a clause hangs from the clause whose subject its pronoun may be bound to
# ("died after he slipped", "was arrested and she was charged"); never a complement of a
# speech verb ("Gaskin said he fell" is rarely about Gaskin).
BINDING_LINKS = frozenset({"advcl", "conj", "xcomp", "pcomp", "prep", "pobj"})
MAX_CLAUSE_CLIMB = 6  # clauses climbed looking for a binding subject (as in subjects.py)
# Weights of the evidence for a person's gender: a title or a his/her that can only be theirs
# counts twice what a he/she reporting their own words does ("Roe said she …" is mostly Roe,
# but may be another woman), so one such report never outvotes one plain sign. Not searched
# over.
STRONG_VOTE = 2
REPORTED_VOTE = 1
# Sentences before a pronoun searched for its antecedent: news refers back a sentence or two;
# further back another person has usually come in. Not searched over.
PRONOUN_REACH = 2


class NamedMention(Protocol):
    """A name mention as the quotes stage and this module keep it."""

    start: int
    end: int
    name: str
    entity_id: str | None
    is_person: bool
    quoted: bool
    tokens: tuple[int, int] | None  # the mention's token range, read once by its owner


class TokenOffsets:
    """Where each token of a parse starts and ends: character ranges to token ranges by
    bisection, as ``Doc.char_span(..., alignment_mode="expand")`` gives them, without
    building a Span each time (an article turns a hundred ranges)."""

    def __init__(self, doc: Doc) -> None:
        arr = doc.to_array([IDX, LENGTH]) if len(doc) else np.zeros((0, 2), np.uint64)
        self.starts: list[int] = arr[:, 0].tolist()
        self.ends: list[int] = (arr[:, 0] + arr[:, 1]).tolist()

    def range(self, start: int, end: int) -> tuple[int, int] | None:
        """The tokens that overlap the characters [start, end); None when none does."""
        first, last = bisect_right(self.ends, start), bisect_left(self.starts, end)
        return (first, last) if first < last else None


def article_genders(
    doc: Doc,
    mentions: Sequence[NamedMention],
    quoted: Sequence[tuple[int, int]],
    sentences: list[int] | None = None,
    roots: Callable[[int, int], int] | None = None,
) -> dict[str, str]:
    """What the article itself shows of each person's gender, by entity id or name: a title
    before a mention (Mr, Ms, Mrs), or a his/her later in a sentence that names only that
    person. People the article shows both ways, or neither, are left out (they agree with
    both). A caller that has read them passes the ``sentence_starts`` and a
    ``roots(first, last)`` giving ``doc[first:last].root.i``."""
    votes: dict[str, dict[str, int]] = {}

    def vote(p: NamedMention, gender: str, weight: int = STRONG_VOTE) -> None:
        tally = votes.setdefault(p.entity_id or p.name, {})
        tally[gender] = tally.get(gender, 0) + weight

    if sentences is None:
        sentences = sentence_starts(doc)
    by_sentence: dict[int, list[NamedMention]] = {}
    for p in mentions:
        if not p.is_person or p.quoted:
            continue
        if p.tokens is None:
            continue
        first, last = p.tokens
        titled = title_gender(doc, first)
        if titled is not None:
            vote(p, titled)
        root = roots(first, last) if roots is not None else doc[first:last].root.i
        noun = gendered_apposition(doc[root])
        if noun is not None:
            vote(p, NOUN_GENDER[noun])
        by_sentence.setdefault(bisect_right(sentences, first) - 1, []).append(p)
    pronouns = _gendered_pronouns(doc)
    for n, people in by_sentence.items():
        if len({p.entity_id or p.name for p in people}) != 1:
            continue
        last = max(p.end for p in people)
        owned = reported = False  # the first of each sign in the sentence votes
        subject_gender = ""  # of the first he/she after the name
        for token in _tokens_in(doc, pronouns, *_sentence_range(doc, sentences, n)):
            lower = token.lower_
            if _in_quotation(quoted, token.idx):
                continue  # a pronoun inside a quotation is the speaker's, not the narrator's
            if token.idx >= last and lower in ("he", "she") and not subject_gender:
                subject_gender = PRONOUN_GENDER[lower]
            if (
                subject_gender
                and lower in ("his", "her")
                and PRONOUN_GENDER[lower] != subject_gender
            ):
                # "Holt said he respected her decision": after his he, a her is someone else's
                owned = True
            if token.idx >= last and token.dep_ in _OBJECT_DEPS:
                # "Strand thanked him for his service": someone else is in the sentence, and
                # a possessive after them is theirs.
                owned = True
            # "Roe said his …": a possessive can only be Roe's; "Roe said she …" is mostly
            # Roe, a weaker sign.
            if (
                not owned
                and token.idx >= last
                and lower in ("his", "her")
                and token.dep_ == "poss"
                and not _describes_name(token, people)
            ):
                vote(people[0], PRONOUN_GENDER[lower])
                owned = True
            elif not reported and lower in ("he", "she") and _reports_own(token, people):
                vote(people[0], PRONOUN_GENDER[lower], REPORTED_VOTE)
                reported = True
            if owned and reported:
                break
    _vote_next_sentence(doc, sentences, by_sentence, quoted, vote, pronouns)
    # A gender the article shows at least twice as often as the other (one slip is noise).
    out = {}
    for key, tally in votes.items():
        m, f = tally.get("m", 0), tally.get("f", 0)
        if m >= 2 * f and m:
            out[key] = "m"
        elif f >= 2 * m and f:
            out[key] = "f"
    return out


def _in_quotation(quoted: Sequence[tuple[int, int]], offset: int) -> bool:
    """Whether ``offset`` lies inside one of the sorted (start, end) ranges ``quoted``."""
    k = bisect_right(quoted, (offset, 1 << 62)) - 1
    return k >= 0 and offset < quoted[k][1]


def _gendered_pronouns(doc: Doc) -> list[int]:
    """The indices of the tokens whose lower-case form is in ``PRONOUN_GENDER``, in order
    (read from the parse's arrays: the votes look at these few tokens only)."""
    if not len(doc):
        return []
    return np.flatnonzero(np.isin(doc.to_array(LOWER), _PRONOUN_HASHES)).tolist()


def sentence_starts(doc: Doc) -> list[int]:
    """The first token of each sentence, in order (read from the parse's arrays)."""
    if not len(doc):
        return []
    starts = np.flatnonzero(doc.to_array(SENT_START) == 1).tolist()
    return starts if starts and starts[0] == 0 else [0, *starts]


def _sentence_range(doc: Doc, sentences: list[int], n: int) -> tuple[int, int]:
    """The tokens [start, end) of sentence ``n``."""
    return sentences[n], sentences[n + 1] if n + 1 < len(sentences) else len(doc)


def _tokens_in(doc: Doc, indices: list[int], start: int, end: int) -> Iterator[Token]:
    """The tokens of the sorted ``indices`` that lie in [start, end)."""
    for i in indices[bisect_left(indices, start) : bisect_left(indices, end)]:
        yield doc[i]


def _vote_next_sentence(
    doc: Doc,
    sentences: list[int],
    by_sentence: dict[int, list[NamedMention]],
    quoted: Sequence[tuple[int, int]],
    vote: Callable[[NamedMention, str, int], None],
    pronouns: list[int],
) -> None:
    """'Shop owner Raj Malhotra says trade has fallen. "…," he said.': a he/she subject of a
    sentence that names nobody, right after a sentence of the same paragraph that names one
    person alone, is mostly that person (a weak sign, as a reported he/she is).
    ``by_sentence``: the people each sentence (by number) names."""
    sole: NamedMention | None = None
    for n in range(len(sentences)):
        people = by_sentence.get(n)
        if people is not None:
            one = len({p.entity_id or p.name for p in people}) == 1
            sole = people[0] if one else None
            continue
        if sole is None:
            continue
        start, end = _sentence_range(doc, sentences, n)
        gap = doc[max(start - 2, 0) : start + 1]  # a line break: another paragraph
        if not any("\n" in t.text or "\n" in t.whitespace_ for t in gap):
            for token in _tokens_in(doc, pronouns, start, end):
                if token.lower_ not in ("he", "she") or _in_quotation(quoted, token.idx):
                    continue  # not a he/she, or the speaker's own words
                if token.dep_ in SUBJECT_DEPS:
                    vote(sole, PRONOUN_GENDER[token.lower_], REPORTED_VOTE)
                    break
        sole = None  # only the sentence right after counts


def title_gender(doc: Doc, first: int) -> str | None:
    """The gender a title gives a name starting at token ``first``: one opening it ("Mrs
    Roe") or right before it."""
    for k in (first, first - 1):
        if 0 <= k < len(doc):
            gender = TITLE_GENDER.get(doc[k].lower_.rstrip("."))
            if gender is not None:
                return gender
    return None


def gendered_apposition(root: Token) -> str | None:
    """'her husband, Luis', 'Dorothy Lang, the victim's mother': a noun that carries a
    gender in apposition with the name, either way."""
    if root.dep_ == "appos" and root.head.lemma_.lower() in NOUN_GENDER:
        return root.head.lemma_.lower()
    for child in root.children:
        if child.dep_ == "appos" and child.lemma_.lower() in NOUN_GENDER:
            return child.lemma_.lower()
    return None


def _reports_own(pronoun: Token, people: Sequence[NamedMention]) -> bool:
    """'Lisle said she had waited': a he/she subject of the clause a speech verb reports,
    whose subject is a mention of the (only) person the sentence names."""
    if pronoun.dep_ not in SUBJECT_DEPS:
        return False
    clause = pronoun.head
    if clause.dep_ != "ccomp" or not is_speech_verb(clause.head):
        return False
    return any(
        c.dep_ == "nsubj" and any(p.start <= c.idx < p.end for p in people)
        for c in clause.head.children
    )


def _describes_name(possessive: Token, people: Sequence[NamedMention]) -> bool:
    """'Donald Trump, her Republican opponent,': a possessive inside a phrase in apposition to
    the name is someone else's."""
    noun = possessive.head
    if noun.dep_ != "appos":
        return False
    name = noun.head.idx
    return any(p.start <= name < p.end for p in people)


@dataclass
class _Mention:
    start: int
    end: int
    name: str
    entity_id: str | None
    is_person: bool = True
    quoted: bool = False
    tokens: tuple[int, int] | None = None


@dataclass(frozen=True)
class Referent:
    """Who a pronoun or description stands for: a person's name, or an unnamed person's
    description with a stated age ("36-year-old man"), which the story stage matches."""

    name: str
    named: bool


def described_age(noun: Token) -> int | None:
    """The age a pre-modifier of ``noun`` states ("a 36-year-old Australian climber")."""
    lefts = list(noun.lefts)
    if not lefts:
        return None
    doc = noun.doc
    start = lefts[0].idx
    for q in find_quantities(doc.text[start : noun.idx]):
        if q.kind == "age" and float(q.value).is_integer():
            return int(q.value)
    return None


class Antecedents:
    """The article's people in text order, with the gender the article shows of each."""

    def __init__(
        self, doc: Doc, entities: Iterable[Entity], quoted: Sequence[tuple[int, int]] = ()
    ) -> None:
        self.doc = doc
        mentions = [
            _Mention(m.start, m.end, e.name, e.id)
            for e in entities
            if e.type == "PERSON"
            for m in e.mentions
        ]
        quoted = sorted(quoted)
        starts = [s for s, _ in quoted]
        offsets = TokenOffsets(doc)
        for p in mentions:
            k = bisect_right(starts, p.start) - 1
            p.quoted = k >= 0 and p.end <= quoted[k][1]
            p.tokens = offsets.range(p.start, p.end)
        self.mentions = sorted(mentions, key=lambda p: p.start)
        self.gender = article_genders(doc, self.mentions, quoted)

    def _agrees(self, mention: _Mention, want: str | None) -> bool:
        have = self.gender.get(mention.entity_id or mention.name)
        return want is None or have is None or have == want

    def _named_at(self, token: Token) -> _Mention | None:
        start, end = token.idx, token.idx + len(token)
        for p in self.mentions:
            if p.start < end and start < p.end:
                return p
        return None

    def describe(self, noun: Token, want: str | None = None) -> Referent | None:
        """The person a noun phrase names, or an unnamed one it describes with an age."""
        named = self._named_at(noun)
        if named is not None:
            return Referent(named.name, True) if self._agrees(named, want) else None
        if noun.pos_ != "NOUN":
            return None
        gender = NOUN_GENDER.get(noun.lemma_.lower())
        if want is not None and gender is not None and gender != want:
            return None
        age = described_age(noun)
        if age is None:
            return None
        return Referent(described_person(age, noun.lemma_.lower()), False)

    def person_for(self, pronoun: Token) -> Referent | None:
        """The antecedent of a he/she/him/her (see the module docstring), or None."""
        want = PRONOUN_GENDER.get(pronoun.lower_)
        if want is None:
            return None
        bound = self._binding_subject(pronoun)
        if bound is not None:
            found = self.describe(bound, want)
            if found is not None:
                return found
        sents = list(self.doc.sents)
        here = next(i for i, s in enumerate(sents) if s.start <= pronoun.i < s.end)
        lo = sents[max(0, here - PRONOUN_REACH)].start_char
        near = {
            p.entity_id or p.name: p
            for p in self.mentions
            if lo <= p.start and p.end <= pronoun.idx and not p.quoted
        }
        reporter = self._reporter(pronoun)
        agreeing = [p for p in near.values() if self._agrees(p, want) and p.name != reporter]
        return Referent(agreeing[0].name, True) if len(agreeing) == 1 else None

    def _reporter(self, pronoun: Token) -> str | None:
        """The named subject of the clause whose complement holds the pronoun ("Gaskin said
        he fell"): the pronoun may be anyone the reporter speaks of, so never taken as him."""
        for node in pronoun.ancestors:
            if node.dep_ == "ccomp":
                for child in node.head.children:
                    if child.dep_ in SUBJECT_DEPS and (named := self._named_at(child)):
                        return named.name
        return None

    def _binding_subject(self, pronoun: Token) -> Token | None:
        """The subject of the clause the pronoun's own clause hangs from."""
        node = pronoun.head
        for _ in range(MAX_CLAUSE_CLIMB):
            if node.dep_ not in BINDING_LINKS or node.head.i == node.i:
                return None
            node = node.head
            subjects = [c for c in node.children if c.dep_ in SUBJECT_DEPS]
            if subjects and subjects[0].i != pronoun.i:
                return subjects[0] if subjects[0].pos_ != "PRON" else None
        return None
