"""Labelled sets scored by ``newsloom eval facts``: each kind is told apart by its header row.

A kind names the columns its file must start with, the scorer that runs it over a data folder
and the formatter of its report. A new kind of labels plugs in by adding it to ``label_kinds``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import InputError


@dataclass(frozen=True)
class LabelKind:
    name: str
    columns: tuple[str, ...]
    run: Callable[[Path, Path], dict[str, Any]]  # (data folder, labels file) -> report
    format: Callable[[dict[str, Any]], str]


def label_kinds() -> tuple[LabelKind, ...]:
    from . import credits, facts

    return (
        LabelKind("fact pairs", facts.COLUMNS, facts.run_facts_eval, facts.format_report),
        LabelKind(
            "credited sources",
            credits.COLUMNS,
            credits.run_credits_eval,
            credits.format_credits_report,
        ),
    )


def kind_of(path: Path, kinds: tuple[LabelKind, ...]) -> LabelKind:
    """The kind whose header row ``path`` opens with; a clear error naming the file if none."""
    try:
        with open(path, encoding="utf-8") as fh:
            header = tuple(fh.readline().rstrip("\n").split("\t"))
    except OSError as exc:
        raise InputError(str(path), f"cannot read the labels file ({exc.strerror})") from None
    for kind in kinds:
        if header == kind.columns:
            return kind
    known = "; ".join(f"{k.name}: {' '.join(k.columns)}" for k in kinds)
    raise InputError(str(path), f"header matches no kind of labels (known: {known})")
