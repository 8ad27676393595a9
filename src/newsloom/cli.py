"""The command line: parse arguments, call the library, turn domain errors into clear messages."""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from . import api
from .config import Settings, load_settings
from .errors import NewsloomError
from .models import Article, Skipped
from .store import Store, as_dict


def _out() -> Console:
    return Console()


def _err() -> Console:
    return Console(stderr=True)


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
            _err().print(f"[red]error:[/] {escape(str(exc))}")
            raise typer.Exit(1) from exc


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
ConfigOpt = Annotated[
    Path | None, typer.Option("--config", help="TOML file with a [newsloom] table of settings.")
]


def _settings(config: Path | None, **cli: Any) -> Settings:
    try:
        return load_settings(config, **cli)
    except (OSError, ValueError) as exc:
        _err().print(f"[red]error:[/] bad settings: {exc}")
        raise typer.Exit(2) from exc


@contextmanager
def _open_store(url: str | None) -> Iterator[Store]:
    """The store at ``url`` (./newsloom.db when not given), closed however the command ends."""
    store = api.open_store(url or DEFAULT_DB)
    try:
        yield store
    finally:
        store.close()


class _ProgressReporter:
    """A progress bar on stderr for long runs, silent when stderr is not a terminal."""

    def __init__(self, enabled: bool) -> None:
        self.err = _err()
        self.enabled = enabled and sys.stderr.isatty()
        self.progress = Progress(
            TextColumn("[bold]analysing"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=self.err,
            transient=True,
            disable=not self.enabled,
        )
        self.task = self.progress.add_task("articles", total=None)
        self.seen = 0

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
                f"[yellow]skipped[/] {payload.origin}: {payload.reason}",
                markup=True,
                highlight=False,
            )
        elif kind == "article" and isinstance(payload, Article):
            for warning in payload.warnings:  # read, but not as the user may assume
                self.progress.console.print(
                    f"[yellow]warning[/] {payload.origin}: {warning}", markup=True, highlight=False
                )
            self.seen += 1
            self.progress.update(self.task, total=self.seen)
        elif kind == "analysed":
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
        err.print("skipped: " + "; ".join(f"{n} × {code}" for code, n in sorted(codes.items())))
    if where:
        err.print(f"output: {where}")


def _exit_status(report: api.RunReport) -> None:
    if report.read == 0:
        _err().print("[red]error:[/] nothing could be read from the given paths")
        raise typer.Exit(1)


