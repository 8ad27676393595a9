"""An extractive summary of a story, each sentence citing its articles, and a representative title.

Candidate sentences are the outlets' own body sentences (not quotes, posts, captions or other
boilerplate). Each is a TF-IDF vector of content stems; the story centroid is the mean of the
articles' vectors, so every article weighs the same however long it is. A sentence scores by
its cosine to the centroid, raised by the share of articles that carry a similar sentence
(central *across outlets*) and a little by its lead position. Sentences are picked best-first,
skipping any too similar to one already picked, and shown in reading order. The title is the
founding article's unless another title is clearly more like the others.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz

from ..models import ArticleAnalysis
from ..spans import excluded_spans
from ..text.ranges import RangeSet
from ..text.words import fold, is_content, stem, words
from .passages import sentences_of

# What follows a dateline place before the reporting starts: "(Metro Wire) —", ", March 3 -".
_DATELINE_TAIL = re.compile(r"(?:\s*\([^)]{0,60}\))?[^\w\n]{0,3}?\s*[—–•-]+\s*")
MIN_WORDS = 6  # shorter sentences are datelines, bylines or fragments
MAX_WORDS = 60  # longer ones are run-on lists or mis-split paragraphs
MAX_QUOTED_SHARE = 0.3  # a sentence more quoted than this is the speaker's, not the story's
# Cosine (0-1) at which another article's sentence says the same thing (supports a summary
# sentence) / a candidate repeats a sentence already picked. Set by hand on the rows in
# tests/stories/test_summary.py and examples/corpus: retellings of one fact score 0.4-0.8,
# different facts < 0.2.
SUPPORT = 0.35
REDUNDANT = 0.4
LEAD_BONUS = 0.1  # news puts the gist first: the first sentence gets this much, the next half
MIN_SENTENCES, MAX_SENTENCES = 3, 5
TOP_CANDIDATES = 50  # best-by-centroid sentences whose cross-article support is measured
MAX_TITLES = 200  # titles compared pairwise at most (a sample of a huge story)
# How far (in summed 0-100 similarities) another title must be more central than the founding
# article's to replace it: what one more article carrying exactly that title adds. So one
# article joining never takes the title over by itself unless its title was nearly ahead
# already; a story whose members mostly use another wording does move to it.
TITLE_LEAD = 100.0


@dataclass
class _Sentence:
    article_index: int
    position: int
    start: int
    end: int
    text: str
    vector: dict[str, float]


def _cos(a: dict[str, float], b: dict[str, float]) -> float:
    if len(a) > len(b):
        a, b = b, a
    return sum(v * b.get(k, 0.0) for k, v in a.items())


def _normalised(vector: dict[str, float]) -> dict[str, float]:
    norm = math.sqrt(sum(v * v for v in vector.values()))
    return {k: v / norm for k, v in vector.items()} if norm else {}


def _candidates(analyses: Sequence[ArticleAnalysis]) -> list[tuple[int, int, int, int, list[str]]]:
    out = []
    for a_index, analysis in enumerate(analyses):
        text = analysis.article.text
        quoted = RangeSet(excluded_spans(analysis.quotes, analysis.posts))
        for position, (start, end) in enumerate(sentences_of(analysis)):
            start = _after_dateline(analysis, start, end)
            tokens = words(text[start:end])
            if not MIN_WORDS <= len(tokens) <= MAX_WORDS:
                continue
            covered = quoted.covered(start, end)
            if covered > MAX_QUOTED_SHARE * (end - start):
                continue
            out.append((a_index, position, start, end, [stem(w) for w in tokens if is_content(w)]))
    return out


def _after_dateline(analysis: ArticleAnalysis, start: int, end: int) -> int:
    """Where the sentence's own words start: after a leading "PARIS (Wire) —" dateline."""
    dateline = analysis.article.dateline
    if dateline is None or not start <= dateline.start < end:
        return start
    if analysis.article.text[start : dateline.start].strip():
        return start
    m = _DATELINE_TAIL.match(analysis.article.text, dateline.end, end)
    return m.end() if m else start


