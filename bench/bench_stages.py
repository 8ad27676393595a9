"""Time of each per-article stage next to the spaCy parse it runs on.

    .venv/bin/python bench/bench_stages.py [DIR] [--articles N]

DIR is a folder of articles (any format newsloom reads); without it, N generated articles
(bench/generate.py) are used. Prints, per stage, the mean milliseconds per article and its
share of the parse time, then the total. Times are this process's CPU time, so other jobs on
the machine do not move the shares. Figures only; nothing here asserts.
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
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="newsloom-bench-") as tmpdir:
        articles = load_articles(args.folder, args.articles, Path(tmpdir))
    nlp = load_nlp()
    settings = Settings()
    specs = build_pipeline(STAGES)
    start = time.process_time()
    docs = list(nlp.pipe((a.text for a in articles), batch_size=32))
    parse = time.process_time() - start
    spent: dict[str, float] = defaultdict(float)
    for article, doc in zip(articles, docs, strict=True):
        ctx = StageContext(
            article=article, doc=doc, settings=settings, analysis=ArticleAnalysis(article=article)
        )
        for spec in specs:
            t0 = time.process_time()
            spec.fn(ctx)
            spent[spec.name] += time.process_time() - t0
    n = len(articles)
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
