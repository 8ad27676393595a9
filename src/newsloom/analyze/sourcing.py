"""Credits to an original source: the outlet, agency or document an article credits for material.

Read from the dependency parse (used by the framing stage), one general pattern per syntactic
role the credited name can take:

- agent of a publishing verb: "first reported by X", "obtained by X", "released by X"
- object of "to"/"with" after a giving or speaking word: "provided to X", "a statement to X",
  "in an interview with X"
- object of "tell": "told X" (but "told reporters" names no outlet)
- subject of a publishing verb: "X reported", "X obtained the footage"
- a report noun owned by X: "a report by X", "X's investigation"
- "according to X", "via X"
- the owner of a person spoken to: "told NBC10's Jane Roe" credits NBC10

X must be an organisation: an ORG entity, or a run of capitalised proper nouns that no person,
place or nationality entity covers and that reads as a title ("The Daily Courier") or an acronym
("TMZ"). People, places and common nouns ("reporters", "the statement") are never credited.

An organisation is not a source merely for speaking or being spoken to ("told Parliament",
"according to the fire department"): a credit needs evidence that X publishes the material
(``publisher_evidence``), and ``SourceCredit.evidence`` says which. A cue that only a
publisher takes ("first reported by X", "a report from X", "X is reporting", "via X") is
evidence itself; otherwise the name must read as a publisher (a domain "X.com", a newspaper
word in the name "Daily News", a media noun the syntax attaches "news agency X", "X, a
Detroit station"), be an acronym spoken to ("told CNN"), name a document's issuer ("a
statement released by X"), or be credited with evidence elsewhere in the article. A candidate
without evidence is kept with ``evidence=""``: the story stage credits it only when it names
one of the story's own outlets.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
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

# --- publisher evidence -------------------------------------------------------------------
# Cues only a publisher takes: "first reported by X", "a report from X", "X's article",
# "via X", "X is reporting" / "X reports" (the newsroom present). An investigation, a video or
# a photo by X (police, a bystander) credits no publication, so those nouns need evidence.
PUBLICATION_VERBS = frozenset({"report", "publish", "break"})
PUBLICATION_NOUNS = frozenset({"report", "story", "article", "exclusive", "documentary", "podcast"})
# Words that make a name a publication's: the common kinds of newspaper, agency and
# broadcaster title in English ("Daily News", "Canadian Press", "Sky TV"), matched as whole
# words of the name. Generic newspaper nomenclature, not outlet names; words that also name
# other bodies ("Sun", "Star", "Examiner", "Advocate") are left out, so those titles need
# other evidence (and "Office of the Chief Medical Examiner" is not a newspaper).
MEDIA_NAME_WORDS = frozenset(
    {"news", "times", "post", "press", "herald", "journal", "gazette", "tribune", "magazine",
     "mag", "reporter", "daily", "weekly", "tv", "radio", "newswire", "wire", "broadcasting",
     "channel", "blog", "telegraph", "chronicle", "courier", "newspaper", "television",
     "inquirer", "newsday", "network", "mailonline", "media"}
)  # fmt: skip
# Common nouns that say what kind of publisher a name is, attached to it by apposition or
# compounding: "news agency ISNA", "WDIV, a Detroit station", "celebrity website TMZ".
MEDIA_NOUNS = frozenset(
    {"newspaper", "paper", "website", "site", "agency", "station", "broadcaster", "network",
     "channel", "magazine", "tabloid", "daily", "outlet", "affiliate", "blog", "wire",
     "publication", "journal", "programme", "program", "show", "weekly", "newswire", "mag"}
)  # fmt: skip
# Things an organisation issues that can carry material: "a statement released by X",
# "documents obtained by X", "the security advisory X published".
DOCUMENT_NOUNS = frozenset(
    {"statement", "report", "document", "documents", "record", "records", "advisory", "data",
     "figures", "toll", "filing", "memo", "release", "transcript", "letter", "email", "emails",
     "study", "survey", "bulletin", "footage", "video", "recording", "tape", "tapes"}
)  # fmt: skip
# Verbs by which the subject issues the document it names: "X published an advisory".
ISSUE_VERBS = frozenset({"publish", "release", "issue", "post", "distribute"})
# Cues by which one speaks to the credited party ("told CNN", "an interview with the AP"):
# an acronym spoken to there is a newsroom in every such case of ECB+ dev, so the shape is
# evidence with these cues only (an acronym as "according to" or as a subject is not).
SPOKEN_TO_CUES = frozenset(
    {"told", "confirmed to", "confirms to", "interview with", "speaking to", "spoke to",
     "talking to", "talked to", "said to", "speak to", "talk to"}
)  # fmt: skip
_DOMAIN = re.compile(r"[A-Za-z0-9]\.(?:com|net|org|co\.uk|co|tv|fm|news|info)$", re.I)
_WORD = re.compile(r"[A-Za-z0-9!]+")


@dataclass(frozen=True)
class _Candidate:
    start: int
    end: int
    cue: str
    cue_start: int
    cue_end: int
    target: Token
    publication: bool  # the cue itself is publisher evidence
    document: bool  # the cue credits a document the named party issued


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
    found: list[_Candidate] = []
    seen: set[tuple[int, int]] = set()
    for cue_tokens, cue, target in _candidates(doc):
        start, end = cue_tokens[0].idx, cue_tokens[-1].idx + len(cue_tokens[-1])
        if not own_set.overlaps(start, end) or excluded_set.overlaps(start, end):
            continue
        name = _organisation(target, typed, ent_at, person_words)
        if name is None or (name[0], name[1]) in seen or excluded_set.overlaps(*name):
            continue
        if "\n" in doc.text[min(name[1], start) : max(name[0], end)]:
            continue  # a headline parsed into the next paragraph's sentence
        seen.add((name[0], name[1]))
        found.append(
            _Candidate(
                name[0], name[1], cue, start, end, target, _is_publication(cue_tokens, cue),
                _is_document(cue_tokens),
            )
        )  # fmt: skip
    evidence = _evidence(doc, found)
    credits = []
    for cand, why in zip(found, evidence, strict=True):
        sent = cand.target.sent
        named = doc.char_span(cand.start, cand.end)
        assert named is not None  # entity mentions and parse spans: token boundaries
        credits.append(
            SourceCredit(
                name=named.text,
                start=cand.start,
                end=cand.end,
                cue=cand.cue,
                cue_start=cand.cue_start,
                cue_end=cand.cue_end,
                sentence_start=sent.start_char,
                sentence_end=sent.end_char,
                evidence=why,
            )
        )
    return sorted(credits, key=lambda c: c.start)


def _evidence(doc: Doc, found: list[_Candidate]) -> list[str]:
    """Why each candidate names a publisher ("" when nothing says so); a name with evidence
    somewhere in the article lends it to its other credits there."""
    own = [publisher_evidence(doc, c) for c in found]
    by_key: dict[str, str] = {}
    for cand, why in zip(found, own, strict=True):
        if why:
            by_key.setdefault(name_key(doc.text[cand.start : cand.end]), why)
    out = []
    for cand, why in zip(found, own, strict=True):
        key = name_key(doc.text[cand.start : cand.end])
        if not why and key in by_key:
            why = f"credited elsewhere in the article ({by_key[key]})"
        out.append(why)
    return out


def name_key(name: str) -> str:
    """A name's letters and digits, lower-cased, without 'the', a possessive or a web domain:
    'The Daily Courier' = "DailyCourier.com's" = 'daily courier' -> 'dailycourier'."""
    name = re.sub(r"['’]s?$", "", name.strip())
    name = re.sub(r"(?i)^the\s+", "", name)
    name = re.sub(r"(?i)\.(?:com|net|org|co\.uk|co|tv|fm|news|info)$", "", name)
    return re.sub(r"\W+", "", name).casefold()


def publisher_evidence(doc: Doc, cand: _Candidate) -> str:
    """Why the candidate's name is a publisher of the material, or "" when nothing says so."""
    name = doc.text[cand.start : cand.end]
    words = [w.lower() for w in _WORD.findall(name)]
    if cand.publication:
        return f"a publication cue ('{cand.cue}')"
    if cand.document:
        return f"issues a document ('{cand.cue}')"
    if _DOMAIN.search(name.strip().rstrip("'’s")):
        return "a web domain"
    media = [w for w in words if w in MEDIA_NAME_WORDS]
    if media:
        return f"a publication's name ('{media[0]}')"
    noun = _media_noun(doc, cand)
    if noun:
        return f"described as a {noun}"
    letters = [w for w in _WORD.findall(name) if w.isalpha()]
    acronym = len(letters) == 1 and letters[0].isupper() and len(letters[0]) >= 2
    if acronym and cand.cue in SPOKEN_TO_CUES:
        return f"an acronym spoken to ('{cand.cue}')"
    return ""


