"""Story clustering at scale: time and peak memory for 10k, 30k and 100k generated articles.

    .venv/bin/python bench/bench_stories.py [--sizes 10000 30000 100000] [--seed 7]

Articles are generated here (invented vocabulary, people, places and events; no spaCy):
each event has a kind (whose words every event of that kind shares, the look-alike trap),
two to four participants, a place, a date and numbers; its articles mix those with filler
words and are published within days of the event. ``ArticleAnalysis`` objects are built
directly with entities filled. Each size runs in a fresh process so peak RSS is per size.
Printed: seconds to cluster (features + index), per-article cost, peak RSS, stories made vs
events generated, BCubed F1 against the generated events, and the per-article cost ratio of
the largest size to the smallest. Figures only; nothing here asserts.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import time
from collections import Counter
from datetime import date, timedelta

KINDS = 300  # event kinds (earthquake, rehab, ...) shared by look-alike events
FILLER = 6000  # generic news words
ARTICLES_PER_EVENT = 8  # mean; sizes drawn from a geometric-like spread 1..40


def _word(rng: random.Random, syllables: int) -> str:
    parts = [
        "ka",
        "lo",
        "mi",
        "ter",
        "van",
        "dor",
        "si",
        "pre",
        "mun",
        "gal",
        "ro",
        "tef",
        "bi",
        "ul",
        "nar",
        "esh",
    ]
    return "".join(rng.choice(parts) for _ in range(syllables))


class _Doc:
    """Text built word by word, remembering where each entity was said."""

    def __init__(self) -> None:
        self.text = ""
        self.mentions: dict[str, list[tuple[int, int]]] = {}

    def say(self, token: str, entity: str | None = None) -> None:
        if self.text and not self.text.endswith("\n"):
            self.text += " "
        if entity:
            self.mentions.setdefault(entity, []).append(
                (len(self.text), len(self.text) + len(token))
            )
        self.text += token


def generate(n: int, seed: int) -> tuple[list, list[int]]:
    """``n`` analyses and their gold event numbers."""
    from newsloom.models import Article, ArticleAnalysis, Entity, EntityMention, article_id

    rng = random.Random(seed)
    filler = [_word(rng, rng.randint(2, 3)) for _ in range(FILLER)]
    kinds = [[_word(rng, 3) for _ in range(12)] for _ in range(KINDS)]
    analyses: list[ArticleAnalysis] = []
    gold: list[int] = []
    event = 0
    start = date(2015, 1, 1)
    while len(analyses) < n:
        kind = kinds[rng.randrange(KINDS)]
        people = [(_word(rng, 2).title(), _word(rng, 3).title()) for _ in range(rng.randint(2, 4))]
        place = _word(rng, 3).title()
        day = start + timedelta(days=rng.randrange(3650))
        numbers = [str(rng.randint(2, 900)) for _ in range(2)]
        size = min(40, 1 + int(rng.expovariate(1 / (ARTICLES_PER_EVENT - 1))))
        for _ in range(min(size, n - len(analyses))):
            doc = _Doc()
            title = f"{people[0][1]} {rng.choice(kind)} in {place}"
            doc.say(title + ".\n\n")
            for _s in range(rng.randint(6, 14)):
                for _w in range(rng.randint(8, 18)):
                    r = rng.random()
                    if r < 0.10:
                        first, last = rng.choice(people)
                        doc.say(
                            f"{first} {last}" if rng.random() < 0.5 else last, f"{first} {last}"
                        )
                    elif r < 0.14:
                        doc.say(place, place)
                    elif r < 0.30:
                        doc.say(rng.choice(kind))
                    elif r < 0.32:
                        doc.say(rng.choice(numbers))
                    else:
                        doc.say(rng.choice(filler))
                doc.text += "."
            text, mentions = doc.text, doc.mentions
            published = day + timedelta(days=rng.randint(0, 4))
            article = Article(
                id=article_id(text),
                text=text,
                origin=f"gen:{len(analyses)}",
                title=title,
                published=published.isoformat(),
            )
            entities = [
                Entity(
                    id=str(i),
                    name=name,
                    type="GPE" if name == place else "PERSON",
                    mentions=[EntityMention(start=s, end=e, text=text[s:e]) for s, e in spans],
                )
                for i, (name, spans) in enumerate(mentions.items())
            ]
            analyses.append(ArticleAnalysis(article=article, entities=entities))
            gold.append(event)
        event += 1
    return analyses, gold


def run_one(n: int, seed: int) -> dict:
    from newsloom.eval.ecbplus import bcubed
    from newsloom.stories.cluster import cluster_analyses

    analyses, gold = generate(n, seed)
    base_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    groups = cluster_analyses(analyses)
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    label = {a.article.id: g for g, group in enumerate(groups) for a in group}
    pred = [str(label[a.article.id]) for a in analyses]
    _, _, f1 = bcubed([str(g) for g in gold], pred)
    return {
        "articles": n,
        "seconds": seconds,
        "ms_per_article": 1000 * seconds / n,
        "peak_rss_mb": peak / 1024,
        "rss_growth_mb": (peak - base_rss) / 1024,
        "stories": len(groups),
        "events": len(Counter(gold)),
        "b3_f1": f1,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 30_000, 100_000])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)  # child process mode
    args = parser.parse_args()
    if args.one:
        print(json.dumps(run_one(args.one, args.seed)))
        return
    rows = []
    print(
        f"{'articles':>9} {'seconds':>9} {'ms/article':>11} {'peak RSS MB':>12} "
        f"{'RSS growth MB':>14} {'stories':>8} {'events':>7} {'B3 F1':>6}"
    )
    for n in args.sizes:
        out = subprocess.run(
            [sys.executable, __file__, "--one", str(n), "--seed", str(args.seed)],
            check=True,
            capture_output=True,
            text=True,
        )
        row = json.loads(out.stdout.strip().splitlines()[-1])
        rows.append(row)
        print(
            f"{row['articles']:>9} {row['seconds']:>9.1f} {row['ms_per_article']:>11.2f} "
            f"{row['peak_rss_mb']:>12.0f} {row['rss_growth_mb']:>14.0f} {row['stories']:>8} "
            f"{row['events']:>7} {row['b3_f1']:>6.3f}",
            flush=True,
        )
    if len(rows) > 1:
        ratio = rows[-1]["ms_per_article"] / rows[0]["ms_per_article"]
        print(f"per-article cost ratio {rows[-1]['articles']}/{rows[0]['articles']}: {ratio:.2f}")


if __name__ == "__main__":
    main()
