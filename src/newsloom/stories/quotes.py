"""Quote variants: every mention of one utterance across a story's articles becomes one Quote.

Each mention is tokenised three ways: *raw* (folded words, fillers, ellipses and censored
words as written), *core* (fillers and ellipses dropped, a censored word reduced to a
wildcard of its first letter: ``f***ing`` = ``f**king`` = ``f—–g`` = ``f--king`` -> ``f*``) and
its content stems. Candidate pairs come from blocking on each wording's rarest content words,
so big stories are not compared all-pairs; identical wordings are compared once.

A pair is *near* (same utterance, similar length) when the in-order token alignment covers
most of both, or when the words are the same in another order; *contained* when one wording
lies, almost contiguously, inside the other. Near pairs are joined first; then a wording that
contains two others lying in separate parts of it is a *merged* quote when some article quotes
those two separately (otherwise it is the full quote they are both truncations of). Remaining
singletons join a group of the same speaker with the same content words as a paraphrase.
Indirect mentions are grouped only with each other, and attached to a direct quote when they
clearly carry its content.

The canonical wording is the one most articles use (ties: the longest); each mention is then
classified against it: identical, filler, censored, truncated, extended, merged, paraphrased.
The quote's speaker is the name the evidence favours: each article's vote for a name weighs
as much as that attribution's confidence; an unresolved mention ("she" with no antecedent)
never votes, and the names outvoted stay listed as a conflict.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from datetime import date
from difflib import SequenceMatcher
from typing import Literal

from ..models import (
    ArticleAnalysis,
    ExportQuoteMention,
    Quote,
    QuoteMention,
    QuoteVariant,
    StoryEntity,
    stable_id,
)
from ..text.dates import first_day
from ..text.unionfind import UnionFind
from ..text.words import fold, is_content, stem
from .about import about
from .occasions import occasion

# A censored word: its first letter, then a mask (``*#@$%``, or a run of two or more dashes
# right after the first letter so that "he--she" stays two words), then anything left.
_CENSORED = re.compile(r"(?<![\w*])([^\W\d_])(?:[-—–]{2,}|[^\W\d_]?[*#@$%]+)(?:[^\W\d_]|[*#@$%])*")
_TOKEN = re.compile(
    r"(?P<cens>" + _CENSORED.pattern + r")"
    r"|(?P<ell>\.\s?\.\s?\.(?:\s?\.)*)"
    r"|(?P<word>[^\W_]+(?:'[^\W_]+)*)(?P<comma>\s*,)?"
)
# Hesitation words that outlets keep or drop at will; "like" counts only as "like,".
_FILLER_TEXT = "um umm uh uhh uhm er erm ah hmm mm"
FILLERS = frozenset(_FILLER_TEXT.split())

# Wordings shorter than this (tokens) are joined only when identical; containment and
# reordering need this many words to be evidence. Set on the hand-built rows in
# tests/stories/test_quotes.py ("I did it" must not be a truncation of "I did not do it").
MIN_PARTIAL = 4
# Identical wordings shorter than this join only when no two outlets name different
# speakers: "No comment" from two people is two quotes.
SHORT_QUOTE = 6
# In-order alignment: share of both wordings matched for a near pair (a dropped or changed
# word in ten keeps ~0.9), and share of the shorter for containment (a five-word line with
# its last word cut keeps 0.8).
NEAR = 0.8
CONTAIN = 0.8
# Matched tokens per token of the region they span in the longer wording: a truncation is a
# contiguous cut (1.0); scattered matches ("I did ... it") are not a truncation.
DENSE = 0.8
# Same multiset of words in another order, as a share of the longer wording.
REORDERED = 0.85
MIN_SHARED_CONTENT = 2  # content words two near/contained wordings must share
# Paraphrase: the same named speaker, sharing this many content stems, covering this share of
# the shorter wording's content stems. Different statements of one speaker on one topic share
# one stem on the test rows ("cut taxes" / "raise taxes"); rewordings share most ("You are a
# disgrace ... get off my set" shares 2 of 3 with the original in examples/corpus).
PARA_SHARED = 2
PARA_RATIO = 0.6
# An indirect mention joins a direct quote when this share of its content stems is in it.
INDIRECT_ATTACH = 0.75
BLOCK_KEYS = 4  # rarest content stems per wording used as blocking keys
# Characters between two quote mentions of one article that split one utterance around its
# cue: '," Mbatha said. "' is 17; a sentence of the outlet's own between them is longer.
SPLIT_GAP = 40
# Regions of two contained wordings overlapping less than this share are separate parts.
DISJOINT = 0.2
# The weight of a named speaker whose mention carries no confidence (analysed before the
# speaker ranker, or by the rules alone): what such a name is worth on average, the rules'
# speaker accuracy on PolNeAR dev (0.93 direct, 0.94 all attributions; docs/benchmarks.md)
# rounded down, so a calibrated attribution at least that sure outweighs it and a doubtful
# one does not. With no confidence anywhere, every article's vote weighs the same.
UNSCORED_CONFIDENCE = 0.9
# Summed confidences equal to this many decimals are a tie (float sums differ in the last
# digits with the order of their terms).
VOTE_DECIMALS = 6


@dataclass
class _Mention:
    article_id: str
    article_index: int
    q: QuoteMention
    raw: tuple[str, ...]
    core: tuple[str, ...]
    censored: int
    fillers: int
    speaker: str | None  # resolved display name
    published: date  # date.max when unknown
    occasion: str | None = None  # when it was said, as its article dates it
    about: tuple[str, ...] = ()  # whom its sentence names besides the speaker


@dataclass
class _Node:
    """One distinct wording (and, for short wordings, one speaker)."""

    core: tuple[str, ...]
    kind: str
    mentions: list[int] = field(default_factory=list)
    content: frozenset[str] = frozenset()


@dataclass
class _Pair:
    near: bool
    contains: int  # 0: none; 1: first inside second; 2: second inside first
    region: tuple[int, int]  # where the contained wording lies in the container


def tokenise(text: str, spelled: bool = False) -> tuple[tuple[str, ...], tuple[str, ...], int, int]:
    """``(raw, core, censored words, fillers)`` of a quote's text; with ``spelled`` the raw
    view leaves fillers out (censored words stay as written)."""
    raw: list[str] = []
    core: list[str] = []
    censored = fillers = 0
    for m in _TOKEN.finditer(fold(text)):
        if m.group("cens"):
            raw.append(m.group("cens"))
            core.append(m.group("cens")[0] + "*")
            censored += 1
        elif m.group("ell"):
            fillers += 1
            if not spelled:
                raw.append("...")
        else:
            word = m.group("word")
            if word in FILLERS or (word == "like" and m.group("comma")):
                fillers += 1
                if spelled:
                    continue
            else:
                core.append(word)
            raw.append(word)
    return tuple(raw), tuple(core), censored, fillers


def normalise(text: str) -> str:
    """The quote's core wording as one string (the form hashed into quote ids)."""
    return " ".join(tokenise(text)[1])


