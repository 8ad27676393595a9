"""The ``.json`` and ``.csv`` twins over HTTP: the CSV of every list is the JSON pages walked
through their cursors, cell for cell (RFC 4180 quoting of untrusted text with quotes, commas
and line breaks included); the twins keep the filters; and ``twins()`` gives any page its
three routes, the two data ones documented in the OpenAPI document."""

from __future__ import annotations

import csv
import io
from typing import Annotated

import httpx
import pytest
from fastapi import APIRouter, FastAPI, Query
from fastapi.testclient import TestClient

from newsloom.config import load_settings
from newsloom.render.tables import csv_cell
from newsloom.store import LISTS
from newsloom.web import create_app
from newsloom.web.twins import Twin, twins

NAMES = sorted(LISTS)


def walk_json(base: str, name: str, params: dict) -> list[dict]:
    rows: list[dict] = []
    cursor = None
    while True:
        step = {"after": cursor} if cursor else {}
        page = httpx.get(f"{base}/{name}.json", params={**params, **step, "limit": 7}).json()
        rows += page["items"]
        cursor = page["next"]
        if cursor is None:
            return rows


def read_csv(base: str, name: str, params: dict) -> tuple[httpx.Response, list[list[str]]]:
    response = httpx.get(f"{base}/{name}.csv", params=params)
    assert response.status_code == 200
    return response, list(csv.reader(io.StringIO(response.text, newline="")))


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("server", ["live_server", "evil_server"])
def test_the_csv_is_the_json_pages_cell_for_cell(request, server, name):
    base = request.getfixturevalue(server)
    items = walk_json(base, name, {})
    response, rows = read_csv(base, name, {})
    assert response.headers["content-type"].startswith("text/csv")
    assert response.headers["content-disposition"] == f'attachment; filename="{name}.csv"'
    header, body = rows[0], rows[1:]
    assert header == list(items[0]) if items else header
    assert body == [[csv_cell(item[col]) for col in header] for item in items]


def test_untrusted_text_survives_the_csv(evil_server):
    _, rows = read_csv(evil_server, "articles", {})
    titles = {row[1] for row in rows[1:]}
    assert any('"' in t and "<script>" in t for t in titles)  # quoted, never cut
    _, rows = read_csv(evil_server, "mentions", {})
    assert all(len(row) == len(rows[0]) for row in rows)


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("stories", {"size": "2-4 articles", "sort": "-date"}),
        ("mentions", {"kind": "indirect", "q": "bridge"}),
        ("articles", {"since": "2023-01-01", "sort": "+title"}),
        ("speakers", {"outlet": "nosuchoutlet"}),
    ],
)
def test_the_twins_keep_the_filters(live_server, name, params):
    items = walk_json(live_server, name, params)
    _, rows = read_csv(live_server, name, params)
    assert len(rows) - 1 == len(items)
    total = httpx.get(f"{live_server}/{name}.json", params=params).json()["total"]
    assert total == len(items)
    assert (total == 0) == (params.get("outlet") == "nosuchoutlet")


def test_any_page_registers_its_twins():
    router = APIRouter()

    @twins(router, "/colour-{name}", summary="One colour's shades", tags=["test"])
    def colour_page(name: str, dark: Annotated[bool, Query()] = False) -> Twin:
        shades = [{"shade": f"{'dark ' if dark else ''}{name} {i}", "n": i} for i in range(3)]
        return Twin(
            document=lambda: {"name": name, "shades": shades},
            columns=("shade", "n"),
            rows=lambda: iter(shades),
            html=lambda pages: f"<h1>{name}</h1>",
        )

    app = FastAPI()
    app.include_router(router)
    app.state.web = type("State", (), {"pages": None})()

    # The test client runs the app in its own thread: a browser test may have left an event
    # loop running in this one.
    get = TestClient(app).get

    assert get("/colour-red.json?dark=true").json()["shades"][0]["shade"] == "dark red 0"
    csv_response = get("/colour-red.csv")
    assert csv_response.text == "shade,n\r\nred 0,0\r\nred 1,1\r\nred 2,2\r\n"
    assert csv_response.headers["content-disposition"] == 'attachment; filename="colour-red.csv"'
    assert get("/colour-blue").text == "<h1>blue</h1>"
    paths = app.openapi()["paths"]
    assert set(paths) == {"/colour-{name}.json", "/colour-{name}.csv"}
    assert {p["name"] for p in paths["/colour-{name}.csv"]["get"]["parameters"]} == {"name", "dark"}


@pytest.mark.parametrize("budget, counted", [(0, False), (60_000, True)])
def test_a_served_list_counts_within_its_budget(corpus_db, budget, counted):
    """A facet that does not fit the app's count budget is said to be not counted (never a
    guessed number), and the total falls back to a bounded count; with room, all are exact."""
    settings = load_settings(db_url=str(corpus_db), count_budget_ms=budget)
    app = create_app(str(corpus_db), settings=settings)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        page = client.get("/stories.json").json()
        html = client.get("/stories").text
        stories = client.get("/api/stories", params={"limit": 500}).json()
    assert [f["counted"] for f in page["facets"]] == [counted] * len(page["facets"])
    assert all(bool(f["values"]) is counted for f in page["facets"])
    assert page["total"] == stories["total"]  # the bounded count is exact below its cap
    assert page["total_capped"] is False
    assert html.count("Not counted: too many rows") == (0 if counted else len(page["facets"]))
