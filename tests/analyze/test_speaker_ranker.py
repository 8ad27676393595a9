"""The speaker ranker: numpy scoring equals LightGBM's, the shipped file matches the features,
calibration and the nested-attribution labels behave, and training runs on a small slice."""

from __future__ import annotations

import json

import numpy as np
import pytest

from newsloom.analyze.speakers.candidates import FEATURES, INDEX
from newsloom.analyze.speakers.ranker import SpeakerRanker, shipped_ranker
from newsloom.train.speakers import (
    MAX_ROUNDS,
    Dataset,
    Group,
    alone_share,
    average_precisions,
    choose_rounds,
    fit_calibration,
    held_out_precisions,
    inner_speaker_labels,
    trees_json,
)


def test_shipped_model_reads_the_features_the_code_writes():
    ranker = shipped_ranker()
    assert ranker.features == list(FEATURES), "features changed: run `newsloom train speakers`"
    assert 0.0 < ranker.threshold < 1.0
    assert ranker is shipped_ranker()  # read once per process


def test_numpy_scores_equal_lightgbm_predictions():
    lgb = pytest.importorskip("lightgbm")
    rng = np.random.default_rng(3)
    x = rng.integers(0, 5, size=(600, len(FEATURES))).astype(float)
    x[:, 5] = rng.normal(size=600)  # a continuous feature too
    y = ((x[:, 0] + x[:, 5] > 2.5) & (x[:, 1] < 3)).astype(int)
    params = {"objective": "lambdarank", "num_leaves": 7, "verbose": -1, "use_missing": False}
    data = lgb.Dataset(x, y, group=[10] * 60)
    booster = lgb.train(params, data, num_boost_round=25)
    spec = {
        "features": list(FEATURES),
        "trees": trees_json(booster.dump_model()),
        "calibration": {"slope": 1.0, "intercept": 0.0},
        "threshold": 0.5,
    }
    ranker = SpeakerRanker(json.loads(json.dumps(spec)))
    probe = rng.integers(0, 5, size=(40, len(FEATURES))).astype(float)
    probe[:, 5] = rng.normal(size=40)
    assert np.allclose(ranker.scores(probe), booster.predict(probe), atol=1e-9)


def test_rows_of_the_wrong_width_are_refused():
    with pytest.raises(ValueError, match="features"):
        shipped_ranker().scores([[0.0, 1.0]])


def test_candidates_naming_one_person_pool_their_confidence():
    ranker = shipped_ranker()
    row = [0.0] * len(FEATURES)
    rows = [row, row, row]
    alone = ranker.choose(rows, ["a", "b", "c"])
    pooled = ranker.choose(rows, ["a", "a", "a"])
    assert pooled.confidence > alone.confidence


def test_calibration_follows_the_share_right():
    # Choices given p are right with probability about p**2: the map must bend down.
    rng = np.random.default_rng(0)
    points = []
    for _ in range(3000):
        p = float(rng.uniform(0.3, 0.99))
        points.append((p, int(rng.uniform() < p * p)))
    slope, intercept = fit_calibration(points)
    spec = {
        "features": list(FEATURES),
        "trees": {k: [[0]] for k in ("feature", "left", "right")}
        | {"threshold": [[0.0]], "value": [[0.0]], "leaf": [[True]], "depth": 0},
        "calibration": {"slope": slope, "intercept": intercept},
        "threshold": 0.5,
    }
    ranker = SpeakerRanker(spec)
    assert ranker.calibrate(0.5) == pytest.approx(0.25, abs=0.06)
    assert ranker.calibrate(0.9) == pytest.approx(0.81, abs=0.06)
    assert ranker.calibrate(0.6) < ranker.calibrate(0.7) < ranker.calibrate(0.95)


def _row(**on: float) -> list[float]:
    row = [0.0] * len(FEATURES)
    for name, value in on.items():
        row[INDEX[name]] = value
    return row


def _precisions(changes: dict[int, tuple[int, int]]):
    """Per tree count, 700 quotations' average precisions: the best count gets all but the
    last 10 right; ``changes[k] = (lost, won)``: ``k`` trees lose the first ``lost`` of those
    and win ``won`` of the 10."""

    def precisions(k: int) -> list[float]:
        lost, won = changes.get(k, (0, 0))
        return [0.0] * lost + [1.0] * (690 - lost) + [1.0] * won + [0.0] * (10 - won)

    return precisions


FLAT = [0.90, 0.950, 0.948, 0.949, 0.951, 0.950]


@pytest.mark.parametrize(
    ("curve", "changes", "want"),
    [
        # a flat curve after a rise: two trees lose two quotations and win one, the noise
        (FLAT, {1: (100, 0), 2: (2, 1), 3: (2, 1), 4: (2, 1)}, 2),
        # ... but losing 20 quotations and winning none is no noise, though the spread of
        # 700 figures of one model would call it so: only the best itself
        (FLAT, {1: (100, 0), 2: (20, 0), 3: (20, 0), 4: (20, 0)}, 5),
        ([0.90, 0.91, 0.93], {1: (100, 0), 2: (50, 0)}, 3),  # still rising
    ],
)
def test_tree_count_is_the_fewest_within_one_paired_standard_error(curve, changes, want):
    assert choose_rounds(curve, _precisions(changes)) == want


