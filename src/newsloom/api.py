"""The library's public entry points: read → analyse → store → stories → export.

cli.py and web/ call these; they hold no logic of their own beyond argument handling.
"""

from __future__ import annotations

import itertools
import os
import signal
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, TextIO

from .config import Settings
from .engine import BuildStories, StoryInput, build_in_process, open_engine
from .ingest import EXTENSIONS, read_inputs, record_article
from .ingest.discover import discover
from .models import Article, ArticleAnalysis, Corpus, Skipped
from .render.json import build_corpus, write_corpus
from .store import (
    ArticleRow,
    IndexTransaction,
    PersonRow,
    PostRow,
    QuoteRow,
    Store,
    StorySummary,
    TrackedQuoteRow,
    as_dict,
    open_store,
)
from .stories import StoryIndex
from .stories.features import Features, extract_features

# Stories rebuilt, then written in one transaction: one commit and one pass of the tracked-quote,
# facet and profile updates for the lot. On 300 generated articles (37 stories) the main
# process's CPU per article fell from 7.0 ms (one story per transaction) to 6.1 ms with 8;
# 64 was no better (6.3 ms). The stories of a batch are held in memory until it is written.
REBUILD_BATCH = 8
# Articles whose features wait in memory before they are attached to the story index (one
# locked index update per batch): bounds memory on big runs; the result does not depend on it.
INDEX_BATCH = 1000
# The origin of articles given as records (the HTTP API): ``api:1``, ``api:2`` ...
RECORD_ORIGIN = "api"
# Test hook: ``NEWSLOOM_FAULT=<step>`` kills the process with SIGKILL when an ingest reaches
# that step, so the reliability tests can crash a real run exactly there (never set it in use).
FAULT_ENV = "NEWSLOOM_FAULT"
FAULT_STEPS = ("after-batch", "after-articles", "after-index-save", "mid-rebuild")


def _fault_point(step: str) -> None:
    """Die like ``kill -9`` here when the test hook ``NEWSLOOM_FAULT`` names this step."""
    if os.environ.get(FAULT_ENV) == step:
        os.kill(os.getpid(), signal.SIGKILL)


@dataclass
class RunReport:
    """What one run read, skipped and found."""

    read: int = 0
    added: int = 0
    already_stored: int = 0
    skipped: list[Skipped] = field(default_factory=list)
    # What the run's articles hold, counted as `people`, `posts` and `stories` list it (see
    # ``count_found``): distinct people and posts, the quotes and stories of their stories.
    people: int = 0
    quotes: int = 0
    posts: int = 0
    article_ids: list[str] = field(default_factory=list)
    stories: int = 0
    # Stories built again by this run (those it changed, and any a killed run left pending).
    rebuilt: int = 0


OnEvent = Callable[[str, object], None]


def _noop(_kind: str, _payload: object) -> None:
    return None


def ingest(
    paths: Sequence[str],
    store: Store,
    settings: Settings,
    stdin: TextIO | None = None,
    on_event: OnEvent = _noop,
) -> RunReport:
    """Read ``paths``, analyse articles not yet stored, store each atomically, update stories."""
    return ingest_items(read_inputs(paths, settings, stdin=stdin), store, settings, on_event)


def ingest_items(
    items: Iterable[Article | Skipped],
    store: Store,
    settings: Settings,
    on_event: OnEvent = _noop,
) -> RunReport:
    """Analyse the articles of ``items`` not yet stored, store each atomically, update stories.

    New articles are attached to the stories of the store one by one (``StoryIndex``): the
    store is never re-clustered, and only the stories that gained an article are rebuilt.
    The index is updated under the store's index lock, in the transaction that records which
    stories to rebuild; the stories are then rebuilt one transaction each. Work a killed or
    concurrent run left (articles in no story, stories not rebuilt) is finished here too.
    ``on_event(kind, payload)`` is called with ("skipped", Skipped), ("article", Article),
    ("already_stored", Article) and ("analysed", ArticleAnalysis) so callers can show
    progress; it never changes the result.
    """
    report = RunReport()
    found = _Findings()

    def new_articles() -> Iterator[Article]:
        pending: set[str] = set()  # the same article twice in one run is analysed once
        for item in items:
            if isinstance(item, Skipped):
                report.skipped.append(item)
                on_event("skipped", item)
                continue
            stored = _already_stored(item, store, report, found, pending)
            on_event("article", item)
            if stored:
                on_event("already_stored", item)
                continue
            yield item

    with open_engine(settings) as engine:
        results = engine.analyse(new_articles())
        _store_results(
            results, store, report, found, on_event, settings.batch_size, engine.build_stories
        )
    count_found(store, report, found)
    return report


