"""Serve-side speed: requests/s for a story page, a search, a speaker and an outlet page on a
store of 10k articles.

    .venv/bin/python bench/bench_web.py [--articles 10000] [--requests 400] [--concurrency 8]
    .venv/bin/python bench/bench_web.py --lists [--articles 100000] [--db postgresql+psycopg://...]

``--lists`` measures the lists instead (``web/lists.py``) on generated articles (no spaCy,
like bench/bench_stories.py): p50/p99 latency of the story list with two facets (an outlet
and a size) at page 1 and at page 1,000 (its keyset cursor), JSON and HTML, one request at
a time, with the total and the facet counts and without them (``counts=false``); then the
CSV of every quote mention (one per article) streamed, with its rows, its time and the
server's peak RSS before and after it (``VmHWM``). With ``--db`` the store is
that (empty) PostgreSQL database instead of a SQLite file.

The store is built without spaCy: examples/corpus is analysed once, then its analyses and
stories are copied with fresh ids (each copy's text gets a unique last line, so offsets stay
valid) until the store holds ``--articles`` articles — real analyses and story pages, at
scale. The app runs in its own process (uvicorn, one worker) on a loopback port; an asyncio
httpx client sends a bounded number of requests with bounded concurrency and prints
requests/s and latency percentiles per endpoint. Figures only; nothing here asserts.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[1]
SEARCH_WORDS = [
    "bridge",
    "thunder",
    "river collapse",
    "fire plant",
    "striker transfer",
    "rehab",
    "video crew",
    "mayor",
    "investigation",
    "hospital workers",
]


def build_store(db: Path, n_articles: int) -> list[str]:
    from newsloom import api
    from newsloom.config import Settings
    from newsloom.models import ArticleAnalysis, Story, article_id, stable_id

    seed_db = db.with_name("seed.db")
    store = api.open_store(str(seed_db))
    api.ingest([str(REPO / "examples" / "corpus")], store, Settings(db_url=str(seed_db)))
    analyses = list(store.analyses())
    stories = store.stories()
    store.close()

    target = api.open_store(str(db))
    story_ids: list[str] = []
    all_stories: list[Story] = []
    copy = 0
    while copy * len(analyses) < n_articles:
        remap: dict[str, str] = {}
        for a in analyses:
            text = a.article.text + f"\n\n(copy {copy})"
            new_id = article_id(text)
            remap[a.article.id] = new_id
            data = a.model_dump()
            data["article"].update(id=new_id, text=text, origin=f"bench:{copy}:{a.article.origin}")
            target.add_analysis(ArticleAnalysis.model_validate(data))
        new_stories = all_stories
        for s in stories:
            raw = s.model_dump_json()
            for old, new in remap.items():
                raw = raw.replace(old, new)
            story = Story.model_validate_json(raw)
            story = story.model_copy(update={"id": stable_id("story", str(copy), s.id)})
            new_stories.append(story)
            story_ids.append(story.id)
        copy += 1
    # One write of every story: the copies' quotes are one utterance each, and tracking them
    # copy by copy re-tracks every earlier copy each time (quadratic; minutes per 1,000
    # articles), while one write tracks them once.
    target.replace_stories(all_stories)
    print(f"store: {target.count_articles()} articles, {target.count_stories()} stories")
    target.close()
    return story_ids


# The generated archive of ``--lists``: OUTLETS outlets, the first a wire service most stories
# carry (as agency copy is); stories of 1 to MAX_STORY articles; SPEAKERS people quoted.
OUTLETS = 12
WIRE_SHARE = 0.6
MAX_STORY = 4
SPEAKERS = 3000
WRITE_BATCH = 1000  # articles (or stories) written per transaction while building
LIST_PAGE = 20  # rows per list page measured
DEEP_PAGE = 1000  # the deep page measured


def generate_archive(n_articles: int, seed: int) -> tuple[list, list]:
    """``n_articles`` analyses (one quote each) and the stories grouping them."""
    from newsloom.models import Article, ArticleAnalysis, QuoteMention, Story, article_id

    rng = random.Random(seed)
    outlets = ["Wire Service"] + [f"Outlet {i}" for i in range(1, OUTLETS)]
    speakers = [f"Speaker {i}" for i in range(SPEAKERS)]
    analyses, stories = [], []
    while len(analyses) < n_articles:
        size = min(rng.randint(1, MAX_STORY), n_articles - len(analyses))
        day = f"20{rng.randint(15, 24)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
        members = []
        for _ in range(size):
            n = len(analyses)
            quote = f"we counted {n} boats in harbour {n % 97} before the storm"
            speaker = rng.choice(speakers)
            text = f'Report {n} on event {len(stories)}. "{quote}" said {speaker}.'
            start = text.index(quote)
            outlet = outlets[0] if rng.random() < WIRE_SHARE else rng.choice(outlets[1:])
            article = Article(
                id=article_id(text),
                text=text,
                origin=f"gen:{n}",
                title=f"Event {len(stories)}: report {n}",
                source=outlet,
                published=day,
            )
            mention = QuoteMention(start=start, end=start + len(quote), text=quote, speaker=speaker)
            analyses.append(ArticleAnalysis(article=article, quotes=[mention]))
            members.append(article.id)
        stories.append(
            Story(id=f"s{len(stories):07d}", title=f"Event {len(stories)}", article_ids=members)
        )
    return analyses, stories


def build_list_store(url: str, n_articles: int, seed: int) -> None:
    """The generated archive written WRITE_BATCH articles (then stories) per transaction
    (``add_analysis`` commits each article; a batch is what a bulk ingest commits)."""
    from newsloom import api

    analyses, stories = generate_archive(n_articles, seed)
    store = api.open_store(url)
    for at in range(0, len(analyses), WRITE_BATCH):
        with store.transaction() as conn:  # type: ignore[attr-defined]
            for analysis in analyses[at : at + WRITE_BATCH]:
                store._insert(conn, analysis)  # type: ignore[attr-defined]
    for at in range(0, len(stories), WRITE_BATCH):
        store.replace_stories(stories[at : at + WRITE_BATCH])
    print(f"store: {store.count_articles()} articles, {store.count_stories()} stories")
    store.close()


def peak_rss_mb(pid: int) -> tuple[float, float]:
    """The process's resident memory now and at its peak (VmRSS, VmHWM), in MB."""
    fields = dict(
        line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
    )
    return (int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024)


