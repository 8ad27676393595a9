"""Name mentions as the model finds them, cleaned the way news text needs.

The small English model's entity spans are a start, not an answer: it tags surnames as ORG,
GPE or LAW, glues titles, roles, possessives and neighbouring words to names ("TV producer
Jane Roe" as ORG, "Producer Jane" as PERSON), misses names after a role noun ("rapper
Stormzy"), glues a headline's verb to a name ("Obama Says"), and tags places, clubs and common
words as people ("Mill Lane", "PORT" of a dateline, "Kindness"). This module turns its spans
into clean name mentions with exact offsets and final labels, weighing evidence from the whole
article (``relabel_non_people``); grouping them into entities happens in the entities stage.

A few linear passes over ``doc.ents``, the mentions and the tokens; every check is a set lookup.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
from spacy.attrs import LOWER, ORTH, TAG
from spacy.strings import StringStore
from spacy.tokens import Doc, Span, Token

from ..text.names import (
    ABSTRACT_SUFFIXES,
    MIN_ABSTRACT_LEN,
    NAME_PARTICLES,
    NAME_SUFFIXES,
    PLACE_PREFIXES,
    PLACE_PREPOSITIONS,
    PLACE_SUFFIXES,
    is_calendar_word,
    is_honorific,
    is_nationality_noun,
    is_person_noun,
    is_role_noun,
    is_title,
    looks_like_acronym,
    word_key,
)
from .appositions import age_after, age_before
from .attribution import in_dateline, is_speech_verb

# Labels kept as entities.
KEPT_LABELS = frozenset({"PERSON", "ORG", "GPE", "LOC", "NORP"})
# Labels the small model often puts on people's names ("Roe" as LAW); such mentions are kept
# only when something in the article shows they name a person.
RECHECK_LABELS = frozenset({"LAW", "PRODUCT", "WORK_OF_ART", "FAC", "EVENT"})
# Label of a mention the model tagged LAW, PRODUCT, ... with no sign yet of a person: it
# becomes PERSON when the same words name a person elsewhere in the article, else is dropped.
PENDING = "?"
# Longest plausible name in words, per kind; longer "names" are headlines the model misread.
MAX_PERSON_WORDS = 5
MAX_OTHER_WORDS = 10
# Longest run of capitalised words taken as a name the model missed after a role noun
# ("rapper Stormzy", "actor Tom Hanks", "Gov. Gavin C. Newsom").
MAX_FOUND_WORDS = 4
# First names found before a surname the model tagged alone ("Chief Ines Marlowe").
MAX_FIRST_NAMES = 2
# Lower-case particles inside a name ("von der", "de la") and words of a quoted nickname
# ('Dwayne "The Rock" Johnson') between the two halves of a name the model split.
MAX_SPLIT_PARTICLES = 2
MAX_NICKNAME_WORDS = 3
NICKNAME_MARKS = frozenset({'"', "“", "”", "'", "‘", "’"})
# Adjectives that open a body's name ("Federal Bureau of Investigation", "Royal College of
# Nursing"), never a person's.
BODY_ADJECTIVES = frozenset(
    {
        "national",
        "federal",
        "royal",
        "american",
        "british",
        "european",
        "international",
        "central",
        "supreme",
        "metropolitan",
        "united",
        "general",
        "state",
        "public",
        "joint",
        "imperial",
        "world",
        "global",
    }
)
# Labels of names re-found where the model missed them (``refound_names``).
REFOUND_LABELS = frozenset({"PERSON", "ORG"})
# Head words of organisation names: a role word before them does not make a person
# ("Model Railway Society" is not the model Railway Society).
ORG_HEAD_WORDS = frozenset(
    {
        "association",
        "society",
        "company",
        "corporation",
        "corp",
        "inc",
        "ltd",
        "llc",
        "plc",
        "group",
        "party",
        "university",
        "college",
        "school",
        "academy",
        "institute",
        "foundation",
        "council",
        "committee",
        "club",
        "bank",
        "agency",
        "department",
        "ministry",
        "office",
        "bureau",
        "board",
        "commission",
        "court",
        "union",
        "league",
        "federation",
        "network",
        "news",
        "times",
        "post",
        "journal",
        "press",
        "media",
        "studios",
        "studio",
        "records",
        "films",
        "pictures",
        "entertainment",
        "airlines",
        "airways",
        "hospital",
        "church",
        "army",
        "navy",
        "police",
        "team",
        "fund",
        "trust",
        "centre",
        "center",
        "house",
        "hall",
        "authority",
        "service",
        "services",
        "administration",
        "partners",
        "capital",
        "holdings",
    }
)
# Last words that make a "person" span an organisation ("Acme Corp." tagged PERSON), sports
# clubs among them ("Leeds Rovers", "Vasby SK"). Kept short: many ORG_HEAD_WORDS are
# also surnames (Hall, House, Church, Court).
COMPANY_SUFFIXES = frozenset(
    {
        "corp",
        "corporation",
        "inc",
        "incorporated",
        "ltd",
        "llc",
        "plc",
        "gmbh",
        "fc",
        "afc",
        "company",
        "university",
        "association",
        "foundation",
        "institute",
        "committee",
        "ministry",
        "department",
        "agency",
        "sk",
        "sc",
        "cf",
        "rovers",
        "wanderers",
        "athletic",
        "rangers",
        "united",
        "town",
        "county",
        "albion",
        "hotspur",
    }
)
# Last words that make a run of capitalised words a business's name when the model tagged
# none of it ("Velora Motors will cut 2,000 jobs", "SkyCoast Airways said"): trades and legal
# forms, never a word a place's name ends with.
BUSINESS_WORDS = frozenset(
    {
        "motors",
        "airways",
        "airlines",
        "holdings",
        "industries",
        "technologies",
        "pharmaceuticals",
        "logistics",
        "devices",
        "systems",
        "foods",
        "homes",
        "energy",
        "water",
        "rail",
        "railway",
        "railways",
        "trains",
        "buses",
        "highways",
        "inc",
        "ltd",
        "plc",
        "corp",
        "corporation",
        "llc",
        "gmbh",
    }
)
# Lower-case nouns for organisations: "the charity Muscle Matters" names a charity.
BODY_NOUNS = frozenset(
    {
        "charity",
        "company",
        "firm",
        "startup",
        "start-up",
        "band",
        "club",
        "party",
        "union",
        "agency",
        "group",
        "trust",
        "foundation",
        "association",
        "organisation",
        "organization",
        "retailer",
        "airline",
        "bank",
        "insurer",
        "lender",
        "carmaker",
        "manufacturer",
        "publisher",
        "label",
        "chain",
        "brand",
        "team",
        "regulator",
        "watchdog",
        "broadcaster",
        "network",
        "newspaper",
        "magazine",
    }
)
# Nouns after a surname that make it a family's name: "the Roe family" names no new person.
GROUP_NOUNS = frozenset(
    {
        "family",
        "families",
        "household",
        "clan",
        "dynasty",
        "couple",
        "brothers",
        "sisters",
        "siblings",
        "children",
    }
)
# Model labels of places: a name the model calls so at least as often as PERSON is a place.
PLACE_LABELS = frozenset({"GPE", "LOC", "FAC"})
# Labels the model gives a surname after first names it missed (see _first_names_before).
_SURNAME_LABELS = frozenset({"PERSON", "ORG", "GPE", "NORP", "LOC"})
# Longest organisation name whose first words make a person-tagged name an organisation's
# ("Brightwave" of "Brightwave TV", "Millbrook" of "Millbrook General Hospital").
MAX_ORG_PREFIX_SOURCE = 4
_DETERMINERS = frozenset({"the", "a", "an"})
# Tags of a headline's third-person verb glued to a name ("Obama Says", "Roe Slams"); not
# VBP, which a display name may end with ("Alder Til I Die").
_FINITE_VERB_TAGS = frozenset({"VBZ", "VBD"})
_PERSON_LIKE = frozenset({"PERSON"}) | RECHECK_LABELS
# Lower-case words inside the name of an organisation or a place, between capitalised words.
NAME_JOINERS = frozenset({"of", "for", "and", "&", "on", "the", "in", "at", "de", "du", "des"})
# Punctuation that ends a name inside a model span.
_BREAKS = frozenset('()[]{},;:|•/"“”«»—–!?…')
_POSSESSIVES = frozenset({"'s", "’s", "'", "’"})
_NAME_HYPHENS = frozenset({"-", "‐"})
# Second halves of hyphenated adjectives made from a name ("Paris-based", "Texas-style").
COMPOUND_ADJECTIVE_HEADS = frozenset(
    {"based", "born", "bred", "run", "led", "made", "style", "era", "like", "free", "bound"}
    | {"friendly", "wide", "level", "class", "type", "area", "owned", "backed"}
)


@dataclass
class Mention:
    first: int  # token range doc[first:last]
    last: int
    start: int  # character range: text[start:end] == text
    end: int
    text: str
    label: str
    parts: tuple[str, ...]  # word keys, used to compare names
    person_cue: bool = False  # an honorific, title or role stands before it
    weak: bool = False  # "the Roe family": may join a person, never makes one
    acronym_of: int | None = None  # index of the long form this acronym was introduced with
    # The full name a first name given with another's surname stands for ("Arthur" in
    # "Arthur and Edna Bell" is Arthur Bell); None when the text is the name.
    full_name: str | None = None

    @property
    def is_acronym(self) -> bool:
        return len(self.parts) == 1 and looks_like_acronym(self.text)


@dataclass(frozen=True)
class KnownNames:
    """Name words of people the model found with a first name and surname."""

    words: frozenset[str]
    surnames: frozenset[str]


def make_mention(doc: Doc, first: int, last: int, label: str, person_cue: bool = False) -> Mention:
    span = doc[first:last]
    parts = tuple(word_key(t.text) for t in span if not t.is_punct or t.text == "&")
    weak = last < len(doc) and doc[last].lower_ in GROUP_NOUNS
    return Mention(
        first=first,
        last=last,
        start=span.start_char,
        end=span.end_char,
        text=span.text,
        label=label,
        parts=tuple(p for p in parts if p),
        person_cue=person_cue or _cue_before(doc, first),
        weak=weak,
    )


def _is_capitalised(token: Token) -> bool:
    return token.text[:1].isupper() or (token.text[:1].isdigit() and token.is_upper)


def _is_name_word(token: Token) -> bool:
    return (
        _is_capitalised(token)
        or token.lower_ in NAME_PARTICLES
        or token.lower_ in NAME_SUFFIXES
        or _joins_name_parts(token)
        or _name_syllable(token)
    )


def _name_syllable(token: Token) -> bool:
    """'Ki-moon', 'Jae-in', 'Jong-un': a lower-case syllable glued by a hyphen to a
    capitalised word inside a name the model labels a person (read only within its span),
    or that hyphen. A word that makes a compound adjective ("Oscar-winning", "Paris-based",
    "Boston-born") is none."""
    doc, i = token.doc, token.i
    if token.text in _NAME_HYPHENS:
        if i + 1 >= len(doc) or token.whitespace_:
            return False
        i += 1
    word = doc[i]
    if i < 2 or not word.is_alpha or not word.text.islower():
        return False
    hyphen, before = doc[i - 1], doc[i - 2]
    return (
        hyphen.text in _NAME_HYPHENS
        and not hyphen.whitespace_
        and not before.whitespace_
        and _is_capitalised(before)
        and not word.text.endswith(("ing", "ed"))
        and word.text not in COMPOUND_ADJECTIVE_HEADS
    )


def _joins_name_parts(token: Token) -> bool:
    """'Al-Hassan', 'Lloyd-Webber': a hyphen glued between two capitalised words, which
    the tokenizer splits off, is inside the name."""
    doc, i = token.doc, token.i
    return (
        token.text in _NAME_HYPHENS
        and 0 < i < len(doc) - 1
        and not doc[i - 1].whitespace_
        and not token.whitespace_
        and _is_capitalised(doc[i - 1])
        and _is_capitalised(doc[i + 1])
    )


def _is_person_word(token: Token) -> bool:
    """Honorific, title or role noun: a word that says a person's name follows."""
    return is_honorific(token.text) or is_title(token.text) or is_role_noun(token.text)


