"""The JSON API against a real server on a loopback port: every endpoint, the OpenAPI
document, and the error cases (401/403 without the token, 413 over the body limit, 422
naming the field)."""

from __future__ import annotations

import re

import httpx
import pytest

from .conftest import TOKEN, copy_db, running

AUTH = {"Authorization": f"Bearer {TOKEN}"}
NEW_ARTICLE = {
    "title": "Inspectors return to Kessler Street Bridge",
    "source": "Test Courier",
    "published": "2022-03-17",
    "text": (
        "MILLBROOK — State inspectors returned to the Kessler Street Bridge on Thursday, three "
        'days after it collapsed into the Tamsin River. "We are going to find out exactly what '
        'failed and who knew about it," Mayor Dana Whitcombe said.'
    ),
}


@pytest.fixture(scope="module")
def client(live_server):
    with httpx.Client(base_url=live_server, timeout=120) as c:
        yield c


def test_openapi_document_lists_every_endpoint(client):
    doc = client.get("/openapi.json").json()
    assert doc["openapi"].startswith("3.")
    assert {
        "/api/stories",
        "/api/stories/{story_id}",
        "/api/search",
        "/api/quotes",
        "/api/quotes/{tracked_id}",
        "/api/tracked-quotes",
        "/api/speakers",
        "/api/posts",
        "/api/people",
        "/api/articles",
        "/api/articles/{article_id}",
    } <= set(doc["paths"])
    post = doc["paths"]["/api/articles"]["post"]
    assert post["security"] == [{"HTTPBearer": []}]
    assert {"401", "403", "413", "422"} <= set(post["responses"])


def test_story_list_and_one_story(client):
    listing = client.get("/api/stories").json()
    assert listing["total"] == len(listing["items"]) >= 5
    first = listing["items"][0]
    assert first["n_articles"] >= 2 and first["outlets"]
    story = client.get(f"/api/stories/{first['id']}").json()
    assert story["id"] == first["id"] and len(story["article_ids"]) == first["n_articles"]
    assert client.get(f"/api/stories/{first['id'][:8]}").json()["id"] == first["id"]  # prefix
    paged = client.get("/api/stories", params={"limit": 2, "offset": 1}).json()
    assert [s["id"] for s in paged["items"]] == [s["id"] for s in listing["items"][1:3]]


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("/api/stories/0000000000000000", 404),
        ("/api/stories/not-hex", 404),
        ("/api/articles/not-hex", 404),
        ("/api/articles/" + "a" * 40, 404),
        ("/api/articles/0000000000000000", 404),
        ("/api/stories?limit=0", 422),
        ("/api/search", 422),  # q is required
    ],
)
def test_bad_lookups(client, path, status):
    response = client.get(path)
    assert response.status_code == status
    assert "detail" in response.json()


def test_search_finds_quotes_and_articles_with_spans(client):
    result = client.get("/api/search", params={"q": "thunder"}).json()
    kinds = {h["kind"] for h in result["items"]}
    assert "quote" in kinds
    for hit in result["items"]:
        text = client.get(f"/api/articles/{hit['article_id']}").json()["text"]
        assert "thunder" in text[hit["start"] : hit["end"]].lower()
        for start, end in hit["highlights"]:
            assert hit["snippet"][start:end].lower().startswith("thunder")
        if hit["kind"] == "quote":
            assert hit["url"] == f"article-{hit['article_id']}.html#q-{hit['start']}-{hit['end']}"
    # operators and punctuation are words, never FTS syntax errors
    for query in ['"', "AND (", "NEAR(x y", "*", "collapse*"]:
        assert client.get("/api/search", params={"q": query}).status_code == 200
    assert client.get("/api/search", params={"q": "zzqxnotaword"}).json() == {
        "total": 0,
        "items": [],
        "query": "zzqxnotaword",
    }