def percentiles(latencies: list[float]) -> tuple[float, float]:
    ordered = sorted(latencies)
    return (
        ordered[len(ordered) // 2] * 1000,
        ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000,
    )


def run_lists(url: str, args: argparse.Namespace) -> None:
    from newsloom.store import ListQuery, open_store

    t0 = time.perf_counter()
    build_list_store(url, args.articles, args.seed)
    print(f"built in {time.perf_counter() - t0:.0f} s")
    facets = {"outlet": "Wire Service", "size": "2-4 articles"}
    store = open_store(url)
    skip = LIST_PAGE * (DEEP_PAGE - 1)
    # The cursor after row LIST_PAGE * 999: what following `next` 999 times gives.
    deep = store.list_page("stories", ListQuery(facets=facets, limit=skip, counts=False)).next
    matching = store.list_page("stories", ListQuery(facets=facets, limit=1)).total
    store.close()
    print(f"story list with outlet and size facets: {matching} stories")
    if deep is None:
        print(f"fewer than {skip} matching stories: no page {DEEP_PAGE}")
    query = "outlet=Wire+Service&size=2-4+articles&limit=" + str(LIST_PAGE)
    cases = {}
    for counts in ("true", "false"):
        for kind, path in (("JSON", "/stories.json"), ("HTML", "/stories")):
            for page, at in ((1, ""), (DEEP_PAGE, f"&after={deep}")):
                name = f"{kind} page {page}, counts={counts}"
                cases[name] = f"{path}?{query}&counts={counts}{at}"
    with serving(url) as (base, pid):
        print(f"{args.requests} requests each, one at a time, 1 server process")
        print(f"{'request':40} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7}")
        for name, path in cases.items():
            if "after=None" in path:
                continue
            _, lat, errors = asyncio.run(load(base, [path] * args.requests, 1))
            p50, p99 = percentiles(lat)
            print(f"{name:40} {p50:8.1f} {p99:8.1f} {errors:7d}")
            if name.startswith("JSON") and "counts=true" in name:
                # What the last answer held: the total (capped?) and the facets counted.
                found = httpx.get(base + path, timeout=60).json()
                counted = [f["name"] for f in found["facets"] if f["counted"]]
                plus = "+" if found["total_capped"] else ""
                print(f"    total {found['total']}{plus}; facets counted: {counted}")
        rss, peak = peak_rss_mb(pid)
        print(f"server before the CSV: RSS {rss:.0f} MB, peak {peak:.0f} MB")
        t0 = time.perf_counter()
        rows = size = 0
        with httpx.stream("GET", base + "/mentions.csv", timeout=600) as response:
            for chunk in response.iter_bytes():
                size += len(chunk)
                rows += chunk.count(b"\n")  # a CRLF may straddle two chunks
        seconds = time.perf_counter() - t0
        rss, peak = peak_rss_mb(pid)
        print(
            f"mentions.csv: {rows - 1} quote rows, {size / 1e6:.1f} MB in {seconds:.1f} s; "
            f"server after: RSS {rss:.0f} MB, peak {peak:.0f} MB"
        )


@contextmanager
def serving(url: str) -> Iterator[tuple[str, int]]:
    """The app over ``url`` in its own uvicorn process: (base URL, its pid)."""
    import os

    port = free_port()
    # The server runs the newsloom this script imports (a checkout's src/ on PYTHONPATH too).
    env = {"NEWSLOOM_BENCH_DB": url, "PATH": "/usr/bin:/bin"}
    if "PYTHONPATH" in os.environ:
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "--factory",
            "bench_web:make_app",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--log-level",
            "warning",
            "--app-dir",
            str(Path(__file__).parent),
        ],
        env=env,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(600):
            try:
                httpx.get(base + "/api/stories?limit=1", timeout=2)
                break
            except httpx.TransportError:
                time.sleep(0.1)
        yield base, server.pid
    finally:
        server.terminate()
        server.wait(timeout=10)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def load(base: str, paths: list[str], concurrency: int) -> tuple[float, list[float], int]:
    latencies: list[float] = []
    errors = 0
    queue = list(paths)

    async def worker(client: httpx.AsyncClient) -> None:
        nonlocal errors
        while queue:
            path = queue.pop()
            t0 = time.perf_counter()
            response = await client.get(path)
            latencies.append(time.perf_counter() - t0)
            errors += response.status_code != 200

    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        await client.get(paths[0])  # warm up
        start = time.perf_counter()
        await asyncio.gather(*(worker(client) for _ in range(concurrency)))
        return time.perf_counter() - start, latencies, errors


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--articles", type=int, default=10_000)
    ap.add_argument("--requests", type=int, default=400)
    ap.add_argument("--concurrency", type=int, default=8)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument(
        "--profiles",
        action="store_true",
        help="time speaker, outlet and person pages on a generated archive of --articles",
    )
    ap.add_argument("--lists", action="store_true", help="measure the lists (see above)")
    ap.add_argument(
        "--db", help="--lists, --profiles: an empty PostgreSQL database URL (default SQLite)"
    )
    args = ap.parse_args()
    if args.lists:
        with tempfile.TemporaryDirectory(prefix="newsloom-bench-lists-") as tmp:
            run_lists(args.db or str(Path(tmp) / "lists.db"), args)
        return
    rng = random.Random(args.seed)
    if args.profiles:
        with tempfile.TemporaryDirectory(prefix="newsloom-bench-profiles-") as tmp:
            url = args.db or f"sqlite:///{Path(tmp) / 'profiles.db'}"
            t0 = time.perf_counter()
            build_profile_store(url, args.articles, args.seed)
            print(f"built in {time.perf_counter() - t0:.0f} s")
            run_profiles(url, args.requests, args.seed)
        return
    with tempfile.TemporaryDirectory(prefix="newsloom-bench-web-") as tmp:
        db = Path(tmp) / "web.db"
        t0 = time.perf_counter()
        story_ids = build_store(db, args.articles)
        print(f"built in {time.perf_counter() - t0:.0f} s")
        port = free_port()
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                "--factory",
                "bench_web:make_app",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--log-level",
                "warning",
                "--app-dir",
                str(Path(__file__).parent),
            ],
            env={
                "NEWSLOOM_BENCH_DB": str(db),
                "PATH": "/usr/bin:/bin",
                # the server runs the same newsloom as this process (a checkout's src/)
                "PYTHONPATH": os.environ.get("PYTHONPATH", ""),
            },
        )
        try:
            base = f"http://127.0.0.1:{port}"
            for _ in range(300):
                try:
                    httpx.get(base + "/api/stories?limit=1", timeout=2)
                    break
                except httpx.TransportError:
                    time.sleep(0.1)
            cases = {
                "story page (HTML)": [
                    f"/story-{rng.choice(story_ids)}.html" for _ in range(args.requests)
                ],
                "story (JSON)": [
                    f"/api/stories/{rng.choice(story_ids)}" for _ in range(args.requests)
                ],
                "search (JSON, 20 hits)": [
                    f"/api/search?q={rng.choice(SEARCH_WORDS)}" for _ in range(args.requests)
                ],
                "search page (HTML, 50 hits)": [
                    f"/search?q={rng.choice(SEARCH_WORDS)}" for _ in range(args.requests)
                ],
                "index page (100 stories)": ["/"] * args.requests,
                **profile_cases(db, rng, args.requests),
            }
            print(
                f"{args.requests} requests per endpoint, {args.concurrency} concurrent, "
                "1 server process"
            )
            print(f"{'endpoint':30} {'req/s':>8} {'p50 ms':>8} {'p95 ms':>8} {'errors':>7}")
            for name, paths in cases.items():
                elapsed, lat, errors = asyncio.run(load(base, paths, args.concurrency))
                lat.sort()
                print(
                    f"{name:30} {len(lat) / elapsed:8.1f} {lat[len(lat) // 2] * 1000:8.1f} "
                    f"{lat[int(len(lat) * 0.95)] * 1000:8.1f} {errors:7d}"
                )
        finally:
            server.terminate()
            server.wait(timeout=10)


