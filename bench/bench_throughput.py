"""Throughput and memory of `newsloom analyze`, against bare spaCy on the same texts.

    .venv/bin/python bench/bench_throughput.py [--articles 1000 | --texts DIR] [--skip-memory]
        [--dask] [--same-products]

Prints articles/s, words/s and CPU time for: bare `nlp.pipe` of the stock model with all its
components (the reference), newsloom's full `analyze` path (read files → parse → all stages
→ store → stories → JSON) with one and two worker processes, and the ratios: wall-clock,
and CPU time summed over every process of a run (the main process, its workers, Dask's
processes). The newsloom figures are those of the path from files to stored stories (what
`newsloom ingest` does, the goal of issue 13); the export that `analyze` adds (the stories
read back, the JSON written) is timed after it and printed beside it, with the ratios that
include it. Each row runs in a fresh process. ``--texts DIR`` measures the ``.txt`` files of
DIR (e.g. ../shared/data/ecbplus/dev/texts) instead of generated articles. ``--dask`` adds
the same run with ``--engine dask`` on a LocalCluster of two workers (its start and stop
included; needs the ``dask`` extra). ``--same-products`` adds the stock model with the matrix
products newsloom's model uses (``newsloom.matmul``): not the goal's reference, but what
newsloom costs beyond a parse that multiplies the same way. On a machine shared with other
jobs the wall-clock figures move from run to run; the CPU ratios within one run are the
reading that counts.
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


# Seconds between two readings of the CPU time of a measured run's child processes: a
# process that ends between readings loses at most this much of its CPU time (the workers
# are idle at their end), against runs of tens of seconds.
POLL_S = 0.1


def child_row(kind: str, source: Path, workers: int, tmp: Path) -> None:
    """Run one measured row in this (fresh) process; print its wall time and own CPU time.

    ``kind`` "spacy": the stock model (every component, ``spacy.load``), loaded before the
    clock starts, parsing the files' texts with ``nlp.pipe`` (``n_process=workers``);
    "spacy-matmul": the same with the matrix products newsloom's model uses (``matmul``).
    Any other ``kind`` is an engine: the whole ``newsloom analyze`` path into a new store
    (model loads included, as a user's run pays them).
    """
    if kind in ("spacy", "spacy-matmul"):
        import spacy

        from newsloom.matmul import use_matmul_ops
        from newsloom.nlp import pick_model

        texts = [f.read_text(encoding="utf-8") for f in sorted(source.rglob("*.txt"))]
        nlp = spacy.load(pick_model())
        if kind == "spacy-matmul":
            use_matmul_ops(nlp)
        t0, c0 = time.perf_counter(), time.process_time()
        for _ in nlp.pipe(texts, batch_size=32, n_process=workers):
            pass
    else:
        from newsloom import api
        from newsloom.config import Settings
        from newsloom.render.json import write_corpus
        from newsloom.store import open_store

        name = f"bench-{kind}-{workers}"
        db = f"sqlite:///{tmp / f'{name}.db'}"
        settings = Settings(workers=workers, engine=kind, db_url=db)
        t0, c0 = time.perf_counter(), time.process_time()
        # What `newsloom analyze` does (api.analyze), with the clock read between the ingest
        # (files -> stored stories) and the export (the stories read back, the JSON written).
        store = open_store(db)
        report = api.ingest([str(source)], store, settings)
        assert report.added == report.read, "benchmark corpus must analyse cleanly"
        t1, c1 = time.perf_counter(), time.process_time()
        write_corpus(api.export(store, report.article_ids, report.skipped), tmp / f"{name}.json")
        store.close()
        export = {"export_wall": time.perf_counter() - t1, "export_cpu": time.process_time() - c1}
        print(json.dumps({"wall": t1 - t0, "cpu": c1 - c0, **export}))
        return
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    print(json.dumps({"wall": wall, "cpu": cpu, "export_wall": 0.0, "export_cpu": 0.0}))


def measure(kind: str, source: Path, workers: int, tmp: Path) -> tuple[float, float, float, float]:
    """(wall seconds, CPU seconds of every process of the run, export wall and CPU seconds):
    the row runs in a fresh process; the CPU time of the processes it starts (pool or Dask
    workers, the forkserver, spaCy's n_process workers) is read every POLL_S while they live
    (they are gone before the export starts). The first two cover files -> stored stories;
    the export (newsloom rows only, else 0) comes after them."""
    import psutil

    args = ["--child", kind, "--source", str(source), "--workers", str(workers)]
    cmd = [sys.executable, str(Path(__file__).resolve()), *args, "--tmp", str(tmp)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    parent = psutil.Process(proc.pid)
    seen: dict[int, float] = {}
    while proc.poll() is None:
        try:
            for child in parent.children(recursive=True):
                try:
                    times = child.cpu_times()
                except psutil.Error:
                    continue
                seen[child.pid] = max(seen.get(child.pid, 0.0), times.user + times.system)
        except psutil.Error:
            pass
        time.sleep(POLL_S)
    out, _ = proc.communicate()
    if proc.returncode != 0:
        raise SystemExit(f"the {kind} row failed (exit {proc.returncode})")
    row = json.loads(out.strip().splitlines()[-1])
    return row["wall"], row["cpu"] + sum(seen.values()), row["export_wall"], row["export_cpu"]


def peak_rss_mb(folder: Path, tmp: Path, workers: int) -> float:
    """Max RSS of one `newsloom analyze` run and its children, in a fresh wrapper process."""
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
            sys.executable,
            "-m",
            "newsloom.cli",
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


ROWS = (
    ("spaCy nlp.pipe, 1 process", "spacy", 1),
    ("newsloom analyze, 1 worker", "local", 1),
    ("spaCy nlp.pipe, n_process=2", "spacy", 2),
    ("newsloom analyze, --workers 2", "local", 2),
)
DASK_ROW = ("newsloom analyze, dask 2 workers", "dask", 2)
# Not the reference: the stock model with newsloom's matrix products (matmul.MatmulOps), to
# show what newsloom costs beyond a parse that multiplies matrices the same way.
MATMUL_ROW = ("spaCy nlp.pipe, 1 proc, numpy matmul", "spacy-matmul", 1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--articles", type=int, default=1000)
    ap.add_argument(
        "--texts", type=Path, help="a folder of real .txt articles instead of generated ones"
    )
    ap.add_argument("--skip-memory", action="store_true")
    ap.add_argument("--dask", action="store_true", help="add a Dask LocalCluster of 2 workers")
    ap.add_argument(
        "--same-products",
        action="store_true",
        help="add the stock model with newsloom's matrix products (not the reference)",
    )
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--source", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--workers", type=int, default=1, help=argparse.SUPPRESS)
    ap.add_argument("--tmp", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child_row(args.child, args.source, args.workers, args.tmp)
        return
    with tempfile.TemporaryDirectory(prefix="newsloom-bench-") as tmpdir:
        tmp = Path(tmpdir)
        if args.texts:
            folder = args.texts.resolve()
            files = sorted(folder.rglob("*.txt"))
        else:
            folder = tmp / "corpus"
            files = generate(args.articles, folder)
        texts = [f.read_text(encoding="utf-8") for f in files]
        words = sum(len(t.split()) for t in texts)
        n = len(texts)
        print(f"corpus: {n} articles, {words} words ({words / n:.0f} words/article)")
        rows = {}
        print("newsloom rows: files -> stored stories (`newsloom ingest`); then the export")
        extra = ((DASK_ROW,) if args.dask else ()) + ((MATMUL_ROW,) if args.same_products else ())
        for name, kind, workers in ROWS + extra:
            rows[name] = measure(kind, folder, workers, tmp)
            wall, cpu, export_wall, export_cpu = rows[name]
            line = (
                f"{name:34s} {wall:7.1f} s  {n / wall:6.1f} articles/s  {words / wall:8.0f} "
                f"words/s  CPU {cpu:7.1f} s ({1000 * cpu / n:5.1f} ms/article)"
            )
            if not kind.startswith("spacy"):
                line += f"; export {export_wall:.1f} s, CPU {1000 * export_cpu / n:.1f} ms/article"
            print(line)
        spacy1, spacy1_cpu = rows[ROWS[0][0]][:2]
        nl1, nl1_cpu, nl1_export, nl1_export_cpu = rows[ROWS[1][0]]
        spacy2 = rows[ROWS[2][0]][0]
        nl2, nl2_cpu, nl2_export, _ = rows[ROWS[3][0]]
        figures = {
            "ratio_to_spacy_1": spacy1 / nl1,
            "cpu_ratio_1": spacy1_cpu / nl1_cpu,
            "cpu_ratio_1_with_export": spacy1_cpu / (nl1_cpu + nl1_export_cpu),
            "workers2_speedup": nl1 / nl2,
            "workers2_speedup_with_export": (nl1 + nl1_export) / (nl2 + nl2_export),
            "ratio_to_spacy_2proc": spacy2 / nl2,
            "cpu_ratio_workers2": spacy1_cpu / nl2_cpu,
        }
        if args.dask:
            dask2, dask2_cpu = rows[DASK_ROW[0]][:2]
            figures["dask2_speedup"] = nl1 / dask2
            figures["dask2_vs_workers2"] = nl2 / dask2
            figures["cpu_ratio_dask2"] = spacy1_cpu / dask2_cpu
        print(
            "wall-clock ratio newsloom/spaCy (1 process):  "
            f"{figures['ratio_to_spacy_1']:.2f}; CPU ratio (all processes): "
            f"{figures['cpu_ratio_1']:.2f} (goal >= 1.0); with the export "
            f"{figures['cpu_ratio_1_with_export']:.2f}"
        )
        print(
            "--workers 2 speed-up over 1 worker:          "
            f"{figures['workers2_speedup']:.2f}x (goal >= 1.8); CPU ratio "
            f"{figures['cpu_ratio_workers2']:.2f}; with the export "
            f"{figures['workers2_speedup_with_export']:.2f}x"
        )
        print(
            f"wall-clock ratio newsloom/spaCy (2 processes): {figures['ratio_to_spacy_2proc']:.2f}"
        )
        if args.dask:
            print(
                "dask 2 workers speed-up over 1 worker:       "
                f"{figures['dask2_speedup']:.2f}x (goal >= 1.8); "
                f"throughput vs --workers 2: {figures['dask2_vs_workers2']:.2f}; "
                f"CPU ratio {figures['cpu_ratio_dask2']:.2f}"
            )
        if args.same_products:
            figures["cpu_ratio_same_products"] = rows[MATMUL_ROW[0]][1] / nl1_cpu
            print(
                "CPU ratio newsloom / stock model with the same matrix products: "
                f"{figures['cpu_ratio_same_products']:.2f} (not the goal's reference)"
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
