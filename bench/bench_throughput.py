"""Throughput and memory of `newsloom analyze`, against bare spaCy on the same texts.

    .venv/bin/python bench/bench_throughput.py [--articles 1000] [--skip-memory] [--dask]

Prints articles/s and words/s for: bare `nlp.pipe` (the reference), newsloom's full
`analyze` path (read files → parse → all stages → store → stories → JSON) with one and two
worker processes, and the ratios. ``--dask`` adds the same run with ``--engine dask`` on a
LocalCluster of two workers (its start and stop included; needs the ``dask`` extra).
Peak memory is the max RSS of a fresh `newsloom analyze` process (children included) at two
corpus sizes: it must stay flat as the corpus grows.
Figures only; nothing here asserts.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent


def generate(n: int, out: Path) -> list[Path]:
    subprocess.run(
        [
            sys.executable,
            str(HERE / "generate.py"),
            "--articles",
            str(n),
            "--events",
            str(max(1, n // 8)),
            "--out",
            str(out),
            "--format",
            "txt",
            "--seed",
            "7",
        ],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return sorted(out.rglob("*.txt"))


def time_spacy(texts: list[str], n_process: int) -> float:
    from newsloom.nlp import load_nlp

    nlp = load_nlp()
    start = time.perf_counter()
    for _ in nlp.pipe(texts, batch_size=32, n_process=n_process):
        pass
    return time.perf_counter() - start


def time_newsloom(folder: Path, workers: int, tmp: Path, engine: str = "local") -> float:
    from newsloom import api
    from newsloom.config import Settings

    name = f"bench-{engine}-{workers}"
    settings = Settings(workers=workers, engine=engine, db_url=f"sqlite:///{tmp / f'{name}.db'}")
    start = time.perf_counter()
    report, _ = api.analyze([str(folder)], tmp / f"{name}.json", settings)
    elapsed = time.perf_counter() - start
    assert report.added == report.read, "benchmark corpus must analyse cleanly"
    return elapsed


def peak_rss_mb(folder: Path, tmp: Path, workers: int) -> float:
    """Max RSS of one `newsloom analyze` run and its children, in a fresh wrapper process."""
    exe = REPO / ".venv" / "bin" / "newsloom"
    code = (
        "import resource, subprocess, sys;"
        "subprocess.run(sys.argv[1:], check=True, stderr=subprocess.DEVNULL);"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            code,
            str(exe),
            "analyze",
            str(folder),
            "--quiet",
            "--workers",
            str(workers),
            "--json",
            str(tmp / "mem.json"),
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    return int(out.stdout.strip().splitlines()[-1]) / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--articles", type=int, default=1000)
    ap.add_argument("--skip-memory", action="store_true")
    ap.add_argument("--dask", action="store_true", help="add a Dask LocalCluster of 2 workers")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="newsloom-bench-") as tmpdir:
        tmp = Path(tmpdir)
        folder = tmp / "corpus"
        files = generate(args.articles, folder)
        texts = [f.read_text(encoding="utf-8") for f in files]
        words = sum(len(t.split()) for t in texts)
        n = len(texts)
        print(f"corpus: {n} articles, {words} words ({words / n:.0f} words/article)")
        rows = {
            "spaCy nlp.pipe, 1 process": time_spacy(texts, 1),
            "newsloom analyze, 1 worker": time_newsloom(folder, 1, tmp),
            "spaCy nlp.pipe, n_process=2": time_spacy(texts, 2),
            "newsloom analyze, --workers 2": time_newsloom(folder, 2, tmp),
        }
        if args.dask:
            rows["newsloom analyze, dask 2 workers"] = time_newsloom(folder, 2, tmp, "dask")
        for name, secs in rows.items():
            print(
                f"{name:34s} {secs:7.1f} s  {n / secs:6.1f} articles/s  {words / secs:8.0f} words/s"
            )
        spacy1, nl1 = rows["spaCy nlp.pipe, 1 process"], rows["newsloom analyze, 1 worker"]
        nl2 = rows["newsloom analyze, --workers 2"]
        figures = {
            "ratio_to_spacy_1": spacy1 / nl1,
            "workers2_speedup": nl1 / nl2,
            "ratio_to_spacy_2proc": rows["spaCy nlp.pipe, n_process=2"] / nl2,
        }
        if args.dask:
            dask2 = rows["newsloom analyze, dask 2 workers"]
            figures["dask2_speedup"] = nl1 / dask2
            figures["dask2_vs_workers2"] = nl2 / dask2
        print(
            "throughput ratio newsloom/spaCy (1 process): "
            f"{figures['ratio_to_spacy_1']:.2f}  (goal >= 0.8)"
        )
        print(
            "--workers 2 speed-up over 1 worker:          "
            f"{figures['workers2_speedup']:.2f}x (goal >= 1.7)"
        )
        print(
            f"throughput ratio newsloom/spaCy (2 processes): {figures['ratio_to_spacy_2proc']:.2f}"
        )
        if args.dask:
            print(
                "dask 2 workers speed-up over 1 worker:       "
                f"{figures['dask2_speedup']:.2f}x (goal >= 1.8); "
                f"throughput vs --workers 2: {figures['dask2_vs_workers2']:.2f}"
            )
        if not args.skip_memory:
            small = tmp / "small"
            small.mkdir()
            for f in files[: max(1, n // 4)]:
                (small / f.name).write_bytes(f.read_bytes())
            for label, path in ((f"{n // 4} articles", small), (f"{n} articles", folder)):
                print(
                    f"peak RSS, analyze {label:14s} (1 worker): {peak_rss_mb(path, tmp, 1):7.0f} MB"
                )
        print(json.dumps({k: round(v, 3) for k, v in figures.items()}))


if __name__ == "__main__":
    main()
