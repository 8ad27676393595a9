"""Settings: defaults < file < environment < CLI, frozen once built."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from newsloom.config import load_settings


@pytest.mark.parametrize(
    ("file_workers", "env_workers", "cli_workers", "expected"),
    [
        (None, None, None, 1),
        (3, None, None, 3),
        (3, "4", None, 4),
        (3, "4", 5, 5),
        (None, None, 2, 2),
    ],
)
def test_precedence(tmp_path, monkeypatch, file_workers, env_workers, cli_workers, expected):
    cfg = None
    if file_workers is not None:
        cfg = tmp_path / "newsloom.toml"
        cfg.write_text(f"[newsloom]\nworkers = {file_workers}\n")
    if env_workers is not None:
        monkeypatch.setenv("NEWSLOOM_WORKERS", env_workers)
    else:
        monkeypatch.delenv("NEWSLOOM_WORKERS", raising=False)
    assert load_settings(cfg, workers=cli_workers).workers == expected


def test_settings_are_frozen():
    settings = load_settings(None)
    with pytest.raises(ValidationError):
        settings.workers = 3  # type: ignore[misc]


def test_bad_value_is_refused():
    with pytest.raises(ValidationError):
        load_settings(None, workers=0)
