"""Group articles into stories, one article at a time, without re-clustering the store.

``StoryIndex.assign(analysis)`` attaches an article to the most similar existing story or
opens a new one. A story is a centroid per channel (see ``features.py``): the sum of its
members' L2-normalised log-tf vectors. Similarity of an article to a story is

    score = W_NAMES * cos_idf(names) + W_PAIRS * cos_idf(pairs)
            + (1 - W_NAMES - W_PAIRS) * cos_idf(words)
            - YEAR_PENALTY * (1 - year overlap)  - time penalty (publication days apart)
            - NO_SHARED_NAME_PENALTY (when both sides have names and share none)

where ``cos_idf`` weights both sides with IDF from the document frequencies the index keeps
(learned from the stream, applied at comparison time, so early articles are not frozen with
the IDF of a near-empty index).

Blocking keeps the cost near-linear: only stories that share a rare key with the article are
compared -- its name keys and its top words by TF-IDF, each key skipped when too common,
each posting list read from its most recent stories only, and at most ``MAX_CANDIDATES``
stories (most shared keys first) scored. No all-pairs comparison, ever.

Streaming can open two stories for one event before the article that links them arrives, so
an article that scores above ``MERGE_THRESHOLD`` with a second story merges the two when
their centroids agree too. The opposite mistake -- the first article of an event joining a
look-alike story before its own exists, the rest of the event following it -- is undone by
splitting (``split.py``): as a story grows it is bisected on weights local to its members,
and split when the halves have nothing specific in common; the two halves are never merged
again. Splitting re-reads members' features: the latest are kept in memory, older ones come
from ``load_features`` (the store, in ``api``).

Batch (``cluster_analyses``) is the streaming path over a canonical order (publication day,
then article id), so a batch run and a stream in that order give the same stories; other
orders are measured by ``newsloom eval ecbplus``.

The state (``index_state.py``) is held in memory for a batch, or kept as rows by the store
and read per batch for the candidates of its articles (``use_rows``, ``save``).
"""

from __future__ import annotations

import heapq
import math
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from ..models import ArticleAnalysis
from .features import Features, extract_features
from .index_state import CHANNELS, POSTING_LENGTH, IndexRows, IndexState, Story
from .split import bisect

# --- Calibrated on ECB+ dev (772 articles, 66 events in 33 topics of two look-alike events)
# by a grid search over W_NAMES {0.3..0.7} x THRESHOLD {0.10..0.30} x YEAR_PENALTY {0.15, 0.3}
# x MERGE_THRESHOLD {0.25..0.4}, each run in the canonical order and three shuffled orders;
# chosen for the best worst-order BCubed F1 and within-topic ARI (the plateau is flat within
# ~0.02 around these values).
W_NAMES = 0.5
# Word pairs (features.py ``pairs``): weight picked on ECB+ dev from {0.1, 0.15, 0.2, 0.25,
# 0.35} by within-topic ARI over batch and shuffled orders (0.2: ARI +0.03..0.06 over no
# pairs, BCubed F1 unchanged; higher weights fragment stories).
W_PAIRS = 0.2
# Re-calibrated with splitting on (grids over THRESHOLD {0.05..0.15} x SPLIT_BELOW
# {0.09..0.12} x MERGE_THRESHOLD {0.25..0.4}, batch + four to six shuffled orders): a story
# that takes in a look-alike is split later, so joining can be loose (0.2 before splitting,
# 0.125 with average-linkage splits); 0.065-0.08 is a plateau, from 0.05 down articles join
# stories of other topics.
THRESHOLD = 0.08
YEAR_PENALTY = 0.15
# An article and a story that both name people, places or numbers but share none of them are
# two events of one kind (two quakes in one week) unless their words agree strongly: with the
# join threshold this low, such pairs joined on shared vocabulary alone in bench_stories.py
# (B3 precision 0.987 at 30k; 0.993 with this). No ECB+ dev figure moves: there blocking
# finds stories through shared names.
NO_SHARED_NAME_PENALTY = 0.05
# Two stories merge when an article scores at least MERGE_ARTICLE with the other one and the
# two centroids score at least MERGE_THRESHOLD with each other (same formula, story vs story;
# centroids of one event agree more than an article with a centroid, hence the higher bar;
# 0.25 and 0.3 score alike, 0.4 leaves more fragments).
MERGE_THRESHOLD = 0.25
MERGE_ARTICLE = 0.1