def _media_noun(doc: Doc, cand: _Candidate) -> str | None:
    """A media noun the syntax attaches to the name: its compound or appositive modifier
    ("news agency ISNA", "WDIV, a Detroit station") or the noun it is apposed to."""
    span = doc.char_span(cand.start, cand.end)
    if span is None:
        return None
    root = span.root
    near = [c for t in span for c in t.children if c.dep_ in ("appos", "compound", "amod")]
    near += [c for c in root.children if c.dep_ == "appos"]
    if root.dep_ in ("appos", "compound"):
        near.append(root.head)
    for t in near:
        if (
            t.pos_ == "NOUN"
            and t.lemma_.lower() in MEDIA_NOUNS
            and not span.start <= t.i < span.end
        ):
            return t.lower_
    return None


def _is_publication(cue_tokens: list[Token], cue: str) -> bool:
    head = cue_tokens[0]
    lemma = head.lemma_.lower()
    if cue.startswith("via"):
        return True
    if cue.endswith(" by") and lemma in PUBLICATION_VERBS | {"first"}:
        return True
    if head.pos_ == "NOUN" and lemma in PUBLICATION_NOUNS:
        return True
    if (
        lemma == "report"
        and head.pos_ == "VERB"
        and any(c.dep_ in ("ccomp", "parataxis") and c.i < head.i for c in head.children)
    ):
        return True  # "..., the Daily Courier reported.": the news, then its publisher
    if lemma == "report" and head.pos_ == "VERB" and head.tag_ in ("VBG", "VBZ"):
        # "X is reporting", "X reports that" -- not "X reports to the minister".
        return not any(c.lower_ == "to" and c.dep_ == "prep" for c in head.children)
    return False


