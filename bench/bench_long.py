"""Peak memory and time of `newsloom analyze` on one long generated article.

    .venv/bin/python bench/bench_long.py [--sizes 100000,300000,1000000,2000000,5000000]
        [--single-line] [--keep DIR]

For each size, one article of about that many characters is written (paragraphs of articles
from bench/generate.py, one event, so it reads like one very long report), and
`newsloom analyze FILE --json OUT --quiet` runs on it in a fresh process. Its peak resident
memory (the process and its children, sampled every 50 ms with psutil) and wall seconds are
printed. The length cap (max_article_chars) is lifted to each article's size for the run.
`--single-line` joins the paragraphs with spaces instead of blank lines (the worst
case for paragraph-aligned chunking). Figures only; nothing here asserts.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import generate  # noqa: E402  (bench/generate.py, next to this file)

DEFAULT_SIZES = (100_000, 300_000, 1_000_000, 2_000_000, 5_000_000)
# How often the child's memory is sampled: short next to a run of seconds, cheap to poll.
SAMPLE_SECONDS = 0.05


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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default=",".join(str(s) for s in DEFAULT_SIZES))
    ap.add_argument("--single-line", action="store_true")
    ap.add_argument("--keep", type=Path, help="write the articles and exports here")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s]
    with tempfile.TemporaryDirectory(prefix="bench-long-") as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        print(f"{'chars':>10} {'seconds':>8} {'peak RSS MB':>12} {'s per 100k':>10} status")
        for chars in sizes:
            path = folder / f"long_{chars}.txt"
            path.write_text(long_article(chars, single_line=args.single_line), encoding="utf-8")
            seconds, peak, status = run_once(path, folder / f"long_{chars}.json")
            per = seconds / (chars / 100_000)
            print(f"{chars:>10} {seconds:>8.1f} {peak / 1e6:>12.0f} {per:>10.2f} {status}")


if __name__ == "__main__":
    main()