def _cue_before(doc: Doc, first: int) -> bool:
    return first > 0 and _is_person_word(doc[first - 1])


def _owns_role(doc: Doc, last: int) -> bool:
    """'Roe's lawyer', 'Roe's former husband': a possessive before a person's role."""
    if last + 1 >= len(doc) or doc[last].tag_ != "POS":
        return False
    following = doc[last + 1 : last + 3]
    return any(is_role_noun(t.text) and not t.text[:1].isupper() for t in following)


def _is_break(token: Token) -> bool:
    return (
        token.text in _BREAKS
        or token.is_space
        or token.text.startswith(("@", "#"))
        or token.like_url
        or token.like_email
    )


def _tagged(doc: Doc, i: int) -> bool:
    """'#JusticeForX', '@roe' split by the tokenizer: the word after a glued '#' or '@'."""
    return i > 0 and doc[i - 1].text in {"#", "@"} and not doc[i - 1].whitespace_


def _pieces(doc: Doc, first: int, last: int) -> list[tuple[int, int]]:
    """Split a model span at punctuation, line breaks, hashtags, handles and links."""
    pieces, begin = [], first
    for i in range(first, last):
        token = doc[i]
        if _is_break(token) or _tagged(doc, i):
            if begin < i:
                pieces.append((begin, i))
            begin = i + 1
        elif "\n" in token.whitespace_:
            pieces.append((begin, i + 1))
            begin = i + 1
    if begin < last:
        pieces.append((begin, last))
    return pieces


def known_names(doc: Doc, ents: Sequence[Span]) -> KnownNames:
    """Words of the PERSON spans that hold a first name and a surname (roles left out)."""
    words: set[str] = set()
    surnames: set[str] = set()
    for ent in ents:
        if ent.label_ != "PERSON":
            continue
        for first, last in _pieces(doc, ent.start, ent.end):
            keys = [
                word_key(t.text)
                for t in doc[first:last]
                if t.is_alpha and t.text[:1].isupper() and not _is_person_word(t)
            ]
            keys = [k for k in keys if k not in NAME_SUFFIXES]
            if len(keys) >= 2:
                words.update(keys)
                surnames.add(keys[-1])
    return KnownNames(frozenset(words), frozenset(surnames))


def _joins_name(doc: Doc, k: int, first: int) -> bool:
    """A lower-case word joining two capitalised words of an organisation's or a place's
    name ("Ministry of Transport", "Marks and Spencer", "Church of the Nazarene")."""
    if doc[k].lower_ not in NAME_JOINERS or k <= first:
        return False
    before = k - 1
    while before > first and doc[before].lower_ in NAME_JOINERS:
        before -= 1  # "of the"
    return _is_capitalised(doc[before]) and _is_capitalised(doc[k + 1])


