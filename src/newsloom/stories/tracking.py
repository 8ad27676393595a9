"""Tracked quotes: one utterance followed through every story that repeats it.

A story's quotes (``quotes.group_quotes``) line up one utterance's wordings inside the story.
Here each story quote is a *node*, and nodes of different stories that word the same utterance
are joined into one tracked quote, however far apart in time.

Candidates come from fingerprints of each wording: hashed runs of ``SHINGLE`` words, every one
kept (function-word runs too), so two wordings sharing a run of ``SHINGLE`` words share a
fingerprint. Unlike MinHash over whole wordings, this finds a fragment inside a long quote (a
truncation shares little of the long quote's shingle set, but all of its own), down to one run
("makes me smart") or function words only ("not quite there yet"). Wordings too short for a
shingle are keyed whole. Winnowing (the smallest of every two neighbouring runs) and leaving
out function-word runs stored fewer fingerprints (the generated store of 109,206 mentions is
661 MB with them, 824 MB now) but lost such fragments whenever the neighbour's hash was the
smaller one.

Each candidate pair is decided by alignment, as inside a story (``quotes.compare``): *near*
(most words of both in order) or *contained* (the shorter almost contiguously inside the
longer), with most of the shorter wording's content words aligned (``CONTENT_ALIGNED``). A
speaker counts only when it is a name (not "a candidate", not an unresolved "she") that some
cue gives other than through a relative pronoun ("Ryan, who used the same words":
``_relative_only``); a quote with no named speaker whose article names the other quote's
speaker counts as that speaker's (``_vouched``). Guards against false merges:

- two named speakers that are not the same person join only on a long, closely aligned wording
  (an outlet's misattribution of a line, ``MISATTRIBUTED_FLOOR``), or on one of
  ``DOUBTED_FLOOR`` words when one name was only resolved from a pronoun or title that the
  other quote's speaker may be (``_doubted``);
- a short fragment (fewer than ``FRAGMENT_FLOOR`` words) inside a longer quote is a stock phrase
  or slogan as often as a truncation: it joins only when both name the same speaker, and then
  also word for word with few content words ("not quite there yet"), and not when the longer
  wording names a person beside it whom the fragment's sentences do not name though they name
  others (``_said_of_another``: "Rubio is very, very weak on immigration" / Trump called Haley
  "very weak on immigration");
- two speakers that are no person's name agree when they name one person they speak for
  ("One Clinton spokesman", "Some Clinton allies": ``_camp``);
- a quote whose article dates it (``occasions.occasion``) after the other quote's article was
  published is the line said again on a later occasion (``_said_after``);
- a wording that contains two utterances quoted separately elsewhere by one article is a merged
  quote: it joins the utterance it starts with, as a ``merged`` variant, and does not glue the
  two together.

Tracked quotes are the connected components of the decided links, so the result does not depend
on the order stories arrive in (incremental ingest equals batch), and a tracked quote's id is a
hash of its earliest-keyed mention. Every link keeps its evidence: relation and aligned share.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import cached_property

from ..models import (
    ExportQuoteMention,
    Quote,
    QuoteKind,
    Story,
    TrackedLink,
    TrackedMention,
    TrackedQuote,
    TrackedVariant,
    stable_id,
)
from ..text.dates import first_day
from ..text.unionfind import UnionFind
from ..text.words import fold, is_content
from .quotes import (
    MIN_PARTIAL,
    NEAR,
    SHORT_QUOTE,
    UNSCORED_CONFIDENCE,
    VOTE_DECIMALS,
    compare,
    higher_confidence,
    same_speaker,
    tokenise,
    wildcards,
)

SHINGLE = 3  # words per fingerprinted run
# Days an occasion may fall after the other article's publication date and still be the words
# it reported: a date line and a publication date in different time zones differ by one.
OCCASION_SLACK_DAYS = 1
# Contained wordings shorter than this link only when both name the same speaker: a slogan
# ("build the wall") sits inside many different sentences of many speakers.
FRAGMENT_FLOOR = 8
# Two different named speakers join only on a wording at least this long, this much aligned.
MISATTRIBUTED_FLOOR = 12
LONG_ALIGNED = 0.9
# Two named speakers, one of them only resolved from a pronoun or title (``_doubted``), join on
# a wording at least this long: a short phrase ("a lot going on", "I'm still here") is said
# by many; set on the labelled PolNeAR pairs, where the wrongly resolved sides of positives
# have 6 words and more and the look-alikes such a clash would join have 3 to 4.
DOUBTED_FLOOR = 6
# Words either side of a short fragment inside a longer wording read for a person it is said
# of ("Lee is very weak on the budget"): a subject or object stands next to its predicate.
BESIDE = 3
# Share of the shorter wording's content words that must align: across stories there is no
# shared event to vouch for a looser match, and two remarks of one speaker on one topic share
# their function words and a phrase or two, not their content ("rebuild every bridge" / "cut
# every tax" in the same frame).
CONTENT_ALIGNED = 0.8
# A fragment of one named speaker's quote this long joins it word for word even without content
# words; shorter ones need one.
SHORT_FRAGMENT = 4
# Distinct wordings per node compared (the longest): enough for a story's variants.
MAX_WORDINGS = 6
# A fingerprint found in the quotes of more than this many named speakers is a stop
# fingerprint: common words ("a lot of people") or a stock phrase, not one utterance's words,
# and it finds no candidates (the quotes sharing it must share another fingerprint to be
# compared). One utterance's nodes name its speaker, its speaker's surname and the odd
# misattribution: at most 3 distinct names among the tracked quotes of the labelled PolNeAR
# pairs (tests/data/quote_link_pairs.tsv); the bound is over twice that, and it is fixed, so
# the candidates of a node stop growing with the store (docs/benchmarks.md).
STOP_SPEAKERS = 8


@dataclass(frozen=True)
class ArticleInfo:
    """What a tracked mention shows of its article."""

    outlet: str
    published: str | None


@dataclass
class Node:
    """One story quote, as the tracker sees it."""

    key: str  # "<story id>:<quote id>"
    story_id: str
    quote: Quote
    wordings: tuple[tuple[str, ...], ...]  # distinct core wordings, longest first
    articles: dict[str, ArticleInfo]
    # Indices of the mentions this node is home to: a mention two story quotes share (a merged
    # wording is listed under each utterance it joins) belongs to the one where it is not a
    # merged variant, else to the smaller key, so it is in exactly one tracked quote.
    own: tuple[int, ...] = ()
    # What each mention shows as a tracked mention (``mention_span``): (start, end, text, kind).
    spans: tuple[tuple[int, int, str, QuoteKind], ...] = ()
    # Folded names (and aliases) of the people the node's articles mention (``_vouched``).
    people: frozenset[str] = frozenset()

    @property
    def direct(self) -> bool:
        """Some mention gives the speaker's own words (a direct quote, or words quoted inside
        an indirect report): only such nodes are linked."""
        return bool(self.wordings)

    @cached_property
    def speakers(self) -> frozenset[str]:
        """The speaker when it is a name that counts as evidence (``_named_speaker``), worked
        out once: every pair the node is compared in reads it several times."""
        return _named_speaker(self)

    @property
    def first_key(self) -> str:
        """The earliest-keyed mention ("article id:start"): the root of a tracked quote id."""
        mentions = [self.quote.mentions[i] for i in self.own] or self.quote.mentions
        return min(f"{m.article_id}:{m.start:09d}" for m in mentions)


def node_key(story_id: str, quote_id: str) -> str:
    return f"{story_id}:{quote_id}"


def story_nodes(story: Story, articles: Mapping[str, ArticleInfo]) -> list[Node]:
    """The nodes of one story; ``articles`` gives each member article's outlet and date."""
    nodes: list[Node] = []
    for quote in story.quotes:
        key = node_key(story.id, quote.id)
        if any(n.key == key for n in nodes):  # two groups with one wording and speaker
            key = node_key(story.id, stable_id("node", quote.id, quote.mentions[0].article_id))
        info = {
            m.article_id: articles.get(m.article_id, ArticleInfo("unknown outlet", None))
            for m in quote.mentions
        }
        people = frozenset(
            fold(name)
            for e in story.entities
            if e.type == "PERSON" and not info.keys().isdisjoint(e.article_ids)
            for name in (e.name, *e.aliases)
        )
        nodes.append(Node(key, story.id, quote, wordings(quote), info, people=people))
    # Words quoted inside a report are shown alone, unless another mention of the story has
    # exactly that span (it is that mention).
    spots = {(m.article_id, m.start, m.end) for n in nodes for m in n.quote.mentions}
    for node in nodes:
        spans = []
        for m in node.quote.mentions:
            span = mention_span(m)
            spot = (m.article_id, span[0], span[1])
            if span[:2] != (m.start, m.end):
                if spot in spots:
                    span = (m.start, m.end, m.text, m.kind)
                else:
                    spots.add(spot)
            spans.append(span)
        node.spans = tuple(spans)
    home: dict[tuple[str, int, int], tuple[bool, str]] = {}
    for node in nodes:
        for m, span in zip(node.quote.mentions, node.spans, strict=True):
            rank = (m.variant == "merged", node.key)
            spot = (m.article_id, span[0], span[1])
            home[spot] = min(home.get(spot, rank), rank)
    for node in nodes:
        node.own = tuple(
            i
            for i, (m, span) in enumerate(zip(node.quote.mentions, node.spans, strict=True))
            if home[(m.article_id, span[0], span[1])][1] == node.key
        )
    return nodes


