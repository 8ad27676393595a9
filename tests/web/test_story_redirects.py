"""Old story ids (merged into another story) on the web, in the report and in the CLI: the
server answers 301 to the story's page now, the report has a stub page sending on to it, and
``newsloom story OLD`` shows the story it became. A real store built by real ingests."""

from __future__ import annotations

import httpx
from typer.testing import CliRunner

from newsloom.cli import app as cli_app
from newsloom.store import open_store
from tests.reliability.test_story_ids import STORY, smaller_follow_up

from .conftest import TOKEN, running


def test_an_old_story_page_answers_301_to_the_page_now(merged, merged_server):
    _, old, new = merged
    with httpx.Client(base_url=merged_server, timeout=60) as client:
        moved = client.get(f"/story-{old}.html")
        assert moved.status_code == 301
        assert moved.headers["location"] == f"story-{new}.html"
        landed = client.get(f"/story-{old}.html", follow_redirects=True)
        assert landed.status_code == 200 and str(landed.url).endswith(f"/story-{new}.html")
        assert client.get(f"/story-{old[:8]}.html").status_code == 301  # a prefix, as typed
        assert client.get("/story-0000000000000000.html").status_code == 404


def test_an_old_story_id_in_the_api_answers_301_to_the_story(merged, merged_server):
    _, old, new = merged
    with httpx.Client(base_url=merged_server, timeout=60) as client:
        moved = client.get(f"/api/stories/{old}")
        assert moved.status_code == 301
        landed = client.get(f"/api/stories/{old}", follow_redirects=True)
        assert landed.status_code == 200 and landed.json()["id"] == new
        assert str(landed.url).endswith(f"/api/stories/{new}")


def test_the_report_writes_a_stub_page_for_an_old_story_id(merged, tmp_path):
    from newsloom.render.html import write_report

    db, old, new = merged
    store = open_store(str(db))
    try:
        write_report(store, tmp_path)
    finally:
        store.close()
    stub = (tmp_path / f"story-{old}.html").read_text(encoding="utf-8")
    assert f'<meta http-equiv="refresh" content="0; url=story-{new}.html">' in stub
    assert f'href="story-{new}.html"' in stub
    assert "<script>" not in stub  # the CSP allows no inline script; a meta refresh needs none
    assert (tmp_path / f"story-{new}.html").exists()


def test_the_cli_shows_the_story_an_old_id_became(merged):
    db, old, new = merged
    result = CliRunner().invoke(cli_app, ["story", old, "--db", str(db), "--json"])
    assert result.exit_code == 0, result.output
    assert f"story {old} is now story {new}" in result.stderr
    assert f'"id": "{new}"' in result.stdout


def test_posting_an_article_with_a_smaller_id_keeps_the_story_link(tmp_path):
    """The issue's case over HTTP: the story's page and API link still answer 200."""
    from newsloom.web import create_app

    db = tmp_path / "post.db"
    auth = {"Authorization": f"Bearer {TOKEN}"}
    with (
        running(create_app(str(db), token=TOKEN)) as url,
        httpx.Client(base_url=url, timeout=120) as client,
    ):
        posted = client.post("/api/articles", json={"articles": [{"text": STORY}]}, headers=auth)
        assert posted.status_code < 300, posted.text
        [story] = client.get("/api/stories").json()["items"]
        first = client.get(f"/api/stories/{story['id']}").json()
        follow_up = smaller_follow_up(first["article_ids"][0])
        posted = client.post(
            "/api/articles", json={"articles": [{"text": follow_up}]}, headers=auth
        )
        assert posted.status_code < 300, posted.text
        now = client.get(f"/api/stories/{story['id']}")
        assert now.status_code == 200 and len(now.json()["article_ids"]) == 2
        assert client.get(f"/story-{story['id']}.html").status_code == 200