def _split_role(
    doc: Doc, first: int, last: int, label: str, known: KnownNames
) -> tuple[int, str, bool]:
    """Where the name starts after words like "TV producer", its label, and whether a
    person's title or role stood before it. Unchanged when the split is not safe."""
    split = None
    person_label = label in _PERSON_LIKE
    for k in range(last - 2, first - 1, -1):
        token = doc[k]
        if not person_label and _joins_name(doc, k, first):
            continue  # "Bank of England", "Department for Education"
        if (
            _is_person_word(token)
            or not _is_name_word(token)
            or token.tag_ == "POS"
            or (person_label and k == first and last - k > 2 and token.tag_ == "NN")
        ):
            # (the last: "Farmer Joan Pryce", a capitalised word the tagger calls a common
            # noun before a full name, is a role however the word list misses it)
            split = k
            break
    if split is None:
        return first, label, False
    token = doc[split]
    rest = [t for t in doc[split + 1 : last] if not t.is_punct]
    if not rest or not all(_is_name_word(t) for t in doc[split + 1 : last]):
        return first, label, False
    # "Fire Chief Ines Roe, 49,": a name with an age is a person's, whatever the model says.
    all_known = all(word_key(t.text) in known.words for t in rest) or (
        len(rest) >= 2 and age_after(doc, split + 1, last) is not None
    )
    lower = not token.text[:1].isupper()
    org_head = any(word_key(t.text) in ORG_HEAD_WORDS for t in rest)
    if is_honorific(token.text):
        ok = True
    elif org_head:  # "Judge Rotenberg Center", "Model Railway Society"
        ok = False
    elif is_title(token.text):
        ok = person_label or all_known
    elif is_role_noun(token.text):
        if len(rest) == 1:
            ok = all_known or (person_label and lower)
        else:
            ok = person_label or lower or all_known
    else:  # a lower-case word or a possessive: drop it, keep the model's label
        return split + 1, label, False
    if not ok:
        return first, label, False
    return split + 1, "PERSON", True


def _trim(
    doc: Doc, first: int, last: int, label: str, known: KnownNames
) -> tuple[int, int, str, bool]:
    """Drop determiners, honorifics, titles, roles, possessives and stray words around a name."""
    while first < last and (doc[first].lower_ in _DETERMINERS or doc[first].is_punct):
        first += 1
    while last > first and (doc[last - 1].is_punct or doc[last - 1].tag_ == "POS"):
        last -= 1
    if first >= last:
        return first, last, label, False
    first, label, cue = _split_role(doc, first, last, label, known)
    person_like = label in _PERSON_LIKE
    while last > first:
        token = doc[last - 1]
        if (
            token.is_punct
            or token.tag_ == "POS"
            or token.lower_ in _POSSESSIVES
            or is_calendar_word(token.text)
            and last - first > 1
            or not _is_capitalised(token)
            and not token.like_num
            and not (person_like and _name_syllable(token))
            or token.like_num
            and person_like
            or person_like
            and token.tag_ in _FINITE_VERB_TAGS
            and last - first > 1
        ):
            last -= 1  # "Obama Says" in a headline: the verb is no part of the name
        else:
            break
    if person_like:
        # Inside a person's name only capitalised words and particles ("Ludwig van Beethoven").
        for i in range(first, last):
            if not _is_name_word(doc[i]) or doc[i].tag_ == "POS":
                last = i
                break
    return first, last, label, cue


def _compound_adjective(doc: Doc, last: int) -> bool:
    """'Oscar-winning': the name is glued by a hyphen to a lower-case word."""
    return (
        last + 1 < len(doc)
        and not doc[last - 1].whitespace_
        and doc[last].text in {"-", "‐"}
        and not doc[last].whitespace_
        and doc[last + 1].text[:1].islower()
    )


# Links by which a verb heads a clause of its own (not a name the tagger read as a verb).
_CLAUSE_DEPS = frozenset({"ROOT", "advcl", "ccomp", "xcomp", "conj", "acl", "relcl", "pcomp"})


def _valid(doc: Doc, first: int, last: int, label: str) -> bool:
    if first >= last:
        return False
    words = [t for t in doc[first:last] if not t.is_punct]
    if not words or not any(t.text[:1].isupper() for t in words):
        return False
    limit = MAX_PERSON_WORDS if label in _PERSON_LIKE else MAX_OTHER_WORDS
    if len(words) > limit:
        return False
    if all(is_honorific(t.text) or is_title(t.text) or t.lower_ in NAME_SUFFIXES for t in words):
        return False  # "Mr.", "Sen.", "Jr." alone name no one
    if len(words) == 1 and words[0].pos_ == "VERB" and words[0].dep_ in _CLAUSE_DEPS:
        return False  # "Defending, Rupert Vane said": a clause's verb opening the sentence
    text = doc[first:last].text
    return len(text.replace(".", "")) >= 2 and not _compound_adjective(doc, last)


def _person_evidence(doc: Doc, mention: Mention, known: KnownNames) -> bool:
    """Something beyond the model's label says this names a person."""
    if mention.person_cue or _owns_role(doc, mention.last):
        return True
    if mention.parts and all(p in known.words for p in mention.parts):
        return True
    if (
        age_after(doc, mention.first, mention.last) is not None
        or age_before(doc, mention.first) is not None
    ):
        return True
    # "Yuki Tanabe told the board …" tagged a work of art: a name of proper nouns alone,
    # with no article before it, that speaks or that a he/she refers back to names a person.
    words = doc[mention.first : mention.last]
    if len(mention.parts) < 2 or any(t.tag_ not in ("NNP", "NNPS") for t in words):
        return False
    if mention.first > 0 and doc[mention.first - 1].dep_ == "det":
        return False
    return _speaks_or_is_referred_to(words.root) or _relative_follows(doc, mention.last, "who")


def _speaks_or_is_referred_to(root: Token) -> bool:
    """A name that is the subject of a speech verb or that a he/she refers back to."""
    speaks = root.dep_ == "nsubj" and is_speech_verb(root.head)
    return speaks or _pronoun_bound(root)


def _final_label(doc: Doc, mention: Mention, known: KnownNames) -> str | None:
    """The label the mention keeps, or None to drop it."""
    label = _label_by_evidence(doc, mention, known)
    if label == "PERSON" and "&" in mention.text:
        return "ORG"  # "Marks & Spencer", "Q&A": no person's name holds an ampersand
    return label


