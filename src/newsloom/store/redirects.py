"""Story redirects: an id a story lost (merged away, or renamed by a split) leads to the story
that holds its founding article now. Kept one hop long when written."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Connection, delete, insert, select, update

from ..models import Story, stable_id
from . import schema as t

# Redirect hops followed at most: redirects are kept one hop long when written, so more than
# one hop only happens while a split story waits for its rebuild; this bounds a cycle.
MAX_REDIRECT_HOPS = 16


def redirect_targets(conn: Connection, gone: set[str], stories: Sequence[Story]) -> dict[str, str]:
    """For each stored story id about to disappear: the id among ``stories`` it became.

    A story id is the hash of its founding article (``stories.story_id``), so the old id goes
    to the story now holding that article: a story merged away goes to the one that absorbed
    it. When the founder is in none of ``stories`` the old story was split and its founding
    half is rebuilt under the old id in a later transaction: no redirect.
    """
    if not gone:
        return {}
    story_of = {aid: s.id for s in stories for aid in s.article_ids}
    sa = t.story_articles.c
    query = select(sa.story_id, sa.article_id).where(sa.story_id.in_(gone))
    out = {}
    for sid, aid in conn.execute(query):
        if aid in story_of and stable_id("story", aid) == sid:
            out[sid] = story_of[aid]
    return out


def record_redirects(conn: Connection, redirects: dict[str, str], live: set[str]) -> None:
    """Store ``old -> new`` redirects, re-point redirects to an old id at its new one (one hop),
    and drop the redirects of ids that name a stored story again (``live``)."""
    r = t.story_redirects.c
    if live:
        conn.execute(delete(t.story_redirects).where(r.old_id.in_(live)))
    for old, new in redirects.items():
        conn.execute(update(t.story_redirects).where(r.new_id == old).values(new_id=new))
        conn.execute(delete(t.story_redirects).where(r.old_id == old))
        conn.execute(insert(t.story_redirects).values(old_id=old, new_id=new))


def follow_redirects(conn: Connection, old_id: str) -> str | None:
    """The stored story ``old_id`` leads to through the redirects, or None."""
    r, s = t.story_redirects.c, t.stories.c
    seen = {old_id}
    current = old_id
    for _ in range(MAX_REDIRECT_HOPS):
        row = conn.execute(select(r.new_id).where(r.old_id == current)).first()
        if row is None or row[0] in seen:
            return None
        current = row[0]
        if conn.execute(select(s.id).where(s.id == current)).first():
            return current
        seen.add(current)
    return None
