"""The list commands in every --format, and `newsloom export`, on a real SQLite store."""

from __future__ import annotations

import csv
import importlib.util
import io
import json

import pytest
from typer.testing import CliRunner

from newsloom import api
from newsloom.cli import app
from newsloom.render.tables import csv_cell
from newsloom.store import as_dict, open_store
from tests.store.test_sql import make_analysis
from tests.test_cli import ARTICLE_A, ARTICLE_B

LISTINGS = ["articles", "people", "posts", "stories", "quotes"]
# A stored value with everything CSV must quote: a comma, a double quote and a line break.
AWKWARD_SOURCE = 'Daily, "Example"\nEdition'
AWKWARD_TEXT = 'Jane Roe said: "We will, as ever, rebuild." The council agreed.'
# Quotes in the store, to read back through several export pages of this size.
SMALL_PAGE = 2


def run(*args: str):
    return CliRunner().invoke(app, list(args))


def stdout_text(result) -> str:
    """Standard output exactly as written (click's ``stdout`` turns CRLF into LF)."""
    return result.stdout_bytes.decode("utf-8")


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> str:
    folder = tmp_path_factory.mktemp("formats")
    (folder / "corpus").mkdir()
    (folder / "corpus" / "a.txt").write_text(ARTICLE_A, encoding="utf-8")
    (folder / "corpus" / "b.txt").write_text(ARTICLE_B, encoding="utf-8")
    url = str(folder / "store.db")
    done = run("ingest", str(folder / "corpus"), "--db", url, "--quiet")
    assert done.exit_code == 0, done.output
    store = open_store(url)
    try:  # an article (with a post) whose outlet and title need CSV quoting
        store.add_analysis(make_analysis(AWKWARD_TEXT, source=AWKWARD_SOURCE))
    finally:
        store.close()
    return url