# Story splitting (split.py): a story is checked when its size first reaches SPLIT_MIN_SIZE and
# again each time it grew by SPLIT_GROWTH, up to SPLIT_MAX_SIZE members; it splits when the
# two halves of its spectral bisection are at most SPLIT_BELOW similar (locally weighted) and
# the smaller half has SPLIT_MIN_HALF members. From SPLIT_LARGE members on the bar is
# SPLIT_BELOW_LARGE: the mean across two halves of 10+ members averages over a hundred pairs,
# so a story of one event rarely shows a low one by chance (ECB+ dev, over batch + eight
# orders: the lowest 2% of one-event stories checked at 21+ members split at 0.118, at 6-20
# members at 0.075-0.096), while a look-alike event that slipped past the small checks sits
# at 0.09-0.11. Picked on ECB+ dev from {0.09, 0.1} x {14, 21, 31} x {0.11, 0.12}, the same
# choice on the odd topics as on the even ones (docs/benchmarks.md); checking more often
# (growth 1.25, or from 5 or 8 members) scored lower.
SPLIT_BELOW = 0.09
SPLIT_LARGE = 21
SPLIT_BELOW_LARGE = 0.11
SPLIT_MIN_HALF = 3
SPLIT_MIN_SIZE = 6
SPLIT_GROWTH = 1.5
SPLIT_MAX_SIZE = 64
# Channels and weights of the members' local similarity: the scoring weights plus the years
# the articles cite. Inside one story the years are what tells the two rehab stories five
# years apart: bisecting each ECB+ dev topic (all its articles as one story) finds its two
# events with mean ARI 0.95 (27 of 33 topics exactly), against 0.87 without the years.
SPLIT_WEIGHTS = {"names": W_NAMES, "pairs": W_PAIRS, "words": 1 - W_NAMES - W_PAIRS, "years": 0.2}
# Features kept in memory for splitting (the rest are re-read through ``load_features``).
RECENT_FEATURES = 5000

# Publication-time proximity (only when both sides know their day): no penalty within a
# week (follow-ups of one event), then up to TIME_PENALTY over the next TIME_SCALE days
# (larger than THRESHOLD, so a weak match months apart opens a story of its own).
TIME_GRACE_DAYS = 7
TIME_SCALE_DAYS = 60
TIME_PENALTY = 0.3

# --- Blocking (cost control, not quality: raising them changes ECB+ figures by < 0.005).
TOP_WORDS = 12  # an article's words used as keys (highest TF-IDF)
MAX_KEY_STORIES = POSTING_LENGTH  # stories read from one posting list (the most recent)
MAX_CANDIDATES = 16  # stories scored per article (16-40 score alike on ECB+ and bench_stories.py)
# A key in more than this share of the articles is not rare (never used once N >= 200).
MAX_KEY_SHARE = 0.05
MIN_KEY_CAP = 10
# Centroid norms are recomputed when the number of articles grew by this factor since.
NORM_REFRESH = 1.25

Weighted = dict[str, tuple[dict[str, float], float]]
FeatureLoader = Callable[[Sequence[str]], dict[str, Features]]


def _idf(df: int, n: int) -> float:
    return math.log((n + 1) / (df + 1)) + 1.0


