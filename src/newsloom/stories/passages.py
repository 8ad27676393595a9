"""Copied passages: sentences and paragraphs that several outlets share verbatim or nearly so.

Each body sentence becomes a set of word 3-shingles over the outlet's *own* words: text inside
direct quotes and embedded posts is left out, so two outlets quoting the same statement are
not copying each other, while a copied sentence that wraps a quote still matches on its own
words. MinHash LSH proposes candidate pairs between articles of different outlets (no
all-pairs comparison), and every candidate is verified on the words themselves before it
counts. Matching sentences are joined into components, and components that continue each
other in every article they share become one passage. The earliest publisher is named only
when publication dates put one article strictly before all the others.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from rapidfuzz import fuzz

from ..models import Article, ArticleAnalysis, CopiedPassage, PassageSpan, stable_id
from ..spans import body_ranges, excluded_spans
from ..text.ranges import RangeSet, inside, strip_span
from ..text.unionfind import UnionFind
from .outlets import outlet_key

# A sentence needs this many own words to count as copied: shorter shared sentences ("He
# declined to comment.") are stock phrases, not copying. Set on hand-built stories in
# tests/stories/test_passages.py.
MIN_OWN_WORDS = 8
SHINGLE = 3  # words per shingle
NUM_PERM = 128  # MinHash permutations (datasketch's default precision)
# LSH proposes pairs whose shingle Jaccard is likely above this; verification decides.
LSH_THRESHOLD = 0.4
# (bands, rows) datasketch picks for LSH_THRESHOLD and NUM_PERM with equal false-positive and
# false-negative weights (``datasketch.lsh._optimal_param(0.4, 128, 0.5, 0.5)``); given here
# because datasketch otherwise integrates them numerically for every story (~0.15 s each).
LSH_BANDS = (32, 4)
# Near-verbatim: normalised word-sequence similarity (rapidfuzz ratio, 0-100) at or above
# this. A copied sentence with one word changed in ten scores ~90; two unrelated sentences
# about the same event score < 60 on the hand-built cases.
MIN_SIMILARITY = 80.0

_WORD = re.compile(r"\w+(?:['’]\w+)*")
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"'”’)]*\s+(?=[\"'“‘(]?[A-Z0-9])")


@dataclass(frozen=True)
class Unit:
    """One sentence of one article, as its own words."""

    article: int  # index into the story's analyses
    index: int  # sentence position in the article
    start: int
    end: int
    words: tuple[str, ...]


def sentences_of(analysis: ArticleAnalysis) -> list[tuple[int, int]]:
    """Body sentences: the analysis' own sentence spans, or a punctuation split of the body."""
    text = analysis.article.text
    body = body_ranges(analysis.paragraphs, len(text))
    if analysis.sentences:
        body_set = RangeSet(body)  # a long article has thousands of paragraphs
        return [(s, e) for s, e in analysis.sentences if body_set.overlaps(s, e)]
    spans: list[tuple[int, int]] = []
    for start, end in body:
        cursor = start
        for match in _SENTENCE_END.finditer(text, start, end):
            spans.append((cursor, match.start()))
            cursor = match.end()
        spans.append((cursor, end))
    return [strip_span(text, s, e) for s, e in spans if text[s:e].strip()]


def _units(analyses: Sequence[ArticleAnalysis]) -> list[Unit]:
    units = []
    for a_index, analysis in enumerate(analyses):
        text = analysis.article.text
        excluded = excluded_spans(analysis.quotes, analysis.posts)
        for s_index, (start, end) in enumerate(sentences_of(analysis)):
            # Only the quotes and posts overlapping this sentence can exclude its words.
            near = [(s, e) for s, e in excluded if s < end and start < e]
            words = tuple(
                m.group(0).lower()
                for m in _WORD.finditer(text, start, end)
                if not near or not inside(m.start(), m.end(), near)
            )
            if len(words) >= MIN_OWN_WORDS:
                units.append(Unit(a_index, s_index, start, end, words))
    return units