def ingest_analyses(analyses: Iterable[ArticleAnalysis], store: Store) -> RunReport:
    """``ingest_items`` for articles analysed already (generated ones in bench/): store them,
    attach them to stories and rebuild those stories, as an ingest does after the analysis."""
    report = RunReport()
    found = _Findings()
    pending: set[str] = set()
    fresh = (a for a in analyses if not _already_stored(a.article, store, report, found, pending))
    _store_results(fresh, store, report, found, _noop, Settings().batch_size, build_in_process)
    count_found(store, report, found)
    return report


def _already_stored(
    article: Article, store: Store, report: RunReport, found: _Findings, pending: set[str]
) -> bool:
    """Count one article read; True when it is stored (or was met earlier in the run)."""
    report.read += 1
    report.article_ids.append(article.id)
    if article.id in pending or store.has_article(article.id):
        report.already_stored += 1
        if article.id not in pending:
            found.stored_before.append(article.id)
        return True
    pending.add(article.id)
    return False


def _store_results(
    results: Iterable[ArticleAnalysis | Skipped],
    store: Store,
    report: RunReport,
    found: _Findings,
    on_event: OnEvent,
    batch_size: int,
    build_stories: BuildStories,
) -> None:
    """Store the analyses ``batch_size`` at a time (the engines' batch: one transaction, one
    disk sync, per batch rather than per article; a crash keeps a batch whole or not at all,
    and the next run analyses what was not stored), attach the new articles to the story index
    a batch at a time, then rebuild the stories the index changed (and any a killed run left
    pending) with ``build_stories``."""
    index = _run_index(store)
    new: dict[str, Features] = {}  # stored, not yet in the index (insertion order)
    batch: list[ArticleAnalysis] = []

    def write() -> None:
        for result, added in zip(batch, store.add_batch(batch), strict=True):
            if added:
                report.added += 1
                new[result.article.id] = extract_features(result)
        _fault_point("after-batch")
        for result in batch:
            on_event("analysed", result)
        batch.clear()
        if len(new) >= INDEX_BATCH:
            _update_index(store, index, new)

    for result in results:
        if isinstance(result, Skipped):
            report.skipped.append(result)
            on_event("skipped", result)
            continue
        found.add(result)  # analysed now, so counted from memory, not read back
        batch.append(result)
        if len(batch) >= batch_size:
            write()
    if batch:
        write()
    _fault_point("after-articles")
    _update_index(store, index, new)
    report.rebuilt = _rebuild_pending(store, build_stories)


# Article ids per query when counting a run's findings (well under SQLite's bound variables).
COUNT_CHUNK = 500


@dataclass
class _Findings:
    """Distinct people and posts of a run's articles, and the articles stored before it."""

    people: set[str] = field(default_factory=set)
    posts: set[str] = field(default_factory=set)
    stored_before: list[str] = field(default_factory=list)

    def add(self, analysis: ArticleAnalysis) -> None:
        self.people.update(e.name for e in analysis.entities if e.type == "PERSON")
        self.posts.update(p.id for p in analysis.posts)


def count_found(store: Store, report: RunReport, found: _Findings) -> None:
    """Count what the run's articles (new or already stored) hold, as the listings show it.

    People and posts are distinct names and post ids (the `people` and `posts` rows): those of
    the articles analysed now were gathered as they came, only the articles stored by an
    earlier run are read back. Stories are those the articles belong to, and quotes are those
    stories' quotes (the `stories` columns), so a re-run over stored articles reports the
    stories that exist.
    """
    before = found.stored_before
    for start in range(0, len(before), COUNT_CHUNK):
        for analysis in store.analyses(before[start : start + COUNT_CHUNK]):
            found.add(analysis)
    story_ids = store.story_ids_of(list(dict.fromkeys(report.article_ids)))
    report.people = len(found.people)
    report.posts = len(found.posts)
    report.stories = len(story_ids)
    report.quotes = store.count_story_quotes(sorted(story_ids))


