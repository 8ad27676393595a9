"""One Settings object, built once (defaults < file < environment < CLI) and never mutated."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

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
    stages: tuple[str, ...] = Field(
        (), description="Stages to run (names from analyze.stages); empty runs all."
    )


def _from_env() -> dict[str, Any]:
    values: dict[str, Any] = {}
    for name in Settings.model_fields:
        raw = os.environ.get(ENV_PREFIX + name.upper())
        if raw is not None:
            values[name] = raw
    return values


def load_settings(config_file: Path | None = None, **cli: Any) -> Settings:
    """Defaults, then ``config_file`` (TOML, ``[newsloom]`` table), then env, then CLI values.

    CLI values that are ``None`` mean "not given" and do not override.
    """
    values: dict[str, Any] = {}
    if config_file is not None:
        with open(config_file, "rb") as fh:
            values.update(tomllib.load(fh).get("newsloom", {}))
    values.update(_from_env())
    values.update({k: v for k, v in cli.items() if v is not None})
    return Settings(**values)