class StoryIndex:
    """Incremental story clustering with IDF learned from the stream.

    The state is in memory, or read from ``rows`` as the index needs it (``use_rows``) and
    written back by ``save``: see ``index_state.py``.
    """

    def __init__(
        self, load_features: FeatureLoader | None = None, rows: IndexRows | None = None
    ) -> None:
        self.state = IndexState(rows)
        # Features of the latest articles (splitting re-reads members; older ones come from
        # ``load_features``, e.g. the store). Not part of the saved state.
        self.recent: OrderedDict[str, Features] = OrderedDict()
        self.load_features = load_features
        self.changed: set[str] = set()  # stories touched since ``take_changed``
        self.roots = _Roots(self._find)

    @property
    def n(self) -> int:
        """Articles in the index."""
        return self.state.n

    def use_rows(self, rows: IndexRows) -> None:
        """Read the index from ``rows`` from now on (what was read before is forgotten; the
        features of recent articles are kept: they do not change)."""
        self.state = IndexState(rows)
        self.changed = set()
        self.roots.clear()

    def save(self) -> None:
        """Write what changed to the rows (nothing to do in memory)."""
        self.state.flush()

    # --- public API -----------------------------------------------------------------------

    def assign(self, analysis: ArticleAnalysis) -> str:
        """Attach one article to a story (or open one); returns the story key.

        Keys are stable: a story keeps the key of the story that opened first; use
        ``story_key(article_id)`` later, since merges can move an article's story.
        """
        aid = analysis.article.id
        if self.state.story_key_of(aid) is not None:
            return self.story_key(aid)
        return self.add(aid, extract_features(analysis))

    def add(self, aid: str, feats: Features) -> str:
        self.state.forget_clean()
        self._count(feats)
        keys = self._keys(feats)
        weighted = self._weigh(feats)
        candidates = self._candidates(keys)
        self.state.need_stories(candidates)
        scored = [(self._score(feats, self.state.story(k), weighted), k) for k in candidates]
        scored.sort(key=lambda sk: (-sk[0], sk[1]))
        if scored and scored[0][0] >= THRESHOLD:
            key = scored[0][1]
        else:
            self.state.counter += 1
            key = f"s{self.state.counter}"
            self.state.open_story(Story(key=key))
        self._remember(aid, feats)
        self._attach(self.state.story(key), aid, feats, keys)
        # The article may be the link between its story and another one opened earlier for
        # the same event: merge them when the two centroids agree (centroid linkage).
        for score, other in scored:
            if score < MERGE_ARTICLE:
                break
            other = self._find(other)
            if other == key or self._kept_apart(key, other):
                continue
            story, other_story = self.state.story(key), self.state.story(other)
            if self._story_score(story, other_story) >= MERGE_THRESHOLD:
                key = self._merge(key, other)
        self._check_split(key)
        return self.story_key(aid)

    def take_changed(self) -> set[str]:
        """Keys of the stories opened, grown, merged or split since the last call."""
        keys = {self._find(k) for k in self.changed}
        self.changed = set()
        return {k for k in keys if self.state.has_story(k)}

    def story_key(self, article_id: str) -> str:
        key = self.state.story_key_of(article_id)
        if key is None:
            raise KeyError(article_id)
        return self._find(key)

    def indexed(self, article_ids: Iterable[str]) -> set[str]:
        """Those of ``article_ids`` the index holds (read together)."""
        ids = list(article_ids)
        self.state.need_story_of(ids)
        return {aid for aid in ids if self.state.story_key_of(aid) is not None}

    def prefetch(self, features: Iterable[Features]) -> None:
        """Read the document frequencies of these articles' terms together (they are read
        anyway when each is added; together is fewer reads of the rows)."""
        terms: dict[str, set[str]] = {c: set() for c in CHANNELS}
        for feats in features:
            for channel in CHANNELS:
                terms[channel].update(getattr(feats, channel))
        for channel in CHANNELS:
            self.state.need_df(channel, terms[channel])

    def story(self, key: str) -> Story | None:
        """The live story ``key`` (None: merged away, or never opened)."""
        return self.state.story(key) if self.state.has_story(key) else None

    def groups(self) -> list[list[str]]:
        """Article ids per story, stories in opening order, members in arrival order."""
        stories = sorted(self.state.all_stories(), key=lambda s: _num(s.key))
        return [list(s.members) for s in stories]

    # --- scoring --------------------------------------------------------------------------

    def _count(self, feats: Features) -> None:
        self.state.n += 1
        for channel in CHANNELS:
            self.state.count(channel, getattr(feats, channel).keys())

    def _weigh(self, feats: Features) -> dict[str, tuple[dict[str, float], float]]:
        """Per channel: term -> weight * idf^2, and the article's squared IDF-weighted norm.

        Computed once per article, so scoring a candidate story is one dict look-up per term.
        """
        out = {}
        n = self.state.n
        for channel in CHANNELS:
            terms = getattr(feats, channel)
            df = self.state.need_df(channel, terms)
            weighted = {}
            norm = 0.0
            for term, weight in terms.items():
                idf2 = _idf(df.get(term, 0), n) ** 2
                weighted[term] = weight * idf2
                norm += weight * weight * idf2
            out[channel] = (weighted, norm)
        return out

    def _cos(self, weighted: dict[str, float], norm: float, story: Story, channel: str) -> float:
        centroid: dict[str, float] = getattr(story, channel)
        dot = 0.0
        for term, weight in weighted.items():
            other = centroid.get(term)
            if other:
                dot += weight * other
        story_norm = self._story_norm(story, channel)
        if not dot or not norm or not story_norm:
            return 0.0
        return dot / math.sqrt(norm * story_norm)

    def _story_norm(self, story: Story, channel: str) -> float:
        n = self.state.n
        if n > story.norm_n * NORM_REFRESH or channel not in story.norms:
            for ch in CHANNELS:
                centroid = getattr(story, ch)
                df = self.state.need_df(ch, centroid)
                story.norms[ch] = sum((w * _idf(df.get(t, 0), n)) ** 2 for t, w in centroid.items())
            story.norm_n = n
            self.state.touch(story)
        return story.norms[channel]

    def _score(self, feats: Features, story: Story, weighted: Weighted | None = None) -> float:
        w = weighted or self._weigh(feats)
        names = self._cos(*w["names"], story, "names")
        words = self._cos(*w["words"], story, "words")
        pairs = self._cos(*w["pairs"], story, "pairs")
        score = W_NAMES * names + W_PAIRS * pairs + (1 - W_NAMES - W_PAIRS) * words
        if not names and feats.names and story.names:
            score -= NO_SHARED_NAME_PENALTY
        return (
            score - _year_penalty(feats.years, story.years) - _time_penalty(feats.day, story.days)
        )

    def _story_score(self, a: Story, b: Story) -> float:
        """Story vs story: the same formula with ``a``'s centroid as the article."""
        feats = Features(
            words=a.words, names=a.names, years=_unit_sum(a.years), day=None, pairs=a.pairs
        )
        score = self._score(feats, b)
        if a.days and b.days:
            gap = max(0, max(a.days[0], b.days[0]) - min(a.days[1], b.days[1]))
            score -= _time_gap_penalty(gap)
        return score

    # --- blocking -------------------------------------------------------------------------

    def _keys(self, feats: Features) -> list[str]:
        """The article's rare keys: every name key, plus its top words by TF-IDF."""
        df, n = self.state.need_df("words", feats.words), self.state.n
        top = heapq.nlargest(
            TOP_WORDS,
            feats.words.items(),
            key=lambda kv: (kv[1] * _idf(df.get(kv[0], 0), n), kv[0]),
        )
        return ["n:" + k for k in feats.names] + ["w:" + k for k, _ in top]

    def _candidates(self, keys: Sequence[str]) -> list[str]:
        """Stories sharing the most rare keys with the article (its terms are counted)."""
        cap = max(MIN_KEY_CAP, int(MAX_KEY_SHARE * self.state.n))
        self.state.need_postings(keys)
        hits: Counter[str] = Counter()
        # A story is in the postings of many of the article's keys (about 1,300 look-ups an
        # article at 1M stored): each is followed to the story it was merged into once, and
        # a key's stories count once each (a set, counted in C).
        roots = self.roots
        for key in keys:
            channel = "names" if key.startswith("n:") else "words"
            if self.state.df[channel].get(key[2:], 0) > cap + 1:  # +1: this article counted
                continue
            posting = self.state.posting(key)
            if posting:
                hits.update({roots[sk] for sk in posting[-MAX_KEY_STORIES:]})
        return _most_hits(hits, MAX_CANDIDATES)

    # --- updates --------------------------------------------------------------------------

    def _attach(self, story: Story, aid: str, feats: Features, keys: list[str]) -> None:
        self.changed.add(story.key)
        story.members.append(aid)
        self.state.set_story_of(aid, story.key)
        if len(story.members) == 1:  # a new story: its norms start from zero here
            story.norms = {c: 0.0 for c in CHANNELS}
            story.norm_n = self.state.n
        self._add_features(story, feats)
        self._post(story.key, keys)

    def _add_features(self, story: Story, feats: Features) -> None:
        """Add one member's features to the story's centroids, norms, years and days."""
        self.state.touch(story)
        n = self.state.n
        for channel in CHANNELS:
            centroid: dict[str, float] = getattr(story, channel)
            terms = getattr(feats, channel)
            norm = story.norms.get(channel)  # None after a merge: recomputed when next read
            df = self.state.need_df(channel, terms) if norm is not None else {}
            for term, weight in terms.items():
                old = centroid.get(term, 0.0)
                centroid[term] = old + weight
                if norm is not None:
                    norm += ((old + weight) ** 2 - old * old) * _idf(df.get(term, 0), n) ** 2
            if norm is not None:
                story.norms[channel] = norm
        for year, share in feats.years.items():
            story.years[year] = story.years.get(year, 0.0) + share
        if feats.day is not None:
            story.days = (
                [min(story.days[0], feats.day), max(story.days[1], feats.day)]
                if story.days
                else [feats.day, feats.day]
            )

    def _post(self, story_key: str, keys: Sequence[str]) -> None:
        self.state.need_postings(keys)
        for key in keys:
            self.state.post(key, story_key)

    def _merge(self, keep: str, gone: str) -> str:
        """Fold story ``gone`` into ``keep`` (the older key survives); returns the survivor."""
        if _num(gone) < _num(keep):
            keep, gone = gone, keep
        self.state.need_stories([keep, gone])
        a, b = self.state.story(keep), self.state.drop_story(gone)
        self.roots.clear()  # stories that led to ``gone`` lead to ``keep`` now
        a.members.extend(b.members)  # the survivor's founder stays first: it names the story
        for channel in CHANNELS:
            centroid: dict[str, float] = getattr(a, channel)
            for term, weight in getattr(b, channel).items():
                centroid[term] = centroid.get(term, 0.0) + weight
        for year, share in b.years.items():
            a.years[year] = a.years.get(year, 0.0) + share
        if b.days:
            a.days = (
                [min(a.days[0], b.days[0]), max(a.days[1], b.days[1])] if a.days else list(b.days)
            )
        a.norms = {}
        a.norm_n = 0
        a.apart.extend(b.apart)
        self.state.touch(a)
        self.state.set_merged(gone, keep)
        self.changed.add(keep)
        return keep

    def _kept_apart(self, a: str, b: str) -> bool:
        return any(self._find(k) == b for k in self.state.story(a).apart) or any(
            self._find(k) == a for k in self.state.story(b).apart
        )

    def _check_split(self, key: str) -> None:
        story = self.state.story(key)
        size = len(story.members)
        if size < SPLIT_MIN_SIZE or size > SPLIT_MAX_SIZE or size < story.checked * SPLIT_GROWTH:
            return
        story.checked = size
        self.state.touch(story)
        features = self._member_features(story.members)
        if features is None:
            return
        members = [features[a] for a in story.members]
        labels, between = bisect(members, SPLIT_WEIGHTS)
        halves = [
            [a for a, x in zip(story.members, labels, strict=True) if x == side] for side in (0, 1)
        ]
        bar = SPLIT_BELOW_LARGE if size >= SPLIT_LARGE else SPLIT_BELOW
        if between > bar or min(len(h) for h in halves) < SPLIT_MIN_HALF:
            return
        # The half holding the story's first member (its founder, which the story id hashes)
        # keeps the key; the other half starts with its own first member.
        stay, leave = halves if story.members[0] in halves[0] else halves[::-1]
        self.state.counter += 1
        new = Story(key=f"s{self.state.counter}", apart=[key])
        story.apart.append(new.key)
        self.state.open_story(new)
        self._rebuild(story, stay, features)
        self._rebuild(new, leave, features)
        self.changed.update((key, new.key))
        for aid in leave:
            self.state.set_story_of(aid, new.key)
            self._post(new.key, self._keys(features[aid]))

    def _remember(self, aid: str, feats: Features) -> None:
        self.recent[aid] = feats
        if len(self.recent) > RECENT_FEATURES:
            self.recent.popitem(last=False)

    def _member_features(self, members: list[str]) -> dict[str, Features] | None:
        """Features of these articles, or None when some are neither recent nor loadable."""
        found = {aid: self.recent[aid] for aid in members if aid in self.recent}
        missing = [aid for aid in members if aid not in found]
        if missing and self.load_features is not None:
            found.update(self.load_features(missing))
        return found if len(found) == len(members) else None

    def _rebuild(self, story: Story, members: list[str], features: dict[str, Features]) -> None:
        """Centroids, years and days of ``story`` from these members' features."""
        story.members = list(members)
        story.words, story.names, story.pairs, story.years, story.days = {}, {}, {}, {}, []
        story.norms, story.norm_n = {}, 0  # recomputed when next read
        for aid in members:
            self._add_features(story, features[aid])
        story.checked = len(members)

    def _find(self, key: str) -> str:
        into = self.state.merged_into(key)
        if into is None:  # most keys were never merged
            return key
        path = [key]
        key = into
        while (into := self.state.merged_into(key)) is not None:
            path.append(key)
            key = into
        for p in path[:-1]:  # path compression keeps later look-ups O(1)
            self.state.set_merged(p, key)
        return key

    # --- persistence ----------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Plain-JSON state of an index in memory (what the store kept before version 5)."""
        changes = self.state.changes()
        df: dict[str, dict[str, int]] = {c: {} for c in CHANNELS}
        for c in CHANNELS:
            df[c] = dict(self.state.df[c])
        return {
            "version": 1,
            "n": changes.n,
            "counter": changes.counter,
            "df": df,
            "stories": [s.to_dict() for s in self.state.stories.values()],
            "story_of_article": dict(self.state.story_of),
            "postings": changes.postings,
            "merged": changes.merged,
        }

    @classmethod
    def from_dict(
        cls, state: dict[str, Any], load_features: FeatureLoader | None = None
    ) -> StoryIndex:
        """An index in memory from ``to_dict`` (posting lists cut to the entries it reads)."""
        index = cls(load_features)
        s = index.state
        s.n = state["n"]
        s.counter = state["counter"]
        s.df = {c: dict(state["df"].get(c, {})) for c in CHANNELS}
        s.stories = {d["key"]: Story.from_dict(d) for d in state["stories"]}
        s.story_of = dict(state["story_of_article"])
        s.postings = {k: list(v[-POSTING_LENGTH:]) for k, v in state["postings"].items()}
        s.merged = dict(state["merged"])
        return index


