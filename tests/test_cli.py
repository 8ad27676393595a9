"""The command line end to end on a real SQLite store: what a user types, what they see."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
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


def test_schema_holds_the_speaker_words_confidence_and_kind():
    defs = json.loads(run("schema").output)["$defs"]
    mention = defs["ExportQuoteMention"]["properties"]
    assert {"speaker_text", "speaker_confidence", "speaker_kind"} <= set(mention)
    for confidence in (
        mention["speaker_confidence"],
        defs["Quote"]["properties"]["speaker_confidence"],
    ):
        number = next(t for t in confidence["anyOf"] if t.get("type") == "number")
        assert (number["minimum"], number["maximum"]) == (0.0, 1.0)
    kinds = next(t for t in mention["speaker_kind"]["anyOf"] if "enum" in t)["enum"]
    assert set(kinds) == {"person", "organisation", "group", "document", "unknown"}


def test_a_story_shows_doubtful_and_unresolved_speakers_as_such(tmp_path):
    from newsloom.store import open_store
    from newsloom.stories import consolidate
    from tests.stories.builders import speakers_in_doubt

    db = str(tmp_path / "doubt.db")
    analyses = speakers_in_doubt()
    story = consolidate(analyses)
    store = open_store(db)
    store.add_analyses(analyses)
    store.replace_stories([story])
    store.close()
    # Wide enough that no speaker cell wraps.
    result = CliRunner().invoke(app, ["story", story.id, "--db", db], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    rows = {line.split("│")[1].strip() for line in result.output.splitlines() if "│" in line}
    assert {"Jane Roe", "probably John Doe (55%)", "unclear speaker (“she”)"} <= rows


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
    from newsloom.store import open_store
    from tests.store.test_sql import corrupt

    db = tmp_path / "store.db"
    open_store(str(db)).close()  # an empty store
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

    def open_failing(url: str, create: bool = True) -> Failing:
        return Failing(url)

    monkeypatch.setattr(api, "open_store", open_failing)
    result = run("stories", "--db", str(tmp_path / "s.db"))
    assert result.exit_code == 1 and "error: the disk went away" in result.output
    assert closed == [f"sqlite:///{tmp_path / 's.db'}"]


def test_eval_with_a_bad_data_folder_is_one_red_line_and_exit_1(tmp_path):
    result = run("eval", "ecbplus", "--data", str(tmp_path))
    assert result.exit_code == 1, result.output
    assert "error:" in result.output and "labels.jsonl" in result.output
    assert "Traceback" not in result.output


def test_an_unopenable_store_says_what_to_do(tmp_path):
    result = run("ingest", "-", "--db", str(tmp_path / "no-such-dir" / "x.db"), input="text")
    assert result.exit_code == 1 and "--db URL" in result.output


# -- user data is shown as typed, never read as rich markup (issue 16, item 1) -------------


def test_markup_like_values_and_paths_are_shown_verbatim(tmp_path):
    folder = tmp_path / "in"
    (folder / "x[").mkdir(parents=True)
    (folder / "x[" / "y]z.txt").write_text(ARTICLE_B, encoding="utf-8")
    line = {"text": ARTICLE_A, "published": "[/]", "title": "[bold red]Bridge[/] vote"}
    (folder / "a.jsonl").write_text(json.dumps(line) + "\n", encoding="utf-8")
    (folder / "[bold]empty.txt").write_text("", encoding="utf-8")
    db = str(tmp_path / "store.db")
    result = run("ingest", str(folder), "--db", db, "-q")
    assert result.exit_code == 0, result.output
    assert "2 articles read" in " ".join(result.output.split())
    assert "[bold]empty.txt" in result.output
    listed = run("articles", "--db", db)
    assert listed.exit_code == 0 and "[bold" in listed.output, listed.output
    titles = {a["title"] for a in json.loads(run("articles", "--db", db, "--json").output)}
    assert "[bold red]Bridge[/] vote" in titles
    (story_id,) = [s["id"] for s in json.loads(run("stories", "--db", db, "--json").output)][:1]
    for args in (["stories"], ["people"], ["story", story_id]):
        shown = run(*args, "--db", db)
        assert shown.exit_code == 0, (args, shown.output)


# Random text with rich's markup syntax mixed in, which random text alone rarely hits.
MARKUP_BITS = st.sampled_from(["[/]", "[bold]", "[/bold]", "[link=x]", "[", "]", "\\[", ":x:"])
FIELD_TEXT = st.lists(
    st.one_of(MARKUP_BITS, st.text(st.characters(blacklist_categories=("Cs",)), max_size=10)),
    max_size=6,
).map("".join)
FILE_NAME = (
    st.lists(
        st.one_of(
            MARKUP_BITS.filter(lambda bit: "/" not in bit),
            st.text(
                st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="/\\"),
                max_size=10,
            ),
        ),
        min_size=1,
        max_size=4,
    )
    .map("".join)
    .filter(lambda n: n not in (".", "..") and not n.startswith(".") and len(n.encode()) < 200)
)


@given(
    fields=st.fixed_dictionaries(
        {"title": FIELD_TEXT, "source": FIELD_TEXT, "published": FIELD_TEXT, "url": FIELD_TEXT},
        optional={"text": FIELD_TEXT, "author": FIELD_TEXT},
    ),
    name=FILE_NAME,
)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_random_strings_in_fields_and_file_names_never_crash_ingest(fields, name):
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "in"
        folder.mkdir()
        record = {"text": ARTICLE_A, **fields}
        (folder / "a.jsonl").write_text(json.dumps(record) + "\n", encoding="utf-8")
        (folder / f"{name}.txt").write_text(fields.get("text") or ARTICLE_B, encoding="utf-8")
        db = str(Path(tmp) / "store.db")
        result = run("ingest", str(folder), "--db", db, "-q")
        assert result.exit_code in (0, 1), result.output
        assert not isinstance(result.exception, Exception) or isinstance(
            result.exception, SystemExit
        ), repr(result.exception)
        if result.exit_code == 0:
            stories = json.loads(run("stories", "--db", db, "--json").output)
            story = ["story", stories[0]["id"]] if stories else ["stories"]
            for args in (["articles"], ["people"], ["stories"], story):
                assert run(*args, "--db", db).exit_code == 0, args


# -- one message, one line, when stderr is piped (issue 16, item 6) -------------------------


def test_messages_are_not_wrapped_when_stderr_is_piped(tmp_path):
    deep = tmp_path / ("a-rather-long-folder-name-" * 4) / ("and-another-one-" * 4)
    deep.mkdir(parents=True)
    (deep / "empty-article-with-a-long-name.txt").write_text("", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "newsloom.cli", "analyze", str(deep), "-q"],
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "80"},
        timeout=120,
    )
    assert done.returncode == 1
    skipped = [line for line in done.stderr.splitlines() if line.startswith("skipped ")]
    assert len(skipped) == 1 and str(deep / "empty-article-with-a-long-name.txt") in skipped[0]
    assert any(len(line) > 80 for line in done.stderr.splitlines())


# -- settings reach the store (issue 17, item 3) --------------------------------------------


def test_db_url_comes_from_the_config_file_then_the_environment_then_db(
    corpus, tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("NEWSLOOM_DB_URL", raising=False)
    from_file, from_env, from_flag = (tmp_path / f"{n}.db" for n in ("file", "env", "flag"))
    config = tmp_path / "newsloom.toml"
    config.write_text(f'[newsloom]\ndb_url = "sqlite:///{from_file}"\n', encoding="utf-8")
    assert run("ingest", str(corpus), "--config", str(config), "-q").exit_code == 0
    assert from_file.exists() and not (tmp_path / "newsloom.db").exists()
    assert len(json.loads(run("stories", "--config", str(config), "--json").output)) >= 1
    monkeypatch.setenv("NEWSLOOM_DB_URL", str(from_env))
    assert run("ingest", str(corpus), "--config", str(config), "-q").exit_code == 0
    assert from_env.exists()
    assert len(json.loads(run("articles", "--json").output)) == 2
    ran = run("ingest", str(corpus), "--config", str(config), "--db", str(from_flag), "-q")
    assert ran.exit_code == 0 and from_flag.exists()
    assert not (tmp_path / "newsloom.db").exists()


def test_an_unknown_setting_is_one_line_naming_the_key_and_the_file(corpus, tmp_path):
    config = tmp_path / "settings.toml"
    config.write_text('[newsloom]\nworkers = 1\ndb_ulr = "x.db"\n', encoding="utf-8")
    result = run("ingest", str(corpus), "--config", str(config), "-q")
    assert result.exit_code == 2
    (line,) = result.output.strip().splitlines()
    assert "db_ulr" in line and "settings.toml" in line and "db_url" in line


def test_every_command_with_a_store_accepts_config():
    import typer.main

    group = typer.main.get_command(app)
    for name, command in group.commands.items():  # type: ignore[attr-defined]
        options = {opt for p in command.params for opt in getattr(p, "opts", [])}
        if "--db" in options:
            assert "--config" in options, name


# -- a mistyped --db is refused by the commands that only read (issue 17, item 4) ------------


@pytest.mark.parametrize(
    "command",
    [
        ["stories"],
        ["story", "abc"],
        ["people"],
        ["posts"],
        ["articles"],
        ["quotes"],
        ["quote", "abc"],
        ["export", "--what", "quotes"],
        ["report", "--out", "site"],
        ["serve", "--port", "0"],
    ],
)
def test_read_only_commands_refuse_a_store_that_does_not_exist(command, tmp_path):
    missing = tmp_path / "newsloon.db"
    # A subprocess with a time limit: a `serve` that wrongly starts must fail, not hang.
    try:
        done = subprocess.run(
            [sys.executable, "-m", "newsloom.cli", *command, "--db", str(missing)],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            timeout=30,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{command[0]} started on a store that does not exist")
    assert done.returncode == 1, done.stderr
    assert str(missing) in done.stderr and "newsloom ingest" in done.stderr
    assert not missing.exists() and not (tmp_path / "site").exists()


def test_ingest_and_analyze_create_their_store(corpus, tmp_path):
    for command in ("ingest", "analyze"):
        db = tmp_path / f"{command}.db"
        assert run(command, str(corpus), "--db", str(db), "-q").exit_code == 0
        assert db.exists()


# -- progress and counts (issue 17, item 6) --------------------------------------------------


def summary_counts(output: str) -> dict[str, int]:
    import re

    found = re.search(
        r"found (\d+) people, (\d+) quotes, (\d+) posts in (\d+) stories", " ".join(output.split())
    )
    assert found, output
    return dict(
        zip(("people", "quotes", "posts", "stories"), map(int, found.groups()), strict=True)
    )


def test_the_summary_counts_what_the_listings_then_show(tmp_path):
    from tests.conftest import EXAMPLES

    db = str(tmp_path / "store.db")
    first = run("ingest", str(EXAMPLES / "corpus"), "--db", db, "-q")
    assert first.exit_code == 0, first.output
    stories = json.loads(run("stories", "--db", db, "--json").output)
    listed = {
        "people": len(json.loads(run("people", "--db", db, "--json").output)),
        "posts": len(json.loads(run("posts", "--db", db, "--json").output)),
        "quotes": sum(s["quotes"] for s in stories),
        "stories": len(stories),
    }
    assert summary_counts(first.output) == listed
    again = run("ingest", str(EXAMPLES / "corpus"), "--db", db, "-q")
    assert "0 new" in again.output and summary_counts(again.output) == listed


def test_json_dash_writes_the_export_and_nothing_else_to_stdout(corpus, tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "newsloom.cli", "analyze", str(corpus), "--json", "-", "-q"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert len(json.loads(done.stdout)["articles"]) == 2
    assert "2 articles read" in done.stderr and not (tmp_path / "-").exists()


# A bound on the terminal test: loading spaCy and analysing four short articles takes seconds.
PTY_LIMIT_S = 120


def test_the_progress_bar_knows_its_total_and_shows_rate_and_eta(corpus, tmp_path):
    import pty

    lines = [{"text": ARTICLE_B.replace("Tuesday", day)} for day in ("Monday", "Friday")]
    (corpus / "more.jsonl").write_text(
        "".join(json.dumps(line) + "\n" for line in lines) + "\n", encoding="utf-8"
    )
    # 2 text files + 2 JSONL lines + the empty and the binary file: 6 inputs.
    args = [sys.executable, "-m", "newsloom.cli", "ingest", str(corpus), "--db", "s.db"]
    pid, fd = pty.fork()
    if pid == 0:  # the child: the CLI with a terminal on stdin/stdout/stderr
        os.chdir(tmp_path)
        os.execve(sys.executable, args, {**os.environ, "COLUMNS": "120", "TERM": "xterm"})
    shown = b""
    deadline = time.monotonic() + PTY_LIMIT_S
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 1.0)
            if ready and not (chunk := os.read(fd, 65536)):
                break
            shown += chunk if ready else b""
    except OSError:
        pass  # the child closed the terminal
    if time.monotonic() >= deadline:
        os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, shown.decode(errors="replace")
    frames = [f for f in shown.decode(errors="replace").split("\r") if "analysing" in f]
    assert frames and "0/6" in frames[0], frames[:3]
    assert "articles/s" in frames[0] and "eta" in frames[0], frames[0]


def test_python_dash_m_runs_the_command_line():
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "newsloom", "--help"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "ingest" in done.stdout and "report" in done.stdout