# Words in quotation marks inside an indirect report: 'He said the plan was "a disgrace"'.
_QUOTED = re.compile(r"(?:“|\"|''|``)(?P<words>[^“”\"]+?)(?:”|\"|'')")


def mention_span(m: ExportQuoteMention) -> tuple[int, int, str, QuoteKind]:
    """What a tracked mention shows of a story quote's mention: the mention itself, or, for an
    indirect report quoting the speaker's words (at least ``MIN_PARTIAL`` of them), those
    words, as a direct mention (start, end, text, kind; offsets into the article)."""
    if m.kind == "direct":
        return m.start, m.end, m.text, m.kind
    best = max(
        (q for q in _QUOTED.finditer(m.text) if len(tokenise(q["words"])[1]) >= MIN_PARTIAL),
        key=lambda q: (len(tokenise(q["words"])[1]), -q.start()),
        default=None,
    )
    if best is None:
        return m.start, m.end, m.text, m.kind
    return m.start + best.start("words"), m.start + best.end("words"), best["words"], "direct"


def wordings(quote: Quote) -> tuple[tuple[str, ...], ...]:
    """A quote's distinct core wordings of the speaker's own words (direct mentions and words
    quoted inside indirect ones), longest first (at most ``MAX_WORDINGS``).

    A direct mention the story grouped as a paraphrase of its quote and that does not align
    with the quote's wording (``compare``: a changed word aligns) is left out: it is not a
    wording of that utterance (often another remark of the speaker joined through a shared
    phrase: two repetitions of a talking point in one debate, two tweets on one topic), and
    linking other stories through it would join two utterances."""
    canonical = tokenise(quote.text)[1]
    cores = set()
    for m in quote.mentions:
        _, _, text, kind = mention_span(m)
        core = tokenise(text)[1]
        if m.kind == "direct" and m.variant == "paraphrased" and not compare(core, canonical):
            continue  # not a wording of the quote's utterance
        if kind == "direct":
            cores.add(core)
    return tuple(sorted((c for c in cores if c), key=lambda c: (-len(c), c)))[:MAX_WORDINGS]


