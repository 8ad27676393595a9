"""Quotes: direct quotations and indirect attributions, with cue and speaker (the helpers of
the quotes stage, analyze/stages/quotes.py).

Quote marks are paired per paragraph line (quotemarks.py); each quoted segment gets its cue
and speaker from the dependency parse (attribution.py), or, in a paragraph that only carries
on a quotation, the previous speaker. Speakers resolve to the article's entities: pronouns to
the speaker or person just before, surnames to the full name, ``Roe's spokesperson`` to
``Jane Roe's spokesperson`` (or to the person named in apposition), ``the TV host`` to the one
person the article gave that role. A quotation inside an embedded post is its author's, and so
is a first-person report there ("I'll be back, I promise"); a post's words never name the
speaker of a quotation outside it.

One ``_Scan`` per article holds what every step reads (the parse, the paragraph lines, the
quoted tokens, the people, the speaker resolver), so the steps take it and nothing else.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from spacy.tokens import Doc, Span, Token

from ..models import Entity, Paragraph, Post, QuoteKind, QuoteMention
from ..text.datelines import own_words_start
from ..text.described import DEFINITE, NOUN_GENDER, stated_age
from ..text.names import is_person_noun, is_role_noun
from ..text.words import fold
from .antecedents import PRONOUN_GENDER, TokenOffsets, article_genders, sentence_starts
from .attribution import (
    ADDRESSEE_VERBS,
    NON_SPEAKER_SUBJECTS,
    SPEAKER_NOUNS,
    SPEECH_NOUNS,
    WEAK_VERBS,
    Cue,
    according_to,
    antecedent,
    could_speak,
    cue_before_colon,
    find_cue,
    is_speech_verb,
    named_after_roles,
    named_in_apposition,
    owner_span,
    report_after,
    reports_after_predicate,
    speaker_span,
    stranded_name,
    subject_of,
    verb_after_name,
)
from .mentions import BODY_NOUNS, described_by_nation
from .quotemarks import Segment, paragraph_segments, paragraph_spans, single_segments
from .speakers.candidates import Candidate, CandidateFinder, QuoteContext, speaker_kind
from .speakers.ranker import SpeakerRanker
from .speakers.referents import description_index, document_issuer, is_definite, refers_back
from .speakers.tokens import TokenTable

# Paragraph labels whose quotation marks are not reporting. Metadata and call-to-action lines
# are kept: a date-marker line may carry the first sentence, and a short line ending in "here"
# may be a quote.
SKIPPED_LABELS = frozenset({"caption", "related_headline"})
# A pronoun speaker resolves to a person named as a subject earlier in its paragraph, else to
# the previous speaker when that one spoke this many paragraphs ago at most, else to the
# nearest person mentioned before it. Small reaches (2-3) are what news paragraphs support;
# not searched over.
PRONOUN_SPEAKER_REACH = 3
# A quotation with no cue carries on the previous speaker when it opens its paragraph and
# the previous quotation is at most this many paragraphs back.
CONTINUATION_REACH = 2
# Paragraphs of questions and quoted answers read back to an interview's introduction.
INTERVIEW_REACH = 12
# Quotation marks: an interviewer's question quotes nobody.
QUESTION_FREE_MARKS = '"“”«»'
OPENING_MARKS = '"“«'
# Prepositions that tie a role to whom it serves ("a spokesman for the airline, Tom Reyes").
ROLE_PREPS = frozenset({"for", "of", "at"})
# What ends a sentence, before a quotation that is a sentence of its own and inside it.
SENTENCE_ENDS = frozenset(".!?")
# Words that point back to a quotation standing before them ("Those were the words of …").
_DEMONSTRATIVES = frozenset({"this", "that", "these", "those"})
# Nouns for what someone said ("the words of", "X's verdict").
_SAYING_NOUNS = SPEECH_NOUNS | {"word", "words", "verdict", "view", "advice", "plea", "message"}
# Prepositions before the medium a speech verb names ("said in a statement", "wrote on
# Facebook", "said via a spokesman").
MEDIUM_PREPS = frozenset({"in", "on", "via", "through"})
# The last character inside a quotation that is an utterance of its own ("…," "…." "…?").
UTTERANCE_ENDS = frozenset(",.!?…")
# "they", "it", "we" resolve to the previous speaker when it is no person (a company, a team)
# and spoke in the same paragraph or the one before: a plural pronoun further away refers to
# anyone. Not searched over.
GROUP_PRONOUN_REACH = 1
# Two cues may report the same span; their speaker confidences closer than this do not tell
# them apart (the cue order does): the ranker's expected calibration error on PolNeAR dev
# direct quotes is 0.017 (docs/benchmarks.md, "Quotes on PolNeAR dev"). Not searched over.
CONFIDENCE_MARGIN = 0.02
# The paragraph index of "no speaker yet": further back than any reach above.
NO_PARAGRAPH = -99
# A name mention is never longer than this many characters, so the search for the mention at
# an offset stops once mentions start this far before it.
MAX_NAME_CHARS = 200
# A quotation that ends within this many tokens of its sentence's end (closing mark, period)
# may have its cue in the next sentence: the parser splits '…." he said.' after the quote.
SENTENCE_TAIL_TOKENS = 2
# "X happened, according to Roe" reports a clause only when the rest of the sentence has at
# least this many tokens ("according to Roe, no." reports nothing worth a quote).
MIN_ACCORDING_TOKENS = 3
# A quoted title has at least two words ("Morning Joe"); one capitalised word is a scare quote
# or a name, handled by the cue. Lower-case stop words up to this many letters ("of", "the",
# "your") may sit inside a title.
# Gatherings one tells something to ("told the inquest …", "told a rally …").
GATHERINGS = frozenset(
    {"inquest", "hearing", "trial", "tribunal", "meeting", "conference", "rally", "briefing"}
    | {"audience", "crowd", "gathering", "summit", "session", "assembly", "congregation"}
)
# Paragraphs back a definite noun refers to the one its last use brought in unnamed ("A
# spokesman for the police said … ¶ … the spokesman said"): further back, someone named since
# is more often meant. Not searched over.
UNNAMED_REACH = 2
MIN_TITLE_WORDS = 2
TITLE_STOP_WORD_CHARS = 4
# Entity types "it" and "they"/"we" stand for when no earlier speaker does.
SINGULAR_GROUPS = frozenset({"ORG"})
PLURAL_GROUPS = frozenset({"ORG", "NORP"})
# Nouns for a business, which a report uses for the firm it is about ("the company said").
FIRM_NOUNS = frozenset(
    {
        "company",
        "firm",
        "business",
        "group",
        "carmaker",
        "automaker",
        "lender",
        "bank",
        "airline",
        "retailer",
        "insurer",
        "manufacturer",
        "broadcaster",
        "publisher",
        "chain",
        "supermarket",
        "grocer",
        "startup",
        "operator",
    }
)
# Shortest -ist / -ian word read as a noun for a person ("florist"; not "list", "median").
MIN_AGENT_NOUN_LEN = 7
# Words that end a role's head noun ("coach of Ardwick United" is a coach).
ROLE_PREPS = frozenset({"of", "for", "at", "in", "with", "to", "from", "on"})
# Pronouns that resolve to a person ("his" too: the owner in "his claim that '…'"). The
# candidates' pronoun kinds are speakers/tokens.py's PERSONAL, without "his", which never
# speaks itself; the ranker's features were trained on that list.
PERSONAL_PRONOUNS = frozenset({"he", "she", "him", "her", "his"})
# Pronouns that resolve to a group or organisation, through the previous speaker too.
GROUP_PRONOUNS = frozenset({"they", "it", "we"})
# Pronouns whose resolution depends on where they stand and on who spoke last.
_STATEFUL_PRONOUNS = PERSONAL_PRONOUNS | GROUP_PRONOUNS
# Pronouns that, inside an embedded post, stand for its author.
FIRST_PERSON = frozenset({"i", "me", "we", "us"})
_SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass"})
_NOMINAL = frozenset({"NOUN", "PROPN", "PRON"})
# '“…” ― Jorge Falcon': a name signed after a dash right behind the closing mark.
_SIGNATURE = re.compile(
    r"[^\S\n]*(―|—|–|--?)[^\S\n]*([A-Z][\w.'’-]*(?:[^\S\n]+[A-Z][\w.'’-]*){0,4})"
)
# '"…" ¶ - Jane Roe, in a debate.': a paragraph that is only a quotation, signed on the next
# line (at most one blank line between) by a dash and a name that ends there or at a full stop
# or comma (a fact-check's or a roundup's layout). A heading set off by dashes ("– Ready to
# quiz Trump –") or a bullet ("- Reduce costs") has more words after its capitals.
_SIGNATURE_BELOW = re.compile(
    r"[.,]?[^\S\n]*\n(?:[^\S\n]*\n)?[^\S\n]*(―|—|–|--?)[^\S\n]*"
    r"(_W(?:[^\S\n]+_W){0,4})[^\S\n]*(?:[.,][^\S\n]|[.,]?$)".replace(
        "_W",
        r"[A-Z](?:[\w'’-]|\.(?=[^\S\n]?\w))*",  # a capitalised word, "W." inside
    ),
    re.MULTILINE,
)
# 'WALLACE: …' opening a quoted transcript turn: the speaker in capitals before a colon.
_TRANSCRIPT = re.compile(r"([A-Z][A-Z.'’-]+(?:[^\S\n][A-Z][A-Z.'’-]+){0,3}):\s")
# Quoted title-case phrases up to this many words are names of shows, books or laws unless a
# speech verb takes them as its words. Set by reading PolNeAR dev errors (show and book titles
# run to 6-7 words); not searched over.
TITLE_MAX_WORDS = 8
_BLANK = re.compile(r"\n[ \t]*\n")
_WORD = re.compile(r"\w")
# The confidence of a quotation kept with no speaker (a paragraph that is only a quotation,
# with no cue and no speaker carried on): nothing in the text speaks for anyone.
NO_EVIDENCE_CONFIDENCE = 0.0


def role_word(role: str) -> str:
    """The head noun of a role: its last word before a preposition ("coach of Ardwick United"
    -> "coach", "Golden Crust host" -> "host")."""
    words = role.lower().split()
    for k, word in enumerate(words):
        if word in ROLE_PREPS and k:
            return words[k - 1]
    return words[-1]


def blank_line_paragraphs(text: str) -> list[Paragraph]:
    """Minimal body paragraphs from blank lines (for running this stage on its own)."""
    out = []
    start = 0
    for m in [*_BLANK.finditer(text), None]:
        end = m.start() if m else len(text)
        if text[start:end].strip():
            out.append(Paragraph(start=start, end=end, label="body", reason="blank lines"))
        start = m.end() if m else len(text)
    return out


@dataclass
class _Person:
    start: int
    end: int
    name: str
    entity_id: str | None
    is_person: bool
    subject: bool = False
    quoted: bool = False
    joint: bool = False  # coordinated with another noun ("Roe and Doe met")
    owns_subject: bool = False  # the possessor of a subject ("Roe's advice earned him …")
    # ... of a subject that is no person ("Roe's answer was short"): the clause is about Roe
    owns_topic: bool = False
    reported: bool = False  # the subject of reported speech ("Roe told the court Doe had …")
    passive: bool = False  # the subject of a passive verb ("Smith was arrested")
    label: str = "PERSON"  # the entity type
    tokens: tuple[int, int] | None = None  # the mention's token range
    root: int = -1  # the mention's head token


def _root_with_verb_clause(noun: Token) -> bool:
    """'Her Republican challenger, state Rep. Carl Fenwick, seized on the reports.': the
    parse may make the noun the sentence's root and hang the verb from it as a participle
    clause. A sentence has a verb of its own, so with the noun its root the clause's verb is
    it, and the noun its subject."""
    return noun.dep_ == "ROOT" and any(
        c.dep_ == "acl" and c.tag_ in ("VBD", "VBN") and c.i > noun.i for c in noun.children
    )


def _stranded(name: Token) -> bool:
    """Whether the parse left the verb right after ``name`` without a subject and the name
    is the one it lost ("In the village of Elm Cross, pensioner Doris Whitlow, 81, said")."""
    verb = verb_after_name(name)
    if verb is None or any(c.dep_ in _SUBJECT_DEPS for c in verb.children):
        return False
    found = stranded_name(verb, None)
    return found is not None and found.i == name.i


def _named_outside_quotes(p: _Person) -> bool:
    """A person the text names in its own words (a place inside a quotation names no one
    who might be described after it)."""
    return p.is_person and not p.quoted


def _feeling(verb: Token) -> bool:
    """'Hurzeler was frustrated', 'Roe was delighted': a passive form of a verb of feeling,
    with no one doing it ("by …"), tells how its subject felt; nothing was done to them."""
    return verb.lemma_.lower() in FEELING_VERBS and not any(
        c.dep_ == "agent" for c in verb.children
    )


def _in_reported_speech(subject: Token) -> bool:
    """Whether ``subject`` is the subject of a clause a speech verb reports ("… told the court
    Lyle had used the money")."""
    return _reported_clause(subject.head)


def _reported_clause(verb: Token) -> bool:
    """Whether ``verb`` heads a clause a speech verb reports (or one joined to it)."""
    if verb.dep_ in ("aux", "auxpass"):
        verb = verb.head
    while verb.dep_ == "conj" and verb.head.i != verb.i:
        verb = verb.head
    return verb.dep_ == "ccomp" and is_speech_verb(verb.head)


# Nouns for a body that a definite description names by its name's word ("the authority").
_BODY_WORDS = (SPEAKER_NOUNS | BODY_NOUNS) - SPEECH_NOUNS
# Nouns for a body (not a person) whose name may be set off after them.
_NAMED_BODY_NOUNS = FIRM_NOUNS | BODY_NOUNS
# How an article says someone goes by "they".
THEY_THEM = "they/them"
_ARTICLES = frozenset({"a", "an", "the", "his", "her", "its", "their", "our", "my"})
# Words before a role noun that say when someone held it, not which role it is.
_TIME_QUALIFIERS = frozenset({"former", "then", "ex", "outgoing", "incoming", "new", "current"})


def _role_allows(role: str, noun: str, qualifiers: set[str]) -> bool:
    """Whether a description of ``noun`` with words ``qualifiers`` before it fits ``role``:
    the role's head noun is the noun, with no lower-case words of its own before it (names
    and articles aside: "U.S. President", "a speaker at …") or with those."""
    if not role.split() or role_word(role) != noun:
        return False
    words = role.split()
    head = [w.lower() for w in words].index(noun)
    own = {
        w
        for w in words[:head]
        if w.isalpha() and w.islower() and w not in _TIME_QUALIFIERS and w not in _ARTICLES
    }
    return not own or qualifiers <= own


# Verbs that put a question to someone ("Kline asked Lopez"), and verbs of answering one.
ASKING_VERBS = frozenset({"ask", "question", "press", "quiz", "challenge"})
REPLY_VERBS = frozenset({"reply", "answer", "respond", "retort", "counter"})
# Verbs whose passive form says how someone felt ("was frustrated"), not what was done to them.
FEELING_VERBS = frozenset(
    {
        "frustrate",
        "delight",
        "disappoint",
        "please",
        "thrill",
        "upset",
        "anger",
        "annoy",
        "worry",
        "concern",
        "devastate",
        "surprise",
        "shock",
        "stun",
        "impress",
        "encourage",
        "relieve",
        "satisfy",
        "overjoy",
        "excite",
        "convince",
        "determine",
    }
)
# Singular nouns for people together, whom "they" refers to ("The couple … "…," they said").
# Singular nouns for a body of people, which "they" may stand for ("the council … they said").
COLLECTIVE_NOUNS = (
    BODY_NOUNS
    | FIRM_NOUNS
    | frozenset(
        {
            "campaign",
            "committee",
            "staff",
            "department",
            "court",
            "tribunal",
            "panel",
            "jury",
            "council",
            "government",
            "administration",
            "ministry",
            "police",
            "board",
            "hospital",
            "university",
            "school",
            "federation",
            "authority",
            "office",
            "commission",
        }
    )
)
_PEOPLE_TOGETHER = frozenset({"couple", "pair", "duo", "trio", "twins", "siblings", "family"})


class _People:
    """Name mentions in text order: from the entities stage or, without it, the model's PERSON
    ents."""

    def __init__(
        self,
        doc: Doc,
        entities: list[Entity],
        quoted: list[tuple[int, int]],
        offsets: TokenOffsets | None = None,
        roots: Callable[[int, int], int] | None = None,
        sentences: list[int] | None = None,
    ) -> None:
        """``roots(first, last)``, when given, is ``doc[first:last].root.i`` read from a
        token table; ``sentences``, the ``sentence_starts`` when the caller has read them."""
        offsets = offsets or TokenOffsets(doc)
        mentions: list[_Person] = []
        if entities:
            for ent in entities:
                for m in ent.mentions:
                    mentions.append(
                        _Person(
                            m.start, m.end, ent.name, ent.id, ent.type == "PERSON", label=ent.type
                        )
                    )
        else:
            full: dict[str, str] = {}
            for span in doc.ents:
                if span.label_ != "PERSON":
                    continue
                words = [t.text for t in span if t.is_alpha or t.text.endswith(".")]
                if not words:
                    continue
                if len(words) >= 2:
                    full[words[-1]] = " ".join(words)
                name = full.get(words[-1], " ".join(words))
                end = span[-1].idx if span[-1].tag_ == "POS" else span.end_char
                mentions.append(_Person(span.start_char, end, name, None, True))
        mentions.sort(key=lambda p: p.start)
        quoted = sorted(quoted)
        quoted_starts = [s for s, _ in quoted]
        for p in mentions:
            p.tokens = offsets.range(p.start, p.end)
            if p.tokens is not None:
                first, last = p.tokens
                root = doc[roots(first, last) if roots else doc[first:last].root.i]
                p.root = root.i
                # "Roe's wife, Ana Ruelas, thanked fans": the name in apposition to a subject,
                # also through a chain ("Her rival, the sitting mayor Frank Oduya, disagrees").
                described = root
                while described.dep_ == "appos" and described.head.i != described.i:
                    described = described.head
                if described.dep_ in _SUBJECT_DEPS:
                    p.subject = True
                    p.reported = _in_reported_speech(described)
                elif _stranded(doc[last - 1]):
                    # ("… told the court Forde had poured petrol": the clause it lost may be
                    # one a speech verb reports)
                    verb = verb_after_name(doc[last - 1])
                    p.subject = True
                    p.reported = verb is not None and _reported_clause(verb)
                else:
                    p.subject = _root_with_verb_clause(described)
                p.passive = described.dep_ == "nsubjpass" and not _feeling(described.head)
                p.owns_subject = root.dep_ == "poss" and root.head.dep_ in _SUBJECT_DEPS
                owned = root.head.lemma_.lower()
                p.owns_topic = p.owns_subject and not (
                    is_role_noun(owned) or is_person_noun(owned, by_ending=False)
                )
                p.joint = (root.dep_ == "conj" and root.head.pos_ in _NOMINAL) or any(
                    c.dep_ == "conj" and c.pos_ in _NOMINAL for c in root.children
                )
            k = bisect_right(quoted_starts, p.start) - 1
            p.quoted = k >= 0 and p.end <= quoted[k][1]
        self.doc = doc
        self.mentions = mentions
        self.starts = [p.start for p in mentions]
        self.gender = article_genders(doc, mentions, quoted, sentences, roots)

    def agrees(self, p: _Person, pronoun: str) -> bool:
        """Whether ``p`` may be the antecedent of ``pronoun`` (he/she): unknown gender agrees."""
        want = PRONOUN_GENDER.get(pronoun)
        have = self.gender.get(p.entity_id or p.name)
        return want is None or have is None or want == have

    def at(self, start: int, end: int) -> _Person | None:
        i = bisect_right(self.starts, end) - 1
        while i >= 0 and self.mentions[i].end > start - MAX_NAME_CHARS:
            p = self.mentions[i]
            if p.start < end and start < p.end:
                return p
            i -= 1
        return None

    def last_between(self, lo: int, hi: int, test: Callable[[_Person], bool]) -> _Person | None:
        """The last mention inside [lo, hi) that passes ``test``."""
        i = bisect_right(self.starts, hi) - 1
        while i >= 0 and self.mentions[i].start >= lo:
            p = self.mentions[i]
            if p.end <= hi and test(p):
                return p
            i -= 1
        return None

    def subject_between(
        self, lo: int, hi: int, pronoun: str = "", *, sole: bool = False, reporter: bool = True
    ) -> _Person | None:
        """The last person named as a clause subject in [lo, hi) (the pronoun's antecedent);
        with ``sole``, the subject must name one person alone ("Roe and Doe met" names two).
        With ``reporter``, one who reports outranks the subject of what they report."""

        def fits(p: _Person) -> bool:
            return p.is_person and p.subject and not p.quoted and self.agrees(p, pronoun)

        # The one who reports outranks the subject of what they report ("Prosecutor Rahman
        # told the court Lyle had used the money. "…," she said.").
        p = self.last_between(lo, hi, lambda p: fits(p) and not p.reported) if reporter else None
        if p is None:
            p = self.last_between(lo, hi, fits)
        return None if p is not None and sole and p.joint else p

    def subject_owner_between(
        self, lo: int, hi: int, pronoun: str, topic: bool = False
    ) -> _Person | None:
        """The last person in [lo, hi) named as the possessor of a clause subject, of the
        pronoun's gender ("Oz's advice earned him a hearing, where he …"); with ``topic``,
        of a subject that is no person ("Reyes's answer was short. "…," he said.", never
        "Roe's lawyer spoke. "…," he said.")."""
        p = self.last_between(
            lo,
            hi,
            lambda p: (
                p.is_person
                and (p.owns_topic if topic else p.owns_subject)
                and self.agrees(p, pronoun)
            ),
        )
        return None if p is not None and p.quoted else p

    def joint_subjects_between(self, lo: int, hi: int) -> list[_Person]:
        """The people named together as the last joint subject in [lo, hi) ("Residents Jo
        Hart and Sam Patel have lived …"), whom "they" stands for; [] when there is none."""
        last = self.last_between(
            lo, hi, lambda p: p.is_person and p.subject and p.joint and not p.quoted
        )
        if last is None or last.root < 0:
            return []
        head = self._first_conjunct(last.root)
        together = [
            p
            for p in self.mentions
            if p.is_person and lo <= p.start and p.end <= hi and p.root >= 0
            if self._first_conjunct(p.root) == head
        ]
        return together if len(together) >= 2 else []

    def _first_conjunct(self, i: int) -> int:
        """The first of the words coordinated with word ``i`` ("Hart" for "Patel")."""
        word = self.doc[i]
        while word.dep_ == "conj" and word.head.i != word.i:
            word = word.head
        return word.i

    def group_subject_between(self, lo: int, hi: int, labels: frozenset[str]) -> _Person | None:
        """The last organisation (entity type in ``labels``) named as a clause subject in
        [lo, hi): what "it" or "they" stands for."""
        return self.last_between(lo, hi, lambda p: p.label in labels and p.subject and not p.quoted)

    def by_surname(self, token: Token) -> _Person | None:
        """A capitalised word the model did not tag, matched to a person named before it."""
        word = token.text
        # "Mills replied": a surname that is also a plural noun may be tagged as the noun.
        if not word[:1].isupper() or token.pos_ not in ("PROPN", "NOUN"):
            return None
        capitals = word.isupper()  # ("RILEY: …", a transcript's label)
        i = bisect_right(self.starts, token.idx) - 1
        while i >= 0:
            p = self.mentions[i]
            surname = p.name.split()[-1]
            if p.is_person and (surname.upper() if capitals else surname) == word:
                return p
            i -= 1
        return None

    def person_before(self, offset: int, pronoun: str = "") -> _Person | None:
        return self.last_between(0, offset, lambda p: p.is_person and self.agrees(p, pronoun))


@dataclass
class _Speaker:
    text: str
    start: int
    end: int
    name: str
    entity_id: str | None
    is_person: bool
    # A description that fits several people named before it ("the actor" after two actors).
    ambiguous: bool = False


def _phrase_head(span: Span) -> Token:
    """The head of a speaker's phrase. When the parse hangs several of its words outside it
    (a hyphenated word split: "His co-author" as co / - / author), the last of them is the
    noun the phrase is about."""
    outside = [t for t in span if not span.start <= t.head.i < span.end or t.head.i == t.i]
    return outside[-1] if len(outside) > 1 else span.root


def _appositions_of_object(prep: Token) -> list[Token]:
    """The words in apposition to a preposition's object ("for the airline, Tom Reyes")."""
    return [
        a for obj in prep.children if obj.dep_ == "pobj" for a in obj.children if a.dep_ == "appos"
    ]


def _communicates(verb: Token) -> bool:
    """A verb whose subject said something: a speech verb ("confirmed"), or one whose object
    is a statement, a letter, a report ("released a statement")."""
    return is_speech_verb(verb) or any(
        c.dep_ == "dobj" and c.lemma_.lower() in SPEECH_NOUNS for c in verb.children
    )


def _one_described(word: Token) -> bool:
    """'the Swede', 'the Ghanaian' (a noun, or a proper noun after "the"): one person by
    nationality, not the nation's people as a group."""
    if word.pos_ == "NOUN":
        return True
    # ("the Portuguese", "the Swiss": the tagger reads a word the same in both numbers as
    # plural; "the Americans" are many)
    one_form = word.tag_ == "NNPS" and (not word.lower_.endswith("s") or word.lower_.endswith("ss"))
    return (word.tag_ == "NNP" or one_form) and (
        refers_back(word) or _after_the(word.doc, word.left_edge.i)
    )


def _noun_gender(word: str) -> str | None:
    """'m' or 'f' for a noun for a person that carries a gender ("mother", "spokeswoman")."""
    if word in NOUN_GENDER:
        return NOUN_GENDER[word]
    if word.endswith("woman"):
        return "f"
    return "m" if word.endswith("man") else None


def _names_a_person(noun: Token) -> bool:
    """A common noun for a person: a known one, a lower-case agent noun ending in -ist or -ian
    ("the entomologist", "the librarian"; capitalised, such words are often surnames), or one
    ending in -er made with a hyphen ("the all-rounder")."""
    lemma = noun.lemma_.lower()
    if is_person_noun(lemma, by_ending=False):
        return True
    if not (noun.text.islower() and lemma.isalpha()):
        return False
    if lemma.endswith(("ist", "ian")) and len(lemma) >= MIN_AGENT_NOUN_LEN:
        return True
    # ("the all-rounder", "a well-wisher": an agent noun made with a hyphen)
    doc, i = noun.doc, noun.i
    return (
        lemma.endswith("er")
        and i >= 2
        and doc[i - 1].text == "-"
        and not doc[i - 1].whitespace_
        and not doc[i - 2].whitespace_
        and doc[i - 2].is_alpha
    )


def _is_indefinite(noun: Token) -> bool:
    """'a former aide', 'an official': one not met before."""
    return any(c.dep_ == "det" and c.lower_ in ("a", "an") for c in noun.children)


def _has_possessor(noun: Token) -> bool:
    return any(c.dep_ == "poss" for c in noun.children)


def _after_the(doc: Doc, first: int) -> bool:
    """'the 52-year-old said': the parse may hang "the" from the verb, not the phrase."""
    return first > 0 and doc[first - 1].lower_ in DEFINITE


class _Resolver:
    def __init__(
        self,
        doc: Doc,
        people: _People,
        entities: Sequence[Entity] = (),
        line_starts: Sequence[int] = (),
        quoted: list[bool] | None = None,
        sentences: tuple[list[int], list[int]] | None = None,
        table: TokenTable | None = None,
        headline_end: int = 0,
        lead_end: int = 0,
    ) -> None:
        self.doc = doc
        # Where the headline ends: a description there ("mayor vows") refers ahead, to the
        # person the article names, not back.
        self.headline_end = headline_end
        # Where the first paragraph after it ends (``_described_later``).
        self.lead_end = lead_end
        # The parse's token attributes as lists, when the caller has read them.
        self.table = table
        self.lower = table.lower if table is not None else None
        self._token_columns: tuple[list[int], list[str]] | None = None
        # Noun lemma -> where the article uses it outside quotations (``_noun_uses``).
        self._noun_places: dict[str, list[int]] | None = None
        self.people = people
        self.line_starts = line_starts
        # Per token its sentence, and each sentence's first token (``_sentence_index``).
        self.sent_of, self.sent_bounds = sentences or _sentence_index(doc)
        self.quoted = quoted if quoted is not None else [False] * len(doc)
        self.ages: dict[int, list[Entity]] = {}
        for e in entities:
            if e.type == "PERSON" and e.age is not None:
                self.ages.setdefault(e.age, []).append(e)
        # Person keys by the nouns the article describes them with, read on first use.
        self._described: dict[str, set[str]] | None = None
        # People by the last word of each of their roles ("host" for "Golden Crust host").
        self.roles: dict[str, list[Entity]] = {}
        self.roles_of = {e.id: e.roles for e in entities if e.type == "PERSON"}
        for e in entities:
            if e.type != "PERSON":
                continue
            for word in dict.fromkeys(role_word(r) for r in e.roles if r.split()):
                self.roles.setdefault(word, []).append(e)
        self.last: _Speaker | None = None
        self.last_paragraph = NO_PARAGRAPH
        self.they_people: set[str] = set()  # who goes by "they" (set by the scan)
        self.asked: _Person | None = None  # the one the last quotation was asked of
        # Answers of ``resolve`` (a speaker is never changed once made, so callers share it).
        self._resolved: dict[tuple, _Speaker] = {}

    def resolve(self, first: int, last: int, paragraph: int, para_start: int = -1) -> _Speaker:
        """Who tokens [first, last) name, found once per phrase: a pronoun's answer also
        depends on where it stands and on who spoke last, so those are in its key."""
        key: tuple = (first, last)
        one = last - first == 1
        lower = "" if not one else self.lower[first] if self.lower else self.doc[first].lower_
        if lower in _STATEFUL_PRONOUNS:
            prev = self.last
            spoke = None if prev is None else (prev.name, prev.entity_id, prev.is_person)
            asked = None if self.asked is None else self.asked.start
            key = (first, last, paragraph, para_start, spoke, self.last_paragraph, asked)
        found = self._resolved.get(key)
        if found is None:
            found = self._resolved[key] = self._resolve(first, last, paragraph, para_start)
        return found

    def _resolve(self, first: int, last: int, paragraph: int, para_start: int) -> _Speaker:
        doc = self.doc
        span_first, span_last = first, last
        one = last - first == 1
        if one:  # a one-word phrase: its Token alone, no Span
            head = doc[first]
            text = head.text
            start = head.idx
            end = start + len(text)
            lower = self.lower[first] if self.lower else head.lower_
        else:
            span = doc[first:last]
            head = self._phrase_head(span)
            text = span.text
            start, end = span.start_char, span.end_char
            lower = ""
        if lower in PERSONAL_PRONOUNS:
            # A pronoun inside reported speech most often stands for that speech's subject
            # ("Roe said Shaw had agreed, and that he called the plan …").
            reported = head.dep_ in _SUBJECT_DEPS and _in_reported_speech(head)
            subject = self.people.subject_between(
                para_start, start, lower, reporter=not reported
            ) or self.people.subject_owner_between(self._sentence_start(first), start, lower)
            if subject is None and para_start >= 0:
                subject = self.people.subject_owner_between(para_start, start, lower, topic=True)
            if subject is not None:
                return _Speaker(text, start, end, subject.name, subject.entity_id, True)
            # A noun for a person that is the paragraph's subject ("A spokesman for the
            # police added that … "…," he said."), or what it refers to ("The president …
            # he"). A definite one naming no one may describe someone named before whom the
            # article describes otherwise ("Carl Brandt … The Ohio senator … he"), so it
            # comes after the people named before.
            person_noun = self._person_noun_before(first, para_start, lower)
            if (
                person_noun is None
                and paragraph > 0
                and para_start >= 0
                and self.people.last_between(para_start, start, _named_outside_quotes) is None
            ):
                # ("A witness, who gave only her first name, said … ¶ "…," she said": a
                # paragraph naming no one before the pronoun goes on from the one before)
                person_noun = self._person_noun_before(
                    first, self._line_start(paragraph - 1), lower
                )
            noun_speaker = None
            if person_noun is not None:
                who = self.resolve(*speaker_span(person_noun), paragraph, para_start)
                if self.people.gender.get(who.entity_id or who.name, "") in (
                    "",
                    PRONOUN_GENDER[lower],
                ):
                    noun_speaker = _Speaker(text, start, end, who.name, who.entity_id, True)
                    if (
                        who.entity_id is not None
                        or not is_definite(person_noun)
                        # ("a father and his son … The father thanked them. "…," he said")
                        or (
                            self._brought_in_unnamed(person_noun.lemma_.lower(), person_noun)
                            and self.people.last_between(
                                person_noun.idx, start, _named_outside_quotes
                            )
                            is None
                        )
                    ):
                        return noun_speaker
            prev = self.last
            newcomer = self._met_before_anyone_speaks(head, paragraph, para_start, lower)
            if newcomer is not None:
                return _Speaker(text, start, end, newcomer.name, newcomer.entity_id, True)
            if (
                prev is not None
                and prev.is_person
                and paragraph - self.last_paragraph <= PRONOUN_SPEAKER_REACH
                and self.people.gender.get(prev.entity_id or prev.name, "")
                in ("", PRONOUN_GENDER[lower])
            ):
                return _Speaker(text, start, end, prev.name, prev.entity_id, prev.is_person)
            # The last person named as a subject in the paragraphs before, over a nearer one
            # named as an object ("Carter met the union leader, Hadley. ¶ … she told him").
            lo = self._line_start(paragraph - PRONOUN_SPEAKER_REACH)
            person = self.people.subject_between(lo, start, lower) or self.people.person_before(
                start, lower
            )
            if person is not None:
                return _Speaker(text, start, end, person.name, person.entity_id, True)
            if noun_speaker is not None:
                return noun_speaker
            return _Speaker(text, start, end, text, None, False)
        if lower in GROUP_PRONOUNS:
            if lower == "they" and self.they_people:
                # ("Alex Rivera, who uses they/them pronouns, … "…," they said")
                person = self.people.last_between(
                    0, start, lambda p: (p.entity_id or p.name) in self.they_people
                )
                if person is not None:
                    return _Speaker(text, start, end, person.name, person.entity_id, True)
            prev = self.last
            labels = SINGULAR_GROUPS if lower == "it" else PLURAL_GROUPS
            # The last body named as a subject in the paragraphs "it" and "they" reach back
            # over (from ``lo``), read once: the one in the pronoun's own paragraph is it too.
            lo = self._line_start(paragraph - GROUP_PRONOUN_REACH)
            last_body = self.people.group_subject_between(
                min(lo, para_start) if para_start >= 0 else lo, start, labels
            )
            body_here = (
                last_body if last_body is not None and 0 <= para_start <= last_body.start else None
            )
            if (
                body_here is not None
                and not body_here.reported
                and (prev is None or prev.start < body_here.start)
            ):
                # ("FreshWay said it had raised pay. It added …": a body named as the subject
                # since the last quotation's speaker, in the pronoun's paragraph)
                return _Speaker(text, start, end, body_here.name, body_here.entity_id, False)
            if (
                prev is not None
                and not prev.is_person
                and paragraph - self.last_paragraph <= GROUP_PRONOUN_REACH
                # ("… officials had warned … It adds: …": "it" is never a plural's)
                and not (lower == "it" and self._plural_phrase(prev))
            ):
                return _Speaker(text, start, end, prev.name, prev.entity_id, False)
            group = last_body if last_body is not None and last_body.start >= lo else None
            if group is not None and not group.reported:
                return _Speaker(text, start, end, group.name, group.entity_id, False)
            together = self.people.joint_subjects_between(lo, start) if lower == "they" else []
            if lower != "we":
                plural = lower == "they"
                noun = self._speaking_subject_before(first, para_start, plural)
                if noun is None and plural and paragraph > 0:
                    # ("…, his family said. ¶ "…," they said in a statement")
                    noun = self._speaking_subject_before(
                        first, self._line_start(paragraph - 1), plural
                    )
                if group is not None and (noun is None or _in_reported_speech(noun)):
                    noun = None  # (a body named in what is reported, and no reporter nearer)
                elif noun is not None and not (together and noun.idx < together[0].start):
                    n_first, n_last = speaker_span(noun)
                    noun_named = self.resolve(n_first, n_last, paragraph, para_start)
                    if noun_named.entity_id is not None and not noun_named.is_person:
                        # ("SkyCoast Airways … The airline said … "…," it said": the body)
                        return _Speaker(
                            text, start, end, noun_named.name, noun_named.entity_id, False
                        )
                    return _Speaker(text, start, end, doc[n_first:n_last].text, None, False)
            if group is not None:  # ("The watchdog said Delmar Energy … "…," it said": the
                # reporter, above, outranks the body named in what it reports)
                return _Speaker(text, start, end, group.name, group.entity_id, False)
            if together:  # "Jo Hart and Sam Patel … "…," they said" (no nearer group named)
                names = " and ".join(dict.fromkeys(p.name for p in together))
                return _Speaker(text, start, end, names, None, False)
            return _Speaker(text, start, end, text, None, False)
        target = antecedent(head) if one else head
        relative = target is not head  # ("…, Patti Lane and Stevie Hart, who joked": the last)
        if relative:
            first, last = speaker_span(target)
            head = target
        owner = self.people.at(head.idx, head.idx + len(head)) or self.people.by_surname(head)
        if owner is not None and owner.label == "NORP" and _one_described(head):
            # "the Swede" is someone described by nationality, not a group named "Swede";
            # "the Portuguese", one word for both, is the group unless one person fits
            if head.tag_ == "NNPS":
                fit, _ = self._by_description(head, text, start)
                if fit is not None:
                    return _Speaker(text, start, end, fit.name, fit.entity_id, True)
                return _Speaker(text, start, end, owner.name, owner.entity_id, owner.is_person)
        elif owner is not None:
            joint = self._joint_speakers(head, owner) if owner.is_person and not relative else None
            return joint or _Speaker(text, start, end, owner.name, owner.entity_id, owner.is_person)
        if head.dep_ == "appos" and head.pos_ == "NOUN":
            # "Tom Reyes, a former mayor who called it …": the description is set off after
            # the name it describes
            set_off = self.people.at(head.head.idx, head.head.idx + len(head.head))
            if set_off is not None and set_off.is_person:
                return _Speaker(text, start, end, set_off.name, set_off.entity_id, True)
        children = list(head.children)  # read once: each read builds the Tokens anew
        # Roe's lawyer, John Smith, said: the person named, not the role. The parse may hang
        # the name on the role's object instead ("a spokesman for the airline, Tom Reyes").
        for child in children:
            if child.dep_ == "appos":
                named = [child]
            elif child.dep_ == "prep" and child.lower_ in ROLE_PREPS and could_speak(head):
                named = _appositions_of_object(child)
            else:
                continue
            for word in named:
                person = self.people.at(word.idx, word.idx + len(word))
                if person is not None and person.is_person:
                    return _Speaker(text, start, end, person.name, person.entity_id, True)
        # "Festival director and founder Alice Moreau"; "Outside court, one of his victims,
        # Ken Matthews, said" (the parse's subject a word for no one, the name set off)
        stacked = named_after_roles(head) or named_in_apposition(head)
        if stacked is not None:
            person = self.people.at(stacked.idx, stacked.idx + len(stacked))
            if person is not None and person.is_person:
                return _Speaker(text, start, end, person.name, person.entity_id, True)
        named_body = self._body_in_apposition(head)
        if named_body is not None:
            return _Speaker(text, start, end, named_body[0], named_body[1], False)
        for child in children:
            if child.dep_ == "poss":
                possessor = self.people.at(
                    child.idx, child.idx + len(child)
                ) or self.people.by_surname(child)
                if possessor is not None and head.lemma_.lower() in SPEECH_NOUNS:
                    # "Marsh's statement", "the union's response": whoever issued it speaks
                    return _Speaker(
                        text, start, end, possessor.name, possessor.entity_id, possessor.is_person
                    )
                if possessor is not None and possessor.is_person:
                    rest = doc[child.i + 1 : last].text
                    rest = re.sub(r"^(?:'s|’s|'|’)\s*", "", rest)
                    return _Speaker(
                        text, start, end, f"{possessor.name}'s {rest}".strip(), None, False
                    )
        headline = start < self.headline_end
        before = doc[-1].idx + len(doc[-1]) if headline else start  # (the text's end)
        known = self._by_role(head, before, children, headline)
        if known is not None:
            return _Speaker(text, start, end, known.name, known.id, True)
        described, several = self._by_description(head, text, before, headline)
        if described is not None:
            return _Speaker(text, start, end, described.name, described.entity_id, True)
        if several:  # the words stay, naming nobody
            return _Speaker(text, start, end, text, None, False, ambiguous=True)
        later = self._described_later(head, start)
        if later is not None:
            return _Speaker(text, start, end, later.name, later.entity_id, True)
        body = self._body_by_name(head, before) or self._firm_by_subject(head, before)
        if body is not None:
            return _Speaker(text, start, end, body.name, body.entity_id, False)
        issuer = document_issuer(head, self.quoted)
        if issuer is not None:
            owner = self.people.at(issuer.idx, issuer.idx + len(issuer))
            if owner is not None:
                return _Speaker(text, start, end, owner.name, owner.entity_id, owner.is_person)
            named_body = self._body_in_apposition(issuer)
            if named_body is not None:  # "The bus company, Marlow Transit, said in a statement"
                return _Speaker(text, start, end, named_body[0], named_body[1], False)
            if issuer.pos_ in ("NOUN", "PROPN"):  # "the company's statement": it issued it
                i_first, i_last = owner_span(issuer)
                return _Speaker(text, start, end, doc[i_first:i_last].text, None, False)
        same = (first, last) == (span_first, span_last)
        return _Speaker(text, start, end, text if same else doc[first:last].text, None, False)

    def _body_in_apposition(self, noun: Token) -> tuple[str, str | None] | None:
        """'The bus company, Marlow Transit, said': a noun for a body with its name set off
        after it is that body; its (name, entity id), the name's own words when no entity
        covers them."""
        if noun.pos_ != "NOUN" or noun.lemma_.lower() not in _NAMED_BODY_NOUNS:
            return None
        for child in noun.rights:
            if child.dep_ != "appos" or child.pos_ != "PROPN":
                continue
            body = self.people.at(child.idx, child.idx + len(child))
            if body is not None:
                return None if body.is_person else (body.name, body.entity_id)
            first = min((c.i for c in child.lefts if c.dep_ == "compound"), default=child.i)
            return self.doc[first : child.i + 1].text, None
        return None

    def _joint_speakers(self, head: Token, first: _Person) -> _Speaker | None:
        """'Jo Hart and Sam Patel said', 'Tom and Sue Barker said': a subject of names joined
        by "and" speaks for them all, as one group; None unless every conjunct names a
        person. A conjunct may name them after a noun ("Ellery and his wife, Jo, said")."""
        people = [first]
        last = head
        for conj in head.conjuncts:
            if conj.i < head.i or self.quoted[conj.i]:
                continue
            named: Token | None = conj
            if conj.pos_ != "PROPN":
                named = next(
                    (c for c in conj.rights if c.dep_ == "appos" and c.pos_ == "PROPN"), None
                )
            if named is None:
                continue
            person = self.people.at(named.idx, named.idx + len(named))
            if person is None or not person.is_person:
                return None
            people.append(person)
            last = named
        if len(people) < 2 or any(c.lower_ != "and" for c in head.children if c.dep_ == "cc"):
            return None
        span = self.doc[head.left_edge.i : last.i + 1]
        names = " and ".join(dict.fromkeys(p.name for p in people))
        return _Speaker(span.text, span.start_char, span.end_char, names, None, False)

    def _met_before_anyone_speaks(
        self, pronoun: Token, paragraph: int, para_start: int, lower: str
    ) -> _Person | None:
        """Whom a he/she means, before the last speaker is taken, when the article has just
        brought someone in: the newcomer the paragraph before introduced, the one a question
        was just put to, or, while nobody has spoken in the pronoun's paragraph yet, the
        person it opens with or the one person the sentence before names. Each must agree
        with the pronoun."""
        found = self._newcomer(paragraph, para_start, lower) or self._answering(
            pronoun, paragraph, lower
        )
        if found is not None or para_start < 0 or self.last_paragraph >= paragraph:
            return found
        return self._paragraph_opener(para_start, pronoun.idx, lower) or (
            self._named_in_sentence_before(pronoun.i, para_start, lower)
        )

    def _newcomer(self, paragraph: int, para_start: int, pronoun: str) -> _Person | None:
        """'Across the road, Helen Brooks, a nurse, sees it differently. ¶ "…," she said.':
        the one person the paragraph before introduces as its subject, when the last speaker
        spoke before that paragraph, is whom the he/she opening the next one means."""
        if paragraph < 1 or para_start < 0 or self.last_paragraph >= paragraph - 1:
            return None
        lo = self._line_start(paragraph - 1)
        person = self.people.subject_between(lo, para_start, pronoun, sole=True)
        if person is None or not person.is_person:
            return None
        prev = self.last
        if prev is not None and (prev.entity_id or prev.name) == (person.entity_id or person.name):
            return None
        return person

    def _paragraph_opener(self, para_start: int, pronoun: int, lower: str) -> _Person | None:
        """'Farouk shrugs at the praise. "…," she says.', where the parse read "Farouk
        shrugs" as one noun and found no subject: a paragraph that opens with a person's name
        is about that person, so a he/she later in it (at character ``pronoun``), before
        anyone speaks there, stands for them (not for a possessor: "Farouk's editor …")."""
        people = self.people
        i = bisect_left(people.starts, para_start)
        if i >= len(people.mentions):
            return None
        p = people.mentions[i]
        if p.start >= pronoun or p.tokens is None or not p.is_person or p.quoted or p.joint:
            return None
        first, last = p.tokens
        doc = self.doc
        opens = first == 0 or doc[first - 1].idx < para_start or doc[first - 1].is_space
        owner = last < len(doc) and doc[last].tag_ == "POS"
        return p if opens and not owner and people.agrees(p, lower) else None

    def _named_in_sentence_before(
        self, pronoun: int, para_start: int, lower: str
    ) -> _Person | None:
        """'Both have written to their MP, Graham Feld. He said he was "pressing …"': a he/she
        (token ``pronoun``) opening a sentence, with no person as a subject before it in its
        paragraph and no one speaking there yet, stands for the one person the sentence
        before names (in the same paragraph, outside quotations), when of its gender."""
        k = self.sent_of[pronoun]
        begin = self.sent_bounds[k]
        doc = self.doc
        if k == 0 or any(not (t.is_punct or t.is_space) for t in doc[begin:pronoun]):
            return None
        lo, hi = doc[self.sent_bounds[k - 1]].idx, doc[begin].idx
        if lo < para_start:
            return None
        named = {
            p.entity_id or p.name: p
            for p in self.people.mentions
            if lo <= p.start < hi and p.is_person and not p.quoted
        }
        if len(named) != 1:
            return None
        (person,) = named.values()
        return person if self.people.agrees(person, lower) else None

    def _speaking_subject_before(self, pronoun: int, para_start: int, plural: bool) -> Token | None:
        """'The mayor's office released a statement. "…," it said.': the last common noun
        of the pronoun's number that is a subject earlier in its paragraph, outside quotations,
        and names something that can speak, or said something there (not "the bridge
        collapsed")."""
        body = None  # the nearest body a "they" may stand for, when no plural noun does
        # The one who reports outranks the subject of what they report ("The watchdog said
        # the firm had broken the rules. "…," it said.").
        reported = None
        for token in self._subjects_before(pronoun, para_start):
            if token.pos_ != "NOUN":
                continue
            lemma = token.lemma_.lower()
            together = lemma in _PEOPLE_TOGETHER  # "the couple": they
            if (together or token.tag_ == "NNS") == plural and (
                together or could_speak(token) or _communicates(token.head)
            ):
                if not _in_reported_speech(token):
                    return token
                reported = reported or token
            if plural and body is None and token.tag_ == "NN" and lemma in COLLECTIVE_NOUNS:
                body = token  # ("Ridley's campaign … what they call …")
        return reported or body

    def _subjects_before(self, pronoun: int, para_start: int) -> Iterator[Token]:
        """The subjects ("nsubj") outside quotations before token ``pronoun`` in its
        paragraph (from character ``para_start``), nearest first."""
        doc, quoted = self.doc, self.quoted
        starts, deps = self._starts_and_deps()
        for k in range(pronoun - 1, -1, -1):
            if starts[k] < para_start:
                return
            if deps[k] == "nsubj" and not quoted[k]:
                yield doc[k]

    def _starts_and_deps(self) -> tuple[list[int], list[str]]:
        """Per token its first character and dependency label (from the token table when the
        scan read one), read once: the backward walks look at every token."""
        if self._token_columns is None:
            table = self.table
            if table is not None:
                self._token_columns = table.idx, table.dep
            else:
                self._token_columns = [t.idx for t in self.doc], [t.dep_ for t in self.doc]
        return self._token_columns

    def _person_noun_before(self, pronoun: int, para_start: int, lower: str) -> Token | None:
        """The person a he or she stands for when no one named is a subject in its paragraph:
        the last singular noun for a person ("a spokesman", "the patient") that is the
        subject of a main clause earlier in the paragraph, of no other gender."""
        for noun in self._subjects_before(pronoun, para_start):
            if noun.tag_ != "NN":
                continue
            clause = noun.head  # a main clause's subject ("for a justice to speak": not)
            if clause.dep_ == "conj":
                clause = clause.head
            if clause.dep_ != "ROOT":
                continue
            if any(c.lower_ == "according" for c in clause.children):
                continue  # ("According to Quinn, her manager told her …": Quinn's account)
            if is_person_noun(noun.lemma_, by_ending=False):
                gender = _noun_gender(noun.lower_)
                return noun if gender in (None, PRONOUN_GENDER[lower]) else None
        return None

    def _plural_phrase(self, speaker: _Speaker) -> bool:
        """Whether the phrase that named ``speaker`` is a plural noun ("officials")."""
        span = self.doc.char_span(speaker.start, speaker.end, alignment_mode="expand")
        return span is not None and len(span) > 0 and self._phrase_head(span).tag_ == "NNS"

    def _phrase_head(self, span: Span) -> Token:
        """``_phrase_head(span)``, read from the token table when there is one."""
        if self.table is None:
            return _phrase_head(span)
        first, last, heads = span.start, span.end, self.table.head
        outside = [i for i in range(first, last) if not first <= heads[i] < last or heads[i] == i]
        return self.doc[outside[-1] if outside else span.root.i]

    def _sentence_start(self, token: int) -> int:
        """The first character of the sentence of token ``token``."""
        return self.doc[self.sent_bounds[self.sent_of[token]]].idx

    def _line_start(self, line: int) -> int:
        """The first character of paragraph line ``line`` (0 before the first)."""
        if not self.line_starts or line < 0:
            return 0
        return self.line_starts[min(line, len(self.line_starts) - 1)]

    def _by_description(
        self, head: Token, text: str, before: int, headline: bool = False
    ) -> tuple[_Person | None, bool]:
        """'the 56-year-old', 'the coach' (``text``, headed by ``head``): the one person named
        before whom the article describes with that age or noun, and whether several fit
        (then nobody is named: "Actors Dalton and Ross … the actor said"). A headline drops
        its articles ("mayor vows")."""
        # ("the Frenchman": the model may call the word a name, of a person or a body)
        nationality = (head.ent_type_ == "NORP" and _one_described(head)) or (
            head.pos_ == "PROPN" and described_by_nation(head)
        )
        # ("the MP": a role written in capitals, which the tagger reads as a proper noun)
        # (also "Coach says …": a headline's capitalised role, which the tagger reads as one)
        abbreviation = (
            head.pos_ == "PROPN" and (head.text.isupper() or headline) and is_role_noun(head.text)
        )
        if head.tag_ == "NNS":
            return None, False  # "the plaintiffs" are several people, not one named before
        if (head.pos_ not in ("NOUN", "ADJ") and not (nationality or abbreviation)) or not (
            headline or refers_back(head) or _after_the(self.doc, head.left_edge.i)
        ):
            return None, False
        # A headline's description refers to the lead's subject, not the last paragraph's.
        subject_before = self.lead_end if headline else before
        age = stated_age(text)
        if age is not None:
            fits = {e.id for e in self.ages.get(age, []) if e.mentions[0].start < before}
            if not fits and not _has_possessor(head):
                # "Ashcombe boss Phil Grey was furious. "…," the 58-year-old fumed.": the one
                # person named before, else the paragraph's subject, when given no age
                aged = {e.id for people in self.ages.values() for e in people}
                fits = self._sole_ageless_person(before) or (
                    self._undescribed_subject(subject_before, any_role=True) - aged
                )
        else:
            lemma = head.lemma_.lower()
            fits = self._described_by(lemma)
            # "TV host Roe and radio host Doe": a noun used more often than for one person.
            if len(fits) == 1 and self._noun_uses(lemma, head.i) > 1:
                return None, True
            if (
                not fits
                and (nationality or is_role_noun(lemma) or _names_a_person(head))
                and not _has_possessor(head)
                # ("A spokesman for the police said … "…," the spokesman said": the one the
                # noun brought in unnamed, not whoever was named before)
                and not self._brought_in_unnamed(lemma, head)
            ):
                # ("her neighbour" is someone of hers, never the one named before)
                fits = self._undescribed_subject(subject_before, any_role=nationality)
                if not fits and nationality:  # "Felipe Duarte's side won. ¶ … the Portuguese"
                    fits = self._sole_person(before)
        if len(fits) != 1:
            return None, len(fits) > 1
        (key,) = fits
        person = next(
            (
                p
                for p in self.people.mentions
                if (p.entity_id or p.name) == key and p.start < before
            ),
            None,
        )
        return person, False

    def _brought_in_unnamed(self, lemma: str, head: Token) -> bool:
        """Whether the noun's last use before ``head``, in its paragraph or the two before,
        brought someone in unnamed ("A spokesman for the police said …", "a father and his
        son"): a use further back, or a definite one, may be of someone named since."""
        places = self._noun_places_of(lemma)
        k = bisect_left(places, head.i) - 1
        if k < 0:
            return False
        before = self.doc[places[k]]
        line = bisect_right(self.line_starts, head.idx) - 1
        return before.idx >= self._line_start(line - UNNAMED_REACH) and _is_indefinite(before)

    def _described_by(self, noun: str) -> set[str]:
        """The keys of the people the article describes with ``noun`` (read on first use)."""
        if self._described is None:
            self._described = description_index(self.doc, self._person_tokens())
        return self._described.get(noun, set())

    def _described_later(self, head: Token, start: int) -> _Person | None:
        """'The health secretary has defended the plans …' opening the article, the name
        coming later ("Health Secretary Wes Streeting said"): a definite description in the
        lead, with nobody named before it, is the one person the article describes so. So is
        an indefinite one there ("A former aide to the senator told investigators …", then
        "The aide, Kevin Moss, said"): the lead introduces whom the article goes on to name."""
        if start >= self.lead_end or head.pos_ != "NOUN" or head.tag_ != "NN":
            return None
        if not (is_definite(head) or _is_indefinite(head)) or _has_possessor(head):
            return None
        if self.people.last_between(0, start, _named_outside_quotes) is not None:
            return None
        fits = self._described_by(head.lemma_.lower())
        if len(fits) != 1:
            return None
        (key,) = fits
        return next((p for p in self.people.mentions if (p.entity_id or p.name) == key), None)

    def _undescribed_subject(self, before: int, any_role: bool = False) -> set[str]:
        """'Mensah, 24, celebrated with team-mates. "…," the striker said.': a role noun the
        article gave nobody refers back to the one person named as the active subject of a
        clause earlier in its paragraph, when the article describes that person by no noun (a
        coach named there is not "the striker"). A paragraph that names nobody before the
        noun (a quotation alone) goes on from the paragraph before it. With ``any_role``, a
        person the article described too: a nationality or an age ("the Ghanaian", "the
        58-year-old") may describe someone with a role ("Manager Kofi Boateng")."""
        line = bisect_right(self.line_starts, before) - 1
        lo = self._line_start(line)
        if line > 0 and self.people.last_between(lo, before, _named_outside_quotes) is None:
            lo = self._line_start(line - 1)
        person = self.people.subject_between(lo, before, sole=True)
        if person is None or not person.is_person or (person.passive and not any_role):
            # ("Smith was arrested at the scene. "…," the officer said": one something was
            # done to is not the one a new role names; "Marquez was named man of the match.
            # "…," the 24-year-old said": an age or a nationality names no new role)
            return set()
        key = person.entity_id or person.name
        if any_role:
            return {key}
        if any(key in keys for keys in (self._described or {}).values()):
            return set()
        if person.entity_id is not None and self.roles_of.get(person.entity_id):
            return set()
        return {key}

    def _body_by_name(self, head: Token, before: int) -> _Person | None:
        """'the authority' after "the Carrow Harbour Authority": the one organisation named
        before whose name has the noun as a word (a definite singular noun, not "its board")."""
        if head.pos_ != "NOUN" or head.tag_ != "NN" or not head.text.islower():
            return None
        if not is_definite(head):
            return None
        word = head.lower_
        if word not in _BODY_WORDS:
            return None  # ("the platform" is no "Platform Committee")
        found = {
            p.entity_id or p.name: p
            for p in self.people.mentions
            if p.label == "ORG"
            and p.start < before
            and not p.quoted
            and word in p.name.lower().split()
        }
        return next(iter(found.values())) if len(found) == 1 else None

    def _firm_by_subject(self, head: Token, before: int) -> _Person | None:
        """'Vantor Motors will cut 1,200 jobs, the carmaker said': a definite noun for a
        business refers to the organisation last named as a subject in its paragraph or the
        one before, else to the only one named before it (not "the union", "the regulator":
        often another body, commenting)."""
        if head.pos_ != "NOUN" or head.tag_ != "NN" or not head.text.islower():
            return None
        if head.lemma_.lower() not in FIRM_NOUNS or not is_definite(head):
            return None
        line = bisect_right(self.line_starts, before) - 1
        lo = self._line_start(line - 1)
        subject = self.people.group_subject_between(lo, before, SINGULAR_GROUPS)
        if subject is not None:
            return subject
        # else the one organisation the article names before it ("suing the tech firm Orbix")
        named = {
            p.entity_id or p.name: p
            for p in self.people.mentions
            if p.label == "ORG" and p.start < before and not p.quoted
        }
        return next(iter(named.values())) if len(named) == 1 else None

    def _sole_ageless_person(self, before: int) -> set[str]:
        """'Oscar-winning actor Daniel Brooks … ¶ the 61-year-old said': an age no one was
        given refers back to the one person the article named before it, when no age was
        stated for them; with two people named, or an age given, nobody."""
        named = self._sole_person(before)
        aged = {e.id for people in self.ages.values() for e in people}
        return set() if named & aged else named

    def _sole_person(self, before: int) -> set[str]:
        """The one person the article names before ``before`` (empty with none or several)."""
        named = {
            p.entity_id or p.name
            for p in self.people.mentions
            if p.is_person and not p.quoted and p.start < before
        }
        return named if len(named) == 1 else set()

    def _noun_uses(self, lemma: str, before: int) -> int:
        """How many times the article uses noun ``lemma`` outside quotations before a token."""
        return bisect_left(self._noun_places_of(lemma), before)

    def _noun_places_of(self, lemma: str) -> list[int]:
        """Where the article uses noun ``lemma`` outside quotations (read once per article)."""
        if self._noun_places is None:
            places: dict[str, list[int]] = {}
            table, quoted = self.table, self.quoted
            if table is not None:
                nouns = [i for i, pos in enumerate(table.pos) if pos == "NOUN" and not quoted[i]]
                for i in nouns:
                    places.setdefault(table.lemma[i].lower(), []).append(i)
            else:
                for t in self.doc:
                    if t.pos_ == "NOUN" and not quoted[t.i]:
                        places.setdefault(t.lemma_.lower(), []).append(t.i)
            self._noun_places = places
        return self._noun_places.get(lemma, [])

    def _person_tokens(self) -> list[tuple[int, int, str]]:
        out = []
        for p in self.people.mentions:
            if not p.is_person or p.quoted:
                continue
            if p.tokens is not None:
                out.append((*p.tokens, p.entity_id or p.name))
        return out

    def _by_role(
        self, head: Token, before: int, children: list[Token], headline: bool = False
    ) -> Entity | None:
        """'the TV host tweeted': the one person named before whose role ends with this noun
        (a definite role noun refers back; "a spokesperson" does not; a headline drops its
        articles: "mayor vows"); ``children`` are the head's."""
        if head.pos_ != "NOUN" or not head.text.islower() or head.tag_ != "NN":
            return None
        if not headline and not any(c.dep_ == "det" and c.lower_ == "the" for c in children):
            return None
        if headline and any(c.dep_ == "det" and c.lower_ in ("a", "an") for c in children):
            return None
        if any(c.dep_ == "poss" for c in children):
            return None
        # "the prime minister" is not "former cabinet minister Rachel Adeyemi": words the
        # description puts before its noun ("prime") are the role's own, or the role has
        # none of its own ("Senator Marco Rubio" is "the first-term senator").
        qualifiers = {
            c.lower_
            for c in children
            if c.dep_ in ("amod", "compound")
            and c.i < head.i
            and c.text.islower()
            and c.lower_ not in _TIME_QUALIFIERS
        }
        found = [
            e
            for e in self.roles.get(head.lower_, [])
            if e.mentions
            and e.mentions[0].start < before
            and (not qualifiers or any(_role_allows(r, head.lower_, qualifiers) for r in e.roles))
        ]
        return found[0] if len(found) == 1 else None

    def spoke(self, speaker: _Speaker, paragraph: int, asked: _Person | None = None) -> None:
        """``speaker`` said the last quotation, in line ``paragraph``; ``asked``, the one it
        was put to as a question ("Kline asked Lopez")."""
        self.last = speaker
        self.last_paragraph = paragraph
        self.asked = asked
        gender = PRONOUN_GENDER.get(speaker.text.lower())
        if gender is not None and speaker.is_person and speaker.name != speaker.text:
            # '"…," she said' taken as Sarah Lin's shows Sarah Lin's gender to the pronouns
            # after it ("Sarah Lin and her brother Tom … she said … ¶ He added:"), unless
            # the article already showed it
            self.people.gender.setdefault(speaker.entity_id or speaker.name, gender)

    def _answering(self, pronoun: Token, paragraph: int, lower: str) -> _Person | None:
        """'"Did you know?" Kline asked Lopez. ¶ "No," she replied.': the subject of a verb
        of answering, right after a question put to someone, is the one asked (when the
        pronoun fits them)."""
        asked = self.asked
        if asked is None or paragraph - self.last_paragraph > 1:
            return None
        if pronoun.dep_ != "nsubj" or pronoun.head.lemma_.lower() not in REPLY_VERBS:
            return None
        return asked if self.people.agrees(asked, lower) else None


def _they_people(doc: Doc, text: str, people: _People) -> set[str]:
    """People the article says use "they" ("Alex Rivera, who uses they/them pronouns"): the
    person named in the sentence that says so, when it names one (``text`` is what ``doc``
    parses; most articles never write "they/them")."""
    at = text.find(THEY_THEM)
    if at < 0:
        return set()
    found: set[str] = set()
    while at >= 0:
        sent = doc.char_span(at, at + len(THEY_THEM), alignment_mode="expand")
        if sent is not None:
            lo, hi = sent.sent.start_char, sent.sent.end_char
            named = {
                p.entity_id or p.name
                for p in people.mentions
                if p.is_person and lo <= p.start and p.end <= hi
            }
            if len(named) == 1:
                found |= named
        at = text.find(THEY_THEM, at + 1)
    return found


def _headline_end(lines: Sequence[tuple[int, int, str]]) -> int:
    """Where the title lines that open the article end (0 when it opens with none)."""
    end = 0
    for _, hi, label in lines:
        if label != "title":
            break
        end = hi
    return end


def _lead_end(lines: Sequence[tuple[int, int, str]]) -> int:
    """Where the first paragraph after the title lines ends (0 when there is none)."""
    return next((hi for _, hi, label in lines if label != "title"), 0)


def _lines(text: str, paragraphs: list[Paragraph]) -> list[tuple[int, int, str]]:
    """Paragraph lines to pair marks in (a line break ends an open quote too)."""
    if not paragraphs:
        return [(s, e, "body") for s, e in paragraph_spans(text)]
    out: list[tuple[int, int, str]] = []
    for p in paragraphs:
        if p.label in SKIPPED_LABELS:
            continue
        for s, e in paragraph_spans(text[p.start : p.end]):
            out.append((p.start + s, p.start + e, p.label))
    return out


def line_segments(text: str, lines: Sequence[tuple[int, int, str]]) -> list[list[Segment]]:
    """Each line's quoted segments. Titles fall back to single marks; an article that quotes
    with single marks throughout (a house style: 'We never stopped believing,' she said) has
    its single-quoted segments read in every paragraph, beside the double-quoted ones outside
    them."""
    double = [paragraph_segments(text, lo, hi) for lo, hi, _ in lines]
    single = [single_segments(text, lo, hi) for lo, hi, _ in lines]
    outer_single = sum(
        1
        for n, segs in enumerate(single)
        if lines[n][2] != "title"
        for seg in segs
        if " " in text[seg.start : seg.end] and not _within(seg, double[n])
    )
    outer_double = sum(
        1
        for n, segs in enumerate(double)
        if lines[n][2] != "title"
        for seg in segs
        if not _within(seg, single[n])
    )
    single_style = outer_single > outer_double
    out = []
    for n, (_, _, label) in enumerate(lines):
        segs = double[n]
        if label == "title" and not segs:
            segs = single[n]
        elif single_style and single[n]:
            # both kinds, the outer ones: 'a title', and "speech" a paragraph still quotes
            # with double marks
            segs = [g for g in single[n] if not _within(g, double[n])]
            segs += [g for g in double[n] if not _within(g, single[n]) and not _crosses(g, segs)]
            segs.sort(key=lambda g: g.start)
        out.append(segs)
    turns = _transcript_turns(text, lines)
    for n, turn in turns.items():
        if not out[n]:
            out[n] = [turn]
    return out


# Labels in capitals before a colon that head a line but name no speaker.
_NOT_SPEAKER_LABELS = frozenset(
    {
        "update",
        "updated",
        "note",
        "editor's note",
        "editor’s note",
        "correction",
        "clarification",
        "watch",
        "read more",
        "related",
        "see also",
        "photo",
        "photos",
        "video",
        "source",
        "sources",
        "breaking",
        "exclusive",
        "live",
        "analysis",
        "opinion",
        "advertisement",
        "warning",
        "disclaimer",
    }
)
# Lines an article needs in the turn layout before any is read as one (one "NAME: …" line
# may be anything; a transcript alternates).
MIN_TRANSCRIPT_TURNS = 2


def _transcript_turns(text: str, lines: Sequence[tuple[int, int, str]]) -> dict[int, Segment]:
    """'RILEY: Minister, the list has doubled.' — a transcript's turns, unquoted: each body
    line that opens with a label in capitals and a colon is its speaker's words, when the
    article has at least ``MIN_TRANSCRIPT_TURNS`` such lines under at least two labels.
    By line number; the segment is the words after the label."""
    found: dict[int, Segment] = {}
    labels = set()
    for n, (lo, hi, label) in enumerate(lines):
        if label == "title":
            continue
        m = _TRANSCRIPT.match(text, lo)
        if m is None or fold(m.group(1)).rstrip(".") in _NOT_SPEAKER_LABELS:
            continue
        if sum(c.isalpha() for c in m.group(1)) < 2:
            continue  # "Q:" and "A:" name no one
        turn = _turn(text, m.end(), hi)
        if turn is not None:
            labels.add(m.group(1))
            found[n] = turn
    if len(found) < MIN_TRANSCRIPT_TURNS or len(labels) < 2:
        found = {}
    return found or _answers(text, lines)


# An interview's question and answer lines ("Q: What was it like?" / "A: Hard.").
_QUESTION_TURN = re.compile(r"Q:[^\S\n]+")
_ANSWER_TURN = re.compile(r"A:[^\S\n]+")


def _turn(text: str, start: int, end: int) -> Segment | None:
    """A turn's words, text[start:end] without the line's trailing space (None if empty):
    a quotation without marks."""
    while end > start and text[end - 1].isspace():
        end -= 1
    return Segment(start, end, start, end, closed=True, opened=True) if start < end else None


def _answers(text: str, lines: Sequence[tuple[int, int, str]]) -> dict[int, Segment]:
    """'Q: … ¶ A: …': in an article with a question line and at least
    ``MIN_TRANSCRIPT_TURNS`` answer lines, each answer's words (after "A:"), whose speaker is
    the interviewee (``_interviewee``)."""
    found: dict[int, Segment] = {}
    questions = 0
    for n, (lo, hi, label) in enumerate(lines):
        if label == "title":
            continue
        questions += bool(_QUESTION_TURN.match(text, lo))
        m = _ANSWER_TURN.match(text, lo)
        if m is None:
            continue
        turn = _turn(text, m.end(), hi)
        if turn is not None:
            found[n] = turn
    return found if questions and len(found) >= MIN_TRANSCRIPT_TURNS else {}


def _crosses(seg: Segment, others: Sequence[Segment]) -> bool:
    """Whether ``seg``'s marks overlap one of ``others`` (marks that interleave)."""
    return any(seg.open_start < o.close_end and o.open_start < seg.close_end for o in others)


def _within(seg: Segment, others: Sequence[Segment]) -> bool:
    """Whether ``seg`` lies inside one of ``others`` (a quotation nested in another)."""
    return any(o.start <= seg.open_start and seg.close_end <= o.end for o in others)


def _sentence_index(doc: Doc) -> tuple[list[int], list[int]]:
    """Per token, its sentence number; and each sentence's token bounds (start list)."""
    bounds = [*sentence_starts(doc), len(doc)]
    sent_of = [0] * len(doc)
    for n in range(len(bounds) - 1):
        sent_of[bounds[n] : bounds[n + 1]] = [n] * (bounds[n + 1] - bounds[n])
    return sent_of, bounds


def _in_post(posts: list[Post], start: int, end: int) -> Post | None:
    for post in posts:
        if post.start <= start and end <= post.end:
            return post
    return None


@dataclass
class Recorded:
    """One quotation's candidates and their feature rows (for training the ranker)."""

    quote: QuoteContext
    candidates: list[Candidate]
    rows: list[list[float]]


# Makes a quotation's record once its speaker and confidence are chosen.
_Finish = Callable[[_Speaker | None, float | None], QuoteMention]


@dataclass(frozen=True)
class _Later:
    """A quotation whose speaker ``_Scan.settle`` chooses: its candidates, their rows, and
    what makes its record."""

    ctx: QuoteContext
    cands: list[Candidate]
    rows: list[list[float]]
    finish: _Finish


def _in_cue_words(ctx: QuoteContext, cands: list[Candidate], k: int) -> _Speaker:
    """Candidate ``k``'s speaker, in the words the cue names when those name the person and
    the pick's words do not ("Outside court, one of his victims, retired plumber Ken Matthews,
    said": the ranker may score the parse's subject, "Outside court", resolved to Matthews,
    over the name; the words exported as the speaker's should show who it is)."""
    chosen = cands[k]
    cue = ctx.cue
    if cue is None or cue.speaker is None or chosen.speaker.entity_id is None:
        return chosen.speaker
    own = next((c for c in cands if (c.first, c.last) == cue.speaker), None)
    if own is None or own.key != chosen.key:
        return chosen.speaker
    surname = chosen.speaker.name.split()[-1]
    if surname in chosen.speaker.text or surname not in own.speaker.text:
        return chosen.speaker
    return own.speaker


class _Scan:
    """One article's quote scan: what its steps share, built once, and the walk's state."""

    def __init__(
        self,
        doc: Doc,
        text: str,
        paragraphs: list[Paragraph],
        posts: list[Post],
        entities: list[Entity],
        ranker: SpeakerRanker | None = None,
        recorder: list[Recorded] | None = None,
    ) -> None:
        self.doc = doc
        self.text = text  # the text ``doc`` parses (``Doc.text`` is rebuilt on every access)
        self.posts = posts
        self.lines = _lines(text, paragraphs)
        self.line_starts = [lo for lo, _, _ in self.lines]
        self.offsets = offsets = TokenOffsets(doc)
        self.line_tokens = [offsets.range(lo, hi) or (0, 0) for lo, hi, _ in self.lines]
        # Quoted segments in text order, with their paragraph line and their tokens.
        self.segments: list[tuple[int, Segment]] = []
        for n, segs in enumerate(line_segments(text, self.lines)):
            self.segments.extend((n, s) for s in segs)
        self.ranges = [offsets.range(seg.start, seg.end) for _, seg in self.segments]
        # Per token: inside quotation marks (words there are the speaker's, not attribution).
        self.quoted = [False] * len(doc)
        for _, seg in self.segments:
            marks = offsets.range(seg.open_start, seg.close_end)
            if marks is not None:
                for i in range(*marks):
                    self.quoted[i] = True
        self.sent_of, self.bounds = _sentence_index(doc)
        # The token attributes as lists, read once (``doc[i]`` builds a new Token each time),
        # for the ranker's candidates; the rules alone read too few tokens to pay for it.
        ranked = ranker is not None or recorder is not None
        self.tokens = TokenTable(doc) if ranked else None
        spans = [(seg.open_start, seg.close_end) for _, seg in self.segments]
        self.people = _People(
            doc,
            entities,
            spans,
            offsets,
            self.tokens.root if self.tokens else None,
            self.bounds[:-1],
        )
        self.resolver = _Resolver(
            doc,
            self.people,
            entities,
            self.line_starts,
            self.quoted,
            (self.sent_of, self.bounds),
            self.tokens,
            headline_end=_headline_end(self.lines),
            lead_end=_lead_end(self.lines),
        )
        self.resolver.they_people = _they_people(doc, text, self.people)
        # Answers of ``subject_of`` and ``speaker_span`` by token.
        self._subjects: dict[int, Token | None] = {}
        self._spans: dict[int, tuple[int, int]] = {}
        # The last direct quotation's paragraph line and speaker (for one with no cue).
        self.previous: tuple[int, _Speaker | None] = (NO_PARAGRAPH, None)
        # Reported speech found so far: its characters and its reporter (the rules' pick).
        self.reports: list[tuple[int, int, _Speaker]] = []
        self.ranker = ranker
        self.recorder = recorder
        self.finder = (
            CandidateFinder(self, self.tokens, self.resolver.resolve)
            if self.tokens is not None
            else None
        )

    def choose(self, ctx: QuoteContext) -> tuple[_Speaker | None, float | None]:
        """The speaker of a quotation: the ranker's pick among the candidates (the rules' own
        pick when there is no ranker), with its calibrated confidence."""
        found = self._candidates(ctx)
        if found is None or self.ranker is None:
            return ctx.rule, None
        cands, rows = found
        if len(cands) == 1:
            return cands[0].speaker, self.ranker.alone().confidence
        choice = self.ranker.choose(rows, [c.key for c in cands])
        return _in_cue_words(ctx, cands, choice.index), choice.confidence

    def choose_later(self, ctx: QuoteContext, finish: _Finish) -> QuoteMention | _Later:
        """``finish(*choose(ctx))``, with the scoring left to ``settle``: for a quotation whose
        speaker no later quotation reads (reported speech), so that all of an article's such
        quotations are scored in one pass. The candidates are gathered now, as the walk
        stands."""
        found = self._candidates(ctx)
        if found is None or self.ranker is None:
            return finish(ctx.rule, None)
        cands, _ = found
        if len(cands) == 1:
            return finish(cands[0].speaker, self.ranker.alone().confidence)
        return _Later(ctx, *found, finish)

    def settle(self, found: list[QuoteMention | _Later]) -> list[QuoteMention]:
        """The quotations with those ``choose_later`` left open chosen and finished."""
        later = [item for item in found if isinstance(item, _Later)]
        if not later:
            return [item for item in found if not isinstance(item, _Later)]
        assert self.ranker is not None  # only the ranker leaves choices open
        choices = self.ranker.choose_each([(x.rows, [c.key for c in x.cands]) for x in later])
        done = {
            id(x): x.finish(_in_cue_words(x.ctx, x.cands, c.index), c.confidence)
            for x, c in zip(later, choices, strict=True)
        }
        return [done[id(item)] if isinstance(item, _Later) else item for item in found]

    def _candidates(self, ctx: QuoteContext) -> tuple[list[Candidate], list[list[float]]] | None:
        """The quotation's candidates and their feature rows (recorded for training), or None
        without a finder or without candidates."""
        if self.finder is None:
            return None
        prev_n, prev_speaker = self.previous
        cands = self.finder.find(ctx, prev_speaker)
        if not cands:
            return None
        if len(cands) == 1 and self.recorder is None:
            return cands, []  # one candidate is chosen whatever its row (``SpeakerRanker.alone``)
        rows = self.finder.features(ctx, cands, ctx.line - prev_n)
        if self.recorder is not None:
            self.recorder.append(Recorded(ctx, cands, rows))
        return cands, rows

    def subject_of(self, verb: Token) -> Token | None:
        """``attribution.subject_of`` of a verb outside quotations, once per verb (the
        reported-speech walk and the candidate phrases ask for the same speech verbs)."""
        found = self._subjects.get(verb.i, verb)
        if found is verb:
            found = self._subjects[verb.i] = subject_of(verb, self.quoted)
        return found

    def reporter_around(self, offset: int) -> _Speaker | None:
        """The reporter of the outermost reported speech found so far around ``offset``."""
        around = [r for r in self.reports if r[0] <= offset < r[1]]
        return min(around, key=lambda r: r[0])[2] if around else None

    def speaker_span(self, subject: Token) -> tuple[int, int]:
        """``attribution.speaker_span``, once per subject."""
        found = self._spans.get(subject.i)
        if found is None:
            found = self._spans[subject.i] = speaker_span(subject)
        return found

    def _unnamed(self, speaker: _Speaker) -> bool:
        """Whether a speaker is a document ("the statement", "a report") resolved to no
        issuer."""
        if speaker.entity_id is not None or speaker.name != speaker.text:
            return False
        span = self.doc.char_span(speaker.start, speaker.end, alignment_mode="expand")
        if span is None or not len(span) or span.root.pos_ != "NOUN":
            return False
        return span.root.lemma_.lower() in SPEECH_NOUNS

    def quote_only(self, k: int) -> bool:
        """Whether the ``k``-th quoted segment's body paragraph line holds nothing but
        quotations (and punctuation)."""
        n, _ = self.segments[k]
        lo, hi, label = self.lines[n]
        if label != "body":
            return False
        at, rest = lo, []
        for m, seg in self.segments:
            if m == n:
                rest.append(self.text[at : seg.open_start])
                at = max(at, seg.close_end)
        rest.append(self.text[at:hi])
        return not any(_WORD.search(part) for part in rest)

    def sentence_end(self, offset: int) -> int:
        """Where the first sentence from character ``offset`` on (a quotation's closing mark
        ends at it) that ends in a full stop, question or exclamation mark ends (a parse may
        cut a sentence after a closing mark and comma, inside the attribution); the text's
        end when none does."""
        found = self.offsets.range(max(offset - 1, 0), offset)
        if found is None:
            return len(self.text)
        doc = self.doc
        for bound in self.bounds[self.sent_of[found[0]] + 1 :]:
            last = bound - 1
            if last > 0 and doc[last].is_quote:
                last -= 1  # ('"…?" Obi smiled.': the question ends inside the marks)
            if bound >= len(doc) or doc[last].text in SENTENCE_ENDS:
                return self.offsets.ends[bound - 1]
        return len(self.text)

    def names_person(self, word: Token) -> bool:
        """Whether ``word`` is in a person's name the article gives."""
        p = self.people.at(word.idx, word.idx + len(word))
        return p is not None and p.is_person

    def line_of(self, offset: int) -> int:
        """The paragraph line holding ``offset`` (-1 before the first)."""
        return bisect_right(self.line_starts, offset) - 1

    def in_post(self, start: int, end: int) -> Post | None:
        return _in_post(self.posts, start, end)

    def frame(self, first: int, last: int, n: int) -> tuple[int, int]:
        """Tokens where the cue of the quote in tokens [first, last) on line ``n`` may be: its
        sentences, clipped to its paragraph, plus the next sentence when the quote ends its own
        ("…." he said. / "…." Roe said.)."""
        doc, sent_of, bounds = self.doc, self.sent_of, self.bounds
        n0 = sent_of[max(first - 1, 0)]
        n1 = sent_of[min(last, len(doc) - 1)]
        lo, hi = bounds[n0], bounds[n1 + 1]
        if hi - last <= SENTENCE_TAIL_TOKENS and n1 + 2 < len(bounds):
            hi = bounds[n1 + 2]  # the parser may split '…." he said.' after the quote
        p_lo, p_hi = self.line_tokens[n]
        return max(lo, p_lo), min(hi, p_hi)

    def mention(
        self,
        start: int,
        end: int,
        kind: QuoteKind,
        paragraph_start: int,
        *,
        cue: tuple[int, int] | None = None,
        speaker: _Speaker | None = None,
        post: Post | None = None,
        confidence: float | None = None,
        unattributed: bool = False,
    ) -> QuoteMention:
        """The record of a quotation: a post's author speaks what the post quotes."""
        text = self.text
        fields: dict = {"start": start, "end": end, "text": text[start:end], "kind": kind}
        if cue is not None:
            fields.update(cue=text[cue[0] : cue[1]], cue_start=cue[0], cue_end=cue[1])
        if post is not None:
            fields.update(
                speaker=post.author or f"@{post.handle}",
                post_id=post.id,
                speaker_kind="person",
                speaker_confidence=1.0,  # the embed names its author
            )
        elif speaker is not None:
            who = speaker_kind(self.doc, speaker)
            unresolved = who == "unknown" or (
                confidence is not None
                and self.ranker is not None
                and confidence < self.ranker.threshold
            )
            # "the report": a document no named person or organisation of the article issued
            # names nobody; its words stay.
            unnamed = not unresolved and self._unnamed(speaker)
            fields.update(
                speaker=None if unresolved or unnamed else speaker.name,
                speaker_text=speaker.text,
                speaker_start=speaker.start,
                speaker_end=speaker.end,
                speaker_entity_id=None if unresolved else speaker.entity_id,
                speaker_confidence=None if confidence is None else round(confidence, 4),
                speaker_kind="unknown" if unresolved else who,
            )
        elif unattributed:
            fields.update(speaker_confidence=NO_EVIDENCE_CONFIDENCE, speaker_kind="unknown")
        fields["paragraph_start"] = paragraph_start
        return QuoteMention(**fields)


def _cue_chars(doc: Doc, cue: Cue) -> tuple[int, int]:
    span = doc[cue.start : cue.end]
    return span.start_char, span.end_char


@dataclass
class _Reported:
    """A speech verb with a subject and a clause complement (``Roe said that …``)."""

    verb: Token
    subject: Token
    start: int  # characters of the reported clause
    end: int


def _according_to(scan: _Scan, token: Token) -> _Reported | None:
    """'X happened, according to Roe': the rest of the sentence is what Roe reported."""
    doc, quoted, lines = scan.doc, scan.quoted, scan.lines
    found = according_to([token])
    if found is None or quoted[found[1].i]:
        return None
    obj = found[1]
    sent = token.sent
    a, b = token.left_edge.i, token.right_edge.i + 1
    before, after = (sent.start, a), (b, sent.end)
    first, last = max(before, after, key=lambda r: r[1] - r[0])
    while first < last and (doc[first].is_punct or doc[first].is_space):
        first += 1
    while last > first and (doc[last - 1].is_punct or doc[last - 1].is_space):
        last -= 1
    if last - first < MIN_ACCORDING_TOKENS:
        return None
    n = scan.line_of(token.idx)
    if n < 0:
        return None
    start = max(doc[first].idx, lines[n][0])
    end = min(doc[last - 1].idx + len(doc[last - 1]), lines[n][1])
    return _Reported(token, obj, start, end) if start < end else None


def _reporting_words(scan: _Scan) -> Iterator[Token]:
    """The words outside quotation marks that may report speech: "according" and speech
    verbs (found on the token table when the scan has one: a Token for those alone)."""
    doc, quoted, t = scan.doc, scan.quoted, scan.tokens
    if t is None:
        for token in doc:
            if not quoted[token.i] and (token.lower_ == "according" or is_speech_verb(token)):
                yield token
        return
    for i, (lower, verb) in enumerate(zip(t.lower, t.speech_verb, strict=True)):
        if not quoted[i] and (verb or lower == "according"):
            yield doc[i]


def _past_addressee(verb: Token, clause: Token) -> int:
    """Where the reported clause starts. 'told the court Lyle had used …': a verb of telling
    with no object of its own may have its addressee parsed into the clause's subject (as a
    compound of the name); the clause then starts after it."""
    first = clause.left_edge.i
    if verb.lemma_.lower() not in ADDRESSEE_VERBS or any(
        c.dep_ in ("dobj", "dative", "iobj") for c in verb.children
    ):
        return first
    subject = next((c for c in clause.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    if subject is None or subject.pos_ != "PROPN":
        return first
    glued = [c.i for c in subject.lefts if c.dep_ == "compound" and c.pos_ == "NOUN"]
    return max(first, max(glued) + 1) if glued else first


def _across_split_word(doc: Doc, first: int, last: int, verb: Token) -> int:
    """Where a reported clause ends when the parse split a hyphenated word at its end into
    clauses of their own ("said it was co-operating fully …" as co / - / operating, each
    hung on "said"): the rest of the word, and what hangs from it, belong to the clause."""
    while (
        last + 1 < len(doc)
        and doc[last].text == "-"
        and not doc[last - 1].whitespace_
        and not doc[last].whitespace_
    ):
        rest = doc[last + 1]
        if rest.head.i != verb.i and not first <= rest.head.i < last:
            break
        last = max(last + 2, rest.right_edge.i + 1)
    return last


def _from_word_start(doc: Doc, first: int) -> int:
    """Where a reported clause starts when the parse split a hyphenated word at its start
    ("said pre-orders had …" as pre / - / orders, "pre" hung on "said"): a clause never
    starts inside a word."""
    while (
        first > 0
        and not doc[first - 1].whitespace_
        and "-" in (doc[first].text, doc[first - 1].text)
        and not doc[first - 1].is_space
    ):
        first -= 1
    return first


def _with_stranded_subject(doc: Doc, first: int) -> int:
    """Where a reported clause starts when the parse left its subject as a root of its own
    right before it, on the same line ("Nurses at four hospitals … have voted to strike,
    their union said", with "Nurses" a verbless root): the subject belongs to the clause."""
    if first == 0:
        return first
    before = doc[first - 1]
    if (
        before.head.i != before.i
        or before.pos_ not in ("NOUN", "PROPN")
        or any(c.pos_ in ("VERB", "AUX") for c in before.children)
    ):
        return first
    start = before.left_edge.i
    if any("\n" in t.whitespace_ or t.is_space for t in doc[start:first]):
        return first
    return start


def _reports_clause_before(verb: Token, quoted: list[bool]) -> bool:
    """A speech verb the parse hangs on the main clause before it ("parataxis"), after a
    comma: that clause is what it reports."""
    head = verb.head
    return (
        verb.dep_ == "parataxis"
        and head.i < verb.i
        and head.pos_ in ("VERB", "AUX")
        and not quoted[head.i]
        and verb.i >= 2
    )


def _describes_subject(verb: Token, clause: Token, quoted: list[bool]) -> bool:
    """'The four "gaps" she cited are "…," the Courier reported': a speech verb in a relative
    clause, the clause after it lacking a subject of its own, and a report closing the
    sentence: the parse hung the main clause (whose subject the relative clause describes) on
    the speech verb, which reports nothing ("the ones State says are 'secret'" does)."""
    return (
        verb.dep_ == "relcl"
        and clause.i > verb.i
        and not any(c.dep_ in ("nsubj", "nsubjpass", "expl", "csubj") for c in clause.children)
        and report_after(verb.doc, clause.right_edge.i + 1, verb.sent.end, quoted) is not None
    )


def _reported_speech(scan: _Scan) -> list[_Reported]:
    doc, text, quoted, lines = scan.doc, scan.text, scan.quoted, scan.lines
    out = []
    for token in _reporting_words(scan):
        if token.lower_ == "according":
            found = _according_to(scan, token)
            if found is not None:
                out.append(found)
            continue
        shared = reports_after_predicate(token)  # ("Coach quits, says players …")
        clause = (
            shared[1] if shared else next((c for c in token.children if c.dep_ == "ccomp"), None)
        )
        if clause is None:
            clause = _clause_on_medium(token) or _clause_on_addressee(token)
        # "The sale could value it at £2bn, one of the sources said": the parse may hang the
        # speech verb on the clause it reports, after it.
        reported_before = clause is None and _reports_clause_before(token, quoted)
        if reported_before:
            clause = token.head
        if clause is None or _describes_subject(token, clause, quoted):
            continue
        if token.lemma_.lower() in WEAK_VERBS and not any(
            c.lower_ == "that" for c in clause.children
        ):
            continue
        if _put_to_subject(token) or _told_in_a_headline(token, clause):
            continue
        subject = scan.subject_of(token)
        if subject is None or subject.lower_ in NON_SPEAKER_SUBJECTS:
            continue
        if reported_before:
            if subject.head.i != token.i or subject.i < clause.i:
                continue
            first, last = clause.left_edge.i, subject.left_edge.i
        else:
            first, last = _past_addressee(token, clause), clause.right_edge.i + 1
        first = _from_word_start(doc, _with_stranded_subject(doc, first))
        last = _across_split_word(doc, first, last, token)
        if first <= token.i < last or not any(
            not t.is_punct and not quoted[t.i] for t in doc[first:last]
        ):
            continue
        n = scan.line_of(token.idx)
        if n < 0:
            continue
        lo, hi = lines[n][0], lines[n][1]
        lo = own_words_start(text, lo)  # "LONDON (Reuters) - Inflation fell …, the ONS said"
        start = max(doc[first].idx, lo)
        end = min(doc[last - 1].idx + len(doc[last - 1]), hi)  # a clause never crosses paragraphs
        end = _before_closed_utterance(scan, start, end)
        while end > start and text[end - 1] in ".,;: \t":
            end -= 1
        own = (t for t in doc[first:last] if start <= t.idx < end)
        if any(not t.is_punct and not quoted[t.i] for t in own):  # not a quotation alone
            out.append(_Reported(token, subject, start, end))
    return out


def _clause_on_addressee(verb: Token) -> Token | None:
    """'told the inquest his mother had been lying there all night': the parse may read the
    clause told, with no "that", as a relative clause on the one told. A clause with its own
    subject right after the addressee, opened by no relative word, is what was told."""
    lemma = verb.lemma_.lower()
    if lemma not in ("tell", "inform", "assure", "reassure", "warn"):
        return None
    for obj in verb.children:
        # (someone, or a gathering, is told; a story or the truth is what is told)
        if obj.dep_ != "dobj" or not (could_speak(obj) or obj.lemma_.lower() in GATHERINGS):
            continue
        for clause in obj.children:
            if clause.dep_ != "relcl" or clause.left_edge.i != obj.i + 1:
                continue
            subject = next((c for c in clause.children if c.dep_ == "nsubj"), None)
            if (
                subject is not None
                and subject.tag_ not in ("WP", "WDT")  # ("the man who …", "the plan that …")
                and subject.lower_ != "that"
                and subject.left_edge.i == obj.i + 1
                and subject.i < clause.i
            ):
                return clause
    return None


def _clause_on_medium(verb: Token) -> Token | None:
    """'said in a statement that services would resume': the parse may hang the reported
    clause on the noun of the medium after the verb (as a clause opened by "that") rather than
    on the verb."""
    for prep in verb.rights:
        if prep.dep_ != "prep" or prep.lower_ not in MEDIUM_PREPS:
            continue
        for noun in prep.children:
            if noun.dep_ != "pobj" or noun.lemma_.lower() not in SPEECH_NOUNS:
                continue
            for clause in noun.rights:
                if clause.dep_ in ("acl", "ccomp") and any(
                    c.dep_ == "mark" and c.lower_ == "that" for c in clause.children
                ):
                    return clause
    return None


def _before_closed_utterance(scan: _Scan, start: int, end: int) -> int:
    """'"It was textbook," the airline's head of operations, Karen Bly, said': the parse may
    hang the speaker's words on the quoted clause, so the reported clause runs past a
    quotation that ends its own sentence or clause (a comma or stop inside the closing mark).
    What it reports ends with that quotation; the words after it only name the speaker."""
    text = scan.text
    for _, seg in scan.segments:
        if seg.closed and seg.open_start <= start <= seg.start and seg.close_end < end:
            inside = text[seg.start : seg.end].rstrip()
            if inside[-1:] in UTTERANCE_ENDS:
                return seg.close_end
    return end


def _put_to_subject(verb: Token) -> bool:
    """'Asked whether he would resign, Roe said …', 'when told that …': a participle of
    asking or telling with no subject of its own reports what was put to the sentence's
    subject, by someone unnamed; those words are not the subject's."""
    # (the tagger may read a participle opening the sentence as a past tense: "Asked/VBD")
    return (
        (verb.tag_ == "VBN" or (verb.tag_ == "VBD" and verb.dep_ == "advcl"))
        and verb.lemma_.lower() in ADDRESSEE_VERBS
        and not any(c.dep_ in ("nsubj", "nsubjpass", "aux", "auxpass") for c in verb.children)
    )


def _told_in_a_headline(verb: Token, clause: Token) -> bool:
    """'Driver was on phone, inquest told': a headline's short passive. "Tell" names the
    one told as its object, so one with a subject, the clause before it and nothing after it
    is "the inquest (was) told" what someone unnamed said."""
    if verb.lemma_.lower() != "tell" or clause.i > verb.i:
        return False
    if any(c.dep_ in ("dobj", "dative", "iobj", "prep") for c in verb.children):
        return False
    return all(t.is_punct or t.is_space for t in verb.doc[verb.i + 1 : verb.sent.end])


def _signed(doc: Doc, text: str, seg: Segment) -> Cue | None:
    """Speakers the layout names: a dash signature after the quote, a transcript turn in it
    or right before it (an unquoted turn: ``_transcript_turns``)."""
    m = _TRANSCRIPT.match(text, seg.start)
    if m is None and seg.open_start == seg.start:
        line_start = text.rfind("\n", 0, seg.start) + 1
        before = _TRANSCRIPT.match(text, line_start)
        if before is not None and before.end() == seg.start:
            m = before
    if m is None and seg.closed:
        m = _SIGNATURE.match(text, seg.close_end)
        if (
            m is not None
            and m.end(2) < len(text)
            and not (text[m.end(2)].isspace() or text[m.end(2)] in ".,;")
        ):
            m = None
    if m is None:
        return None
    return _signature_cue(doc, m)


def _signed_below(doc: Doc, text: str, seg: Segment) -> Cue | None:
    """The signature on the line after a quote-only paragraph (``_SIGNATURE_BELOW``)."""
    m = _SIGNATURE_BELOW.match(text, seg.close_end) if seg.closed else None
    return _signature_cue(doc, m) if m is not None else None


def _signature_cue(doc: Doc, m: re.Match[str]) -> Cue | None:
    group = 1 if m.re is _TRANSCRIPT else 2
    cue_span = doc.char_span(*m.span(1 if group == 2 else 0), alignment_mode="expand")
    name = doc.char_span(*m.span(group), alignment_mode="expand")
    if name is None or cue_span is None:
        return None
    return Cue(cue_span.start, cue_span.end, (name.start, name.end), "signature")


def _is_title(doc: Doc, first: int, last: int) -> bool:
    """A name or title in quote marks ("Morning Joe", "Make Your Kid a Millionaire")."""
    if doc[last - 1].text in (".", "!", "?", ","):
        return False
    words: list[Token] = []
    for t in doc[first:last]:
        if t.is_alpha:
            words.append(t)
            if len(words) > TITLE_MAX_WORDS:  # a sentence, not a title: read no further
                return False
    if len(words) < MIN_TITLE_WORDS:
        return False
    # (a title capitalises its words: "We will not back down" is a sentence, one capital)
    capitalised = sum(t.text[:1].isupper() for t in words)
    return capitalised >= MIN_TITLE_WORDS and all(
        t.text[:1].isupper() or t.is_stop and len(t) <= TITLE_STOP_WORD_CHARS for t in words
    )


def _says_title(doc: Doc, cue: Cue, first: int, last: int) -> bool:
    """'Trump called her "Crooked Hillary"': the words in title case are what was said."""
    if cue.how != "governs":
        return False
    verb = doc[cue.start]
    root = doc[first:last].root
    return (
        root.dep_ in ("oprd", "attr", "ccomp", "xcomp", "dobj")
        and root.head.i == verb.i
        and (verb.lemma_ not in ("tell", "ask", "inform"))
    )


def _not_speech(text: str, seg: Segment) -> bool:
    """Stage directions "(CROSSTALK.)" and markup attribute values are not quotations."""
    inside = text[seg.start : seg.end].strip()
    if inside[:1] == "(" and inside.rstrip(".")[-1:] == ")":
        return True
    return seg.open_start > 0 and text[seg.open_start - 1] == "="


def _named_by_next(scan: _Scan, n: int) -> Token | None:
    """'"We were told it was safe." ¶ Those were the words of Carla Mendes, …': a paragraph
    that is a quotation alone, whose owner the next paragraph's opening sentence names ("Those
    were the words of X", "That was X's verdict", "That was the message from X"): X."""
    if n + 1 >= len(scan.lines):
        return None
    lo, hi, _ = scan.lines[n + 1]
    span = scan.doc.char_span(lo, hi, alignment_mode="expand")
    if span is None or not len(span):
        return None
    verb = span[0].sent.root
    subject = next((c for c in verb.children if c.dep_ == "nsubj"), None)
    said = next((c for c in verb.children if c.dep_ == "attr"), None)
    if verb.lemma_ != "be" or subject is None or said is None:
        return None
    if subject.lower_ not in _DEMONSTRATIVES or said.lemma_.lower() not in _SAYING_NOUNS:
        return None
    for child in said.children:
        if child.dep_ == "poss":
            return child
        if child.dep_ == "prep" and child.lower_ in ("of", "from"):  # ("the message from X")
            return next((c for c in child.children if c.dep_ == "pobj"), None)
    return None


def _carried_on(scan: _Scan, seg: Segment, n: int) -> _Speaker | None:
    """The speaker of a quotation without a cue: the one quoted just before in the same
    paragraph, or, for a paragraph that opens with a quotation, the previous paragraph's
    speaker (or the person its last sentence is about)."""
    text, lines = scan.text, scan.lines
    prev_n, prev_speaker = scan.previous
    lo = lines[n][0]
    if prev_n == n:
        # ('Nunes pressed: "…?" Obi smiled. "It will be."': a sentence between the two
        # quotations about someone else gives the next one to them)
        closed = max(
            (o.close_end for m, o in scan.segments if m == n and o.close_end <= seg.open_start),
            default=lo,
        )
        between = None
        after = scan.sentence_end(closed)  # past the previous quotation's own attribution
        if after < seg.open_start:
            between = _own_sentence_speaker(scan, seg, n, after)
        if between is None or (
            prev_speaker is not None
            and (between.entity_id or between.name) == (prev_speaker.entity_id or prev_speaker.name)
        ):
            return prev_speaker
        return between
    if text[lo : seg.open_start].strip() and not _ANSWER_TURN.fullmatch(text, lo, seg.open_start):
        return _own_sentence_speaker(scan, seg, n, lo)
    if n >= 1 and text[lines[n - 1][0] : lines[n - 1][1]].rstrip().endswith(":"):
        # "He said: ¶ "…"": the cue closes the previous paragraph.
        cue = cue_before_colon(scan.doc, *scan.line_tokens[n - 1], scan.quoted)
        if cue is not None and cue.speaker is not None:
            return scan.resolver.resolve(*cue.speaker, n - 1, lines[n - 1][0])
    if prev_n == n - 1 and prev_speaker is not None:
        return prev_speaker
    if n >= 1 and _asked(text, lines[n - 1]):
        return _interviewee(scan, n)
    if n >= 1:
        p_lo, p_hi = lines[n - 1][0], lines[n - 1][1]
        subject = scan.people.subject_between(p_lo, p_hi, sole=True)
        if subject is not None:
            return _Speaker(
                subject.name, subject.start, subject.end, subject.name, subject.entity_id, True
            )
    if prev_speaker is not None and n - prev_n <= CONTINUATION_REACH:
        return prev_speaker
    return None


def _asked(text: str, line: tuple[int, int, str]) -> bool:
    """Whether a paragraph is an interviewer's question: it opens with "Q:", or ends with a
    question mark and quotes nobody."""
    if _QUESTION_TURN.match(text, line[0]):
        return True
    words = text[line[0] : line[1]].strip()
    return words.endswith("?") and not any(mark in words for mark in QUESTION_FREE_MARKS)


def _interviewee(scan: _Scan, n: int) -> _Speaker | None:
    """In a question-and-answer piece the quotation after each question answers it: the
    speaker is the one person named as a subject in the last paragraph before the run of
    questions and answers (the introduction: "Lena Marsh took over … She spoke to us"), else
    the one whose work or deed is the subject there ("Elif Kaya's novel has won …")."""
    text, lines = scan.text, scan.lines
    k = n - 1
    while k >= 0 and k > n - INTERVIEW_REACH:
        line = lines[k]
        if (
            _asked(text, line)
            or text[line[0] : line[0] + 1] in OPENING_MARKS
            or _ANSWER_TURN.match(text, line[0])
        ):
            k -= 1
            continue
        person = scan.people.subject_between(line[0], line[1], sole=True)
        if person is None:
            # ("Elif Kaya's debut novel has won the prize. We spoke to her …")
            person = scan.people.subject_owner_between(line[0], line[1], "", topic=True)
        if person is None:
            return None
        return _Speaker(person.name, person.start, person.end, person.name, person.entity_id, True)
    return None


def _own_sentence_speaker(scan: _Scan, seg: Segment, n: int, lo: int) -> _Speaker | None:
    """'Mrs Whitfield is not convinced. "They said that last time too."': a quotation that
    is a sentence of its own after a sentence of its paragraph is the words of the one person
    that paragraph names as a subject before it. A quoted phrase inside a sentence (scare
    quotes, a title) is not: it neither follows a sentence's end nor ends one."""
    text = scan.text
    before = text[lo : seg.open_start].rstrip()
    inside = text[seg.start : seg.end].strip()
    if not (
        (seg.closed or _runs_on(scan, seg, n))
        and before[-1:] in SENTENCE_ENDS
        and inside[:1].isupper()
        and inside[-1:] in SENTENCE_ENDS
    ):
        return None
    person = scan.people.subject_between(lo, seg.open_start, sole=True)
    if person is not None:
        return _Speaker(person.name, person.start, person.end, person.name, person.entity_id, True)
    # "On housing, she is blunt. "…"": the pronoun subject just before, resolved.
    before_quote = scan.doc.char_span(lo, seg.open_start, alignment_mode="contract")
    if before_quote is None:
        return None
    framed = _framing_person(scan, before_quote)
    if framed is not None:
        return _Speaker(framed.name, framed.start, framed.end, framed.name, framed.entity_id, True)
    for token in reversed(before_quote):
        if token.dep_ in ("nsubj", "nsubjpass") and not scan.quoted[token.i]:
            if token.lower_ not in PERSONAL_PRONOUNS:
                return None
            speaker = scan.resolver.resolve(token.i, token.i + 1, n, lo)
            return None if speaker.name == speaker.text else speaker  # resolved only
    return None


def _framing_person(scan: _Scan, before: Span) -> _Person | None:
    """'For Petrova, the reward is simple. "…"': the person named, outside any quotation, by a
    "for" or "to" opening the last sentence before a quotation, set off by a comma (the
    sentence gives that person's view)."""
    opener = next((t for t in reversed(before) if t.is_sent_start), before[0])
    if opener.lower_ not in ("for", "to") or scan.quoted[opener.i]:
        return None
    person = next((c for c in opener.children if c.dep_ == "pobj"), None)
    if person is None:
        return None
    after = person.right_edge.i + 1
    if after >= len(scan.doc) or scan.doc[after].text != ",":
        return None
    found = scan.people.at(person.idx, person.idx + len(person))
    return found if found is not None and found.is_person and not found.quoted else None


def _runs_on(scan: _Scan, seg: Segment, n: int) -> bool:
    """'… in 2019. "We knew the pipes were failing. ¶ "The money never came," he said': a
    quotation left open at its paragraph's end, the next paragraph opening with a mark, is
    the first part of a quotation that runs on (the convention for a long one)."""
    if n + 1 >= len(scan.lines) or scan.text[seg.end : scan.lines[n][1]].strip():
        return False
    return scan.text[scan.lines[n + 1][0] : scan.lines[n + 1][0] + 1] in OPENING_MARKS


def _indirect(scan: _Scan, item: _Reported) -> QuoteMention | _Later | None:
    """Reported speech (``Roe said that …``) with its reporter resolved."""
    n = scan.line_of(item.verb.idx)
    para = scan.lines[n][0]
    verb = item.verb
    said = (verb.idx, verb.idx + len(verb))
    own_post = scan.in_post(item.start, item.end)
    if own_post is not None and item.subject.lower_ in FIRST_PERSON:
        # "I'll be back, I promise" in a post: its author speaks.
        return scan.mention(item.start, item.end, "indirect", para, cue=said, post=own_post)
    if own_post is None and scan.in_post(item.subject.idx, item.subject.idx + 1):
        return None  # a post's words never report speech outside it
    first, last = scan.speaker_span(item.subject)
    reporter = scan.resolver.resolve(first, last, n, para)
    scan.reports.append((item.start, item.end, reporter))
    span = scan.doc.char_span(item.start, item.end, alignment_mode="expand")
    if span is None or not len(span):
        return scan.mention(item.start, item.end, "indirect", para, cue=said, speaker=reporter)
    cue = Cue(verb.i, verb.i + 1, (first, last), "governs")
    ctx = QuoteContext(
        span.start, span.end, n, cue, "governs", reporter, False, item.start, item.end
    )

    def finish(chosen: _Speaker | None, confidence: float | None) -> QuoteMention:
        return scan.mention(
            item.start,
            item.end,
            "indirect",
            para,
            cue=said,
            speaker=chosen or reporter,
            confidence=confidence,
        )

    # Reported speech never carries its speaker on to a later quotation (only direct ones
    # do, in ``_direct``), so its choice can wait and be scored with the others.
    return scan.choose_later(ctx, finish)


def _direct_cue(scan: _Scan, k: int, first: int, last: int) -> Cue | None:
    """The cue of a quotation outside posts: a signature or transcript turn, else the parse's."""
    n, seg = scan.segments[k]
    doc = scan.doc
    if seg.open_start == seg.start and _ANSWER_TURN.fullmatch(
        scan.text, scan.lines[n][0], seg.start
    ):
        return None  # an interview's answer ("A: …"): the interviewee's, found without a cue
    frame = scan.frame(first, last, n)
    cue = (
        _signed(doc, scan.text, seg)
        or (_signed_below(doc, scan.text, seg) if scan.quote_only(k) else None)
        or find_cue(
            doc,
            first,
            last,
            frame,
            scan.quoted,
            scan.tokens.head if scan.tokens else None,
            scan.tokens.speech_verb if scan.tokens else None,
            scan.names_person,
        )
    )
    if (
        cue is not None
        and cue.speaker is not None
        and scan.in_post(doc[cue.speaker[0]].idx, doc[cue.speaker[1] - 1].idx + 1)
    ):
        return None  # an embedded post's text or signature names no speaker outside it
    return cue


def _nickname(scan: _Scan, seg: Segment) -> bool:
    """'Rep. Robert C. "Bobby" Scott': quotation marks inside a person's name (the entities
    stage keeps the nickname in the name) set off no one's words."""
    named = scan.people.at(seg.open_start, seg.close_end)
    return (
        named is not None
        and named.is_person
        and named.start < seg.open_start
        and seg.close_end < named.end
    )


def _put_to(scan: _Scan, cue: Cue | None) -> _Person | None:
    """The person a quotation was put to as a question ("Kline asked Lopez"), if any."""
    if cue is None or cue.speaker is None or cue.end - cue.start != 1:
        return None
    verb = scan.doc[cue.start]
    if verb.lemma_.lower() not in ASKING_VERBS:
        return None
    for child in verb.children:
        if child.dep_ in ("dobj", "dative"):
            person = scan.people.at(child.idx, child.idx + len(child))
            if person is not None and person.is_person:
                return person
    return None


def _direct(scan: _Scan, k: int) -> QuoteMention | None:
    """The ``k``-th quoted segment, with its cue and speaker; None when nobody says it."""
    doc, text = scan.doc, scan.text
    (n, seg), rng = scan.segments[k], scan.ranges[k]
    if rng is None:
        return None
    lo = scan.lines[n][0]
    post = scan.in_post(seg.start, seg.end)
    first, last = rng
    if _not_speech(text, seg) or _nickname(scan, seg):
        return None
    cue = None
    if post is None:
        cue = _direct_cue(scan, k, first, last)
        if (
            cue is not None
            and _is_title(doc, first, last)
            and not _says_title(doc, cue, first, last)
        ):
            return None
    speaker: _Speaker | None = None
    cue_chars: tuple[int, int] | None = None
    confidence: float | None = None
    if cue is not None and cue.speaker is not None:
        speaker = scan.resolver.resolve(*cue.speaker, n, lo)
        cue_chars = _cue_chars(doc, cue)
    elif post is None:
        speaker = _carried_on(scan, seg, n)
    if speaker is None and post is None and scan.quote_only(k):
        owner = _named_by_next(scan, n)
        if owner is not None:  # '"…" ¶ Those were the words of Carla Mendes, …'
            speaker = scan.resolver.resolve(*speaker_span(owner), n + 1, scan.lines[n + 1][0])
    if speaker is None and post is None:
        if not scan.quote_only(k):
            return None  # a quoted phrase nobody is said to have said (scare quotes, names)
        # A paragraph that is only a quotation is one, whoever said it: kept, unresolved.
        scan.previous = (n, None)
        return scan.mention(seg.start, seg.end, "direct", lo, unattributed=True)
    if post is None:
        how = cue.how if cue is not None and cue.speaker is not None else "carried"
        ctx = QuoteContext(first, last, n, cue, how, speaker, True, seg.start, seg.end)
        chosen, confidence = scan.choose(ctx)
        speaker = chosen or speaker
    if speaker is not None:
        reporter = scan.reporter_around(seg.start)
        if reporter is not None and reporter.is_person and reporter.name != speaker.name:
            # ("According to Quinn, her manager told her it was "too expensive". ¶ "…," she
            # said"): words quoted inside someone's report leave the reporter speaking
            scan.resolver.spoke(reporter, n)
        else:
            scan.resolver.spoke(speaker, n, _put_to(scan, cue))
        scan.previous = (n, speaker)
    return scan.mention(
        seg.start,
        seg.end,
        "direct",
        lo,
        cue=cue_chars,
        speaker=speaker,
        post=post,
        confidence=confidence,
    )


def find_quotes(
    doc: Doc,
    paragraphs: list[Paragraph],
    posts: list[Post],
    entities: list[Entity],
    text: str | None = None,
    ranker: SpeakerRanker | None = None,
    recorder: list[Recorded] | None = None,
) -> list[QuoteMention]:
    """Direct and indirect quotations in ``doc``; ``text`` is the text it parsed (``Doc.text``
    is rebuilt from the tokens on every access).

    With a ``ranker``, each speaker is its pick among the candidates, with a confidence;
    without, the rules' pick. ``recorder`` collects every quotation's candidates and feature
    rows (what training reads).
    """
    scan = _Scan(
        doc, doc.text if text is None else text, paragraphs, posts, entities, ranker, recorder
    )
    # Direct and reported speech in text order, so a pronoun meets the speakers before it.
    n_segments = len(scan.segments)
    events: list[tuple[int, int, int | _Reported]] = [
        (seg.start, k, k) for k, (_, seg) in enumerate(scan.segments)
    ]
    events.extend((r.verb.idx, n_segments, r) for r in _reported_speech(scan))
    events.sort(key=lambda e: (e[0], e[1]))
    found: list[QuoteMention | _Later] = []
    for _, _, item in events:
        one = _indirect(scan, item) if isinstance(item, _Reported) else _direct(scan, item)
        if one is not None:
            found.append(one)
    return one_per_span(scan.settle(found))


def _better(q: QuoteMention, kept: QuoteMention) -> bool:
    """Whether ``q`` is better attested than ``kept`` (the same span): a resolved speaker over
    an unresolved one, then the clearly higher confidence, then the earlier cue (a quotation
    with no cue last). A document named as the speaker counts as resolved."""
    if _resolved(q) != _resolved(kept):
        return _resolved(q)
    new, old = q.speaker_confidence, kept.speaker_confidence
    if new is not None and old is not None and abs(new - old) > CONFIDENCE_MARGIN:
        return new > old
    if (new is None) != (old is None):
        return new is not None
    return _cue_order(q) < _cue_order(kept)


def _resolved(q: QuoteMention) -> bool:
    return q.speaker is not None or q.speaker_kind == "document"


def _cue_order(q: QuoteMention) -> tuple[bool, int]:
    return q.cue_start is None, q.cue_start or 0


def one_per_span(found: Sequence[QuoteMention]) -> list[QuoteMention]:
    """One quotation per article span, in text order: when two cues report the same words
    ("X happened, according to a statement …, Roe said"), the better-attested one
    (``_better``), the first found on a tie."""
    best: dict[tuple[int, int], QuoteMention] = {}
    for q in found:
        kept = best.get((q.start, q.end))
        if kept is None or _better(q, kept):
            best[(q.start, q.end)] = q
    return sorted(best.values(), key=lambda q: (q.start, q.end))
