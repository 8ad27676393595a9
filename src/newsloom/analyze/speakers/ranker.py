"""The trained speaker ranker: gradient-boosted trees read from a JSON file shipped in the
package, scored with numpy (LightGBM is needed only to train them, newsloom/train/).

All trees are walked at once, one level per step, over all candidates of a quotation, so a
quotation costs a few dozen array operations whatever the number of trees. A row's outcomes
of the trees' distinct tests (265 for the shipped 2,380 nodes) are worked out in one
comparison first; each step then only looks its test's outcome up. The file also
holds the calibration (a logistic map from the ranker's probability to the share of right
speakers, fitted on articles the trees were not trained on, and the share of right speakers
among quotations with a single candidate, which need no scoring) and the threshold under which
a speaker is exported as unresolved.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from itertools import chain
from pathlib import Path
from typing import Any

import numpy as np

MODEL_FILE = "speakers.json"


@dataclass(frozen=True)
class Choice:
    index: int  # the chosen candidate
    confidence: float  # calibrated probability that its speaker is right


class SpeakerRanker:
    """Scores candidate rows (features in the order of ``features``) with boosted trees."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.features: list[str] = spec["features"]
        self.slope: float = spec["calibration"]["slope"]
        self.intercept: float = spec["calibration"]["intercept"]
        # The share of right speakers among quotations with one candidate (None in files
        # made before it was measured: those map a share of 1.0 through the calibration).
        self.alone_share: float | None = spec["calibration"].get("alone")
        self.threshold: float = spec["threshold"]
        self.meta: dict[str, Any] = spec.get("meta", {})
        trees = spec["trees"]
        # Node k of tree t is node t * width + k of the forest. A walk's state is twice the
        # node, so that adding the test's outcome (1 when the row goes left) picks the entry of
        # ``child`` to step to; leaves step to themselves, so ``depth`` steps end on a leaf.
        feature = np.array(trees["feature"], dtype=np.int64)
        n_trees, width = feature.shape
        base = (np.arange(n_trees, dtype=np.int64) * width)[:, None]
        split = np.array(trees["threshold"], dtype=np.float64).ravel()
        leaf = np.array(trees["leaf"], dtype=bool).ravel()
        left = (np.array(trees["left"], dtype=np.int64) + base).ravel()
        right = (np.array(trees["right"], dtype=np.int64) + base).ravel()
        nodes = np.arange(leaf.size, dtype=np.int64)
        left[leaf], right[leaf] = nodes[leaf], nodes[leaf]
        self.child = np.stack([2 * right, 2 * left], axis=1).ravel()
        self.value = np.repeat(np.array(trees["value"], dtype=np.float64).ravel(), 2)
        self.roots = 2 * base.ravel()
        self.depth = int(trees["depth"])
        # The distinct tests (feature <= threshold) the nodes make: a row's outcomes of all of
        # them are one comparison, and a node reads its test's outcome by column.
        inner = zip(feature.ravel()[~leaf], split[~leaf], strict=True)
        tests = sorted({(int(f), float(t)) for f, t in inner})
        column = {test: k for k, test in enumerate(tests)}
        self.test_feature = np.array([f for f, _ in tests], dtype=np.int64)
        self.test_split = np.array([t for _, t in tests], dtype=np.float64)
        self.test_of = np.repeat(
            np.array(
                [
                    0 if is_leaf else column[(int(f), float(t))]
                    for f, t, is_leaf in zip(feature.ravel(), split, leaf, strict=True)
                ],
                dtype=np.int64,
            ),
            2,
        )

    def scores(self, rows: Sequence[Sequence[float]]) -> np.ndarray:
        width = len(self.features)
        bad = next((len(row) for row in rows if len(row) != width), None)
        if bad is not None:
            raise ValueError(f"expected rows of {width} features, got a row of {bad}")
        # One flat pass over the numbers (cheaper than numpy reading nested lists).
        x = np.fromiter(chain.from_iterable(rows), np.float64, len(rows) * width)
        x = x.reshape(len(rows), width)
        n = x.shape[0]
        n_tests = self.test_feature.size
        goes_left = (x.take(self.test_feature, axis=1) <= self.test_split).ravel()
        offsets = (np.arange(n, dtype=np.int64) * n_tests)[:, None]
        state = np.broadcast_to(self.roots, (n, self.roots.size))
        for _ in range(self.depth):
            state = self.child.take(state + goes_left.take(offsets + self.test_of.take(state)))
        return self.value.take(state).sum(axis=1)

    def calibrate(self, probability: float) -> float:
        """The share of right speakers among choices the ranker gave ``probability``."""
        p = min(max(probability, 1e-6), 1 - 1e-6)
        z = self.slope * math.log(p / (1 - p)) + self.intercept
        return 1.0 / (1.0 + math.exp(-z))

    def pooled(self, rows: Sequence[Sequence[float]], keys: Sequence[str]) -> tuple[int, float]:
        """The best candidate and its share of the softmax over all candidates, pooled with
        the candidates naming the same person (before calibration)."""
        return _pool(self.scores(rows), keys)

    def choose(self, rows: Sequence[Sequence[float]], keys: Sequence[str]) -> Choice:
        """The best candidate, and how sure (calibrated)."""
        best, share = self.pooled(rows, keys)
        return Choice(best, self.calibrate(share))

    def alone(self) -> Choice:
        """The choice for a quotation with one candidate: whatever its row, it takes the
        whole softmax share, which says nothing about whether it is right, so its confidence
        is the share of right speakers measured on such quotations when the model was
        trained; its row need not be built nor scored."""
        if self.alone_share is None:
            return Choice(0, self.calibrate(1.0))
        return Choice(0, self.alone_share)

    def choose_each(
        self, groups: Sequence[tuple[Sequence[Sequence[float]], Sequence[str]]]
    ) -> list[Choice]:
        """``choose`` for several quotations' (rows, keys) at once: all rows are scored in one
        pass, which gives each row the same score as scoring its group alone and pays the
        fixed cost of the array operations once."""
        rows = [row for group_rows, _ in groups for row in group_rows]
        scores = self.scores(rows) if rows else np.zeros(0)
        out = []
        at = 0
        for group_rows, keys in groups:
            best, share = _pool(scores[at : at + len(group_rows)], keys)
            at += len(group_rows)
            out.append(Choice(best, self.calibrate(share)))
        return out


def _pool(scores: np.ndarray, keys: Sequence[str]) -> tuple[int, float]:
    """The best-scored candidate and its softmax share pooled over the same ``keys``."""
    weights = np.exp(scores - scores.max())
    weights /= weights.sum()
    best = int(np.argmax(scores))
    mine = keys[best]
    share = sum(w for key, w in zip(keys, weights.tolist(), strict=True) if key == mine)
    return best, share


def load_ranker(path: Path | None = None) -> SpeakerRanker:
    if path is not None:
        return SpeakerRanker(json.loads(Path(path).read_text(encoding="utf-8")))
    return shipped_ranker()


@cache
def shipped_ranker() -> SpeakerRanker:
    """The model shipped in the package, read once per process."""
    text = resources.files(__package__).joinpath(MODEL_FILE).read_text(encoding="utf-8")
    return SpeakerRanker(json.loads(text))