def _hash(words: Sequence[str]) -> str:
    return hashlib.blake2b(" ".join(words).encode("utf-8"), digest_size=8).hexdigest()


def fingerprints(core: Sequence[str]) -> set[str]:
    """Hashed runs of ``SHINGLE`` words of one core wording (censored words are wildcards,
    which match nothing: the runs around them carry the match); a wording too short for a run
    is keyed whole. Every run is kept, runs of function words only too: a fragment of one
    run ("makes me smart") or of function words ("not quite there yet") is found inside any
    longer wording holding it, and common runs become stop fingerprints (``STOP_SPEAKERS``)."""
    words = [w for w in core if not w.endswith("*")]
    if len(words) < SHINGLE:
        return {"=" + _hash(core)} if core else set()
    out = {_hash(words[i : i + SHINGLE]) for i in range(len(words) - SHINGLE + 1)}
    if len(words) == SHINGLE:  # one run: also keyed whole, as shorter wordings are
        out.add("=" + _hash(core))
    return out


def node_fingerprints(node: Node) -> set[str]:
    """Fingerprints of a node's wordings; an indirect-only node has none (never linked)."""
    return {f for core in node.wordings for f in fingerprints(core)} if node.direct else set()


def speaker_key(speaker: str | None) -> str:
    """The name a node's fingerprints count for (``STOP_SPEAKERS``), from the node quote's
    speaker; "" when it is no name (such nodes make no fingerprint common)."""
    return min(_names(speaker), default="")


def stop_prints(nodes: Iterable[Node]) -> set[str]:
    """The stop fingerprints of a set of nodes: found under more than ``STOP_SPEAKERS`` names."""
    names: dict[str, set[str]] = defaultdict(set)
    for node in nodes:
        name = speaker_key(node.quote.speaker)
        if name:
            for f in node_fingerprints(node):
                names[f].add(name)
    return {f for f, who in names.items() if len(who) > STOP_SPEAKERS}


@dataclass(frozen=True)
class Relation:
    """How two nodes word one utterance: ``near`` or ``contained``, the share of the shorter
    wording aligned in order, and the shorter wording's length."""

    relation: str
    aligned: float
    shorter: int


def _aligned(x: Sequence[str], y: Sequence[str], near: bool = False) -> tuple[float, float]:
    """Shares of the shorter wording aligned in order with the other: of all its words, and
    of its content words (a changed proposition shows in the content words)."""
    a, b = wildcards(x, y)
    if len(a) > len(b):
        a, b = b, a
    blocks = SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks()
    matched = {i for m in blocks for i in range(m.a, m.a + m.size)}
    content = [i for i, w in enumerate(a) if is_content(w) or w.endswith("*")]
    share = len(matched) / max(1, len(a))
    if not content:
        return share, share
    in_order = len(matched.intersection(content)) / len(content)
    # Two nouns swapped ("miners and companies") keep their words, not their order.
    anywhere = sum((Counter(a[i] for i in content) & Counter(b)).values()) / len(content)
    return share, max(in_order, anywhere if near or len(a) == len(b) else in_order)


# Words a speaker that is no one's name starts with: a description ("a candidate", "the
# spot", "one Clinton spokesman") or a pronoun left unresolved says nothing about who spoke.
_UNNAMED_START = frozenset(
    {"a", "an", "the", "one", "his", "her", "their", "its", "our", "my", "your", "this"}
    | {"that", "these", "those", "some", "someone"}
)


