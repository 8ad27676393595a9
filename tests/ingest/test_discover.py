"""Expanding paths: files, folders (recursive, hidden left out), globs, stdin; stable order."""

from __future__ import annotations

import os

import pytest

from newsloom.ingest.discover import Found, discover
from newsloom.models import Skipped


@pytest.fixture()
def tree(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for rel in [
        "c/b.txt",
        "c/a.txt",
        "c/sub/z.txt",
        "c/sub/deeper/y.jsonl",
        "c/m.html",
        "c/.hidden.txt",
        "c/.git/config",
        "c/sub/.cache/x.txt",
        "empty/.keep",
    ]:
        os.makedirs(os.path.dirname(rel), exist_ok=True)
        with open(rel, "w", encoding="utf-8") as fh:
            fh.write("x")
    os.makedirs("nothing")
    return tmp_path


def names(paths):
    return [f.path if isinstance(f, Found) else ("skipped", f.origin) for f in discover(paths)]


def test_folder_is_walked_sorted_recursively_without_hidden(tree):
    assert names(["c"]) == [
        "c/a.txt",
        "c/b.txt",
        "c/m.html",
        "c/sub/deeper/y.jsonl",
        "c/sub/z.txt",
    ]


def test_trailing_slash_and_absolute_paths_are_kept_as_given(tree):
    assert names(["c/sub/"])[0] == "c/sub/deeper/y.jsonl"
    absolute = str(tree / "c" / "a.txt")
    assert names([absolute]) == [absolute]


def test_arguments_keep_their_order_and_overlap_is_read_once(tree):
    assert names(["c/sub/z.txt", "c", "c/a.txt"]) == [
        "c/sub/z.txt",
        "c/a.txt",
        "c/b.txt",
        "c/m.html",
        "c/sub/deeper/y.jsonl",
    ]


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        ("c/*.txt", ["c/a.txt", "c/b.txt"]),
        ("c/**/*.txt", ["c/a.txt", "c/b.txt", "c/sub/z.txt"]),
        ("c/s*", ["c/sub/deeper/y.jsonl", "c/sub/z.txt"]),  # a matched folder is walked
        ("c/*.pdf", [("skipped", "c/*.pdf")]),
    ],
)
def test_globs(tree, pattern, expected):
    assert names([pattern]) == expected


def test_explicit_hidden_file_is_read(tree):
    assert names(["c/.hidden.txt"]) == ["c/.hidden.txt"]


@pytest.mark.parametrize(
    ("path", "reason"),
    [
        ("missing.txt", "no such file or folder"),
        ("empty", "folder holds no article files"),
        ("nothing", "folder holds no article files"),
    ],
)
def test_paths_that_give_nothing_are_skipped_with_a_reason(tree, path, reason):
    (item,) = list(discover([path]))
    assert isinstance(item, Skipped) and item.origin == path
    assert item.reason.startswith(reason)


def test_stdin_and_files_mix(tree):
    assert names(["-", "c/a.txt"]) == ["-", "c/a.txt"]


def test_symlink_loop_ends(tree):
    os.symlink("..", "c/sub/loop")
    assert names(["c"]) == ["c/a.txt", "c/b.txt", "c/m.html", "c/sub/deeper/y.jsonl", "c/sub/z.txt"]
