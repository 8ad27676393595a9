"""Train the speaker ranker on PolNeAR (`newsloom train speakers`), reproducibly.

Every quotation the rules find in the train split gives a group of candidate speakers with
their feature rows (analyze/speakers/candidates.py); a candidate is labelled right when the
evaluation would count it right against the gold attribution matched to the quotation (its
span overlaps the gold source, or its name shares a name word with it). LightGBM's lambdarank
orders each group; the number of trees is read by the one-standard-error rule
(``choose_rounds``) from the mean average precision of held-out quotations: dev's, and each
train article's under trees fit while its fold of train was held out (``FOLDS``). One train
article in
``CALIBRATION_EVERY`` is held out of the trees to fit the calibration: a logistic map from the
ranker's pooled probability to the share of right speakers, fitted on quotations with several
candidates, and the share of right speakers among those with one (which are never scored).
The trees, the calibration and the threshold under which a speaker is exported as unresolved go
to one JSON file (analyze/speakers/speakers.json), scored without LightGBM at run time
(ranker.py).
"""

from __future__ import annotations

import json
import math
import statistics
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..analyze.quotes import Recorded, find_quotes
from ..analyze.speakers.candidates import FEATURES, INDEX
from ..analyze.speakers.ranker import MODEL_FILE, SpeakerRanker
from ..eval.polnear import GoldArticle, Unit, load_split, speaker_right, token_set, word_spans
from ..models import ArticleAnalysis

SEED = 7
# One train article in this many fits the calibration instead of the trees.
CALIBRATION_EVERY = 6
# A speaker whose calibrated confidence is below this is exported as unresolved: below it,
# the speaker is more likely wrong than right.
UNRESOLVED_BELOW = 0.5
MATCH_AT = 0.3
PARAMS: dict[str, Any] = {
    "objective": "lambdarank",
    # Average precision over a quotation's whole candidate list (no group has 1,000): it
    # reads the whole ranking, where NDCG@1 moves only when the first place changes.
    "metric": "map",
    "eval_at": [1000],
    "learning_rate": 0.1,
    "num_leaves": 15,
    "max_depth": 6,
    "min_data_in_leaf": 20,
    "feature_fraction": 0.9,
    "bagging_fraction": 0.9,
    "bagging_freq": 1,
    "lambda_l2": 1.0,
    "use_missing": False,
    "zero_as_missing": False,
    "deterministic": True,
    "force_row_wise": True,
    "num_threads": 1,
    "seed": SEED,
    "verbose": -1,
}
MAX_ROUNDS = 300
# Train's articles are also held out in this many folds to read the tree count: dev alone
# (785 ranked quotations) let the count wander from 43 to 176 trees when a few candidate rows
# changed; with train's folds (5,786 more) it moved by three
# (docs/benchmarks.md).
FOLDS = 5


@dataclass
class Group:
    """One quotation's candidates: rows, labels, and which one the rules picked."""

    article: str
    direct: bool
    rows: list[list[float]]
    labels: list[int]
    keys: list[str]
    rule: int  # index of the rules' pick, -1 when it is no candidate
    matched: bool  # matched a gold quotation at all


@dataclass
class Dataset:
    groups: list[Group] = field(default_factory=list)

    def ranked(self) -> list[Group]:
        """Groups the ranker can learn from: matched, with a right and a wrong candidate."""
        return [g for g in self.groups if g.matched and 0 < sum(g.labels) < len(g.labels)]


def _match(text: str, spans: Sequence[tuple[int, int]], gold: Sequence[Unit]) -> dict[int, Unit]:
    """One-to-one greedy matching by word overlap/union (as the evaluation matches)."""
    words = word_spans(text)
    pred = [token_set(words, [s]) for s in spans]
    gold_sets = [token_set(words, u.pieces) for u in gold]
    pairs = []
    for i, p in enumerate(pred):
        for j, g in enumerate(gold_sets):
            inter = len(p & g)
            if inter and inter / len(p | g) >= MATCH_AT:
                pairs.append((-inter / len(p | g), i, j))
    out: dict[int, Unit] = {}
    used: set[int] = set()
    for _, i, j in sorted(pairs):
        if i not in out and j not in used:
            out[i] = gold[j]
            used.add(j)
    return out


