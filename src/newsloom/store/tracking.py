"""Keeping the tracked quotes of a store up to date, story by story (``stories/tracking.py``).

When stories are written, their old nodes go and their new ones come in; the tracked quotes
that can change are recomputed from their nodes alone: those the old nodes belonged to, and
those holding a stored node that a new node links to. Stored nodes sharing a fingerprint with
a new node are the candidates; each is related to the new nodes (most fail a cheap test on its
stored wordings first), and one that does not link leaves its tracked quote as it is. The set
is then closed under links: a merged quote joins one utterance and is linked to the other
without joining it, so each node keeps the nodes it is linked to in other tracked quotes, and
those tracked quotes are recomputed too. Recomputing a set closed under links gives what
tracking every story of the store at once gives.

Stop fingerprints (found under more than ``STOP_SPEAKERS`` names) find no candidates. The store
counts the nodes of each (fingerprint, named speaker) in ``tracked_prints`` and lists the stop
fingerprints in ``tracked_stops``, both kept per write; when a write makes a fingerprint a stop
fingerprint or no longer one, the tracked quotes of every node holding it are recomputed, as
their links may change. So the stop fingerprints are always those of all stored nodes, as
tracking them at once computes them, and a new node's candidates are bounded by the number of
speakers a fingerprint may have, not by the size of the store (docs/benchmarks.md, "Tracked
quotes at scale").
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from sqlalchemy import Connection, and_, bindparam, delete, func, insert, literal, select, update

from ..models import Quote, Story, TrackedLink, TrackedQuote
from ..stories.quotes import CONTAIN, MIN_PARTIAL, MIN_SHARED_CONTENT, NEAR, REORDERED
from ..stories.tracking import (
    CONTENT_ALIGNED,
    SHINGLE,
    STOP_SPEAKERS,
    ArticleInfo,
    Known,
    Node,
    node_fingerprints,
    relate,
    speaker_key,
    story_nodes,
    track,
    wordings,
)
from ..text.outlets import outlet_name
from ..text.words import is_content
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


def _cross(links: Sequence[TrackedLink]) -> list[list[Any]]:
    """A node's links to nodes of other tracked quotes, as stored: [a, b, relation, aligned]."""
    return [[x.a, x.b, x.relation, x.aligned] for x in links]


def _across(key: str, raw: dict[str, Any]) -> set[str]:
    """The keys of the nodes a stored node is linked to in other tracked quotes."""
    return {b if a == key else a for a, b, *_ in raw.get("cross", ())}


def _node_json(node: Node, cross: list[list[Any]]) -> str:
    """A node as stored: what rebuilds it, its wordings (read to test candidates without
    rebuilding them) and its links to nodes in other tracked quotes (``_closed``)."""
    return json.dumps(
        {
            "story_id": node.story_id,
            "quote": node.quote.model_dump(mode="json"),
            "articles": {k: [v.outlet, v.published] for k, v in node.articles.items()},
            "own": list(node.own),
            "spans": [list(x) for x in node.spans],
            "wordings": [list(w) for w in node.wordings],
            "people": sorted(node.people),
            "cross": cross,
        }
    )


def _node(key: str, raw: dict[str, Any]) -> Node:
    articles = {k: ArticleInfo(v[0], v[1]) for k, v in raw["articles"].items()}
    quote = Quote.model_validate(raw["quote"])
    kept = raw.get("wordings")  # None in a node stored before wordings were kept with it
    words = tuple(tuple(w) for w in kept) if kept is not None else wordings(quote)
    spans = tuple((a, b, text, kind) for a, b, text, kind in raw.get("spans", ()))
    people = frozenset(raw.get("people", ()))  # none kept in a node stored before schema 9
    return Node(key, raw["story_id"], quote, words, articles, tuple(raw["own"]), spans, people)