# Relative pronouns a cue may name its speaker by.
_RELATIVE = frozenset({"who", "whom", "whose", "which", "that"})


def _named_speaker(node: Node) -> frozenset[str]:
    """The node's speaker when it is a name (capitalised, not a description) that some cue
    gives other than through a relative pronoun (``_relative_only``)."""
    names = _names(node.quote.speaker)
    return frozenset() if names and _relative_only(node, names) else frozenset(names)


def _relative_only(node: Node, names: set[str]) -> bool:
    """Every mention naming the node's speaker found it through a relative pronoun ("Ryan,
    who used the same words"): the relative clause may be about its antecedent while the
    quotation belongs to the main clause's subject ("When Trump used the words, "…" he was
    echoing Ryan, who used the same words"), so such a name is no evidence either way."""
    cues = [
        fold(m.speaker_text or "")
        for m in node.quote.mentions
        if m.speaker and same_speaker({fold(m.speaker)}, names)
    ]
    return bool(cues) and all(cue in _RELATIVE for cue in cues)


def _names(speaker: str | None) -> set[str]:
    name = (speaker or "").strip()
    if not name or not name[0].isupper() or fold(name.split()[0]) in _UNNAMED_START:
        return set()
    return {fold(name)}


def _vouched(a: Node, b: Node) -> bool:
    """``a`` names no speaker but its article names ``b``'s speaker: the speaker stage left the
    words unattributed ("a candidate", "the man", none) in an article about that person, so
    they count as ``b``'s speaker's. On the labelled PolNeAR pairs every unattributed side of a
    positive pair (8) is vouched so, and neither of the two hard negatives with an unnamed
    side (a slogan used by a voter and by no one named) is."""
    names = b.speakers
    return not a.speakers and bool(names) and same_speaker(set(a.people), names)


def _camp(node: Node) -> set[str]:
    """The people a speaker that is no person's name names as the one it speaks for ("One
    Clinton spokesman", "Some Clinton allies", "Clinton's campaign"): the words of the
    description that are words of the name of a person its article names. Two such speakers
    naming one person speak for that person: on the labelled PolNeAR pairs a campaign's
    phrase is given to "One Clinton spokesman" by one outlet and, through the next
    sentence, to "Some Clinton allies" by another."""
    speaker = fold(node.quote.speaker or "")
    if not speaker or speaker in node.people:
        return set()
    words = {w.removesuffix("'s").removesuffix("'") for w in speaker.split()}
    return {w for name in node.people for w in name.split() if is_content(w)} & words


def _doubted(a: Node, b: Node) -> bool:
    """``a``'s speaker is a name its cue never says (resolved from "he" or from a title), ``b``'s
    cue says its speaker's name, and ``a``'s article names ``b``'s speaker: the clash of the
    two names is no evidence of two speakers (the pronoun may have been resolved to a
    bystander: a singer the article opens with, a pundit quoted a paragraph earlier)."""
    names = b.speakers
    return (
        bool(a.speakers and names)
        and not _cue_names(a)
        and _cue_names(b)
        and same_speaker(set(a.people), names)
    )


def _cue_names(node: Node) -> bool:
    """Some mention of the node's speaker names the speaker in its cue's own words ("Trump
    said"), not only through a pronoun or a title resolved to a name elsewhere ("he said",
    "the union's director told"). A mention that keeps no cue words counts as naming."""
    names = node.speakers
    if not names:
        return False
    for m in node.quote.mentions:
        if not m.speaker or not same_speaker({fold(m.speaker)}, names):
            continue
        if m.speaker_text is None:
            return True
        if set(fold(m.speaker_text).split()) & set(fold(m.speaker).split()):
            return True
    return False


def _said_after(a: Node, b: Node) -> bool:
    """``a``'s article dates its words (``occasion``) after ``b``'s words were published: an
    utterance is reported after it is made, so ``a`` is the line said again on a later
    occasion (a stump line at a later rally, a talking point in a later debate)."""
    said = [first_day(m.occasion) for m in a.quote.mentions if m.occasion]
    published = [first_day(info.published) for info in b.articles.values()]
    said_days = [d for d in said if d is not None]
    published_days = [d for d in published if d is not None]
    if not said_days or not published_days:
        return False
    return min(said_days) > min(published_days) + dt.timedelta(days=OCCASION_SLACK_DAYS)