def count_inputs(paths: Sequence[str]) -> int | None:
    """How many items reading ``paths`` gives (for a progress bar), or None when unknown.

    One per file or path that gives nothing, one per non-blank line of a JSONL file (counted
    without parsing); unknown when stdin or a JSON file (one article or a list) is read.
    """
    total = 0
    for found in discover(paths):
        if isinstance(found, Skipped):
            total += 1
            continue
        kind = None if found.is_stdin else EXTENSIONS.get(os.path.splitext(found.path)[1].lower())
        if found.is_stdin or kind == "json":
            return None
        total += _count_lines(found.path) if kind == "jsonl" else 1
    return total


def _count_lines(path: str) -> int:
    """Non-blank lines of a JSONL file (at least 1: an unreadable file is one skip)."""
    try:
        with open(path, "rb") as fh:
            return max(1, sum(1 for line in fh if line.strip()))
    except OSError:
        return 1


def ingest_records(
    records: Sequence[dict[str, Any]],
    store: Store,
    settings: Settings,
    on_event: OnEvent = _noop,
) -> RunReport:
    """``ingest_items`` for article records (dicts read like JSONL lines), e.g. from a POST."""
    items = (
        record_article(record, f"{RECORD_ORIGIN}:{n}", settings)
        for n, record in enumerate(records, start=1)
    )
    return ingest_items(items, store, settings, on_event)


def story_index_groups(store: Store) -> list[list[str]]:
    """The stories of the store's index as article ids (stories in opening order, members in
    arrival order), read under the index lock, so never half-written. Reads the whole index:
    for inspection, never on an ingest."""
    with store.index_transaction() as txn:
        return StoryIndex(rows=txn.rows).groups()


def _run_index(store: Store) -> StoryIndex:
    """A run's story index: its rows are read in each update's transaction (``use_rows``);
    splitting a story re-reads its members' features, older ones from the store."""

    def load_features(article_ids: Sequence[str]) -> dict[str, Features]:
        return {a.article.id: extract_features(a) for a in store.analyses(article_ids)}

    return StoryIndex(load_features)


def _update_index(store: Store, index: StoryIndex, new: dict[str, Features]) -> None:
    """Attach every stored article the index lacks, under the index lock; write the index rows
    it changed and the stories to rebuild in one transaction. ``new`` (features of this run's
    articles) is emptied."""
    with store.index_transaction() as txn:
        index.use_rows(txn.rows)
        touched = _assign_unindexed(store, txn, index, new)
        if touched:
            # Splits move articles that were not touched now: rebuild every story changed.
            keys = index.take_changed() | {index.story_key(aid) for aid in touched}
            index.save()
            txn.save(keys)
    new.clear()
    if touched:
        _fault_point("after-index-save")


def _assign_unindexed(
    store: Store, txn: IndexTransaction, index: StoryIndex, new: dict[str, Features]
) -> list[str]:
    """Assign the stored articles the index lacks, in the order they were stored.

    Usually these are this run's articles, whose features are at hand; articles stored by a
    run that stopped (or by another process) before updating the index are read back.
    """
    indexed = index.indexed(new)
    fresh = [aid for aid in new if aid not in indexed]
    if store.count_articles() == index.n + len(fresh):
        index.prefetch(new[aid] for aid in fresh)
        for aid in fresh:
            index.add(aid, new[aid])
        return fresh
    missing = txn.unindexed()
    for analysis in store.analyses(missing):
        aid = analysis.article.id
        index.add(aid, new[aid] if aid in new else extract_features(analysis))
    return missing


