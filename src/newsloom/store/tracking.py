"""Keeping the tracked quotes of a store up to date, story by story (``stories/tracking.py``).

When stories are written, their old nodes go and their new ones come in; the tracked quotes
that can change are recomputed from their nodes alone: those the old nodes belonged to, and
those of the nodes sharing a fingerprint with a new one. That set is closed under links (a
tracked quote is a whole connected component), so the result is what tracking every story of
the store at once would give, at a cost that depends on the stories written, not the store.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence

from sqlalchemy import Connection, delete, insert, select, update

from ..models import Quote, Story, TrackedQuote
from ..stories.tracking import (
    ArticleInfo,
    Node,
    node_fingerprints,
    story_nodes,
    track,
    wordings,
)
from ..text.outlets import outlet_name
from . import schema as t

# Values per IN (...) list: well under SQLite's bound-variable limit.
CHUNK = 500


def chunks(values: Iterable[str]) -> Iterator[list[str]]:
    items = sorted(set(values))
    for i in range(0, len(items), CHUNK):
        yield items[i : i + CHUNK]


def article_infos(conn: Connection, article_ids: Iterable[str]) -> dict[str, ArticleInfo]:
    """Outlet and date of each article, as tracked mentions show them."""
    a = t.articles.c
    out = {}
    for chunk in chunks(article_ids):
        query = select(a.id, a.source, a.url, a.origin, a.published).where(a.id.in_(chunk))
        for row in conn.execute(query):
            out[row.id] = ArticleInfo(outlet_name(row.source, row.url, row.origin), row.published)
    return out


def _node_json(node: Node) -> str:
    return json.dumps(
        {
            "story_id": node.story_id,
            "quote": node.quote.model_dump(mode="json"),
            "articles": {k: [v.outlet, v.published] for k, v in node.articles.items()},
            "own": list(node.own),
        }
    )


def _node(key: str, data: str) -> Node:
    raw = json.loads(data)
    articles = {k: ArticleInfo(v[0], v[1]) for k, v in raw["articles"].items()}
    quote = Quote.model_validate(raw["quote"])
    return Node(key, raw["story_id"], quote, wordings(quote), articles, tuple(raw["own"]))


def update_tracking(conn: Connection, gone: set[str], stories: Sequence[Story]) -> None:
    """Re-track after ``stories`` were written and the stories ``gone`` removed (ids)."""
    n, k = t.tracked_nodes.c, t.tracked_keys.c
    written = {s.id for s in stories}
    affected: set[str] = set()
    old_keys: list[str] = []
    for chunk in chunks(gone | written):
        for key, tracked in conn.execute(select(n.key, n.tracked_id).where(n.story_id.in_(chunk))):
            old_keys.append(key)
            if tracked:
                affected.add(tracked)
    for chunk in chunks(old_keys):
        conn.execute(delete(t.tracked_keys).where(k.node_key.in_(chunk)))
        conn.execute(delete(t.tracked_nodes).where(n.key.in_(chunk)))
    infos = article_infos(
        conn, (m.article_id for s in stories for q in s.quotes for m in q.mentions)
    )
    new_nodes = [node for s in stories for node in story_nodes(s, infos)]
    prints = {node.key: node_fingerprints(node) for node in new_nodes}
    wanted = {f for fs in prints.values() for f in fs}
    candidates: set[str] = set()
    for chunk in chunks(wanted):
        candidates.update(
            key for (key,) in conn.execute(select(k.node_key).where(k.fingerprint.in_(chunk)))
        )
    for chunk in chunks(candidates):
        affected.update(
            tid for (tid,) in conn.execute(select(n.tracked_id).where(n.key.in_(chunk))) if tid
        )
    rows: list[tuple[str, str]] = []
    for chunk in chunks(affected):
        rows.extend(conn.execute(select(n.key, n.data).where(n.tracked_id.in_(chunk))).all())
    result = track(new_nodes + [_node(key, data) for key, data in rows])
    for chunk in chunks(affected):
        conn.execute(delete(t.tracked_mentions).where(t.tracked_mentions.c.tracked_id.in_(chunk)))
        conn.execute(delete(t.tracked_quotes).where(t.tracked_quotes.c.id.in_(chunk)))
    if new_nodes:
        conn.execute(
            insert(t.tracked_nodes),
            [
                dict(key=x.key, story_id=x.story_id, tracked_id=None, data=_node_json(x))
                for x in new_nodes
            ],
        )
        keys = [dict(fingerprint=f, node_key=key) for key, fs in prints.items() for f in sorted(fs)]
        if keys:
            conn.execute(insert(t.tracked_keys), keys)
    _write_quotes(conn, result.quotes)
    for key, tracked in result.of_node.items():
        conn.execute(update(t.tracked_nodes).where(n.key == key).values(tracked_id=tracked))


def _write_quotes(conn: Connection, quotes: Sequence[TrackedQuote]) -> None:
    if not quotes:
        return
    conn.execute(
        insert(t.tracked_quotes),
        [
            dict(
                id=q.id,
                text=q.text,
                speaker=q.speaker,
                n_mentions=len(q.mentions),
                n_outlets=len(q.outlets),
                n_stories=len(q.story_ids),
                first_date=q.first_date,
                last_date=q.last_date,
                data=q.model_dump_json(),
            )
            for q in quotes
        ],
    )
    rows = [
        dict(article_id=m.article_id, start=m.start, end=m.end, tracked_id=q.id)
        for q in quotes
        for m in q.mentions
    ]
    if rows:
        conn.execute(insert(t.tracked_mentions), rows)