def _learnable(articles: int, seed: int) -> Dataset:
    """Quotations of three candidates, the right one marked by a noisy first feature."""
    rng = np.random.default_rng(seed)
    data = Dataset()
    for a in range(articles):
        for _ in range(4):
            rows = rng.normal(size=(3, len(FEATURES)))
            right = int(rng.integers(3))
            rows[right, 0] += 1.5
            labels = [int(i == right) for i in range(3)]
            data.groups.append(
                Group(f"a{a}", True, rows.tolist(), labels, ["x", "y", "z"], 0, True)
            )
    return data


def test_held_out_curve_reads_dev_and_each_fold_of_train():
    lgb = pytest.importorskip("lightgbm")
    from newsloom.train.speakers import PARAMS, _lgb_set

    train_data, dev_data = _learnable(40, 1), _learnable(10, 2)
    booster = lgb.train(PARAMS, _lgb_set(train_data), num_boost_round=MAX_ROUNDS)
    held_out = held_out_precisions(booster, train_data, dev_data)
    # one row per held-out quotation (dev's, and every train quotation once), one column a tree
    assert held_out.shape == (len(dev_data.groups) + len(train_data.groups), MAX_ROUNDS)
    assert ((held_out > 0) & (held_out <= 1)).all()
    # the signal is learnt out of sample: the trees rank the right candidate first more often
    # than chance (a third of the time)
    assert (held_out[:, 20] == 1).mean() > 0.5


def test_average_precision_of_each_group():
    groups = [
        Group("a", True, [[0.0]] * 3, [0, 1, 0], ["x", "y", "z"], 0, True),
        Group("a", True, [[0.0]] * 2, [1, 1], ["x", "y"], 0, True),
    ]
    # first group: its right candidate ranked second; second: both right
    assert average_precisions([0.9, 0.5, 0.1, 0.3, 0.2], groups) == [0.5, 1.0]


def test_nested_attribution_is_relabelled_to_the_inner_speaker():
    outer = _row(subject_of_highest_speech=1)
    inner = _row(subject_of_lowest_speech=1)
    other = _row()
    assert inner_speaker_labels([outer, inner, other], [1, 0, 0]) == [0, 1, 0]
    # Gold already inner, or no inner speaker: unchanged.
    assert inner_speaker_labels([outer, inner, other], [0, 1, 0]) == [0, 1, 0]
    assert inner_speaker_labels([outer, other], [1, 0]) == [1, 0]


def _walk(spec: dict, row: list[float]) -> float:
    """The shipped trees walked one by one, node by node: what the forest scoring must give."""
    trees = spec["trees"]
    total = []
    for t in range(len(trees["feature"])):
        k = 0
        while not trees["leaf"][t][k]:
            goes_left = row[trees["feature"][t][k]] <= trees["threshold"][t][k]
            k = trees["left"][t][k] if goes_left else trees["right"][t][k]
        total.append(trees["value"][t][k])
    return float(np.sum(total))


@pytest.mark.parametrize(
    "rows",
    [
        pytest.param("zeros", id="all-zero"),
        pytest.param("small", id="small-integers"),
        pytest.param("wide", id="beyond-every-threshold"),
    ],
)
def test_forest_scoring_is_the_plain_tree_walk(rows):
    from importlib import resources

    spec = json.loads(
        resources.files("newsloom.analyze.speakers").joinpath("speakers.json").read_text()
    )
    rng = np.random.default_rng(11)
    x = {
        "zeros": np.zeros((3, len(FEATURES))),
        "small": rng.integers(0, 4, size=(40, len(FEATURES))).astype(float),
        "wide": rng.integers(-100, 100, size=(40, len(FEATURES))).astype(float),
    }[rows]
    got = shipped_ranker().scores(x)
    want = [_walk(spec, list(r)) for r in x]
    assert np.allclose(got, want, rtol=0, atol=1e-9)
    assert not np.allclose(got, 0.0)  # the trees do score


def test_choices_made_together_equal_choices_made_one_by_one():
    ranker = shipped_ranker()
    rng = np.random.default_rng(5)
    groups = []
    for size in (1, 3, 8, 2):
        rows = rng.integers(0, 3, size=(size, len(FEATURES))).astype(float).tolist()
        keys = [f"p{int(k)}" for k in rng.integers(0, 2, size=size)]
        groups.append((rows, keys))
    together = ranker.choose_each(groups)
    alone = [ranker.choose(rows, keys) for rows, keys in groups]
    assert together == alone  # same scores, bit for bit, whatever rows are scored beside
    assert ranker.choose_each([]) == []