class _Roots(dict[str, str]):
    """Story key -> the live story it was merged into (itself when never merged), found on
    first use; the index empties it when stories merge."""

    def __init__(self, find: Callable[[str], str]) -> None:
        super().__init__()
        self.find = find

    def __missing__(self, key: str) -> str:
        root = self[key] = self.find(key)
        return root


def _num(key: str) -> int:
    return int(key[1:])


def _most_hits(hits: Counter[str], k: int) -> list[str]:
    """The ``k`` stories with the most hits, ties to the older key: the first ``k`` of the
    whole ranking, sorting only the stories that can be among them (most have one hit)."""
    if len(hits) > k:
        bar = heapq.nlargest(k, hits.values())[-1]
        hits = Counter({key: n for key, n in hits.items() if n >= bar})
    ranked = sorted(hits.items(), key=lambda kv: (-kv[1], _num(kv[0])))
    return [key for key, _ in ranked[:k]]


def _unit_sum(vec: dict[str, float]) -> dict[str, float]:
    total = sum(vec.values()) or 1.0
    return {k: w / total for k, w in vec.items()}


def _year_penalty(article: dict[str, float], story: dict[str, float]) -> float:
    """YEAR_PENALTY scaled by how little of the story's year mass the article's years share."""
    if not article or not story:
        return 0.0
    total = sum(story.values())
    overlap = sum(min(share, story.get(year, 0.0) / total) for year, share in article.items())
    return YEAR_PENALTY * (1.0 - overlap)


