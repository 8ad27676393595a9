"""Writes: ``POST /api/articles`` analyses and stores new articles and attaches them to stories.

Each article is read like a JSONL record, then the library does what ``newsloom ingest``
does: skip stored articles, analyse and store the new ones, attach them to stories.
"""

from typing import Any

from fastapi import APIRouter, Depends

from .. import api
from . import schemas as s
from .deps import State, writer

WRITE_ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": s.ErrorBody} for code in (400, 401, 403, 413)
}

router = APIRouter()


@router.post(
    "/api/articles",
    response_model=s.IngestResult,
    status_code=201,
    tags=["articles"],
    dependencies=[Depends(writer)],
    responses=WRITE_ERRORS,
)
def add_articles(state: State, body: s.IngestRequest) -> Any:
    """Analyse and store new articles and attach them to stories (stored ones are skipped)."""
    records = [a.model_dump(exclude_none=True) for a in body.articles]
    with state.write_lock:
        report = api.ingest_records(records, state.store, state.settings)
    return {
        "read": report.read,
        "added": report.added,
        "already_stored": report.already_stored,
        "skipped": [k.model_dump(include={"origin", "reason"}) for k in report.skipped],
        "article_ids": report.article_ids,
        "story_ids": [state.store.story_of(aid) for aid in report.article_ids],
    }