def groups_of(gold: GoldArticle, recorded: Sequence[Recorded]) -> Iterator[Group]:
    """Label one article's recorded quotations against its gold."""
    for direct in (True, False):
        items = [r for r in recorded if r.quote.direct == direct]
        units = gold.direct if direct else gold.attributions
        matched = _match(gold.text, [(r.quote.start, r.quote.end) for r in items], units)
        for i, rec in enumerate(items):
            unit = matched.get(i)
            labels = []
            for cand in rec.candidates:
                sp = cand.speaker
                pred = Unit((), ((sp.start, sp.end),), f"{sp.name} {sp.text}")
                labels.append(int(unit is not None and speaker_right(pred, unit)))
            labels = inner_speaker_labels(rec.rows, labels)
            rule = next((k for k, c in enumerate(rec.candidates) if "rule" in c.flags), -1)
            if rule < 0 and rec.quote.rule is not None:
                rule = next(
                    (
                        k
                        for k, c in enumerate(rec.candidates)
                        if c.speaker.name == rec.quote.rule.name
                    ),
                    -1,
                )
            yield Group(
                gold.name,
                direct,
                rec.rows,
                labels,
                [c.key for c in rec.candidates],
                rule,
                unit is not None,
            )


def inner_speaker_labels(rows: Sequence[Sequence[float]], labels: list[int]) -> list[int]:
    """Nested attributions belong to the one who spoke: in 'Roe said Doe told her "…"' the
    quotation is Doe's. PolNeAR often names the outer reporter (Roe) as the source; such a
    group is relabelled so the subject of the speech verb nearest the quotation is right."""
    inner = INDEX["subject_of_lowest_speech"]
    outer = INDEX["subject_of_highest_speech"]
    inner_ks = [k for k, row in enumerate(rows) if row[inner] and not row[outer]]
    outer_right = [k for k, row in enumerate(rows) if row[outer] and not row[inner] and labels[k]]
    if not inner_ks or not outer_right or any(labels[k] for k in inner_ks):
        return labels
    return [int(k in inner_ks) for k in range(len(labels))]


def record(gold: GoldArticle, doc: Any, analysis: ArticleAnalysis) -> list[Group]:
    recorded: list[Recorded] = []
    find_quotes(
        doc,
        analysis.paragraphs,
        analysis.posts,
        analysis.entities,
        analysis.article.text,
        recorder=recorded,
    )
    return list(groups_of(gold, recorded))


def parsed(gold: Sequence[GoldArticle]) -> Iterator[tuple[GoldArticle, Any, ArticleAnalysis]]:
    """Each gold article with its parse and the stages the quotes stage reads."""
    from ..analyze import analyze_articles
    from ..analyze.stages import STAGES
    from ..config import Settings
    from ..models import Article, article_id
    from ..pipeline import StageContext, StageSpec, build_pipeline

    docs: list[Any] = []

    def keep_doc(ctx: StageContext) -> None:
        docs.append(ctx.doc)

    specs = build_pipeline(STAGES, ("boilerplate", "posts", "entities"))
    specs.append(StageSpec("keep_doc", keep_doc, (), ()))
    articles = [
        Article(id=article_id(g.text), text=g.text, origin=g.name, source=g.publisher) for g in gold
    ]
    for g, result in zip(gold, analyze_articles(articles, Settings(), specs), strict=True):
        if isinstance(result, ArticleAnalysis):
            yield g, docs.pop(), result
        docs.clear()


