"""Peak memory and time of `newsloom analyze` on one long generated article.

    .venv/bin/python bench/bench_long.py [--sizes 100000,300000,1000000,2000000,5000000]
        [--single-line] [--keep DIR] [--post]

For each size, one article of about that many characters is written (paragraphs of articles
from bench/generate.py, one event, so it reads like one very long report), and
`newsloom analyze FILE --json OUT --quiet` runs on it in a fresh process. Its peak resident
memory (the process and its children, sampled every 50 ms with psutil) and wall seconds are
printed. The length cap (max_article_chars) is lifted to each article's size for the run.
`--single-line` joins the paragraphs with spaces instead of blank lines (the worst
case for paragraph-aligned chunking). `--post` instead starts `newsloom serve` on an empty
store and POSTs one article of each size (under the API's 1,000,000-character field limit) to
/api/articles, printing the server's peak memory and the request's seconds. Figures only;
nothing here asserts.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
import psutil

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import generate  # noqa: E402  (bench/generate.py, next to this file)

DEFAULT_SIZES = (100_000, 300_000, 1_000_000, 2_000_000, 5_000_000)
# How often the child's memory is sampled: short next to a run of seconds, cheap to poll.
SAMPLE_SECONDS = 0.05
TOKEN = "bench-long-token"


def long_article(chars: int, seed: int = 7, single_line: bool = False) -> str:
    """About ``chars`` characters of one event's re-tellings, paragraph after paragraph."""
    rng = random.Random(seed)
    event = generate.make_event(rng)
    sep = " " if single_line else "\n\n"
    parts: list[str] = []
    size = 0
    while size < chars:
        text, _published = generate.article(rng, event, "LongPost")
        for para in text.strip().split("\n\n"):
            parts.append(para)
            size += len(para) + len(sep)
    return sep.join(parts)[:chars].rstrip() + "\n"


def tree_rss(proc: psutil.Process) -> int:
    """Resident bytes of ``proc`` and its children (0 when it has just exited)."""
    try:
        procs = [proc, *proc.children(recursive=True)]
    except psutil.NoSuchProcess:
        return 0
    total = 0
    for p in procs:
        with contextlib.suppress(psutil.NoSuchProcess):
            total += p.memory_info().rss
    return total


def run_once(path: Path, out: Path) -> tuple[float, int, int]:
    """(seconds, peak RSS bytes, exit status) of one `newsloom analyze` on ``path``."""
    cmd = [sys.executable, "-m", "newsloom.cli", "analyze", str(path)]
    cmd += ["--json", str(out), "--quiet"]
    # The article must be analysed, not skipped: lift the length cap to its size.
    env = {**os.environ, "NEWSLOOM_MAX_ARTICLE_CHARS": str(path.stat().st_size)}
    start = time.perf_counter()
    child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    proc = psutil.Process(child.pid)
    peak = 0
    while child.poll() is None:
        peak = max(peak, tree_rss(proc))
        time.sleep(SAMPLE_SECONDS)
    seconds = time.perf_counter() - start
    if child.returncode != 0 and child.stderr is not None:
        sys.stderr.write(child.stderr.read().decode(errors="replace"))
    return seconds, peak, child.returncode


def serve(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    """A `newsloom serve` on a free loopback port over an empty store; (process, base URL)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    cmd = [sys.executable, "-m", "newsloom.cli", "serve", "--db", str(folder / "served.db")]
    cmd += ["--port", str(port), "--token", TOKEN]
    server = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(600):
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(url + "/api/stories", timeout=1).status_code == 200:
                return server, url
        time.sleep(0.1)
    server.kill()
    raise SystemExit("newsloom serve did not start")


def post_once(url: str, server: subprocess.Popen[bytes], text: str) -> tuple[float, int, int]:
    """(seconds, the server's peak RSS bytes during the request, HTTP status) of one POST."""
    proc = psutil.Process(server.pid)
    peak = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, tree_rss(proc))
            time.sleep(SAMPLE_SECONDS)

    sampler = threading.Thread(target=sample)
    sampler.start()
    start = time.perf_counter()
    response = httpx.post(
        url + "/api/articles",
        json={"articles": [{"text": text, "source": "LongPost"}]},
        headers={"Authorization": f"Bearer {TOKEN}"},
        timeout=3600,
    )
    seconds = time.perf_counter() - start
    done.set()
    sampler.join()
    return seconds, peak, response.status_code


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default=",".join(str(s) for s in DEFAULT_SIZES))
    ap.add_argument("--single-line", action="store_true")
    ap.add_argument("--keep", type=Path, help="write the articles and exports here")
    ap.add_argument("--post", action="store_true", help="POST to `newsloom serve` instead")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s]
    with tempfile.TemporaryDirectory(prefix="bench-long-") as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        if args.post:
            bench_post(folder, sizes, args.single_line)
            return
        print(f"{'chars':>10} {'seconds':>8} {'peak RSS MB':>12} {'s per 100k':>10} status")
        for chars in sizes:
            path = folder / f"long_{chars}.txt"
            path.write_text(long_article(chars, single_line=args.single_line), encoding="utf-8")
            seconds, peak, status = run_once(path, folder / f"long_{chars}.json")
            per = seconds / (chars / 100_000)
            print(f"{chars:>10} {seconds:>8.1f} {peak / 1e6:>12.0f} {per:>10.2f} {status}")


def bench_post(folder: Path, sizes: list[int], single_line: bool) -> None:
    server, url = serve(folder)
    try:
        print(f"{'chars':>10} {'seconds':>8} {'server peak MB':>15} status")
        for chars in sizes:
            text = long_article(chars, seed=chars, single_line=single_line)
            seconds, peak, status = post_once(url, server, text)
            print(f"{chars:>10} {seconds:>8.1f} {peak / 1e6:>15.0f} {status}")
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
