"""Tracked quotes at scale: linking cost per mention and peak memory as the store grows.

    .venv/bin/python bench/bench_tracking.py [--mentions 100000 250000 500000]
        [--rounds 3] [--stories 300] [--fill-batch 2000] [--quick] [--db FILE] [--seed 7]
        [--profile FILE]

Stories are generated here (no spaCy): utterances of 5-40 words drawn from an invented
vocabulary (content words with Zipf frequencies, mixed with English function words at about
the rate speech has them), a share of them carrying a stock phrase or slogan that many
speakers use, speakers from a Zipf-weighted pool of invented names, outlets and dates. Each
story has a few articles quoting one to several utterances; each article words a quote its
own way (identical, truncated, extended, one word changed, censored, a filler word), and a
share of a story's utterances are re-quoted from earlier stories (half from the last few
thousand utterances, half by popularity, so a famous line is re-quoted again and again).
``Story`` objects are built directly; each article gets a minimal row in the articles table
(outlet and date, empty text), as ``article_infos`` reads it. The mix of common phrases is
set so that distinct utterances share a fingerprint as often as the direct quotes of PolNeAR
train + dev do (1.5e-3 of all pairs, 8.3 sharing nodes per quote among 5,444).

A SQLite store (a file; ``--db``, default under the system temp folder, removed first) is
filled up to each checkpoint of ``--mentions`` by ``SqlStore.replace_stories`` on batches of
``--fill-batch`` stories (one transaction and one ``update_tracking`` per batch: the same
code, fewer round trips; tracking does not depend on how stories are batched). At each
checkpoint ``--rounds`` rounds of ``--stories`` new stories are written one story per
transaction, as ``newsloom ingest`` writes a rebuilt story (``finish_rebuild``), and timed.
Printed per checkpoint: the mean milliseconds of those writes per mention written (story rows,
tracking and commit: the whole write), the mean over the new nodes (story quotes with a direct
wording) of the stored nodes that share a fingerprint with them, stop fingerprints aside
(counted before the round, untimed), the stored nodes each write loads and re-tracks per new
node, the peak RSS during the measured writes (the process's high-water mark, reset before
them), and the store's size. Then the per-mention cost ratio of the largest checkpoint to the
smallest. ``--profile`` writes a cProfile of the measured writes at the last checkpoint.
Nothing here asserts. Figures and their history: docs/benchmarks.md, "Tracked quotes at scale".
"""

from __future__ import annotations

import argparse
import cProfile
import random
import resource
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import date, timedelta
from itertools import accumulate
from pathlib import Path
from typing import Any

from sqlalchemy import func, insert, select

from newsloom.models import ExportQuoteMention, Quote, Story, stable_id
from newsloom.store import schema as t
from newsloom.store import tracking as store_tracking
from newsloom.store.sql import SqlStore
from newsloom.stories import tracking as stories_tracking
from newsloom.stories.tracking import node_fingerprints, story_nodes

DEFAULT_MENTIONS = (100_000, 250_000, 500_000)
QUICK_MENTIONS = (2_000, 5_000)