def _is_document(cue_tokens: list[Token]) -> bool:
    """'a statement released by X', 'records obtained by X': the passive's noun is a document;
    'X published a security advisory': the verb's object is one."""
    head = cue_tokens[0]
    if head.lower_ == "first" and len(cue_tokens) > 1:
        head = cue_tokens[0].head
    if head.pos_ not in ("VERB", "AUX") or head.lemma_.lower() not in PUBLISH_VERBS:
        return False
    if cue_tokens[-1].lower_ == "by":  # "records obtained by X", "records were obtained by X"
        nouns = [c for c in head.children if c.dep_ == "nsubjpass"]
        nouns += [head.head] if head.dep_ in ("acl", "relcl") else []
        return any(n.lemma_.lower() in DOCUMENT_NOUNS for n in nouns)
    if head.lemma_.lower() not in ISSUE_VERBS:
        return False  # "the FBI obtained tapes": holding a document is not issuing it
    objects = [c for c in head.children if c.dep_ == "dobj"]
    if head.dep_ == "relcl":
        objects.append(head.head)
    return any(o.lemma_.lower() in DOCUMENT_NOUNS for o in objects)


def _candidates(doc: Doc) -> Iterator[tuple[list[Token], str, Token]]:
    """``(cue tokens, normalised cue, the token naming the credited party)`` per pattern."""
    for token in doc:
        lemma, lower = token.lemma_.lower(), token.lower_
        # Cheap string checks first: most tokens are no cue, and ``.head`` builds an object.
        if not (
            token.dep_ == "agent"
            or lower in ("to", "with", "via")
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
        elif token.lower_ == "via" and token.dep_ == "prep":
            for obj in _objects(token):
                yield [token], "via", obj
        elif lemma == "tell" and token.pos_ in ("VERB", "AUX"):
            for obj in token.children:
                if obj.dep_ in ("dobj", "dative"):
                    yield [token], "told", obj
                    yield from (([token], "told", p) for p in _owners(obj))
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
    # "told NBC10's Jane Roe": the person is no source, the outlet owning her may be.
    return objects + [p for obj in objects for p in _owners(obj)]


def _owners(token: Token) -> list[Token]:
    return [c for c in token.children if c.dep_ == "poss" and c.pos_ == "PROPN"]


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
