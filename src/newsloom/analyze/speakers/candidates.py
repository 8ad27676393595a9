"""Candidate speakers of one quotation, and the numbers the trained ranker reads about each.

The candidates are every phrase near the quotation that could name its speaker: the rules'
own pick (attribution.py), the people and organisations the entities stage found, pronouns,
noun phrases headed by a speaker or role noun ("the minister", "officials"), the issuer of a
statement ("a statement from the ministry"), the subject of any speech verb, and the previous
quotation's speaker. Each is resolved (a pronoun to its antecedent, a description to the
person of that role or age) before it is described, so the ranker compares who they are, not
only the words. The features are structural (dependency relations to the cue, distances,
kinds of words) and never lists of names: they carry to outlets the model never read.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import accumulate
from typing import TYPE_CHECKING, NamedTuple

from spacy.tokens import Doc, Token

from ...models import SpeakerKind
from ...text.datelines import line_dateline
from ...text.described import stated_age
from ...text.names import is_person_noun, is_role_noun
from ..attribution import (
    ADDRESSEE_VERBS,
    NON_SPEAKER_SUBJECTS,
    SPEECH_NOUNS,
    SUBJECT_DEPS,
    TARGET_VERBS,
    WEAK_VERBS,
    Cue,
    could_speak,
    is_speech_verb,
    report_after,
)
from .tokens import GROUP, PRONOUN_KINDS, PRONOUNS, TokenTable

if TYPE_CHECKING:
    from ..quotes import _Scan, _Speaker

# Prepositions whose object is spoken to or about ("said to reporters", "wrote about Roe").
ADDRESSEE_PREPS = frozenset({"to", "at", "about", "toward", "towards", "with"})
# Prepositions that name who issued a statement ("a statement from the ministry").
ISSUER_PREPS = frozenset({"from", "by", "of"})
# Entity labels of phrases that never speak ("the next few weeks", "its latest figures").
NOT_AGENTS = frozenset(
    {"DATE", "TIME", "MONEY", "PERCENT", "CARDINAL", "QUANTITY", "ORDINAL", "EVENT"}
)
# How the rules found the quotation's cue (attribution.CueHow), plus "carried" (no cue: the
# previous speaker carried on) and "none".
CUE_HOWS = ("governs", "governed", "near", "according", "colon", "verb", "signature", "carried")
# Distances past these are all "far" (tokens, sentences); the ranker needs no finer grain.
MAX_TOKEN_DISTANCE = 80
MAX_SENTENCE_DISTANCE = 4
# Candidates further than this many tokens from the quotation are left out unless the rules
# picked them or they spoke the previous quotation: on PolNeAR train, 3 right speakers in
# 6,786 quotations lie further, and leaving them out saves 30% of the scoring.
MAX_CANDIDATE_DISTANCE = 40
KEPT_FAR = frozenset({"rule", "previous", "previous_own"})
# Paragraph lines looked back for candidates (the quote's own and the one before).
LINES_BACK = 1
# Cues whose speaker the syntax settles: the subject (or agent) of the very speech verb the
# quotation hangs from ("governs"; reported speech "Roe said that …" always is). Such a
# quotation's candidates are the phrases of the sentences from its cue and speaker to its
# words, not the paragraph before's: on PolNeAR train the ranker then learns from the same
# rows it meets at run time, and the dev speaker figures do not drop (docs/benchmarks.md,
# "The quotes stage: speakers the syntax settles"). On generated articles reported speech
# keeps 1.1 candidates of 8.6, direct quotations (settled or not) 2.8 of 7.7.
SETTLED_HOWS = frozenset({"governs"})

# The kinds a pronoun candidate has, named or not.
PRONOUN_KIND_NAMES = frozenset(PRONOUN_KINDS.values())
KINDS = (
    "person",
    "org",
    "place",
    "he_she",
    "they_we",
    "i",
    "it",
    "speaker_noun",
    "role_noun",
    "speech_noun",
    "propn",
    "other",
)
DEPS = ("nsubj", "nsubjpass", "dobj", "dative", "pobj", "appos", "poss", "compound", "conj")

FEATURES: tuple[str, ...] = (
    "rule_pick",
    "rule_none",
    *(f"how_{h}" for h in CUE_HOWS),
    "direct",
    "previous_speaker",
    "previous_own",
    "outside_window",
    "previous_lines_ago",
    "token_distance",
    "before_quote",
    "sentence_distance",
    "line_distance",
    "at_line_start",
    "subject_of_cue",
    "object_of_cue",
    "cue_addressee_verb",
    "cue_weak_verb",
    "addressee",
    "subject_of_speech_verb",
    "object_of_speech_verb",
    "subject_of_any_verb",
    "in_quote_sentence_clause",
    *(f"kind_{k}" for k in KINDS),
    *(f"dep_{d}" for d in DEPS),
    "resolved_named",
    "resolved_person",
    "resolved_differs",
    "resolved_unique_role",
    "mentions_in_article",
    "first_mention_order",
    "could_speak",
    "issuer",
    "plural",
    "quote_opens_line",
    "quote_tokens",
    "people_in_line",
    "people_in_previous_line",
    "candidates",
    "distance_rank",
    "same_name_candidates",
    "speech_verbs_between",
    "quotes_between",
    "path_quote_up",
    "path_candidate_up",
    "path_none",
    "path_top_speech",
    "path_top_verb",
    "path_subject_of_top",
    "path_speech_on_quote_side",
    "subject_of_highest_speech",
    "subject_of_lowest_speech",
    "owns_path_word",
    "on_quote_chain",
    "speech_verb_below_on_chain",
    "quote_in_relative_clause",
    "subject_of_nearest_verb",
    "agent_of_speech_verb",
)
INDEX = {name: i for i, name in enumerate(FEATURES)}
# Columns the row builder writes for every candidate (a name each, read without a lookup).
_RULE_PICK = INDEX["rule_pick"]
_PREVIOUS_SPEAKER = INDEX["previous_speaker"]
_PREVIOUS_OWN = INDEX["previous_own"]
_OUTSIDE_WINDOW = INDEX["outside_window"]
_TOKEN_DISTANCE = INDEX["token_distance"]
_DISTANCE_RANK = INDEX["distance_rank"]
_SAME_NAME_CANDIDATES = INDEX["same_name_candidates"]
_RESOLVED_NAMED = INDEX["resolved_named"]
_RESOLVED_PERSON = INDEX["resolved_person"]
_RESOLVED_DIFFERS = INDEX["resolved_differs"]
_RESOLVED_UNIQUE_ROLE = INDEX["resolved_unique_role"]
_MENTIONS_IN_ARTICLE = INDEX["mentions_in_article"]
_FIRST_MENTION_ORDER = INDEX["first_mention_order"]
_ISSUER = INDEX["issuer"]
_SENTENCE_DISTANCE = INDEX["sentence_distance"]
_LINE_DISTANCE = INDEX["line_distance"]
_COULD_SPEAK = INDEX["could_speak"]
_AT_LINE_START = INDEX["at_line_start"]
_PLURAL = INDEX["plural"]
_ADDRESSEE = INDEX["addressee"]
_SUBJECT_OF_SPEECH_VERB = INDEX["subject_of_speech_verb"]
_OBJECT_OF_SPEECH_VERB = INDEX["object_of_speech_verb"]
_SUBJECT_OF_ANY_VERB = INDEX["subject_of_any_verb"]
_AGENT_OF_SPEECH_VERB = INDEX["agent_of_speech_verb"]
_BEFORE_QUOTE = INDEX["before_quote"]
_SUBJECT_OF_CUE = INDEX["subject_of_cue"]
_OBJECT_OF_CUE = INDEX["object_of_cue"]
_SUBJECT_OF_NEAREST_VERB = INDEX["subject_of_nearest_verb"]
_IN_QUOTE_SENTENCE_CLAUSE = INDEX["in_quote_sentence_clause"]
_SPEECH_VERBS_BETWEEN = INDEX["speech_verbs_between"]
_QUOTES_BETWEEN = INDEX["quotes_between"]


@dataclass
class Candidate:
    """One phrase that may name the speaker, resolved, with where it sits."""

    speaker: _Speaker
    first: int  # token range of its words; -1 for a previous speaker named elsewhere
    last: int
    flags: set[str] = field(default_factory=set)
    # Who it resolves to (candidates naming one person pool their evidence).
    key: str = field(init=False)

    def __post_init__(self) -> None:
        self.key = self.speaker.entity_id or self.speaker.name.casefold()


@dataclass
class QuoteContext:
    """What the features read about the quotation itself."""

    first: int  # its tokens
    last: int
    line: int  # its paragraph line
    cue: Cue | None
    how: str  # a CUE_HOWS entry or "none"
    rule: _Speaker | None
    direct: bool
    start: int  # its characters (what training matches to the gold)
    end: int


def _issuer(head: Token) -> Token | None:
    """'a statement from the ministry', 'the ministry's statement': who issued a speech noun."""
    if head.lemma_.lower() not in SPEECH_NOUNS:
        return None
    for child in head.children:
        if child.dep_ == "poss":
            return child
        if child.dep_ == "prep" and child.lower_ in ISSUER_PREPS:
            for obj in child.children:
                if obj.dep_ == "pobj" and could_speak(obj):
                    return obj
    return None


