"""The per-article stage registry.

A stage is a function ``(ctx: StageContext) -> None`` that reads the fields it ``requires``
from ``ctx.analysis`` (or ``ctx.doc``) and writes the fields it ``assigns``. Stages register
themselves with ``@stage(...)``; ``build_pipeline`` orders them and refuses, at build time, a
stage whose requirements no earlier stage provides (the way spaCy validates its factories).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from .config import Settings
from .errors import StageError
from .models import Article, ArticleAnalysis

# What every stage may read before any stage has run.
PROVIDED = frozenset({"article", "doc"})

# The order DESIGN.md gives; a stage's position is its index here.
STAGE_ORDER = (
    "boilerplate",
    "metadata",
    "posts",
    "entities",
    "quotes",
    "dates",
    "claims",
    "framing",
)

# Modules that define the stages (imported when a pipeline is built, not at import time).
STAGE_MODULES = tuple(f"newsloom.analyze.{name}" for name in STAGE_ORDER)


@dataclass
class StageContext:
    article: Article
    doc: Any  # spacy.tokens.Doc over article.text (exact offsets)
    settings: Settings
    analysis: ArticleAnalysis


StageFn = Callable[[StageContext], None]


@dataclass(frozen=True)
class StageSpec:
    name: str
    fn: StageFn
    requires: tuple[str, ...]
    assigns: tuple[str, ...]


@dataclass
class Registry:
    stages: dict[str, StageSpec] = field(default_factory=dict)

    def add(self, spec: StageSpec) -> None:
        self.stages[spec.name] = spec


# The registry the @stage decorator writes to. Filled only by importing stage modules.
REGISTRY = Registry()


def stage(name: str, *, requires: Iterable[str] = (), assigns: Iterable[str] = ()):
    """Register a per-article stage under ``name``."""

    def wrap(fn: StageFn) -> StageFn:
        REGISTRY.add(StageSpec(name, fn, tuple(requires), tuple(assigns)))
        return fn

    return wrap


def _import_stage_modules() -> None:
    for module in STAGE_MODULES:
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:  # a stage module that exists but is broken must say so
                raise


def build_pipeline(names: Iterable[str] = ()) -> list[StageSpec]:
    """The stages to run, in order, with their requirements checked."""
    _import_stage_modules()
    wanted = list(names) or [n for n in STAGE_ORDER if n in REGISTRY.stages]
    unknown = [n for n in wanted if n not in REGISTRY.stages]
    if unknown:
        raise StageError(
            f"unknown stage(s) {', '.join(unknown)}; known: {', '.join(sorted(REGISTRY.stages))}"
        )
    ordered = sorted(wanted, key=lambda n: STAGE_ORDER.index(n) if n in STAGE_ORDER else 99)
    available = set(PROVIDED)
    specs = []
    for name in ordered:
        spec = REGISTRY.stages[name]
        missing = [r for r in spec.requires if r not in available]
        if missing:
            raise StageError(
                f"stage '{name}' requires {', '.join(missing)}, which no earlier stage assigns; "
                f"add the stage that provides it or drop '{name}'"
            )
        available.update(spec.assigns)
        specs.append(spec)
    return specs


def run_stages(specs: list[StageSpec], ctx: StageContext) -> ArticleAnalysis:
    for spec in specs:
        try:
            spec.fn(ctx)
        except Exception as exc:  # one bad article must not stop the run
            raise StageError(
                f"stage '{spec.name}' failed on {ctx.article.origin}: {exc!r}"
            ) from exc
    return ctx.analysis
