"""Requests a server must refuse or answer carefully: a Host that is not its name (DNS
rebinding), an invalid body that must not be echoed whole, and a browser asking for a page
that does not exist. Real servers: uvicorn on a loopback port, and once ``newsloom serve``."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import httpx
import pytest

from newsloom.web.errors import ELLIPSIS, MAX_DETAIL_ERRORS, MAX_ECHO_CHARS

from .conftest import free_port, running

SERVE_START_SECONDS = 60  # the CLI imports the web stack before it listens


@pytest.fixture(scope="module")
def empty_db(tmp_path_factory) -> str:
    from newsloom.store import open_store

    db = str(tmp_path_factory.mktemp("host") / "empty.db")
    open_store(db).close()
    return db


def get(url: str, host: str) -> httpx.Response:
    return httpx.get(url + "/api/stories", headers={"Host": host}, timeout=30)


@pytest.mark.parametrize(
    ("host", "status"),
    [
        ("127.0.0.1", 200),
        ("127.0.0.1:8000", 200),
        ("localhost:8000", 200),
        ("LocalHost", 200),
        ("[::1]:8000", 200),
        ("[::1]", 200),
        ("evil.example", 400),
        ("evil.example:8000", 400),
        ("127.0.0.1.evil.example", 400),
        ("localhost.evil.example:80", 400),
        ("", 400),
    ],
)
def test_only_the_bound_host_names_are_answered(empty_db, host, status):
    from newsloom.web import create_app

    with running(create_app(empty_db)) as url:
        response = get(url, host)
    assert response.status_code == status, response.text
    if status == 400:
        assert "--allowed-host" in response.json()["detail"]


def test_allowed_hosts_and_the_listening_address_are_answered(empty_db):
    from newsloom.web import create_app

    app = create_app(empty_db, host="192.0.2.7", allowed_hosts=["News.Example"])
    with running(app) as url:
        assert get(url, "news.example:8000").status_code == 200
        assert get(url, "192.0.2.7:8000").status_code == 200
        assert get(url, "evil.example").status_code == 400
    with running(create_app(empty_db, allowed_hosts=["*"])) as url:
        assert get(url, "anything.example").status_code == 200


@pytest.mark.slow
def test_serve_refuses_a_foreign_host_and_takes_allowed_host(empty_db):
    """The real ``newsloom serve`` process, with --allowed-host."""
    port = free_port()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    command = [sys.executable, "-c", "from newsloom.cli import app; app()", "serve"]
    args = ["--db", empty_db, "--port", str(port), "--allowed-host", "news.example"]
    proc = subprocess.Popen(
        command + args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + SERVE_START_SECONDS
        while True:
            try:
                first = get(url, f"127.0.0.1:{port}")
                break
            except httpx.TransportError:
                assert proc.poll() is None and time.monotonic() < deadline, "serve did not start"
                time.sleep(0.2)
        assert first.status_code == 200
        assert get(url, f"news.example:{port}").status_code == 200
        refused = get(url, f"rebound.evil.example:{port}")
        assert refused.status_code == 400 and "rebound.evil.example" in refused.json()["detail"]
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_a_422_does_not_echo_the_whole_body(empty_db):
    from newsloom.web import create_app

    long_value = "x" * 20_000  # 60 of them stay under the default body limit
    bad_fields = {f"field{i}": long_value for i in range(MAX_DETAIL_ERRORS + 10)}
    bodies = [
        {"articles": long_value},  # a string where a list belongs
        {"articles": [{"title": long_value}]},  # the whole article is echoed as missing text
        {"articles": [{"text": "ok", **bad_fields}]},  # many errors, each with a long input
    ]
    with running(create_app(empty_db)) as url, httpx.Client(base_url=url, timeout=30) as c:
        for body in bodies:
            response = c.post("/api/articles", json=body)
            assert response.status_code == 422
            assert len(response.content) < (MAX_ECHO_CHARS + 200) * MAX_DETAIL_ERRORS
            detail = response.json()["detail"]
            assert 1 <= len(detail) <= MAX_DETAIL_ERRORS
            for err in detail:
                shown = err["input"] if isinstance(err["input"], str) else repr(err["input"])
                assert len(shown) <= MAX_ECHO_CHARS + len(ELLIPSIS)
            assert response.json()["message"].startswith("body.articles")
        short = c.post("/api/articles", json={"articles": [{"text": "ok", "colour": "red"}]})
        assert short.json()["detail"][0]["input"] == "red"  # short values are echoed as they are


def test_browsers_get_an_html_404_and_the_api_keeps_json(empty_db):
    from newsloom.web import create_app

    browser = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}
    with running(create_app(empty_db)) as url, httpx.Client(base_url=url, timeout=30) as c:
        page = c.get("/no-such-page", headers=browser)
        assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
        assert "<h1>Not found</h1>" in page.text and 'href="index.html"' in page.text
        assert "default-src 'none'" in page.headers["content-security-policy"]
        for path, headers in [
            ("/no-such-page", {}),
            ("/api/no-such-endpoint", browser),
            ("/api/stories/0000", browser),
        ]:
            response = c.get(path, headers=headers)
            assert response.status_code == 404
            assert response.headers["content-type"] == "application/json"
            assert "detail" in response.json()
        assert c.post("/index.html", headers=browser).status_code == 405  # not a 404