@app.command()
def analyze(
    paths: PathsArg,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="Write the JSON export here.")
    ] = None,
    db: DbOpt = None,
    workers: WorkersOpt = None,
    engine: EngineOpt = None,
    scheduler: SchedulerOpt = None,
    config: ConfigOpt = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Analyse articles and write the JSON export (stored too when --db is given)."""
    settings = _settings(
        config, db_url=db or "", workers=workers, engine=engine, scheduler=scheduler
    )
    with _ProgressReporter(not quiet) as progress:
        report, _ = api.analyze(paths, json_out, settings, stdin=sys.stdin, on_event=progress)
    _summary(report, str(json_out) if json_out else None)
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
    settings = _settings(
        config, db_url=db or DEFAULT_DB, workers=workers, engine=engine, scheduler=scheduler
    )
    with _open_store(settings.db_url) as store, _ProgressReporter(not quiet) as progress:
        report = api.ingest(paths, store, settings, stdin=sys.stdin, on_event=progress)
        where = store.url
    _summary(report, where)
    _exit_status(report)


def _print_rows(
    rows: Sequence[dict[str, Any]], columns: list[str], title: str, as_json: bool
) -> None:
    if as_json:
        typer.echo(json.dumps(rows, ensure_ascii=False, indent=1))
        return
    table = Table(title=f"{title} ({len(rows)})")
    for col in columns:
        table.add_column(col, overflow="fold")
    for row in rows:
        table.add_row(*[_cell(row.get(col)) for col in columns])
    _out().print(table)


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value) if len(value) <= 4 else f"{len(value)} items"
    return str(value)


@app.command()
def articles(db: DbOpt = None, as_json: JsonFlag = False, limit: int = 0) -> None:
    """List stored articles."""
    with _open_store(db) as store:
        rows = [as_dict(a) for a in store.articles(limit or None)]
    _print_rows(rows, ["id", "source", "published", "title", "origin"], "articles", as_json)


@app.command()
def people(db: DbOpt = None, as_json: JsonFlag = False) -> None:
    """List people found in stored articles, with ages and roles."""
    with _open_store(db) as store:
        rows = [{**as_dict(p), "articles": len(p.article_ids)} for p in store.people()]
    _print_rows(rows, ["name", "ages", "roles", "articles"], "people", as_json)


@app.command()
def posts(db: DbOpt = None, as_json: JsonFlag = False) -> None:
    """List embedded social posts found in stored articles."""
    with _open_store(db) as store:
        rows = [{**as_dict(p), "articles": len(p.article_ids)} for p in store.posts()]
    _print_rows(rows, ["handle", "author", "date", "text", "articles"], "posts", as_json)


@app.command()
def stories(db: DbOpt = None, as_json: JsonFlag = False) -> None:
    """List stories in the store."""
    with _open_store(db) as store:
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
    _print_rows(rows, ["id", "title", "articles", "quotes", "posts"], "stories", as_json)


@app.command()
def story(
    story_id: Annotated[str, typer.Argument(help="Story id (a unique prefix is enough).")],
    db: DbOpt = None,
    as_json: JsonFlag = False,
) -> None:
    """Show one story: articles, quotes with variants, posts, people, timeline."""
    with _open_store(db) as store:
        found = store.story(story_id)
        moved = store.story_redirect(story_id) if found is None else None
        if moved is not None:
            # On stderr, so that --json output stays one document.
            _err().print(f"story {story_id} is now story {moved} (merged into it); showing that")
            found = store.story(moved)
    if found is None:
        _err().print(f"[red]error:[/] no story with id {story_id!r}; `newsloom stories` lists them")
        raise typer.Exit(1)
    if as_json:
        typer.echo(found.model_dump_json(indent=1))
        return
    from .render.terminal import print_story

    print_story(_out(), found)


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

    if not paths and not db:
        _err().print(
            "[red]error:[/] give articles to analyse (PATH...) or a store to report (--db)"
        )
        raise typer.Exit(2)
    with tempfile.TemporaryDirectory(prefix="newsloom-") as tmp:
        settings = _settings(
            config, db_url=db or f"sqlite:///{Path(tmp) / 'report.db'}", workers=workers
        )
        with _open_store(settings.db_url) as store:
            run = None
            if paths:
                with _ProgressReporter(not quiet) as progress:
                    run = api.ingest(paths, store, settings, stdin=sys.stdin, on_event=progress)
            summary = write_report(store, out, run.article_ids if run else None)
    if run is not None:
        _summary(run, None)
        _exit_status(run)
    _err().print(f"{summary.stories} stories, {summary.articles} article pages: {summary.index}")


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
) -> None:
    """Serve story pages and the JSON API (OpenAPI at /openapi.json) from a store."""
    import uvicorn

    from .web import create_app

    exposed = host not in LOOPBACK
    if exposed and not token:
        _err().print(
            f"[yellow]warning:[/] listening on {host} without --token: writes (POST) are disabled"
        )
    web_app = create_app(
        db or DEFAULT_DB,
        token=token,
        max_body_bytes=max_body,
        writes_need_token=exposed,
        host=host,
        allowed_hosts=allowed_host or (),
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
) -> None:
    """Quote extraction and speaker attribution scores on PolNeAR, beside textacy."""
    from .eval.polnear import format_report, run_eval

    _out().print(format_report(run_eval(data, split, with_peers=peers)))


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

    _out().print(format_report(run_eval(data, order=order, seed=seed, orders=orders)))


def main() -> None:
    app()


if __name__ == "__main__":
    main()
