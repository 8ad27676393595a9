"""Dask engine: a real LocalCluster of process workers gives the serial engine's analyses, in
input order, and the stories this process builds; `newsloom ingest --engine dask` stores what
a local run stores; a worker killed mid-run loses nothing and stores nothing twice."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from newsloom import api
from newsloom.config import Settings, load_settings
from newsloom.engine import build_in_process, run_analysis
from newsloom.engine.dask import (
    CLOSE_THREAD,
    PREFETCH_PER_WORKER,
    STORIES_PER_WORKER,
    dask_workers,
    local_cluster,
)
from newsloom.errors import StageError
from newsloom.ingest import read_inputs
from newsloom.models import Article, ArticleAnalysis, Skipped
from newsloom.store import open_store
from tests.conftest import EXAMPLES
from tests.reliability.conftest import RUN_TIMEOUT_S, cli_env

try:
    from distributed.diagnostics.plugin import WorkerPlugin
except ImportError:  # the Dask tests skip; the class below still has to be defined
    WorkerPlugin = object  # type: ignore[assignment,misc]

CORPUS = str(EXAMPLES / "corpus")
# Small batches so the example corpus (27 articles) makes over a dozen tasks: several in flight
# per worker, completed out of order, one of them lost with its worker.
BATCH = 2


def corpus_articles() -> list[Article]:
    return [a for a in read_inputs([CORPUS], Settings()) if isinstance(a, Article)]


def export_of(url: str) -> dict[str, Any]:
    store = open_store(url)
    try:
        return api.export(store, []).model_dump(mode="json")
    finally:
        store.close()


@pytest.fixture(scope="module")
def serial() -> list[ArticleAnalysis | Skipped]:
    return list(run_analysis(corpus_articles(), Settings(batch_size=BATCH)))


@pytest.fixture(scope="module")
def local_export(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The export of a store filled by a local (one-process) ingest of the example corpus."""
    url = f"sqlite:///{tmp_path_factory.mktemp('local') / 'local.db'}"
    store = open_store(url)
    try:
        api.ingest([CORPUS], store, Settings(batch_size=BATCH))
    finally:
        store.close()
    return export_of(url)


@pytest.fixture(scope="module")
def scheduler() -> Any:
    """The address of the LocalCluster a run starts, with two workers (one thread each)."""
    distributed = pytest.importorskip("distributed")
    with local_cluster(distributed, 2) as cluster:
        yield cluster.scheduler_address


