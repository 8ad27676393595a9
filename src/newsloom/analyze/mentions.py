"""Name mentions as the model finds them, cleaned the way news text needs.

The small English model's entity spans are a start, not an answer: it tags surnames as ORG,
GPE or LAW, glues titles, possessives and neighbouring dates to names ("Roe last Tuesday"),
and swallows a parenthesised acronym into its long form. This module turns its spans into
clean name mentions with exact offsets; grouping them into entities happens elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass

from spacy.tokens import Doc, Token

from .names import (
    NAME_PARTICLES,
    NAME_SUFFIXES,
    fold,
    is_calendar_word,
    is_honorific,
    is_role_noun,
    is_title,
    looks_like_acronym,
    word_key,
)

# Labels kept as entities.
KEPT_LABELS = frozenset({"PERSON", "ORG", "GPE", "LOC", "NORP"})
# Labels the small model often puts on people's names ("Roe" as LAW); such mentions are kept
# only when something in the article shows they name a person.
RECHECK_LABELS = frozenset({"LAW", "PRODUCT", "WORK_OF_ART", "FAC", "EVENT"})
# Longest plausible name in words, per kind; longer "names" are headlines the model misread.
MAX_PERSON_WORDS = 5
MAX_OTHER_WORDS = 10
# Head words of organisation names: a role word before them does not make a person
# ("Model Railway Society" is not the model Railway Society).
ORG_HEAD_WORDS = frozenset(
    """association society company corporation corp inc ltd llc plc group party university
    college school academy institute foundation council committee club bank agency department
    ministry office bureau board commission court union league federation network news times
    post journal press media studios studio records films pictures entertainment airlines
    airways hospital church army navy police team fund trust centre center house hall
    authority service services administration partners capital holdings""".split()
)
# Punctuation that ends a name inside a model span.
_BREAKS = frozenset('()[]{},;:|•/"“”«»—–!?…')


@dataclass
class Mention:
    first: int  # token range doc[first:last]
    last: int
    start: int  # character range: text[start:end] == text
    end: int
    text: str
    label: str
    parts: tuple[str, ...]  # word keys, used to compare names
    in_post: bool = False
    person_cue: bool = False  # an honorific, title or person role stands before it
    acronym_of: int | None = None  # index of the long form this acronym was introduced with

    @property
    def is_acronym(self) -> bool:
        return len(self.parts) == 1 and looks_like_acronym(self.text)


def make_mention(doc: Doc, first: int, last: int, label: str, person_cue: bool = False) -> Mention:
    span = doc[first:last]
    parts = tuple(word_key(t.text) for t in span if not t.is_punct or t.text == "&")
    return Mention(
        first=first,
        last=last,
        start=span.start_char,
        end=span.end_char,
        text=span.text,
        label=label,
        parts=tuple(p for p in parts if p),
        person_cue=person_cue,
    )


def _is_capitalised(token: Token) -> bool:
    return token.text[:1].isupper() or (token.text[:1].isdigit() and token.is_upper)


def _is_name_word(token: Token) -> bool:
    return _is_capitalised(token) or token.lower_ in NAME_PARTICLES or token.lower_ in NAME_SUFFIXES


def _is_break(token: Token) -> bool:
    return (
        token.text in _BREAKS
        or token.is_space
        or token.text.startswith(("@", "#"))
        or token.like_url
        or token.like_email
    )


def _pieces(doc: Doc, first: int, last: int) -> list[tuple[int, int]]:
    """Split a model span at punctuation, line breaks, handles and links."""
    pieces, begin = [], first
    for i in range(first, last):
        token = doc[i]
        if _is_break(token):
            if begin < i:
                pieces.append((begin, i))
            begin = i + 1
        elif "\n" in token.whitespace_:
            pieces.append((begin, i + 1))
            begin = i + 1
    if begin < last:
        pieces.append((begin, last))
    return pieces


def _trim(doc: Doc, first: int, last: int, label: str) -> tuple[int, int, bool]:
    """Drop determiners, honorifics, titles, possessives and stray words around a name."""
    cue = False
    person_like = label in ("PERSON",) or label in RECHECK_LABELS
    while first < last:
        token = doc[first]
        rest = last - first - 1
        if token.lower_ in {"the", "a", "an"} or token.is_punct:
            first += 1
        elif is_honorific(token.text) and rest >= 1:
            first, cue = first + 1, True
        elif person_like and is_title(token.text) and rest >= 1 and _is_capitalised(doc[first + 1]):
            first, cue = first + 1, True
        elif (
            _is_capitalised(token)
            and is_role_noun(token.text)
            and rest >= 2
            and all(_is_name_word(t) for t in doc[first + 1 : last])
            and word_key(doc[last - 1].text) not in ORG_HEAD_WORDS
        ):
            first, cue = first + 1, True
        elif not _is_capitalised(token):
            first += 1
        else:
            break
    while last > first:
        token = doc[last - 1]
        if (
            token.is_punct
            or token.tag_ == "POS"
            or token.lower_ in {"'s", "’s", "'"}
            or is_calendar_word(token.text) and last - first > 1
            or not _is_capitalised(token) and not token.like_num
            or token.like_num and (label == "PERSON" or person_like)
        ):
            last -= 1
        else:
            break
    if person_like:
        # Inside a person's name only capitalised words and particles ("Ludwig van Beethoven").
        for i in range(first, last):
            if not _is_name_word(doc[i]) or doc[i].tag_ == "POS":
                last = i
                break
    return first, last, cue


def _compound_adjective(doc: Doc, last: int) -> bool:
    """'Oscar-winning': the name is glued by a hyphen to a lower-case word."""
    return (
        last + 1 < len(doc)
        and not doc[last - 1].whitespace_
        and doc[last].text in {"-", "‐"}
        and not doc[last].whitespace_
        and doc[last + 1].text[:1].islower()
    )


def _valid(doc: Doc, first: int, last: int, label: str) -> bool:
    if first >= last:
        return False
    words = [t for t in doc[first:last] if not t.is_punct]
    if not words or not any(t.text[:1].isupper() for t in words):
        return False
    limit = MAX_PERSON_WORDS if label == "PERSON" or label in RECHECK_LABELS else MAX_OTHER_WORDS
    if len(words) > limit:
        return False
    if all(is_honorific(t.text) or is_title(t.text) for t in words):
        return False
    text = doc[first:last].text
    return len(text.replace(".", "")) >= 2 and not _compound_adjective(doc, last)


def model_mentions(doc: Doc) -> list[Mention]:
    """Cleaned mentions from the model's entity spans (several per span when it holds several)."""
    mentions: list[Mention] = []
    for ent in doc.ents:
        label = ent.label_
        if label not in KEPT_LABELS and label not in RECHECK_LABELS:
            continue
        previous: Mention | None = None
        for first, last in _pieces(doc, ent.start, ent.end):
            first, last, cue = _trim(doc, first, last, label)
            if not _valid(doc, first, last, label):
                continue
            mention = make_mention(doc, first, last, label, person_cue=cue)
            if previous is not None and mention.is_acronym and first >= 1 and doc[first - 1].text == "(":
                mention.acronym_of = len(mentions) - 1
            mentions.append(mention)
            previous = mention
    return mentions


def parenthesised_acronyms(doc: Doc, mentions: list[Mention]) -> list[Mention]:
    """'World Health Organization (WHO)': the acronym as a mention tied to its long form."""
    taken = {m.first for m in mentions}
    found = []
    for index, mention in enumerate(mentions):
        i = mention.last
        if len(mention.parts) < 2 or i + 2 >= len(doc) or doc[i].text != "(" or doc[i + 2].text != ")":
            continue
        token = doc[i + 1]
        if not looks_like_acronym(token.text):
            continue
        existing = [m for m in mentions if m.first == i + 1 and m.last == i + 2]
        if existing:
            existing[0].acronym_of = index
        elif i + 1 not in taken:
            acronym = make_mention(doc, i + 1, i + 2, mention.label)
            acronym.acronym_of = index
            found.append(acronym)
    return found


def is_name_token(token: Token) -> bool:
    """A capitalised proper-noun token that could be a name on its own."""
    if not token.text[:1].isupper() or not token.is_alpha or len(token.text) < 2:
        return False
    return token.tag_ in {"NNP", "NNPS"} or bool(token.ent_type_)