def _label_by_evidence(doc: Doc, mention: Mention, known: KnownNames) -> str | None:
    label = mention.label
    if label == "PERSON":
        if len(mention.parts) >= 2 and mention.parts[-1] in COMPANY_SUFFIXES:
            return "ORG"
        if all(p in ORG_HEAD_WORDS for p in mention.parts) and not mention.person_cue:
            return "ORG"  # "Kim Lee / Agency": a credit line's agency
        if not mention.person_cue and _named_after_body(doc, mention):
            return "ORG"
        return label
    if label in RECHECK_LABELS:
        return "PERSON" if _person_evidence(doc, mention, known) else PENDING
    if (
        len(mention.parts) == 1
        and not mention.is_acronym
        and is_role_noun(mention.parts[0])
        and (_opens_sentence(doc, mention.first) or doc[mention.first - 1].tag_ == "POS")
    ):
        # "Coach says players …", "Trump's Son Says …" in a headline: a role capitalised
        # where it stands, no body (but "the Star reported": a paper named by a role word)
        return None
    if (
        1 <= len(mention.parts) <= MAX_PERSON_WORDS
        and age_after(doc, mention.first, mention.last) is not None
        and not any(p in ORG_HEAD_WORDS or p in COMPANY_SUFFIXES for p in mention.parts)
    ):
        return "PERSON"  # "Tomas Okafor, 24," or "Vasquez, 41," as a place or a body
    if (
        label in ("ORG", "GPE", "LOC")
        and len(mention.parts) <= MAX_PERSON_WORDS
        and not any(p in ORG_HEAD_WORDS or p in COMPANY_SUFFIXES for p in mention.parts)
        and _apposed_to_person_noun(doc[mention.first : mention.last].root)
    ):
        mention.person_cue = True  # as a role before the name: the article-wide pass keeps it
        return "PERSON"  # "His daughter, Sophie, said", "Rivera, a father of three,"
    if label in ("ORG", "GPE", "LOC") and _full_name_with_who(doc, mention):
        return "PERSON"  # "Arthur Pembroke, who has died aged 88," tagged a body or a place
    if label == "ORG":
        if (
            len(mention.parts) == 1
            and mention.parts[0] in known.surnames
            and not mention.is_acronym
        ):
            return "PERSON"
        if _named_after_role(doc, mention) and not mention.is_acronym:
            return "PERSON"  # "his spokesperson Helena Voss" tagged ORG
        if (
            len(mention.parts) == 1
            and mention.parts[0] in known.words
            and doc[mention.first].text[1:].islower()  # (not a brand: "EgyptAir")
            and _speaks_or_is_referred_to(doc[mention.first : mention.last].root)
        ):
            return "PERSON"  # '"…," Aarav said.' after "Aarav Mehta": a first name alone
        if (
            2 <= len(mention.parts) <= MAX_PERSON_WORDS
            and all(p in known.words for p in mention.parts)
            and mention.parts[-1] in known.surnames
        ):
            return "PERSON"
        return label
    # Places and nationalities are people's names only with a sign of it: a known surname
    # ("Whitcombe" after "Dana Whitcombe"), an age ("Brannigan, 38,"), a cue ("heiress Paris").
    single_place = label in {"GPE", "LOC"} and len(mention.parts) == 1 and not mention.is_acronym
    if single_place and (
        mention.parts[0] in known.surnames
        or age_after(doc, mention.first, mention.last) is not None
    ):
        return "PERSON"
    if (
        label == "NORP"
        and len(mention.parts) == 1
        and mention.parts[0] in known.surnames
        and _stands_alone(doc, mention.first, mention.last)
    ):
        return "PERSON"  # "… ," Sharma said." after "actor Dev Sharma", tagged a nationality
    if mention.person_cue and mention.parts and all(p in known.words for p in mention.parts):
        return "PERSON"
    return label


def _full_name_with_who(doc: Doc, mention: Mention) -> bool:
    """'Arthur Pembroke, who has died aged 88,': two or three proper nouns with no article,
    no word of a body's name and no preposition over them, that a "who" clause with a
    singular verb goes on about. Bodies take "who" too in British usage, but with a plural
    verb ("Planned Parenthood, who are backing …"); places a "who" follows are mostly the
    object of a preposition after another name ("Marco Rubio of Florida, who …")."""
    words = doc[mention.first : mention.last]
    if not 2 <= len(mention.parts) <= MAX_PERSON_WORDS or any(t.tag_ != "NNP" for t in words):
        return False
    if any(p in ORG_HEAD_WORDS or p in COMPANY_SUFFIXES for p in mention.parts):
        return False
    if mention.first > 0 and doc[mention.first - 1].dep_ in ("det", "poss"):
        return False
    root = words.root
    if root.dep_ == "pobj" and root.head.head.pos_ == "PROPN":
        return False  # "Rubio of Florida", "Sodus in Upstate New York"
    if not _relative_follows(doc, mention.last, "who"):
        return False
    verb = doc[mention.last + 1].head
    verbs = [verb, *(c for c in verb.children if c.dep_ in ("aux", "auxpass"))]
    return not any(v.tag_ == "VBP" or v.lower_ == "were" for v in verbs)


def _stands_alone(doc: Doc, first: int, last: int) -> bool:
    """A word used as a noun phrase of its own: no article before it and no noun it modifies
    ("Sharma said", not "the French" nor "French officials")."""
    root = doc[first:last].root
    if root.dep_ in ("amod", "compound", "nmod") or (first > 0 and doc[first - 1].dep_ == "det"):
        return False
    return not any(c.dep_ == "det" for c in root.children)


def _apposed_to_person_noun(root: Token) -> bool:
    """A name in apposition with a noun for a person, either way ("his daughter, Sophie",
    "Rivera, a father of three"): firms and places are not anyone's daughter."""
    nouns = [c for c in root.children if c.dep_ == "appos"]
    if root.dep_ == "appos":
        nouns.append(root.head)
    return any(n.pos_ == "NOUN" and is_person_noun(n.lemma_, by_ending=False) for n in nouns)


def _named_after_body(doc: Doc, mention: Mention) -> bool:
    """'the charity Muscle Matters', 'the band Sleepy Owls': a lower-case noun for an
    organisation right before the name names what it is (not "the company Jane Roe founded",
    where the name is the subject of a clause about the company)."""
    if mention.first < 2:
        return False
    noun = doc[mention.first - 1]
    if not (noun.text.islower() and noun.lemma_ in BODY_NOUNS):
        return False
    k = mention.first - 2
    while k > 0 and doc[k].text.islower() and doc[k].pos_ in ("ADJ", "NOUN"):
        k -= 1  # "the indie band Paper Lanterns", "the children's charity"
    if doc[k].lower_ not in _DETERMINERS:
        return False
    root = doc[mention.first : mention.last].root
    if root.dep_ in ("nsubj", "nsubjpass") and root.head.dep_ == "relcl":
        return False
    # "the company Jane Roe founded …": a clause hanging from the name or the noun, its verb
    # right after the name, has the name for its subject.
    after = doc[mention.last] if mention.last < len(doc) else None
    return not (
        after is not None
        and after.pos_ == "VERB"
        and after.dep_ in ("acl", "relcl")
        and after.head.i in (root.i, noun.i)
    )


def _named_after_role(doc: Doc, mention: Mention) -> bool:
    """A lower-case role noun or an honorific right before a name with no organisation word."""
    if mention.first == 0 or len(mention.parts) > MAX_PERSON_WORDS:
        return False
    prev = doc[mention.first - 1]
    if prev.text == "," and mention.first >= 2 and len(mention.parts) >= 2:
        # "His spokesperson, Helena Voss, said": a full name in apposition, closed by a comma
        # or the sentence's end.
        after = doc[mention.last] if mention.last < len(doc) else None
        if after is not None and after.text not in {",", ".", ";"}:
            return False
        prev = doc[mention.first - 2]
    cue = is_honorific(prev.text) or (is_role_noun(prev.text) and prev.text.islower())
    return cue and not any(p in ORG_HEAD_WORDS or p in COMPANY_SUFFIXES for p in mention.parts)


def model_mentions(doc: Doc, ents: Sequence[Span], known: KnownNames) -> list[Mention]:
    """Cleaned mentions from the model's entity spans (several per span when it holds several)."""
    mentions: list[Mention] = []
    skip = -1
    for k, ent in enumerate(ents):
        label = ent.label_
        if k == skip or (label not in KEPT_LABELS and label not in RECHECK_LABELS):
            continue
        couple = _couple(doc, ent, known)
        if couple is None and k + 1 < len(ents):
            joined = _couple_in_two(doc, ent, ents[k + 1])
            couple = _couple(doc, joined, known) if joined is not None else None
            skip = k + 1 if couple is not None else skip
        if couple is not None:
            mentions.extend(couple)
            continue
        start = ent.start
        of = _person_of_body(doc, ent) if label == "ORG" else None
        if of is not None:  # "Carolina Mendes of Creative Strategies": a person, a body
            mentions.append(make_mention(doc, ent.start, of, "PERSON"))
            start = of + 1
        for first, last in _pieces(doc, start, ent.end):
            first, last, new_label, cue = _trim(doc, first, last, label, known)
            if not _valid(doc, first, last, new_label) or _described_by_nation(doc, first, last):
                continue
            mention = make_mention(doc, first, last, new_label, person_cue=cue)
            final = _final_label(doc, mention, known)
            if final is None:
                continue
            mention.label = final
            mentions.append(mention)
    return mentions