# The generated language. Zipf (1 / rank) over the content words, as word frequencies go;
# function words make up about 45 % of spoken English tokens.
CONTENT_WORDS = 40_000
STOP_SHARE = 0.45
# Function words of the stop list (text/words.py), most frequent first (spoken English).
_FUNCTION_TEXT = (
    "the to and of a i we that in it is you this be have for not they was on what with are "
    "will but do at our all so about as going there if no can just an very would my or get "
    "he they're it's we're i'm don't from been one more their by had were when out up who "
    "them me now how your because which has think know some were said than other over into "
    "could should those these us only being after before also any did does very here then"
)
FUNCTION_WORDS = _FUNCTION_TEXT.split()
UTTERANCE_MEDIAN = 14  # words; lognormal, clipped to 5-40
UTTERANCE_SPREAD = 0.55
MIN_WORDS, MAX_WORDS = 5, 40
# Stock phrases and slogans (3-6 words) that many speakers fit into different sentences;
# Zipf popularity, so a few ("build the wall") are everywhere.
STOCK_PHRASES = 2_000
STOCK_SHARE = 0.08
# Collocations (2-3 words: "the united states", "a lot of"), Zipf popularity; each utterance
# carries a Poisson number of them. With these the generated utterances share fingerprints as
# often as the direct quotes of PolNeAR (train + dev) do; see the docstring.
COLLOCATIONS = 3_000
COLLOCATIONS_PER_UTTERANCE = 0.8
SPEAKERS = 5_000
OUTLETS = 300
# Story shape: about 3 articles, 2 utterances, 4-5 mentions per story.
ARTICLES_MEAN = 3.0
MAX_ARTICLES = 12
UTTERANCES_MEAN = 2.0
QUOTED_BY = 0.6  # chance that each article of a story quotes each of its utterances
INDIRECT_SHARE = 0.05  # story quotes reported only indirectly (no fingerprint, never linked)
REQUOTE_SHARE = 0.2  # a story's utterances said before, in an earlier story
# A later outlet runs two utterances that one article of an earlier story quoted apart as one
# quote (a merged quote: it joins the first of them only).
MERGED_SHARE = 0.01
RECENT = 5_000  # a re-quote from the news of the moment: one of the last RECENT utterances
STORIES_PER_DAY = 100
# How each article words a quote: (variant, weight).
VARIANTS = (
    ("identical", 0.55),
    ("truncated", 0.18),
    ("extended", 0.05),
    ("word_change", 0.10),
    ("censored", 0.05),
    ("filler", 0.07),
)

_SYLLABLE_TEXT = "ka lo mi ter van dor si pre mun gal ro tef bi ul nar esh"
SYLLABLES = _SYLLABLE_TEXT.split()


def _zipf_cum(n: int, s: float = 1.0) -> list[float]:
    return list(accumulate(1.0 / (rank**s) for rank in range(1, n + 1)))


def _poisson(rng: random.Random, mean: float) -> int:
    limit, k, p = pow(2.718281828459045, -mean), 0, rng.random()
    while p > limit:
        k += 1
        p *= rng.random()
    return k


@dataclass(frozen=True)
class Utterance:
    words: tuple[str, ...]
    speaker: str


