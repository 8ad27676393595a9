"""Who said it: cue words and speakers on the dependency parse (pure helpers, no stage).

Given a quoted token range, ``find_cue`` looks, in order, for a speech verb that governs the
quote (``Roe said the deal was "a disaster"``), a speech verb the quote governs (``"…," Roe
said`` parsed as parataxis), the nearest speech verb in the quote's sentences that has a
subject, ``according to X``, and ``X: "…"``. ``speaker_span`` turns the cue's subject into
the span the text names, without asides (``Roe, who joined in 2019, said`` gives ``Roe``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from spacy.tokens import Doc, Token

from ..text.datelines import line_dateline
from ..text.names import is_role_noun

# Lemmas of verbs that introduce speech or writing (general English).
SPEECH_VERBS = frozenset(
    {
        "say",
        "tell",
        "add",
        "write",
        "state",
        "claim",
        "note",
        "explain",
        "argue",
        "insist",
        "ask",
        "reply",
        "respond",
        "answer",
        "continue",
        "declare",
        "announce",
        "admit",
        "acknowledge",
        "warn",
        "recall",
        "suggest",
        "call",
        "describe",
        "tweet",
        "post",
        "quip",
        "joke",
        "remark",
        "observe",
        "comment",
        "report",
        "testify",
        "predict",
        "promise",
        "vow",
        "complain",
        "charge",
        "contend",
        "maintain",
        "assert",
        "allege",
        "concede",
        "conclude",
        "confirm",
        "deny",
        "emphasize",
        "emphasise",
        "stress",
        "urge",
        "shout",
        "yell",
        "scream",
        "cry",
        "exclaim",
        "whisper",
        "mutter",
        "boast",
        "brag",
        "lament",
        "read",
        "begin",
        "start",
        "agree",
        "disagree",
        "counter",
        "retort",
        "fire",
        "interject",
        "confide",
        "question",
        "rule",
        "proclaim",
        "pledge",
        "caution",
        "advise",
        "opine",
        "posit",
        "reason",
        "muse",
        "wonder",
        "recount",
        "reiterate",
        "repeat",
        "concur",
        "demand",
        "plead",
        "beg",
        "thank",
        "praise",
        "criticize",
        "criticise",
        "blast",
        "slam",
        "attack",
        "mock",
        "accuse",
        "dub",
        "label",
        "brand",
        "term",
        "chant",
        "sing",
        "preach",
        "lecture",
        "inform",
        "assure",
        "reassure",
        "signal",
        "indicate",
        "hint",
        "imply",
        "cite",
        "quote",
        "summarize",
        "summarise",
        "put",
        "speculate",
        "theorize",
        "theorise",
        "estimate",
        "calculate",
        "believe",
        "think",
        "feel",
        "fear",
        "hope",
        "know",
    }
)
# Cues that attribute only when their clause clearly is speech (think/believe... need a that-
# clause, not a bare object); used for indirect attributions, never to name a direct speaker
# by proximity alone.
# Verbs that report speech only with their particle: "pointed out", "chimed in", "shot back"
# ("point" or "shoot" alone is no cue).
PHRASAL_SPEECH_VERBS = frozenset(
    {
        ("point", "out"),
        ("chime", "in"),
        ("cut", "in"),
        ("break", "in"),
        ("butt", "in"),
        ("weigh", "in"),
        ("pipe", "up"),
        ("shoot", "back"),
        ("go", "on"),
        ("carry", "on"),
        ("hit", "back"),
        ("sound", "off"),
    }
)
# Phrasal verbs that report speech only when finite ('"…," she went on'), not as a
# progressive ("talks have been going on for a year").
FINITE_PHRASAL_LEMMAS = frozenset({"go", "carry"})
PHRASAL_LEMMAS = frozenset(verb for verb, _ in PHRASAL_SPEECH_VERBS)
# Verbs of how something is said ("she laughs", "he shrugs"), and "remembers": a cue only
# right after the quotation, where nothing else can be their words ('"…," she laughs.').
MANNER_VERBS = frozenset(
    {
        "laugh",
        "chuckle",
        "giggle",
        "smile",
        "grin",
        "sigh",
        "shrug",
        "nod",
        "sob",
        "gush",
        "enthuse",
        "marvel",
        "scoff",
        "grumble",
        "beam",
        "wince",
        "remember",
        "fume",
        "rage",
        "seethe",
        "snap",
        "gasp",
        "sneer",
        "growl",
        "snarl",
        "groan",
    }
)
WEAK_VERBS = frozenset(
    {"believe", "think", "feel", "fear", "hope", "know", "put", "read", "begin", "start"}
)
# Nouns that name a speech act ("in a statement", "in an interview").
SPEECH_NOUNS = frozenset(
    {
        "statement",
        "article",
        "editorial",
        "ad",
        "advertisement",
        "commercial",
        "video",
        "response",
        "reply",
        "answer",
        "comment",
        "remark",
        "announcement",
        "warning",
        "interview",
        "remarks",
        "speech",
        "tweet",
        "post",
        "letter",
        "memo",
        "email",
        "message",
        "release",
        "op-ed",
        "column",
        "essay",
        "report",
        "complaint",
        "filing",
        "lawsuit",
        "ruling",
        "testimony",
        "appearance",
        "conversation",
        "address",
        "press",
        "briefing",
        "conference",
        "podcast",
        "broadcast",
        "document",
        "transcript",
    }
)
# Nouns for something said that the quotation can be the content of ("Cole's claim that the
# line would be "finished early"", "her promise to "never close a school""): its owner speaks.
SAID_NOUNS = SPEECH_NOUNS | frozenset(
    {
        "claim",
        "assertion",
        "insistence",
        "promise",
        "pledge",
        "vow",
        "boast",
        "suggestion",
        "accusation",
        "allegation",
        "argument",
        "prediction",
        "admission",
        "denial",
        "contention",
        "description",
        "characterization",
        "characterisation",
    }
)
# Verbs whose object is the one spoken to ("told Doe", "asked him", "assured the court"), and
# whose passive subject is too ("she was told").
ADDRESSEE_VERBS = frozenset(
    {"tell", "ask", "inform", "assure", "reassure", "thank", "urge", "warn", "advise", "beg"}
)
# Speech verbs whose object is the one spoken of ("accused Roe of lying"): in the passive,
# their subject is that one, never the speaker.
TARGET_VERBS = frozenset(
    {
        "accuse",
        "attack",
        "brand",
        "call",
        "charge",
        "criticise",
        "criticize",
        "describe",
        "dub",
        "label",
        "mock",
        "praise",
        "slam",
    }
)
# Tokens a wire dateline's place, region, date and credit may take before its separator
# ("WASHINGTON --", "LONDON, March 3 (Reuters) -").
DATELINE_REACH = 16
# Tags of a finite verb (one that has a subject of its own).
FINITE_TAGS = frozenset({"VBD", "VBZ", "VBP"})
# Subjects that never say anything themselves ("it was labeled 'Mostly True'").
NON_SPEAKER_SUBJECTS = frozenset({"it", "this", "that", "there", "what", "which", "you"})
# Nouns for the people and bodies that get quoted without a name ("a source", "officials").
SPEAKER_NOUNS = SPEECH_NOUNS | frozenset(
    {
        "official",
        "source",
        "critic",
        "supporter",
        "opponent",
        "campaign",
        "group",
        "committee",
        "team",
        "staff",
        "member",
        "people",
        "voter",
        "resident",
        "expert",
        "observer",
        "insider",
        "ad",
        "advertisement",
        "study",
        "survey",
        "poll",
        "website",
        "site",
        "paper",
        "newspaper",
        "book",
        "agency",
        "department",
        "court",
        "tribunal",
        "panel",
        "jury",
        "inquiry",
        # bodies that issue statements ("according to the union", "the council said")
        "union",
        "council",
        "government",
        "administration",
        "ministry",
        "company",
        "firm",
        "club",
        "police",
        "party",
        "board",
        "charity",
        "hospital",
        "university",
        "airline",
        "bank",
        "regulator",
        "watchdog",
        "federation",
        "association",
        "authority",
        "office",
        "commission",
        "broadcaster",
        "campaigner",
        "organiser",
        "organizer",
    }
)
SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass", "csubj"})
# Quoted words that only say how someone acted ("the ad "wrongly and plainly" suggests"):
# adverbs and the conjunctions between them, never what was said.
MANNER_POS = frozenset({"ADV", "CCONJ"})
# Dependents that are asides, not part of the speaker's name.
ASIDE_DEPS = frozenset(
    {"relcl", "acl", "advcl", "punct", "cc", "conj", "parataxis", "prep", "appos"}
)
# How far (in tokens) a quote may sit from a cue verb found only by proximity within its
# sentences: about one long news sentence; further away the verb belongs to another statement.
# Not searched over.
MAX_CUE_DISTANCE = 25
# Clause levels climbed from a speech verb to the verb that reports it ("said [the club had
# agreed [...]]"); two covers a reported clause and one clause inside it.
REPORT_CLIMB = 2
# Clause levels climbed from a speech verb without a subject to the one that has it ("Roe
# went on to say", "adding that"): three covers the chains news sentences use; a longer climb
# reaches an unrelated clause. Not searched over.
SUBJECT_CLIMB = 3
# Heads climbed from a quoted token to the words it hangs from (the quote's governors): four
# reaches the speech verb through a complementiser, a conjunct and an auxiliary chain.
GOVERNOR_HOPS = 4
# A name the parser failed to attach to a cue verb is taken from at most this many tokens
# right before or after the verb ("…,” said Tulsa police Chief Jordan."): a long title and a
# name; more is a clause.
MAX_NAME_TOKENS = 8
# That fallback only for a cue verb within this many tokens of the quote (its closing mark,
# a comma, the verb): further away, an unattached noun is no speaker.
NAME_FALLBACK_DISTANCE = 3

# How a cue was found, in the order ``find_cue`` tries (``signature``: quotes.py's layout cue).
CueHow = Literal["governs", "governed", "near", "according", "colon", "verb", "signature"]


@dataclass
class Cue:
    start: int  # token range of the cue words
    end: int
    speaker: tuple[int, int] | None  # token range of the speaker span
    how: CueHow


def is_speech_verb(token: Token) -> bool:
    if token.pos_ not in ("VERB", "AUX"):
        return False
    lemma = token.lemma_.lower()
    if lemma in SPEECH_VERBS:
        return True
    if lemma not in PHRASAL_LEMMAS or token.i + 1 >= len(token.doc):
        return False
    return is_particle_of(token.doc[token.i + 1], token)


def is_particle_of(word: Token, verb: Token) -> bool:
    """``word`` right after ``verb`` is the particle that makes it a speech verb ("pointed
    out"). The parse labels it a particle, an adverb ("shot back") or a preposition with no
    object ("chimed in:"), so the word, its place and its head decide."""
    return (
        word.head.i == verb.i
        and (verb.lemma_.lower(), word.lower_) in PHRASAL_SPEECH_VERBS
        and not any(c.dep_ == "pobj" for c in word.children)
        and not any(_to_clause(c) for c in verb.children)  # "went on to win the race"
        and (verb.tag_ in FINITE_TAGS or verb.lemma_.lower() not in FINITE_PHRASAL_LEMMAS)
    )


def _to_clause(token: Token) -> bool:
    return token.dep_ in ("xcomp", "advcl") and any(
        c.dep_ == "aux" and c.lower_ == "to" for c in token.children
    )


def same_paragraph(a: Token, b: Token) -> bool:
    """No line break between two tokens (the parser sometimes links across paragraphs)."""
    lo, hi = sorted((a.i, b.i))
    return lo == hi or "\n" not in a.doc[lo:hi].text_with_ws  # each token and its space


def could_speak(token: Token) -> bool:
    """Whether a subject names someone who can be quoted (not "the chance", "money")."""
    return word_could_speak(token.lower_, token.pos_, token.ent_type_, token.lemma_)


def word_could_speak(lower: str, pos: str, ent_type: str, lemma: str) -> bool:
    """``could_speak`` from a token's lower-case form, part of speech, entity type and lemma
    (as read from a table of them, without a Token)."""
    if lower in NON_SPEAKER_SUBJECTS or not any(ch.isalnum() for ch in lower):
        return False  # (a "." the tagger read as a proper noun: "Sens. Rand Paul")
    if pos == "PROPN" or ent_type in ("PERSON", "ORG", "GPE", "NORP"):
        return True
    if pos == "PRON":
        return lower in ("he", "she", "they", "we", "i", "who")
    return lemma.lower() in SPEAKER_NOUNS or is_role_noun(lemma)


def antecedent(token: Token) -> Token:
    """The noun a relative pronoun stands for ("Roe, who said" -> Roe; "a statement that,
    while …, accused": the tagger may read "that" as a conjunction, and the parse the clause
    as the noun's acl)."""
    if token.tag_ in ("WP", "WDT") and token.head.dep_ == "relcl":
        return token.head.head
    clause = token.head
    if (
        token.lower_ in ("that", "which", "who")
        and token.dep_ in SUBJECT_DEPS
        and clause.dep_ in ("relcl", "acl")
        and clause.tag_ in FINITE_TAGS
        and clause.head.pos_ in ("NOUN", "PROPN")
    ):
        return clause.head
    return token


def subject_of(verb: Token, quoted: list[bool] | None = None, depth: int = 0) -> Token | None:
    """The subject of a speech verb, climbing through 'adding', 'went on to say', 'who said'.

    Subjects inside quotation marks (``quoted``) are the quote's own words, not its speaker.
    """
    children = list(verb.children)
    subjects = [
        c
        for c in children
        if c.dep_ in SUBJECT_DEPS
        and not (quoted and quoted[c.i])
        and not c.is_punct  # ("Sens. Rand Paul": the parse may make the "." a subject)
        and same_paragraph(c, verb)
    ]
    lemma = verb.lemma_.lower()
    spoken_of = (
        lemma in TARGET_VERBS and depth == 0 and any(c.dep_ == "nsubjpass" for c in subjects)
    )
    # "was told", "after being told": passive, so its subject (said or climbed to) was told
    # (a word of the quotation the parse hangs on the verb is no part of it)
    told = lemma in ADDRESSEE_VERBS and any(
        c.dep_ in ("nsubjpass", "auxpass") and not (quoted and quoted[c.i]) for c in children
    )
    if lemma in ADDRESSEE_VERBS or spoken_of:
        # "she was told": the subject of a passive tell/ask is the one spoken to; "Ministers
        # were accused of 'betraying' farmers", "he was branded a 'liar'": the one spoken of
        # (but "The mayor was criticised for calling them 'thugs'": he called them that).
        subjects = [c for c in subjects if c.dep_ != "nsubjpass"]
    if subjects and all(c.dep_ == "csubj" and c.tag_ == "VBG" for c in subjects):
        # "Sentencing Paul Dench, 52, Judge Helen Marsh said": the parse may make the opening
        # participle clause the subject, with the name before the verb hung inside it.
        stranded = stranded_name(verb, quoted)
        if stranded is not None:
            return stranded
    if subjects:
        # "who" in "Roe, who said ..." is resolved to Roe by the caller. Several subjects are
        # a misparse ("Her co-star Tom Berger said" as co / - / Berger): a name wins, else
        # the last part of a hyphenated word ("His co-author, Professor Mei Lin, said").
        # With two names, the one nearest the verb ("Sentencing Paul Dench, 52, Judge Helen
        # Marsh said": the first name is the participle's object).
        named = next((c for c in reversed(subjects) if c.ent_type_ == "PERSON"), None)
        if named is None and len(subjects) > 1:
            # ("Health board chair Dame Helen Okafor has said": the model may miss the name)
            named = next((c for c in subjects if c.pos_ == "PROPN"), None)
        if named is not None:
            return named
        first = subjects[0]
        while first.i + 2 < len(first.doc) and not first.whitespace_:
            nxt = first.doc[first.i + 1]
            if nxt not in subjects or nxt.whitespace_ or first.doc[first.i + 2] not in subjects:
                break
            first = first.doc[first.i + 2]  # across "co" "-" "author"
        return named_in_apposition(first) or named_after_roles(first) or first
    for child in children:
        if child.dep_ == "agent":  # "was quoted by Roe", "she was told by her lawyer"
            for obj in child.children:
                if obj.dep_ == "pobj":
                    return obj
    if spoken_of or told:
        # only a "by …" names who spoke of them ("was called 'reckless' by Roe": the parse
        # may hang it on the words said) or to them; no one above does ("When Roe was told
        # she had won, she wept": Roe did not tell herself)
        return _by_whom(verb)
    inverted = _inverted_subject(verb, quoted)
    if inverted is not None:
        return inverted
    for child in children:
        if child.dep_ == "npadvmod" and in_dateline(child):
            # "WASHINGTON -- President Tom Hale, …, said": the name set off after the place
            named = next((c for c in child.children if c.dep_ == "appos" and could_speak(c)), None)
            if named is not None:
                return named
    speaking = _participle_owner(verb, quoted) or _subject_of_predicate_before(verb, quoted)
    if speaking is not None:
        return speaking
    nominal = (
        _determined_subject(verb, quoted)
        or stranded_name(verb, quoted)
        or _subject_before_break(verb, quoted)
    )
    if nominal is not None:
        return nominal
    above = verb.head
    if verb.dep_ == "pcomp" and above.dep_ == "prep" and above.head.pos_ in ("VERB", "AUX"):
        if above.lower_ == "as":
            # "The Courier quoted her as saying", "cited officials as saying": the one
            # quoted said it, not the one quoting
            quoted_one = next((c for c in above.head.children if c.dep_ == "dobj"), None)
            if quoted_one is not None and not (quoted and quoted[quoted_one.i]):
                return quoted_one
        above = above.head  # "was criticised for calling them …": through the preposition
    if (
        depth < SUBJECT_CLIMB
        and verb.dep_ in ("xcomp", "advcl", "conj", "ccomp", "pcomp")
        and above.i != verb.i
        and not (quoted and quoted[above.i])
    ):
        return subject_of(above, quoted, depth + 1)
    if verb.dep_ == "acl" and verb.head.pos_ in ("NOUN", "PROPN"):
        noun = verb.head
        if verb.tag_ == "VB" and depth:
            # "has defended plans to close three hospitals, saying …": climbed to, an
            # infinitive on the object is the plan, not a doer; the one who did something
            # with it said it
            if noun.dep_ == "dobj" and depth < SUBJECT_CLIMB:
                return subject_of(noun.head, quoted, depth + 1)
            return None
        return noun  # "a spokesman, speaking on condition...", "authority to call"
    return None


def reports_after_predicate(verb: Token) -> tuple[Token, Token] | None:
    """'Coach quits after defeat, says players "gave everything"': a headline's second
    predicate, with no subject of its own, which the parse reads as reporting the first one.
    The clause before it (whose subject speaks) and the clause it reports, after it."""
    before = after = None
    for c in verb.children:
        if c.dep_ in SUBJECT_DEPS:
            return None
        if c.dep_ == "ccomp":
            if c.i < verb.i and before is None:
                before = c
            elif c.i > verb.i:
                after = c
    if before is None or after is None or before.right_edge.i + 2 != verb.i:
        return None
    return (before, after) if verb.doc[verb.i - 1].text == "," else None


def _subject_of_predicate_before(verb: Token, quoted: list[bool] | None) -> Token | None:
    """The subject a speech verb shares with the predicate before it
    (``reports_after_predicate``)."""
    found = reports_after_predicate(verb)
    if found is None:
        return None
    return next(
        (
            c
            for c in found[0].children
            if c.dep_ == "nsubj"
            and c.tag_ not in ("WP", "WDT")  # ("Roe, who sits …, said": a misparse of "who")
            and not (quoted and quoted[c.i])
            and could_speak(c)
        ),
        None,
    )


def named_in_apposition(noun: Token) -> Token | None:
    """'Outside court, one of his victims, retired plumber Ken Matthews, said': the parse may
    make a word for no person ("court") the subject and hang the speaker on it in apposition,
    directly or through "one of …". The person named there speaks."""
    if noun.pos_ != "NOUN" or is_role_noun(noun.lemma_):
        return None
    for appos in noun.children:
        if appos.dep_ != "appos":
            continue
        if _person_name(appos):
            return appos
        if appos.pos_ in ("NUM", "PRON"):
            for inner in appos.children:
                if inner.dep_ == "appos" and _person_name(inner):
                    return inner
    return None


def _person_name(word: Token) -> bool:
    """A word of a person's name: tagged so, or a proper noun the small model left untagged
    ("one of his victims, Edna Price, 83,"), never one it calls a body or a place."""
    return word.ent_type_ == "PERSON" or (word.pos_ == "PROPN" and not word.ent_type_)


def _by_whom(verb: Token) -> Token | None:
    """The object of a "by" on a passive verb or on its complement."""
    for child in verb.children:
        near = [child] + ([] if child.dep_ == "agent" else list(child.children))
        for by in near:
            if by.lower_ == "by" and by.dep_ in ("agent", "prep"):
                obj = next((c for c in by.children if c.dep_ == "pobj"), None)
                if obj is not None:
                    return obj
    return None


def _inverted_subject(verb: Token, quoted: list[bool] | None) -> Token | None:
    """'"How big is it?" asked the boy': a speech verb right after the closing mark, with no
    subject, puts its speaker after it; the parse may read that noun as the one asked (dobj)."""
    if not quoted or verb.tag_ not in FINITE_TAGS:
        return None
    doc = verb.doc
    k = verb.i - 1
    while k >= 0 and doc[k].is_punct and not doc[k].is_quote:
        k -= 1  # ('"…", asked')
    if k < 1 or not doc[k].is_quote or not quoted[k - 1]:
        return None  # the verb does not follow a quotation's closing mark
    for child in verb.rights:
        if child.left_edge.i == verb.i + 1:
            if child.dep_ in ("dobj", "dative", "npadvmod", "attr") and child.pos_ in (
                "NOUN",
                "PROPN",
            ):
                return _named_after(child) or child
            break
    return None


def _named_after(noun: Token) -> Token | None:
    """'asked the captain, Leo Marsh.': a name set off by a comma after a description and
    ending its clause, which the parse may hang from the verb rather than the noun."""
    doc = noun.doc
    comma = noun.right_edge.i + 1
    if comma + 1 >= len(doc) or doc[comma].text != ",":
        return None
    end = comma + 1
    while end < len(doc) and doc[end].pos_ == "PROPN":
        end += 1
    if end == comma + 1 or (end < len(doc) and not doc[end].is_punct):
        return None
    name = doc[end - 1]
    return name if name.head.i in (noun.i, noun.head.i) else None


def _determined_subject(verb: Token, quoted: list[bool] | None) -> Token | None:
    """'"…," the 52-year-old said': the parse may hang "the" and "old" straight from the verb
    (as det and amod) and give it no subject. A verb has no determiner, so one before it marks
    a noun phrase the parse split: its last word before the verb heads the subject."""
    lefts = [c for c in verb.lefts if not (quoted and quoted[c.i]) and not c.is_punct]
    if not any(c.dep_ == "det" for c in lefts):
        return None
    last = lefts[-1]
    if last.pos_ in ("ADJ", "NOUN", "PROPN", "NUM") and same_paragraph(last, verb):
        return last
    return None


def named_after_roles(noun: Token) -> Token | None:
    """'Festival director and founder Alice Moreau said', 'co-founder and CEO Maya Okoye
    said': the parse may make the first of two roles stacked before one name the subject and
    join the name to it by "and". With no determiner on either, and a role word right before
    the name, the roles are that person's."""
    if noun.pos_ != "NOUN" or not is_role_noun(noun.lemma_):
        return None
    if any(c.dep_ in ("det", "poss") for c in noun.children):
        return None  # ("The mayor and Tom Roe said": two people)
    for conj in noun.children:
        if conj.dep_ != "conj" or conj.pos_ != "PROPN" or conj.ent_type_ != "PERSON":
            continue
        lefts = list(conj.lefts)
        if any(c.dep_ in ("det", "poss") for c in lefts):
            return None
        if any(c.dep_ == "compound" and is_role_noun(c.text) for c in lefts):
            return conj
    return None


# Parts of speech of a word that may be a verb's subject.
_NOMINAL_TAGS = frozenset({"NOUN", "PROPN", "PRON"})


def stranded_name(verb: Token, quoted: list[bool] | None) -> Token | None:
    """'In the village of Elm Cross, pensioner Doris Whitlow, 81, said …': the parse may read
    the name as a preposition's object and leave the verb without a subject. A name that ends
    right before the verb in its sentence (an age set off by commas aside) is its subject."""
    if verb.tag_ not in FINITE_TAGS:  # "…, saying": a participle's subject is its clause's
        return None
    doc = verb.doc
    k = verb.i - 1
    while k >= verb.sent.start and _set_off(doc[k]):
        k -= 1
    if k < verb.sent.start:
        return None
    name = doc[k]
    if name.ent_type_ not in ("PERSON", "ORG") or name.head.i == verb.i:
        return None
    if (quoted and quoted[name.i]) or not same_paragraph(name, verb):
        return None
    return name


def _subject_before_break(verb: Token, quoted: list[bool] | None) -> Token | None:
    """'A spokeswoman for the group, Earth First Now, said:': the parser may end a sentence
    inside a name, with no stop at the break, and leave the verb without its subject. When
    no noun comes before the verb in its sentence and the sentence before, in the same
    paragraph, ends without a stop and has no verb, the noun heading that one is the
    subject."""
    if verb.tag_ not in FINITE_TAGS:
        return None
    doc, start = verb.doc, verb.sent.start
    if start == 0 or any(t.pos_ in _NOMINAL_TAGS for t in doc[start : verb.i]):
        return None
    before = doc[start - 1]
    if before.is_punct or before.is_space or "\n" in before.whitespace_:
        return None
    sent = before.sent
    root = sent.root
    if root.pos_ not in ("NOUN", "PROPN") or any(t.pos_ in ("VERB", "AUX") for t in sent):
        return None
    if (quoted and quoted[root.i]) or not could_speak(root):
        return None
    return root


def verb_after_name(name: Token) -> Token | None:
    """The verb right after a name (an age set off by commas aside): "Doris Whitlow, 81, said"."""
    doc = name.doc
    for k in range(name.i + 1, len(doc)):
        token = doc[k]
        if not _set_off(token):
            return token if token.pos_ in ("VERB", "AUX") else None
    return None


def _set_off(token: Token) -> bool:
    """Punctuation, or an age in apposition: what stands between a name and its verb in
    "Doris Whitlow, 81, said"."""
    return token.is_punct or (token.like_num and token.dep_ == "appos")


def _participle_owner(verb: Token, quoted: list[bool] | None) -> Token | None:
    """'footage of Roe asking, "…"', 'heard Roe saying': the one who can speak right before a
    speech participle the parse hung from the clause's verb (its subject is someone else)."""
    if verb.tag_ != "VBG" or verb.dep_ not in ("xcomp", "advcl") or verb.i == 0:
        return None
    before = verb.doc[verb.i - 1]
    if before.dep_ not in ("pobj", "dobj") or (quoted and quoted[before.i]):
        return None
    if before.pos_ not in ("NOUN", "PROPN") or not could_speak(before):
        return None
    return before


def in_dateline(token: Token) -> bool:
    """'WASHINGTON -- President Obama … said': a word of the dateline place that opens its line
    (text/datelines.py reads the line; the parse may make the place a verb's subject)."""
    if not token.is_upper:
        return False
    doc = token.doc
    first = token.i
    while first > 0 and not _line_break_before(doc, first):
        first -= 1
        if token.i - first > DATELINE_REACH:
            return False  # too far into its line to be a dateline's word
    words = doc[first : min(token.i + DATELINE_REACH, len(doc))]
    place = line_dateline("".join(t.text_with_ws for t in words))
    offset = token.idx - doc[first].idx
    return place is not None and place[0] <= offset < place[1]


def _line_break_before(doc: Doc, i: int) -> bool:
    before = doc[i - 1]
    return "\n" in before.whitespace_ or (before.is_space and "\n" in before.text)


def owner_span(owner: Token) -> tuple[int, int]:
    """``speaker_span`` of a possessor, without its possessive ending (Roe / 's)."""
    first, last = speaker_span(owner)
    while last - 1 > first and owner.doc[last - 1].tag_ == "POS":
        last -= 1
    return first, last


def speaker_span(subject: Token) -> tuple[int, int]:
    """Token range of the subject's phrase, without asides (relative clauses, appositions).

    A subject that cannot speak with a name in apposition gives the name (a date marker or
    dateline parsed as the subject: "date 2021-03-14 PARIS • Jane Roe said").
    """
    if not could_speak(subject) or in_dateline(subject):
        named = next((c for c in subject.children if c.dep_ == "appos" and could_speak(c)), None)
        if named is not None and same_paragraph(named, subject):
            subject = named
    left = subject.i
    right = subject.i + 1
    for child in subject.lefts:
        if child.dep_ not in ASIDE_DEPS and ":" not in child.text:  # (a liveblog's "23:50")
            left = min(left, child.left_edge.i)
    for child in subject.rights:
        if (
            child.dep_ in ASIDE_DEPS
            and not (child.dep_ == "prep" and child.lower_ in ("for", "of", "at", "to"))
        ) or child.dep_ == "advmod":  # "Desai again:"
            break
        right = max(right, child.right_edge.i + 1)
    doc = subject.doc
    # A hyphenated word the parse split ("His co-author": co / - / author): all of it.
    while left >= 2 and doc[left - 1].text == "-" and not doc[left - 1].whitespace_:
        if doc[left - 2].whitespace_:
            break
        left = doc[left - 2].left_edge.i
    # ... and after it ("the mother-of-two": mother / - / of / - / two).
    while (
        right + 1 < len(doc)
        and doc[right].text == "-"
        and not doc[right - 1].whitespace_
        and not doc[right].whitespace_
        and doc[right + 1].is_alpha
    ):
        right += 2
    # Never across a line break, nor a comma: words before a comma that the parse hung on the
    # subject are another phrase ("In the village of Elm Cross, pensioner Doris Whitlow").
    first = left
    words = list(doc[first:right])  # each ``doc[k]`` builds a new Token: read them once
    for k in range(subject.i - 1, left - 1, -1):
        token = words[k - first]
        if "\n" in token.whitespace_ or "\n" in token.text or token.text == ",":
            left = k + 1
            break
    for k in range(subject.i, right - 1):
        token = words[k - first]
        if "\n" in token.whitespace_ or "\n" in token.text:
            right = k + 1
            break
        if token.text == "," and words[k + 1 - first].tag_ in ("WP", "WDT"):
            right = k  # "One of the rescued men, who did not want to be named,": an aside
            break
    while right - 1 > left and _blank(words[right - 1 - first]):
        right -= 1
    while left < right - 1 and _blank(words[left - first]):
        left += 1
    return left, right


def _blank(token: Token) -> bool:
    return token.is_punct or token.is_space


def according_to(tokens: list[Token]) -> tuple[Token, Token] | None:
    """('according', its object) for the first 'according to X' among ``tokens``; likewise
    ('words', X) for 'in the words of X' and 'in X's words'."""
    for token in tokens:
        lower = token.lower_
        if lower == "according":
            for child in token.children:
                if child.lower_ == "to":
                    for obj in child.children:
                        if obj.dep_ == "pobj":
                            return token, obj
        elif lower == "words" and token.dep_ == "pobj" and token.head.lower_ == "in":
            for child in token.children:
                if child.dep_ == "poss" and child.pos_ in ("PROPN", "NOUN"):
                    return token, child  # "in Roe's words"
                if child.lower_ == "of":
                    for obj in child.children:
                        if obj.dep_ == "pobj":
                            return token, obj  # "in the words of one violinist"
    return None


def _governors(
    doc: Doc,
    q_first: int,
    q_last: int,
    frame: tuple[int, int],
    quoted: list[bool],
    heads: Sequence[int] | None = None,
) -> Iterator[Token]:
    """Tokens outside the quote that it hangs from, nearest first (GOVERNOR_HOPS steps up).
    ``heads[i]`` is ``doc[i].head.i`` when the caller has read them (no Token per word)."""
    lo, hi = frame
    seen: set[int] = set()
    for i in range(q_first, q_last):
        h = heads[i] if heads is not None else doc[i].head.i
        if q_first <= h < q_last or h in seen:
            continue
        head = doc[h]
        for _ in range(GOVERNOR_HOPS):
            if quoted[head.i] or not lo <= head.i < hi or head.i in seen:
                break
            seen.add(head.i)
            yield head
            if head.i == head.head.i:
                break
            head = head.head


def _person_before(verb: Token, lo: int, quoted: list[bool]) -> Token | None:
    """The last word of a person's name before ``verb`` in [lo, verb) outside quotations: the
    teller of a 'telling' whose subject the parse lost ("In a recording obtained by the
    Ledger, Simon Hart can be heard telling …" hangs Hart from the Ledger)."""
    for k in range(verb.i - 1, lo - 1, -1):
        token = verb.doc[k]
        if token.ent_type_ == "PERSON" and not quoted[k]:
            return token  # scanning back, a name's last word comes first
    return None


def _name_before(doc: Doc, verb: Token, lo: int, quoted: list[bool]) -> tuple[int, int] | None:
    """A mis-parsed '”, Tulsa police Chief Jordan said': the noun phrase just before the verb."""
    j = verb.i
    while (
        j - 1 >= lo
        and not quoted[j - 1]
        and not doc[j - 1].is_punct
        and verb.i - j < MAX_NAME_TOKENS
    ):
        j -= 1
    words = doc[j : verb.i]
    if len(words) and any(t.pos_ in ("PROPN", "NOUN", "PRON") for t in words):
        return j, verb.i
    return None


def _name_after(doc: Doc, verb: Token, hi: int, quoted: list[bool]) -> tuple[int, int] | None:
    """'…,” said Tulsa police Chief Jordan.': the noun phrase right after the verb."""
    j = verb.i + 1
    while j < hi and not quoted[j] and not doc[j].is_punct and j - verb.i <= MAX_NAME_TOKENS:
        if doc[j].pos_ in ("VERB", "ADP") and j > verb.i + 1:
            break
        j += 1
    words = doc[verb.i + 1 : j]
    if len(words) and any(t.pos_ == "PROPN" for t in words):
        return verb.i + 1, j
    return None


def _after_closing_comma(doc: Doc, q_last: int, hi: int) -> int | None:
    """The first word after a quotation that ends in a comma ('"…," the Ledger reported'),
    past its closing marks; None when the quotation ends otherwise or nothing follows."""
    k = q_last
    while k < hi and doc[k].is_punct:
        k += 1
    return k if k < hi and "," in doc[q_last - 1 : k].text else None


def _inverted_after(doc: Doc, q_last: int, hi: int, quoted: list[bool]) -> Cue | None:
    """'"Hands off our library," read a banner': right after a quotation closed by a comma,
    a speech verb whose subject the parse found inside the quotation, and a noun phrase right
    after the verb that the parse took for its object: that phrase says it (never after a
    verb whose object is the one spoken to: '"…," told the court')."""
    k = _after_closing_comma(doc, q_last, hi)
    if k is None or quoted[k]:
        return None
    verb = doc[k]
    if not is_speech_verb(verb) or verb.lemma_.lower() in ADDRESSEE_VERBS:
        return None
    if any(c.dep_ in SUBJECT_DEPS and not quoted[c.i] for c in verb.children):
        return None
    obj = next((c for c in verb.rights if c.dep_ == "dobj" and c.pos_ == "NOUN"), None)
    if obj is None or obj.left_edge.i != verb.i + 1 or quoted[obj.i]:
        return None
    # (the verb governs the quotation, in the parse as in the sentence: its speaker is settled)
    return Cue(k, k + 1, (k + 1, obj.i + 1), "governs")


def _reporting_verb(verb: Token, quoted: list[bool]) -> Token:
    """The speech verb that reports the clause ``verb`` stands in: in 'Roe said the club had
    agreed that he could leave for a "serious offer"', Roe said the quoted words, not the
    club. ``verb`` itself when no such verb governs it (at most REPORT_CLIMB steps up)."""
    head = verb
    for _ in range(REPORT_CLIMB):
        if head.dep_ != "ccomp" or head.head.i == head.i or quoted[head.head.i]:
            break
        head = head.head
        if head.i > verb.i:
            break  # '"…?" she said, but … Melanie said yes': a later verb reports nothing here
        if is_speech_verb(head) and head.lemma_.lower() not in WEAK_VERBS:
            if subject_of(head, quoted) is not None and same_paragraph(head, verb):
                return head
            break
    return verb


def _reporter_instead(
    verb: Token, subject: Token, q_first: int, q_last: int, quoted: list[bool]
) -> Cue | None:
    """The cue of the one who reports ``verb``'s clause, when the quoted words are the
    reporter's own rather than ``verb``'s subject's; None when they are the subject's.

    Nested speech ("Roe said Doe told her "…"", "Roe said the company had called it "…"")
    gives the quote to the inner speaker, but not when that subject is a word that never
    speaks ("Roe said it would tell a story, one of "…"") or when the
    quoted words only say how the inner verb acted ("Roe said the ad "wrongly" suggests …"):
    such words are the reporter's characterisation.
    """
    if subject.lower_ not in NON_SPEAKER_SUBJECTS and not _only_manner(verb.doc, q_first, q_last):
        return None
    reporting = _reporting_verb(verb, quoted)
    if reporting is verb:
        return None
    outer = subject_of(reporting, quoted)
    if outer is None or not could_speak(antecedent(outer)):
        return None
    return Cue(reporting.i, reporting.i + 1, speaker_span(outer), "governs")


def _only_manner(doc: Doc, q_first: int, q_last: int) -> bool:
    """Whether the quoted tokens are adverbs (and the conjunctions between them) only."""
    adverb = False
    for token in doc[q_first:q_last]:  # (stops at the first word that is not of manner)
        if token.is_punct:
            continue
        if token.pos_ not in MANNER_POS:
            return False
        adverb = adverb or token.pos_ == "ADV"
    return adverb


def _adjacent_attribution(doc: Doc, q_last: int, hi: int, quoted: list[bool]) -> Cue | None:
    """'…," Hollis jokes.', '…," she laughs.', '…," laughs Hollis.': a name or pronoun and a
    word of saying, right after the quotation and alone in their clause, which the speech
    verbs do not find: a verb of manner, or a present-tense speech verb the tagger read as a
    plural noun ("Hollis jokes" as a noun phrase)."""
    k = q_last
    while k < hi and doc[k].is_punct:
        k += 1
    if k >= hi or quoted[k]:
        return None
    name = k
    while name < hi and doc[name].pos_ == "PROPN" and not quoted[name]:
        name += 1
    if name == k and doc[k].lower_ in _ADJACENT_PRONOUNS:
        name = k + 1
    if name == k and doc[k].lower_ == "the":  # '"…," the 58-year-old fumed.'
        name = k + 1
        while name < min(hi, k + _ADJACENT_PHRASE) and not quoted[name]:
            word = doc[name]
            if _says_how(word) or not (word.pos_ in _PHRASE_POS or word.text == "-"):
                break
            name += 1
        if name == k + 1:
            name = k
    if name > k:  # the speaker first: "Hollis jokes", "she laughs"
        verb, speaker = name, (k, name)
    else:  # the verb first: "laughs Hollis"
        verb, end = k, k + 1
        while end < hi and doc[end].pos_ == "PROPN" and not quoted[end]:
            end += 1
        speaker = (k + 1, end)
    if verb >= hi or speaker[0] == speaker[1] or not _says_how(doc[verb]):
        return None
    after = max(verb, speaker[1] - 1) + 1
    if after < len(doc) and not (doc[after].is_punct or doc[after].pos_ == "ADV"):
        return None  # "Roe jokes about it often": a clause of its own
    return Cue(verb, verb + 1, speaker, "near")


def _relative_speech_at_colon(doc: Doc, colon: int, lo: int, quoted: list[bool]) -> Cue | None:
    """'Adeyemi describes a meeting at which the prime minister told ministers: "…"': the
    parse hangs the quotation on the main verb, but the colon (token ``colon``, the last mark
    before the quotation) closes a relative clause whose speech verb, with a subject of its
    own (not "who": "reporters who had asked about it:"), introduces it; the quotation is
    that subject's, reported inside the other's words."""
    if colon <= lo or doc[colon].text != ":":
        return None
    verb = doc[colon - 1]
    while verb.dep_ != "relcl" and verb.head.i != verb.i and lo <= verb.head.i < colon:
        verb = verb.head
    if verb.dep_ != "relcl" or not is_speech_verb(verb) or verb.lemma_.lower() in WEAK_VERBS:
        return None
    subject = subject_of(verb, quoted)
    if subject is None or subject.lower_ in ("who", "that", "which", "whom"):
        return None
    return Cue(verb.i, verb.i + 1, speaker_span(subject), "governs")


def report_after(doc: Doc, q_last: int, hi: int, quoted: list[bool]) -> Cue | None:
    """'…," the Ledger reported.': a speech verb whose subject opens the words right after
    the quotation."""
    k = _after_closing_comma(doc, q_last, hi)
    if k is None or doc[k].is_sent_start:
        return None  # ('"…." He pledged …': a sentence of its own)
    for v in range(k + 1, min(hi, k + _ADJACENT_PHRASE)):
        verb = doc[v]
        if quoted[v] or not is_speech_verb(verb):
            continue
        subject = subject_of(verb, quoted)
        if subject is not None and subject.left_edge.i == k and subject.i < v:
            return Cue(v, v + 1, speaker_span(subject), "near")
        return None
    return None


# Subjects read right after a quotation by ``_adjacent_attribution``.
_ADJACENT_PRONOUNS = frozenset({"he", "she", "they", "i", "we"})
# ... and the words of a described subject there ("the 58-year-old"): at most this many.
_ADJACENT_PHRASE = 7
_PHRASE_POS = frozenset({"NUM", "ADJ", "NOUN", "PROPN"})


# How the parse hangs a "to" on its verb ("said to the crowd": prep; "gave it to them": dative).
TO_DEPS = frozenset({"prep", "dative"})


def _audience_speaker(named: Token, quoted: list[bool]) -> Token | None:
    """The subject of the clause when ``named`` is the one it is said to ("said to the
    crowd", "gave a statement to reporters"), if that subject can speak."""
    if named.dep_ != "pobj" or named.head.lower_ != "to" or named.head.dep_ not in TO_DEPS:
        return None
    governor = named.head.head
    verb = governor if governor.pos_ in ("VERB", "AUX") else _clause_verb(governor)
    subject = subject_of(verb, quoted) if verb is not None else None
    return subject if subject is not None and could_speak(subject) else None


def _reports_own_clause(verb: Token, quoted: list[bool]) -> bool:
    """Whether a speech verb after a quotation reports a clause of its own, outside any
    quotation, after it ("Banda said he was happy"): then the quotation before is not its."""
    return any(c.dep_ == "ccomp" and c.i > verb.i and not quoted[c.i] for c in verb.children)


def _says_how(token: Token) -> bool:
    """A verb of manner ("laughs"), or a speech verb tagged as a plural noun ("jokes")."""
    lemma = token.lemma_.lower()
    if token.pos_ == "VERB":
        return lemma in MANNER_VERBS
    if token.tag_ == "NN" and token.lower_.endswith("ed"):
        # "the 58-year-old fumed" read as one noun phrase: the past tense's stem
        stems = (token.lower_[:-1], token.lower_[:-2])
        return any(stem in MANNER_VERBS or stem in SPEECH_VERBS for stem in stems)
    return token.tag_ == "NNS" and (lemma in SPEECH_VERBS or lemma in MANNER_VERBS)


def find_cue(
    doc: Doc,
    q_first: int,
    q_last: int,
    frame: tuple[int, int],
    quoted: list[bool],
    heads: Sequence[int] | None = None,
    speech_verbs: Sequence[bool] | None = None,
    is_named: Callable[[Token], bool] | None = None,
) -> Cue | None:
    """The cue and speaker for the quote in tokens [q_first, q_last), looking in ``frame``.

    ``quoted[i]`` is True for tokens inside any quotation (cues there are the speaker's own
    words, not attribution). ``heads`` and ``speech_verbs``, when given, are every token's
    head index and ``is_speech_verb`` read once for the article; ``is_named`` says whether a
    word is in a person's name the article gives (a surname the tagger read as a common noun
    can speak: "Nunes pressed again: '…'").
    """
    lo, hi = frame
    governors = list(_governors(doc, q_first, q_last, frame, quoted, heads))
    # The last mark before the quotation's opening quote mark (a colon that opens it?).
    opened = q_first - 1
    while opened > lo and (doc[opened].is_quote or doc[opened].is_space):
        opened -= 1
    at_colon = _relative_speech_at_colon(doc, opened, lo, quoted)
    # 1. A speech verb outside the quote that the quote hangs from.
    for k, head in enumerate(governors):
        if is_speech_verb(head) and head.lemma_.lower() not in WEAK_VERBS:
            if at_colon is not None and at_colon.start > head.i:
                return at_colon
            if head.dep_ == "relcl" and head.i < q_first:
                # 'The four "gaps" he cited are "…," the Ledger reported': a speech verb in a
                # relative clause before the quotation describes a noun; a report right after
                # the quotation is what says it.
                after = report_after(doc, q_last, hi, quoted)
                if after is not None:
                    return after
            subject = subject_of(head, quoted)
            if subject is not None:
                reporter = _reporter_instead(head, subject, q_first, q_last, quoted)
                if reporter is not None:
                    return reporter
                return Cue(head.i, head.i + 1, speaker_span(subject), "governs")
        if head.lower_ == "according":
            found = according_to([head])
            if found is not None:
                return Cue(head.i, head.i + 1, speaker_span(found[1]), "according")
        said_by = _owner_of_said(head, q_first)
        if said_by is not None and not any(
            is_speech_verb(up) and up.lemma_.lower() not in WEAK_VERBS for up in governors[k + 1 :]
        ):  # ("Carson said Clinton's claim that …": the one reporting it speaks)
            return Cue(head.i, head.i + 1, said_by, "governs")
    # 2. Right after the quotation, a verb the parse or the speech verbs miss ('…," Roe
    # jokes', '…," she laughs'), then the nearest speech verb in the quote's sentences.
    # (not after a colon that opens the quotation: 'Nunes pressed: "…?" Obi smiled.')
    adjacent = (
        None
        if doc[opened].text == ":"
        else _adjacent_attribution(doc, q_last, hi, quoted)
        or _inverted_after(doc, q_last, hi, quoted)
    )
    if adjacent is not None:
        return adjacent
    candidates: list[tuple[int, Token]] = []
    for i in range(lo, hi):
        if quoted[i] or not (speech_verbs[i] if speech_verbs else is_speech_verb(doc[i])):
            continue
        distance = q_first - i if i < q_first else i - q_last + 1
        candidates.append((distance, doc[i]))
    candidates.sort(key=lambda c: (c[0], c[1].i < q_first))
    for distance, verb in candidates:
        if distance > MAX_CUE_DISTANCE:
            break
        if verb.lemma_.lower() in WEAK_VERBS and not q_first <= verb.head.i < q_last:
            continue
        how: CueHow = "governed" if q_first <= verb.head.i < q_last else "near"
        if how == "near" and verb.i >= q_last and _reports_own_clause(verb, quoted):
            continue  # '"…" Banda said he was happy': "said" reports its own clause
        if how == "near":
            verb = _reporting_verb(verb, quoted)
        subject = subject_of(verb, quoted)
        if subject is not None:
            return Cue(verb.i, verb.i + 1, speaker_span(subject), how)
        if distance <= NAME_FALLBACK_DISTANCE:
            span = _name_after(doc, verb, hi, quoted) if verb.i > q_last else None
            span = span or (_name_before(doc, verb, lo, quoted) if verb.i >= q_last else None)
            if span is not None:
                return Cue(verb.i, verb.i + 1, span, how)
    # 3. according to X
    found = according_to([doc[i] for i in range(lo, hi) if not quoted[i]])
    if found is not None:
        return Cue(found[0].i, found[0].i + 1, speaker_span(found[1]), "according")
    # 4. X: "…"
    j = q_first - 1
    while j > lo and (doc[j].is_quote or doc[j].is_space):
        j -= 1
    before = j - 1
    if before > lo and doc[before].pos_ == "ADV" and doc[before - 1].pos_ == "PROPN":
        before -= 1  # "Desai again: '…'", "Roe later: '…'"
    if before > lo and doc[before].dep_ == "acomp" and doc[before].head.lemma_ == "be":
        # "His final words to listeners were simple: '…'": said of the words, whose owner
        # speaks (as in "His verdict: '…'")
        # ("The sign at the entrance was blunt: '…'" has no owner: nobody speaks)
        said_of = next((c for c in doc[before].head.children if c.dep_ == "nsubj"), None)
        if (
            said_of is not None
            and said_of.pos_ == "NOUN"
            and lo <= said_of.i
            and any(c.dep_ == "poss" for c in said_of.children)
        ):
            before = said_of.i
    if j > lo and doc[j].text == ":" and doc[before].pos_ in ("PROPN", "NOUN", "PRON"):
        named = doc[before]
        if named.dep_ in ("dobj", "dative") and named.head.lemma_.lower() in ADDRESSEE_VERBS:
            # "Hart can be heard telling Dunn: '…'": the one told never speaks.
            teller = subject_of(named.head, quoted) or _person_before(named.head, lo, quoted)
            if teller is None:
                return None
            return Cue(named.head.i, named.head.i + 1, speaker_span(teller), "colon")
        audience = _audience_speaker(named, quoted)
        if audience is not None:
            # "Reyes gave a statement to reporters: '…'": those spoken to never speak
            return Cue(j, j + 1, speaker_span(audience), "colon")
        if named.dep_ == "appos" and named.head.pos_ == "PROPN" and named.head.i < named.i:
            # "Anne Lyle, Harrogate: '…'", "Tom Hale, Acme CEO: '…'": what is set off after
            # a name (a reader's town, a role) describes the one who speaks.
            named = named.head
        phrase = named  # the head of the phrase before the colon ("advice to voters")
        while (
            phrase.dep_ == "pobj"
            and phrase.head.dep_ == "prep"
            and phrase.head.head.pos_ == "NOUN"
            and phrase.head.head.i < j
        ):
            phrase = phrase.head.head
        owner = next((c for c in phrase.children if c.dep_ == "poss"), None)
        if owner is not None and phrase.pos_ == "NOUN" and not could_speak(phrase):
            # "Her verdict: '…'", "Roe's advice to voters: '…'": the words are the owner's;
            # a possessive pronoun's owner is its clause's subject when it has one ("The
            # board was conclusive in its findings: '…'").
            if owner.pos_ == "PRON":
                clause = _clause_verb(phrase)
                subject = subject_of(clause, quoted) if clause is not None else None
                if subject is not None and could_speak(subject):
                    owner = subject
            if owner.lower_ == "its":  # ("its headline:" with no subject: the phrase stays)
                owner = phrase
            return Cue(j, j + 1, owner_span(owner), "colon")
        if not could_speak(named) and named.dep_ in ("dobj", "pobj", "attr", "appos"):
            # "Obama is rolling out a new message: '…'", "The board was conclusive in its
            # findings: '…'" — the subject of the clause the phrase is in.
            clause = _clause_verb(named)
            subject = subject_of(clause, quoted) if clause is not None else None
            if subject is not None and could_speak(subject):
                named = subject
        return Cue(j, j + 1, speaker_span(named), "colon")
    if j > lo and doc[j].text == ":":
        # "Mensah shot back: '…'", "She was blunt: '…'": a clause about someone who can
        # speak, ending in the colon that opens the quotation, introduces their words.
        verb = doc[j - 1]
        if verb.pos_ in ("ADP", "PART", "ADV", "ADJ"):
            verb = verb.head
        if verb.pos_ in ("VERB", "AUX") and lo <= verb.i < j:
            subject = subject_of(verb, quoted)
            if subject is not None and not could_speak(subject):
                # "One of them, Peter Holm, 78, puts it simply: '…'": the name set off
                subject = next(
                    (c for c in subject.children if c.dep_ == "appos" and could_speak(c)), subject
                )
            if (
                subject is not None
                and subject.dep_ != "nsubjpass"
                and (
                    (subject.pos_ in ("PROPN", "PRON") or subject.ent_type_ == "PERSON")
                    and could_speak(subject)
                    or (is_named is not None and is_named(subject))
                )
            ):
                return Cue(verb.i, verb.i + 1, speaker_span(subject), "colon")
            if (
                subject is not None
                and verb.lemma_ == "be"
                and subject.lemma_.lower() in SPEECH_NOUNS
                and any(c.dep_ == "poss" for c in subject.children)
            ):
                # "Marsh's response was: '…'": the words are the response, hers.
                return Cue(verb.i, verb.i + 1, speaker_span(subject), "colon")
    # 5. Any verb the quote hangs from, with a subject ("Roe likened it to a 'snake'").
    for head in governors:
        if head.pos_ == "VERB" and head.lemma_ not in ("be", "have", "do"):
            subject = subject_of(head, quoted)
            if (
                subject is not None
                and subject.dep_ != "nsubjpass"
                and (could_speak(subject) or (is_named is not None and is_named(subject)))
            ):
                return Cue(head.i, head.i + 1, speaker_span(subject), "verb")
    return None


def _owner_of_said(noun: Token, q_first: int) -> tuple[int, int] | None:
    """The owner of something said whose content the quotation is ("seized on Cole's claim
    that the line would be '…'", "his promise to '…'"): the words are theirs. Without an owner
    ("the claim that …") nobody is named here; a quotation that only qualifies the thing said
    ("called Roe's remarks 'toxic'") is not its content."""
    if noun.pos_ != "NOUN" or noun.lemma_.lower() not in SAID_NOUNS:
        return None
    via = noun.doc[q_first]  # the noun's child the quotation hangs from
    while via.head.i != noun.i and via.head.i != via.i:
        via = via.head
    if via.head.i != noun.i:
        return None
    if via.dep_ not in ("acl", "ccomp", "appos") and not (
        via.dep_ == "prep" and via.lower_ in ("of", "to")
    ):
        return None
    owner = next((c for c in noun.children if c.dep_ == "poss"), None)
    if owner is None or not (could_speak(owner) or owner.lower_ in ("his", "her")):
        return None
    return owner_span(owner)


def _clause_verb(word: Token) -> Token | None:
    """The nearest verb above ``word`` in the parse: the clause it is in."""
    return next((a for a in word.ancestors if a.pos_ in ("VERB", "AUX")), None)


def cue_before_colon(doc: Doc, lo: int, hi: int, quoted: list[bool]) -> Cue | None:
    """'Trump said:' closing a paragraph: the last speech verb there with a subject."""
    for i in range(hi - 1, lo - 1, -1):
        token = doc[i]
        if not quoted[i] and is_speech_verb(token):
            subject = subject_of(token, quoted)
            if subject is not None:
                return Cue(i, i + 1, speaker_span(subject), "colon")
    return None