def _person_of_body(doc: Doc, ent: Span) -> int | None:
    """'said Carolina Mendes of Creative Strategies', tagged as one organisation: a first
    name and a surname (a middle initial allowed), "of", and a body's name. The "of" token,
    or None when the words before it could head a body's own name ("Federal Bureau of
    Investigation", "Royal College of Nursing": an organisation word or an adjective for a
    body)."""
    words = list(ent)
    of = next((t.i for t in words if t.lower_ == "of"), None)
    if of is None or not 2 <= of - ent.start <= MAX_FOUND_WORDS - 1 or of + 1 >= ent.end:
        return None
    name = doc[ent.start : of]
    k = ent.start - 1
    while k > 0 and doc[k].text.islower() and (doc[k].pos_ == "ADJ" or doc[k].lemma_ in BODY_NOUNS):
        k -= 1
    if k >= 0 and doc[k].lower_ in _DETERMINERS:
        return None  # "the Bank of …", "the conservative Gun Owners of America"
    for t in name:
        key = word_key(t.text)
        if not (t.tag_ == "NNP" and _is_capitalised(t) and not t.is_upper):
            return None
        if t.lemma_.lower() != t.lower_:
            return None  # a plural noun ("Gun Owners of America")
        if (
            key in ORG_HEAD_WORDS
            or word_key(t.lemma_) in ORG_HEAD_WORDS
            or key in BODY_ADJECTIVES
            or key in PLACE_PREFIXES
            or key in PLACE_SUFFIXES
            or _is_person_word(t)
        ):
            return None
    return of


def described_by_nation(token: Token) -> bool:
    """'the Frenchman', 'the 28-year-old Englishwoman': a word for one person of a nation,
    after an article or an age, describes someone; it names no one."""
    if not is_nationality_noun(token.text):
        return False
    before = token.doc[token.i - 1] if token.i > 0 else None
    return before is not None and (
        before.lower_ in _DETERMINERS or before.lower_.endswith("-old") or before.lower_ == "old"
    )


def _described_by_nation(doc: Doc, first: int, last: int) -> bool:
    return last - first == 1 and described_by_nation(doc[first])


def _couple_in_two(doc: Doc, first: Span, rest: Span) -> Span | None:
    """'Arthur and Vera Bell' tagged as two entities ("Arthur" a person, "Vera Bell" a body):
    the one span ``_couple`` reads, a person's when either part is."""
    if len(first) != 1 or rest.start != first.end + 1 or not 2 <= len(rest) <= 3:
        return None
    if doc[first.end].lower_ not in ("and", "&") or rest.label_ not in KEPT_LABELS:
        return None
    label = "PERSON" if "PERSON" in (first.label_, rest.label_) else rest.label_
    return Span(doc, first.start, rest.end, label=label)


def _couple(doc: Doc, ent: Span, known: KnownNames) -> list[Mention] | None:
    """'Arthur and Edna Bell, both 92,': two people sharing the surname written once, as
    two person mentions (the first standing for "Arthur Bell"), when the span is exactly a
    first name, "and", and a name of two or three words, and the article shows they are
    people: the model's PERSON label, the first name written as a person's elsewhere, or an
    age right after ("both 92")."""
    words = list(ent)
    if not 4 <= len(words) <= 5 or words[1].lower_ not in ("and", "&"):
        return None
    if not all(
        t.tag_ == "NNP" and t.is_alpha and _is_capitalised(t) for t in words[:1] + words[2:]
    ):
        return None
    first = words[0]
    after = doc[ent.end : ent.end + 3]
    aged = [t.lower_ for t in after[:2]] == [",", "both"] or (
        len(after) >= 2 and after[0].text == "," and after[1].like_num
    )
    named_elsewhere = word_key(first.text) in known.words or any(
        e.label_ == "PERSON" and len(e) == 1 and e[0].text == first.text for e in doc.ents
    )
    if not (ent.label_ == "PERSON" or aged or named_elsewhere):
        return None
    surname = words[-1]
    alone = make_mention(doc, first.i, first.i + 1, "PERSON")
    alone.parts = (word_key(first.text), word_key(surname.text))
    alone.full_name = f"{first.text} {surname.text}"
    return [alone, make_mention(doc, words[2].i, ent.end, "PERSON")]


def _capitalised_word(token: Token, proper_only: bool) -> bool:
    """A capitalised word that may be a name; after a role noun the model's tag may say NN
    ("rapper Stormzy"), elsewhere only a proper-noun tag will do."""
    if not _is_capitalised(token) or not (token.is_alpha or token.text.rstrip(".").isalpha()):
        return False
    return token.tag_ in {"NNP", "NNPS"} or (
        not proper_only and token.tag_ == "NN" and not token.is_sent_start
    )


def _found_run(doc: Doc, i: int, covered: set[int], proper_only: bool) -> int:
    """End of the run of uncovered capitalised words starting at token ``i``."""
    j = i
    while j < len(doc) and j - i < MAX_FOUND_WORDS and j not in covered:
        if not _capitalised_word(doc[j], proper_only):
            break
        j += 1
        if "\n" in doc[j - 1].whitespace_:
            break
    return j


def missed_people(
    doc: Doc, ents: Sequence[Span], mentions: list[Mention], known: KnownNames
) -> list[Mention]:
    """People the model did not tag: a known name word ("Roe" after "Jane Roe" or a PERSON
    "Roe"), a capitalised word right after an honorific, title or role ("rapper Stormzy"), or
    two capitalised words with an age, a he/she bound to them or ", who" after them."""
    covered = {i for ent in ents for i in range(ent.start, ent.end)}
    covered.update(i for m in mentions for i in range(m.first, m.last))
    words = known.words | {p for m in mentions if m.label == "PERSON" for p in m.parts}
    surnames = set(known.surnames) | {
        m.parts[-1] for m in mentions if m.label == "PERSON" and m.parts
    }
    found = []
    speaking: dict[str, int] | None = None

    def speaking_alone() -> dict[str, int]:  # read once, when a name first needs it
        nonlocal speaking
        if speaking is None:
            speaking = _speaking_alone(doc)
        return speaking

    i = 0
    while i < len(doc):
        if i in covered or not _is_capitalised(doc[i]) or _tagged(doc, i):
            i += 1
            continue
        cue = _cue_before(doc, i)
        if not _capitalised_word(doc[i], proper_only=not cue):
            i += 1
            continue
        end = _found_run(doc, i, covered, proper_only=not cue)
        while end > i and word_key(doc[end - 1].text) in ORG_HEAD_WORDS:
            end -= 1
        begin = _after_title(doc, i, end)
        if begin > i:  # "Fire Chief Ines Marlowe": the name after the title
            cue, i = True, begin
        names = [t for t in doc[i:end] if not _is_person_word(t) and not is_calendar_word(t.text)]
        cue = cue or _owns_role(doc, end)
        if (
            names
            and len(names) == end - i
            and (
                cue
                or all(word_key(t.text) in words for t in names)
                or _first_names_of(doc, i, end, surnames)
                or end - i >= 2
                and age_after(doc, i, end) is not None  # "Deb Roe, 38, said"
                or end - i >= 2
                and _pronoun_bound(doc[i:end].root)  # "Ana Torres was 19 when she arrived"
                or end - i >= 2
                and _relative_follows(doc, end, "who")  # "Urs Fehr, who led the rescue,"
                or end - i >= 2
                and not i <= speaking_alone().get(doc[end - 1].text, i) < end  # "Torres said"
                # "His colleague at the firm, Ana Ruiz, agreed": set off by commas after a
                # noun for a person
                or _apposed_to_person_noun(doc[i:end].root)
                and doc[i - 1].text == ","
            )
        ):
            found.append(make_mention(doc, i, end, "PERSON", person_cue=cue))
            if len(found[-1].parts) >= 2:  # its words name the person later on too
                words |= set(found[-1].parts)
                surnames.add(found[-1].parts[-1])
        i = max(end, i + 1)
    return found


