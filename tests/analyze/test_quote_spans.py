"""The quotes stage's output over whole corpora: one quotation per article span (no two quotes
of an article share start and end, even where two cues reach the same words), with exact
offsets. Runs the full pipeline (shipped speaker ranker) over the example corpus and over 300
articles from the throughput benchmark's generator (bench/generate.py, its default seed: the
corpus where "X happened, according to a statement …, the office said" was reported twice)."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from newsloom.analyze import analyze_articles
from newsloom.config import Settings
from newsloom.ingest import read_inputs
from newsloom.models import ArticleAnalysis, Skipped

REPO = Path(__file__).resolve().parents[2]
GENERATED_ARTICLES = 300


def _analyses(path: Path) -> list[ArticleAnalysis]:
    settings = Settings()
    articles = [a for a in read_inputs([str(path)], settings) if not isinstance(a, Skipped)]
    assert articles, f"no articles under {path}"
    found = list(analyze_articles(articles, settings))
    assert not [s for s in found if isinstance(s, Skipped)]
    return [a for a in found if isinstance(a, ArticleAnalysis)]


def _generated(tmp: Path) -> Path:
    out = tmp / "generated"
    subprocess.run(
        [
            sys.executable,
            str(REPO / "bench" / "generate.py"),
            *("--articles", str(GENERATED_ARTICLES), "--out", str(out)),
        ],
        check=True,
        capture_output=True,
    )
    return out


@pytest.mark.slow
@pytest.mark.parametrize("corpus", ["examples", "generated"])
def test_one_quote_per_article_span(corpus, tmp_path):
    path = REPO / "examples" / "corpus" if corpus == "examples" else _generated(tmp_path)
    analyses = _analyses(path)
    shared = []
    for analysis in analyses:
        text = analysis.article.text
        for q in analysis.quotes:
            assert text[q.start : q.end] == q.text, analysis.article.origin
        spans = Counter((q.start, q.end) for q in analysis.quotes)
        shared += [(analysis.article.origin, span) for span, n in spans.items() if n > 1]
    assert shared == []
    assert sum(len(a.quotes) for a in analyses) > len(analyses)  # the corpus has quotations