def update_tracking(conn: Connection, gone: set[str], stories: Sequence[Story]) -> None:
    """Re-track after ``stories`` were written and the stories ``gone`` removed (ids)."""
    n, k = t.tracked_nodes.c, t.tracked_keys.c
    written = {s.id for s in stories}
    affected: set[str] = set()
    old_speaker: dict[str, str] = {}
    reach: set[str] = set()  # nodes linked across tracked quotes to a node that goes
    for chunk in chunks(gone | written):
        query = select(n.key, n.tracked_id, n.data).where(n.story_id.in_(chunk))
        for key, tracked, data in conn.execute(query):
            raw = json.loads(data)
            old_speaker[key] = speaker_key(raw["quote"].get("speaker"))
            reach.update(_across(key, raw))
            if tracked:
                affected.add(tracked)
    counts: Counter[tuple[str, str]] = Counter()
    for chunk in chunks(old_speaker):
        for f, key in conn.execute(select(k.fingerprint, k.node_key).where(k.node_key.in_(chunk))):
            counts[(f, old_speaker[key])] -= 1
        conn.execute(delete(t.tracked_keys).where(k.node_key.in_(chunk)))
        conn.execute(delete(t.tracked_nodes).where(n.key.in_(chunk)))
    infos = article_infos(
        conn, (m.article_id for s in stories for q in s.quotes for m in q.mentions)
    )
    new_nodes = [node for s in stories for node in story_nodes(s, infos)]
    prints = {node.key: node_fingerprints(node) for node in new_nodes}
    for node in new_nodes:
        for f in prints[node.key]:
            counts[(f, speaker_key(node.quote.speaker))] += 1
    flipped = _flip_stops(conn, *_count_prints(conn, counts))
    held, fresh = _holding(conn, flipped)
    affected |= held
    stops = _stops(conn, (f for fs in prints.values() for f in fs))
    active = {key: fs - stops for key, fs in prints.items()}
    affected |= _linked(conn, new_nodes, active, affected)
    affected, rows = _closed(conn, affected, reach)
    stored = {key: _node(key, raw) for key, raw in rows}
    stops |= _stops(conn, (f for x in stored.values() for f in node_fingerprints(x)))
    known = Known(
        frozenset(fresh | {x.key for x in new_nodes}), tuple(_stored_links(conn, affected, rows))
    )
    result = track([*new_nodes, *stored.values()], stops, known)
    of_node = result.of_node
    cross = {key: _cross(links) for key, links in result.cross.items()}
    for chunk in chunks(affected):
        conn.execute(delete(t.tracked_mentions).where(t.tracked_mentions.c.tracked_id.in_(chunk)))
        conn.execute(delete(t.tracked_quotes).where(t.tracked_quotes.c.id.in_(chunk)))
    if new_nodes:
        conn.execute(
            insert(t.tracked_nodes),
            [
                dict(
                    key=x.key,
                    story_id=x.story_id,
                    tracked_id=of_node[x.key],
                    data=_node_json(x, cross.get(x.key, [])),
                )
                for x in new_nodes
            ],
        )
        keys = [dict(fingerprint=f, node_key=key) for key, fs in prints.items() for f in sorted(fs)]
        if keys:
            conn.execute(insert(t.tracked_keys), keys)
    _write_quotes(conn, result.quotes)
    _redirect(conn, {key: raw["tracked_id"] for key, raw in rows}, of_node)
    # Stored nodes whose tracked quote or cross links changed, one statement each kind (a
    # tracked quote's id is its earliest mention's: a later node joining it moves no row).
    moved, relinked = [], []
    for key, raw in rows:
        if raw.get("cross", []) != cross.get(key, []):
            data = _node_json(stored[key], cross.get(key, []))
            relinked.append(dict(k=key, tid=of_node[key], d=data))
        elif raw["tracked_id"] != of_node[key]:
            moved.append(dict(k=key, tid=of_node[key]))
    at = n.key == bindparam("k")
    if moved:
        conn.execute(update(t.tracked_nodes).where(at).values(tracked_id=bindparam("tid")), moved)
    if relinked:
        values: dict[str, Any] = dict(tracked_id=bindparam("tid"), data=bindparam("d"))
        conn.execute(update(t.tracked_nodes).where(at).values(**values), relinked)