@dataclass
class Generator:
    """Stories, one batch after another, each later story possibly re-quoting earlier ones."""

    seed: int
    rng: random.Random = field(init=False)
    utterances: list[Utterance] = field(default_factory=list)
    quoted: list[int] = field(default_factory=list)  # an entry per story quoting an utterance
    pairs: list[tuple[int, int]] = field(default_factory=list)  # utterances quoted side by side
    n_stories: int = 0
    n_articles: int = 0

    def __post_init__(self) -> None:
        rng = self.rng = random.Random(self.seed)
        words: set[str] = set()
        while len(words) < CONTENT_WORDS:
            words.add(self._word(rng.randint(2, 4)))
        self.content = sorted(words)
        rng.shuffle(self.content)
        self.content_cum = _zipf_cum(len(self.content))
        self.function_cum = _zipf_cum(len(FUNCTION_WORDS))
        self.stock = [
            tuple(self._words(rng.randint(3, 6), stop_share=0.3)) for _ in range(STOCK_PHRASES)
        ]
        self.stock_cum = _zipf_cum(STOCK_PHRASES)
        self.collocations = [
            tuple(self._words(rng.randint(2, 3), stop_share=0.4)) for _ in range(COLLOCATIONS)
        ]
        self.collocation_cum = _zipf_cum(COLLOCATIONS)
        self.speakers = [
            f"{self._word(2).title()} {self._word(3).title()}" for _ in range(SPEAKERS)
        ]
        self.speaker_cum = _zipf_cum(SPEAKERS)
        self.outlets = [f"{self._word(3).title()} {self._word(2).title()}" for _ in range(OUTLETS)]
        self.outlet_cum = _zipf_cum(OUTLETS, 0.8)

    def _word(self, syllables: int) -> str:
        return "".join(self.rng.choice(SYLLABLES) for _ in range(syllables))

    def _words(self, n: int, stop_share: float = STOP_SHARE) -> list[str]:
        rng = self.rng
        content = rng.choices(self.content, cum_weights=self.content_cum, k=n)
        function = rng.choices(FUNCTION_WORDS, cum_weights=self.function_cum, k=n)
        pairs = zip(function, content, strict=True)
        return [f if rng.random() < stop_share else c for f, c in pairs]

    def _utterance(self) -> Utterance:
        rng = self.rng
        n = round(rng.lognormvariate(0, UTTERANCE_SPREAD) * UTTERANCE_MEDIAN)
        words = self._words(min(MAX_WORDS, max(MIN_WORDS, n)))
        phrases = rng.choices(
            self.collocations,
            cum_weights=self.collocation_cum,
            k=_poisson(rng, COLLOCATIONS_PER_UTTERANCE),
        )
        if rng.random() < STOCK_SHARE:
            phrases.append(rng.choices(self.stock, cum_weights=self.stock_cum)[0])
        for phrase in phrases:
            at = rng.randrange(len(words) + 1)
            words[at:at] = phrase
        del words[MAX_WORDS:]
        speaker = rng.choices(self.speakers, cum_weights=self.speaker_cum)[0]
        return Utterance(tuple(words), speaker)

    def _earlier(self) -> int | None:
        """An utterance said before: a recent one, or one picked by how often it was quoted."""
        if not self.utterances:
            return None
        if self.rng.random() < 0.5:
            return self.rng.randrange(max(0, len(self.utterances) - RECENT), len(self.utterances))
        return self.rng.choice(self.quoted)

    def _wording(self, words: tuple[str, ...]) -> tuple[str, str]:
        """One article's wording of an utterance, and its variant."""
        rng = self.rng
        kind = rng.choices([v for v, _ in VARIANTS], weights=[w for _, w in VARIANTS])[0]
        out = list(words)
        slots = [i for i, w in enumerate(out) if w not in FUNCTION_WORDS]
        if kind == "truncated" and len(out) >= 8:
            size = rng.randint(max(4, len(out) // 3), len(out) - 1)
            at = rng.randint(0, len(out) - size)
            out = out[at : at + size]
        elif kind == "extended":
            extra = self._words(rng.randint(3, 8))
            out = out + extra if rng.random() < 0.5 else extra + out
        elif kind == "word_change" and slots:
            out[rng.choice(slots)] = self._words(1, stop_share=0.0)[0]
        elif kind == "censored" and slots:
            i = rng.choice(slots)
            out[i] = out[i][0] + "***"
        elif kind == "filler" and len(out) > 2:
            out.insert(rng.randrange(1, len(out) - 1), rng.choice(("um,", "uh,")))
        else:
            kind = "identical"
        text = " ".join(out)
        return text[0].upper() + text[1:] + ".", kind

    def batch(self, n_stories: int) -> tuple[list[Story], list[dict[str, Any]]]:
        """``n_stories`` new stories and the article rows they need."""
        rng = self.rng
        stories: list[Story] = []
        rows: list[dict[str, Any]] = []
        for _ in range(n_stories):
            k = self.n_stories
            self.n_stories += 1
            day = date(2010, 1, 1) + timedelta(days=k // STORIES_PER_DAY)
            n_articles = min(MAX_ARTICLES, 1 + int(rng.expovariate(1 / (ARTICLES_MEAN - 1))))
            article_ids = []
            for _a in range(n_articles):
                aid = stable_id("article", str(self.n_articles))
                self.n_articles += 1
                article_ids.append(aid)
                rows.append(
                    dict(
                        id=aid,
                        origin=f"gen:{aid}",
                        path=None,
                        format="txt",
                        source=rng.choices(self.outlets, cum_weights=self.outlet_cum)[0],
                        title=None,
                        published=(day + timedelta(days=rng.randint(0, 3))).isoformat(),
                        url=None,
                        text="",
                        ingested_at=0.0,
                    )
                )
            cursor = dict.fromkeys(article_ids, 0)
            picked: list[int] = []
            for _u in range(1 + int(rng.expovariate(1 / (UTTERANCES_MEAN - 1)))):
                earlier = self._earlier() if rng.random() < REQUOTE_SHARE else None
                if earlier is None or earlier in picked:
                    self.utterances.append(self._utterance())
                    earlier = len(self.utterances) - 1
                picked.append(earlier)
                self.quoted.append(earlier)
            said = [self.utterances[u] for u in picked]
            if self.pairs and rng.random() < MERGED_SHARE:
                a, b = rng.choice(self.pairs[-RECENT:])
                first, second = self.utterances[a], self.utterances[b]
                said.append(Utterance(first.words + second.words, first.speaker))
            if len(picked) > 1:
                self.pairs.append((picked[0], picked[1]))
            quotes = [self._quote(u, article_ids, cursor, k, i) for i, u in enumerate(said)]
            stories.append(
                Story(
                    id=stable_id("story", str(k)),
                    title=f"story {k}",
                    article_ids=article_ids,
                    quotes=quotes,
                )
            )
        return stories, rows

    def _quote(
        self, u: Utterance, article_ids: list[str], cursor: dict[str, int], story: int, i: int
    ) -> Quote:
        rng = self.rng
        quoting = [a for a in article_ids if rng.random() < QUOTED_BY] or [rng.choice(article_ids)]
        indirect = rng.random() < INDIRECT_SHARE
        surname = u.speaker.split()[-1]
        mentions = []
        for aid in quoting:
            text, variant = self._wording(u.words)
            start = cursor[aid] + rng.randint(20, 400)
            cursor[aid] = start + len(text)
            r = rng.random()
            speaker = u.speaker if r < 0.8 else surname if r < 0.9 else None
            mentions.append(
                ExportQuoteMention(
                    article_id=aid,
                    start=start,
                    end=start + len(text),
                    text=text,
                    kind="indirect" if indirect else "direct",
                    cue="said",
                    speaker=u.speaker if speaker else None,
                    speaker_start=None,
                    speaker_end=None,
                    speaker_text=speaker,
                    speaker_confidence=round(rng.uniform(0.5, 0.99), 3) if speaker else None,
                    # The story stage calls a changed word a paraphrase (quotes.classify).
                    variant="paraphrased" if variant == "word_change" else variant,
                )
            )
        named = [m for m in mentions if m.speaker]
        return Quote(
            id=stable_id("quote", str(story), str(i)),
            text=max((m.text for m in mentions), key=len),
            speaker=u.speaker if named else None,
            speaker_confidence=max((m.speaker_confidence or 0.0 for m in named), default=None),
            mentions=mentions,
        )


def _mentions(stories: list[Story]) -> int:
    return sum(len(q.mentions) for s in stories for q in s.quotes)


def _add_articles(store: SqlStore, rows: list[dict[str, Any]]) -> None:
    with store.transaction() as conn:
        conn.execute(insert(t.articles), rows)


def _candidates(store: SqlStore, stories: list[Story]) -> tuple[int, int]:
    """(new nodes with a fingerprint, stored nodes sharing one with them that is not a stop
    fingerprint, summed over nodes)."""
    k = t.tracked_keys.c
    stops = select(t.tracked_stops.c.fingerprint)
    nodes = [n for s in stories for n in story_nodes(s, {})]
    found = counted = 0
    with store.engine.connect() as conn:
        for node in nodes:
            prints = sorted(node_fingerprints(node))
            if not prints:
                continue
            counted += 1
            query = select(func.count(k.node_key.distinct())).where(
                k.fingerprint.in_(prints), k.fingerprint.not_in(stops)
            )
            found += conn.execute(query).scalar_one()
    return counted, found


def _reset_peak() -> bool:
    """Reset the process's resident high-water mark (Linux); False where it cannot be."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
        return True
    except OSError:
        return False


def _peak_mb() -> float:
    """Peak RSS since the last reset (VmHWM), else since the process started."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _size_mb(db: Path) -> float:
    files = [db, Path(f"{db}-wal")]
    return sum(f.stat().st_size for f in files if f.exists()) / 2**20


class _Counting:
    """``decide`` as store tracking calls it (directly or through ``track``), counting the
    nodes it is given: the new nodes and the stored ones re-tracked with them."""

    def __init__(self) -> None:
        self.real = stories_tracking.decide
        self.nodes = 0

    def __call__(self, nodes: Any, *args: Any) -> Any:
        self.nodes += len(nodes)
        return self.real(nodes, *args)

    def __enter__(self) -> _Counting:
        for module in (stories_tracking, store_tracking):
            if hasattr(module, "decide"):
                module.decide = self  # type: ignore[attr-defined]
        return self

    def __exit__(self, *exc: object) -> None:
        for module in (stories_tracking, store_tracking):
            if hasattr(module, "decide"):
                module.decide = self.real  # type: ignore[attr-defined]


def measure(
    store: SqlStore, gen: Generator, rounds: int, per_round: int, profile: cProfile.Profile | None
) -> dict[str, float]:
    """Write ``rounds`` x ``per_round`` new stories one per transaction; figures of those."""
    ms: list[float] = []
    with_prints = shared = new_nodes = 0
    _reset_peak()
    with _Counting() as counting:
        for _ in range(rounds):
            stories, rows = gen.batch(per_round)
            _add_articles(store, rows)
            counted, found = _candidates(store, stories)
            with_prints += counted
            shared += found
            new_nodes += sum(len(story_nodes(s, {})) for s in stories)
            if profile:
                profile.enable()
            start = time.perf_counter()
            for story in stories:
                store.replace_stories([story])
            elapsed = time.perf_counter() - start
            if profile:
                profile.disable()
            ms.append(1000 * elapsed / _mentions(stories))
    return {
        "ms_per_mention": sum(ms) / len(ms),
        "ms_min": min(ms),
        "ms_max": max(ms),
        "candidates": shared / max(1, with_prints),
        "retracked": (counting.nodes - new_nodes) / max(1, new_nodes),
        "peak_mb": _peak_mb(),
    }


def fill(store: SqlStore, gen: Generator, target: int, have: int, batch: int) -> int:
    """Write stories in batches of ``batch`` until the store holds ``target`` mentions."""
    while have < target:
        stories, rows = gen.batch(batch)
        _add_articles(store, rows)
        store.replace_stories(stories)
        have += _mentions(stories)
    return have


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--mentions", type=int, nargs="+", default=list(DEFAULT_MENTIONS))
    parser.add_argument("--rounds", type=int, default=3, help="measured rounds per checkpoint")
    parser.add_argument("--stories", type=int, default=300, help="stories per measured round")
    parser.add_argument("--fill-batch", type=int, default=2000, help="stories per fill write")
    parser.add_argument("--quick", action="store_true", help="a small run (2k and 5k mentions)")
    parser.add_argument("--db", type=Path, help="SQLite file to fill (removed first)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--profile", type=Path, help="cProfile of the last checkpoint's writes")
    args = parser.parse_args()
    checkpoints = sorted(QUICK_MENTIONS if args.quick else args.mentions)
    rounds, per_round = (2, 50) if args.quick else (args.rounds, args.stories)
    fill_batch = 100 if args.quick else args.fill_batch
    db = args.db or Path(tempfile.gettempdir()) / "newsloom-bench-tracking.db"
    for f in (db, Path(f"{db}-wal"), Path(f"{db}-shm")):
        f.unlink(missing_ok=True)
    store = SqlStore(f"sqlite:///{db}")
    gen = Generator(args.seed)
    print(
        f"{'mentions':>10} {'ms/mention':>11} {'(min-max)':>13} {'candidates/node':>16} "
        f"{'re-tracked/node':>16} {'peak RSS MB':>12} {'store MB':>9} {'fill s':>7}",
        flush=True,
    )
    rows = []
    have = 0
    for i, target in enumerate(checkpoints):
        start = time.perf_counter()
        have = fill(store, gen, target, have, fill_batch)
        fill_s = time.perf_counter() - start
        profile = cProfile.Profile() if args.profile and i == len(checkpoints) - 1 else None
        row = measure(store, gen, rounds, per_round, profile)
        row["mentions"] = have
        rows.append(row)
        have = _count_mentions(store)
        print(
            f"{row['mentions']:>10,} {row['ms_per_mention']:>11.3f} "
            f"{row['ms_min']:>6.3f}-{row['ms_max']:<6.3f} {row['candidates']:>16.1f} "
            f"{row['retracked']:>16.1f} {row['peak_mb']:>12.0f} {_size_mb(db):>9.0f} "
            f"{fill_s:>7.0f}",
            flush=True,
        )
        if profile and args.profile:
            profile.dump_stats(str(args.profile))
    store.close()
    if len(rows) > 1:
        ratio = rows[-1]["ms_per_mention"] / rows[0]["ms_per_mention"]
        print(
            f"per-mention cost ratio {rows[-1]['mentions']:,}/{rows[0]['mentions']:,}: "
            f"{ratio:.2f}; peak RSS of the process "
            f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB"
        )


def _count_mentions(store: SqlStore) -> int:
    with store.engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(t.tracked_mentions)).scalar_one()


if __name__ == "__main__":
    sys.exit(main())
