"""Dask distributed: the per-article analysis and the consolidation of the stories a run
rebuilds run on a cluster; this process stores, links and writes.

Without a scheduler address a ``LocalCluster`` of ``settings.workers`` processes (one thread
each, loopback only, no dashboard, without the Dask defaults that only cost CPU here:
``LOCAL_CLUSTER_CONFIG``) starts with the run and is stopped in the background once the
stories are rebuilt. Each worker loads the spaCy model once (``load_nlp`` is cached per
process; ``client.run`` warms it on every worker, and a worker that joins later loads it on
its first batch). Whole batches cross the wire, a bounded number at a time, and results come
back through ``as_completed`` and are handed on in input order, as the local engine does, so
the story index sees the same sequence either way.

A worker that dies mid-batch loses only its batch: the scheduler gives the task to another
worker (until it has taken ``ALLOWED_FAILURES`` + 1 workers down). A batch's result is read
once, so no article is lost or handed on twice.
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections.abc import Generator, Iterable, Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

from ..config import Settings
from ..errors import StageError
from ..models import Article, ArticleAnalysis, Skipped, Story
from .batches import (
    analyze_batch,
    batches,
    build_story_text,
    in_input_order,
    read_story,
    warm_model,
    warm_stories,
)

# Batches in flight (submitted and not yet handed on) per worker thread: one running, one
# queued so the worker never waits for the main process; more only adds memory.
PREFETCH_PER_WORKER = 2
# Re-runs of a batch whose task raised (not a lost worker): a stage failure on one article is
# already a Skipped record, so this only covers transient failures such as a full disk.
TASK_RETRIES = 2
# Workers a batch may take down with it before it is given up (Dask's own default is 3 too,
# set here explicitly so a LocalCluster run does not depend on the user's Dask config).
ALLOWED_FAILURES = 3
# Seconds to reach a scheduler given by address, and to wait for its first worker: a
# cluster that is starting up is there within these; longer means a wrong address.
CONNECT_TIMEOUT_S = 30
WORKER_WAIT_S = 60
# Dask settings of the LocalCluster a run starts, on top of the user's Dask configuration
# (docs/benchmarks.md, "Dask's own overhead", for the figures):
# - ``MALLOC_TRIM_THRESHOLD_`` is taken out of the environment Dask gives its worker processes
#   (Dask sets it to 64 KiB so that workers hand freed memory back to the OS at once). Set
#   explicitly, it also stops glibc from raising its mmap threshold, so every array over
#   128 KiB the parse allocates is a fresh mmap whose pages fault in: 4,100 minor faults and
#   10-12 ms of system time per article with it, 115 and 3-4 ms without (the parse is ~60 ms).
#   The price: a worker keeps the memory of its largest batch for the next one (peak RSS 393
#   MB against 363 MB, 393 against 174 MB after the last batch), as the local pool's workers,
#   which never set it, do. A value in the user's environment still reaches the workers.
# - The workers' statistical profiler (a thread that walks the running batch's stack every
#   10 ms) is off and the event-loop latency tick runs every second instead of every 20 ms:
#   both only feed the dashboard, which this cluster does not have. Together they took 5-11
#   ms of CPU per article outside the batch's own thread (1.5-1.8 ms without them), and two
#   thirds of the idle workers' CPU.
LOCAL_CLUSTER_CONFIG: dict[str, object] = {
    "distributed.scheduler.allowed-failures": ALLOWED_FAILURES,
    "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None,
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
}
# The thread that stops a run's LocalCluster once its results are in (tests wait for it).
CLOSE_THREAD = "newsloom-dask-close"
# Task keys start with these, so the batches and stories of a run are easy to find in the
# dashboard.
KEY_PREFIX = "newsloom-batch"
STORY_KEY_PREFIX = "newsloom-story"
WARM_KEY_PREFIX = "newsloom-warm"
# Stories in flight per worker thread while a run's stories are rebuilt (as the local
# engine's ``STORIES_PER_WORKER``): results are taken in order, so a few per thread keep every
# worker busy behind one big story.
STORIES_PER_WORKER = 4

INSTALL_HINT = (
    'run `pip install "newsloom[dask]"` (or `pip install "dask[distributed]"`), '
    "or use --engine local"
)


def analyze_on_dask(
    articles: Iterable[Article], settings: Settings
) -> Iterator[ArticleAnalysis | Skipped]:
    """Stream results in input order; at most workers × PREFETCH batches are held at once.

    Raises StageError at once (before any input is read) when Dask is not installed.
    """
    distributed = _import_distributed()
    return _run(distributed, articles, settings)


def _import_distributed() -> ModuleType:
    try:
        import distributed
    except ImportError as exc:
        raise StageError(
            f"engine dask needs Dask distributed, which is not installed: {INSTALL_HINT}"
        ) from exc
    return distributed


def _run(
    distributed: ModuleType, articles: Iterable[Article], settings: Settings
) -> Iterator[ArticleAnalysis | Skipped]:
    with dask_workers(settings, distributed) as workers:
        yield from workers.analyse(articles)


class DaskWorkers:
    """The workers of one run's cluster: they analyse its articles, then consolidate the
    stories it changed while this process writes them."""

    def __init__(self, distributed: ModuleType, client: Any, settings: Settings) -> None:
        self.distributed = distributed
        self.client = client
        # Workers never open the store: its URL (and any password in it) stays here.
        self.settings = settings.model_copy(update={"db_url": ""})
        self.threads = max(1, sum(client.nthreads().values()))
        self._warming: list[Any] = []  # the warm_stories tasks of the run

    def analyse(self, articles: Iterable[Article]) -> Iterator[ArticleAnalysis | Skipped]:
        def then_warm() -> Iterator[Article]:
            yield from articles
            # Queued behind the last batches; held, or Dask would cancel them.
            run = uuid.uuid4().hex[:12]
            self._warming = [
                self.client.submit(warm_stories, key=f"{WARM_KEY_PREFIX}-{run}-{n}", pure=False)
                for n in range(self.threads)
            ]

        yield from _stream(self.distributed, self.client, then_warm(), self.settings, self.threads)

    def build_stories(
        self, inputs: Iterable[tuple[str, list[str] | None]]
    ) -> Generator[tuple[str, Story | None], None, None]:
        """``build_story`` of each (key, data) on the workers (``build_story_text``), results
        in input order, at most threads × STORIES_PER_WORKER in flight (inputs are read as
        the window moves)."""
        run = uuid.uuid4().hex[:12]

        def submit(number: int, item: tuple[str, list[str] | None]) -> Any:
            return self.client.submit(
                build_story_text,
                item[1],
                key=f"{STORY_KEY_PREFIX}-{run}-{number}",
                retries=TASK_RETRIES,
                pure=False,
            )

        window = self.threads * STORIES_PER_WORKER
        for (key, _data), future in in_input_order(inputs, submit, window):
            story = read_story(_result(self.distributed, future))
            future.release()
            yield key, story


@contextmanager
def dask_workers(
    settings: Settings, distributed: ModuleType | None = None
) -> Iterator[DaskWorkers]:
    """The cluster of one run (``settings.scheduler``, or a LocalCluster started and stopped
    here), its workers warmed. Raises StageError when Dask is not installed."""
    distributed = distributed or _import_distributed()
    with _client(distributed, settings) as client:
        _warm_workers(client, settings)
        yield DaskWorkers(distributed, client, settings)


def _warm_workers(client: Any, settings: Settings) -> None:
    try:
        client.run(warm_model, settings.spacy_model)
    except ImportError as exc:  # raised on a worker, re-raised here
        raise StageError(
            f"a Dask worker cannot import newsloom or its model ({exc}): install newsloom, "
            "the same version, wherever the scheduler and workers run"
        ) from exc


@contextmanager
def _client(distributed: ModuleType, settings: Settings) -> Iterator[Any]:
    """A client of the scheduler ``settings.scheduler``, or of a LocalCluster for this run."""
    if settings.scheduler:
        with _remote_client(distributed, settings.scheduler) as client:
            yield client
        return
    cluster = local_cluster(distributed, settings.workers)
    try:
        client = distributed.Client(cluster)
    except BaseException:
        cluster.close()
        raise
    try:
        yield client
    finally:
        _close_in_background(client, cluster)


def _close_in_background(client: Any, cluster: Any) -> None:
    """Stop a run's LocalCluster without waiting for it. Its workers take 1-1.5 s to exit
    (the model's memory freed, the interpreter torn down) while the workers of the local pool
    are killed at once; closed here, that time overlaps what the run does after its workers'
    last story (the run's counts, the export). The thread is not a daemon: a process waits for
    it before it exits."""

    def close() -> None:
        try:
            client.close()
            cluster.close()
        except Exception as exc:  # the run's results are in; a failed stop only leaks
            logging.getLogger(__name__).warning("stopping the Dask LocalCluster failed: %s", exc)

    threading.Thread(target=close, name=CLOSE_THREAD, daemon=False).start()


def local_cluster(distributed: ModuleType, workers: int) -> Any:
    """The cluster a run without a scheduler address starts: ``workers`` processes of one
    thread each, on loopback, without a dashboard (the tests start theirs here too)."""
    import dask

    # The scheduler and nannies read these when they are created (a remote cluster uses its
    # own configuration).
    with dask.config.set(LOCAL_CLUSTER_CONFIG):
        return distributed.LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
            silence_logs=logging.ERROR,
        )


@contextmanager
def _remote_client(distributed: ModuleType, address: str) -> Iterator[Any]:
    try:
        client = distributed.Client(address, timeout=CONNECT_TIMEOUT_S)
    except OSError as exc:  # TimeoutError and refused connections alike
        raise StageError(
            f"cannot reach the Dask scheduler at {address} ({exc}): start one with "
            "`dask scheduler` (see README, 'Running on a Dask cluster') or leave out "
            "--scheduler to start a local cluster"
        ) from exc
    with client:
        try:
            client.wait_for_workers(1, timeout=WORKER_WAIT_S)
        except TimeoutError as exc:
            raise StageError(
                f"the Dask scheduler at {address} has no workers after {WORKER_WAIT_S} s: "
                f"start some with `dask worker {address} --nthreads 1`"
            ) from exc
        yield client


def _stream(
    distributed: ModuleType,
    client: Any,
    articles: Iterable[Article],
    settings: Settings,
    threads: int,
) -> Iterator[ArticleAnalysis | Skipped]:
    """Submit batches while fewer than threads × PREFETCH_PER_WORKER are in flight; hand
    results on in order.

    A batch counts as in flight from its submission until its results are handed on, so
    completed batches waiting for an earlier one count too: memory stays bounded even when
    one batch is slow (or retried after its worker died).
    """
    run = uuid.uuid4().hex[:12]
    window = threads * PREFETCH_PER_WORKER
    numbered = enumerate(batches(articles, settings.batch_size, threads))
    completed = distributed.as_completed()
    position: dict[str, int] = {}  # task key → batch number
    done: dict[int, list[ArticleAnalysis | Skipped]] = {}
    submitted = handed_on = 0

    def fill() -> None:
        nonlocal submitted
        while submitted - handed_on < window:
            item = next(numbered, None)
            if item is None:
                return
            number, batch = item
            key = f"{KEY_PREFIX}-{run}-{number}"
            position[key] = number
            completed.add(
                client.submit(
                    analyze_batch, settings, batch, key=key, retries=TASK_RETRIES, pure=False
                )
            )
            submitted += 1

    fill()
    for future in completed:
        done[position.pop(future.key)] = _result(distributed, future)
        future.release()
        while handed_on in done:
            yield from done.pop(handed_on)
            handed_on += 1
        fill()


def _result(distributed: ModuleType, future: Any) -> Any:
    try:
        result = future.result()
    except distributed.KilledWorker as exc:
        raise StageError(
            f"a task (a batch of articles or a story) took down more than {ALLOWED_FAILURES} "
            f"Dask workers ({exc}); "
            "the articles stored so far are kept: check the workers' memory and logs, then run "
            "the same ingest again (stored articles are not analysed twice)"
        ) from exc
    return result