def json_rows(db: str, command: str) -> list[dict]:
    result = run(command, "--db", db, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def as_csv_row(row: dict) -> dict[str, str]:
    return {key: csv_cell(value) for key, value in row.items()}


@pytest.mark.parametrize("command", LISTINGS)
def test_csv_parses_back_to_the_json_records(db, command):
    expected = json_rows(db, command)
    result = run(command, "--db", db, "--format", "csv")
    assert result.exit_code == 0, result.output
    reader = csv.DictReader(io.StringIO(stdout_text(result), newline=""))
    assert reader.fieldnames == list(expected[0])
    assert list(reader) == [as_csv_row(row) for row in expected]


@pytest.mark.parametrize("command", LISTINGS)
def test_jsonl_is_one_json_record_a_line(db, command):
    expected = json_rows(db, command)
    result = run(command, "--db", db, "--format", "jsonl")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert [json.loads(line) for line in lines] == expected
    assert [list(json.loads(line)) for line in lines] == [list(row) for row in expected]


@pytest.mark.parametrize("command", LISTINGS)
def test_json_is_the_indented_array_and_format_json_is_the_same(db, command):
    as_flag = run(command, "--db", db, "--json")
    as_format = run(command, "--db", db, "--format", "json")
    assert as_flag.exit_code == 0 and as_format.exit_code == 0
    assert as_flag.stdout_bytes == as_format.stdout_bytes
    rows = json.loads(as_flag.stdout)
    assert stdout_text(as_flag) == json.dumps(rows, ensure_ascii=False, indent=1) + "\n"


def test_a_comma_a_quote_and_a_line_break_round_trip_in_csv(db):
    result = run("articles", "--db", db, "--format", "csv")
    text = stdout_text(result)
    assert text.endswith("\r\n")  # RFC 4180 line ends
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    awkward = [row for row in rows if row["source"] == AWKWARD_SOURCE]
    assert len(awkward) == 1
    assert awkward[0]["title"] == AWKWARD_TEXT.split(".")[0]


def test_list_fields_are_joined_with_a_semicolon(db):
    people = json_rows(db, "people")
    result = run("people", "--db", db, "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(stdout_text(result), newline="")))
    several = [p for p in people if len(p["article_ids"]) > 1]
    assert several, "the fixture should name someone in two articles"
    by_name = {row["name"]: row for row in rows}
    for person in several:
        assert by_name[person["name"]]["article_ids"].split("; ") == person["article_ids"]


def test_the_table_stays_the_default(db):
    result = run("articles", "--db", db)
    assert result.exit_code == 0
    assert "articles (3)" in result.stdout


def test_json_and_another_format_together_are_refused(db):
    result = run("people", "--db", db, "--json", "--format", "csv")
    assert result.exit_code == 2
    assert "--json and --format csv" in result.output


def test_an_unknown_format_is_refused_naming_the_choices(db):
    result = run("people", "--db", db, "--format", "xml")
    assert result.exit_code == 2
    assert "xml" in result.output


def stored_records(db: str, what: str) -> list[dict]:
    store = open_store(db)
    try:
        records = {
            "quotes": lambda: store.quotes(limit=10_000),
            "posts": store.posts,
            "people": store.people,
            "stories": store.story_summaries,
            "articles": store.articles,
            "tracked_quotes": lambda: store.tracked_quotes(limit=10_000),
        }[what]()
        return [as_dict(r) for r in records]
    finally:
        store.close()


@pytest.mark.parametrize("what", list(api.EXPORT_RECORDS))
def test_export_jsonl_to_stdout_is_every_stored_record(db, what, monkeypatch):
    monkeypatch.setattr(api, "EXPORT_PAGE", SMALL_PAGE)  # several pages, read back whole
    expected = stored_records(db, what)
    assert expected, f"the fixture store has no {what}"
    result = run("export", "--db", db, "--what", what, "--format", "jsonl")
    assert result.exit_code == 0, result.output
    assert [json.loads(line) for line in result.stdout.splitlines()] == expected


def test_export_pages_through_more_quotes_than_one_page(db, monkeypatch):
    monkeypatch.setattr(api, "EXPORT_PAGE", SMALL_PAGE)
    assert len(stored_records(db, "quotes")) > 2 * SMALL_PAGE


@pytest.mark.parametrize("what", list(api.EXPORT_RECORDS))
def test_export_csv_to_a_file_has_the_record_fields_as_header(db, what, tmp_path):
    out = tmp_path / f"{what}.csv"
    result = run("export", "--db", db, "--what", what, "--out", str(out))
    assert result.exit_code == 0, result.output
    assert str(out) in result.output
    with out.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        rows = list(reader)
    assert reader.fieldnames == api.export_columns(what)
    assert rows == [as_csv_row(r) for r in stored_records(db, what)]


def test_export_out_dash_is_standard_output(db):
    to_dash = run("export", "--db", db, "--what", "posts", "--out", "-")
    plain = run("export", "--db", db, "--what", "posts")
    assert to_dash.exit_code == 0 and plain.exit_code == 0
    assert to_dash.stdout_bytes == plain.stdout_bytes
    assert stdout_text(plain).startswith("id,platform,handle,")


def test_export_needs_an_existing_store(tmp_path):
    missing = tmp_path / "nope.db"
    result = run("export", "--db", str(missing), "--what", "quotes")
    assert result.exit_code == 1
    assert "nope.db" in result.output


# -- Parquet, with the optional `parquet` extra (pyarrow) --------------------------------------

HAS_PYARROW = importlib.util.find_spec("pyarrow") is not None


@pytest.mark.skipif(HAS_PYARROW, reason="pyarrow is installed: the message cannot show")
def test_parquet_without_pyarrow_names_the_extra_and_makes_no_file(db, tmp_path):
    out = tmp_path / "quotes.parquet"
    result = run("export", "--db", db, "--what", "quotes", "--format", "parquet", "--out", str(out))
    assert result.exit_code == 1
    assert "newsloom[parquet]" in result.output and "--format csv" in result.output
    assert not out.exists()


@pytest.mark.parametrize("what", list(api.EXPORT_RECORDS))
def test_parquet_reads_back_to_the_stored_records(db, what, tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / f"{what}.parquet"
    result = run("export", "--db", db, "--what", what, "--format", "parquet", "--out", str(out))
    assert result.exit_code == 0, result.output
    table = pq.read_table(out)
    assert table.column_names == api.export_columns(what)
    assert table.to_pylist() == stored_records(db, what)


def test_parquet_to_standard_output(db):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    result = run("export", "--db", db, "--what", "posts", "--format", "parquet")
    assert result.exit_code == 0, result.output
    table = pq.read_table(pa.BufferReader(result.stdout_bytes))
    assert table.to_pylist() == stored_records(db, "posts")


@pytest.mark.postgres
def test_export_from_postgresql_pages_through_every_quote(pg_url, tmp_path, monkeypatch):
    monkeypatch.setattr(api, "EXPORT_PAGE", SMALL_PAGE)
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "a.txt").write_text(ARTICLE_A, encoding="utf-8")
    (corpus / "b.txt").write_text(ARTICLE_B, encoding="utf-8")
    assert run("ingest", str(corpus), "--db", pg_url, "--quiet").exit_code == 0
    expected = stored_records(pg_url, "quotes")
    assert len(expected) > SMALL_PAGE
    result = run("export", "--db", pg_url, "--what", "quotes", "--format", "jsonl")
    assert result.exit_code == 0, result.output
    assert [json.loads(line) for line in result.stdout.splitlines()] == expected
