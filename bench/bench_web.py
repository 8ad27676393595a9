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
        new_stories = []
        for s in stories:
            raw = s.model_dump_json()
            for old, new in remap.items():
                raw = raw.replace(old, new)
            story = Story.model_validate_json(raw)
            story = story.model_copy(update={"id": stable_id("story", str(copy), s.id)})
            new_stories.append(story)
            story_ids.append(story.id)
        target.replace_stories(new_stories)
        copy += 1
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
    args = ap.parse_args()
    rng = random.Random(args.seed)
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


def make_app():  # uvicorn --factory entry point (runs in the server process)
    import os

    from newsloom.web import create_app

    return create_app(os.environ["NEWSLOOM_BENCH_DB"])


if __name__ == "__main__":
    main()