@cache
def _business_hashes(strings: StringStore) -> frozenset[int]:
    """The hashes of BUSINESS_WORDS as the parse's lower-case forms ("Inc." is one token)."""
    return frozenset(strings.add(w) for word in BUSINESS_WORDS for w in (word, word + "."))


def missed_bodies(doc: Doc, ents: Sequence[Span], mentions: list[Mention]) -> list[Mention]:
    """Businesses the model did not tag: two capitalised proper nouns or more, none of them
    tagged or taken, whose last is a trade or a legal form (``BUSINESS_WORDS``): "Velora
    Motors", which the model may tag alone and miss in an article."""
    if _business_hashes(doc.vocab.strings).isdisjoint(doc.to_array(LOWER).tolist()):
        return []  # (most articles: none of the words, and no Token is built)
    covered = {i for ent in ents for i in range(ent.start, ent.end)}
    covered.update(i for m in mentions for i in range(m.first, m.last))
    found = []
    i = 0
    while i < len(doc):
        if i in covered or not _capitalised_word(doc[i], proper_only=True):
            i += 1
            continue
        end = _found_run(doc, i, covered, proper_only=True)
        if end - i >= 2 and word_key(doc[end - 1].text) in BUSINESS_WORDS:
            found.append(make_mention(doc, i, end, "ORG"))
        i = max(end, i + 1)
    return found


def _relative_follows(doc: Doc, end: int, pronoun: str) -> bool:
    """', who …' (a person's) or ', which …' (a thing's) right after a name, as the subject
    of the clause it opens."""
    return (
        end + 1 < len(doc)
        and doc[end].text == ","
        and doc[end + 1].lower_ == pronoun
        and doc[end + 1].dep_ == "nsubj"
    )


def _speaking_alone(doc: Doc) -> dict[str, int]:
    """Capitalised words that are the subject of a speech verb on their own ("Torres said"),
    with the last place each is: firms and places are named whole ("Acme Corp said", not
    "Corp said"), so a name's last word written so is a person's."""
    found: dict[str, int] = {}
    for t in doc[1:]:
        if (
            t.dep_ == "nsubj"
            and _is_capitalised(t)
            and not _is_capitalised(doc[t.i - 1])
            and is_speech_verb(t.head)
        ):
            found[t.text] = t.i
    # ... and a word alone before a colon and a quotation mark that open a line (a headline's
    # "Starmer: 'We will rebuild Britain'")
    for t in doc[:-2]:
        if (
            (t.i == 0 or "\n" in doc[t.i - 1].whitespace_ or doc[t.i - 1].is_space)
            and _is_capitalised(t)
            and t.is_alpha
            and doc[t.i + 1].text == ":"
            and doc[t.i + 2].is_quote
        ):
            found.setdefault(t.text, t.i)
    return found


def _pronoun_bound(root: Token) -> bool:
    """A name that is a clause's subject and that a he or she in a clause hanging from that
    clause refers back to ("Ana Torres was 19 when she arrived"; not a reported clause, which
    may be about anyone)."""
    if root.dep_ not in ("nsubj", "nsubjpass"):
        return False
    verb = root.head
    return any(
        clause.dep_ in ("advcl", "conj")
        and any(
            c.dep_ in ("nsubj", "nsubjpass") and c.lower_ in ("he", "she") for c in clause.children
        )
        for clause in verb.children
    )


def _rejoin_split_names(doc: Doc, mentions: list[Mention]) -> list[Mention]:
    """Names the model cut in two around words no English name has inside it: 'Ursula von
    der Leyen' (lower-case particles; the model tagged 'Ursula' and 'Leyen', a place) and
    'Dwayne "The Rock" Johnson' (a quoted nickname). A person's mention and the capitalised
    word after such words are one person's name; a later 'von der Leyen' is that surname
    with its particles. The parts leave the nickname out, so the name compares as 'Dwayne
    Johnson'."""
    starting = {m.first: m for m in mentions}
    joined: list[Mention] = []
    taken_to = -1  # the last token of a joined name so far: mentions inside it go
    for m in mentions:
        if m.first < taken_to:
            continue
        gap = _split_gap(doc, m.last) if m.label == "PERSON" else None
        if gap is None and m.label == "PERSON" and _ends_with_particle(doc, m):
            gap = m.last  # "Marine Le" tagged without "Pen"
        if gap is not None:
            rest = starting.get(gap)
            end = rest.last if rest is not None else gap + 1
            taken_to = end
            nickname = gap > m.last and doc[m.last].lower_ not in NAME_PARTICLES
            whole = make_mention(doc, m.first, end, "PERSON", person_cue=m.person_cue)
            if nickname:
                whole.parts = m.parts + tuple(word_key(t.text) for t in doc[gap:end] if t.is_alpha)
            m = whole
        joined.append(m)
    surnames = {
        m.parts[-1]
        for m in joined
        if m.label == "PERSON"
        and any(doc[i].lower_ in NAME_PARTICLES for i in range(m.first, m.last))
    }
    return [_with_particles(doc, m) if m.parts and m.parts[-1] in surnames else m for m in joined]


def _ends_with_particle(doc: Doc, m: Mention) -> bool:
    """'Marine Le' (then "Pen"), 'Chris De' (then "Burgh"): a person's mention of two words or
    more that ends with a capitalised particle, right before a capitalised word."""
    last = doc[m.last - 1]
    return (
        m.last - m.first >= 2
        and m.last < len(doc)
        and last.lower_ in NAME_PARTICLES
        and last.text[:1].isupper()
        and not last.whitespace_.count("\n")
        and doc[m.last].is_alpha
        and _is_capitalised(doc[m.last])
    )


def _split_gap(doc: Doc, last: int) -> int | None:
    """Where a name resumes after the words at ``last`` that split it: one to
    MAX_SPLIT_PARTICLES lower-case particles, or a quoted run of capitalised words, then a
    capitalised word on the same line. None when the name does not go on."""
    k = last
    while k < len(doc) and k - last < MAX_SPLIT_PARTICLES and _splitting_particle(doc[k]):
        k += 1
    if k == last and doc[last : last + 1].text in NICKNAME_MARKS:
        k = last + 1
        while k < len(doc) and k - last <= MAX_NICKNAME_WORDS and _is_capitalised(doc[k]):
            k += 1
        if k == last + 1 or k >= len(doc) or doc[k].text not in NICKNAME_MARKS:
            return None
        k += 1
    if k == last or k >= len(doc) or "\n" in doc[k - 1 : k + 1].text:
        return None
    resumes = doc[k].is_alpha and _is_capitalised(doc[k]) and doc[k].tag_ in {"NNP", "NNPS"}
    return k if resumes else None


def _splitting_particle(token: Token) -> bool:
    # "ten" is more often the number ("told Roe ten Democrats would ...") than a particle.
    return token.text in NAME_PARTICLES and token.text != "ten"


