"""Serve-side speed: requests/s for a story page, a search, a speaker and an outlet page on a
store of 10k articles.

    .venv/bin/python bench/bench_web.py [--articles 10000] [--requests 400] [--concurrency 8]

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
    args = ap.parse_args()
    rng = random.Random(args.seed)
    if args.profiles:
        with tempfile.TemporaryDirectory(prefix="newsloom-bench-profiles-") as tmp:
            url = f"sqlite:///{Path(tmp) / 'profiles.db'}"
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