class KillOnFirstBatch(WorkerPlugin):
    """A worker plugin: the first worker to start a newsloom batch SIGKILLs itself, once.

    The marker file, created atomically, makes it once per test across workers and the
    worker the nanny starts in place of the dead one.
    """

    name = "newsloom-test-kill-on-first-batch"

    def __init__(self, marker: str) -> None:
        self.marker = marker

    def transition(self, key: Any, start: str, finish: str, **kwargs: Any) -> None:
        if finish != "executing" or not str(key).startswith("newsloom-batch"):
            return
        try:
            os.close(os.open(self.marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            return
        os.kill(os.getpid(), signal.SIGKILL)


@pytest.mark.multiprocess
@pytest.mark.slow
def test_dask_matches_serial_in_input_order_with_bounded_read_ahead(scheduler, serial):
    items = corpus_articles()
    pulled = 0

    def stream():  # counts the articles the engine has taken from its input
        nonlocal pulled
        for article in items:
            pulled += 1
            yield article

    settings = Settings(engine="dask", scheduler=scheduler, batch_size=BATCH)
    # Two workers of one thread: at most PREFETCH_PER_WORKER batches each are in flight, and
    # three batches of articles are read ahead to see where the input ends (engine.batches).
    bound = (2 * PREFETCH_PER_WORKER + 3) * BATCH
    results = []
    for result in run_analysis(stream(), settings):
        results.append(result)
        assert pulled - len(results) < bound, "the engine read ahead without bound"
    assert all(isinstance(r, ArticleAnalysis) for r in serial)
    assert [r.article.id for r in results if isinstance(r, ArticleAnalysis)] == [
        a.id for a in items
    ]
    assert results == serial


@pytest.mark.multiprocess
@pytest.mark.slow
def test_dask_builds_stories_in_input_order_like_this_process(scheduler, serial):
    data = [r.model_dump_json() for r in serial if isinstance(r, ArticleAnalysis)]
    # More stories than the window (two threads × STORIES_PER_WORKER), one merged away.
    inputs = [(f"k{i}", data[i : i + 3] if i % 5 else None) for i in range(0, len(data), 2)]
    assert len(inputs) > 2 * STORIES_PER_WORKER
    here = list(build_in_process(iter(inputs)))
    with dask_workers(Settings(engine="dask", scheduler=scheduler)) as workers:
        built = list(workers.build_stories(iter(inputs)))
    assert [key for key, _ in built] == [key for key, _ in inputs]
    assert [story is None for _, story in built] == [rows is None for _, rows in inputs]
    assert built == here


@pytest.mark.multiprocess
@pytest.mark.slow
def test_worker_killed_mid_run_loses_nothing_and_stores_nothing_twice(
    scheduler, local_export, tmp_path
):
    distributed = pytest.importorskip("distributed")
    marker = tmp_path / "killed"
    url = f"sqlite:///{tmp_path / 'dask.db'}"
    with distributed.Client(scheduler) as client:
        client.register_plugin(KillOnFirstBatch(str(marker)), name=KillOnFirstBatch.name)
        try:
            store = open_store(url)
            try:
                settings = Settings(engine="dask", scheduler=scheduler, batch_size=BATCH)
                report = api.ingest([CORPUS], store, settings)
                stored = store.article_ids()
            finally:
                store.close()
        finally:
            client.unregister_worker_plugin(KillOnFirstBatch.name)
    assert marker.exists(), "no worker was killed: the test hook did not fire"
    expected = {a["id"] for a in local_export["articles"]}
    assert report.added == len(expected) and not report.skipped
    assert sorted(stored) == sorted(expected)  # each once: ids are the store's primary key
    assert export_of(url) == local_export


@pytest.mark.multiprocess
@pytest.mark.slow
def test_cli_ingest_engine_dask_stores_what_a_local_run_stores(local_export, tmp_path):
    pytest.importorskip("distributed")
    db = tmp_path / "cli.db"
    command = [sys.executable, "-m", "newsloom.cli", "ingest", CORPUS, "--db", str(db)]
    done = subprocess.run(
        [*command, "--engine", "dask", "--workers", "2", "--quiet"],
        env=cli_env(),
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT_S,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert f"{len(local_export['articles'])} new" in done.stderr
    assert export_of(f"sqlite:///{db}") == local_export


def spawned_since(before: set[int]) -> list[Any]:
    """This process's live spawned children (Dask workers; not multiprocessing's resource
    tracker) that are not in ``before``."""
    import psutil

    found = []
    for child in psutil.Process().children(recursive=True):
        try:
            if child.pid in before or child.status() == psutil.STATUS_ZOMBIE:
                continue
            if "spawn_main" in " ".join(child.cmdline()):
                found.append(child)
        except psutil.NoSuchProcess:
            continue
    return found


@pytest.mark.multiprocess
@pytest.mark.slow
@pytest.mark.parametrize(
    ("user_value", "worker_value"),
    [
        (None, None),  # Dask's 64 KiB default is not passed on to the run's workers
        ("65536", "65536"),  # a value the user set still reaches them
    ],
)
def test_a_runs_local_cluster_keeps_malloc_defaults_and_stops_after_its_results(
    monkeypatch, user_value, worker_value
):
    psutil = pytest.importorskip("psutil")
    pytest.importorskip("distributed")
    if user_value is None:
        monkeypatch.delenv("MALLOC_TRIM_THRESHOLD_", raising=False)
    else:
        monkeypatch.setenv("MALLOC_TRIM_THRESHOLD_", user_value)
    before = {p.pid for p in psutil.Process().children(recursive=True)}
    settings = Settings(engine="dask", workers=1, batch_size=1)
    seen: list[str | None] = []
    results = []
    for result in run_analysis(corpus_articles()[:2], settings):
        results.append(result)
        if not seen:  # the run's worker is up: read the environment it was started with
            workers = spawned_since(before)
            assert workers, "no worker process was started for the run"
            seen = [p.environ().get("MALLOC_TRIM_THRESHOLD_") for p in workers]
    assert len(results) == 2
    assert seen == [worker_value]
    closing = [t for t in threading.enumerate() if t.name == CLOSE_THREAD]
    for thread in closing:
        thread.join(timeout=RUN_TIMEOUT_S)
    assert not spawned_since(before), "the run's workers were left running"


def test_missing_dask_names_the_extra_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # what `import` sees when absent
    with pytest.raises(StageError, match=r'pip install "newsloom\[dask\]"'):
        run_analysis(iter([]), Settings(engine="dask"))


def test_engine_and_scheduler_settings(tmp_path: Path, monkeypatch):
    assert Settings().engine == "local"
    cfg = tmp_path / "newsloom.toml"
    cfg.write_text('[newsloom]\nengine = "dask"\nscheduler = "tcp://127.0.0.1:8786"\n')
    settings = load_settings(cfg)
    assert (settings.engine, settings.scheduler) == ("dask", "tcp://127.0.0.1:8786")
    monkeypatch.setenv("NEWSLOOM_ENGINE", "local")
    assert load_settings(cfg).engine == "local"
    assert load_settings(cfg, engine="dask").engine == "dask"
    with pytest.raises(ValueError, match="local"):
        load_settings(None, engine="spark")