def summarise(analyses: Sequence[ArticleAnalysis]) -> list[dict[str, object]]:
    """``[{"text", "article_ids", "article_id", "start", "end"}]`` in reading order."""
    raw = _candidates(analyses)
    if not raw:
        return []
    df = Counter(s for *_, stems in raw for s in set(stems))
    n = len(raw)
    sentences = []
    for a_index, position, start, end, stems in raw:
        tf = Counter(stems)
        vector = _normalised({s: c * (math.log((1 + n) / (1 + df[s])) + 1) for s, c in tf.items()})
        text = analyses[a_index].article.text[start:end]
        sentences.append(_Sentence(a_index, position, start, end, text, vector))
    sentences = [s for s in sentences if s.vector]
    if not sentences:
        return []
    by_article: dict[int, dict[str, float]] = defaultdict(dict)
    for s in sentences:
        acc = by_article[s.article_index]
        for word, weight in s.vector.items():
            acc[word] = acc.get(word, 0.0) + weight
    centroid: dict[str, float] = defaultdict(float)
    for acc in by_article.values():
        for word, weight in _normalised(acc).items():
            centroid[word] += weight / len(by_article)
    centroid_n = _normalised(centroid)
    base = sorted(
        (
            (_cos(s.vector, centroid_n) + LEAD_BONUS / (1 + s.position), k)
            for k, s in enumerate(sentences)
        ),
        reverse=True,
    )[:TOP_CANDIDATES]
    index: dict[str, list[int]] = defaultdict(list)
    for k, s in enumerate(sentences):
        for stem_ in s.vector:
            index[stem_].append(k)
    scored = []
    for score, k in base:
        support = _supporting(k, sentences, index)
        share = len(support) / len(by_article)
        scored.append((score * (1 + share), k, support))
    scored.sort(key=lambda t: (-t[0], t[1]))
    wanted = min(MAX_SENTENCES, max(MIN_SENTENCES, 2 + len(by_article) // 2))
    picked: list[tuple[int, list[int]]] = []
    for _, k, support in scored:
        if any(_cos(sentences[k].vector, sentences[j].vector) >= REDUNDANT for j, _ in picked):
            continue
        picked.append((k, support))
        if len(picked) >= wanted:
            break
    picked.sort(key=lambda p: (sentences[p[0]].position, sentences[p[0]].article_index))
    out: list[dict[str, object]] = []
    for k, support in picked:
        s = sentences[k]
        out.append(
            {
                "text": s.text,
                "article_ids": [analyses[a].article.id for a in support],
                "article_id": analyses[s.article_index].article.id,
                "start": s.start,
                "end": s.end,
            }
        )
    return out


def _supporting(k: int, sentences: list[_Sentence], index: dict[str, list[int]]) -> list[int]:
    """Articles (own first, then in story order) holding a sentence that says the same."""
    own = sentences[k].article_index
    seen: set[int] = set()
    support = {own}
    for stem_ in sentences[k].vector:
        for j in index[stem_]:
            if j in seen or sentences[j].article_index in support:
                continue
            seen.add(j)
            if _cos(sentences[k].vector, sentences[j].vector) >= SUPPORT:
                support.add(sentences[j].article_index)
    return [own, *sorted(support - {own})]


def representative_title(analyses: Sequence[ArticleAnalysis]) -> str | None:
    """The story's title, stable as articles join: the founding article's title (the first
    titled member: the title the story was first shown under) unless another title is
    clearly more central -- ahead by more than TITLE_LEAD -- or None when no member has one.

    Centrality is a title's similarity to every other member's title (a copy counting as a
    perfect match). Similarity is ``token_sort_ratio``, in which a length difference counts:
    ``token_set_ratio`` scored a short title whose words every other title has ("Riverton
    floods") as a copy of each, so one short article joining took the title over. Depends on
    the members only (in order), never on earlier runs: a batch run titles a story as the
    same articles ingested in several runs do.
    """
    titles = [
        " ".join((a.article.title or "").split())
        for a in analyses
        if (a.article.title or "").strip()
    ]
    if not titles:
        return None
    counts = Counter(fold(t) for t in titles)
    distinct: dict[str, str] = {}
    for t in titles:
        distinct.setdefault(fold(t), t)
    keys = list(distinct)[:MAX_TITLES]

    def centrality(key: str) -> float:
        others = sum(fuzz.token_sort_ratio(key, o) * counts[o] for o in keys if o != key)
        return others + 100.0 * (counts[key] - 1)

    founder = keys[0]
    best = max(keys, key=lambda k: (centrality(k), counts[k], -keys.index(k)))
    if centrality(best) > centrality(founder) + TITLE_LEAD:
        return distinct[best]
    return distinct[founder]
