"""The stage registry: ordering and build-time validation of requires/assigns."""

from __future__ import annotations

import pytest

from newsloom.errors import StageError
from newsloom.pipeline import STAGE_ORDER, Registry, StageSpec, build_pipeline


def test_all_registered_stages_build_in_design_order():
    specs = build_pipeline()
    names = [s.name for s in specs]
    assert names == [n for n in STAGE_ORDER if n in names]
    assert names, "no stage registered"


def test_unknown_stage_is_refused_with_the_known_names():
    with pytest.raises(StageError, match="unknown stage.*known:"):
        build_pipeline(["no-such-stage"])


def test_a_stage_whose_requirement_nobody_assigns_is_refused(monkeypatch):
    from newsloom import pipeline

    registry = Registry()
    registry.add(StageSpec("quotes", lambda ctx: None, ("entities",), ("quotes",)))
    monkeypatch.setattr(pipeline, "REGISTRY", registry)
    monkeypatch.setattr(pipeline, "_import_stage_modules", lambda: None)
    with pytest.raises(StageError, match="requires entities"):
        build_pipeline(["quotes"])


def test_requirements_met_by_an_earlier_stage_build(monkeypatch):
    from newsloom import pipeline

    registry = Registry()
    registry.add(StageSpec("entities", lambda ctx: None, ("doc",), ("entities",)))
    registry.add(StageSpec("quotes", lambda ctx: None, ("entities",), ("quotes",)))
    monkeypatch.setattr(pipeline, "REGISTRY", registry)
    monkeypatch.setattr(pipeline, "_import_stage_modules", lambda: None)
    assert [s.name for s in build_pipeline(["quotes", "entities"])] == ["entities", "quotes"]