def wildcards(a: Sequence[str], b: Sequence[str]) -> tuple[list[str], list[str]]:
    """Both wordings with every word that a censored word of the other may stand for masked."""
    ca = {t[0] for t in a if t.endswith("*")}
    cb = {t[0] for t in b if t.endswith("*")}
    if not ca and not cb:
        return list(a), list(b)
    sa, sb = set(a), set(b)

    def mask(tokens: Sequence[str], letters: set[str], other: set[str]) -> list[str]:
        return [
            t[0] + "*"
            if t[0] in letters and not t.endswith("*") and is_content(t) and t not in other
            else t
            for t in tokens
        ]

    return mask(a, cb, sb), mask(b, ca, sa)


def compare(a: Sequence[str], b: Sequence[str]) -> _Pair | None:
    """How two core wordings relate, or None when they are not one utterance."""
    x, y = wildcards(a, b)
    if x == y:
        return _Pair(True, 0, (0, len(y)))
    short = min(len(x), len(y))
    shared = {w for w in x if is_content(w)} & {w for w in y if is_content(w)}
    if short < MIN_PARTIAL or len(shared) < MIN_SHARED_CONTENT:
        return None
    blocks = [
        b for b in SequenceMatcher(None, x, y, autojunk=False).get_matching_blocks() if b.size
    ]
    matched = sum(b.size for b in blocks)
    inner_first = len(x) <= len(y)
    starts = [b.b if inner_first else b.a for b in blocks]
    ends = [(b.b if inner_first else b.a) + b.size for b in blocks]
    region = (min(starts), max(ends))
    contained = matched / short >= CONTAIN and matched / (region[1] - region[0]) >= DENSE
    # A clause or more beyond the other wording makes it a container (it may join two quotes)
    # even when the two are close in length.
    if contained and abs(len(x) - len(y)) >= MIN_PARTIAL:
        return _Pair(False, 1 if inner_first else 2, region)
    if matched / len(x) >= NEAR and matched / len(y) >= NEAR:
        return _Pair(True, 0, (0, len(y)))
    overlap = sum((Counter(x) & Counter(y)).values())
    if overlap / max(len(x), len(y)) >= REORDERED:
        return _Pair(True, 0, (0, len(y)))
    return _Pair(False, 1 if inner_first else 2, region) if contained else None


