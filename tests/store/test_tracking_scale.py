"""Tracked quotes kept per story write (``store/tracking.py``) on generated stories: what the
store holds equals tracking every story at once, and the cheap candidate test never drops a
link. The stories come from the scale benchmark's generator (``bench/bench_tracking.py``):
invented words, re-quotes with truncations, word changes, censoring and fillers, and merged
quotes (two utterances one article quoted apart, run as one by a later story)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from typing import Any

import pytest
from sqlalchemy import select

from newsloom.store import schema as t
from newsloom.store import tracking as store_tracking
from newsloom.store.sql import SqlStore
from newsloom.store.tracking import _may_link, _Words
from newsloom.stories import tracking as stories_tracking
from newsloom.stories.tracking import (
    ArticleInfo,
    candidate_pairs,
    relate,
    stop_prints,
    story_nodes,
    track_stories,
)
from newsloom.text.outlets import outlet_name

from ..conftest import REPO

sys.path.insert(0, str(REPO / "bench"))
import bench_tracking  # noqa: E402  (bench/bench_tracking.py)

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("stop_speakers", [2, 8])
def test_story_by_story_equals_all_at_once(
    monkeypatch: pytest.MonkeyPatch, stop_speakers: int
) -> None:
    monkeypatch.setattr(bench_tracking, "MERGED_SHARE", 0.2)
    # A low bound makes fingerprints become stop fingerprints, and cease to be when a rebuilt
    # story drops a quote, many times over: every flip must re-track what it changes.
    monkeypatch.setattr(store_tracking, "STOP_SPEAKERS", stop_speakers)
    monkeypatch.setattr(stories_tracking, "STOP_SPEAKERS", stop_speakers)
    gen = bench_tracking.Generator(2)
    rng = random.Random(3)
    store = SqlStore("sqlite:///:memory:")
    final: dict[str, Any] = {}
    infos: dict[str, ArticleInfo] = {}
    for step in range(16):
        stories, rows = gen.batch(50)
        bench_tracking._add_articles(store, rows)
        for r in rows:
            infos[r["id"]] = ArticleInfo(
                outlet_name(r["source"], r["url"], r["origin"]), r["published"]
            )
        if step % 3 == 0:
            store.replace_stories(stories)
        else:
            for story in stories:
                store.replace_stories([story])
        final.update((s.id, s) for s in stories)
        for story_id in rng.sample(sorted(final), 3):  # rebuilt with a quote less
            story = final[story_id]
            if len(story.quotes) > 1:
                final[story_id] = story.model_copy(update={"quotes": story.quotes[1:]})
                store.replace_stories([final[story_id]])
    c = t.tracked_quotes.c
    with store.engine.connect() as conn:
        stored = {row.id: json.loads(row.data) for row in conn.execute(select(c.id, c.data))}
        stops = {f for (f,) in conn.execute(select(t.tracked_stops.c.fingerprint))}
    nodes = [n for s in final.values() for n in story_nodes(s, infos)]
    assert stops and stops == stop_prints(nodes)
    tracking = track_stories(list(final.values()), infos)
    batch = tracking.quotes
    with store.engine.connect() as conn:  # every node in the tracked quote batch puts it in
        n = t.tracked_nodes.c
        assert dict(conn.execute(select(n.key, n.tracked_id)).all()) == tracking.of_node
    merged = [m for q in batch for m in q.mentions if m.variant == "merged"]
    assert merged and any(len(q.story_ids) > 1 for q in batch)  # the cases under test occur
    assert stored == {q.id: json.loads(q.model_dump_json()) for q in batch}
    store.close()


def test_candidate_test_never_drops_a_link(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench_tracking, "MERGED_SHARE", 0.05)
    stories, _ = bench_tracking.Generator(3).batch(1500)
    nodes = [n for s in stories for n in story_nodes(s, {})]
    linked = dropped = 0
    for i, j in candidate_pairs(nodes):
        for a, b in ((nodes[i], nodes[j]), (nodes[j], nodes[i])):
            if relate(a, b) is None:
                continue
            linked += 1
            wordings_a = [_Words(w) for w in a.wordings]
            dropped += not _may_link(wordings_a, [_Words(w) for w in b.wordings])
    assert linked > 500
    assert dropped == 0


def test_bench_runs_small(tmp_path: Any) -> None:
    out = subprocess.run(
        [
            sys.executable,
            str(REPO / "bench" / "bench_tracking.py"),
            *("--mentions", "300", "900", "--rounds", "1", "--stories", "10"),
            *("--fill-batch", "40", "--db", str(tmp_path / "bench.db")),
        ],
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
    ).stdout
    lines = out.strip().splitlines()
    assert lines[0].split()[:2] == ["mentions", "ms/mention"]
    assert len(lines) == 4 and lines[-1].startswith("per-mention cost ratio")
