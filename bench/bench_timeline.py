"""When an ingest's results arrive, engine by engine: where a Dask run loses time to the pool.

    .venv/bin/python bench/bench_timeline.py [--articles 1000] [--rounds 2]
        [--runs local:1,local:2,dask:2]

Each run is one `newsloom ingest` of the same generated articles into a new SQLite store, in
a fresh process, the runs alternating round by round. For each it prints the seconds from the
process's start to: the store open (imports included), the first analysed article, the 32nd,
100th and 500th, the last, and the end of the ingest (the stories rebuilt after the last
analysis), with the main process's CPU time. Comparing two engines phase by phase shows
whether a difference is the start (cluster and workers up, the model loaded), the stream of
batches, or the stories' rebuild at the end. Figures only; nothing here asserts.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_throughput import generate  # noqa: E402

MARKS = (1, 32, 100, 500)


def one_run(folder: str, engine: str, workers: int, db: str) -> None:
    """Run in a fresh process (``--one``): the ingest, timed from this process's start."""
    start = time.perf_counter()
    from newsloom import api
    from newsloom.config import Settings
    from newsloom.store.sql import open_store

    store = open_store(db)
    opened = time.perf_counter() - start
    seen: dict[int, float] = {}
    count = 0

    def on_event(kind: str, _payload: object) -> None:
        nonlocal count
        if kind == "analysed":
            count += 1
            if count in MARKS:
                seen[count] = time.perf_counter() - start
            seen[-1] = time.perf_counter() - start  # the last one so far

    api.ingest([folder], store, Settings(engine=engine, workers=workers), on_event=on_event)
    end = time.perf_counter() - start
    marks = " ".join(f"{n}:{seen[n]:.1f}" for n in MARKS if n in seen)
    print(
        f"{engine}:{workers:<3} store open {opened:.1f}  analysed {marks} "
        f"last:{seen.get(-1, 0.0):.1f}  end {end:.1f} s  main CPU {time.process_time():.1f} s",
        flush=True,
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--articles", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--runs", default="local:1,local:2,dask:2", help="ENGINE:WORKERS,...")
    ap.add_argument("--one", nargs=4, metavar=("FOLDER", "ENGINE", "WORKERS", "DB"))
    args = ap.parse_args()
    if args.one:
        folder, engine, workers, db = args.one
        one_run(folder, engine, int(workers), db)
        return
    runs = [(r.split(":")[0], int(r.split(":")[1])) for r in args.runs.split(",")]
    with tempfile.TemporaryDirectory(prefix="newsloom-timeline-") as tmp:
        folder = Path(tmp) / "corpus"
        generate(args.articles, folder)
        for n in range(1, args.rounds + 1):
            for engine, workers in runs:
                db = Path(tmp) / f"{engine}-{workers}-{n}.db"
                print(f"round {n} ", end="", flush=True)
                subprocess.run(
                    [sys.executable, __file__, "--one", str(folder), engine, str(workers), str(db)],
                    check=True,
                )


if __name__ == "__main__":
    main()