def profile_cases(db: Path, rng: random.Random, n: int) -> dict[str, list[str]]:
    """Speaker and outlet pages (HTML) of random speakers and outlets of the store."""
    from sqlalchemy import create_engine, text

    engine = create_engine(f"sqlite:///{db}")
    with engine.connect() as conn:
        keys = {
            kind: [
                k
                for (k,) in conn.execute(
                    text("SELECT DISTINCT key FROM profile_names WHERE kind = :k ORDER BY key"),
                    {"k": kind},
                )
            ]
            for kind in ("speaker", "outlet")
        }
    engine.dispose()
    return {
        f"{kind} page (HTML)": [f"/{kind}-{rng.choice(keys[kind])}.html" for _ in range(n)]
        for kind in ("speaker", "outlet")
    }


# -- profile pages at scale (``--profiles``) ---------------------------------------------------

PROFILE_OUTLETS = 40  # outlets of the generated archive (Zipf-weighted: a few big ones)
PROFILE_SPEAKERS = 3000  # speakers (Zipf-weighted: some quoted thousands of times)
PROFILE_VOCABULARY = 5000  # invented words quotes are drawn from (few shared fingerprints)
PROFILE_WRITE_BATCH = 1000  # articles, then stories, per transaction while building


def generate_profile_archive(n_articles: int, seed: int) -> tuple[list, list]:
    """Analyses (one quote each) and stories of 1-6 articles with what the profile pages read:
    quotes with speakers, an outlet report per outlet (hedges, own words, one exclusive quote),
    a copied passage, a credited source and a person with ages that disagree."""
    from newsloom.models import (
        Article,
        ArticleAnalysis,
        CopiedPassage,
        CreditedSource,
        Entity,
        ExportQuoteMention,
        OutletReport,
        PassageSpan,
        Quote,
        QuoteMention,
        Story,
        StoryEntity,
        article_id,
    )

    rng = random.Random(seed)
    outlets = [f"Outlet {i}" for i in range(PROFILE_OUTLETS)]
    outlet_weights = [1 / (i + 1) for i in range(PROFILE_OUTLETS)]
    speakers = [f"Speaker {i} Name" for i in range(PROFILE_SPEAKERS)]
    speaker_weights = [1 / (i + 1) for i in range(PROFILE_SPEAKERS)]
    vocabulary = [f"w{i}x" for i in range(PROFILE_VOCABULARY)]
    analyses, stories = [], []
    while len(analyses) < n_articles:
        size = min(rng.randint(1, 6), n_articles - len(analyses))
        day = f"20{rng.randint(15, 24)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
        speaker = rng.choices(speakers, speaker_weights)[0]
        person = rng.choices(speakers, speaker_weights)[0]
        said = " ".join(rng.choices(vocabulary, k=12))
        members, mentions, by_outlet = [], [], {}
        for _ in range(size):
            n = len(analyses)
            outlet = rng.choices(outlets, outlet_weights)[0]
            text = f'Report {n}. {person}, {40 + n % 2}, spoke. "{said}" said {speaker}.'
            start = text.index(said)
            article = Article(
                id=article_id(text), text=text, origin=f"gen:{n}", source=outlet, published=day
            )
            quote = QuoteMention(start=start, end=start + len(said), text=said, speaker=speaker)
            entity = Entity(id=f"e{n}", name=person, type="PERSON", age=40 + n % 2)
            analyses.append(ArticleAnalysis(article=article, quotes=[quote], entities=[entity]))
            members.append(article.id)
            mention = ExportQuoteMention(
                article_id=article.id,
                start=start,
                end=start + len(said),
                text=said,
                kind="direct",
                cue="said",
                speaker=speaker,
                speaker_start=None,
                speaker_end=None,
            )
            mentions.append(mention)
            by_outlet.setdefault(outlet, []).append((article.id, mention))
        reports = [
            OutletReport(
                outlet=o,
                article_ids=[a for a, _ in found],
                hedges=rng.randint(0, 5),
                own_words=rng.randint(100, 400),
                exclusive_quotes=[found[0][1]] if len(by_outlet) > 1 else [],
            )
            for o, found in by_outlet.items()
        ]
        spans = [
            PassageSpan(article_id=m.article_id, start=m.start, end=m.end, text=said)
            for m in mentions
        ]
        stories.append(
            Story(
                id=f"p{len(stories):07d}",
                title=f"Event {len(stories)}",
                article_ids=members,
                quotes=[Quote(id="q1", text=said, speaker=speaker, mentions=mentions)],
                entities=[
                    StoryEntity(
                        name=person,
                        type="PERSON",
                        ages={a: 40 + i % 2 for i, a in enumerate(members)},
                        age_conflict=size > 1,
                        article_ids=members,
                    )
                ],
                copied_passages=[
                    CopiedPassage(
                        id="c1",
                        spans=spans,
                        similarity=1.0,
                        earliest_article_id=members[0],
                        earliest_source=mentions[0].article_id,
                    )
                ]
                if size > 1
                else [],
                credited_sources=[CreditedSource(name="Wire Agency", article_ids=members[-1:])],
                outlets=reports,
            )
        )
    return analyses, stories


