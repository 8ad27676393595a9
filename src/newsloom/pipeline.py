"""The per-article stage contract: what a stage is, and the checks a pipeline passes when built.

A stage is a function ``(ctx: StageContext) -> None`` that reads the fields it ``requires``
from ``ctx.analysis`` (or ``ctx.doc``) and writes the ``ArticleAnalysis`` fields it
``assigns``. Each module of ``newsloom.analyze.stages`` declares one ``StageSpec``; that
package's ``STAGES`` tuple lists them in pipeline order (nothing registers itself on import).
``build_pipeline(STAGES, names)`` picks the stages asked for, in declared order, and refuses at
build time (the way spaCy validates its factories): a name that is not declared, a
``requires``/``assigns`` name that is not an ``ArticleAnalysis`` field, and a requirement no
earlier stage assigns. tests/test_stage_contract.py runs every stage on the example corpus and
fails when one changes a field it does not declare.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .config import Settings
from .errors import StageError
from .models import Article, ArticleAnalysis

# What every stage may read before any stage has run (``doc`` is on the context, not a field).
PROVIDED = frozenset({"article", "doc"})
# What a stage may write: the fields of the analysis record.
ASSIGNABLE = frozenset(ArticleAnalysis.model_fields)


@dataclass
class StageContext:
    article: Article
    doc: Any  # spacy.tokens.Doc over article.text (exact offsets)
    settings: Settings
    analysis: ArticleAnalysis


StageFn = Callable[[StageContext], None]


@dataclass(frozen=True)
class StageSpec:
    """One stage: its name, its function, and the fields it reads and writes."""

    name: str
    fn: StageFn
    requires: tuple[str, ...]
    assigns: tuple[str, ...]


def check_declaration(stages: Sequence[StageSpec]) -> None:
    """Refuse duplicate names and ``requires``/``assigns`` names that are no field."""
    names = [s.name for s in stages]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise StageError(f"stage(s) {', '.join(twice)} declared twice; give each stage one name")
    for spec in stages:
        unknown = [r for r in spec.requires if r not in ASSIGNABLE | PROVIDED]
        unknown += [a for a in spec.assigns if a not in ASSIGNABLE]
        if unknown:
            raise StageError(
                f"stage '{spec.name}' declares {', '.join(unknown)}, which is no ArticleAnalysis "
                f"field; known: {', '.join(sorted(ASSIGNABLE | PROVIDED))}"
            )


def build_pipeline(stages: Sequence[StageSpec], names: Iterable[str] = ()) -> list[StageSpec]:
    """The stages of ``stages`` called ``names`` (all when empty), in declared order, checked."""
    check_declaration(stages)
    declared = {s.name: s for s in stages}
    wanted = list(dict.fromkeys(names)) or list(declared)
    unknown = [n for n in wanted if n not in declared]
    if unknown:
        raise StageError(
            f"unknown stage(s) {', '.join(unknown)}; known: {', '.join(sorted(declared))}"
        )
    available = set(PROVIDED)
    specs = []
    for spec in stages:
        if spec.name not in wanted:
            continue
        missing = [r for r in spec.requires if r not in available]
        if missing:
            raise StageError(
                f"stage '{spec.name}' requires {', '.join(missing)}, which no earlier stage "
                f"assigns; add the stage that provides it or drop '{spec.name}'"
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
