"""One Settings object, built once (defaults < file < environment < CLI) and never mutated."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

ENV_PREFIX = "NEWSLOOM_"


class Settings(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    # Empty means "not given": `analyze` then uses a throw-away store (never ./newsloom.db),
    # and the commands that keep a store (`ingest`, `serve` ...) pick their own default.
    db_url: str = Field("", description="SQLAlchemy URL of the store; empty: not given.")
    workers: int = Field(1, ge=1, description="Processes for per-article analysis.")
    batch_size: int = Field(32, ge=1, description="Articles per nlp.pipe batch.")
    spacy_model: str = Field("", description="spaCy package to load; empty picks en_core_web_sm.")
    max_file_bytes: int = Field(
        20_000_000, description="Larger files are skipped with a reason (a real article is < 1 MB)."
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
