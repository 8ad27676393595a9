"""Quality gate: facts stated differently on the labelled ECB+ pairs must not fall below floors.

Floors sit slightly under the figures in docs/benchmarks.md ("Facts stated differently on
labelled pairs"): a false conflict may not appear, same-subject precision and status accuracy
may not drop. Skipped when ../shared/data is absent.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from newsloom.cli import app

pytestmark = pytest.mark.slow

PAIRS = Path(__file__).resolve().parents[1] / "data" / "fact_pairs.tsv"
# Measured 2026-11-24 (one person's two spellings merged on evidence, birth names tied to
# their person, a surname several people share resolved by evidence, one bound stated twice
# agreeing): conflict precision 1.000 (8 of 8), recall 0.800; same precision 0.956, recall
# 0.754; status accuracy 0.734 on the 203 same pairs. All 28 conflicting pairs raised over
# the 64 events are true.
FLOOR_CONFLICT_PRECISION = 0.95
FLOOR_CONFLICT_RECALL = 0.75
FLOOR = {"precision": 0.94, "recall": 0.73}
FLOOR_STATUS_ACCURACY = 0.72


@pytest.fixture(scope="module")
def report(shared_data, tmp_path_factory):
    out = tmp_path_factory.mktemp("facts") / "report.json"
    result = CliRunner().invoke(
        app,
        ["eval", "facts", "--data", str(shared_data / "ecbplus" / "dev"), "--labels",
         str(PAIRS), "--json", str(out)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "conflict: precision" in result.output
    return json.loads(out.read_text(encoding="utf-8"))[str(PAIRS)]


def test_no_false_conflict(report):
    assert report["conflict"]["precision"] >= FLOOR_CONFLICT_PRECISION
    assert report["conflict"]["recall"] >= FLOOR_CONFLICT_RECALL


@pytest.mark.parametrize("measure", sorted(FLOOR))
def test_same_subject_and_quantity(report, measure):
    assert report["same"][measure] >= FLOOR[measure]


def test_status_accuracy(report):
    assert report["pairs"] >= 120
    assert report["status_accuracy"] >= FLOOR_STATUS_ACCURACY