def _with_particles(doc: Doc, mention: Mention) -> Mention:
    """'von der Leyen' where the model tagged only 'Leyen': the particles before it belong
    to the surname of a person named with them, and so does the label."""
    k = mention.first
    while k > 0 and mention.first - k < MAX_SPLIT_PARTICLES and _splitting_particle(doc[k - 1]):
        k -= 1
    if k == mention.first:
        return mention
    return make_mention(doc, k, mention.last, "PERSON", person_cue=mention.person_cue)


def _first_names_before(doc: Doc, mention: Mention, taken: set[int]) -> Mention:
    """'Fire Chief Ines Marlowe' where the model tagged only 'Marlowe': proper nouns between a
    title or role and a surname tagged PERSON are first names (at most MAX_FIRST_NAMES); so
    are those opening a sentence when an age follows the name ("Deb Roe, 38, said"). A
    surname the model tagged a place or body is a person's too when the whole name has a
    person's signs ("Governor Alexei Voronin", "Ana Reyes, who …" with the surname an ORG)."""
    if len(mention.parts) != 1 or mention.label not in _SURNAME_LABELS:
        return mention
    k = mention.first  # ``taken``: the tokens of every mention found so far
    while (
        k > 0
        and mention.first - k < MAX_FIRST_NAMES
        and k - 1 not in taken
        and doc[k - 1].tag_ in {"NNP", "NNPS"}
        and doc[k - 1].is_alpha
        and not doc[k - 1].is_upper
        and "\n" not in doc[k - 1].whitespace_
        and not _is_person_word(doc[k - 1])
        and not is_calendar_word(doc[k - 1].text)
    ):
        k -= 1
    if k == mention.first:
        return mention
    titled = k > 0 and _is_person_word(doc[k - 1]) and k - 1 not in taken
    # "Gwen Sadowska, 38, who ...": a line or sentence opening with the name and its age.
    aged = _opens_sentence(doc, k) and age_after(doc, k, mention.last) is not None
    if mention.label == "PERSON":
        person = titled or aged
    else:  # the model's other label gives way to a person's signs on the whole name
        person = (
            titled
            or age_after(doc, k, mention.last) is not None
            or _relative_follows(doc, mention.last, "who")  # "Ana Reyes, who lives nearby"
            or _pronoun_bound(doc[k : mention.last].root)
        )
    if not person:
        return mention
    return make_mention(doc, k, mention.last, "PERSON", person_cue=titled)


def _after_title(doc: Doc, i: int, end: int) -> int:
    """Start of the name inside a capitalised run that holds a title or role ("Fire Chief
    Ines Marlowe"): after its last title word, when a full name (or, after an honorific or a
    title proper, a surname) follows. ``i`` when there is none, or when capitalised words run
    on past the run (a headline in title case: "Show Star Spotted Leaving Studio")."""
    if end < len(doc) and _is_capitalised(doc[end]) and doc[end].is_alpha:
        return i
    for k in range(end - 1, i - 1, -1):
        if not _is_person_word(doc[k]):
            continue
        rest = end - k - 1
        strong = is_honorific(doc[k].text) or is_title(doc[k].text)
        return k + 1 if rest >= 2 or (rest == 1 and strong) else i
    return i


def _first_names_of(doc: Doc, i: int, end: int, surnames: set[str]) -> bool:
    """'Deb Kowalczyk' where the model tagged only 'Kowalczyk': proper nouns ending with the
    surname of a person the article names, none an organisation or place word."""
    if end - i < 2 or word_key(doc[end - 1].text) not in surnames:
        return False
    return all(
        t.tag_ in {"NNP", "NNPS"}
        and not t.is_upper
        and word_key(t.text) not in ORG_HEAD_WORDS
        and word_key(t.text) not in PLACE_SUFFIXES
        and word_key(t.text) not in PLACE_PREFIXES
        for t in doc[i : end - 1]
    )


def parenthesised_acronyms(doc: Doc, mentions: list[Mention]) -> list[Mention]:
    """'World Health Organization (WHO)': the acronym the model left untagged, as a mention."""
    taken = {m.first for m in mentions}
    found = []
    for mention in mentions:
        i = mention.last
        if (
            len(mention.parts) < 2
            or i + 2 >= len(doc)
            or doc[i].text != "("
            or doc[i + 2].text != ")"
        ):
            continue
        if looks_like_acronym(doc[i + 1].text) and i + 1 not in taken:
            found.append(make_mention(doc, i + 1, i + 2, mention.label))
    return found


def _link_acronyms(doc: Doc, mentions: list[Mention]) -> None:
    """Tie each 'Long Form (ACR)' acronym to the mention right before its parenthesis."""
    by_last = {m.last: i for i, m in enumerate(mentions)}
    for m in mentions:
        if not m.is_acronym or m.first < 2 or m.last >= len(doc):
            continue
        if doc[m.first - 1].text == "(" and doc[m.last].text == ")":
            index = by_last.get(m.first - 1)
            if index is not None and len(mentions[index].parts) >= 2:
                m.acronym_of = index


def find_mentions(doc: Doc) -> list[Mention]:
    """Every name mention in the document, in text order, with its final label."""
    ents = list(doc.ents)  # built on every access: once per article
    known = known_names(doc, ents)
    mentions = model_mentions(doc, ents, known)
    people = {p for m in mentions if m.label == "PERSON" for p in m.parts}
    for m in mentions:
        if m.label == PENDING and m.parts and all(p in people for p in m.parts):
            m.label = "PERSON"
    mentions = _rejoin_split_names(doc, [m for m in mentions if m.label != PENDING])
    taken = {i for m in mentions for i in range(m.first, m.last)}
    mentions = [_first_names_before(doc, m, taken) for m in mentions]
    mentions.extend(missed_people(doc, ents, mentions, known))
    mentions.extend(missed_bodies(doc, ents, mentions))
    mentions = relabel_non_people(doc, ents, mentions, known)
    mentions.extend(parenthesised_acronyms(doc, mentions))
    mentions.extend(refound_names(doc, mentions))
    mentions.sort(key=lambda m: m.first)
    _link_acronyms(doc, mentions)
    return mentions


def refound_names(doc: Doc, mentions: list[Mention]) -> list[Mention]:
    """'… suing the tech firm Orbix. ¶ Orbix denied the claims.': the model tags a name in one
    place and not in another. The same words, as proper nouns standing alone (not inside a
    longer name), name the same thing everywhere in the article (one label per name).

    Words are compared as the Doc's word and tag columns (numbers): building a Token for
    every word would cost more than the rest of the pass."""
    if not mentions:
        return []
    columns = doc.to_array([ORTH, TAG])
    orths, tags = columns[:, 0].tolist(), columns[:, 1].tolist()
    strings = doc.vocab.strings
    proper = {strings["NNP"], strings["NNPS"]}
    labels: dict[tuple[int, ...], set[str]] = {}
    for m in mentions:
        if m.full_name is not None:
            continue
        labels.setdefault(tuple(orths[m.first : m.last]), set()).add(m.label)
        if m.label == "PERSON" and m.last - m.first >= 2 and tags[m.last - 1] in proper:
            # a person's surname alone ("Keir Starmer … ¶ Starmer:"), unless it names
            # something else in the article ("Jack London" in an article about London)
            labels.setdefault((orths[m.last - 1],), set()).add("PERSON")
    labels = {w: found for w, found in labels.items() if found <= REFOUND_LABELS}
    by_first: dict[int, list[tuple[tuple[int, ...], str]]] = {}
    for words, found in labels.items():
        if len(found) == 1 and not any(is_calendar_word(strings[w]) for w in words):
            by_first.setdefault(words[0], []).append((words, next(iter(found))))
    if not by_first:
        return []

    def name_goes_on(k: int) -> bool:
        word = strings[orths[k]]
        return tags[k] in proper and word[:1].isupper()

    taken = {i for m in mentions for i in range(m.first, m.last)}
    out: list[Mention] = []
    firsts = np.fromiter(by_first, dtype=np.uint64, count=len(by_first))
    for i in np.flatnonzero(np.isin(columns[:, 0], firsts)).tolist():
        for words, label in by_first[orths[i]]:
            end = i + len(words)
            if end > len(orths) or any(k in taken for k in range(i, end)):
                continue
            if tuple(orths[i:end]) != words:
                continue
            # (a headline's "Starmer: '…'" the tagger may read as a common noun)
            headline_speaker = end < len(orths) and strings[orths[end]] == ":"
            if not (headline_speaker or all(tags[k] in proper for k in range(i, end))):
                continue
            if (i > 0 and name_goes_on(i - 1)) or (end < len(orths) and name_goes_on(end)):
                continue  # part of a longer name ("Orbix Labs")
            out.append(make_mention(doc, i, end, label))
            taken.update(range(i, end))
    return out