def test_story_search(client):
    found = client.get("/api/stories", params={"q": "bridge collapsed"}).json()
    assert found["total"] >= 1
    assert "bridge" in (found["items"][0]["title"] or "").lower()
    assert client.get("/api/stories", params={"q": "zzqxnotaword"}).json() == {
        "total": 0,
        "items": [],
    }


def test_quotes_by_speaker_point_into_article_text(client):
    speakers = client.get("/api/speakers").json()["items"]
    top = speakers[0]
    assert top["quotes"] >= 2
    found = client.get("/api/quotes", params={"speaker": top["speaker"].upper()}).json()
    rows = found["items"]
    assert found["total"] == len(rows) == top["quotes"] and {r["speaker"] for r in rows} == {
        top["speaker"]
    }
    for row in rows[:5]:
        text = client.get(f"/api/articles/{row['article_id']}").json()["text"]
        assert text[row["start"] : row["end"]] == row["text"]
    assert client.get("/api/quotes", params={"speaker": "Nobody Atall"}).json() == {
        "total": 0,
        "items": [],
    }
    page = client.get("/api/quotes", params={"limit": 3}).json()
    assert len(page["items"]) == 3 and page["total"] > 3


def test_posts_people_articles(client):
    posts = client.get("/api/posts").json()["items"]
    assert posts and all(p["handle"] and p["article_ids"] for p in posts)
    people = client.get("/api/people").json()["items"]
    assert any(p["ages"] for p in people) and all(p["type"] == "PERSON" for p in people)
    listing = client.get("/api/articles").json()
    articles = listing["items"]
    assert listing["total"] == len(articles) >= 20
    one = client.get(f"/api/articles/{articles[0]['id']}").json()
    assert one["text"] and one["story_id"]


def test_post_needs_the_token(client):
    body = {"articles": [NEW_ARTICLE]}
    missing = client.post("/api/articles", json=body)
    assert missing.status_code == 401 and missing.headers["www-authenticate"] == "Bearer"
    wrong = client.post("/api/articles", json=body, headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 403


def test_post_ingests_and_attaches_to_the_story(client):
    bridge = client.get("/api/stories", params={"q": "Kessler"}).json()["items"][0]
    response = client.post("/api/articles", json={"articles": [NEW_ARTICLE]}, headers=AUTH)
    assert response.status_code == 201, response.text
    result = response.json()
    assert result["added"] == 1 and result["story_ids"] == [bridge["id"]]
    story = client.get(f"/api/stories/{bridge['id']}").json()
    assert result["article_ids"][0] in story["article_ids"]
    assert (
        client.get(f"/api/articles/{result['article_ids'][0]}").json()["text"]
        == NEW_ARTICLE["text"]
    )
    again = client.post("/api/articles", json={"articles": [NEW_ARTICLE]}, headers=AUTH).json()
    assert again["added"] == 0 and again["already_stored"] == 1


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"articles": [{"title": "no text"}]}, "body.articles.0.text"),
        ({"articles": [{"text": ""}]}, "body.articles.0.text"),
        ({"articles": [{"text": "ok", "colour": "red"}]}, "body.articles.0.colour"),
        ({"articles": "not a list"}, "body.articles"),
        ({"articles": []}, "body.articles"),
        ({}, "body.articles"),
    ],
)
def test_bad_body_gets_422_naming_the_field(client, body, field):
    response = client.post("/api/articles", json=body, headers=AUTH)
    assert response.status_code == 422
    assert response.json()["message"].startswith(field)


def test_bad_json_gets_422(client):
    response = client.post(
        "/api/articles",
        content=b'{"articles": [',
        headers={**AUTH, "Content-Type": "application/json"},
    )
    assert response.status_code == 422
    assert re.match(r"body: invalid JSON at character \d+", response.json()["message"])