def _redirect(conn: Connection, was: dict[str, str], of_node: dict[str, str]) -> None:
    """Point each recomputed tracked quote id that is gone (one no node holds now) at the
    tracked quote holding most of its stored nodes (``was``: node key -> old id; ties to the
    smaller id), and re-point redirects that led to it; an id in use again is no longer
    redirected. A tracked quote whose nodes all went (its stories were removed) gets none."""
    r = t.tracked_redirects.c
    now = set(of_node.values())
    moved: dict[str, Counter[str]] = defaultdict(Counter)
    for key, old in was.items():
        if old and old not in now:
            moved[old][of_node[key]] += 1
    for old, counts in sorted(moved.items()):
        new = min(counts, key=lambda tid: (-counts[tid], tid))
        conn.execute(delete(t.tracked_redirects).where(r.old_id == old))
        conn.execute(update(t.tracked_redirects).where(r.new_id == old).values(new_id=new))
        conn.execute(insert(t.tracked_redirects).values(old_id=old, new_id=new))
    for chunk in chunks(now):
        conn.execute(delete(t.tracked_redirects).where(r.old_id.in_(chunk)))


def _count_prints(conn: Connection, counts: Counter[tuple[str, str]]) -> tuple[set[str], set[str]]:
    """Add ``counts`` (nodes gained or lost per fingerprint and named speaker) to
    ``tracked_prints``; the fingerprints that gained a speaker, and those that lost one."""
    p = t.tracked_prints.c
    by_speaker: dict[str, dict[str, int]] = defaultdict(dict)
    for (f, speaker), d in counts.items():
        if speaker and d:
            by_speaker[speaker][f] = d
    gained: set[str] = set()
    lost: set[str] = set()
    added: list[dict[str, Any]] = []
    changed: list[dict[str, Any]] = []
    dropped: list[dict[str, Any]] = []
    for speaker, deltas in sorted(by_speaker.items()):
        for chunk in chunks(deltas):
            query = select(p.fingerprint, p.nodes).where(
                and_(p.speaker == speaker, p.fingerprint.in_(chunk))
            )
            have = dict(conn.execute(query).all())
            for f in chunk:
                now = have.get(f, 0) + deltas[f]
                row = dict(f=f, s=speaker, n=now)
                if now > 0 and f not in have:
                    added.append(dict(fingerprint=f, speaker=speaker, nodes=now))
                    gained.add(f)
                elif now <= 0 and f in have:
                    dropped.append(row)
                    lost.add(f)
                elif now > 0:
                    changed.append(row)
    where = and_(p.speaker == bindparam("s"), p.fingerprint == bindparam("f"))
    if added:
        conn.execute(insert(t.tracked_prints), added)
    if changed:  # one statement, many rows
        conn.execute(update(t.tracked_prints).where(where).values(nodes=bindparam("n")), changed)
    if dropped:
        conn.execute(delete(t.tracked_prints).where(where), dropped)
    return gained, lost


def _flip_stops(conn: Connection, gained: set[str], lost: set[str]) -> set[str]:
    """Bring ``tracked_stops`` up to date for fingerprints that ``gained`` or ``lost`` a named
    speaker; the fingerprints that became stop fingerprints or ceased to be.

    Only a fingerprint that is not a stop fingerprint and gained a speaker can become one, and
    only a stop fingerprint that lost one can cease to be: the first have at most
    ``STOP_SPEAKERS`` speakers stored before this write and are counted together; the second,
    rare (a story rebuilt or removed), are counted one by one up to the bound. So the counting
    is bounded per fingerprint written, however many speakers a stop fingerprint has."""
    p, s = t.tracked_prints.c, t.tracked_stops.c
    was = _stops(conn, gained | lost)
    names: dict[str, int] = {}
    for chunk in chunks(gained - was):
        query = (
            select(p.fingerprint, func.count())
            .where(p.fingerprint.in_(chunk))
            .group_by(p.fingerprint)
        )
        names.update((f, count) for f, count in conn.execute(query))
    for f in sorted(lost & was):
        capped = select(literal(1)).where(p.fingerprint == f).limit(STOP_SPEAKERS + 1)
        names[f] = conn.execute(select(func.count()).select_from(capped.subquery())).scalar_one()
    flipped = {
        f for f in (gained - was) | (lost & was) if (names.get(f, 0) > STOP_SPEAKERS) != (f in was)
    }
    became = sorted(flipped - was)
    if became:
        conn.execute(insert(t.tracked_stops), [dict(fingerprint=f) for f in became])
    for chunk in chunks(flipped & was):
        conn.execute(delete(t.tracked_stops).where(s.fingerprint.in_(chunk)))
    return flipped