def _speaker_names(entities: Sequence[StoryEntity]) -> dict[str, str]:
    """Folded name or alias of a merged person -> the person's name."""
    out: dict[str, str] = {}
    for entity in entities:
        if entity.type == "PERSON":
            for name in (entity.name, *entity.aliases):
                out.setdefault(fold(name), entity.name)
    return out


def group_quotes(
    analyses: Sequence[ArticleAnalysis], entities: Sequence[StoryEntity] = ()
) -> list[Quote]:
    """The story's quotes, most widely quoted first."""
    people = _speaker_names(entities)
    mentions: list[_Mention] = []
    for a_index, analysis in enumerate(analyses):
        published = first_day(analysis.article.published) or date.max
        seen: set[tuple[int, int]] = set()
        for q in analysis.quotes:
            # One span of an article is one mention, even when two cues report it ("..., said
            # X, according to a statement"): the first the analysis lists is kept.
            if not q.text.strip() or (q.start, q.end) in seen:
                continue
            seen.add((q.start, q.end))
            raw, core, censored, fillers = tokenise(q.text)
            if not core:
                continue
            speaker = people.get(fold(q.speaker), q.speaker) if q.speaker else None
            mentions.append(
                _Mention(
                    analysis.article.id,
                    a_index,
                    q,
                    raw,
                    core,
                    censored,
                    fillers,
                    speaker,
                    published,
                    occasion(analysis, q),
                    tuple(about(analysis, q)),
                )
            )
    direct = [i for i, m in enumerate(mentions) if m.q.kind == "direct"]
    indirect = [i for i, m in enumerate(mentions) if m.q.kind != "direct"]
    direct_groups = _group(mentions, direct)
    indirect_groups = _group(mentions, indirect)
    _attach_indirect(mentions, direct_groups, indirect_groups)
    groups = direct_groups + indirect_groups
    known = {fold(name) for name in people.values()}
    quotes = [_quote(mentions, members, forced, known) for members, forced in groups if members]
    first = {q.id: i for i, q in enumerate(quotes)}
    return sorted(quotes, key=lambda q: (-len({m.article_id for m in q.mentions}), first[q.id]))


def _nodes(mentions: list[_Mention], indices: list[int]) -> list[_Node]:
    by_key: dict[tuple, _Node] = {}
    for i in indices:
        m = mentions[i]
        short = len(m.core) < SHORT_QUOTE
        key = (m.core, fold(m.speaker) if short and m.speaker else "")
        node = by_key.get(key)
        if node is None:
            node = by_key[key] = _Node(
                m.core, m.q.kind, content=frozenset(stem(w) for w in m.core if is_content(w))
            )
        node.mentions.append(i)
    return list(by_key.values())


