"""One Settings object, built once (defaults < file < environment < CLI) and never mutated."""

from __future__ import annotations

import os
import tomllib
import typing
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

ENV_PREFIX = "NEWSLOOM_"


class Settings(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    # Empty means "not given": `analyze` then uses a throw-away store (never ./newsloom.db),
    # and the commands that keep a store (`ingest`, `serve` ...) pick their own default.
    db_url: str = Field("", description="SQLAlchemy URL of the store; empty: not given.")
    workers: int = Field(1, ge=1, description="Processes for per-article analysis.")
    engine: Literal["local", "dask"] = Field(
        "local",
        description="Where the analysis runs: local processes, or a Dask distributed cluster.",
    )
    scheduler: str = Field(
        "",
        description="Dask scheduler address (tcp://HOST:8786) for engine dask; empty starts a "
        "LocalCluster of `workers` processes for the run.",
    )
    batch_size: int = Field(32, ge=1, description="Articles per nlp.pipe batch.")
    spacy_model: str = Field("", description="spaCy package to load; empty picks en_core_web_sm.")
    max_file_bytes: int = Field(
        20_000_000, description="Larger files are skipped with a reason (a real article is < 1 MB)."
    )
    # Publication dates outside [min_published_year, today + max_published_days_ahead] are
    # dropped at read time with a warning on the article (which is kept). Why these defaults:
    # the news newsloom reads (web articles, wire feeds, digitised 20th-century papers) is dated
    # after 1900, and older years in such data are placeholders (0001-01-01, 1800-01-01) or
    # misread numbers; two days ahead covers the date line (UTC+14 is a day ahead of UTC) and
    # wire copy dated for the next morning, while 9999-12-31 "never expires" values are not.
    # Archives of older papers lower min_published_year.
    min_published_year: int = Field(
        1900, ge=1, le=9999, description="Publication dates before this year are dropped."
    )
    max_published_days_ahead: int = Field(
        2, ge=0, description="Publication dates more than this many days after today are dropped."
    )
    # What one article may cost: analysis time and memory grow with its length (about 5 s and
    # 10 MB per 100,000 characters over a ~0.5 GB base, docs/benchmarks.md "Long articles").
    # Ten times the longest real articles (long-form features and full court rulings stay
    # under 200,000 characters): about 2 minutes and 0.7 GB at most. A POST body (2 MB) fits.
    max_article_chars: int = Field(
        2_000_000,
        ge=1,
        description="Longer article texts are skipped with a reason (analysis time and memory).",
    )
    # How the quotes stage chooses a speaker: the trained ranker over candidate speakers
    # (analyze/speakers/, retrained by `newsloom train speakers`) or the parse rules alone.
    speakers: Literal["model", "rules"] = Field(
        "model", description="Speaker choice: the trained ranker (model) or the rules alone."
    )
    # What a served list page may spend counting its total and facet values together (as
    # datasette's facet_time_limit_ms): a count over budget is shown as not counted, never
    # guessed. A page without counts takes 3-7 ms at 100k articles and its HTML about as much
    # again (docs/benchmarks.md, "Lists"), so 60 ms keeps a page under 100 ms.
    count_budget_ms: int = Field(
        60, ge=0, description="Time a list page may spend counting its total and facets (ms)."
    )
    stages: tuple[str, ...] = Field(
        (), description="Stages to run (names from analyze.stages); empty runs all."
    )


class SettingsError(ValueError):
    """Settings that cannot be used; the message names the key and where it came from."""


# The TOML table that holds the settings, so the file can hold other tools' tables too.
TABLE = "newsloom"


def _env_value(name: str, raw: str) -> Any:
    """An environment string as the setting takes it: lists are comma-separated."""
    if typing.get_origin(Settings.model_fields[name].annotation) is tuple:
        return tuple(part.strip() for part in raw.split(",") if part.strip())
    return raw


def _from_env() -> dict[str, tuple[Any, str]]:
    values: dict[str, tuple[Any, str]] = {}
    for name in Settings.model_fields:
        var = ENV_PREFIX + name.upper()
        raw = os.environ.get(var)
        if raw is not None:
            values[name] = (_env_value(name, raw), var)
    return values


def _from_file(config_file: Path) -> dict[str, tuple[Any, str]]:
    """The ``[newsloom]`` table of ``config_file``, each value with where it came from."""
    try:
        with open(config_file, "rb") as fh:
            doc = tomllib.load(fh)
    except OSError as exc:
        raise SettingsError(
            f"cannot read the settings file {config_file} ({exc.strerror or exc}); "
            "check the --config path"
        ) from exc
    except tomllib.TOMLDecodeError as exc:
        raise SettingsError(f"{config_file} is not valid TOML ({exc}); fix the file") from exc
    stray = [key for key in doc if key != TABLE]
    if stray:
        raise SettingsError(
            f"{config_file}: {stray[0]!r} is outside the [{TABLE}] table; "
            f"put the settings under a [{TABLE}] line"
        )
    table = doc.get(TABLE, {})
    known = list(Settings.model_fields)
    for key in table:
        if key not in known:
            raise SettingsError(
                f"{config_file}: unknown setting {key!r} in [{TABLE}]; "
                f"known settings: {', '.join(known)}"
            )
    where = f"{config_file} [{TABLE}]"
    return {key: (value, where) for key, value in table.items()}


def _one_line(exc: ValidationError, sources: dict[str, str]) -> str:
    """The first problem pydantic found, naming the setting and where its value came from."""
    first = exc.errors()[0]
    key = str(first["loc"][0]) if first["loc"] else "?"
    where = sources.get(key, "the defaults")
    return f"bad setting {key!r} (from {where}): {first['msg']}"


def load_settings(config_file: Path | None = None, **cli: Any) -> Settings:
    """Defaults, then ``config_file`` (TOML, ``[newsloom]`` table), then env, then CLI values.

    CLI values that are ``None`` mean "not given" and do not override. Raises
    ``SettingsError`` (one line naming the key and its source) for anything unusable.
    """
    given: dict[str, tuple[Any, str]] = {}
    if config_file is not None:
        given.update(_from_file(config_file))
    given.update(_from_env())
    given.update({k: (v, "the command line") for k, v in cli.items() if v is not None})
    try:
        return Settings(**{key: value for key, (value, _) in given.items()})
    except ValidationError as exc:
        raise SettingsError(_one_line(exc, {k: w for k, (_, w) in given.items()})) from exc