def _rebuild_pending(store: Store, build_stories: BuildStories) -> int:
    """Rebuild the stories the pending record names, REBUILD_BATCH at a time, each batch stored
    with its removal from the record, from the index rows at the generation the record was
    read at (when another process updated the index meanwhile, the record is read again).

    ``build_stories`` consolidates them (on the run's workers when it has a pool) while this
    process writes the batches before them; its inputs are read from the store as it asks.
    """
    rebuilt = 0
    while True:
        generation, keys = store.pending_rebuilds()
        if not keys:
            return rebuilt
        with closing(build_stories(_story_inputs(store, keys))) as built:
            while done := list(itertools.islice(built, REBUILD_BATCH)):
                if not store.finish_rebuilds(done, generation):
                    break  # the index moved on: read the record again, then go on
                rebuilt += sum(story is not None for _, story in done)
                _fault_point("mid-rebuild")


def _story_inputs(store: Store, keys: Sequence[str]) -> Iterator[StoryInput]:
    """Each story ``key`` of the index with the stored JSON of its members' analyses in
    member order (None: merged into another story, which the same update marked)."""
    for key in keys:
        members = store.index_members(key)
        if members is None:
            yield key, None
            continue
        data = store.analysis_data(members)
        yield key, [data[aid] for aid in members if aid in data]


def export(store: Store, article_ids: Sequence[str], skipped: Sequence[Skipped] = ()) -> Corpus:
    """The export document for the stories touching ``article_ids`` (all articles if empty),
    with the tracked quotes of those stories as their articles show them (``build_corpus``)."""
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
    tracked = store.tracked_quotes_of([s.id for s in stories])
    return build_corpus(articles, stories, skipped, tracked)


# Rows read from the store per query while exporting a paged table (quotes, articles,
# stories): memory stays flat however big the store, at one query per thousand rows.
EXPORT_PAGE = 1000
# What `newsloom export --what` takes, each with the record its rows are.
EXPORT_RECORDS: dict[str, type] = {
    "quotes": QuoteRow,
    "posts": PostRow,
    "people": PersonRow,
    "stories": StorySummary,
    "articles": ArticleRow,
    "tracked_quotes": TrackedQuoteRow,
}


def export_columns(what: str) -> list[str]:
    """The keys of an ``export_rows(what)`` row, in record field order."""
    return [f.name for f in fields(EXPORT_RECORDS[what])]


def export_rows(store: Store, what: str) -> Iterator[dict[str, Any]]:
    """Every stored row of one kind (``EXPORT_RECORDS``) as a dict in field order.

    Quotes, articles, stories and tracked quotes are read ``EXPORT_PAGE`` rows at a time;
    people and posts come from the store as one list.
    """
    if what not in EXPORT_RECORDS:
        known = ", ".join(EXPORT_RECORDS)
        raise ValueError(f"cannot export {what!r}: choose one of {known}")
    pages: dict[str, Callable[[int], Sequence[Any]]] = {
        "quotes": lambda offset: store.quotes(limit=EXPORT_PAGE, offset=offset),
        "articles": lambda offset: store.articles(EXPORT_PAGE, offset),
        "stories": lambda offset: store.story_summaries(EXPORT_PAGE, offset),
        "tracked_quotes": lambda offset: store.tracked_quotes(limit=EXPORT_PAGE, offset=offset),
    }
    if what == "people":
        yield from (as_dict(p) for p in store.people())
    elif what == "posts":
        yield from (as_dict(p) for p in store.posts())
    else:
        yield from _paged(pages[what])


def _paged(page: Callable[[int], Sequence[Any]]) -> Iterator[dict[str, Any]]:
    """The records of ``page(offset)`` for offsets 0, EXPORT_PAGE, ... until a short page."""
    offset = 0
    while True:
        records = page(offset)
        yield from (as_dict(r) for r in records)
        if len(records) < EXPORT_PAGE:
            return
        offset += EXPORT_PAGE


def analyze(
    paths: Sequence[str],
    json_out: Path | None,
    settings: Settings,
    stdin: TextIO | None = None,
    on_event: OnEvent = _noop,
) -> tuple[RunReport, Corpus]:
    """``ingest`` into ``settings.db_url`` and export the result.

    Without a URL (the default ``Settings``) the store is a throw-away one in a temporary
    folder: a library call never leaves a database in the current directory.
    """
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
