"""The command line: parse arguments, call the library, turn domain errors into clear messages."""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import fields
from enum import StrEnum
from pathlib import Path
from types import TracebackType
from typing import Annotated, Any, TextIO, get_args

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from . import api
from .config import Settings, SettingsError, load_settings
from .errors import NewsloomError
from .models import Article, Skipped, TrackedVariant
from .render.json import corpus_text, write_atomic
from .render.tables import WRITERS
from .store import ArticleRow, PersonRow, PostRow, Store, TrackedQuoteRow, as_dict


def _out() -> Console:
    return Console()


def _err() -> Console:
    """stderr, one message per line: the terminal wraps long lines itself, and a pipe or a
    log file gets every message whole (rich would otherwise cut paths at 80 columns)."""
    return Console(stderr=True, soft_wrap=True)


def _message(label: str, style: str, text: str) -> Text:
    """A styled label and then ``text`` exactly as given: user data (paths, reasons, titles)
    is never read as rich markup, so ``[/]`` in a file name prints as ``[/]``."""
    return Text.assemble((label, style), " ", text)


def _fail(text: str, status: int = 1) -> typer.Exit:
    """Print one red ``error:`` line; the caller raises what this returns."""
    _err().print(_message("error:", "red", text))
    return typer.Exit(status)


class _ErrorEdge(typer.core.TyperGroup):
    """The one place where errors become messages: every command, `eval` ones included.

    A domain error (and an OS error on a file the user named) is a red ``error:`` line on
    stderr and exit status 1, never a traceback.
    """

    # ``ctx`` is click's Context, vendored by newer typer: typed Any to fit both.
    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except (NewsloomError, OSError) as exc:
            raise _fail(str(exc)) from exc


app = typer.Typer(
    cls=_ErrorEdge,
    help="newsloom: turn a pile of news articles into stories — who said what, what was posted, "
    "who is involved, and how outlets differ.",
    no_args_is_help=True,
    add_completion=False,
)
eval_app = typer.Typer(
    cls=_ErrorEdge, help="Score newsloom on public gold data.", no_args_is_help=True
)
app.add_typer(eval_app, name="eval")
train_app = typer.Typer(
    cls=_ErrorEdge,
    help="Retrain the models shipped in the package (needs the `train` extra).",
    no_args_is_help=True,
)
app.add_typer(train_app, name="train")

# The store `ingest`, `serve` and the listings use when neither --db, the config file nor
# NEWSLOOM_DB_URL names one (`analyze` then uses a throw-away store instead).
DEFAULT_DB = "newsloom.db"

PathsArg = Annotated[
    list[str], typer.Argument(help="Files, folders (recursive), globs, or - for stdin.")
]
DbOpt = Annotated[str | None, typer.Option("--db", help="Store URL or SQLite file path.")]
WorkersOpt = Annotated[
    int | None, typer.Option("--workers", "-w", min=1, help="Processes for the analysis.")
]
EngineOpt = Annotated[
    str | None,
    typer.Option("--engine", help="Where the analysis runs: local (processes) or dask."),
]
SchedulerOpt = Annotated[
    str | None,
    typer.Option(
        "--scheduler",
        help="Dask scheduler address (tcp://HOST:8786) for --engine dask; "
        "without it a local cluster of --workers processes runs.",
    ),
]
JsonFlag = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]


class ListFormat(StrEnum):
    """What the list commands print: a table for people, or a file format (render/tables.py)."""

    table = "table"
    json = "json"
    jsonl = "jsonl"
    csv = "csv"


TABLE = ListFormat.table
FormatOpt = Annotated[
    ListFormat,
    typer.Option(
        "--format",
        help="table, json (as --json), jsonl (one object a line) or csv (list items joined "
        "by '; ').",
    ),
]
ConfigOpt = Annotated[
    Path | None, typer.Option("--config", help="TOML file with a [newsloom] table of settings.")
]


def _settings(config: Path | None, **cli: Any) -> Settings:
    """Defaults < ``config`` < NEWSLOOM_* < the flags given; a bad setting is one line."""
    try:
        return load_settings(config, **cli)
    except SettingsError as exc:
        raise _fail(str(exc), status=2) from exc


