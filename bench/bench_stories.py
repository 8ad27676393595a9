"""Story building at scale: generated articles ingested into a store, or clustered in memory.

    .venv/bin/python bench/bench_stories.py [--sizes 10000 100000 1000000] [--seed 7]
        [--store sqlite|postgres|memory] [--dir FOLDER] [--run-size 10000] [--queries 50]

Articles are generated here (invented vocabulary, people, places and events; no spaCy):
each event has a kind (whose words every event of that kind shares, the look-alike trap),
two to four participants, a place, a date and numbers; its articles mix those with filler
words and are published within days of the event. ``ArticleAnalysis`` objects are built
directly with entities filled, one at a time (memory does not grow with the size). Each size
runs in a fresh process (and a fresh store) so peak RSS is per size.

``--store sqlite`` (default; the file in ``--dir``) or ``postgres`` (a database made with
``--pg-admin``): the ingest after the parse (``api.ingest_analyses``) in runs of
``--run-size`` articles: each article stored, attached through the story index rows, the
stories changed rebuilt; each run reads its articles as they are made. Printed (the ingest
calls only, not the generation): wall seconds and ms per article, CPU ms per article, the last
run's ms per article (the cost at the store's final size), the index update's share,
peak RSS, stories vs events, BCubed F1 against the generated events, then the median store
time of a story page (the story, its articles' analyses, its tracked quotes) and of a search,
and the largest to smallest ratios. ``--store memory``: ``cluster_analyses`` over the whole
list (the batch path). Figures only; nothing here asserts.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from array import array
from collections import Counter
from collections.abc import Callable, Iterator
from datetime import date, timedelta
from pathlib import Path
from typing import Any

KINDS = 300  # event kinds (earthquake, rehab, ...) shared by look-alike events
FILLER = 6000  # generic news words
ARTICLES_PER_EVENT = 8  # mean; sizes drawn from a geometric-like spread 1..40
# Articles per ``newsloom ingest`` run in the store mode (a day's intake of a large desk).
RUN_SIZE = 10_000
# Every this many articles one is kept for the query-latency sample (ids and titles).
SAMPLE_EVERY = 1000
QUERIES = 50  # story pages and searches timed (medians printed)
PG_ADMIN = os.environ.get(
    "NEWSLOOM_TEST_PG", "postgresql+psycopg://newsloom:newsloom@127.0.0.1:54329/postgres"
)


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
    analyses, gold = [], []
    for analysis, event in stream(n, seed):
        analyses.append(analysis)
        gold.append(event)
    return analyses, gold


def stream(n: int, seed: int, skip: int = 0) -> Iterator[tuple[Any, int]]:
    """``n`` analyses with their gold event numbers, made one at a time (flat memory).

    The first ``skip`` are drawn (the same random sequence) but yielded as ``(None, event)``
    with their article's id and title in place of the analysis: a resumed run replays them
    without building analyses it will not ingest."""
    from newsloom.models import Article, ArticleAnalysis, Entity, EntityMention, article_id

    rng = random.Random(seed)
    filler = [_word(rng, rng.randint(2, 3)) for _ in range(FILLER)]
    kinds = [[_word(rng, 3) for _ in range(12)] for _ in range(KINDS)]
    made = 0
    event = 0
    start = date(2015, 1, 1)
    while made < n:
        kind = kinds[rng.randrange(KINDS)]
        people = [(_word(rng, 2).title(), _word(rng, 3).title()) for _ in range(rng.randint(2, 4))]
        place = _word(rng, 3).title()
        day = start + timedelta(days=rng.randrange(3650))
        numbers = [str(rng.randint(2, 900)) for _ in range(2)]
        size = min(40, 1 + int(rng.expovariate(1 / (ARTICLES_PER_EVENT - 1))))
        for _ in range(min(size, n - made)):
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
            if made < skip:
                yield (article_id(text), title), event
                made += 1
                continue
            article = Article(
                id=article_id(text),
                text=text,
                origin=f"gen:{made}",
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
            yield ArticleAnalysis(article=article, entities=entities), event
            made += 1
        event += 1


def run_one(n: int, seed: int) -> dict:
    """The batch path in memory (``cluster_analyses``), as before the index was kept as rows."""
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


def run_store(
    n: int, seed: int, url: str, run_size: int, queries: int, progress: Path | None = None
) -> dict:
    """The ingest after the parse (``api.ingest_analyses``) into a store, ``run_size``
    articles per run: store each article, attach it through the index rows, rebuild the
    stories changed. Then the median time of a story page's and a search's store reads.

    Each run reads its articles as they are made, like an ingest reading the engine's results
    (the bench holds none of them); the CPU and wall time per article are those of the
    ``ingest_analyses`` calls without the time spent making articles. The gold events are
    kept as one small int per article, and the stories are read back after the peak RSS is
    taken.

    A store that already holds articles (``--resume``) is continued: the stream is replayed up
    to its count without building analyses, and the figures are those of this process's runs.
    ``progress`` gets a JSON line after each run (stored count, that run's wall, CPU and index
    ms per article, peak and current RSS), so a long run shows its curve as it goes."""
    from newsloom import api
    from newsloom.store import open_store

    store = open_store(url)
    skip = store.count_articles()
    index_seconds = 0.0
    update_index = api._update_index

    def timed_update(*args: Any) -> None:
        nonlocal index_seconds
        started = time.perf_counter()
        update_index(*args)
        index_seconds += time.perf_counter() - started

    api._update_index = timed_update  # type: ignore[assignment]
    base_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    cpu = 0.0
    gold = array("i")  # the event of each article, in generation order ("gen:N" origins)
    sample: list[tuple[str, str]] = []  # (article id, title) of every SAMPLE_EVERY-th article
    made = stream(n, seed, skip)
    for _ in range(skip):
        (stored_id, stored_title), event = next(made)
        gold.append(event)
        if len(gold) % SAMPLE_EVERY == 1:
            sample.append((stored_id, stored_title))
    making = [0.0, 0.0]  # wall and CPU seconds spent generating articles (not the ingest's)

    def one_run() -> Iterator[Any]:
        """The next ``run_size`` articles, made as the ingest reads them (none held here)."""
        for _ in range(run_size):
            wall, cpu_started = time.perf_counter(), time.process_time()
            item = next(made, None)
            making[0] += time.perf_counter() - wall
            making[1] += time.process_time() - cpu_started
            if item is None:
                return
            analysis, event = item
            gold.append(event)
            if len(gold) % SAMPLE_EVERY == 1:
                sample.append((analysis.article.id, analysis.article.title or ""))
            yield analysis

    run_seconds: list[float] = []
    started_all = time.perf_counter()
    while len(gold) < n:
        started, cpu_started = time.perf_counter(), time.process_time()
        made_before = list(making)
        index_before = index_seconds
        api.ingest_analyses(one_run(), store)
        run_seconds.append(time.perf_counter() - started - (making[0] - made_before[0]))
        run_cpu = time.process_time() - cpu_started - (making[1] - made_before[1])
        cpu += run_cpu
        if progress is not None:
            _log_progress(
                progress,
                len(gold),
                run_size,
                run_seconds[-1],
                run_cpu,
                index_seconds - index_before,
            )
    seconds = sum(run_seconds)
    total_seconds = time.perf_counter() - started_all
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    story_ms, search_ms = _query_latency(store, sample, queries, seed)
    f1 = _b3_f1(store, gold)
    stories = store.count_stories()
    store.close()
    ingested = n - skip
    last = run_seconds[-1] / (ingested - run_size * (len(run_seconds) - 1))
    return {
        "articles": n,
        "resumed_from": skip,
        "seconds": seconds,
        "total_seconds": total_seconds,
        "ms_per_article": 1000 * seconds / ingested,
        "cpu_ms_per_article": 1000 * cpu / ingested,
        "last_run_ms_per_article": 1000 * last,
        "index_ms_per_article": 1000 * index_seconds / ingested,
        "peak_rss_mb": peak / 1024,
        "rss_growth_mb": (peak - base_rss) / 1024,
        "stories": stories,
        "events": len(set(gold)),
        "b3_f1": f1,
        "story_page_ms": story_ms,
        "search_ms": search_ms,
    }


def _log_progress(
    path: Path, stored: int, run_size: int, seconds: float, cpu: float, index: float
) -> None:
    status = Path("/proc/self/status")
    memory = {}
    if status.exists():
        for line in status.read_text().splitlines():
            key, _, value = line.partition(":")
            if key in ("VmHWM", "VmRSS"):
                memory[key] = int(value.split()[0]) / 1024
    articles = min(run_size, stored) or 1
    line = {
        "stored": stored,
        "run_ms_per_article": 1000 * seconds / articles,
        "run_cpu_ms_per_article": 1000 * cpu / articles,
        "run_index_ms_per_article": 1000 * index / articles,
        "peak_rss_mb": memory.get("VmHWM"),
        "rss_mb": memory.get("VmRSS"),
        "time": time.strftime("%H:%M:%S"),
    }
    with path.open("a", encoding="utf-8") as out:
        out.write(json.dumps(line) + "\n")


def _b3_f1(store: Any, gold: array) -> float:
    """BCubed F1 of the stored stories against the generated events, the members read story
    by story from the store (an article's origin ``gen:N`` is its place in ``gold``)."""
    from sqlalchemy import select

    from newsloom.eval.ecbplus import bcubed
    from newsloom.store import schema as t

    pred = [""] * len(gold)
    sa, a = t.story_articles.c, t.articles.c
    query = select(sa.story_id, a.origin).join(t.articles, a.id == sa.article_id)
    with store.engine.connect() as conn:
        for story_id, origin in conn.execute(query):
            pred[int(origin.removeprefix("gen:"))] = story_id
    missing = pred.count("")
    if missing:
        raise SystemExit(f"{missing} articles are in no stored story")
    _, _, f1 = bcubed([str(g) for g in gold], pred)
    return f1


def _query_latency(
    store: Any, sample: list[tuple[str, str]], queries: int, seed: int
) -> tuple[float, float]:
    """Median ms of a story page's store reads (the story, its articles' analyses, its tracked
    quotes) and of a search (a title word: a person's name or an event kind's word)."""
    rng = random.Random(seed)
    story_times, search_times = [], []
    for _ in range(queries):
        article, title = rng.choice(sample)
        started = time.perf_counter()
        story_id = store.story_of(article)
        story = store.story(story_id)
        list(store.analyses(story.article_ids))
        store.tracked_quotes_of([story_id])
        story_times.append(time.perf_counter() - started)
        word = rng.choice(title.split()[:2])
        started = time.perf_counter()
        store.search(word, 20)
        search_times.append(time.perf_counter() - started)
    return 1000 * statistics.median(story_times), 1000 * statistics.median(search_times)


def _database(backend: str, n: int, folder: Path, pg_admin: str) -> tuple[str, Callable[[], None]]:
    """A fresh store URL for one size, and how to remove it."""
    if backend == "sqlite":
        path = folder / f"stories-{n}.db"
        for old in folder.glob(f"stories-{n}.db*"):
            old.unlink()
        return f"sqlite:///{path}", lambda: [p.unlink() for p in folder.glob(f"stories-{n}.db*")]
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    admin = create_engine(pg_admin, isolation_level="AUTOCOMMIT")
    name = f"newsloom_bench_{n}"
    with admin.connect() as conn:
        conn.execute(text(f"DROP DATABASE IF EXISTS {name}"))
        conn.execute(text(f"CREATE DATABASE {name}"))

    def drop() -> None:
        with admin.connect() as conn:
            conn.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        admin.dispose()

    url = make_url(pg_admin).set(database=name).render_as_string(hide_password=False)
    return url, drop


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--store",
        choices=["sqlite", "postgres", "memory"],
        default="sqlite",
        help="ingest into a store (the index as rows), or cluster in memory (batch)",
    )
    parser.add_argument("--pg-admin", default=PG_ADMIN, help="PostgreSQL URL to create dbs")
    parser.add_argument("--dir", default=tempfile.gettempdir(), help="folder of SQLite stores")
    parser.add_argument("--run-size", type=int, default=RUN_SIZE, help="articles per ingest")
    parser.add_argument("--queries", type=int, default=QUERIES)
    parser.add_argument("--keep", action="store_true", help="keep the stores made")
    parser.add_argument(
        "--resume",
        action="store_true",
        help="continue the kept SQLite store of each size (implies --keep)",
    )
    parser.add_argument("--progress", help="append a JSON line per ingest run to this file")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)  # child process mode
    parser.add_argument("--url", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        if args.store == "memory":
            row = run_one(args.one, args.seed)
        else:
            progress = Path(args.progress) if args.progress else None
            row = run_store(args.one, args.seed, args.url, args.run_size, args.queries, progress)
        print(json.dumps(row))
        return
    rows = []
    columns = ROW_COLUMNS if args.store == "memory" else ROW_COLUMNS + STORE_COLUMNS
    print(" ".join(f"{title:>{width}}" for _, title, width, _ in columns))
    for n in args.sizes:
        command = [sys.executable, __file__, "--one", str(n), "--seed", str(args.seed)]
        command += ["--store", args.store, "--run-size", str(args.run_size)]
        command += ["--queries", str(args.queries)]
        if args.progress:
            command += ["--progress", args.progress]
        drop: Callable[[], None] = lambda: None  # noqa: E731
        if args.resume and args.store == "sqlite":
            command += ["--url", f"sqlite:///{Path(args.dir) / f'stories-{n}.db'}"]
        elif args.store != "memory":
            url, drop = _database(args.store, n, Path(args.dir), args.pg_admin)
            command += ["--url", url]
        try:
            out = subprocess.run(command, check=True, capture_output=True, text=True)
        finally:
            if not (args.keep or args.resume):
                drop()
        row = json.loads(out.stdout.strip().splitlines()[-1])
        rows.append(row)
        print(" ".join(f"{row[key]:>{width}{fmt}}" for key, _, width, fmt in columns), flush=True)
    if len(rows) > 1:
        keys = ("ms_per_article", "cpu_ms_per_article", "last_run_ms_per_article", "peak_rss_mb")
        for key in keys:
            if key in rows[0]:
                ratio = rows[-1][key] / rows[0][key]
                print(f"{key} ratio {rows[-1]['articles']}/{rows[0]['articles']}: {ratio:.2f}")


# Printed columns: row key, title, width, format.
ROW_COLUMNS = [
    ("articles", "articles", 9, "d"),
    ("seconds", "seconds", 9, ".1f"),
    ("ms_per_article", "ms/article", 11, ".2f"),
    ("peak_rss_mb", "peak RSS MB", 12, ".0f"),
    ("rss_growth_mb", "RSS growth MB", 14, ".0f"),
    ("stories", "stories", 8, "d"),
    ("events", "events", 7, "d"),
    ("b3_f1", "B3 F1", 6, ".3f"),
]
STORE_COLUMNS = [
    ("cpu_ms_per_article", "CPU ms/a", 9, ".2f"),
    ("last_run_ms_per_article", "last run ms/a", 14, ".2f"),
    ("index_ms_per_article", "index ms/a", 11, ".2f"),
    ("story_page_ms", "story page ms", 14, ".1f"),
    ("search_ms", "search ms", 10, ".1f"),
]


if __name__ == "__main__":
    main()