def _stops(conn: Connection, prints: Iterable[str]) -> set[str]:
    """Which of ``prints`` are stop fingerprints."""
    s = t.tracked_stops.c
    out: set[str] = set()
    for chunk in chunks(prints):
        out.update(
            f for (f,) in conn.execute(select(s.fingerprint).where(s.fingerprint.in_(chunk)))
        )
    return out


def _holding(conn: Connection, prints: set[str]) -> tuple[set[str], set[str]]:
    """The tracked quotes and the keys of the stored nodes holding one of ``prints``."""
    k, n = t.tracked_keys.c, t.tracked_nodes.c
    quotes: set[str] = set()
    keys: set[str] = set()
    for chunk in chunks(prints):
        query = (
            select(n.key, n.tracked_id)
            .join(t.tracked_keys, k.node_key == n.key)
            .where(k.fingerprint.in_(chunk))
            .distinct()
        )
        for key, tid in conn.execute(query):
            keys.add(key)
            if tid:
                quotes.add(tid)
    return quotes, keys


def _stored_links(
    conn: Connection, tracked: set[str], rows: Sequence[tuple[str, dict[str, Any]]]
) -> Iterator[tuple[str, str, str, float]]:
    """Every link among the stored nodes ``rows`` (the nodes of the tracked quotes
    ``tracked``): those inside a tracked quote, kept as its evidence, and those across."""
    q = t.tracked_quotes.c
    for chunk in chunks(tracked):
        for (data,) in conn.execute(select(q.data).where(q.id.in_(chunk))):
            for x in json.loads(data)["links"]:
                yield x["a"], x["b"], x["relation"], x["aligned"]
    for _, raw in rows:
        yield from ((a, b, relation, aligned) for a, b, relation, aligned in raw.get("cross", ()))


def _linked(
    conn: Connection, new: Sequence[Node], prints: dict[str, set[str]], known: set[str]
) -> set[str]:
    """The tracked quotes of the stored nodes that a new node links to (``relate``), beyond the
    ``known`` ones.

    Candidates share a fingerprint with a new node. A fingerprint common in speech ("a lot of
    people") is shared by a fixed share of all stored nodes, so candidates grow with the store;
    each is first tested on its stored wordings' words, a necessary condition of any link
    (``_may_link``), and only those that pass are read in full and related.
    """
    k, n = t.tracked_keys.c, t.tracked_nodes.c
    by_print: dict[str, list[int]] = defaultdict(list)
    for i, node in enumerate(new):
        for f in prints[node.key]:
            by_print[f].append(i)
    partners: dict[str, set[int]] = defaultdict(set)
    for chunk in chunks(by_print):
        query = select(k.node_key, k.fingerprint).where(k.fingerprint.in_(chunk))
        for key, f in conn.execute(query):
            partners[key].update(by_print[f])
    counted = [[_Words(w) for w in node.wordings] for node in new]
    out: set[str] = set()
    for chunk in chunks(partners):
        query = select(n.key, n.tracked_id, n.data).where(n.key.in_(chunk))
        for row in conn.execute(query):
            if not row.tracked_id or row.tracked_id in out or row.tracked_id in known:
                continue
            raw = json.loads(row.data)
            theirs = raw.get("wordings")
            if theirs is None:  # a node stored before wordings were kept with it
                theirs = _node(row.key, raw).wordings
            prepared = [_Words(w) for w in theirs]
            mine = [i for i in sorted(partners[row.key]) if _may_link(counted[i], prepared)]
            if not mine:
                continue
            node = _node(row.key, raw)
            if any(relate(new[i], node) for i in mine):
                out.add(row.tracked_id)
    return out


