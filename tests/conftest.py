"""Shared fixtures: the spaCy model once per session, an in-memory store, gold-data paths."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
EXAMPLES = REPO / "examples"


@pytest.fixture(scope="session")
def nlp():
    from newsloom.nlp import load_nlp

    return load_nlp()


@pytest.fixture()
def memory_store():
    from newsloom.store import open_store

    store = open_store(":memory:")
    yield store
    store.close()


@pytest.fixture(scope="session")
def shared_data() -> Path:
    data = SHARED / "data"
    if not data.is_dir():
        pytest.skip("../shared/data is absent (gold data is not part of the repository)")
    return data