def minhash_classes() -> tuple[Any, Any]:
    """datasketch's ``MinHash`` and ``MinHashLSH``, imported on first use: the import costs
    about 0.3 s of CPU (datasketch imports scipy.integrate), paid only by a process that looks
    for copied passages, or that prepares to (``engine.batches.warm_stories``)."""
    from datasketch import MinHash, MinHashLSH

    return MinHash, MinHashLSH


def _candidate_pairs(
    units: list[Unit], analyses: Sequence[ArticleAnalysis]
) -> Iterator[tuple[int, int]]:
    """Unit pairs from different outlets worth verifying.

    Identical sentences (syndicated copies) are paired directly, once per copy; MinHash LSH
    runs over the distinct sentences only, so a wire story copied by many outlets stays cheap.
    """
    MinHash, MinHashLSH = minhash_classes()  # noqa: N806 (classes)

    keys = [outlet_key(a.article) for a in analyses]
    copies: dict[tuple[str, ...], list[int]] = defaultdict(list)
    for i, unit in enumerate(units):
        copies[unit.words].append(i)
    groups = list(copies.values())
    for members in groups:
        pair = _cross_outlet_anchor(members, units, keys)
        if pair is None:
            continue
        first, second = pair
        for m in members:
            anchor = first if keys[units[m].article] != keys[units[first].article] else second
            if m != anchor:
                yield min(anchor, m), max(anchor, m)
    lsh = MinHashLSH(threshold=LSH_THRESHOLD, num_perm=NUM_PERM, params=LSH_BANDS)
    # One set of permutations for every sentence (MinHash draws them anew for each otherwise).
    template = MinHash(num_perm=NUM_PERM)
    hashes = []
    for g, members in enumerate(groups):
        words = units[members[0]].words
        shingles = {
            " ".join(words[k : k + SHINGLE]).encode() for k in range(len(words) - SHINGLE + 1)
        }
        mh = MinHash(num_perm=NUM_PERM, permutations=template.permutations, scheme=template.scheme)
        mh.update_batch(sorted(shingles))
        lsh.insert(g, mh)
        hashes.append(mh)
    for g, mh in enumerate(hashes):
        for h in lsh.query(mh):
            if h <= g:
                continue
            # An outlet reusing its own text is not copying.
            yield from _one_cross_pair(groups[g], groups[h], units, keys)


def _cross_outlet_anchor(
    members: list[int], units: list[Unit], keys: list[str]
) -> tuple[int, int] | None:
    """The first member and the first one of another outlet, or None (one outlet only)."""
    first = members[0]
    for m in members[1:]:
        if keys[units[m].article] != keys[units[first].article]:
            return first, m
    return None


def _one_cross_pair(
    a: list[int], b: list[int], units: list[Unit], keys: list[str]
) -> Iterator[tuple[int, int]]:
    """One pair across the two groups from different outlets, if there is one."""
    for i in a:
        for j in b:
            if keys[units[i].article] != keys[units[j].article]:
                yield min(i, j), max(i, j)
                return


def find_copied_passages(analyses: Sequence[ArticleAnalysis]) -> list[CopiedPassage]:
    """Passages shared between articles of different outlets in one story."""
    if len(analyses) < 2:
        return []
    units = _units(analyses)
    union = UnionFind(len(units))
    edge_similarity: dict[int, float] = {}
    for i, j in _candidate_pairs(units, analyses):
        if units[i].words == units[j].words:
            score = 100.0
        else:
            score = fuzz.ratio(" ".join(units[i].words), " ".join(units[j].words))
        if score < MIN_SIMILARITY:
            continue
        ri, rj = union.find(i), union.find(j)
        low = min(score, edge_similarity.get(ri, 100.0), edge_similarity.get(rj, 100.0))
        edge_similarity[union.union(ri, rj)] = low  # the weakest link, kept at the root
    components = [
        (
            sorted(m, key=lambda k: (units[k].article, units[k].index)),
            edge_similarity[union.find(m[0])],
        )
        for m in union.groups()
        if len(m) > 1
    ]
    return _passages(_join_consecutive(components, units), units, analyses)