def _is_dateline(doc: Doc, mention: Mention) -> bool:
    """'PORT ALDER (Metro Wire) —': the place of the dateline opening a line."""
    return mention.text.isupper() and in_dateline(doc[mention.first])


def _ent_key(doc: Doc, ent: Span) -> tuple[str, ...]:
    words = [t for t in ent if not t.is_punct and t.lower_ not in _DETERMINERS and t.tag_ != "POS"]
    return tuple(k for k in (word_key(t.text) for t in words) if k)


def _opens_sentence(doc: Doc, i: int) -> bool:
    """First word of its sentence, after any opening quote marks or brackets."""
    j = i
    while j > 0 and not doc[j].is_sent_start:
        before = doc[j - 1]
        if before.is_space or "\n" in before.whitespace_:
            return True
        if not before.is_punct or before.text in ",;:":
            return False
        j -= 1
    return True


def _place_label(keys: tuple[str, ...], labels: dict[tuple[str, ...], list[str]]) -> str | None:
    """GPE/LOC when the model tags these words a place at least as often as a person."""
    seen = labels.get(keys, [])
    places = [lab for lab in seen if lab in PLACE_LABELS]
    if places and len(places) >= seen.count("PERSON"):
        return "LOC" if places.count("GPE") * 2 < len(places) else "GPE"
    return None


def relabel_non_people(
    doc: Doc, ents: Sequence[Span], mentions: list[Mention], known: KnownNames
) -> list[Mention]:
    """Places, organisations and common words the model took for people, by evidence from
    the whole article: a dateline in capitals, a place word ending or opening the name ("Mill
    Lane", "Port Alder"), a bare word mostly after "in"/"at"/"near"/"from", a name the model
    tags a place at least as often, a bare word that opens an organisation's name
    ("Brightwave" beside "Brightwave TV"), an abstract noun opening a sentence ("Kindness"),
    a name followed by ", which" each time.
    A name with a person's cue or age, or the surname of a longer person's name, stays."""
    labels: dict[tuple[str, ...], list[str]] = {}
    for ent in ents:
        labels.setdefault(_ent_key(doc, ent), []).append(ent.label_)
    people = [m for m in mentions if m.label == "PERSON"]
    by_key: dict[tuple[str, ...], list[Mention]] = {}
    for m in people:
        by_key.setdefault(m.parts, []).append(m)
    # Beginnings of organisations' names; not of a headline the model read as one ("Obama
    # Says Museum Shows Nation"): no verb in it and at most MAX_ORG_PREFIX_SOURCE words.
    org_prefixes = {
        m.parts[:k]
        for m in mentions
        if m.label == "ORG"
        and len(m.parts) <= MAX_ORG_PREFIX_SOURCE
        and not any(t.tag_.startswith("VB") for t in doc[m.first : m.last])
        for k in range(1, len(m.parts))
    }
    new_label: dict[int, str | None] = {}
    full_names: list[tuple[str, ...]] = []
    # Longer names first: a single word stays a person's only beside a longer name that does.
    for key, group in sorted(by_key.items(), key=lambda kv: -len(kv[0])):
        if not key:
            continue
        for m in group:
            if _is_dateline(doc, m):
                new_label[id(m)] = "GPE"
        rest = [m for m in group if id(m) not in new_label]
        label: str | None = "PERSON"
        person_sign = any(
            m.person_cue or age_after(doc, m.first, m.last) or age_before(doc, m.first)
            for m in rest
        )
        # "Marlowe" of "Ines Marlowe" stays a person's.
        longer = any(len(f) > len(key) and f[-len(key) :] == key for f in full_names)
        if rest and not person_sign and not longer:
            label = _non_person_label(doc, key, rest, labels, org_prefixes)
        if label != "PERSON":
            new_label.update(dict.fromkeys((id(m) for m in rest), label))
        elif rest and len(key) >= 2:
            full_names.append(key)
    surnames = {f[-1] for f in full_names}
    for m in mentions:
        # "Ondrasek" tagged GPE or ORG beside "Rafael Ondrasek" (found after the model's pass).
        single = len(m.parts) == 1 and not m.is_acronym
        if m.label in {"GPE", "LOC", "ORG"} and single and m.parts[0] in surnames:
            new_label.setdefault(id(m), "PERSON")
    # "Nadia Farouk" tagged ORG where "Farouk" alone is a person's elsewhere: proper nouns
    # ending with that surname, none an organisation or place word, name her.
    lone_people = {
        key[0]
        for key, group in by_key.items()
        if len(key) == 1 and any(new_label.get(id(m), "PERSON") == "PERSON" for m in group)
    }
    for m in mentions:
        if (
            m.label in {"GPE", "LOC", "ORG"}
            and 2 <= len(m.parts) <= MAX_FIRST_NAMES + 1
            and not m.is_acronym
            and _first_names_of(doc, m.first, m.last, lone_people)
        ):
            new_label.setdefault(id(m), "PERSON")
    out = []
    for m in mentions:
        if id(m) in new_label:
            final = new_label[id(m)]
            if final is None:
                continue
            m.label = final
        out.append(m)
    return out


def _non_person_label(
    doc: Doc,
    key: tuple[str, ...],
    group: list[Mention],
    labels: dict[tuple[str, ...], list[str]],
    org_prefixes: set[tuple[str, ...]],
) -> str | None:
    """The label of a person-tagged name with no person's cue: PERSON, a place or ORG
    label, or None for a common word."""
    if len(key) == 1:
        word = key[0]
        if word in PLACE_SUFFIXES or word in PLACE_PREFIXES:
            return None  # "Valley", "Ferry": a place noun, no name
        after_place_word = sum(
            m.first > 0 and doc[m.first - 1].lower_ in PLACE_PREPOSITIONS for m in group
        )
        if after_place_word * 2 > len(group):
            return "GPE"
        if key in org_prefixes:
            return "ORG"
        if (
            len(word) >= MIN_ABSTRACT_LEN
            and word.endswith(ABSTRACT_SUFFIXES)
            and all(_opens_sentence(doc, m.first) for m in group)
        ):
            return None
    elif key[-1] in PLACE_SUFFIXES or key[0] in PLACE_PREFIXES:
        if key in org_prefixes:
            return "ORG"  # "Port Alder" beside "Port Alder FC"
        return "LOC" if key[-1] in PLACE_SUFFIXES else "GPE"
    if all(_relative_follows(doc, m.last, "which") for m in group):
        return "ORG"  # "Alpine Rescue, which led the search,"
    return _place_label(key, labels) or "PERSON"