def _time_gap_penalty(gap: int) -> float:
    return TIME_PENALTY * min(1.0, max(0, gap - TIME_GRACE_DAYS) / TIME_SCALE_DAYS)


def _time_penalty(day: int | None, days: list[int]) -> float:
    if day is None or not days:
        return 0.0
    return _time_gap_penalty(max(0, days[0] - day, day - days[1]))


def features_of(analyses: Mapping[str, ArticleAnalysis]) -> FeatureLoader:
    """A ``load_features`` for analyses held in memory (article id -> analysis)."""
    return lambda ids: {aid: extract_features(analyses[aid]) for aid in ids}


def canonical_order(analyses: Sequence[ArticleAnalysis]) -> list[ArticleAnalysis]:
    """Publication date first (undated last), then article id: the same for any input order."""
    return sorted(
        analyses,
        key=lambda a: (a.article.published is None, a.article.published or "", a.article.id),
    )


def cluster_analyses(analyses: Sequence[ArticleAnalysis]) -> list[list[ArticleAnalysis]]:
    """Batch clustering: the streaming path over the canonical order.

    Groups come out ordered by their earliest member in the canonical order, members in
    that order too; duplicate article ids keep their first analysis.
    """
    ordered = canonical_order(analyses)
    by_id: dict[str, ArticleAnalysis] = {}
    for analysis in ordered:
        by_id.setdefault(analysis.article.id, analysis)
    index = StoryIndex(features_of(by_id))
    for analysis in by_id.values():
        index.assign(analysis)
    rank = {aid: i for i, aid in enumerate(by_id)}
    groups = [sorted(ids, key=rank.__getitem__) for ids in index.groups()]
    groups.sort(key=lambda ids: rank[ids[0]])
    return [[by_id[aid] for aid in ids] for ids in groups]