def _said_of_another(
    part: Node, fragment: Sequence[str], whole: Node, wording: Sequence[str]
) -> bool:
    """``wording`` names a person beside where ``fragment`` lies in it (within ``BESIDE``
    words: "*Lee* is very weak on the budget") whom the sentences quoting ``fragment`` do not
    name though they name others ("Holt called *Ruiz* "very weak on the budget""): the same
    few words said of someone else, not a truncation. A fragment whose sentences name no one
    but its speaker says nothing either way (``about.about``)."""
    said_of = {w for m in part.quote.mentions for name in m.about for w in fold(name).split()}
    if not said_of:
        return False
    speakers = {w for name in part.speakers | whole.speakers for w in name.split()}
    x, y = wildcards(fragment, wording)
    blocks = [
        m for m in SequenceMatcher(None, x, y, autojunk=False).get_matching_blocks() if m.size
    ]
    if not blocks:
        return False
    start, end = blocks[0].b, blocks[-1].b + blocks[-1].size
    beside = {*y[max(0, start - BESIDE) : start], *y[end : end + BESIDE]}
    for name in whole.people:
        words = {w for w in name.split() if is_content(w)}
        if words & beside - speakers and not words & (said_of | speakers):
            return True  # a person beside it whom the fragment's sentences do not name
    return False


def _inside(x: Sequence[str], y: Sequence[str]) -> bool:
    """The shorter wording, word for word, somewhere in the longer."""
    a, b = wildcards(x, y)
    if len(a) > len(b):
        a, b = b, a
    n = len(a)
    return any(list(b[i : i + n]) == list(a) for i in range(len(b) - n + 1))


def _relation(x: Sequence[str], y: Sequence[str], agree: bool) -> Relation | None:
    """How two wordings relate (alignment as inside a story, content words kept), or None.

    Between two quotes of one named speaker a short fragment found word for word inside the
    other is a truncation even with too few content words for the alignment ("not quite there
    yet"): ``SHORT_FRAGMENT`` words at least, or fewer with a content word.
    """
    pair = compare(x, y)
    if pair is not None:
        share, content_share = _aligned(x, y, pair.near)
        if content_share >= CONTENT_ALIGNED:
            return Relation("near" if pair.near else "contained", share, min(len(x), len(y)))
    shorter = min(x, y, key=len)
    telling = len(shorter) >= SHORT_FRAGMENT or any(is_content(w) for w in shorter)
    if agree and len(shorter) >= SHINGLE and telling and _inside(x, y):
        near = len(x) == len(y)
        return Relation("near" if near else "contained", 1.0, len(shorter))
    return None


def relate(a: Node, b: Node) -> Relation | None:
    """The link between two nodes of different stories, or None when they are not one
    utterance (see the module docstring for the guards)."""
    if a.story_id == b.story_id or not (a.direct and b.direct):
        return None
    if _said_after(a, b) or _said_after(b, a):
        return None
    names_a, names_b = a.speakers, b.speakers
    both_named = bool(names_a and names_b)
    agree = (
        (both_named and same_speaker(names_a, names_b))
        or _vouched(a, b)
        or _vouched(b, a)
        or bool(_camp(a) & _camp(b))
    )
    doubted = not agree and (_doubted(a, b) or _doubted(b, a))
    best: Relation | None = None
    words: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    for x in a.wordings:
        for y in b.wordings:
            found = _relation(x, y, agree or doubted)
            if found is None:
                continue
            if best is None or (found.relation == "near", found.shorter, found.aligned) > (
                best.relation == "near",
                best.shorter,
                best.aligned,
            ):
                best, words = found, (x, y)
    if best is None:
        return None
    if best.relation == "contained" and best.shorter < FRAGMENT_FLOOR:
        short, long = words if len(words[0]) < len(words[1]) else words[::-1]
        part, whole = (a, b) if len(words[0]) < len(words[1]) else (b, a)
        if _said_of_another(part, short, whole, long):
            return None
    if doubted:  # a doubted clash is overruled by a wording long enough to be one utterance
        agree = best.shorter >= DOUBTED_FLOOR
    # Twelve words and more aligned are one utterance an outlet gave to someone else.
    misattributed = best.shorter >= MISATTRIBUTED_FLOOR and best.aligned >= LONG_ALIGNED
    if both_named and not agree and not misattributed:
        return None
    if best.relation == "contained" and best.shorter < FRAGMENT_FLOOR and not agree:
        return None
    if best.shorter < SHORT_QUOTE and not agree:
        return None
    return best


@dataclass(frozen=True)
class Decided:
    """A linked pair of nodes (indices into the node list) and why."""

    a: int
    b: int
    relation: Relation
    inner: int | None  # for a containment: the node whose wording lies inside the other


def candidate_pairs(
    nodes: Sequence[Node],
    stops: Collection[str] = frozenset(),
    fresh: Collection[int] | None = None,
) -> list[tuple[int, int]]:
    """Node pairs of different stories sharing a fingerprint that is not a stop fingerprint;
    with ``fresh`` (node indices), only the pairs holding one of them."""
    index: dict[str, list[int]] = defaultdict(list)
    prints = [node_fingerprints(node) - set(stops) for node in nodes]
    for k, fs in enumerate(prints):
        for f in fs:
            index[f].append(k)
    pairs = set()
    if fresh is None:
        for members in index.values():
            for i, a in enumerate(members):
                for b in members[i + 1 :]:
                    if nodes[a].story_id != nodes[b].story_id:
                        pairs.add((min(a, b), max(a, b)))
        return sorted(pairs)
    for a in fresh:
        for f in prints[a]:
            for b in index[f]:
                if nodes[a].story_id != nodes[b].story_id:
                    pairs.add((min(a, b), max(a, b)))
    return sorted(pairs)


