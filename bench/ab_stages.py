"""CPU time of stages in this tree against another tree's, alternated in one process.

    .venv/bin/python bench/ab_stages.py --base ../main/src [DIR] [--articles N] [--rounds R]
        [--stages quotes,framing]

``--base`` is the ``src`` folder of another checkout (say ``main`` in a git worktree). Its
``newsloom`` package is copied under another name and imported beside this one, so both
versions run in the same process on the same parses: each round runs every named stage of the
base, then of this tree, over all articles, and each stage's figure is its least and median CPU
time (``time.process_time``) per article over the rounds. On a machine shared with other jobs,
two separate runs of ``bench_stages.py`` differ by more than a small change does; rounds
alternated in one process see the same load. Also checks that both versions give the same
stage output (the analyses' JSON). DIR is a folder of articles; without it, N generated
articles (bench/generate.py). Figures only; nothing here asserts.
"""

from __future__ import annotations

import argparse
import importlib
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
BASE_NAME = "newsloom_base"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", nargs="?", type=Path)
    ap.add_argument("--base", type=Path, required=True, help="src folder of the other tree")
    ap.add_argument("--articles", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--stages", default="quotes,framing")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="newsloom-ab-") as tmpdir:
        tmp = Path(tmpdir)
        shutil.copytree(args.base / "newsloom", tmp / BASE_NAME)
        sys.path.insert(0, str(tmp))
        sys.path.insert(0, str(HERE))
        run(args, tmp)


def run(args: argparse.Namespace, tmp: Path) -> None:
    from bench_stages import load_articles

    from newsloom.analyze.stages import STAGES
    from newsloom.config import Settings
    from newsloom.models import ArticleAnalysis
    from newsloom.nlp import load_nlp
    from newsloom.pipeline import StageContext, build_pipeline

    base_stages = importlib.import_module(f"{BASE_NAME}.analyze.stages").STAGES
    base_analysis = importlib.import_module(f"{BASE_NAME}.models").ArticleAnalysis
    wanted = args.stages.split(",")
    articles = load_articles(args.folder, args.articles, tmp)
    nlp = load_nlp()
    docs = list(nlp.pipe((a.text for a in articles), batch_size=32))
    settings = Settings()
    specs = build_pipeline(STAGES)
    own = {s.name: s.fn for s in specs}
    base = {s.name: s.fn for s in base_stages}
    # Each article's analysis up to each wanted stage, by this tree's earlier stages.
    ready: dict[str, list[StageContext]] = {name: [] for name in wanted}
    for article, doc in zip(articles, docs, strict=True):
        ctx = StageContext(article, doc, settings, ArticleAnalysis(article=article))
        for spec in specs:
            if spec.name in ready:
                ready[spec.name].append(
                    StageContext(article, doc, settings, ctx.analysis.model_copy())
                )
            spec.fn(ctx)
    spent: dict[tuple[str, str], list[float]] = {}
    same: dict[str, bool] = {}
    for _ in range(args.rounds):
        for name in wanted:
            outputs = []
            for version, fn in (("base", base[name]), ("this", own[name])):
                # The base's stage writes the base's records: give it the base's analysis.
                ctxs = [
                    StageContext(
                        c.article,
                        c.doc,
                        settings,
                        base_analysis.model_validate(c.analysis.model_dump())
                        if version == "base"
                        else c.analysis.model_copy(),
                    )
                    for c in ready[name]
                ]
                start = time.process_time()
                for ctx in ctxs:
                    fn(ctx)
                spent.setdefault((name, version), []).append(time.process_time() - start)
                outputs.append([c.analysis.model_dump_json() for c in ctxs])
            same[name] = same.get(name, True) and outputs[0] == outputs[1]
    n = len(articles)
    print(f"{n} articles, {args.rounds} rounds alternated; CPU ms per article")
    for name in wanted:
        b, t = spent[(name, "base")], spent[(name, "this")]
        print(
            f"  {name:10s} base least {1000 * min(b) / n:6.3f} median "
            f"{1000 * statistics.median(b) / n:6.3f} | this least {1000 * min(t) / n:6.3f} "
            f"median {1000 * statistics.median(t) / n:6.3f} | least this/base "
            f"{min(t) / min(b):.3f}; same output: {'yes' if same[name] else 'NO'}"
        )


if __name__ == "__main__":
    main()
