"""A real ``newsloom ingest`` killed (SIGKILL) at each step, then run again, ends exactly like
one uninterrupted run: every stored article in one story, the same stories."""

from __future__ import annotations

import signal

import pytest

from newsloom.api import FAULT_ENV, FAULT_STEPS
from newsloom.store import open_store
from tests.conftest import EXAMPLES
from tests.reliability.conftest import assert_every_article_in_one_story, run_ingest

CORPUS = str(EXAMPLES / "corpus")
BATCH_ENV = "NEWSLOOM_BATCH_SIZE"
WORKERS_ENV = "NEWSLOOM_WORKERS"


def _stories(db: str) -> list[dict]:
    store = open_store(db)
    try:
        assert_every_article_in_one_story(store)
        return [s.model_dump() for s in store.stories()]
    finally:
        store.close()


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory) -> list[dict]:
    db = str(tmp_path_factory.mktemp("whole") / "whole.db")
    done = run_ingest([CORPUS], db)
    assert done.returncode == 0, done.stderr
    return _stories(db)


@pytest.mark.slow
@pytest.mark.parametrize("step", FAULT_STEPS)
def test_a_run_killed_at_each_step_is_finished_by_the_next_run(tmp_path, uninterrupted, step):
    db = str(tmp_path / "killed.db")
    # Batches of 8 articles, so "after-batch" stops the run with part of the corpus stored.
    killed = run_ingest([CORPUS], db, **{FAULT_ENV: step, BATCH_ENV: "8"})
    assert killed.returncode == -signal.SIGKILL, f"the hook {step} was not reached: {killed}"
    # After "after-batch" the re-run analyses the rest; after the later steps every article
    # is stored already, so the re-run has nothing new and only finishes the work left.
    again = run_ingest([CORPUS], db)
    assert again.returncode == 0, again.stderr
    assert _stories(db) == uninterrupted


@pytest.mark.slow
@pytest.mark.multiprocess
def test_a_run_with_workers_killed_while_they_build_stories_is_finished(tmp_path, uninterrupted):
    # Two workers consolidate the stories while the main process writes them: kill it after
    # the first batch of stories is stored, its worker processes still running.
    db = str(tmp_path / "killed.db")
    killed = run_ingest([CORPUS], db, **{FAULT_ENV: "mid-rebuild", WORKERS_ENV: "2"})
    assert killed.returncode == -signal.SIGKILL, f"the hook was not reached: {killed}"
    again = run_ingest([CORPUS], db, **{WORKERS_ENV: "2"})
    assert again.returncode == 0, again.stderr
    assert _stories(db) == uninterrupted
