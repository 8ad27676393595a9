"""The stage contract: declared order and build-time checks of names, requires and assigns."""

from __future__ import annotations

import pytest

from newsloom.analyze.stages import STAGES
from newsloom.errors import StageError
from newsloom.pipeline import StageContext, StageSpec, build_pipeline


def noop(ctx: StageContext) -> None:
    return None


ENTITIES = StageSpec("entities", noop, ("doc",), ("entities",))
QUOTES = StageSpec("quotes", noop, ("entities",), ("quotes",))

DESIGN_ORDER = [
    "boilerplate",
    "metadata",
    "posts",
    "entities",
    "quotes",
    "dates",
    "claims",
    "framing",
]


def test_every_declared_stage_builds_in_design_order():
    assert [s.name for s in build_pipeline(STAGES)] == DESIGN_ORDER


def test_stages_asked_for_come_in_declared_order():
    names = ["quotes", "posts", "entities", "boilerplate", "quotes"]
    assert [s.name for s in build_pipeline(STAGES, names)] == [
        "boilerplate",
        "posts",
        "entities",
        "quotes",
    ]


def test_unknown_stage_is_refused_with_the_known_names():
    with pytest.raises(StageError, match="unknown stage.*no-such-stage.*known:"):
        build_pipeline(STAGES, ["no-such-stage"])


def test_a_missing_stage_is_an_error_not_a_skip():
    without_quotes = tuple(s for s in STAGES if s.name != "quotes")
    with pytest.raises(StageError, match="unknown stage.*quotes"):
        build_pipeline(without_quotes, ["boilerplate", "quotes"])


def test_a_stage_whose_requirement_nobody_assigns_is_refused():
    with pytest.raises(StageError, match="stage 'quotes' requires entities"):
        build_pipeline((QUOTES,), ["quotes"])


def test_a_requirement_assigned_only_later_is_refused():
    with pytest.raises(StageError, match="stage 'quotes' requires entities"):
        build_pipeline((QUOTES, ENTITIES))


def test_requirements_met_by_an_earlier_stage_build():
    assert [s.name for s in build_pipeline((ENTITIES, QUOTES), ["quotes", "entities"])] == [
        "entities",
        "quotes",
    ]


@pytest.mark.parametrize(
    ("requires", "assigns", "unknown"),
    [
        ((), ("metadata",), "metadata"),  # not an ArticleAnalysis field
        (("paragraph",), ("posts",), "paragraph"),
        ((), ("doc",), "doc"),  # always provided, never assigned
    ],
)
def test_a_name_that_is_no_field_is_refused(requires, assigns, unknown):
    spec = StageSpec("odd", noop, requires, assigns)
    with pytest.raises(StageError, match=f"stage 'odd' declares {unknown}, which is no"):
        build_pipeline((spec,))


def test_an_undeclared_stage_is_checked_even_when_not_asked_for():
    odd = StageSpec("odd", noop, (), ("metadata",))
    with pytest.raises(StageError, match="'odd' declares metadata"):
        build_pipeline((ENTITIES, odd), ["entities"])


def test_field_names_and_provided_names_build():
    first = StageSpec("first", noop, ("doc", "article"), ("article", "paragraphs", "sentences"))
    second = StageSpec("second", noop, ("paragraphs", "sentences"), ("framing", "claims"))
    assert build_pipeline((first, second)) == [first, second]


def test_a_name_declared_twice_is_refused():
    with pytest.raises(StageError, match="entities declared twice"):
        build_pipeline((ENTITIES, ENTITIES, QUOTES))