def _spec(calibration: dict) -> dict:
    return {
        "features": list(FEATURES),
        "trees": {k: [[0]] for k in ("feature", "left", "right")}
        | {"threshold": [[0.0]], "value": [[0.0]], "leaf": [[True]], "depth": 0},
        "calibration": calibration,
        "threshold": 0.5,
    }


@pytest.mark.parametrize(
    ("calibration", "want"),
    [
        pytest.param({"slope": 1.0, "intercept": 0.0, "alone": 0.93}, 0.93, id="measured"),
        # A file made before the share was measured maps a share of 1.0 as before.
        pytest.param(
            {"slope": 0.5, "intercept": 0.0}, 1 / (1 + (1e-6 / (1 - 1e-6)) ** 0.5), id="old-file"
        ),
    ],
)
def test_a_single_candidate_gets_the_share_measured_for_single_candidates(calibration, want):
    ranker = SpeakerRanker(_spec(calibration))
    choice = ranker.alone()
    assert choice.index == 0
    assert choice.confidence == pytest.approx(want, rel=1e-9)
    if "alone" not in calibration:  # without a measured share: what scoring one row gives
        assert choice == ranker.choose([[0.0] * len(FEATURES)], ["a"])


@pytest.mark.parametrize(
    ("labels", "want"),
    [
        pytest.param([1] * 98 + [0] * 0, 99 / 100, id="all-right-is-not-certain"),
        pytest.param([0, 0], 1 / 4, id="all-wrong-is-not-impossible"),
        pytest.param([], 1 / 2, id="none-measured"),
        pytest.param([1, 1, 1, 0], 4 / 6, id="mixed"),
    ],
)
def test_share_right_of_single_candidates(labels, want):
    assert alone_share(labels) == pytest.approx(want)


SETTLED = [
    # Reported speech: its speaker is the subject of its own sentence's speech verb, so the
    # paragraph before names no candidate.
    pytest.param(
        "Carter met the union leader, Hadley, on Monday.\n\n"
        "The minister said that the plan had failed badly.",
        False,
        {"The minister"},
        id="reported-speech",
    ),
    # A direct quotation hanging from "said" with its subject: its own sentence only.
    pytest.param(
        "Carter met the union leader, Hadley, on Monday.\n\n"
        'The minister said: "The plan has failed, and we will start again."',
        True,
        {"The minister"},
        id="direct-governed",
    ),
]


@pytest.mark.parametrize(("text", "direct", "want"), SETTLED)
def test_settled_speakers_take_candidates_from_their_own_sentences(nlp, text, direct, want):
    from newsloom.analyze.quotes import Recorded, blank_line_paragraphs, find_quotes

    recorded: list[Recorded] = []
    find_quotes(nlp(text), blank_line_paragraphs(text), [], [], text, recorder=recorded)
    (rec,) = [r for r in recorded if r.quote.direct == direct]
    assert rec.quote.how == "governs"
    assert {c.speaker.text for c in rec.candidates} == want


def test_a_carried_quotation_still_looks_at_the_paragraph_before(nlp):
    from newsloom.analyze.quotes import Recorded, blank_line_paragraphs, find_quotes

    text = (
        "Carter met the union leader, Hadley, on Monday.\n\n"
        '"We will not give up on this plan, whatever it takes."'
    )
    recorded: list[Recorded] = []
    find_quotes(nlp(text), blank_line_paragraphs(text), [], [], text, recorder=recorded)
    (rec,) = recorded
    assert rec.quote.how == "carried"
    assert {"Carter", "Hadley"} <= {c.speaker.text for c in rec.candidates}


def test_candidate_phrases_are_read_sentence_by_sentence_in_any_order(nlp):
    from newsloom.analyze.quotes import _Scan, blank_line_paragraphs
    from newsloom.analyze.speakers.ranker import shipped_ranker

    text = (
        "Carter met the union leader, Hadley, on Monday.\n\n"
        "The minister said that the plan had failed.\n\n"
        "Footage shows Roe asking, why now? Officials declined to comment.\n\n"
        "She told reporters the talks would go on."
    )
    doc = nlp(text)

    def finder():
        scan = _Scan(doc, text, blank_line_paragraphs(text), [], [], shipped_ranker())
        assert scan.finder is not None
        return scan.finder

    n = len(doc)
    forward, backward = finder(), finder()
    last = forward.sent_of[n - 1]
    backward._read_sentences(n - 1, n)  # the last sentence only
    assert not backward.read[0]
    for lo in range(n):
        forward._read_sentences(lo, lo + 1)
    for lo in range(n - 1, -1, -1):
        backward._read_sentences(lo, lo + 1)
    assert all(forward.read) and forward.read == backward.read and last == len(forward.read) - 1
    assert forward.proposals == backward.proposals == sorted(forward.proposals)
    assert {"pronoun", "noun", "speech_subject"} <= {how for *_, how in forward.proposals}