def _addressed(t: TokenTable, i: int) -> bool:
    """The one spoken to (object of tell/ask, or of 'to' after a speech verb), or spoken of
    in the passive ("Ministers were accused of …")."""
    head, dep = t.head[i], t.dep[i]
    if dep in ("dobj", "dative", "nsubjpass") and t.lemma[head].lower() in ADDRESSEE_VERBS:
        return True  # "told Doe", "she was told"
    if dep == "nsubjpass" and t.lemma[head].lower() in TARGET_VERBS:
        return True  # "he was branded a 'liar'"
    if dep == "pobj" and t.lower[head] in ADDRESSEE_PREPS:
        verb = t.head[head]
        return t.speech_verb[verb]
    return False


class _Phrase(NamedTuple):
    """What a candidate phrase's words are, whatever the quotation: its head word, where that
    sits, how it attaches to its verb, and the features these alone give."""

    head: int
    sent: int
    line: int
    verb: int  # the head word's head
    subject: bool  # a speaking subject of ``verb``
    obj: bool  # its object
    kind: str  # ``TokenTable.word_kind`` of the head
    place: bool  # the head is tagged a place (a named non-person is then a place)
    own: tuple[tuple[int, float], ...]  # (column, value) of the nonzero word-only features


@dataclass(frozen=True)
class _QuoteView:
    """What every candidate of one quotation is compared with: the sentences it sits in, its
    cue verb, and the words it hangs from (``chain``, nearest first, up to the root)."""

    sents: set[int]
    sent_pair: tuple[int, int]  # the sentences of its first and last word
    cue: int  # token index of the cue verb, -1 without a cue
    chain: list[int]
    position: dict[int, int]  # chain word -> its place on the chain
    speech_on_chain: list[int]
    speech_before: list[int]  # speech verbs on the chain below each place
    nearest_verb: int  # the first verb on the chain, -1 without one


