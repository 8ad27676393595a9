"""Docs that cannot drift: every CLI command has help text and a README mention."""

from __future__ import annotations

import typer.main

from newsloom.cli import app
from tests.conftest import REPO


def _commands(group, prefix=""):
    click_group = typer.main.get_command(group) if not hasattr(group, "commands") else group
    for name, cmd in click_group.commands.items():
        full = f"{prefix}{name}"
        if hasattr(cmd, "commands"):
            yield from _commands(cmd, full + " ")
        else:
            yield full, cmd


def test_every_command_has_help_and_a_readme_mention():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    commands = dict(_commands(app))
    assert {"analyze", "ingest", "articles", "people", "posts", "schema", "export"} <= set(commands)
    for name, cmd in commands.items():
        assert (cmd.help or "").strip(), f"`newsloom {name}` has no help text"
        assert f"newsloom {name}" in readme, f"README.md does not mention `newsloom {name}`"


def test_every_setting_is_listed_in_the_readme():
    from newsloom.config import ENV_PREFIX, Settings

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    for name in Settings.model_fields:
        assert f"`{name}`" in readme, f"README.md does not list the setting `{name}`"
        assert f"{ENV_PREFIX}{name.upper()}" in readme, (
            f"README.md lacks {ENV_PREFIX}{name.upper()}"
        )
