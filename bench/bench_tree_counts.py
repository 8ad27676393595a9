"""How steady is the speaker ranker's tree count? Measured over LightGBM seeds.

    .venv/bin/python bench/bench_tree_counts.py --data ../shared/data/polnear --seeds 7 8 9
    .venv/bin/python bench/bench_tree_counts.py --data ../shared/data/polnear --no-sampling

Needs the training extra (``.venv/bin/pip install -e '.[train]'``). PolNeAR train and dev are
parsed once; for each seed the ranker is trained up to ``MAX_ROUNDS`` trees as
``newsloom train speakers`` trains it, and printed are: the best count on dev's mean average
precision; the count an unpaired rule (shipped before 2026-11-29) keeps on dev: the fewest trees
within one standard error of the mean of the per-quotation average precisions at the best; the
count the paired rule (``choose_rounds``: the fewest trees whose mean per-quotation difference
from the best is within one standard error of those differences) keeps on dev alone (shipped
2026-11-29), and the count it keeps on the held-out curve the command reads since 2026-11-30
(dev, and train in ``FOLDS`` folds, ``held_out_precisions``), each with its dev MAP.

Figures only; nothing here asserts.
"""

from __future__ import annotations

import argparse
import math
import statistics
from pathlib import Path


def unpaired_rounds(curve: list[float], at_best: list[float]) -> int:
    """The rule shipped before 2026-11-29: the fewest trees whose dev mean average precision
    is within one standard error of the per-quotation average precisions at the best."""
    margin = statistics.stdev(at_best) / math.sqrt(len(at_best))
    return 1 + next(k for k, value in enumerate(curve) if value >= max(curve) - margin)


def main() -> None:
    import lightgbm as lgb

    from newsloom.eval.polnear import load_split
    from newsloom.train import speakers as training

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, required=True)
    ap.add_argument("--seeds", type=int, nargs="+", default=[7, 8, 9, 10, 11])
    ap.add_argument(
        "--no-sampling",
        action="store_true",
        help="every row and feature in each round (the trees then do not hang on the seed)",
    )
    args = ap.parse_args()
    params = dict(training.PARAMS)
    if args.no_sampling:
        params.update(feature_fraction=1.0, bagging_fraction=1.0, bagging_freq=0)
    fit = training.Dataset()
    every = training.CALIBRATION_EVERY
    for k, item in enumerate(training.parsed(load_split(args.data, "train"))):
        if k % every != every - 1:  # (the calibration's articles, as the command holds out)
            fit.groups.extend(training.record(*item))
    dev = training.dataset(training.parsed(load_split(args.data, "dev")))
    groups = dev.ranked()
    for seed in args.seeds:
        curves: dict = {}
        dev_set = training._lgb_set(dev)
        booster = lgb.train(
            dict(params, seed=seed),
            training._lgb_set(fit),
            num_boost_round=training.MAX_ROUNDS,
            valid_sets=[dev_set],
            callbacks=[lgb.record_evaluation(curves)],
        )
        curve = curves["valid_0"]["map@1000"]
        rows = dev_set.get_data()

        def predict(k: int, booster=booster, rows=rows) -> list[float]:
            return [float(v) for v in booster.predict(rows, num_iteration=k)]

        def precisions(k: int, predict=predict) -> list[float]:
            return training.average_precisions(predict(k), groups)

        best = 1 + max(range(len(curve)), key=curve.__getitem__)
        unpaired = unpaired_rounds(curve, precisions(best))
        paired = training.choose_rounds(curve, precisions)
        held_out = training.held_out_precisions(booster, fit, dev, dict(params, seed=seed))
        pooled = training.choose_rounds(
            held_out.mean(axis=0).tolist(), lambda k, h=held_out: h[:, k - 1].tolist()
        )
        print(
            f"seed {seed}: best {best} trees (dev MAP {curve[best - 1]:.4f}), "
            f"unpaired rule {unpaired} ({curve[unpaired - 1]:.4f}), "
            f"paired rule on dev {paired} ({curve[paired - 1]:.4f}), "
            f"paired rule on dev and train's folds (shipped) {pooled} ({curve[pooled - 1]:.4f})",
            flush=True,
        )


if __name__ == "__main__":
    main()