def dataset(items: Iterable[tuple[GoldArticle, Any, ArticleAnalysis]]) -> Dataset:
    out = Dataset()
    for gold, doc, analysis in items:
        out.groups.extend(record(gold, doc, analysis))
    return out


# --- trees to the shipped JSON form --------------------------------------------------------


def _flatten(tree: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """One LightGBM tree as node arrays (root first, leaves point to themselves)."""
    feature: list[int] = []
    threshold: list[float] = []
    left: list[int] = []
    right: list[int] = []
    value: list[float] = []
    leaf: list[bool] = []

    def visit(node: dict[str, Any]) -> tuple[int, int]:
        k = len(feature)
        feature.append(0)
        threshold.append(0.0)
        left.append(k)
        right.append(k)
        value.append(0.0)
        leaf.append(True)
        if "leaf_value" in node:
            value[k] = float(node["leaf_value"])
            return k, 0
        if node.get("decision_type", "<=") != "<=":
            raise ValueError("only numeric '<=' splits are supported")
        feature[k] = int(node["split_feature"])
        threshold[k] = float(node["threshold"])
        leaf[k] = False
        left[k], dl = visit(node["left_child"])
        right[k], dr = visit(node["right_child"])
        return k, 1 + max(dl, dr)

    _, depth = visit(tree)
    arrays = {
        "feature": feature,
        "threshold": threshold,
        "left": left,
        "right": right,
        "value": value,
        "leaf": leaf,
    }
    return arrays, depth


def trees_json(dump: dict[str, Any]) -> dict[str, Any]:
    """All trees padded to one node count, as ranker.py reads them."""
    flat = [_flatten(t["tree_structure"]) for t in dump["tree_info"]]
    width = max(len(a["feature"]) for a, _ in flat)
    out: dict[str, Any] = {k: [] for k in ("feature", "threshold", "left", "right", "value")}
    out["leaf"] = []
    for arrays, _ in flat:
        pad = width - len(arrays["feature"])
        for key, filler in (
            ("feature", 0),
            ("threshold", 0.0),
            ("left", 0),
            ("right", 0),
            ("value", 0.0),
            ("leaf", True),
        ):
            out[key].append(arrays[key] + [filler] * pad)
    out["depth"] = max(d for _, d in flat)
    return out


# --- calibration and figures ---------------------------------------------------------------


def fit_calibration(points: Sequence[tuple[float, int]]) -> tuple[float, float]:
    """Logistic regression of right/wrong on logit(p), by Newton's method (two parameters)."""
    xs = []
    for p, _ in points:
        q = min(max(p, 1e-6), 1 - 1e-6)
        xs.append(math.log(q / (1 - q)))
    ys = [y for _, y in points]
    a, b = 1.0, 0.0
    for _ in range(50):
        ga = gb = haa = hab = hbb = 0.0
        for x, y in zip(xs, ys, strict=True):
            p = 1.0 / (1.0 + math.exp(-min(max(a * x + b, -30.0), 30.0)))
            ga += (p - y) * x
            gb += p - y
            w = p * (1 - p)
            haa += w * x * x
            hab += w * x
            hbb += w
        haa += 1e-6
        hbb += 1e-6
        det = haa * hbb - hab * hab
        if det <= 0:
            break
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        a, b = a - da, b - db
        if abs(da) + abs(db) < 1e-9:
            break
    return a, b


def alone_share(labels: Sequence[int]) -> float:
    """The share of right speakers among quotations with a single candidate, with one right
    and one wrong pseudo-count (a handful of such quotations never gives 0 or 1)."""
    return (sum(labels) + 1) / (len(labels) + 2)


def accuracy(ranker: SpeakerRanker | None, groups: Sequence[Group], direct: bool) -> float:
    """Share of matched quotations whose chosen speaker is right (the rules' pick without a
    ranker; a quotation with no right candidate counts as wrong)."""
    scope = [g for g in groups if g.matched and g.direct == direct]
    right = 0
    for g in scope:
        pick = g.rule if ranker is None else ranker.pooled(g.rows, g.keys)[0]
        right += pick >= 0 and g.labels[pick] == 1
    return right / len(scope) if scope else 0.0


def _lgb_set(data: Dataset) -> Any:
    import lightgbm as lgb
    import numpy as np

    groups = data.ranked()
    rows = [r for g in groups for r in g.rows]
    labels = [y for g in groups for y in g.labels]
    return lgb.Dataset(
        np.asarray(rows, dtype=np.float64),
        np.asarray(labels),
        group=[len(g.rows) for g in groups],
        feature_name=list(FEATURES),
        free_raw_data=False,
    )


def average_precisions(scores: Sequence[float], groups: Sequence[Group]) -> list[float]:
    """Each group's average precision when its candidates are ordered by ``scores`` (one
    score per row, groups in order)."""
    out = []
    k = 0
    for g in groups:
        ranked = sorted(range(len(g.labels)), key=lambda i: -scores[k + i])
        k += len(g.labels)
        hits, total = 0, 0.0
        for rank, i in enumerate(ranked, 1):
            if g.labels[i]:
                hits += 1
                total += hits / rank
        out.append(total / hits if hits else 0.0)
    return out


def choose_rounds(curve: Sequence[float], precisions: Callable[[int], list[float]]) -> int:
    """The fewest trees that one standard error cannot tell from the best on held-out
    quotations (the one-standard-error rule, paired): ``curve`` is their mean average
    precision after each tree, ``precisions(k)`` each one's average precision with ``k``
    trees. The curve is nearly flat after the first trees, so its argmax is whichever bump of
    a quotation or two comes first; the smallest model the noise cannot tell from it is the
    steadier choice.
    The models are compared on the same quotations (their per-quotation differences), which
    tells them apart where the spread of a single model's figures would not: that unpaired
    margin kept anything from 4 to 40 trees as LightGBM's seed moved (docs/benchmarks.md)."""
    best = 1 + max(range(len(curve)), key=curve.__getitem__)
    at_best = precisions(best)
    if len(at_best) < 2:
        return best
    for k in range(1, best):
        diff = [a - b for a, b in zip(precisions(k), at_best, strict=True)]
        if statistics.fmean(diff) >= -statistics.stdev(diff) / math.sqrt(len(diff)):
            return k
    return best


def cumulative_scores(booster: Any, groups: Sequence[Group], rounds: int) -> Any:
    """Each row's score after each of the first ``rounds`` trees (rows x rounds); a booster
    that stopped early (no split left) keeps its last score."""
    import numpy as np

    rows = np.asarray([r for g in groups for r in g.rows], dtype=np.float64)
    trees = booster.num_trees()
    per_tree = [booster.predict(rows, start_iteration=i, num_iteration=1) for i in range(trees)]
    scores = np.cumsum(np.stack(per_tree, axis=1), axis=1)
    if trees < rounds:
        scores = np.concatenate([scores, np.repeat(scores[:, -1:], rounds - trees, axis=1)], 1)
    return scores


def held_out_precisions(
    booster: Any, train_data: Dataset, dev_data: Dataset, params: dict[str, Any] | None = None
) -> Any:
    """Each held-out quotation's average precision after each tree (quotations x trees): dev's
    under ``booster`` (fit on all of train), then each train article's under trees fit (with
    ``params``, PARAMS by default) on the other folds of train."""
    import lightgbm as lgb
    import numpy as np

    rounds = MAX_ROUNDS
    models = [(booster, dev_data.ranked())]
    fold_of = {a: k % FOLDS for k, a in enumerate(sorted({g.article for g in train_data.groups}))}
    for fold in range(FOLDS):
        held = Dataset([g for g in train_data.groups if fold_of[g.article] == fold])
        kept = Dataset([g for g in train_data.groups if fold_of[g.article] != fold])
        if held.ranked() and kept.ranked():
            fit = lgb.train(params or PARAMS, _lgb_set(kept), num_boost_round=rounds)
            models.append((fit, held.ranked()))
    parts = []
    for model, groups in models:
        if groups:
            scores = cumulative_scores(model, groups, rounds)
            parts.append([average_precisions(scores[:, k].tolist(), groups) for k in range(rounds)])
    return np.concatenate([np.asarray(p).T for p in parts])


def train(
    train_data: Dataset,
    dev_data: Dataset,
    calibration_data: Dataset,
    rounds: int | None = None,
) -> tuple[dict[str, Any], dict[str, float]]:
    """Fit the trees (as many as ``choose_rounds`` takes from the held-out curve, unless
    ``rounds`` is given) and the calibration; the model spec and figures."""
    import lightgbm as lgb

    booster = lgb.train(PARAMS, _lgb_set(train_data), num_boost_round=rounds or MAX_ROUNDS)
    if rounds is None:
        held_out = held_out_precisions(booster, train_data, dev_data)
        curve = held_out.mean(axis=0).tolist()
        rounds = choose_rounds(curve, lambda k: held_out[:, k - 1].tolist())
    dump = booster.dump_model(num_iteration=rounds)
    spec: dict[str, Any] = {
        "features": list(FEATURES),
        "trees": trees_json(dump),
        "calibration": {"slope": 1.0, "intercept": 0.0},
        "threshold": UNRESOLVED_BELOW,
    }
    uncalibrated = SpeakerRanker(spec)
    points = []
    alone: list[int] = []  # right or not, per quotation with a single candidate
    for g in calibration_data.groups:
        if not g.matched:
            continue
        if len(g.rows) == 1:  # its share is 1.0 whatever the trees say: no evidence
            alone.append(g.labels[0])
            continue
        best, p = uncalibrated.pooled(g.rows, g.keys)
        points.append((p, g.labels[best]))
    slope, intercept = fit_calibration(points)
    spec["calibration"] = {
        "slope": round(slope, 6),
        "intercept": round(intercept, 6),
        "alone": round(alone_share(alone), 6),
    }
    ranker = SpeakerRanker(spec)
    figures = {
        "trees": len(dump["tree_info"]),
        "dev_direct_rules": accuracy(None, dev_data.groups, True),
        "dev_direct_model": accuracy(ranker, dev_data.groups, True),
        "dev_indirect_rules": accuracy(None, dev_data.groups, False),
        "dev_indirect_model": accuracy(ranker, dev_data.groups, False),
        "train_groups": len(train_data.ranked()),
        "calibration_quotes": len(points),
        "calibration_alone": len(alone),
    }
    spec["meta"] = {
        "seed": SEED,
        "params": PARAMS,
        "rounds": "fewest trees within one paired standard error of the best mean average "
        f"precision of held-out quotations (dev, and train in {FOLDS} folds)",
        "figures": figures,
    }
    return spec, figures


def default_model_path() -> Path:
    from ..analyze import speakers

    return Path(speakers.__file__).parent / MODEL_FILE


def train_from_polnear(
    data: Path, out: Path | None = None, limit: int | None = None
) -> dict[str, float]:
    """Parse PolNeAR train and dev, train, write the model file; returns the dev figures."""
    train_gold = load_split(data, "train")
    dev_gold = load_split(data, "dev")
    if limit is not None:
        train_gold, dev_gold = train_gold[:limit], dev_gold[: max(limit // 4, 2)]
    fit = Dataset()
    calibration = Dataset()
    for k, item in enumerate(parsed(train_gold)):
        target = calibration if k % CALIBRATION_EVERY == CALIBRATION_EVERY - 1 else fit
        target.groups.extend(record(*item))
    dev = dataset(parsed(dev_gold))
    spec, figures = train(fit, dev, calibration)
    path = out or default_model_path()
    path.write_text(json.dumps(spec, separators=(",", ":")) + "\n", encoding="utf-8")
    return figures