def _candidates(nodes: list[_Node]) -> list[tuple[int, int]]:
    """Node pairs sharing one of either node's rarest content stems (or the whole wording)."""
    df: Counter[str] = Counter(w for n in nodes for w in n.content)
    index: dict[str, list[int]] = defaultdict(list)
    for k, node in enumerate(nodes):
        keys = sorted(node.content, key=lambda w: (df[w], w))[:BLOCK_KEYS]
        for key in keys:
            index[key].append(k)
        index["=" + " ".join(node.core)].append(k)
    pairs: set[tuple[int, int]] = set()
    for k, node in enumerate(nodes):
        for key in [*node.content, "=" + " ".join(node.core)]:
            for other in index.get(key, ()):
                if other != k:
                    pairs.add((min(k, other), max(k, other)))
    return sorted(pairs)


def _names(mentions: list[_Mention], ids: list[int]) -> set[str]:
    return {fold(mentions[i].speaker or "") for i in ids} - {""}


def same_speaker(a: Collection[str], b: Collection[str]) -> bool:
    """Some name of ``a`` is one of ``b``, or its surname or first name alone."""
    return any(
        x == y or set(x.split()) <= set(y.split()) or set(y.split()) <= set(x.split())
        for x in a
        for y in b
    )


def _speakers_clash(mentions: list[_Mention], a: _Node, b: _Node) -> bool:
    names_a, names_b = _names(mentions, a.mentions), _names(mentions, b.mentions)
    return bool(names_a and names_b and not same_speaker(names_a, names_b))


def _group(
    mentions: list[_Mention], indices: list[int]
) -> list[tuple[list[int], dict[int, QuoteVariant]]]:
    """Groups of mention indices with the variants decided while grouping."""
    nodes = _nodes(mentions, indices)
    union = UnionFind(len(nodes))
    contained: list[tuple[int, int, tuple[int, int]]] = []  # (inner, outer, region in outer)
    pairs = _candidates(nodes)
    for i, j in pairs:
        rel = compare(nodes[i].core, nodes[j].core)
        if rel is None:
            continue
        short = min(len(nodes[i].core), len(nodes[j].core)) < SHORT_QUOTE
        if short and _speakers_clash(mentions, nodes[i], nodes[j]):
            continue
        if rel.near:
            union.union(i, j)
        else:
            inner, outer = (i, j) if rel.contains == 1 else (j, i)
            contained.append((inner, outer, rel.region))
    forced: dict[int, QuoteVariant] = {}
    merged_into: dict[int, set[int]] = defaultdict(set)  # merged node -> nodes it covers
    holders: dict[int, list[int]] = defaultdict(list)  # contained node -> its containers
    for outer, parts in _containers(contained, union).items():
        if _is_merged(parts, nodes, mentions, union):
            merged_into[outer] = {p for p, _ in parts}
        else:
            for inner, _ in parts:
                holders[inner].append(outer)
    for inner in sorted(holders, key=lambda k: (-len(nodes[k].core), k)):
        roots = {union.find(o) for o in holders[inner]} - {union.find(inner)}
        if _one_article_apart(nodes, mentions, union, sorted(roots)):
            continue  # a phrase two remarks of one article share: it joins neither
        for outer in holders[inner]:
            union.union(inner, outer)
    merged_roots = {union.find(o) for o in merged_into}
    _paraphrases(nodes, mentions, union, merged_roots, pairs)
    members: dict[int, list[int]] = defaultdict(list)
    for k, node in enumerate(nodes):
        if union.find(k) not in merged_roots:
            members[union.find(k)].extend(node.mentions)
    # A merged wording (and its near variants) is listed under each quote it joins.
    for root in merged_roots:
        covered = {
            union.find(p) for o, ps in merged_into.items() if union.find(o) == root for p in ps
        } - merged_roots
        ids = [i for k, node in enumerate(nodes) if union.find(k) == root for i in node.mentions]
        if not covered:  # its parts were joined to it after all: a quote of its own
            members[root].extend(ids)
        for part in covered:
            for i in ids:
                forced[i] = "merged"
            members[part].extend(ids)
    return [(sorted(set(ids)), forced) for ids in members.values()]


def _articles(
    nodes: list[_Node], mentions: list[_Mention], union: UnionFind, root: int
) -> set[int]:
    """The articles quoting the group of ``root`` (indices into the story's analyses)."""
    return {
        mentions[i].article_index
        for k, node in enumerate(nodes)
        if union.find(k) == root
        for i in node.mentions
    }


