"""Helpers for the reliability tests: real ``newsloom`` processes on a real store."""

from __future__ import annotations

import os
import subprocess
import sys

from newsloom.store import Store
from tests.conftest import REPO

# A generous bound on one CLI run over the example corpus (about 3 s alone); the tests never
# assert on time, this only stops a hung process from hanging the suite.
RUN_TIMEOUT_S = 300


def cli_env(**extra: str) -> dict[str, str]:
    """The environment of a child ``newsloom``: this tree's sources first on the path."""
    env = dict(os.environ)
    env.pop("NEWSLOOM_FAULT", None)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(REPO / "src"), str(REPO), env.get("PYTHONPATH", "")) if p
    )
    env.update(extra)
    return env


def ingest_command(paths: list[str], db: str) -> list[str]:
    return [sys.executable, "-m", "newsloom.cli", "ingest", *paths, "--db", db, "--quiet"]


def run_ingest(paths: list[str], db: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ingest_command(paths, db),
        env=cli_env(**env),
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT_S,
        check=False,
    )


def assert_every_article_in_one_story(store: Store) -> None:
    """Every stored article is a member of exactly one stored story."""
    members = [aid for s in store.stories() for aid in s.article_ids]
    assert len(members) == len(set(members)), "an article is in two stories"
    missing = set(store.article_ids()) - set(members)
    assert not missing, f"{len(missing)} stored articles are in no story"