def build_profile_store(url: str, n_articles: int, seed: int) -> None:
    from newsloom import api

    analyses, stories = generate_profile_archive(n_articles, seed)
    store = api.open_store(url)
    for at in range(0, len(analyses), PROFILE_WRITE_BATCH):
        with store.transaction() as conn:  # type: ignore[attr-defined]
            for analysis in analyses[at : at + PROFILE_WRITE_BATCH]:
                store._insert(conn, analysis)  # type: ignore[attr-defined]
    for at in range(0, len(stories), PROFILE_WRITE_BATCH):
        store.replace_stories(stories[at : at + PROFILE_WRITE_BATCH])
    print(f"store: {store.count_articles()} articles, {store.count_stories()} stories")
    store.close()


def run_profiles(url: str, requests: int, seed: int) -> None:
    """p50/p99 of speaker, outlet and person pages (HTML and JSON) in process (ASGI, no
    network), for the biggest, a middling and random keys."""
    from fastapi.testclient import TestClient
    from sqlalchemy import create_engine, text

    from newsloom.web import create_app

    rng = random.Random(seed)
    engine = create_engine(url)
    with engine.connect() as conn:
        keys = {
            kind: [
                k
                for (k,) in conn.execute(
                    text("SELECT DISTINCT key FROM profile_names WHERE kind = :k ORDER BY key"),
                    {"k": kind},
                )
            ]
            for kind in ("speaker", "outlet", "person")
        }
    engine.dispose()
    client = TestClient(create_app(url, allowed_hosts=["testserver"]))
    routes = {"speaker": "speakers", "outlet": "outlets", "person": "people"}
    biggest = {"speaker": "speaker-0-name", "outlet": "outlet-0", "person": "speaker-0-name"}
    print(f"{'page':34} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7}")
    for kind in ("speaker", "outlet", "person"):
        for label, chosen in (
            ("biggest", [biggest[kind]] * requests),
            ("random", [rng.choice(keys[kind]) for _ in range(requests)]),
        ):
            for shape, path in (("HTML", "/{kind}-{key}.html"), ("JSON", "/api/{route}/{key}")):
                latencies, errors = [], 0
                for key in chosen:
                    t0 = time.perf_counter()
                    response = client.get(path.format(kind=kind, route=routes[kind], key=key))
                    latencies.append(time.perf_counter() - t0)
                    errors += response.status_code != 200
                latencies.sort()
                p50 = latencies[len(latencies) // 2] * 1000
                p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000
                name = f"{kind} {shape} ({label})"
                print(f"{name:34} {p50:8.1f} {p99:8.1f} {errors:7d}")
    client.close()


def make_app():  # uvicorn --factory entry point (runs in the server process)
    import os

    from newsloom.web import create_app

    return create_app(os.environ["NEWSLOOM_BENCH_DB"])


if __name__ == "__main__":
    main()
