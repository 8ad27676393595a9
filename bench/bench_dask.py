"""Where the CPU of an `--engine dask` ingest goes, process by process, next to `--workers 2`.

    .venv/bin/python bench/bench_dask.py [--articles 300] [--rounds 2] [--variants a,b,...]
        [--baseline-src DIR]

Each variant is one `newsloom ingest` of the same generated articles into a new SQLite store,
run in a fresh process; the variants alternate round by round so that a change in the
machine's load falls on all of them. For each run it prints the wall-clock time and the CPU
time (user + system) of every role: the main process, split by thread (the main thread
stores and links; Dask's event-loop thread runs the LocalCluster's scheduler and the
client), the Dask nannies and workers, or the local pool's forkserver and workers. Dask
variants differ in Dask configuration (``dask.config.set`` around the run, which a
LocalCluster hands on to its nannies and workers) or in newsloom settings. On a machine
shared with other jobs the wall-clock figures move from run to run; compare CPU. A variant
written ``NAME@baseline`` runs NAME with the newsloom package of ``--baseline-src`` (e.g. an
older checkout's ``src``), alternating with this checkout's.
Figures only; nothing here asserts.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_throughput import generate  # noqa: E402

# Seconds between two readings of CPU times (child processes from outside, the run's own
# threads from inside): a process or thread that ends between two readings loses at most
# this much, against runs of tens of seconds.
POLL_S = 0.1
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")

# name -> (engine, workers, dask configuration, newsloom settings)
VARIANTS: dict[str, tuple[str, int, dict[str, Any], dict[str, Any]]] = {
    "local": ("local", 2, {}, {}),
    "dask": ("dask", 2, {}, {}),
    # Dask's own environment for its workers: MALLOC_TRIM_THRESHOLD_ at 64 KiB
    "dask-trim": ("dask", 2, {}, {"env": {"MALLOC_TRIM_THRESHOLD_": "65536"}}),
    "dask-no-profile": ("dask", 2, {"distributed.worker.profile.enabled": False}, {}),
    "dask-slow-tick": (
        "dask",
        2,
        {
            "distributed.admin.tick.interval": "1s",
            "distributed.worker.memory.monitor-interval": "1s",
            "distributed.admin.system-monitor.interval": "2s",
        },
        {},
    ),
}


def _thread_cpu(native_id: int) -> float:
    try:
        with open(f"/proc/self/task/{native_id}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime, stime


def child_run(variant: str, source: Path, tmp: Path) -> None:
    """One ingest in this fresh process; print wall time and CPU per thread of this process."""
    import dask

    from newsloom import api
    from newsloom.config import Settings
    from newsloom.store import open_store

    engine, workers, config, extra = VARIANTS[variant]
    extra = dict(extra)
    os.environ.update(extra.pop("env", {}))
    threads: dict[tuple[str, int], float] = {}
    stop = threading.Event()

    def sample() -> None:
        while not stop.is_set():
            for t in threading.enumerate():
                if t.native_id is not None and t is not threading.current_thread():
                    key = (re.sub(r"[-_ ]?\d+$", "", t.name), t.native_id)
                    threads[key] = max(threads.get(key, 0.0), _thread_cpu(t.native_id))
            stop.wait(POLL_S)

    sampler = threading.Thread(target=sample, name="bench-sampler", daemon=True)
    db = f"sqlite:///{tmp / f'{variant}-{time.monotonic_ns()}.db'}"
    settings = Settings(workers=workers, engine=engine, db_url=db, **extra)
    main_start = _thread_cpu(threading.main_thread().native_id or 0)
    sampler.start()
    t0, c0 = time.perf_counter(), time.process_time()
    with dask.config.set(config):
        store = open_store(db)
        report = api.ingest([str(source)], store, settings)
        store.close()
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    stop.set()
    sampler.join()
    assert report.added == report.read, "benchmark corpus must analyse cleanly"
    by_name: dict[str, float] = defaultdict(float)
    for (name, _), seconds in threads.items():
        by_name[name] += seconds
    by_name["MainThread"] = _thread_cpu(threading.main_thread().native_id or 0) - main_start
    print(json.dumps({"wall": wall, "cpu": cpu, "threads": by_name}))


def _role(proc: Any, root: int) -> str:
    depth, parent = 1, proc.ppid()
    while parent != root and depth < 4:
        import psutil

        parent = psutil.Process(parent).ppid()
        depth += 1
    cmd = " ".join(proc.cmdline())
    if "resource_tracker" in cmd:
        return "resource tracker"
    if "forkserver" in cmd and depth == 1:
        return "forkserver"
    # A LocalCluster's nannies live in the main process; its workers are spawned children.
    return "dask workers" if depth == 1 else "pool workers"


def measure(variant: str, source: Path, tmp: Path, baseline: Path | None) -> dict[str, Any]:
    import psutil

    name, _, where = variant.partition("@")
    env = dict(os.environ)
    if where:
        env["PYTHONPATH"] = os.pathsep.join([str(baseline), env.get("PYTHONPATH", "")])
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", name]
    cmd += ["--source", str(source), "--tmp", str(tmp)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, env=env)
    root = psutil.Process(proc.pid)
    seen: dict[int, tuple[str, float, float, int, int]] = {}
    while proc.poll() is None:
        try:
            for child in root.children(recursive=True):
                try:
                    times = child.cpu_times()
                    switches = child.num_ctx_switches()
                    with open(f"/proc/{child.pid}/stat") as fh:
                        minflt = int(fh.read().rsplit(")", 1)[1].split()[7])
                    role = seen[child.pid][0] if child.pid in seen else _role(child, proc.pid)
                except (psutil.Error, OSError):
                    continue
                seen[child.pid] = (role, times.user, times.system, minflt, switches.involuntary)
        except psutil.Error:
            pass
        time.sleep(POLL_S)
    out, _ = proc.communicate()
    if proc.returncode != 0:
        raise SystemExit(f"variant {variant} failed (exit {proc.returncode})")
    row = json.loads(out.strip().splitlines()[-1])
    roles: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0, 0])
    for role, *figures in seen.values():
        for i, value in enumerate(figures):
            roles[role][i] += value
    row["roles"] = dict(roles)
    return row


def show(variant: str, row: dict[str, Any], n: int) -> None:
    total = row["cpu"] + sum(u + s for u, s, *_ in row["roles"].values())
    print(
        f"{variant:18s} wall {row['wall']:6.1f} s  CPU {total:6.1f} s "
        f"({1000 * total / n:5.1f} ms/article)  main {row['cpu']:5.1f} s"
    )
    threads = sorted(row["threads"].items(), key=lambda kv: -kv[1])
    print("    main threads: " + ", ".join(f"{k} {v:.1f}" for k, v in threads if v >= 0.05))
    for role, (user, system, minflt, involuntary) in sorted(row["roles"].items()):
        print(
            f"    {role:16s} user {user:6.1f} s  system {system:5.1f} s  "
            f"minor faults {minflt / 1e6:5.2f} M  involuntary switches {involuntary}"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--articles", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--variants", default="local,dask", help=f"of: {', '.join(VARIANTS)}")
    ap.add_argument(
        "--baseline-src", type=Path, help="the newsloom source of the NAME@baseline variants"
    )
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--source", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--tmp", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child_run(args.child, args.source, args.tmp)
        return
    variants = args.variants.split(",")
    unknown = [v for v in variants if v.partition("@")[0] not in VARIANTS]
    if any("@" in v for v in variants) and not args.baseline_src:
        raise SystemExit("a NAME@baseline variant needs --baseline-src")
    if unknown:
        raise SystemExit(f"unknown variant {unknown[0]!r}; known: {', '.join(VARIANTS)}")
    with tempfile.TemporaryDirectory(prefix="newsloom-bench-dask-") as tmpdir:
        tmp = Path(tmpdir)
        files = generate(args.articles, tmp / "corpus")
        n = len(files)
        print(f"corpus: {n} generated articles; load average {os.getloadavg()[0]:.2f}")
        for r in range(args.rounds):
            for variant in variants:
                row = measure(variant, tmp / "corpus", tmp, args.baseline_src)
                print(f"round {r + 1} ", end="")
                show(variant, row, n)
                sys.stdout.flush()


if __name__ == "__main__":
    main()
