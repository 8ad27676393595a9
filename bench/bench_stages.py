"""Time of each per-article stage next to the spaCy parse it runs on.

    .venv/bin/python bench/bench_stages.py [DIR] [--articles N] [--repeat R]

DIR is a folder of articles (any format newsloom reads); without it, N generated articles
(bench/generate.py) are used. Prints, per stage, the mean milliseconds per article and its
share of the parse time, then the total. Figures only; nothing here asserts.

With ``--repeat R`` the stages run R times over the same parses and each stage's figure is its
least CPU time (``time.process_time``) over the R runs, beside the parse's CPU time: on a
machine shared with other jobs, wall-clock shares swing with the load, while the least CPU time
of a repeated run is close to what the stage costs alone.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent


def load_articles(folder: Path | None, n: int, tmp: Path):
    from newsloom.config import Settings
    from newsloom.ingest import read_inputs
    from newsloom.models import Article

    if folder is None:
        folder = tmp / "corpus"
        subprocess.run(
            [
                sys.executable,
                str(HERE / "generate.py"),
                "--articles",
                str(n),
                "--events",
                str(max(1, n // 8)),
                "--out",
                str(folder),
            ],
            check=True,
            stdout=subprocess.DEVNULL,
        )
    items = [a for a in read_inputs([str(folder)], Settings()) if isinstance(a, Article)]
    return items[:n] if n else items


def main() -> None:
    from newsloom.analyze.stages import STAGES
    from newsloom.config import Settings
    from newsloom.models import ArticleAnalysis
    from newsloom.nlp import load_nlp
    from newsloom.pipeline import StageContext, build_pipeline

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", nargs="?", type=Path)
    ap.add_argument("--articles", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=0, help="least CPU time over R runs")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="newsloom-bench-") as tmpdir:
        articles = load_articles(args.folder, args.articles, Path(tmpdir))
    nlp = load_nlp()
    settings = Settings()
    specs = build_pipeline(STAGES)
    clock = time.process_time if args.repeat else time.perf_counter
    start = clock()
    docs = list(nlp.pipe((a.text for a in articles), batch_size=32))
    parse = clock() - start
    spent: dict[str, float] = {}
    for _ in range(max(args.repeat, 1)):
        run: dict[str, float] = defaultdict(float)
        for article, doc in zip(articles, docs, strict=True):
            analysis = ArticleAnalysis(article=article)
            ctx = StageContext(article=article, doc=doc, settings=settings, analysis=analysis)
            for spec in specs:
                t0 = clock()
                spec.fn(ctx)
                run[spec.name] += clock() - t0
        spent = {k: min(v, spent.get(k, v)) for k, v in run.items()}
    n = len(articles)
    if args.repeat:
        print(f"least CPU time of {args.repeat} runs of the stages; the parse's CPU time")
    words = sum(len(a.text.split()) for a in articles)
    print(f"{n} articles, {words / n:.0f} words/article; parse {1000 * parse / n:.1f} ms/article")
    for spec in specs:
        secs = spent[spec.name]
        print(
            f"  {spec.name:12s} {1000 * secs / n:7.2f} ms/article  "
            f"{100 * secs / parse:5.1f}% of parse"
        )
    total = sum(spent.values())
    print(
        f"  {'all stages':12s} {1000 * total / n:7.2f} ms/article  "
        f"{100 * total / parse:5.1f}% of parse"
    )


if __name__ == "__main__":
    main()