def _runs(component: list[int], units: list[Unit]) -> dict[int, tuple[int, int]] | None:
    """article -> (first, last) sentence index, when each article holds one unbroken run."""
    runs: dict[int, list[int]] = defaultdict(list)
    for k in component:
        runs[units[k].article].append(units[k].index)
    out = {}
    for article, indices in runs.items():
        indices.sort()
        if indices != list(range(indices[0], indices[0] + len(indices))):
            return None
        out[article] = (indices[0], indices[-1])
    return out


def _join_consecutive(
    components: list[tuple[list[int], float]], units: list[Unit]
) -> list[tuple[list[int], float]]:
    """Components that continue each other in every article become one passage."""
    ordered = sorted(components, key=lambda c: (units[c[0][0]].article, units[c[0][0]].index))
    joined: list[tuple[list[int], float]] = []
    for comp, sim in ordered:
        if joined:
            prev, prev_sim = joined[-1]
            a, b = _runs(prev, units), _runs(comp, units)
            if a and b and a.keys() == b.keys() and all(b[k][0] == a[k][1] + 1 for k in a):
                joined[-1] = (prev + comp, min(prev_sim, sim))
                continue
        joined.append((comp, sim))
    return joined


def _passages(
    joined: list[tuple[list[int], float]], units: list[Unit], analyses: Sequence[ArticleAnalysis]
) -> list[CopiedPassage]:
    out = []
    for comp, sim in joined:
        by_article: dict[int, list[Unit]] = defaultdict(list)
        for k in comp:
            by_article[units[k].article].append(units[k])
        spans = []
        for a_index, members in sorted(by_article.items()):
            article = analyses[a_index].article
            for group in _contiguous(sorted(members, key=lambda u: u.index)):
                start, end = group[0].start, group[-1].end
                spans.append(
                    PassageSpan(
                        article_id=article.id,
                        start=start,
                        end=end,
                        text=article.text[start:end],
                        source=article.source,
                        published=article.published,
                    )
                )
        earliest, reason = earliest_publisher([analyses[a].article for a in sorted(by_article)])
        out.append(
            CopiedPassage(
                id=stable_id("passage", *sorted(f"{s.article_id}:{s.start}" for s in spans)),
                spans=spans,
                similarity=round(sim / 100.0, 3),
                earliest_article_id=earliest.id if earliest else None,
                earliest_source=earliest.source if earliest else None,
                earliest_reason=reason,
            )
        )
    out.sort(key=lambda p: (-len({s.article_id for s in p.spans}), -len(p.spans[0].text), p.id))
    return out


def _contiguous(members: list[Unit]) -> list[list[Unit]]:
    groups: list[list[Unit]] = []
    for unit in members:
        if groups and unit.index == groups[-1][-1].index + 1:
            groups[-1].append(unit)
        else:
            groups.append([unit])
    return groups


_LOW = "0000-01-01T00:00:00"
_HIGH = "9999-12-31T23:59:59"


def date_interval(published: str | None) -> tuple[str, str] | None:
    """The time an ISO date (or datetime) may stand for, as comparable strings."""
    if not published or not re.match(r"\d{4}(-\d{2}){0,2}(T\d{2}(:\d{2}){0,2})?", published):
        return None
    value = published[:19]
    return value + _LOW[len(value) :], value + _HIGH[len(value) :]


def earliest_publisher(articles: Iterable[Article]) -> tuple[Article | None, str]:
    """The article published strictly before every other one, or None with the reason."""
    articles = list(articles)
    missing = [a for a in articles if date_interval(a.published) is None]
    if missing:
        names = ", ".join(sorted({a.source or a.id for a in missing}))
        return None, f"unknown: no publication date for {names}"
    intervals = {a.id: date_interval(a.published) for a in articles}
    for a in articles:
        low, high = intervals[a.id]  # type: ignore[misc]
        if all(high < intervals[b.id][0] for b in articles if b.id != a.id):  # type: ignore[index]
            return a, f"earliest publication date ({a.published})"
    first = min(articles, key=lambda a: intervals[a.id][0])  # type: ignore[index]
    tied = [a for a in articles if not intervals[a.id][0] > intervals[first.id][1]]  # type: ignore[index]
    names = ", ".join(sorted({a.source or a.id for a in tied}))
    return None, f"unknown: {names} published within the same date precision ({first.published})"
