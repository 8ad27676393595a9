"""`newsloom train speakers` on a small slice of PolNeAR: it runs, prints the dev figures and
writes a model the quotes stage can load. Skipped when ../shared/data is absent."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from newsloom.analyze.speakers.candidates import FEATURES
from newsloom.analyze.speakers.ranker import load_ranker
from newsloom.cli import app

pytestmark = pytest.mark.slow


def test_training_on_a_small_slice_writes_a_loadable_model(shared_data, tmp_path):
    pytest.importorskip("lightgbm")
    out = tmp_path / "speakers.json"
    result = CliRunner().invoke(
        app,
        ["train", "speakers", "--data", str(shared_data / "polnear"), "--limit", "12"]
        + ["--out", str(out)],
    )
    assert result.exit_code == 0, result.output
    assert "dev_direct_model" in result.output
    ranker = load_ranker(out)
    assert ranker.features == list(FEATURES)
    assert ranker.meta["seed"] == 7
    choice = ranker.choose([[0.0] * len(FEATURES)] * 2, ["a", "b"])
    assert 0.0 <= choice.confidence <= 1.0