def _store_url(settings: Settings) -> str:
    """The store the settings name, or ./newsloom.db."""
    return settings.db_url or DEFAULT_DB


@contextmanager
def _open_store(url: str, create: bool = False) -> Iterator[Store]:
    """The store at ``url``, closed however the command ends.

    Only the commands that write (``ingest``, ``analyze``, ``report PATH...``) create a
    store: a read of a path that does not exist is refused, naming it.
    """
    store = api.open_store(url, create=create)
    try:
        yield store
    finally:
        store.close()


class _RateColumn(ProgressColumn):
    """Articles per second, once there is a measure."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        shown = f"{speed:.1f}" if speed is not None else "?"
        return Text(f"{shown} articles/s", style="progress.data.speed")


class _ProgressReporter:
    """A progress bar on stderr for long runs, silent when stderr is not a terminal.

    One step per input: an article analysed or already stored, or an input skipped. The
    total is known when ``total`` is given (``api.count_inputs``); otherwise (stdin, JSON
    files) the bar streams without one.
    """

    def __init__(self, enabled: bool, total: int | None = None) -> None:
        self.err = _err()
        self.enabled = enabled and sys.stderr.isatty()
        self.progress = Progress(
            TextColumn("[bold]analysing"),
            BarColumn(),
            MofNCompleteColumn(),
            _RateColumn(),
            TimeElapsedColumn(),
            TextColumn("eta"),
            TimeRemainingColumn(),
            console=self.err,
            transient=True,
            disable=not self.enabled,
        )
        self.task = self.progress.add_task("articles", total=total)

    def __enter__(self) -> _ProgressReporter:
        self.progress.__enter__()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.progress.__exit__(exc_type, exc, tb)

    def __call__(self, kind: str, payload: object) -> None:
        if kind == "skipped" and isinstance(payload, Skipped):
            self.progress.console.print(
                _message("skipped", "yellow", f"{payload.origin}: {payload.reason}")
            )
            self.progress.advance(self.task)
        elif kind == "article" and isinstance(payload, Article):
            for warning in payload.warnings:  # read, but not as the user may assume
                self.progress.console.print(
                    _message("warning", "yellow", f"{payload.origin}: {warning}")
                )
        elif kind in ("analysed", "already_stored"):
            self.progress.advance(self.task)


def _summary(report: api.RunReport, where: str | None) -> None:
    err = _err()
    err.print(
        f"[bold]{report.read}[/] articles read ({report.added} new, "
        f"{report.already_stored} already stored), "
        f"[bold]{len(report.skipped)}[/] skipped; found {report.people} people, "
        f"{report.quotes} quotes, {report.posts} posts in {report.stories} stories."
    )
    if report.skipped:
        codes = Counter(s.code.value for s in report.skipped)
        err.print(Text("skipped: " + "; ".join(f"{n} × {c}" for c, n in sorted(codes.items()))))
    if where:
        err.print(Text(f"output: {where}"))


def _exit_status(report: api.RunReport) -> None:
    if report.read == 0:
        raise _fail("nothing could be read from the given paths")


def _progress(paths: Sequence[str], quiet: bool) -> _ProgressReporter:
    """The progress bar for reading ``paths``, its total counted first when it is shown."""
    shown = not quiet and sys.stderr.isatty()
    return _ProgressReporter(shown, api.count_inputs(paths) if shown else None)


# `--json -` writes the export to standard output (and nothing else goes there).
STDOUT = Path("-")


@app.command()
def analyze(
    paths: PathsArg,
    json_out: Annotated[
        Path | None,
        typer.Option("--json", help="Write the JSON export here (- for standard output)."),
    ] = None,
    db: DbOpt = None,
    workers: WorkersOpt = None,
    engine: EngineOpt = None,
    scheduler: SchedulerOpt = None,
    config: ConfigOpt = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Analyse articles and write the JSON export (stored too when --db is given)."""
    settings = _settings(config, db_url=db, workers=workers, engine=engine, scheduler=scheduler)
    to_stdout = json_out == STDOUT
    with _progress(paths, quiet) as progress:
        report, corpus = api.analyze(
            paths, None if to_stdout else json_out, settings, stdin=sys.stdin, on_event=progress
        )
    if to_stdout:
        sys.stdout.write(corpus_text(corpus))
        sys.stdout.flush()
    _summary(report, "standard output" if to_stdout else str(json_out) if json_out else None)
    _exit_status(report)