class _Counts(NamedTuple):
    """Prefix counts over an article's tokens, for "how many between": speech verbs,
    quotation openings, and words outside quotes (not punctuation or space)."""

    speech: list[int]
    opens: list[int]
    words: list[int]


def _dateline_tokens(scan: _Scan) -> set[int]:
    """The words of the datelines that open the article's paragraphs."""
    out: set[int] = set()
    for lo, hi, _ in scan.lines:
        place = line_dateline(scan.text[lo:hi])
        if place is not None:
            words = scan.offsets.range(lo + place[0], lo + place[1])
            if words is not None:
                out.update(range(*words))
    return out


class CandidateFinder:
    """Gathers and describes one article's candidates (built once per article)."""

    def __init__(
        self,
        scan: _Scan,
        tokens: TokenTable,
        resolve: Callable[[int, int, int, int], _Speaker],
    ) -> None:
        self.scan = scan
        self.resolve = resolve
        self.tokens = t = tokens  # the scan's table of its parse
        self.sent_of = scan.sent_of
        # Mentions per resolved person, and the order people first appear in.
        self.mention_count: dict[str, int] = {}
        self.first_order: dict[str, int] = {}
        for p in scan.people.mentions:
            key = p.entity_id or p.name.casefold()
            self.mention_count[key] = self.mention_count.get(key, 0) + 1
            self.first_order.setdefault(key, len(self.first_order))
        quoted = scan.quoted
        self.speech_verb: list[bool] = [
            verb and not q for verb, q in zip(t.speech_verb, quoted, strict=True)
        ]
        # Read on the first feature row (``_counts``): a quotation with one candidate has none.
        self._counts: _Counts | None = None
        self.people_in_line: dict[int, int] = {}
        self.line_of_token: dict[int, int] = {}
        # (anchor token, first, last, how found) of the phrases that could name a speaker,
        # in order, read sentence by sentence on first use (``_read_sentences``): a
        # quotation whose speaker the syntax settles looks at its own sentences only.
        self.proposals: list[tuple[int, int, int, str]] = []
        self.read = [False] * (len(scan.bounds) - 1)  # sentences whose words were read
        self.covered: set[int] = set()  # words of named mentions (proposed as those)
        self.datelines = _dateline_tokens(scan)  # ("WASHINGTON --" names the place, no one)
        self._entities()
        # What each candidate phrase's words are (``_phrase``), by token range.
        self.phrases: dict[tuple[int, int], _Phrase] = {}

    def counts(self) -> _Counts:
        """The article's prefix counts (``_Counts``), read once."""
        if self._counts is None:
            t, quoted = self.tokens, self.scan.quoted
            opens = [q and (i == 0 or not quoted[i - 1]) for i, q in enumerate(quoted)]
            words = [not (p or s or q) for p, s, q in zip(t.punct, t.space, quoted, strict=True)]
            self._counts = _Counts(
                [0, *accumulate(self.speech_verb)],
                [0, *accumulate(opens)],
                [0, *accumulate(words)],
            )
        return self._counts

    def _entities(self) -> None:
        """The people and organisations the entities stage found, as candidate phrases; their
        words are not proposed again as pronouns or nouns."""
        scan = self.scan
        for p in scan.people.mentions:
            if p.tokens is None or scan.quoted[p.tokens[0]]:
                continue
            start, end = p.tokens
            self.proposals.append((start, start, end, "entity"))
            self.covered.update(range(start, end))
        self.proposals.sort()

    def _read_sentences(self, lo: int, hi: int) -> None:
        """Propose the phrases of the sentences of tokens [lo, hi), and of the sentence after
        them: a speech verb's subject is in its own sentence, or right before it for a
        participle ("footage of Roe asking, …")."""
        first, last = self.sent_of[lo], min(self.sent_of[hi - 1] + 1, len(self.read) - 1)
        for n in range(first, last + 1):
            if not self.read[n]:
                self.read[n] = True
                for item in self._sentence_phrases(n):
                    insort(self.proposals, item)

    def _sentence_phrases(self, n: int) -> list[tuple[int, int, int, str]]:
        """The phrases sentence ``n``'s words propose: pronouns, nouns that could speak or are
        subjects, the issuers of speech nouns, and the subjects of speech verbs."""
        scan, doc, t = self.scan, self.scan.doc, self.tokens
        quoted, covered = scan.quoted, self.covered
        out: list[tuple[int, int, int, str]] = []
        for i in range(scan.bounds[n], scan.bounds[n + 1]):
            if quoted[i]:
                continue
            pos = t.pos[i]
            if i not in covered:
                if pos == "PRON" and t.lower[i] in PRONOUNS:
                    out.append((i, i, i + 1, "pronoun"))
                elif pos in ("NOUN", "PROPN") and t.dep[i] != "compound":
                    if t.lemma[i].lower() in SPEECH_NOUNS:
                        issuer = _issuer(doc[i])
                        if issuer is not None and not quoted[issuer.i]:
                            out.append((i, *scan.speaker_span(issuer), "issuer"))
                    if t.dep[i] in SUBJECT_DEPS or t.could_speak(i):
                        out.append((i, *scan.speaker_span(doc[i]), "noun"))
            if self.speech_verb[i] and t.lemma[i].lower() not in WEAK_VERBS:
                subject = scan.subject_of(doc[i])
                if subject is not None:
                    out.append((subject.i, *scan.speaker_span(subject), "speech_subject"))
        return out

    def window(self, ctx: QuoteContext) -> tuple[int, int]:
        """Tokens [lo, hi) whose phrases are the quotation's candidates: when the syntax
        settles its speaker, the sentences from its cue and speaker to its words, else the
        quotation's paragraph line and the one before."""
        scan = self.scan
        if self.settled(ctx):
            assert ctx.cue is not None
            return self._sentences(ctx, ctx.cue)
        lo_line = max(ctx.line - LINES_BACK, 0)
        lo = scan.line_tokens[lo_line][0]
        hi = scan.line_tokens[ctx.line][1]
        if hi <= lo:
            lo, hi = scan.line_tokens[ctx.line]
        return lo, hi

    @staticmethod
    def settled(ctx: QuoteContext) -> bool:
        """Whether the quotation's speaker is the subject of the speech verb it hangs from
        (``SETTLED_HOWS``), so that its candidates are those of its own sentences."""
        return ctx.cue is not None and ctx.cue.speaker is not None and ctx.how in SETTLED_HOWS

    def _sentences(self, ctx: QuoteContext, cue: Cue) -> tuple[int, int]:
        """The sentences from a quotation's cue and speaker to its words, clipped to its
        paragraph line."""
        sent_of, bounds = self.sent_of, self.scan.bounds
        ends = [ctx.first, max(ctx.last - 1, ctx.first), cue.start]
        if cue.speaker is not None:
            ends += [cue.speaker[0], cue.speaker[1] - 1]
        lo = bounds[sent_of[min(ends)]]
        hi = bounds[sent_of[max(ends)] + 1]
        line_lo, line_hi = self.scan.line_tokens[ctx.line]
        return max(lo, line_lo), min(hi, line_hi) if line_hi > line_lo else hi

    def _line_of(self, i: int) -> int:
        """The paragraph line of token ``i`` (``scan.line_of`` of its offset), once per token."""
        found = self.line_of_token.get(i)
        if found is None:
            found = self.line_of_token[i] = self.scan.line_of(self.tokens.idx[i])
        return found

    def _resolve(self, first: int, last: int) -> _Speaker:
        """Who a phrase names, read where it stands (the resolver keeps the answers)."""
        line = self._line_of(first)
        para_start = self.scan.lines[line][0] if line >= 0 else 0
        return self.resolve(first, last, line, para_start)

    def find(self, ctx: QuoteContext, previous: _Speaker | None) -> list[Candidate]:
        scan, doc = self.scan, self.scan.doc
        lo, hi = self.window(ctx)
        found: dict[tuple[int, int], Candidate] = {}

        def add(first: int, last: int, flag: str) -> None:
            if first >= last or scan.quoted[first] or first in self.datelines:
                return
            cand = found.get((first, last))
            if cand is None:
                cand = Candidate(self._resolve(first, last), first, last)
                found[(first, last)] = cand
            cand.flags.add(flag)

        extra: list[Candidate] = []

        def add_speaker(speaker: _Speaker, flag: str) -> None:
            """A speaker already resolved (the rules' pick, the previous quotation's)."""
            span = doc.char_span(speaker.start, speaker.end, alignment_mode="expand")
            if span is not None and len(span) and (span.start, span.end) in found:
                found[(span.start, span.end)].flags.add(flag)
                return
            same = next((c for c in extra if c.speaker.start == speaker.start), None)
            if same is not None:
                same.flags.add(flag)
            elif span is not None and len(span):
                extra.append(Candidate(speaker, span.start, span.end, {flag}))
            else:
                extra.append(Candidate(speaker, -1, -1, {flag}))

        if ctx.cue is not None and ctx.cue.speaker is not None:
            add(*ctx.cue.speaker, "rule")
        if lo < hi:
            self._read_sentences(lo, hi)
        k = bisect_left(self.proposals, (lo,))
        while k < len(self.proposals) and self.proposals[k][0] < hi:
            anchor, first, last, flag = self.proposals[k]
            k += 1
            if ctx.first <= anchor < ctx.last or first < lo or last > hi:
                continue
            add(first, last, flag)
        if ctx.rule is not None and not any("rule" in c.flags for c in found.values()):
            add_speaker(ctx.rule, "rule")
        if previous is not None:
            for c in found.values():
                if c.speaker.name == previous.name:
                    c.flags.add("previous")
            if not self.settled(ctx):  # a settled speaker is in the quotation's sentences
                add_speaker(previous, "previous_own")
        cands = [
            c
            for c in found.values()
            if not c.flags.isdisjoint(KEPT_FAR) or self._distance(ctx, c) <= MAX_CANDIDATE_DISTANCE
        ] + extra
        for c in extra:
            if c.first < lo or c.last > hi:
                c.flags.add("outside")
            if previous is not None and c.speaker.name == previous.name:
                c.flags.add("previous")
        speaking = [c for c in cands if not self._mute(c)]
        return speaking if any("rule" in c.flags for c in speaking) else cands

    def _mute(self, cand: Candidate) -> bool:
        """A word that cannot speak and stands for no one ("it", "this", "what" resolved to
        nothing): not a candidate when the rules named someone who can speak ("Roe said it
        would tell a story, one of "…"": ``attribution.find_cue`` gives the quote to the
        reporter); else the ranker may still pick it, and it is exported unresolved."""
        speaker = cand.speaker
        return (
            cand.last - cand.first == 1
            and speaker.entity_id is None
            and speaker.name == speaker.text
            and speaker.text.lower() in NON_SPEAKER_SUBJECTS
        )

    def features(
        self,
        ctx: QuoteContext,
        cands: Sequence[Candidate],
        previous_lines_ago: int,
    ) -> list[list[float]]:
        scan, t = self.scan, self.tokens
        view = self._view(ctx)
        cue_lemma = t.lemma[view.cue] if view.cue >= 0 else None
        line_lo = scan.line_tokens[ctx.line][0]
        counts = self.counts()
        people_in = self._people_per_line(ctx)
        distances = [self._distance(ctx, c) for c in cands]
        order = sorted(range(len(cands)), key=lambda k: distances[k])
        rank = [0] * len(cands)
        for r, k in enumerate(order):
            rank[k] = r
        keys = [c.key for c in cands]
        same_name = Counter(keys)
        # What every candidate of this quotation shares.
        base = [0.0] * len(FEATURES)
        shared = {
            "rule_none": ctx.rule is None,
            f"how_{ctx.how}": ctx.how in CUE_HOWS,
            "direct": ctx.direct,
            "previous_lines_ago": min(previous_lines_ago, 9),
            "candidates": len(cands),
            # nothing but punctuation and quoted words before it on its line
            "quote_opens_line": counts.words[ctx.first] - counts.words[line_lo] <= 0,
            "quote_tokens": min(ctx.last - ctx.first, 100),
            "people_in_line": people_in[0],
            "people_in_previous_line": people_in[1],
            "cue_addressee_verb": cue_lemma is not None and cue_lemma in ADDRESSEE_VERBS,
            "cue_weak_verb": cue_lemma is not None and cue_lemma in WEAK_VERBS,
            "quote_in_relative_clause": any(t.dep[w] == "relcl" for w in view.chain[:2]),
        }
        for name, value in shared.items():
            if value and name in INDEX:
                base[INDEX[name]] = float(value)
        rows = []
        for k, cand in enumerate(cands):
            # Every candidate feature is written (zeros too): none is among the shared ones.
            row = base.copy()
            flags = cand.flags
            row[_RULE_PICK] = float("rule" in flags)
            row[_PREVIOUS_SPEAKER] = float("previous" in flags)
            row[_PREVIOUS_OWN] = float("previous_own" in flags)
            row[_OUTSIDE_WINDOW] = float("outside" in flags)
            row[_TOKEN_DISTANCE] = float(distances[k])
            row[_DISTANCE_RANK] = float(rank[k])
            key = keys[k]
            row[_SAME_NAME_CANDIDATES] = float(same_name[key])
            speaker = cand.speaker
            named = speaker.entity_id is not None
            row[_RESOLVED_NAMED] = float(named)
            row[_RESOLVED_PERSON] = float(named and speaker.is_person)
            row[_RESOLVED_DIFFERS] = float(speaker.name.casefold() != speaker.text.casefold())
            row[_MENTIONS_IN_ARTICLE] = float(min(self.mention_count.get(key, 0), 20))
            row[_FIRST_MENTION_ORDER] = float(min(self.first_order.get(key, 20), 20))
            row[_ISSUER] = float("issuer" in flags)
            if cand.first < 0:
                row[_SENTENCE_DISTANCE] = float(MAX_SENTENCE_DISTANCE)
                row[_LINE_DISTANCE] = 3.0
                row[INDEX[f"kind_{'person' if speaker.is_person else 'other'}"]] = 1.0
                row[_COULD_SPEAK] = 1.0
                rows.append(row)
                continue
            self._describe(row, ctx, view, cand, named)
            rows.append(row)
        return rows

    def _phrase(self, first: int, last: int) -> _Phrase:
        """What a candidate phrase's words are, whatever the quotation (once per phrase)."""
        found = self.phrases.get((first, last))
        if found is not None:
            return found
        scan, t = self.scan, self.tokens
        head = t.root(first, last)
        dep = t.dep[head]
        line = self._line_of(head)
        verb = t.head[head]
        addressed = _addressed(t, head)
        # "she was told": the passive subject of tell/ask is spoken to, no speaking subject.
        subject = dep in SUBJECT_DEPS and not (addressed and dep == "nsubjpass")
        if not subject and dep == "appos" and verb in self.datelines:
            # "WASHINGTON -- President Obama, …, said": the name set off after a dateline the
            # parse made the verb's subject or modifier is the verb's subject
            verb, subject = t.head[verb], True
        if not subject:
            speaking = self._reduced_speech_verb(head)
            if speaking is None and dep == "dobj":
                speaking = self._quoted_as_saying(verb)
            if speaking is not None:  # "Her neighbour, Johan Berg, chimed in:"
                verb, subject = speaking, True
        elif not self.speech_verb[verb]:
            # "his father used to say:", "went on to say": the subject of the verb the speech
            # verb completes speaks, as the rules climb to it
            verb = next(
                (
                    c.i
                    for c in self.scan.doc[verb].children
                    if c.dep_ == "xcomp" and self.speech_verb[c.i]
                ),
                verb,
            )
        obj = dep in ("dobj", "dative")
        # The features the words alone give (zeros left out: a row starts from zeros there).
        own = [
            (_AT_LINE_START, float(first == scan.line_tokens[line][0])),
            (_COULD_SPEAK, float(t.could_speak(head))),
            (_PLURAL, float(t.tag[head] in ("NNS", "NNPS") or t.lower[head] in GROUP)),
            (_ADDRESSEE, float(addressed)),
            (_SUBJECT_OF_SPEECH_VERB, float(subject and self.speech_verb[verb])),
            (_OBJECT_OF_SPEECH_VERB, float(obj and self.speech_verb[verb])),
            (_SUBJECT_OF_ANY_VERB, float(subject)),
            # "was told by Roe": the one a passive speech verb is said by.
            (
                _AGENT_OF_SPEECH_VERB,
                float(dep == "pobj" and t.dep[verb] == "agent" and self.speech_verb[t.head[verb]]),
            ),
        ]
        if dep in DEPS:
            own.append((INDEX[f"dep_{dep}"], 1.0))
        found = _Phrase(
            head,
            self.sent_of[head],
            line,
            verb,
            subject,
            obj,
            t.word_kind(head),
            t.ent_type[head] in ("GPE", "LOC", "NORP"),
            tuple([(i, v) for i, v in own if v]),
        )
        self.phrases[(first, last)] = found
        return found

    def _quoted_as_saying(self, verb: int) -> int | None:
        """'The Courier quoted her as saying', 'cited officials as saying': the object of the
        verb speaks through the speech verb after its "as" (the rules' subject, too)."""
        for prep in self.scan.doc[verb].children:
            if prep.dep_ == "prep" and prep.lower_ == "as":
                for c in prep.children:
                    if c.dep_ == "pcomp" and self.speech_verb[c.i]:
                        return c.i
        return None

    def _reduced_speech_verb(self, head: int) -> int | None:
        """A speech verb the parse hangs on the noun as a clause of its own ("Her neighbour,
        Johan Berg, chimed in: …" read as a noun with a participle): the noun speaks, unless
        a "by" names who did ("the figure given by the ministry")."""
        for child in self.scan.doc[head].rights:
            if (
                child.dep_ == "acl"
                and child.tag_ in ("VBD", "VBN")
                and self.speech_verb[child.i]
                and not any(c.dep_ in ("agent", "nsubj", "nsubjpass") for c in child.children)
                and not any(c.lower_ == "by" for c in child.children)
            ):
                return child.i
        return None

    def _describe(
        self,
        row: list[float],
        ctx: QuoteContext,
        view: _QuoteView,
        cand: Candidate,
        named: bool,
    ) -> None:
        """The features of a candidate with words in the article: where its head word sits,
        what it is, and how it attaches to the cue and to the words the quotation hangs from."""
        phrase = self._phrase(cand.first, cand.last)
        for i, value in phrase.own:
            row[i] = value
        head, sent, verb, subject = phrase.head, phrase.sent, phrase.verb, phrase.subject
        row[_BEFORE_QUOTE] = float(cand.last <= ctx.first)
        near, far = view.sent_pair
        row[_SENTENCE_DISTANCE] = float(
            min(abs(sent - near), abs(sent - far), MAX_SENTENCE_DISTANCE)
        )
        row[_LINE_DISTANCE] = float(ctx.line - phrase.line)
        kind = phrase.kind
        if named and kind not in PRONOUN_KIND_NAMES:
            kind = "person" if cand.speaker.is_person else "place" if phrase.place else "org"
        row[INDEX[f"kind_{kind}"]] = 1.0
        row[_RESOLVED_UNIQUE_ROLE] = float(named and kind in ("role_noun", "speaker_noun"))
        if view.cue >= 0:
            row[_SUBJECT_OF_CUE] = float(verb == view.cue and subject)
            row[_OBJECT_OF_CUE] = float(verb == view.cue and phrase.obj)
        row[_SUBJECT_OF_NEAREST_VERB] = float(subject and verb == view.nearest_verb)
        row[_IN_QUOTE_SENTENCE_CLAUSE] = float(sent in view.sents)
        self._path(row, head, view, subject)
        a, b = min(cand.last, ctx.last), max(cand.first, ctx.first)
        if a < b:
            counts = self.counts()
            row[_SPEECH_VERBS_BETWEEN] = float(min(counts.speech[b] - counts.speech[a], 5))
            row[_QUOTES_BETWEEN] = float(min(counts.opens[b] - counts.opens[a], 5))

    def _view(self, ctx: QuoteContext) -> _QuoteView:
        """The quotation's sentences, cue verb and the words it hangs from, nearest first, up
        to its sentence's root."""
        scan, t = self.scan, self.tokens
        pair = (self.sent_of[ctx.first], self.sent_of[max(ctx.last - 1, ctx.first)])
        word = t.head[t.root(ctx.first, ctx.last)]
        chain: list[int] = []
        seen: set[int] = set()
        while word not in seen and not ctx.first <= word < ctx.last:
            seen.add(word)
            if not scan.quoted[word]:
                chain.append(word)
            if t.head[word] == word:
                break
            word = t.head[word]
        speech = self.speech_verb
        on_chain = [w for w in chain if speech[w]]
        relative = [w for w in on_chain if t.dep[w] == "relcl" and w < ctx.first]
        if relative:
            # 'The five "failings" she cited are "…," the Courier reported': the parse hung
            # the quotation on a relative clause's speech verb, which nests nothing
            end = scan.bounds[self.sent_of[max(ctx.last - 1, ctx.first)] + 1]
            if report_after(scan.doc, ctx.last, end, scan.quoted) is not None:
                on_chain = [w for w in on_chain if w not in relative]
        return _QuoteView(
            set(pair),
            pair,
            ctx.cue.start if ctx.cue is not None else -1,
            chain,
            {w: k for k, w in enumerate(chain)},
            on_chain,
            [0, *accumulate(w in on_chain for w in chain)],
            next((w for w in chain if t.pos[w] in ("VERB", "AUX")), -1),
        )

    def _path(self, row: list[float], head: int, view: _QuoteView, subject: bool) -> None:
        """Where the candidate meets the words the quotation hangs from: how far up each side
        climbs, what the meeting word is, and how the candidate attaches to it."""
        t, position, chain = self.tokens, view.position, view.chain
        word, up, below = head, 0, head
        seen: set[int] = set()
        while word not in position and word not in seen and up < 8:
            seen.add(word)
            if t.head[word] == word:
                break
            below, word = word, t.head[word]
            up += 1
        if word not in position:
            row[INDEX["path_none"]] = 1.0
            return
        top = word
        at = position[top]
        row[INDEX["on_quote_chain"]] = float(up == 0)
        # "footage of Roe asking, '…'": the speech verb right below the candidate on the chain.
        row[INDEX["speech_verb_below_on_chain"]] = float(
            at >= 1 and self.speech_verb[chain[at - 1]]
        )
        row[INDEX["path_quote_up"]] = float(min(at + 1, 8))
        row[INDEX["path_candidate_up"]] = float(up)
        row[INDEX["path_top_speech"]] = float(self.speech_verb[top])
        row[INDEX["path_top_verb"]] = float(t.pos[top] in ("VERB", "AUX"))
        row[INDEX["path_subject_of_top"]] = float(
            up >= 1 and t.dep[below] in SUBJECT_DEPS and (below != head or subject)
        )
        row[INDEX["path_speech_on_quote_side"]] = float(view.speech_before[at])
        if view.speech_on_chain:
            for name, verb in (
                ("subject_of_highest_speech", view.speech_on_chain[-1]),
                ("subject_of_lowest_speech", view.speech_on_chain[0]),
            ):
                row[INDEX[name]] = float(t.head[head] == verb and subject)
        row[INDEX["owns_path_word"]] = float(t.dep[head] == "poss" and t.head[head] in position)

    def _distance(self, ctx: QuoteContext, cand: Candidate) -> int:
        if cand.first < 0:
            return MAX_TOKEN_DISTANCE
        if cand.last <= ctx.first:
            gap = ctx.first - cand.last
        elif cand.first >= ctx.last:
            gap = cand.first - ctx.last
        else:
            gap = 0
        return min(gap, MAX_TOKEN_DISTANCE)

    def _people_per_line(self, ctx: QuoteContext) -> tuple[int, int]:
        scan = self.scan
        out = []
        for n in (ctx.line, ctx.line - 1):
            if n < 0:
                out.append(0)
                continue
            if n not in self.people_in_line:
                lo, hi = scan.lines[n][0], scan.lines[n][1]
                k = bisect_left(scan.people.starts, lo)
                names = set()
                while k < len(scan.people.mentions) and scan.people.starts[k] < hi:
                    p = scan.people.mentions[k]
                    if p.is_person and not p.quoted:
                        names.add(p.entity_id or p.name)
                    k += 1
                self.people_in_line[n] = len(names)
            out.append(self.people_in_line[n])
        return out[0], out[1]


