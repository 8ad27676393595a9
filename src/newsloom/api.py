"""The library's public entry points: read → analyse → store → stories → export.

cli.py and web/ call these; they hold no logic of their own beyond argument handling.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from .config import Settings
from .engine import run_analysis
from .ingest import read_inputs
from .models import Article, ArticleAnalysis, Corpus, Skipped, Story
from .render.json import build_corpus, write_corpus
from .store import SqlStore, open_store
from .stories import build_stories


@dataclass
class RunReport:
    """What one run read, skipped and found."""

    read: int = 0
    added: int = 0
    already_stored: int = 0
    skipped: list[Skipped] = field(default_factory=list)
    people: int = 0
    quotes: int = 0
    posts: int = 0
    article_ids: list[str] = field(default_factory=list)
    stories: int = 0

    def count(self, analysis: ArticleAnalysis) -> None:
        self.people += sum(1 for e in analysis.entities if e.type == "PERSON")
        self.quotes += len(analysis.quotes)
        self.posts += len(analysis.posts)


OnEvent = Callable[[str, object], None]


def _noop(_kind: str, _payload: object) -> None:
    return None


def ingest(
    paths: Sequence[str],
    store: SqlStore,
    settings: Settings,
    stdin: TextIO | None = None,
    on_event: OnEvent = _noop,
) -> RunReport:
    """Read ``paths``, analyse articles not yet stored, store each atomically, update stories.

    ``on_event(kind, payload)`` is called with ("skipped", Skipped), ("article", Article) and
    ("analysed", ArticleAnalysis) so callers can show progress; it never changes the result.
    """
    report = RunReport()

    def new_articles() -> Iterator[Article]:
        for item in read_inputs(paths, settings, stdin=stdin):
            if isinstance(item, Skipped):
                report.skipped.append(item)
                on_event("skipped", item)
                continue
            report.read += 1
            report.article_ids.append(item.id)
            on_event("article", item)
            if store.has_article(item.id):
                report.already_stored += 1
                continue
            yield item

    for result in run_analysis(new_articles(), settings):
        if isinstance(result, Skipped):
            report.skipped.append(result)
            on_event("skipped", result)
            continue
        if store.add_analysis(result):
            report.added += 1
            report.count(result)
        on_event("analysed", result)
    report.stories = len(update_stories(store, report.article_ids))
    return report


def update_stories(store: SqlStore, article_ids: Sequence[str]) -> list[Story]:
    """(Re)build the stories of the whole store and return those touching ``article_ids``."""
    analyses = list(store.analyses())
    stories = build_stories(analyses)
    store.replace_stories(stories)
    wanted = set(article_ids)
    return [s for s in stories if wanted.intersection(s.article_ids)]


def export(store: SqlStore, article_ids: Sequence[str], skipped: Sequence[Skipped] = ()) -> Corpus:
    """The export document for the stories touching ``article_ids`` (all articles if empty)."""
    stories = store.stories()
    if article_ids:
        wanted = set(article_ids)
        stories = [s for s in stories if wanted.intersection(s.article_ids)]
    member_ids = {aid for s in stories for aid in s.article_ids}
    order = {aid: i for i, aid in enumerate(article_ids)}
    articles = sorted(
        (a.article for a in store.analyses(sorted(member_ids))),
        key=lambda a: (order.get(a.id, len(order)), a.id),
    )
    return build_corpus(articles, stories, skipped)


def analyze(
    paths: Sequence[str],
    json_out: Path | None,
    settings: Settings,
    stdin: TextIO | None = None,
    on_event: OnEvent = _noop,
) -> tuple[RunReport, Corpus]:
    """``ingest`` into ``settings.db_url`` (or a throw-away store) and export the result."""
    with tempfile.TemporaryDirectory(prefix="newsloom-") as tmp:
        url = settings.db_url or f"sqlite:///{Path(tmp) / 'run.db'}"
        store = open_store(url)
        try:
            report = ingest(paths, store, settings, stdin=stdin, on_event=on_event)
            corpus = export(store, report.article_ids, report.skipped)
        finally:
            store.close()
    if json_out is not None:
        write_corpus(corpus, json_out)
    return report, corpus
