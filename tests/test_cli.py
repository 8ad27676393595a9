"""The command line end to end on a real SQLite store: what a user types, what they see."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from newsloom.cli import app
from tests.conftest import REPO, SHARED

ARTICLE_A = (
    " date 2021-03-14 RIVERTON • The town council approved a new bridge on Sunday.\n\n"
    'Mayor Jane Roe, 52, said: "We will rebuild it stronger than before." The vote was 7-2.\n\n'
    '"It is a good day," said council member John Doe.\n'
)
ARTICLE_B = (
    "Flooding closes Harbor Road\n\n"
    "HARBOR CITY — Heavy rain closed Harbor Road on Tuesday, officials said.\n\n"
    'Fire chief Ann Lee told reporters: "Stay home tonight."\n'
)


@pytest.fixture()
def corpus(tmp_path):
    folder = tmp_path / "corpus"
    (folder / "nested").mkdir(parents=True)
    (folder / "a.txt").write_text(ARTICLE_A, encoding="utf-8")
    (folder / "nested" / "b.txt").write_text(ARTICLE_B, encoding="utf-8")
    (folder / "empty.txt").write_text("", encoding="utf-8")
    (folder / "binary.txt").write_bytes(bytes(range(256)) * 4)
    return folder


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(app, list(args), input=input)


def check_export(path, base):
    checker = SHARED / "tools" / "check_export.py"
    if not checker.exists():
        pytest.skip("../shared/tools/check_export.py is absent")
    done = subprocess.run(
        [sys.executable, str(checker), str(path), "--base", str(base)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout


def test_analyze_reads_what_it_can_reports_the_rest_and_exports(corpus, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "out.json"
    result = run("analyze", "corpus", "--json", str(out), "--quiet")
    assert result.exit_code == 0, result.output
    assert "2 articles read" in result.output
    assert "empty.txt" in result.output and "binary.txt" in result.output
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert len(doc["articles"]) == 2
    assert {a["published"] for a in doc["articles"]} >= {"2021-03-14"}
    assert sum(len(s["article_ids"]) for s in doc["stories"]) == 2
    check_export(out, tmp_path)


def test_nothing_readable_exits_non_zero_and_names_the_file(tmp_path):
    missing = tmp_path / "no-such-folder"
    result = run("analyze", str(missing), "--quiet")
    assert result.exit_code == 1
    assert "no-such-folder" in result.output
    assert "nothing could be read" in result.output


def test_ingest_twice_stores_once_and_listings_work(corpus, tmp_path):
    db = str(tmp_path / "store.db")
    assert run("ingest", str(corpus), "--db", db, "--quiet").exit_code == 0
    again = run("ingest", str(corpus), "--db", db, "--quiet")
    assert "0 new, 2 already stored" in again.output
    listed = json.loads(run("articles", "--db", db, "--json").output)
    assert len(listed) == 2
    people = json.loads(run("people", "--db", db, "--json").output)
    assert "Jane Roe" in {p["name"] for p in people}
    assert json.loads(run("posts", "--db", db, "--json").output) == []
    stories = json.loads(run("stories", "--db", db, "--json").output)
    assert sum(s["articles"] for s in stories) == 2
    shown = run("story", stories[0]["id"][:8], "--db", db, "--json")
    assert shown.exit_code == 0 and json.loads(shown.output)["id"] == stories[0]["id"]
    assert run("story", "zzzz", "--db", db).exit_code == 1


def test_stdin_is_read_as_an_article(tmp_path):
    out = tmp_path / "out.json"
    result = run("analyze", "-", "--json", str(out), "--quiet", input=ARTICLE_B)
    assert result.exit_code == 0, result.output
    (article,) = json.loads(out.read_text())["articles"]
    assert article["path"] is None


def test_schema_is_the_export_json_schema():
    schema = json.loads(run("schema").output)
    assert {"articles", "stories"} <= set(schema["properties"])


def test_the_installed_entry_point_runs(tmp_path):
    exe = REPO / ".venv" / "bin" / "newsloom"
    if not exe.exists():
        pytest.skip("not installed in .venv")
    done = subprocess.run([str(exe), "--help"], capture_output=True, text=True)
    assert done.returncode == 0 and "analyze" in done.stdout


def test_summary_groups_skipped_inputs_by_code(corpus, tmp_path):
    (corpus / "other-empty.txt").write_text("   ", encoding="utf-8")
    out = tmp_path / "out.json"
    result = run("analyze", str(corpus), str(tmp_path / "missing"), "--json", str(out), "-q")
    assert result.exit_code == 0, result.output
    assert "skipped: 1 × binary; 2 × empty; 1 × not_found" in result.output
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert sorted(s["code"] for s in doc["skipped"]) == ["binary", "empty", "empty", "not_found"]
    check_export(out, tmp_path)


def test_json_listings_keep_their_keys_in_order(corpus, tmp_path):
    db = str(tmp_path / "store.db")
    assert run("ingest", str(corpus), "--db", db, "--quiet").exit_code == 0
    keys = {
        "articles": ["id", "source", "published", "title", "origin", "format"],
        "people": ["name", "type", "ages", "roles", "article_ids", "articles"],
        "stories": ["id", "title", "articles", "quotes", "posts"],
    }
    for command, expected in keys.items():
        rows = json.loads(run(command, "--db", db, "--json").output)
        assert rows and all(list(row) == expected for row in rows), command


def test_posts_json_keys_in_order(tmp_path):
    from newsloom.store import open_store
    from tests.store.test_sql import TEXT_A, make_analysis

    db = str(tmp_path / "store.db")
    store = open_store(db)
    store.add_analysis(make_analysis(TEXT_A))
    store.close()
    (row,) = json.loads(run("posts", "--db", db, "--json").output)
    assert list(row) == [
        "id",
        "platform",
        "handle",
        "author",
        "date",
        "text",
        "article_ids",
        "articles",
    ]


def test_a_corrupted_store_is_one_red_line_and_exit_1(tmp_path):
    from tests.store.test_sql import corrupt

    db = tmp_path / "store.db"
    run("articles", "--db", str(db))  # creates an empty store
    corrupt(db)
    for command in ("articles", "people", "posts", "stories", "ingest"):
        args = [command, "--db", str(db)] + (["-", "-q"] if command == "ingest" else [])
        result = run(*args, input="text")
        assert result.exit_code == 1, (command, result.output)
        assert "error:" in result.output and "Traceback" not in result.output
        assert "not corrupted" in result.output or "cannot open the store" in result.output


def test_the_store_is_closed_when_a_command_fails(tmp_path, monkeypatch):
    from newsloom import api
    from newsloom.errors import StoreError
    from newsloom.store import SqlStore

    closed = []

    class Failing(SqlStore):
        def stories(self):
            raise StoreError("the disk went away; check it")

        def close(self) -> None:
            closed.append(self.url)
            super().close()

    monkeypatch.setattr(api, "open_store", Failing)
    result = run("stories", "--db", str(tmp_path / "s.db"))
    assert result.exit_code == 1 and "error: the disk went away" in result.output
    assert closed == [f"sqlite:///{tmp_path / 's.db'}"]


def test_eval_with_a_bad_data_folder_is_one_red_line_and_exit_1(tmp_path):
    result = run("eval", "ecbplus", "--data", str(tmp_path))
    assert result.exit_code == 1, result.output
    assert "error:" in result.output and "labels.jsonl" in result.output
    assert "Traceback" not in result.output


def test_an_unopenable_store_says_what_to_do(tmp_path):
    result = run("people", "--db", str(tmp_path / "no-such-dir" / "x.db"))
    assert result.exit_code == 1 and "--db URL" in result.output
