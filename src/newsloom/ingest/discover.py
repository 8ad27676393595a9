"""Expanding the paths a user gives into the files to read, in a deterministic order.

A path may be a file, a folder (walked recursively), a glob (``corpus/**/*.txt``; used when
the shell did not expand it) or ``-`` for stdin. Hidden files and folders (names starting
with ``.``) are left out of folder walks and globs, the way ``ls`` and the shell do; a hidden
file named explicitly is read. Order: the arguments in the order given; inside a folder,
entries sorted by name (files and sub-folders interleaved, like ``find | sort``); glob
matches sorted. A file reached through two overlapping arguments is read once.

Nothing here raises for a bad path: it yields ``Skipped`` with the reason and goes on.
"""

from __future__ import annotations

import glob
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ..models import SkipCode, Skipped

STDIN = "-"
GLOB_CHARS = frozenset("*?[")


@dataclass(frozen=True)
class Found:
    """One input to read: a file path exactly as given or found (relative stays relative),
    or ``-`` for stdin."""

    path: str

    @property
    def is_stdin(self) -> bool:
        return self.path == STDIN


def _hidden(name: str) -> bool:
    return name.startswith(".")


def _walk(folder: str, seen_dirs: set[str]) -> Iterator[str]:
    """Every non-hidden file under ``folder``, sorted by name at each level.

    Symlinked folders are followed once (``seen_dirs`` holds real paths, so a link loop ends).
    """
    real = os.path.realpath(folder)
    if real in seen_dirs:
        return
    seen_dirs.add(real)
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return  # unreadable sub-folder: its files are simply not found
    for entry in entries:
        if _hidden(entry.name):
            continue
        try:
            is_dir = entry.is_dir()
        except OSError:
            continue
        path = os.path.join(folder, entry.name)
        if is_dir:
            yield from _walk(path, seen_dirs)
        else:
            yield path


def discover(paths: Sequence[str]) -> Iterator[Found | Skipped]:
    """The inputs behind ``paths``, in order; a path that gives nothing yields ``Skipped``."""
    seen_files: set[str] = set()
    seen_dirs: set[str] = set()
    # Overlap is only possible between arguments; with one argument, remembering every file
    # would make memory grow with the corpus (the store dedupes by content id anyway).
    remember = len(paths) > 1

    def once(path: str) -> bool:
        if not remember:
            return True
        key = os.path.realpath(path)
        if key in seen_files:
            return False
        seen_files.add(key)
        return True

    for raw in paths:
        if raw == STDIN:
            yield Found(STDIN)
        elif os.path.isdir(raw):
            if os.path.realpath(raw) in seen_dirs:
                continue  # already walked through another argument
            empty = True
            for path in _walk(raw, seen_dirs):
                empty = False
                if once(path):
                    yield Found(path)
            if empty:
                yield Skipped(
                    origin=raw,
                    reason="folder holds no article files (hidden files are ignored); "
                    "point at the folder that holds the .txt, .jsonl or .html files",
                    code=SkipCode.NOT_FOUND,
                )
        elif os.path.lexists(raw):
            if once(raw):
                yield Found(raw)
        elif GLOB_CHARS.intersection(raw):
            matches = sorted(glob.glob(raw, recursive=True))
            if not matches:
                yield Skipped(
                    origin=raw,
                    reason="no file matches this pattern; check the pattern",
                    code=SkipCode.NOT_FOUND,
                )
            for match in matches:
                if os.path.isdir(match):
                    yield from (Found(p) for p in _walk(match, seen_dirs) if once(p))
                elif once(match):
                    yield Found(match)
        else:
            yield Skipped(
                origin=raw,
                reason="no such file or folder; check the path",
                code=SkipCode.NOT_FOUND,
            )