def _one_article_apart(
    nodes: list[_Node], mentions: list[_Mention], union: UnionFind, roots: list[int]
) -> bool:
    """Two of the groups ``roots`` quoted by one article: an article quoting an utterance
    twice repeats its words, so two wordings of one article still apart are two remarks."""
    seen: set[int] = set()
    for root in roots:
        arts = _articles(nodes, mentions, union, root)
        if arts & seen:
            return True
        seen |= arts
    return False


def _containers(
    contained: list[tuple[int, int, tuple[int, int]]], union: UnionFind
) -> dict[int, list[tuple[int, tuple[int, int]]]]:
    out: dict[int, list[tuple[int, tuple[int, int]]]] = defaultdict(list)
    for inner, outer, region in contained:
        if union.find(inner) != union.find(outer):
            out[outer].append((inner, region))
    return out


def _is_merged(
    parts: list[tuple[int, tuple[int, int]]],
    nodes: list[_Node],
    mentions: list[_Mention],
    union: UnionFind,
) -> bool:
    """Two parts in separate regions, quoted separately by one article: two quotes joined."""
    for x, (a, ra) in enumerate(parts):
        for b, rb in parts[x + 1 :]:
            if union.find(a) == union.find(b):
                continue
            overlap = max(0, min(ra[1], rb[1]) - max(ra[0], rb[0]))
            if overlap > DISJOINT * min(ra[1] - ra[0], rb[1] - rb[0]):
                continue
            arts_a = {mentions[i].article_index for i in nodes[a].mentions}
            arts_b = {mentions[i].article_index for i in nodes[b].mentions}
            if not arts_a & arts_b:
                continue
            # One utterance split around its cue ("A," she said. "B.") and quoted whole
            # elsewhere (A directly followed by B) is not two quotes joined.
            follows = rb[0] == ra[1] or ra[0] == rb[1]
            if follows and any(
                _adjacent(mentions[i], mentions[j])
                for i in nodes[a].mentions
                for j in nodes[b].mentions
            ):
                continue
            return True
    return False


def _adjacent(a: _Mention, b: _Mention) -> bool:
    """Two mentions of one article with only a cue between them."""
    if a.article_index != b.article_index:
        return False
    gap = b.q.start - a.q.end if a.q.start < b.q.start else a.q.start - b.q.end
    return 0 <= gap <= SPLIT_GAP


def _paraphrases(
    nodes: list[_Node],
    mentions: list[_Mention],
    union: UnionFind,
    skip: set[int],
    pairs: list[tuple[int, int]],
) -> None:
    """A lone wording joins the group of the same speaker whose content it rewords."""
    sizes = Counter(union.find(k) for k in range(len(nodes)))
    speaker = [_names(mentions, n.mentions) for n in nodes]
    for i, j in pairs:
        for lone, other in ((i, j), (j, i)):
            root = union.find(lone)
            if sizes[root] != 1 or root in skip or union.find(other) in skip:
                continue
            if union.find(other) == root or not speaker[lone] or not speaker[other]:
                continue
            if not same_speaker(speaker[lone], speaker[other]):
                continue
            if nodes[lone].kind == "direct" and _one_article_apart(
                nodes, mentions, union, [root, union.find(other)]
            ):
                continue  # an article does not reword its own direct quote: another remark
            a, b = nodes[lone].content, nodes[other].content
            shared = len(a & b)
            if shared >= PARA_SHARED and shared / max(1, min(len(a), len(b))) >= PARA_RATIO:
                total = sizes.pop(root) + sizes.pop(union.find(other))
                union.union(lone, other)
                sizes[union.find(lone)] = total
                break