def decide(
    nodes: Sequence[Node],
    stops: Collection[str] = frozenset(),
    fresh: Collection[int] | None = None,
) -> list[Decided]:
    """Every linked candidate pair of ``nodes`` (``stops``: the stop fingerprints; ``fresh``:
    only the pairs holding one of these node indices)."""
    out = []
    for i, j in candidate_pairs(nodes, stops, fresh):
        rel = relate(nodes[i], nodes[j])
        if rel is not None:
            out.append(_decided(nodes, i, j, rel))
    return out


def _decided(nodes: Sequence[Node], i: int, j: int, rel: Relation) -> Decided:
    inner = None
    if rel.relation == "contained":
        inner = i if len(nodes[i].wordings[0]) < len(nodes[j].wordings[0]) else j
    return Decided(i, j, rel, inner)


@dataclass(frozen=True)
class Known:
    """Links decided before among stored nodes: a pair of two nodes outside ``fresh`` (keys)
    relates as it did when the later of the two was written (``relate`` reads the two nodes
    only, and their shared fingerprints kept their stop status, else one of them is fresh), so
    only pairs holding a fresh node are related again. ``links``: (key, key, relation,
    aligned) of every link among the stored nodes."""

    fresh: frozenset[str]
    links: tuple[tuple[str, str, str, float], ...]


def _known_links(nodes: Sequence[Node], known: Known) -> list[Decided]:
    at = {node.key: i for i, node in enumerate(nodes)}
    out = {}
    for a, b, relation, aligned in known.links:
        i, j = at.get(a), at.get(b)
        if i is None or j is None or a in known.fresh or b in known.fresh:
            continue
        i, j = min(i, j), max(i, j)
        shorter = min(len(nodes[i].wordings[0]), len(nodes[j].wordings[0]))
        out[(i, j)] = _decided(nodes, i, j, Relation(relation, aligned, shorter))
    return list(out.values())


def components(nodes: Sequence[Node], links: Sequence[Decided]) -> tuple[list[list[int]], set[int]]:
    """Groups of node indices (one per tracked quote) and the nodes that are merged quotes.

    Near links join first. A node containing two others that are still apart and that one
    article quotes separately is a merged quote: it joins only the part its wording starts
    with. Then each contained node joins its containers, longest contained wording first: a
    fragment inside longer quotes that are still apart (two sentences built on one slogan)
    joins the one of them that names its speaker when only one does (``_says``), else none, so
    a fragment never glues different utterances together; and a named fragment does not join
    through an unattributed holder a group naming only other speakers (``_carried_off``).
    """
    union = UnionFind(len(nodes))
    for link in links:
        if link.relation.relation == "near":
            union.union(link.a, link.b)
    parts: dict[int, list[int]] = defaultdict(list)  # container -> contained nodes
    for link in links:
        if link.inner is not None:
            outer = link.b if link.inner == link.a else link.a
            parts[outer].append(link.inner)
    merged: set[int] = set()
    for outer in sorted(parts):
        inner = parts[outer]
        if _quoted_apart(nodes, inner, union):
            merged.add(outer)
            most = min(
                inner, key=lambda k: (-len(nodes[k].wordings[0]), _position(nodes[outer], nodes[k]))
            )
            union.union(outer, most)
    holders: dict[int, list[int]] = defaultdict(list)  # contained node -> its containers
    for outer, inner in parts.items():
        if outer not in merged:
            for k in inner:
                holders[k].append(outer)
    named = _named_in(nodes, union)
    for k in sorted(holders, key=lambda k: (-len(nodes[k].wordings[0]), k)):
        roots = {
            union.find(o)
            for o in holders[k]
            if not _carried_off(nodes[k], nodes[o], named[union.find(o)])
        } - {union.find(k)}
        if len(roots) > 1:
            roots = {union.find(o) for o in holders[k] if _says(nodes[k], nodes[o])}
        if len(roots) == 1:
            root = roots.pop()
            joined = named.pop(union.find(k), set()) | named.pop(root, set())
            union.union(k, root)
            named[union.find(k)] = joined
    return union.groups(), merged


def _named_in(nodes: Sequence[Node], union: UnionFind) -> dict[int, set[str]]:
    """Group root -> the speaker names of its nodes."""
    out: dict[int, set[str]] = defaultdict(set)
    for k, node in enumerate(nodes):
        out[union.find(k)] |= node.speakers
    return out


def _carried_off(part: Node, holder: Node, theirs: set[str]) -> bool:
    """``holder`` names no speaker (it agreed with ``part`` only as vouched) and its group names
    speakers none of whom is ``part``'s: joining would carry ``part``'s words to another
    person's through a quote of no one's (a fragment of Ryan's inside an unattributed line
    that joined Trump's)."""
    names = part.speakers
    if not names or holder.speakers:
        return False
    return bool(theirs) and not same_speaker(names, theirs)


