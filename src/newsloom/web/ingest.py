"""Articles POSTed to the API: read like JSONL records, analysed, stored, attached to stories.

The same steps as ``api.ingest`` (which reads paths): skip stored articles, analyse the new
ones, store each atomically, assign it to a story with the store's ``StoryIndex`` and
rebuild only the stories that changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import api
from ..config import Settings
from ..engine import run_analysis
from ..ingest.jsonl import record_article
from ..models import Article, Skipped
from ..store import SqlStore

ORIGIN = "api"


def ingest_records(store: SqlStore, records: Sequence[dict[str, Any]], settings: Settings) -> api.RunReport:
    report = api.RunReport()
    new: list[Article] = []
    for number, record in enumerate(records, start=1):
        item = record_article(record, f"{ORIGIN}:{number}")
        if isinstance(item, Skipped):
            report.skipped.append(item)
            continue
        report.read += 1
        report.article_ids.append(item.id)
        if store.has_article(item.id) or any(a.id == item.id for a in new):
            report.already_stored += 1
            continue
        new.append(item)
    if not new:
        return report
    index = api.load_story_index(store)
    touched: set[str] = set()
    for result in run_analysis(new, settings):
        if isinstance(result, Skipped):
            report.skipped.append(result)
            continue
        if store.add_analysis(result):
            report.added += 1
            report.count(result)
            index.assign(result)
            touched.add(result.article.id)
    if touched:
        api.save_story_index(store, index)
    report.stories = len(api.rebuild_stories(store, index, touched))
    return report
