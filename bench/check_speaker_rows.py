"""Check that a change to the speaker features leaves the ranker's inputs and outputs alone.

    .venv/bin/python bench/check_speaker_rows.py --write REF.json [FOLDER ...] [--limit N]
    .venv/bin/python bench/check_speaker_rows.py --against REF.json [FOLDER ...] [--limit N]

Runs the stages the quotes stage reads (boilerplate, posts, entities) on every article under
each FOLDER (default: PolNeAR dev in ../shared/data and examples/corpus), then the quotes stage
with the shipped speaker model, recording every quotation's candidates and feature rows. With
``--write`` the record goes to REF.json; with ``--against`` it is compared with REF.json: the
feature rows, the speakers, their words and offsets, kinds and full-precision confidences must
all be equal. Prints the counts and the first differences; exits 1 on any difference. Made to
check a faster way of building the rows (docs/benchmarks.md, "Quotes on PolNeAR dev").
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DEFAULT = (HERE.parent.parent / "shared" / "data" / "polnear" / "dev" / "text",)
EXAMPLES = HERE.parent / "examples" / "corpus"
SHOWN = 10


def record(folders: list[Path], limit: int) -> dict[str, Any]:
    """Per article (by origin): its quotations' speakers and every candidate row."""
    from newsloom.analyze import analyze_articles
    from newsloom.analyze.quotes import Recorded, find_quotes
    from newsloom.analyze.speakers.ranker import shipped_ranker
    from newsloom.analyze.stages import STAGES
    from newsloom.config import Settings
    from newsloom.ingest import read_inputs
    from newsloom.models import Article, ArticleAnalysis
    from newsloom.pipeline import StageContext, StageSpec, build_pipeline

    docs: list[Any] = []

    def keep_doc(ctx: StageContext) -> None:
        docs.append(ctx.doc)

    specs = build_pipeline(STAGES, ("boilerplate", "posts", "entities"))
    specs.append(StageSpec("keep_doc", keep_doc, (), ()))
    settings = Settings()
    ranker = shipped_ranker()
    out: dict[str, Any] = {}
    for folder in folders:
        items = [a for a in read_inputs([str(folder)], settings) if isinstance(a, Article)]
        items = items[: limit or None]
        for article, result in zip(items, analyze_articles(items, settings, specs), strict=True):
            doc = docs.pop() if docs else None
            docs.clear()
            if not isinstance(result, ArticleAnalysis) or doc is None:
                continue
            recorded: list[Recorded] = []
            quotes = find_quotes(
                doc,
                result.paragraphs,
                result.posts,
                result.entities,
                article.text,
                ranker=ranker,
                recorder=recorded,
            )
            name = Path(article.origin).name if article.origin else article.id
            out[f"{folder.name}/{name}"] = {
                "quotes": [
                    [q.start, q.end, q.kind, q.speaker, q.speaker_text, q.speaker_start]
                    + [q.speaker_end, q.speaker_confidence, q.speaker_kind]
                    for q in quotes
                ],
                "rows": [
                    [r.quote.start, r.quote.end, [c.key for c in r.candidates], r.rows]
                    for r in recorded
                ],
            }
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="*", type=Path, default=[*DEFAULT, EXAMPLES])
    ap.add_argument("--limit", type=int, default=0, help="at most N articles per folder")
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", type=Path, help="write the record to this file")
    mode.add_argument("--against", type=Path, help="compare with the record in this file")
    args = ap.parse_args()
    now = record(args.folders, args.limit)
    quotes = sum(len(a["quotes"]) for a in now.values())
    rows = sum(len(r[3]) for a in now.values() for r in a["rows"])
    print(f"{len(now)} articles, {quotes} quotations, {rows} candidate rows")
    if args.write is not None:
        args.write.write_text(json.dumps(now), encoding="utf-8")
        return
    # Through JSON, as the reference went, so that tuples and lists compare alike.
    now = json.loads(json.dumps(now))
    before = json.loads(args.against.read_text(encoding="utf-8"))
    differ = sorted(k for k in before.keys() | now.keys() if before.get(k) != now.get(k))
    for key in differ[:SHOWN]:
        print(f"differs: {key}")
    print(f"{len(differ)} of {len(before.keys() | now.keys())} articles differ")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
