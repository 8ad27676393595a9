"""The static report's list files (``render/static_lists.py``): rows written per second and
the peak memory Python allocated (tracemalloc) while writing every list of a store filled
with tests/store/list_builders' invented archive (no spaCy).

    PYTHONPATH=src:. .venv/bin/python bench/bench_static_lists.py [--articles 2000]
"""

from __future__ import annotations

import argparse
import tempfile
import time
import tracemalloc
from pathlib import Path

from tests.store.list_builders import fill

from newsloom.render.html import Pages, Site
from newsloom.render.static_lists import write_static_lists
from newsloom.store import open_store


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--articles", type=int, default=2000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-static-lists-") as tmp:
        store = open_store(str(Path(tmp) / "lists.db"))
        fill(store, args.articles)
        out = Path(tmp) / "report"
        out.mkdir()
        tracemalloc.start()
        began = time.perf_counter()
        rows = write_static_lists(store, out, Pages(Site(lists=True)))
        took = time.perf_counter() - began
        peak = tracemalloc.get_traced_memory()[1]
        store.close()
    total = sum(rows.values())
    print(f"{args.articles} articles: rows {rows}")
    print(f"{total} rows in {took:.1f} s ({total / took:.0f} rows/s), peak {peak / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