def _attach_indirect(
    mentions: list[_Mention],
    direct: list[tuple[list[int], dict[int, QuoteVariant]]],
    indirect: list[tuple[list[int], dict[int, QuoteVariant]]],
) -> None:
    """Move indirect groups into the direct quote of the same speaker they clearly restate."""
    if not direct or not indirect:
        return
    direct_info = []
    for ids, _ in direct:
        stems = {stem(w) for i in ids for w in mentions[i].core if is_content(w)}
        direct_info.append((stems, _names(mentions, ids)))
    for ids, forced in indirect:
        stems = {stem(w) for i in ids for w in mentions[i].core if is_content(w)}
        names = _names(mentions, ids)
        if len(stems) < PARA_SHARED or not names:
            continue
        best, best_score = None, INDIRECT_ATTACH
        for k, (d_stems, d_names) in enumerate(direct_info):
            if not d_names or not same_speaker(names, d_names):
                continue
            score = len(stems & d_stems) / len(stems)
            if score >= best_score:
                best, best_score = k, score
        if best is not None:
            for i in ids:
                forced[i] = "paraphrased"
            direct[best][0].extend(ids)
            direct[best][1].update({i: "paraphrased" for i in ids})
            ids.clear()


def _canonical(
    mentions: list[_Mention], ids: list[int], forced: dict[int, QuoteVariant]
) -> tuple[_Mention, list[int]]:
    """The original wording: from the earliest-published article (later outlets trim and
    reword it), then the most complete, then the most common; shown in its cleanest
    spelling. A wording one article splits around its cue is joined back. Returns the
    canonical mention and the mentions that make it up."""
    pool = [i for i in ids if i not in forced] or ids
    classes: list[list[int]] = []
    for i in pool:
        for cls in classes:
            x, y = wildcards(mentions[i].core, mentions[cls[0]].core)
            if x == y:
                cls.append(i)
                break
        else:
            classes.append([i])
    best = min(
        classes,
        key=lambda c: (
            min(mentions[i].published for i in c),
            -len(mentions[c[0]].core),
            -len({mentions[i].article_index for i in c}),
            min(c),
        ),
    )
    first = min(best, key=lambda i: (mentions[i].censored, mentions[i].fillers, i))
    chain = _chain(mentions, pool, first)
    if len(chain) == 1:
        return mentions[first], chain
    parts = [mentions[i] for i in chain]
    joined = " ".join(p.q.text.strip() for p in parts)
    raw, core, censored, fillers = tokenise(joined)
    base = parts[0]
    return (
        _Mention(
            base.article_id,
            base.article_index,
            base.q.model_copy(update={"text": joined}),
            raw,
            core,
            censored,
            fillers,
            base.speaker,
            base.published,
            base.occasion,
            base.about,
        ),
        chain,
    )


def _chain(mentions: list[_Mention], pool: list[int], first: int) -> list[int]:
    """``first`` with the mentions of the group it continues or is continued by, in order."""
    same = sorted(
        (i for i in pool if mentions[i].article_index == mentions[first].article_index),
        key=lambda i: mentions[i].q.start,
    )
    k = same.index(first)
    lo = hi = k
    while lo > 0 and _adjacent(mentions[same[lo - 1]], mentions[same[lo]]):
        lo -= 1
    while hi + 1 < len(same) and _adjacent(mentions[same[hi]], mentions[same[hi + 1]]):
        hi += 1
    return same[lo : hi + 1]


def classify(mention: _Mention, canonical: _Mention) -> QuoteVariant:
    """The variant of one mention against the canonical wording."""
    if mention.raw == canonical.raw:
        return "identical"
    x, y = wildcards(mention.core, canonical.core)
    if x == y:
        # Equal up to fillers and censoring: which of the two makes the difference?
        return "filler" if _spelled(mention) == _spelled(canonical) else "censored"
    cut = _cut(x, y)
    if cut is None and any(t.endswith("*") for t in x + y):
        # A censored word left out altogether is censoring, not rewording.
        cut = _cut([t for t in x if not t.endswith("*")], [t for t in y if not t.endswith("*")])
    return cut or "paraphrased"


def _cut(x: list[str], y: list[str]) -> Literal["truncated", "extended"] | None:
    """'truncated' when ``x`` is a contiguous part of ``y``, 'extended' the other way round."""
    blocks = [
        b for b in SequenceMatcher(None, x, y, autojunk=False).get_matching_blocks() if b.size
    ]
    if len(blocks) == 1:
        if blocks[0].size == len(x) < len(y):
            return "truncated"
        if blocks[0].size == len(y) < len(x):
            return "extended"
    return None