@app.command()
def ingest(
    paths: PathsArg,
    db: DbOpt = None,
    workers: WorkersOpt = None,
    engine: EngineOpt = None,
    scheduler: SchedulerOpt = None,
    config: ConfigOpt = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Read, analyse and store articles persistently (the same article is stored once)."""
    settings = _settings(config, db_url=db, workers=workers, engine=engine, scheduler=scheduler)
    with (
        _open_store(_store_url(settings), create=True) as store,
        _progress(paths, quiet) as progress,
    ):
        report = api.ingest(paths, store, settings, stdin=sys.stdin, on_event=progress)
        where = store.url
    _summary(report, where)
    _exit_status(report)


def _read_store(db: str | None, config: Path | None) -> Any:
    """The store a read-only command names (--db, config, env, ./newsloom.db); never created."""
    return _open_store(_store_url(_settings(config, db_url=db)))


def _list_format(fmt: ListFormat, as_json: bool) -> str:
    """The format a list command prints: ``--json`` is ``--format json``; both must agree."""
    if as_json and fmt not in (TABLE, ListFormat.json):
        raise _fail(f"--json and --format {fmt.value} disagree: give one of them", status=2)
    return "json" if as_json else fmt.value


def _print_rows(
    rows: Sequence[dict[str, Any]],
    shown: list[str],
    keys: list[str],
    title: str,
    fmt: str,
    total: int | None = None,
    offset: int = 0,
    whole: Sequence[str] = (),
) -> None:
    """``rows`` as a table of the ``shown`` columns, or every key (``keys``) in a file format.
    The ``whole`` columns (ids to copy) never fold: the others give way.

    A listing cut by ``--limit``/``--offset`` gives the ``total`` it was cut from: in the
    table's title, and on stderr beside a file format (whose output stays the rows alone).
    """
    cut = total is not None and (offset > 0 or len(rows) < total)
    counted = f"{offset + 1}–{offset + len(rows)} of {total}" if rows else f"0 of {total}"
    if fmt != TABLE.value:
        WRITERS[fmt](rows, keys, sys.stdout)
        sys.stdout.flush()
        if cut:
            _err().print(Text(f"{title}: {counted}; --limit 0 lists them all"))
        return
    table = Table(title=f"{title} ({counted if cut else len(rows)})")
    for col in shown:
        table.add_column(col, overflow="fold", no_wrap=col in whole)
    for row in rows:
        table.add_row(*[_cell(row.get(col)) for col in shown])
    _out().print(table)


def _keys(record: type, *extra: str) -> list[str]:
    """The keys of a listing's rows: the record's fields in order, then ``extra``."""
    return [f.name for f in fields(record)] + list(extra)


def _cell(value: Any) -> Text:
    """A table cell shown as stored (a Text, so a title like ``[b]x`` is not markup)."""
    if value is None:
        return Text("")
    if isinstance(value, list | tuple):
        return Text(", ".join(str(v) for v in value) if len(value) <= 4 else f"{len(value)} items")
    return Text(str(value))


@app.command()
def articles(
    db: DbOpt = None,
    config: ConfigOpt = None,
    as_json: JsonFlag = False,
    fmt: FormatOpt = TABLE,
    limit: int = 0,
) -> None:
    """List stored articles."""
    chosen = _list_format(fmt, as_json)
    with _read_store(db, config) as store:
        rows = [as_dict(a) for a in store.articles(limit or None)]
    shown = ["id", "source", "published", "title", "origin"]
    _print_rows(rows, shown, _keys(ArticleRow), "articles", chosen)


@app.command()
def people(
    db: DbOpt = None, config: ConfigOpt = None, as_json: JsonFlag = False, fmt: FormatOpt = TABLE
) -> None:
    """List people found in stored articles, with ages and roles."""
    chosen = _list_format(fmt, as_json)
    with _read_store(db, config) as store:
        rows = [{**as_dict(p), "articles": len(p.article_ids)} for p in store.people()]
    shown = ["name", "ages", "roles", "articles"]
    _print_rows(rows, shown, _keys(PersonRow, "articles"), "people", chosen)


@app.command()
def posts(
    db: DbOpt = None, config: ConfigOpt = None, as_json: JsonFlag = False, fmt: FormatOpt = TABLE
) -> None:
    """List embedded social posts found in stored articles."""
    chosen = _list_format(fmt, as_json)
    with _read_store(db, config) as store:
        rows = [{**as_dict(p), "articles": len(p.article_ids)} for p in store.posts()]
    shown = ["handle", "author", "date", "text", "articles"]
    _print_rows(rows, shown, _keys(PostRow, "articles"), "posts", chosen)


# The keys of a `newsloom stories` row (a story's counts, not its analysis).
STORY_KEYS = ["id", "title", "articles", "quotes", "posts"]


@app.command()
def stories(
    db: DbOpt = None, config: ConfigOpt = None, as_json: JsonFlag = False, fmt: FormatOpt = TABLE
) -> None:
    """List stories in the store."""
    chosen = _list_format(fmt, as_json)
    with _read_store(db, config) as store:
        rows = [
            {
                "id": s.id,
                "title": s.title,
                "articles": len(s.article_ids),
                "quotes": len(s.quotes),
                "posts": len(s.posts),
            }
            for s in store.stories()
        ]
    _print_rows(rows, STORY_KEYS, STORY_KEYS, "stories", chosen)


# The columns of the `newsloom quotes` table: counts and dates joined so that the wording keeps
# room at 80 columns (its file formats hold every TrackedQuoteRow key apart).
TRACKED_COLUMNS = ["id", "speaker", "text", "seen", "dates"]
# How a mention words its tracked quote (``--variant``; models.TrackedVariant).
TRACKED_VARIANTS = get_args(TrackedVariant)


@app.command()
def quotes(
    speaker: Annotated[
        str | None,
        typer.Option("--speaker", help="Only this speaker's quotes (the name, any case)."),
    ] = None,
    query: Annotated[
        str | None,
        typer.Option("--q", help="Only quotes whose wording holds this text (any case)."),
    ] = None,
    variant: Annotated[
        str | None,
        typer.Option(
            "--variant",
            help="Only quotes with a mention worded so: " + ", ".join(TRACKED_VARIANTS) + ".",
        ),
    ] = None,
    limit: Annotated[int, typer.Option(min=0, help="At most N quotes (0: all).")] = 100,
    offset: Annotated[int, typer.Option(min=0, help="Skip the first N quotes.")] = 0,
    db: DbOpt = None,
    config: ConfigOpt = None,
    as_json: JsonFlag = False,
    fmt: FormatOpt = TABLE,
) -> None:
    """List tracked quotes (one utterance followed across stories), most mentioned first."""
    chosen = _list_format(fmt, as_json)
    if variant is not None and variant not in TRACKED_VARIANTS:
        raise _fail(
            f"--variant {variant!r} is no variant; variants: {', '.join(TRACKED_VARIANTS)}",
            status=2,
        )
    with _read_store(db, config) as store:
        total = store.count_tracked_quotes(speaker, query, variant)
        found = store.tracked_quotes(
            speaker, query, limit=limit or total, offset=offset, variant=variant
        )
    rows = [as_dict(q) for q in found]
    if chosen == TABLE.value:
        from .render.terminal import counted, date_range

        rows = [
            {
                **r,
                "seen": "\n".join(counted(r[k], k) for k in ("mentions", "outlets", "stories")),
                "dates": date_range(r["first_date"], r["last_date"]),
            }
            for r in rows
        ]
    keys = _keys(TrackedQuoteRow)
    _print_rows(rows, TRACKED_COLUMNS, keys, "tracked quotes", chosen, total, offset, ["id"])


class ExportFormat(StrEnum):
    """The formats `newsloom export` writes (a table is for people, not files)."""

    csv = "csv"
    jsonl = "jsonl"
    parquet = "parquet"  # needs pyarrow (the `parquet` extra)


class ExportWhat(StrEnum):
    """The rows `newsloom export` writes: the keys of ``api.EXPORT_RECORDS``."""

    quotes = "quotes"
    posts = "posts"
    people = "people"
    stories = "stories"
    articles = "articles"
    tracked_quotes = "tracked_quotes"


@app.command()
def export(
    what: Annotated[
        ExportWhat,
        typer.Option(
            "--what",
            help="Which rows: quotes, posts, people, stories, articles or tracked_quotes.",
        ),
    ],
    fmt: Annotated[
        ExportFormat,
        typer.Option("--format", help="csv, jsonl or parquet (needs the parquet extra)."),
    ] = (ExportFormat.csv),
    out: Annotated[
        Path | None,
        typer.Option("--out", help="File to write (standard output when absent or -)."),
    ] = None,
    db: DbOpt = None,
    config: ConfigOpt = None,
) -> None:
    """Export every stored row of one kind as CSV or JSON Lines, for analysts."""
    to_stdout = out is None or out == STDOUT
    if fmt is ExportFormat.parquet:
        _export_parquet(what.value, None if to_stdout else out, db, config)
        return
    columns = api.export_columns(what.value)
    with _read_store(db, config) as store:
        rows = api.export_rows(store, what.value)
        if to_stdout or out is None:
            _write_export(rows, columns, fmt.value, sys.stdout)
            return
        # newline="": the csv module writes its own RFC 4180 line ends.
        with out.open("w", encoding="utf-8", newline="") as handle:
            _write_export(rows, columns, fmt.value, handle)
    _err().print(Text(f"{what.value}: {out}"))


def _export_parquet(what: str, out: Path | None, db: str | None, config: Path | None) -> None:
    """Every row of ``what`` as Parquet to ``out`` (standard output when None)."""
    from .render.parquet import pyarrow_module, write_parquet

    pyarrow_module()  # without pyarrow, say so before any file is made
    record = api.EXPORT_RECORDS[what]
    with _read_store(db, config) as store:
        rows = api.export_rows(store, what)
        if out is None:
            write_parquet(rows, record, sys.stdout.buffer)
            sys.stdout.buffer.flush()
            return
        with out.open("wb") as handle:
            write_parquet(rows, record, handle)
    _err().print(Text(f"{what}: {out}"))


def _write_export(rows: Iterable[dict[str, Any]], columns: list[str], fmt: str, to: TextIO) -> None:
    WRITERS[fmt](rows, columns, to)
    to.flush()


@app.command()
def story(
    story_id: Annotated[str, typer.Argument(help="Story id (a unique prefix is enough).")],
    db: DbOpt = None,
    config: ConfigOpt = None,
    as_json: JsonFlag = False,
) -> None:
    """Show one story: articles, quotes with variants, posts, people, timeline."""
    with _read_store(db, config) as store:
        found = store.story(story_id)
        moved = store.story_redirect(story_id) if found is None else None
        if moved is not None:
            # On stderr, so that --json output stays one document.
            _err().print(f"story {story_id} is now story {moved} (merged into it); showing that")
            found = store.story(moved)
    if found is None:
        raise _fail(f"no story with id {story_id!r}; `newsloom stories` lists them")
    if as_json:
        typer.echo(found.model_dump_json(indent=1))
        return
    from .render.terminal import print_story

    print_story(_out(), found)


@app.command()
def quote(
    tracked_id: Annotated[
        str, typer.Argument(help="Tracked quote id (a unique prefix is enough).")
    ],
    db: DbOpt = None,
    config: ConfigOpt = None,
    as_json: JsonFlag = False,
) -> None:
    """Show one tracked quote: every outlet's wording over time, with the words changed."""
    with _read_store(db, config) as store:
        found = store.tracked_quote(tracked_id)
        first = store.article_text(found.first_article_id) if found and not as_json else None
    if found is None:
        raise _fail(f"no tracked quote with id {tracked_id!r}; `newsloom quotes` lists them")
    if as_json:
        typer.echo(found.model_dump_json(indent=1))
        return
    from .render.terminal import print_tracked_quote

    print_tracked_quote(_out(), found, first.title if first else None)


@app.command()
def report(
    paths: Annotated[
        list[str] | None, typer.Argument(help="Files, folders, globs or - to analyse first.")
    ] = None,
    out: Annotated[
        Path,
        typer.Option(
            "--out", help="Folder for the site (index.html, one page per story and article)."
        ),
    ] = Path("newsloom-report"),
    db: DbOpt = None,
    workers: WorkersOpt = None,
    config: ConfigOpt = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Write a static HTML site of the stories (works from file://, no server needed)."""
    import tempfile

    from .render.html import write_report

    settings = _settings(config, db_url=db, workers=workers)
    if not paths and not settings.db_url:
        raise _fail("give articles to analyse (PATH...) or a store to report (--db)", status=2)
    with tempfile.TemporaryDirectory(prefix="newsloom-") as tmp:
        url = settings.db_url or f"sqlite:///{Path(tmp) / 'report.db'}"
        # Articles to analyse may start a store; a store only reported on must exist.
        with _open_store(url, create=bool(paths)) as store:
            run = None
            if paths:
                with _progress(paths, quiet) as progress:
                    run = api.ingest(paths, store, settings, stdin=sys.stdin, on_event=progress)
            summary = write_report(store, out, run.article_ids if run else None)
    if run is not None:
        _summary(run, None)
        _exit_status(run)
    _err().print(
        Text(
            f"{summary.stories} stories, {summary.articles} article pages, "
            f"{len(summary.lists)} lists: {summary.index}"
        )
    )


LOOPBACK = ("127.0.0.1", "localhost", "::1")


@app.command()
def serve(
    db: DbOpt = None,
    host: Annotated[
        str, typer.Option(help="Address to listen on (loopback by default).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port to listen on.")] = 8000,
    token: Annotated[
        str | None,
        typer.Option(envvar="NEWSLOOM_TOKEN", help="Bearer token that writes (POST) must send."),
    ] = None,
    max_body: Annotated[
        int, typer.Option("--max-body", min=1, help="Largest request body in bytes (413 above).")
    ] = 2_000_000,
    allowed_host: Annotated[
        list[str] | None,
        typer.Option(
            "--allowed-host",
            envvar="NEWSLOOM_ALLOWED_HOSTS",
            help="A further name clients may send as Host (repeatable; * for any). "
            "Loopback names and --host are always allowed; other names get a 400.",
        ),
    ] = None,
    config: ConfigOpt = None,
) -> None:
    """Serve story pages and the JSON API (OpenAPI at /openapi.json) from a store."""
    import uvicorn

    from .web import create_app

    settings = _settings(config, db_url=db)
    url = _store_url(settings)
    with _open_store(url):  # a store that does not exist is refused before listening
        pass
    exposed = host not in LOOPBACK
    if exposed and not token:
        _err().print(
            _message(
                "warning:",
                "yellow",
                f"listening on {host} without --token: writes (POST) are disabled",
            )
        )
    web_app = create_app(
        url,
        token=token,
        max_body_bytes=max_body,
        writes_need_token=exposed,
        host=host,
        allowed_hosts=allowed_host or (),
        settings=settings.model_copy(update={"db_url": url}),
    )
    uvicorn.run(web_app, host=host, port=port, log_level="info")


@app.command()
def schema() -> None:
    """Print the JSON Schema of the export (generated from the models)."""
    from .render.json import corpus_schema

    typer.echo(json.dumps(corpus_schema(), indent=1))


DataOpt = Annotated[
    Path, typer.Option("--data", exists=True, file_okay=False, help="Gold data folder.")
]


@eval_app.command("polnear")
def eval_polnear(
    data: DataOpt,
    split: Annotated[str, typer.Option(help="train or dev (test is withheld).")] = "dev",
    peers: Annotated[
        bool, typer.Option(help="Also run textacy's extractor for comparison.")
    ] = True,
    classes: Annotated[
        Path | None,
        typer.Option(
            "--classes",
            help="Labelled dev quotes (TSV) for the speaker accuracy by error class, e.g. "
            "tests/data/polnear_dev_speaker_classes.tsv in a checkout.",
        ),
    ] = None,
    json_out: Annotated[
        Path | None,
        typer.Option("--json", help="Also write the report as JSON here (- for standard output)."),
    ] = None,
) -> None:
    """Quote extraction and speaker attribution scores on PolNeAR: newsloom's speaker model and
    its rules alone, beside textacy."""
    from .eval.polnear import format_report, run_eval

    report = run_eval(data, split, with_peers=peers, classes=classes)
    _print_report(report, format_report, json_out)


def _print_report(
    report: dict[str, Any], format_report: Callable[[dict[str, Any]], Any], json_out: Path | None
) -> None:
    """An eval report as tables, or as JSON to ``json_out`` (tables too) or standard output."""
    text = json.dumps(report, ensure_ascii=False, indent=1) + "\n"
    if json_out == STDOUT:
        sys.stdout.write(text)
        return
    if json_out is not None:
        write_atomic(json_out, text)
    _out().print(format_report(report))


@eval_app.command("quote-links")
def eval_quote_links(
    data: DataOpt,
    pairs: Annotated[
        Path,
        typer.Option(
            help="Labelled pairs of quoted spans (TSV), e.g. tests/data/quote_link_pairs.tsv "
            "in a checkout."
        ),
    ],
    json_out: Annotated[
        Path | None,
        typer.Option("--json", help="Also write the report as JSON here (- for standard output)."),
    ] = None,
) -> None:
    """Quote tracking on labelled pairs: precision, recall and F1 of linking two spans into one
    tracked quote, for all pairs, pairs a week apart at most, and pairs further apart."""
    from .eval.quote_tracking import format_report, run_quote_link_eval

    if not pairs.is_file():
        raise _fail(f"{pairs}: no such pairs file")
    report = run_quote_link_eval(data, pairs)
    _print_report(report, format_report, json_out)


@eval_app.command("facts")
def eval_facts(
    data: DataOpt,
    labels: Annotated[
        list[Path],
        typer.Option(
            "--labels",
            help="A labels file (TSV), e.g. tests/data/fact_pairs.tsv in a checkout; repeat for "
            "several. Its header row says which kind of labels it holds.",
        ),
    ],
    json_out: Annotated[
        Path | None,
        typer.Option("--json", help="Also write the reports as JSON here (- for standard output)."),
    ] = None,
) -> None:
    """Facts stated differently on labelled pairs of ECB+ statements (precision and recall of
    conflicts, of same-subject-and-quantity, the status accuracy) and credited sources on
    labelled candidates (precision and recall); each --labels file's header says its kind."""
    from .eval.labels import kind_of, label_kinds

    kinds = label_kinds()
    runs = [(path, kind_of(path, kinds)) for path in labels]
    reports = {str(path): kind.run(data, path) for path, kind in runs}
    formats = {str(path): kind.format for path, kind in runs}

    def format_all(all_reports: dict[str, Any]) -> str:
        return "\n\n".join(f"{name}\n{formats[name](r)}" for name, r in all_reports.items())

    _print_report(reports, format_all, json_out)


@eval_app.command("ecbplus")
def eval_ecbplus(
    data: DataOpt,
    order: Annotated[str, typer.Option(help="batch, stream or both.")] = "both",
    seed: Annotated[int, typer.Option(help="Shuffle seed for the streaming order.")] = 0,
    orders: Annotated[
        int,
        typer.Option(help="Streaming orders to run (seeds SEED, SEED+1, ...), with mean and min."),
    ] = 1,
) -> None:
    """Story clustering scores on ECB+ (BCubed, pairwise, ARI, AMI), beside TF-IDF peers."""
    from .eval.ecbplus import format_report, run_eval

    _out().print(format_report(run_eval(data, order=order, seed=seed, orders=orders)), markup=False)


@train_app.command("speakers")
def train_speakers(
    data: DataOpt,
    out: Annotated[
        Path | None,
        typer.Option(help="Model file to write; the one shipped in the package by default."),
    ] = None,
    limit: Annotated[
        int | None,
        typer.Option(min=1, help="Train on the first N train articles only (a smoke run)."),
    ] = None,
) -> None:
    """The speaker ranker: trained on PolNeAR train, its size read from dev and train's folds
    held out (fixed seed)."""
    from importlib.util import find_spec

    if find_spec("lightgbm") is None:
        raise NewsloomError("training needs the `train` extra: pip install 'newsloom[train]'")
    from .train.speakers import train_from_polnear

    figures = train_from_polnear(data, out, limit)
    console = _out()
    for key, value in figures.items():
        console.print(f"{key}: {value:.4f}" if isinstance(value, float) else f"{key}: {value}")


def main() -> None:
    app()


if __name__ == "__main__":
    main()
