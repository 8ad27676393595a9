"""What a news sentence says about a person right next to the name: age and role.

Patterns read off the dependency parse and the tokens around a name span:

- age:  ``Roe, 33,`` · ``Roe (33)`` · ``Roe, aged 33,`` · ``33-year-old Roe`` ·
  ``Roe, a 33-year-old teacher,``
- role: pre-modifiers (``TV producer Jane Roe``, ``Oscar-winning actress Roe``), an apposition
  after the name (``Roe, the company's chief executive,``) or the name in apposition to a
  noun before it (``Roe's lawyer John Smith``, ``the victim, Jane Roe``).

A possessor that is a known entity becomes part of the role ("lawyer of Jane Roe").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from spacy.tokens import Doc, Token

from .names import is_honorific, is_role_noun, is_title, title_role

# Oldest age accepted in an apposition; larger numbers there are house numbers, counts, etc.
MAX_AGE = 120
# Longest role phrase kept; longer appositions are descriptions, not roles (calibrated on
# invented appositions such as "a member of the local residents' association of the town").
MAX_ROLE_TOKENS = 10
# Tokens that may close an age apposition: "Roe, 33, said" / "Roe, 33." / "Roe, 33; Doe".
AGE_CLOSERS = frozenset({",", ".", ";", ":", ")", "—", "–", "-", "!", "?"})
# Prepositions whose phrase stays in a role: "professor at Leeds", "lawyer for the family".
ROLE_PREPOSITIONS = frozenset({"of", "at", "for", "with"})
# Words that make the apposition a description rather than a role ("Roe, who ...").
_AGE_IN_TEXT = re.compile(r"\b(\d{1,3})(?:\s*[-‐–]\s*|\s+)years?(?:\s*[-‐–]\s*|\s+)old\b", re.I)

OwnerFn = Callable[[Token], "str | None"]


@dataclass(frozen=True)
class Age:
    value: int
    start: int  # the digits: text[start:end] == "33"
    end: int
    phrase_end: int = 0  # end of the whole "33-year-old" when the age is a pre-modifier


def name_head(doc: Doc, start: int, end: int) -> Token:
    """The token of ``doc[start:end]`` whose syntactic head lies outside the span."""
    span = doc[start:end]
    for token in reversed(span):
        if not (start <= token.head.i < end) or token.head.i == token.i:
            return token
    return span[-1]


def _age_number(token: Token) -> int | None:
    if not token.text.isdigit() or len(token.text) > 3:
        return None
    value = int(token.text)
    return value if 0 < value <= MAX_AGE else None


def _closes(doc: Doc, i: int) -> bool:
    return i >= len(doc) or doc[i].text in AGE_CLOSERS or doc[i].is_space or doc[i].is_sent_start


def _age_from_text(doc: Doc, start: int, end: int) -> Age | None:
    """An 'N-year-old' inside ``doc[start:end]``."""
    if start >= end:
        return None
    first = doc[start].idx
    match = _AGE_IN_TEXT.search(doc.text[first : doc[end - 1].idx + len(doc[end - 1])])
    if match is None:
        return None
    value = int(match.group(1))
    if not 0 < value <= MAX_AGE:
        return None
    return Age(value, first + match.start(1), first + match.end(1), first + match.end())


def age_after(doc: Doc, start: int, end: int) -> Age | None:
    """``Name, 33,`` · ``Name (33)`` · ``Name, aged 33,``."""
    i = end
    if i + 2 < len(doc) + 1 and i < len(doc):
        first = doc[i]
        if first.text == "(" and i + 2 < len(doc) and doc[i + 2].text == ")":
            value = _age_number(doc[i + 1])
            if value is not None:
                return Age(value, doc[i + 1].idx, doc[i + 1].idx + len(doc[i + 1]))
        if first.text == "," and i + 1 < len(doc):
            j = i + 1
            if doc[j].lower_ in {"aged", "age"} and j + 1 < len(doc):
                j += 1
            value = _age_number(doc[j])
            if value is not None and _closes(doc, j + 1):
                return Age(value, doc[j].idx, doc[j].idx + len(doc[j]))
    return None


def _is_ancestor(ancestor: Token, token: Token) -> bool:
    return any(a.i == ancestor.i for a in token.ancestors)


def premodifiers(doc: Doc, start: int, end: int) -> tuple[int, int]:
    """Token range of the words before the name inside its noun phrase ("TV producer")."""
    head = name_head(doc, start, end)
    sent_start = doc[start].sent.start
    i = start
    while i - 1 >= sent_start and start - (i - 1) <= MAX_ROLE_TOKENS:
        token = doc[i - 1]
        if token.is_space or token.dep_ in {"det", "predet", "case", "poss", "cc", "conj"}:
            break
        if token.is_punct and token.text not in {"-", "‐", "–"}:
            break
        if not _is_ancestor(head, token):
            break
        if token.pos_ in {"VERB", "AUX"} and token.dep_ not in {"amod", "compound", "npadvmod"}:
            break
        if token.pos_ == "ADP" and token.lower_ != "of":
            break
        i -= 1
    return i, start


def _owner_before(doc: Doc, first: int, owner: OwnerFn) -> str | None:
    """The possessor right before a role phrase: ``Roe's`` / ``the company's``."""
    if first - 1 < 0 or doc[first - 1].dep_ != "case":
        return None
    possessor = doc[first - 1].head
    return owner(possessor)


def _clean_role(doc: Doc, first: int, last: int) -> str | None:
    """Text of role tokens ``doc[first:last]``, or None when they do not end in a role noun."""
    while first < last and (doc[first].is_punct or is_honorific(doc[first].text)):
        first += 1
    while last > first and doc[last - 1].is_punct:
        last -= 1
    if first >= last:
        return None
    tail = doc[last - 1]
    if not (tail.pos_ == "NOUN" or is_role_noun(tail.text) or is_title(tail.text)):
        return None
    words = doc[first:last]
    if len(words) == 1 and title_role(tail.text):
        return title_role(tail.text)
    text = doc.text[words[0].idx : tail.idx + len(tail)]
    lead = doc[first]
    if lead.is_sent_start and not lead.ent_type_ and lead.text[:1].isupper() and not lead.is_upper:
        text = text[:1].lower() + text[1:]  # "Actress Jane Roe" opens a sentence
    return text


def _with_owner(role: str | None, owner_name: str | None) -> str | None:
    if role is None or owner_name is None:
        return role
    return f"{role} of {owner_name}"


def _strip_age_tokens(doc: Doc, first: int, last: int, age: Age | None) -> int:
    """Move ``first`` past an 'N-year-old' at the start of a role phrase."""
    if age is None:
        return first
    while first < last and doc[first].idx < age.phrase_end:
        first += 1
    return first


def _noun_phrase_role(doc: Doc, noun: Token, owner: OwnerFn, stop: int) -> tuple[str | None, Age | None]:
    """Role and age stated by the noun phrase headed by ``noun`` (ending before ``stop``)."""
    left = [t for t in noun.lefts if t.dep_ not in {"det", "predet", "punct"}]
    owner_name = None
    first = noun.i
    for child in reversed(left):
        if child.dep_ == "poss":
            owner_name = owner(child) if child.pos_ != "PRON" else None
            if owner_name is None and child.pos_ != "PRON":
                first = child.left_edge.i
                while first < noun.i and doc[first].dep_ in {"det", "predet"}:
                    first += 1
            break
        first = child.left_edge.i
    last = noun.i + 1
    for child in noun.rights:
        if child.dep_ == "prep" and child.lower_ in ROLE_PREPOSITIONS and child.right_edge.i < stop:
            if child.right_edge.i + 1 - first <= MAX_ROLE_TOKENS:
                last = child.right_edge.i + 1
            break
        if child.dep_ not in {"compound", "amod"}:
            break
    age = _age_from_text(doc, first, last)
    first = _strip_age_tokens(doc, first, last, age)
    if last - first > MAX_ROLE_TOKENS:
        first = max(first, noun.i - 2)
        last = noun.i + 1
    return _with_owner(_clean_role(doc, first, last), owner_name), age


def _is_role_head(token: Token) -> bool:
    return token.pos_ == "NOUN" or (token.pos_ == "PROPN" and (is_role_noun(token.text) or is_title(token.text)))


@dataclass
class Description:
    age: Age | None = None
    roles: tuple[str, ...] = ()


def describe(doc: Doc, start: int, end: int, owner: OwnerFn) -> Description:
    """Age and roles the text states next to the name ``doc[start:end]``."""
    roles: list[str] = []
    age = age_after(doc, start, end)
    head = name_head(doc, start, end)

    # Pre-modifiers: "33-year-old TV producer Jane Roe", "Roe's lawyer John Smith".
    first, last = premodifiers(doc, start, end)
    if first < last:
        pre_age = _age_from_text(doc, first, last)
        age = age or pre_age
        role_first = _strip_age_tokens(doc, first, last, pre_age)
        owner_name = _owner_before(doc, first, owner)
        if owner_name is None and role_first < last and doc[role_first].ent_type_ == "PERSON":
            # "Clinton aide Jane Roe": a person compound at the left edge owns the role.
            person_end = role_first
            while person_end < last and doc[person_end].ent_type_ == "PERSON":
                person_end += 1
            if doc[person_end - 1].dep_ == "compound":
                owner_name = owner(doc[person_end - 1])
                role_first = person_end if owner_name else role_first
        role = _with_owner(_clean_role(doc, role_first, last), owner_name)
        if role:
            roles.append(role)

    # The name in apposition to a noun before it: "the victim, Jane Roe", "Roe's lawyer Smith".
    if head.dep_ == "appos" and head.head.i < start and _is_role_head(head.head):
        role, np_age = _noun_phrase_role(doc, head.head, owner, start)
        age = age or np_age
        if role:
            roles.append(role)

    # Appositions after the name: "Roe, 33, a teacher from Leeds," / "Roe, the company's CEO,".
    appositions = [c for c in head.rights if c.dep_ == "appos" and c.i >= end]
    for child in list(appositions):
        if child.like_num:
            appositions.extend(c for c in child.rights if c.dep_ == "appos")
    for child in appositions:
        if _is_role_head(child):
            role, np_age = _noun_phrase_role(doc, child, owner, len(doc))
            age = age or np_age
            if role:
                roles.append(role)
    return Description(age=age, roles=tuple(dict.fromkeys(roles)))
