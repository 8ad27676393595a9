"""Scoring quote tracking on labelled pairs of quoted spans (``eval/quote_links.py``).

The articles the pairs point into are analysed by the pipeline, each made a story of its own
(``stories.consolidate``), and tracked all at once (``stories.tracking``): the cross-story
linker decides every pair, with the chaining a real store would see among those articles. A
pair is predicted *same* when both spans fall on quote mentions of one tracked quote; a span
no mention covers is predicted apart. Reported: precision, recall and F1 of *same* on all
pairs, on pairs at most a week apart and on pairs further apart, and false merges among the
hard negatives.
"""

from __future__ import annotations

import csv
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..models import ArticleAnalysis, Story, TrackedQuote
from .quote_links import LinkPair, load_link_pairs

# A mention stands for a labelled span when it covers at least this share of the span's
# characters (the labelled span is the words inside the marks; a mention may hold less or
# more of a quote split around its cue).
COVER = 0.5


@dataclass
class PairCounts:
    """Confusion counts of *same* for one slice of the pairs."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0

    def add(self, gold: bool, predicted: bool) -> None:
        if gold and predicted:
            self.tp += 1
        elif gold:
            self.fn += 1
        elif predicted:
            self.fp += 1
        else:
            self.tn += 1

    def scores(self) -> dict[str, float | int]:
        p = self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0
        r = self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0
        f = 2 * p * r / (p + r) if p + r else 0.0
        return {
            "pairs": self.tp + self.fp + self.fn + self.tn,
            "precision": p,
            "recall": r,
            "f1": f,
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
        }


def _metadata(data: Path) -> dict[str, tuple[str, str]]:
    """File stem -> (publisher, publication date) from the corpus's metadata.tsv."""
    with open(data / "metadata.tsv", encoding="utf-8", newline="") as fh:
        return {
            row["filename"]: (row["publisher"], row["publication_date"])
            for row in csv.DictReader(fh, delimiter="\t")
        }


def analyse_files(data: Path, files: Sequence[str]) -> dict[str, ArticleAnalysis]:
    """The pipeline's analysis of each ``split/stem`` file, keyed by it."""
    from ..analyze import analyze_articles
    from ..config import Settings
    from ..models import Article, article_id
    from .polnear import read_text

    meta = _metadata(data)
    articles = []
    for name in files:
        split, stem = name.split("/", 1)
        text = read_text(data / split / "text" / f"{stem}.txt")
        publisher, published = meta.get(stem, (stem.split("_", 1)[0], None))
        articles.append(
            Article(
                id=article_id(text),
                text=text,
                origin=name,
                source=publisher,
                published=published,
            )
        )
    out = {}
    for result in analyze_articles(articles, Settings(speakers="model")):
        if isinstance(result, ArticleAnalysis):
            out[result.article.origin] = result
    return out


def track_articles(analyses: dict[str, ArticleAnalysis]) -> tuple[list[Story], list[TrackedQuote]]:
    """Each article a story of its own, tracked all at once."""
    from ..stories import consolidate
    from ..stories.tracking import ArticleInfo, track_stories

    stories = [consolidate([a]) for _, a in sorted(analyses.items())]
    infos = {
        a.article.id: ArticleInfo(a.article.source or "", a.article.published)
        for a in analyses.values()
    }
    return stories, track_stories(stories, infos).quotes


def _tracked_at(
    quotes: Sequence[TrackedQuote], article_id: str, start: int, end: int
) -> str | None:
    """The tracked quote of the mention that best covers ``start:end`` of the article."""
    best, best_cover = None, COVER
    for q in quotes:
        for m in q.mentions:
            if m.article_id != article_id or m.kind != "direct":
                continue
            cover = max(0, min(end, m.end) - max(start, m.start)) / max(1, end - start)
            if cover >= best_cover:
                best, best_cover = q.id, cover
    return best


def score_pairs(
    pairs: Sequence[LinkPair], analyses: dict[str, ArticleAnalysis], quotes: Sequence[TrackedQuote]
) -> dict[str, Any]:
    """Precision/recall/F1 of *same* by slice, and the hard negatives merged."""
    slices = {"all": PairCounts(), "same week": PairCounts(), "cross week": PairCounts()}
    hard = merged_hard = 0
    missing = 0
    decisions = []
    for pair in pairs:
        a, b = analyses.get(pair.file_a), analyses.get(pair.file_b)
        ta = _tracked_at(quotes, a.article.id, pair.start_a, pair.end_a) if a else None
        tb = _tracked_at(quotes, b.article.id, pair.start_b, pair.end_b) if b else None
        missing += (ta is None) + (tb is None)
        predicted = ta is not None and ta == tb
        slices["all"].add(pair.same, predicted)
        slices["cross week" if pair.cross_week else "same week"].add(pair.same, predicted)
        if not pair.same and pair.kind != "unrelated":
            hard += 1
            merged_hard += predicted
        decisions.append((pair.pair, pair.label, pair.kind, predicted))
    return {
        "pairs": len(pairs),
        "slices": {name: c.scores() for name, c in slices.items()},
        "hard_negatives": hard,
        "hard_negatives_merged": merged_hard,
        "spans_without_mention": missing,
        "decisions": decisions,
    }


def run_quote_link_eval(data: Path, pairs_path: Path) -> dict[str, Any]:
    """Analyse, track and score; the report dict ``newsloom eval quote-links`` prints."""
    pairs = load_link_pairs(pairs_path)
    files = sorted({p.file_a for p in pairs} | {p.file_b for p in pairs})
    t0 = time.perf_counter()
    analyses = analyse_files(Path(data), files)
    t1 = time.perf_counter()
    _, quotes = track_articles(analyses)
    t2 = time.perf_counter()
    report = score_pairs(pairs, analyses, quotes)
    report.update(
        articles=len(files),
        analysed=len(analyses),
        analyse_seconds=t1 - t0,
        track_seconds=t2 - t1,
    )
    return report


def format_report(report: dict[str, Any]) -> Any:
    """The report as a rich table, with counts and timing in its caption."""
    from rich.table import Table

    table = Table(title="quote tracking on labelled pairs: is the pair one tracked quote?")
    for column in ("pairs", "precision", "recall", "F1", "tp", "fp", "fn"):
        table.add_column(column, justify="left" if column == "pairs" else "right")
    for name, s in report["slices"].items():
        table.add_row(
            f"{name} ({s['pairs']})",
            f"{s['precision']:.3f}",
            f"{s['recall']:.3f}",
            f"{s['f1']:.3f}",
            str(s["tp"]),
            str(s["fp"]),
            str(s["fn"]),
        )
    table.caption = (
        f"hard negatives merged: {report['hard_negatives_merged']} of "
        f"{report['hard_negatives']}; labelled spans no quote mention covers: "
        f"{report['spans_without_mention']}; {report['analysed']} of {report['articles']} "
        f"articles analysed in {report['analyse_seconds']:.1f} s, tracked in "
        f"{report['track_seconds']:.2f} s"
    )
    return table
