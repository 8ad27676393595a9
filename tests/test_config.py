"""Settings: defaults < file < environment < CLI, frozen once built."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from newsloom.config import SettingsError, load_settings


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
    with pytest.raises(SettingsError, match="workers"):
        load_settings(None, workers=0)


def test_an_unknown_key_in_the_file_is_named_with_the_file(tmp_path):
    config = tmp_path / "my.toml"
    config.write_text("[newsloom]\nworker = 2\n", encoding="utf-8")
    with pytest.raises(SettingsError) as caught:
        load_settings(config)
    message = str(caught.value)
    assert "\n" not in message
    assert "'worker'" in message and str(config) in message and "workers" in message


def test_a_bad_value_names_the_key_and_where_it_came_from(tmp_path, monkeypatch):
    config = tmp_path / "my.toml"
    config.write_text('[newsloom]\nbatch_size = "many"\n', encoding="utf-8")
    with pytest.raises(SettingsError, match=r"batch_size.*my\.toml"):
        load_settings(config)
    monkeypatch.setenv("NEWSLOOM_WORKERS", "zero")
    with pytest.raises(SettingsError, match="NEWSLOOM_WORKERS"):
        load_settings(None)


def test_keys_outside_the_newsloom_table_are_refused(tmp_path):
    config = tmp_path / "my.toml"
    config.write_text('db_url = "x.db"\n', encoding="utf-8")
    with pytest.raises(SettingsError, match=r"db_url.*\[newsloom\]"):
        load_settings(config)


def test_a_missing_or_broken_file_is_named(tmp_path):
    with pytest.raises(SettingsError, match="nope.toml"):
        load_settings(tmp_path / "nope.toml")
    broken = tmp_path / "broken.toml"
    broken.write_text("[newsloom\n", encoding="utf-8")
    with pytest.raises(SettingsError, match="broken.toml"):
        load_settings(broken)


def test_a_list_setting_reads_commas_from_the_environment(monkeypatch):
    monkeypatch.setenv("NEWSLOOM_STAGES", "boilerplate, entities")
    assert load_settings(None).stages == ("boilerplate", "entities")
