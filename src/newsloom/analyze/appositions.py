"""What a news sentence says about a person right next to the name: age and role.

Patterns read off the dependency parse and the tokens around a name span:

- age:  ``Roe, 33,`` · ``Roe (33)`` · ``Roe, aged 33,`` · ``Roe, 33 years old,`` ·
  ``33-year-old Roe`` · ``Roe, a 33-year-old teacher,``
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

from ..text.names import (
    fold_name,
    is_honorific,
    is_person_noun,
    is_role_noun,
    is_title,
    title_role,
)
from ..text.numbers import COUNT_WORDS, word_number

# Oldest age accepted in an apposition; larger numbers there are house numbers, counts, etc.
MAX_AGE = 120
# Longest role phrase kept; longer appositions are descriptions, not roles (calibrated on
# invented appositions such as "a member of the local residents' association of the town").
MAX_ROLE_TOKENS = 10
# Tokens that may close an age apposition: "Roe, 33, said" / "Roe, 33." / "Roe, 33; Doe".
AGE_CLOSERS = frozenset({",", ".", ";", ":", ")", "—", "–", "!", "?"})
# Prepositions whose phrase stays in a role: "professor at Leeds", "lawyer for the family"
# ("with" left out: "top scorer with 14 goals" is a record, not a role).
ROLE_PREPOSITIONS = frozenset({"of", "at", "for"})
_HYPHENS = frozenset({"-", "‐", "–"})
_FINITE_VERBS = frozenset({"VBD", "VBZ", "VBP", "MD"})
# Punctuation that ends a phrase: a noun on its far side is not in apposition to the name
# ("Editor's note: Donald Trump ...", "... the most unqualified child.” ― Jane Roe").
_HARD_STOPS = frozenset(':;.!?"“”«»()[]')
# Dashes also end the phrase before a name: "“...” ― Jane Roe" signs a quote.
_DASHES = frozenset({"―", "—", "–", "--"})
# "33-year-old" / "33 years old" / "ten-year-old" inside a phrase (group 1: the number).
_AGE_PHRASE = rf"\b(\d{{1,3}}|{COUNT_WORDS})(?:\s*[-‐–]\s*|\s+)years?(?:\s*[-‐–]\s*|\s+)old"
_AGE_IN_TEXT = re.compile(_AGE_PHRASE + r"\b", re.I)
# The same right before a name ("33-year-old Roe"): anchored at the end of the window.
_AGE_BEFORE = re.compile(_AGE_PHRASE + r"\s*$", re.I)
# Tokens of "twenty-five-year-old" before the name: twenty, -, five, -, year, -, old.
_AGE_TOKENS = 7

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


def age_number(raw: str) -> int:
    """The age written "33" or "ten", "twenty-five" (0 when it is neither)."""
    return int(raw) if raw.isdigit() else word_number(raw) or 0


def _age_number(token: Token) -> int | None:
    if not token.text.isdigit() or len(token.text) > 3:
        return None
    value = int(token.text)
    return value if 0 < value <= MAX_AGE else None


def _closes(doc: Doc, i: int) -> bool:
    return (
        i >= len(doc) or doc[i].text in AGE_CLOSERS or doc[i].is_space or bool(doc[i].is_sent_start)
    )


def _skip_years_old(doc: Doc, i: int) -> int:
    """Index after an optional "years old" / "-years-old" starting at ``i``."""
    j = i
    if j < len(doc) and doc[j].text in _HYPHENS:
        j += 1
    if j < len(doc) and doc[j].lower_ in {"year", "years"}:
        j += 1
        if j < len(doc) and doc[j].text in _HYPHENS:
            j += 1
        if j < len(doc) and doc[j].lower_ == "old":
            return j + 1
    return i


def _age_from_text(doc: Doc, start: int, end: int) -> Age | None:
    """An 'N-year-old' inside ``doc[start:end]``."""
    if start >= end:
        return None
    first = doc[start].idx
    match = _AGE_IN_TEXT.search(doc[start:end].text)
    if match is None:
        return None
    value = age_number(match.group(1))
    if not 0 < value <= MAX_AGE:
        return None
    return Age(value, first + match.start(1), first + match.end(1), first + match.end())


def age_after(doc: Doc, start: int, end: int) -> Age | None:
    """``Name, 33,`` · ``Name (33)`` · ``Name, aged 33,`` · ``Name, 33 years old,``."""
    i = end
    if i + 2 >= len(doc):
        return None
    if doc[i].text == "(" and doc[i + 2].text == ")":
        value = _age_number(doc[i + 1])
        if value is not None:
            return Age(value, doc[i + 1].idx, doc[i + 1].idx + len(doc[i + 1]))
    if doc[i].text == ",":
        j = i + 1
        if doc[j].lower_ in {"aged", "age"} and j + 1 < len(doc):
            j += 1
        value = _age_number(doc[j])
        if value is not None and _closes(doc, _skip_years_old(doc, j + 1)):
            return Age(value, doc[j].idx, doc[j].idx + len(doc[j]))
    return None


def age_before(doc: Doc, first: int) -> Age | None:
    """``33-year-old Roe``: the age right before the name."""
    if first < 3 or doc[first - 1].lower_ != "old":
        return None
    window = doc[max(0, first - _AGE_TOKENS) : first]
    match = _AGE_BEFORE.search(window.text)
    if match is None:
        return None
    value = age_number(match.group(1))
    if not 0 < value <= MAX_AGE:
        return None
    base = window.start_char
    return Age(value, base + match.start(1), base + match.end(1), base + match.end())


def _in_subtree(root: Token, token: Token) -> bool:
    return root.left_edge.i <= token.i <= root.right_edge.i and any(
        a.i == root.i for a in token.ancestors
    )


def _is_possessive_marker(token: Token) -> bool:
    return token.tag_ == "POS" or token.dep_ == "case"


def premodifiers(doc: Doc, start: int, end: int) -> tuple[int, int]:
    """Token range of the words before the name inside its noun phrase ("TV producer")."""
    head = name_head(doc, start, end)
    sent_start = doc[start].sent.start
    i = start
    while i - 1 >= sent_start and start - (i - 1) <= MAX_ROLE_TOKENS:
        token = doc[i - 1]
        if token.is_space or token.dep_ in {"det", "predet", "poss", "cc", "conj"}:
            break
        if _is_possessive_marker(token):
            break
        if token.is_punct and token.text not in _HYPHENS:
            break
        if not _in_subtree(head, token):
            break
        if token.pos_ in {"VERB", "AUX"} and token.dep_ not in {"amod", "compound", "npadvmod"}:
            break
        if token.pos_ == "ADP" and token.lower_ != "of":
            break
        i -= 1
    return i, start


def _role_word_before(doc: Doc, start: int, end: int, owner: OwnerFn) -> str | None:
    """'Roe's spokesperson Jane Doe' parsed across a paragraph, 'the show's executive producer,
    Jane Doe, swearing' parsed as no apposition: a lower-case role noun right before the name
    (or before a comma, when another closes the name) is its role whatever the parse says,
    with the lower-case words and possessor before it."""
    k = start - 1
    if k >= 1 and doc[k].text == ",":
        # "the show's executive producer, Marla Quennell, swearing": the comma must close
        # the name too, else it ends a clause ("After meeting the producer, Jane Roe said").
        if end >= len(doc) or doc[end].text not in {",", ".", ";"}:
            return None
        k -= 1
    if k < 0 or not doc[k].text.islower() or not is_role_noun(doc[k].text) or doc[k].tag_ != "NN":
        return None
    first = k
    while (
        first - 1 >= 0
        and k - first < MAX_ROLE_TOKENS
        and doc[first - 1].text.islower()
        and doc[first - 1].pos_ in {"NOUN", "ADJ"}
        and "\n" not in doc[first - 1].whitespace_
    ):
        first -= 1
    return _with_owner(_clean_role(doc, first, k + 1), _owner_before(doc, first, owner))


def _owner_before(doc: Doc, first: int, owner: OwnerFn) -> str | None:
    """The possessor right before a role phrase: ``Roe's lawyer`` / ``the company's CEO``."""
    if first < 2 or not _is_possessive_marker(doc[first - 1]):
        return None
    return owner(doc[first - 2])


def _is_role_tail(token: Token) -> bool:
    """The last word of a role: a singular noun for a person ("lawyer", "newcomer") or a title
    ("Sen."). Plurals ("former presidents") describe a group the name is one of."""
    if is_title(token.text):
        return True
    return (
        token.tag_ == "NN"
        and is_person_noun(token.text)
        or (token.tag_ == "NNP" and is_person_noun(token.text, by_ending=False))
    )


def _clean_role(doc: Doc, first: int, last: int, head: int | None = None) -> str | None:
    """Text of role tokens ``doc[first:last]``, or None when its ``head`` (by default the
    last word) is not a noun for a person."""
    while first < last and (
        doc[first].is_punct or is_honorific(doc[first].text) or _is_possessive_marker(doc[first])
    ):
        first += 1
    while last > first and doc[last - 1].is_punct:
        last -= 1
    if first >= last or not _is_role_tail(doc[last - 1 if head is None else head]):
        return None
    if any(t.tag_ in _FINITE_VERBS for t in doc[first:last]):
        return None  # "10 said billionaire": the walk crossed a clause
    words = []
    for token in doc[first:last]:
        text = token.text
        if token.i == last - 1 and title_role(text):
            text = title_role(text) or text
        if not text.isupper() and text[:1].isupper():
            if is_role_noun(text) or is_title(text):
                text = text.lower()  # "Actress Jane Roe", "said Senator Roe": a role, not a name
            elif token.i == first and token.tag_ not in {"NNP", "NNPS"} and not token.ent_type_:
                text = text[:1].lower() + text[1:]  # "Former president Roe" opens a sentence
        words.append(text + token.whitespace_)
    return "".join(words).strip()


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


def _noun_phrase_role(
    doc: Doc, noun: Token, owner: OwnerFn, stop: int
) -> tuple[str | None, Age | None]:
    """Role and age stated by the noun phrase headed by ``noun`` (ending before ``stop``)."""
    left = [t for t in noun.lefts if t.dep_ not in {"det", "predet", "punct"} and t.tag_ != "POS"]
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
        if child.dep_ == "prep" and child.lower_ in ROLE_PREPOSITIONS:
            # "secretary of state", "professor at Leeds University": up to the object only;
            # "the mother of Sean Smith": a known entity is named by its canonical name.
            obj = next((c for c in child.children if c.dep_ == "pobj"), None)
            if obj is not None and obj.i < stop and obj.i + 1 - first <= MAX_ROLE_TOKENS:
                if child.lower_ == "of" and owner_name is None and owner(obj) is not None:
                    owner_name = owner(obj)
                else:
                    last = obj.i + 1
            break
        if child.dep_ not in {"compound", "amod"}:
            break
    age = _age_from_text(doc, first, last)
    first = _strip_age_tokens(doc, first, last, age)
    if last - first > MAX_ROLE_TOKENS:
        first = max(first, noun.i - 2)
        last = noun.i + 1
    return _with_owner(_clean_role(doc, first, last, noun.i), owner_name), age


def _linked(doc: Doc, left: int, right: int, dashes: bool) -> bool:
    """Whether the tokens strictly between ``left`` and ``right`` may join an apposition:
    same sentence, no full stop, colon, quote mark or bracket (nor dash when ``dashes``)."""
    for token in doc[left + 1 : right]:
        if token.is_sent_start or token.text in _HARD_STOPS or (dashes and token.text in _DASHES):
            return False
        if "\n" in token.text:
            return False
    return right - left - 1 <= MAX_ROLE_TOKENS and not doc[right].is_sent_start


def _is_role_head(token: Token) -> bool:
    return token.pos_ in {"NOUN", "PROPN"} and _is_role_tail(token)


def distinct_roles(roles: list[str]) -> tuple[str, ...]:
    """Roles without repeats, dropping one that a longer role contains ("lawyer" beside
    "lawyer of Jane Roe")."""
    folded = [fold_name(r) for r in roles]
    kept: dict[str, str] = {}
    for role, key in zip(roles, folded, strict=True):
        if key in kept:
            continue
        if any(
            other != key and re.search(rf"(?<!\w){re.escape(key)}(?!\w)", other) for other in folded
        ):
            continue
        kept[key] = role
    return tuple(kept.values())


@dataclass
class Description:
    age: Age | None = None
    roles: tuple[str, ...] = ()


def describe(doc: Doc, start: int, end: int, owner: OwnerFn) -> Description:
    """Age and roles the text states next to the name ``doc[start:end]``."""
    roles: list[str] = []
    age = age_after(doc, start, end) or age_before(doc, start)
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
    if not roles:
        role = _role_word_before(doc, start, end, owner)
        if role:
            roles.append(role)

    # The name in apposition to a noun before it: "the victim, Jane Roe", "Roe's lawyer Smith".
    noun = head.head
    if (
        head.dep_ == "appos"
        and noun.i < start
        and _is_role_head(noun)
        and _linked(doc, noun.i, start, True)
    ):
        role, np_age = _noun_phrase_role(doc, noun, owner, start)
        age = age or np_age
        if role:
            roles.append(role)

    # Appositions after the name: "Roe, 33, a teacher from Leeds," / "Roe, the company's CEO,".
    appositions = [c for c in head.rights if c.dep_ == "appos" and c.i >= end]
    for child in list(appositions):
        if child.like_num:
            appositions.extend(c for c in child.rights if c.dep_ == "appos")
    for child in appositions:
        if not _linked(doc, end - 1, child.left_edge.i, False):
            continue
        if _is_role_head(child):
            role, np_age = _noun_phrase_role(doc, child, owner, len(doc))
            age = age or np_age
            if role:
                roles.append(role)
        elif not child.like_num:  # "Roe, the 33-year-old former secretary of state bidding..."
            age = age or _age_from_text(doc, child.left_edge.i, child.i + 1)
    return Description(age=age, roles=distinct_roles(roles))