# ``compare`` (stories/quotes.py) joins two wordings only when the shorter one's words are
# matched in the longer at one of these shares at least; matched words are never more than the
# words the two have in common (counted with repeats).
_LOOSEST = min(CONTAIN, NEAR, REORDERED)


class _Words:
    """One core wording with what ``_may_link`` counts in it (word counts only when the
    distinct content words already pass)."""

    __slots__ = ("words", "content_words", "censored", "_counts", "_content")

    def __init__(self, words: Sequence[str]) -> None:
        self.words = tuple(words)
        self.censored = any(w.endswith("*") for w in self.words)
        self.content_words = frozenset(w for w in self.words if is_content(w))
        self._counts: Counter[str] | None = None
        self._content: Counter[str] | None = None

    @property
    def counts(self) -> Counter[str]:
        if self._counts is None:
            self._counts = Counter(self.words)
        return self._counts

    @property
    def content(self) -> Counter[str]:
        if self._content is None:
            self._content = Counter(w for w in self.words if w in self.content_words)
        return self._content


def _may_link(mine: Sequence[_Words], theirs: Sequence[_Words]) -> bool:
    """False only when no pair of wordings can pass ``relate``. A pair passes either through
    ``compare``: the two alike, or both at least ``MIN_PARTIAL`` words long with
    ``MIN_SHARED_CONTENT`` content words in common, the loosest matched share of the shorter
    wording in common words and (``_aligned``) ``CONTENT_ALIGNED`` of its content words in
    common; or as a fragment of one speaker: the shorter wording, ``SHINGLE`` words at least,
    word for word inside the longer, so all its words in common. Censored words are wildcards
    there, so a censored wording is always kept."""
    for y in theirs:
        for x in mine:
            if x.censored or y.censored or x.words == y.words:
                return True
            short = min(len(x.words), len(y.words))
            if short < SHINGLE:
                continue
            common = (x.counts & y.counts).total()
            if common == short:
                return True
            if short < MIN_PARTIAL or len(x.content_words & y.content_words) < MIN_SHARED_CONTENT:
                continue
            if common < _LOOSEST * short - 1e-9:
                continue
            if len(x.words) == len(y.words):
                content = min(x.content.total(), y.content.total())
            else:
                content = (x if len(x.words) < len(y.words) else y).content.total()
            if (x.content & y.content).total() >= CONTENT_ALIGNED * content - 1e-9:
                return True
    return False


def _closed(
    conn: Connection, tracked: set[str], keys: set[str]
) -> tuple[set[str], list[tuple[str, dict[str, Any]]]]:
    """Every node of the tracked quotes ``tracked`` and of those holding ``keys``, and of every
    tracked quote linked to one of them across quotes (a merged quote and the utterance it
    holds but does not join): a set closed under links, so recomputing it is exact."""
    n = t.tracked_nodes.c
    done: set[str] = set()
    rows: list[tuple[str, dict[str, Any]]] = []
    todo = set(tracked)
    while True:
        for chunk in chunks(keys):
            query = select(n.tracked_id).where(n.key.in_(chunk))
            todo.update(tid for (tid,) in conn.execute(query) if tid)
        todo -= done
        if not todo:
            return done, rows
        done |= todo
        keys = set()
        for chunk in chunks(todo):
            query = select(n.key, n.tracked_id, n.data).where(n.tracked_id.in_(chunk))
            for key, tracked, data in conn.execute(query):
                raw = json.loads(data)
                raw["tracked_id"] = tracked  # read back by ``update_tracking``, never stored
                rows.append((key, raw))
                keys.update(_across(key, raw))
        todo = set()


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
        dict(article_id=m.article_id, start=m.start, end=m.end, tracked_id=q.id, variant=m.variant)
        for q in quotes
        for m in q.mentions
    ]
    if rows:
        conn.execute(insert(t.tracked_mentions), rows)