def test_pages_and_static_files(client):
    index = client.get("/")
    assert index.status_code == 200 and "text/html" in index.headers["content-type"]
    assert "default-src 'none'" in index.headers["content-security-policy"]
    story_id = re.search(r'href="story-([0-9a-f]+)\.html"', index.text).group(1)
    story = client.get(f"/story-{story_id}.html")
    assert story.status_code == 200
    link = re.search(r'href="article-([0-9a-f]+)\.html#q-(\d+)-(\d+)"', story.text)
    article = client.get(f"/article-{link.group(1)}.html")
    assert f'id="q-{link.group(2)}-{link.group(3)}"' in article.text
    assert client.get("/search", params={"q": "thunder"}).text.count('class="hit ') >= 1
    assert client.get("/static/style.css").status_code == 200
    assert client.get("/story-0000.html").status_code == 404
    assert client.get("/article-nothex.html").status_code == 404


def test_body_limit_gives_413(corpus_db, tmp_path):
    from newsloom.web import create_app

    app = create_app(str(copy_db(corpus_db, tmp_path / "small.db")), max_body_bytes=1000)
    big = {"articles": [{"text": "word " * 400}]}
    with running(app) as url, httpx.Client(base_url=url, timeout=30) as c:
        declared = c.post("/api/articles", json=big)
        assert declared.status_code == 413 and "limit is 1000 bytes" in declared.json()["detail"]

        def chunks():  # no Content-Length: the limit is counted as the body streams in
            for _ in range(20):
                yield b"x" * 100

        streamed = c.post(
            "/api/articles", content=chunks(), headers={"Content-Type": "application/json"}
        )
        assert streamed.status_code == 413
        assert (
            c.post("/api/articles", json={"articles": [{"title": "t"}]}).status_code == 422
        )  # small: read


def test_writes_refused_without_token_when_exposed(corpus_db, tmp_path):
    from newsloom.web import create_app

    app = create_app(str(copy_db(corpus_db, tmp_path / "exposed.db")), writes_need_token=True)
    with running(app) as url, httpx.Client(base_url=url, timeout=30) as c:
        refused = c.post("/api/articles", json={"articles": [NEW_ARTICLE]})
        assert refused.status_code == 403 and "--token" in refused.json()["detail"]
        assert c.get("/api/stories").status_code == 200  # reading stays open


def test_serve_binds_loopback_by_default():
    import typer.main

    from newsloom.cli import app

    serve = typer.main.get_command(app).commands["serve"]
    params = {p.name: p for p in serve.params}
    assert params["host"].default == "127.0.0.1"
    assert "NEWSLOOM_TOKEN" in (params["token"].envvar or ())


def test_a_store_that_fails_under_the_server_gives_503(corpus_db, tmp_path):
    from newsloom.web import create_app
    from tests.store.test_sql import corrupt

    db = copy_db(corpus_db, tmp_path / "doomed.db")
    app = create_app(str(db), token=TOKEN)
    with running(app) as url, httpx.Client(base_url=url, timeout=60) as c:
        assert c.get("/api/stories").status_code == 200
        corrupt(db)
        for path in ("/api/stories", "/api/people", "/api/search?q=bridge", "/"):
            response = c.get(path)
            assert response.status_code == 503, (path, response.text)
            assert "not corrupted" in response.json()["detail"]
        write = c.post("/api/articles", json={"articles": [NEW_ARTICLE]}, headers=AUTH)
        assert write.status_code == 503
        # Bad input is still the request's fault, whatever the store's state.
        assert c.get("/api/stories?limit=0").status_code == 422
        assert c.get("/api/stories/not-hex").status_code == 404