def _one_of_people(one: Token) -> bool:
    """'one of the rescued men', 'one of her neighbours': one of people who can speak."""
    return any(
        prep.lower_ == "of"
        and any(
            could_speak(obj) or is_person_noun(obj.lemma_, by_ending=False)
            for obj in prep.children
            if obj.dep_ == "pobj"
        )
        for prep in one.children
        if prep.dep_ == "prep"
    )


def speaker_kind(doc: Doc, speaker: _Speaker) -> SpeakerKind:
    """What the chosen speaker is: a named person or organisation, an unnamed group, a
    document, or unknown (a pronoun with no antecedent, a phrase that cannot speak)."""
    if speaker.entity_id is not None:
        return "person" if speaker.is_person else "organisation"
    if speaker.ambiguous:
        return "unknown"
    span = doc.char_span(speaker.start, speaker.end, alignment_mode="expand")
    if span is None or not len(span):
        return "unknown"
    head = span.root
    lower, lemma = head.lower_, head.lemma_.lower()
    if not speaker.is_person and any(c.dep_ == "conj" and c.i < span.end for c in head.children):
        return "group"  # "Jo Hart and Sam Patel said": the people named together
    if lower in PRONOUNS:
        if speaker.name.casefold() == speaker.text.casefold():
            return "unknown"
        if speaker.is_person:
            return "person"
        # "they" standing for "the couple", "residents": an unnamed group
        return "group" if lower in GROUP else "organisation"
    if head.ent_type_ == "PERSON" or (head.pos_ == "NOUN" and stated_age(span.text) is not None):
        return "person"  # "the 29-year-old midfielder": an aged noun is a person
    if head.ent_type_ == "NORP" and head.pos_ == "NOUN":
        return "group" if head.tag_ == "NNS" else "person"  # "the Swede", "the Swedes"
    if head.ent_type_ in ("ORG", "GPE", "NORP"):
        return "organisation"
    if lemma in SPEECH_NOUNS:
        # "the company's statement" resolved to the company that issued it
        return "group" if speaker.name.casefold() != speaker.text.casefold() else "document"
    if head.lower_ == "one" and _one_of_people(head):
        return "person"  # "one of the rescued men"
    if head.tag_ == "NN" and any(c.lower_ == "one" and c.dep_ == "nummod" for c in head.children):
        return "person"  # "one baker, who has worked there for 11 years"
    if head.ent_type_ in NOT_AGENTS:
        return "unknown"
    # "The network said": the subject of a speech verb speaks; a phrase found only beside a
    # colon or near a cue ("her coat", "the menu") must be a word that can speak.
    if head.pos_ == "NOUN" and is_person_noun(lemma, by_ending=False):
        return "group" if head.tag_ == "NNS" else "person"  # "the boy", "two women"
    if not could_speak(head) and not (head.dep_ in SUBJECT_DEPS and is_speech_verb(head.head)):
        return "unknown"
    if head.tag_ in ("NNS", "NNPS"):
        return "group"
    if head.pos_ == "PROPN":
        return "person" if speaker.is_person else "organisation"
    if is_role_noun(lemma) or is_person_noun(lemma, by_ending=False):
        return "person"
    return "group"