def _says(part: Node, holder: Node) -> bool:
    """The speaker of ``part`` is the one of ``holder``: both named and the same, or ``part``
    unattributed in an article naming ``holder``'s speaker (``_vouched``)."""
    names, theirs = part.speakers, holder.speakers
    return bool(names and theirs and same_speaker(names, theirs)) or _vouched(part, holder)


def _quoted_apart(nodes: Sequence[Node], inner: list[int], union: UnionFind) -> bool:
    """Two of ``inner`` in different groups that one article quotes separately."""
    for x, a in enumerate(inner):
        for b in inner[x + 1 :]:
            if union.find(a) == union.find(b):
                continue
            arts_a = {m.article_id for m in nodes[a].quote.mentions}
            arts_b = {m.article_id for m in nodes[b].quote.mentions}
            if arts_a & arts_b:
                return True
    return False


def _position(outer: Node, part: Node) -> int:
    """Where ``part``'s wording starts inside ``outer``'s longest wording."""
    x, y = wildcards(part.wordings[0], outer.wordings[0])
    blocks = [
        m for m in SequenceMatcher(None, x, y, autojunk=False).get_matching_blocks() if m.size
    ]
    return blocks[0].b if blocks else len(y)


def variant(
    text: str, canonical: str, canonical_tokens: tuple[tuple[str, ...], ...] | None = None
) -> TrackedVariant:
    """One wording's variant against the canonical wording (``canonical_tokens``: its
    ``tokenise`` raw and core words, when the caller compares many wordings with it)."""
    raw, core, _, _ = tokenise(text)
    c_raw, c_core = canonical_tokens or tokenise(canonical)[:2]
    if raw == c_raw:
        return "identical"
    x, y = wildcards(core, c_core)
    if x == y:
        spelled = tokenise(text, spelled=True)[0] == tokenise(canonical, spelled=True)[0]
        return "filler" if spelled else "censored"
    blocks = [
        b for b in SequenceMatcher(None, x, y, autojunk=False).get_matching_blocks() if b.size
    ]
    matched = sum(b.size for b in blocks)
    if len(blocks) == 1 and matched == len(x) < len(y):
        return "truncated"
    if len(blocks) == 1 and matched == len(y) < len(x):
        return "extended"
    if len(x) >= MIN_PARTIAL and matched / max(len(x), len(y)) >= NEAR:
        return "word_change"  # a word swapped, dropped or added inside
    if matched == len(x) < len(y):
        return "truncated"  # cut in more than one place (an ellipsis)
    if matched == len(y) < len(x):
        return "extended"
    return "paraphrased"


def tracked_quote(
    nodes: Sequence[Node], members: Sequence[int], merged: set[int], links: Sequence[Decided]
) -> TrackedQuote:
    """The tracked quote of one component."""
    group = [nodes[k] for k in members]
    root = min(n.first_key for n in group)
    faithful = [nodes[k] for k in members if k not in merged and nodes[k].wordings] or group
    canonical = min(
        faithful,
        key=lambda n: (
            -len(n.wordings[0]) if n.wordings else 0,
            _first_date(n),
            n.first_key,
        ),
    )
    canonical_tokens = tokenise(canonical.quote.text)[:2]
    mentions: list[TrackedMention] = []
    picked = [(k, i) for k in members for i in nodes[k].own] or [
        (k, i) for k in members for i in range(len(nodes[k].quote.mentions))
    ]
    for k, i in picked:
        node = nodes[k]
        m = node.quote.mentions[i]
        start, end, text, quote_kind = node.spans[i] if node.spans else mention_span(m)
        info = node.articles[m.article_id]
        if k in merged:
            kind: TrackedVariant = "merged"
        elif m.variant == "merged":  # the story saw it join two quotes
            kind = m.variant
        else:
            kind = variant(text, canonical.quote.text, canonical_tokens)
        mentions.append(
            TrackedMention(
                article_id=m.article_id,
                start=start,
                end=end,
                text=text,
                kind=quote_kind,
                outlet=info.outlet,
                published=info.published,
                story_id=node.story_id,
                story_quote_id=node.quote.id,
                speaker=m.speaker,
                speaker_confidence=m.speaker_confidence,
                variant=kind,
            )
        )
    mentions.sort(key=lambda m: (m.published or "9999", m.article_id, m.start))
    first = mentions[0]
    speaker, confidence, others = _speaker(group)
    inside = set(members)
    evidence = [
        TrackedLink(
            a=nodes[d.a].key,
            b=nodes[d.b].key,
            relation=d.relation.relation,
            aligned=round(d.relation.aligned, 3),
        )
        for d in links
        if d.a in inside and d.b in inside
    ]
    dates = sorted(m.published for m in mentions if m.published)
    return TrackedQuote(
        id=stable_id("tracked", root),
        text=canonical.quote.text,
        speaker=speaker,
        speaker_confidence=confidence,
        speaker_conflict=others,
        first_article_id=first.article_id,
        first_outlet=first.outlet,
        first_date=first.published,
        last_date=dates[-1] if dates else None,
        outlets=sorted({m.outlet for m in mentions}),
        story_ids=sorted({n.story_id for n in group}),
        mentions=mentions,
        links=sorted(evidence, key=lambda x: (x.a, x.b)),
    )


