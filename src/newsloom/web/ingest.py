"""Articles POSTed to the API: read like JSONL records, analysed, stored, attached to stories.

Each record is read like a JSONL line, then ``api.ingest_items`` does what ``newsloom
ingest`` does: skip stored articles, analyse and store the new ones, attach them to stories.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import api
from ..config import Settings
from ..ingest import record_article
from ..store import SqlStore

ORIGIN = "api"


def ingest_records(
    store: SqlStore, records: Sequence[dict[str, Any]], settings: Settings
) -> api.RunReport:
    items = (record_article(record, f"{ORIGIN}:{n}") for n, record in enumerate(records, start=1))
    return api.ingest_items(items, store, settings)