def _spelled(mention: _Mention) -> tuple[str, ...]:
    """Raw tokens without fillers: censored words as written."""
    return tokenise(mention.q.text, spelled=True)[0]


@dataclass(frozen=True)
class _SpeakerChoice:
    """The speaker the group's evidence favours, how sure its surest mention is, and the
    other names outlets gave (a conflict to flag)."""

    speaker: str | None
    confidence: float | None
    others: list[str]


def _resolve_speaker(mentions: list[_Mention], ids: list[int], known: set[str]) -> _SpeakerChoice:
    """The name with the most evidence: each article votes for the names it gives with its
    surest mention's confidence (``UNSCORED_CONFIDENCE`` when not scored), and the votes of a
    name are summed. An unresolved mention (no name) never votes. On a tie, a person the
    story's entities know beats a description ("her spokesperson"), then the longer name."""
    votes: dict[str, float] = {}
    surest: dict[str, float | None] = {}  # the highest confidence given, None: never scored
    shown: dict[str, str] = {}
    by_article: dict[tuple[int, str], float] = {}
    for i in ids:
        m = mentions[i]
        if not m.speaker:
            continue
        key = fold(m.speaker)
        shown.setdefault(key, m.speaker)
        confidence = m.q.speaker_confidence
        weight = UNSCORED_CONFIDENCE if confidence is None else confidence
        vote = (m.article_index, key)  # one article repeating a name is one vote
        by_article[vote] = max(by_article.get(vote, 0.0), weight)
        surest[key] = higher_confidence(surest.get(key), confidence)
    for (_article, key), weight in by_article.items():
        votes[key] = votes.get(key, 0.0) + weight
    # A bare surname or first name given for a longer name of the group is that person.
    for key in sorted(votes, key=len):
        parts = key.split()
        longer = [k for k in votes if k != key and set(parts) < set(k.split())]
        if len(longer) == 1:
            votes[longer[0]] += votes.pop(key)
            surest[longer[0]] = higher_confidence(surest[longer[0]], surest.pop(key))
    if not votes:
        return _SpeakerChoice(None, None, [])
    ranked = sorted(
        votes,
        key=lambda k: (-round(votes[k], VOTE_DECIMALS), k not in known, -len(k.split()), k),
    )
    return _SpeakerChoice(shown[ranked[0]], surest[ranked[0]], [shown[k] for k in ranked[1:]])


def higher_confidence(a: float | None, b: float | None) -> float | None:
    """The higher of two confidences, either of which may be missing."""
    return b if a is None else a if b is None else max(a, b)


def _quote(
    mentions: list[_Mention], ids: list[int], forced: dict[int, QuoteVariant], known: set[str]
) -> Quote:
    canonical, chain = _canonical(mentions, ids, forced)
    choice = _resolve_speaker(mentions, ids, known)
    ordered = sorted(ids, key=lambda i: (mentions[i].article_index, mentions[i].q.start))
    exported = []
    for i in ordered:
        m = mentions[i]
        q = m.q
        exported.append(
            ExportQuoteMention(
                article_id=m.article_id,
                start=q.start,
                end=q.end,
                text=q.text,
                kind=q.kind,
                cue=q.cue,
                speaker=q.speaker,
                speaker_start=q.speaker_start,
                speaker_end=q.speaker_end,
                speaker_text=q.speaker_text,
                speaker_confidence=q.speaker_confidence,
                speaker_kind=q.speaker_kind,
                variant=forced.get(i) or ("identical" if i in chain else classify(m, canonical)),
                post_id=q.post_id,
                occasion=m.occasion,
                about=list(m.about),
            )
        )
    norm = " ".join(canonical.core)
    return Quote(
        id=stable_id("quote", norm, fold(choice.speaker or "")),
        text=canonical.q.text,
        speaker=choice.speaker,
        speaker_confidence=choice.confidence,
        speaker_conflict=choice.others,
        mentions=exported,
    )