def _first_date(node: Node) -> str:
    return min((i.published for i in node.articles.values() if i.published), default="9999")


def _speaker(group: Sequence[Node]) -> tuple[str | None, float | None, list[str]]:
    """The speaker the stories favour: each story's speaker votes with its confidence."""
    votes: dict[str, float] = defaultdict(float)
    shown: dict[str, str] = {}
    surest: dict[str, float | None] = {}
    for node in group:
        name = node.quote.speaker
        if not name:
            continue
        key = fold(name)
        shown.setdefault(key, name)
        conf = node.quote.speaker_confidence
        votes[key] += UNSCORED_CONFIDENCE if conf is None else conf
        surest[key] = higher_confidence(surest.get(key), conf)
    if not votes:
        return None, None, []
    ranked = sorted(votes, key=lambda k: (-round(votes[k], VOTE_DECIMALS), -len(k.split()), k))
    top = ranked[0]
    others = [shown[k] for k in ranked[1:] if not same_speaker({k}, {top})]
    return shown[top], surest[top], others


@dataclass
class Tracking:
    """Tracked quotes, most mentioned first, the tracked quote of each node's key, and for a
    node linked to nodes of other tracked quotes (a merged quote and an utterance it holds but
    does not join), those links."""

    quotes: list[TrackedQuote]
    of_node: dict[str, str]
    cross: dict[str, list[TrackedLink]]


def track(
    nodes: Sequence[Node], stops: Collection[str] | None = None, known: Known | None = None
) -> Tracking:
    """The tracked quotes of ``nodes``, a set closed under links (every node linked to one of
    them is among them); ``stops``: the stop fingerprints of the whole store, else of
    ``nodes``; ``known``: links decided before, so that only pairs with a fresh node are
    related. Nodes are taken in key order, so any order gives the same result."""
    nodes = sorted(nodes, key=lambda n: n.key)
    stops = stop_prints(nodes) if stops is None else stops
    if known is None:
        links = decide(nodes, stops)
    else:
        fresh = [i for i, node in enumerate(nodes) if node.key in known.fresh]
        links = decide(nodes, stops, fresh) + _known_links(nodes, known)
        links.sort(key=lambda d: (d.a, d.b))  # the order deciding every pair gives
    groups, merged = components(nodes, links)
    quotes = _distinct_ids(nodes, groups, [tracked_quote(nodes, g, merged, links) for g in groups])
    of_node = {nodes[k].key: q.id for g, q in zip(groups, quotes, strict=True) for k in g}
    ordered = sorted(quotes, key=lambda q: (-len(q.mentions), q.id))
    return Tracking(ordered, of_node, _cross_links(nodes, groups, links))


def _distinct_ids(
    nodes: Sequence[Node], groups: list[list[int]], quotes: list[TrackedQuote]
) -> list[TrackedQuote]:
    """Tracked quotes whose roots are one "article:start" (two quotes of an article starting at
    one offset, e.g. a sentence and the phrase quoted at its start, that stay apart) keep one
    id each: the group holding the smallest node key keeps the root's id, each other one gets
    an id from the root and its own smallest node key. Ids that do not clash are unchanged."""
    by_id: dict[str, list[int]] = defaultdict(list)
    for n, quote in enumerate(quotes):
        by_id[quote.id].append(n)
    out = list(quotes)
    for clashing in by_id.values():
        if len(clashing) < 2:
            continue
        first = {n: min(nodes[k].key for k in groups[n]) for n in clashing}
        for n in sorted(clashing, key=first.__getitem__)[1:]:
            root = min(nodes[k].first_key for k in groups[n])
            out[n] = quotes[n].model_copy(update={"id": stable_id("tracked", root, first[n])})
    return out


def _cross_links(
    nodes: Sequence[Node], groups: list[list[int]], links: Sequence[Decided]
) -> dict[str, list[TrackedLink]]:
    """Node key -> its links to nodes in another tracked quote."""
    group_of = {i: g for g, members in enumerate(groups) for i in members}
    out: dict[str, list[TrackedLink]] = defaultdict(list)
    for d in links:
        if group_of[d.a] != group_of[d.b]:
            a, b = nodes[d.a].key, nodes[d.b].key
            link = TrackedLink(
                a=a, b=b, relation=d.relation.relation, aligned=round(d.relation.aligned, 3)
            )
            out[a].append(link)
            out[b].append(link)
    return {key: sorted(v, key=lambda x: (x.a, x.b)) for key, v in out.items()}


def track_stories(stories: Iterable[Story], articles: Mapping[str, ArticleInfo]) -> Tracking:
    """Batch: the tracked quotes of whole stories."""
    return track([n for s in stories for n in story_nodes(s, articles)])