def test_an_ambiguous_id_prefix_is_400_not_503(tmp_path):
    from newsloom.models import Story
    from newsloom.store import open_store
    from newsloom.web import create_app
    from tests.store.test_sql import TEXT_A, TEXT_B, make_analysis

    db = str(tmp_path / "ab.db")
    store = open_store(db)
    a, b = make_analysis(TEXT_A), make_analysis(TEXT_B)
    store.add_analyses([a, b])
    store.replace_stories(
        [
            Story(id="ab1", title="x", article_ids=[a.article.id]),
            Story(id="ab2", title="y", article_ids=[b.article.id]),
        ]
    )
    store.close()
    with running(create_app(db)) as url, httpx.Client(base_url=url, timeout=30) as client:
        response = client.get("/api/stories/ab")
        assert response.status_code == 400 and "ambiguous" in response.json()["detail"]
        assert client.get("/api/stories/ab2").json()["title"] == "y"
        bad = client.get("/api/quotes", params={"limit": "many"})
        assert bad.status_code == 422 and bad.json()["message"].startswith("query.limit")


LIST_ENDPOINTS = [
    "/api/stories",
    "/api/stories?q=bridge",
    "/api/search?q=bridge",
    "/api/quotes",
    "/api/tracked-quotes",
    "/api/speakers",
    "/api/posts",
    "/api/people",
    "/api/articles",
]


@pytest.mark.parametrize("path", LIST_ENDPOINTS)
def test_every_list_endpoint_answers_total_and_items(client, path):
    body = client.get(path).json()
    assert set(body) - {"query"} == {"total", "items"}
    assert body["total"] >= len(body["items"]) >= 1


def test_search_pages_through_every_hit(client):
    whole = client.get("/api/search", params={"q": "bridge", "limit": 200}).json()
    assert whole["total"] == len(whole["items"]) > 3  # more than one page of 3
    keys = [(h["kind"], h["article_id"], h["start"]) for h in whole["items"]]
    paged = []
    for offset in range(0, whole["total"], 3):
        page = client.get("/api/search", params={"q": "bridge", "limit": 3, "offset": offset})
        assert page.json()["total"] == whole["total"]
        paged += [(h["kind"], h["article_id"], h["start"]) for h in page.json()["items"]]
    assert paged == keys


def test_search_page_shows_the_total_and_links_the_next_page(client):
    first = client.get("/search", params={"q": "bridge", "limit": 2})
    total = client.get("/api/search", params={"q": "bridge"}).json()["total"]
    assert f"{total} results for" in first.text and first.text.count('class="hit ') == 2
    next_href = re.search(r'<a rel="next" href="([^"]+)"', first.text).group(1)
    assert 'rel="prev"' not in first.text
    second = client.get("/" + next_href.replace("&amp;", "&"))
    assert second.status_code == 200 and 'rel="prev"' in second.text
    assert "3–4 of" in second.text


def test_article_ids_accept_a_unique_prefix(client):
    ids = sorted(a["id"] for a in client.get("/api/articles").json()["items"])
    one = ids[0]
    assert client.get(f"/api/articles/{one[:10]}").json()["id"] == one
    page = client.get(f"/article-{one[:10]}.html")
    assert page.status_code == 200 and page.text == client.get(f"/article-{one}.html").text
    # More articles than hex digits: two ids share a first digit, so it is ambiguous.
    shared = next(a[0] for a, b in zip(ids, ids[1:], strict=False) if a[0] == b[0])
    ambiguous = client.get(f"/api/articles/{shared}")
    assert ambiguous.status_code == 400 and "give more characters" in ambiguous.json()["detail"]
    assert client.get(f"/article-{shared}.html").status_code == 400


def test_docs_lists_every_endpoint_without_outside_assets(client):
    docs = client.get("/docs")
    assert docs.status_code == 200 and docs.headers["content-type"].startswith("text/html")
    paths = client.get("/openapi.json").json()["paths"]
    for path, item in paths.items():
        for method in item:
            assert f"<code>{method.upper()} {path}</code>" in docs.text
    assert not re.search(r'(src|href)="(https?:)?//', docs.text)  # nothing from elsewhere
    assert re.findall(r"<script[^>]*>", docs.text) == ['<script src="static/filter.js" defer>']
