"""Story clustering scored on ECB+ (``newsloom eval ecbplus --data DIR``).

DIR holds ``texts/*.txt`` (one article each) and ``labels.jsonl`` (``file``, ``topic``,
``event``). Every topic holds two look-alike events, so beside the scores over the whole set
the same scores are computed inside each topic and macro-averaged: that is the test of
telling the look-alikes apart. newsloom runs in batch (canonical order) and streaming (one by
one, shuffled with a fixed seed); two peers run beside it: TF-IDF over all words and over
capitalised words and numbers only, each with agglomerative clustering (cosine, average
linkage) at the distance threshold that scores best on the same data (an upper bound for them).
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..config import Settings
from ..errors import InputError
from ..models import Article, ArticleAnalysis, Skipped, article_id

Labeling = Sequence[str]  # one cluster label per item, items in one fixed order

# Peer thresholds tried (cosine distance); the best by BCubed F1 is reported.
PEER_THRESHOLDS = tuple(round(0.30 + 0.025 * i, 3) for i in range(27))  # 0.30 .. 0.95
# Capitalised words and numbers (the "names only" peer).
CAPITALISED = r"(?u)\b[A-Z][\w'-]*\b|\b\d[\d.,]*\b"


# --- metrics -------------------------------------------------------------------------------


def bcubed(gold: Labeling, pred: Labeling) -> tuple[float, float, float]:
    """Item-averaged BCubed precision, recall and F1."""
    pairs = Counter(zip(gold, pred, strict=True))
    gsize, psize = Counter(gold), Counter(pred)
    n = len(gold)
    if not n:
        return 0.0, 0.0, 0.0
    # Each item of cell (g, p) has |cell| correct items in its predicted and gold clusters.
    precision = sum(c * c / psize[p] for (g, p), c in pairs.items()) / n
    recall = sum(c * c / gsize[g] for (g, p), c in pairs.items()) / n
    return precision, recall, _f1(precision, recall)


def pairwise(gold: Labeling, pred: Labeling) -> tuple[float, float, float]:
    """Precision, recall and F1 over the pairs of items put in one cluster."""
    both = sum(c * (c - 1) // 2 for c in Counter(zip(gold, pred, strict=True)).values())
    in_pred = sum(c * (c - 1) // 2 for c in Counter(pred).values())
    in_gold = sum(c * (c - 1) // 2 for c in Counter(gold).values())
    precision = both / in_pred if in_pred else 1.0
    recall = both / in_gold if in_gold else 1.0
    return precision, recall, _f1(precision, recall)


def _f1(p: float, r: float) -> float:
    return 2 * p * r / (p + r) if p + r else 0.0


def scores(gold: Labeling, pred: Labeling) -> dict[str, float]:
    from sklearn.metrics import adjusted_mutual_info_score, adjusted_rand_score

    bp, br, bf = bcubed(gold, pred)
    pp, pr, pf = pairwise(gold, pred)
    return {
        "b3_p": bp,
        "b3_r": br,
        "b3_f1": bf,
        "pair_p": pp,
        "pair_r": pr,
        "pair_f1": pf,
        "ari": float(adjusted_rand_score(gold, pred)),
        "ami": float(adjusted_mutual_info_score(gold, pred, average_method="arithmetic")),
        "clusters": float(len(set(pred))),
        "gold_clusters": float(len(set(gold))),
    }


def within_topic(gold: Labeling, pred: Labeling, topics: Sequence[int]) -> dict[str, float]:
    """The same scores inside each topic (predictions restricted to it), macro-averaged."""
    by_topic: dict[int, list[int]] = defaultdict(list)
    for i, topic in enumerate(topics):
        by_topic[topic].append(i)
    rows = [scores([gold[i] for i in idx], [pred[i] for i in idx]) for idx in by_topic.values()]
    return {k: sum(r[k] for r in rows) / len(rows) for k in rows[0]} if rows else {}


def wrong_merges(gold: Labeling, pred: Labeling, topics: Sequence[int]) -> tuple[int, int]:
    """False-positive pairs: (same topic, other event) and (different topics)."""
    same = cross = 0
    clusters: dict[str, list[int]] = defaultdict(list)
    for i, p in enumerate(pred):
        clusters[p].append(i)
    for members in clusters.values():
        for x, i in enumerate(members):
            for j in members[x + 1 :]:
                if gold[i] != gold[j]:
                    if topics[i] == topics[j]:
                        same += 1
                    else:
                        cross += 1
    return same, cross


# --- data ----------------------------------------------------------------------------------


@dataclass
class Item:
    file: str
    topic: int
    event: str
    text: str


def read_dataset(data: Path) -> list[Item]:
    labels_path = data / "labels.jsonl"
    if not labels_path.is_file() or not (data / "texts").is_dir():
        raise InputError(
            str(data), "no labels.jsonl and texts/ here; point --data at the ECB+ dev folder"
        )
    items = []
    for line in labels_path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            text = (data / "texts" / row["file"]).read_text(encoding="utf-8")
            items.append(Item(row["file"], int(row["topic"]), str(row["event"]), text))
    return items


def usable_stages() -> tuple[str, ...]:
    """Declared stages whose requirements an earlier declared stage provides."""
    from ..analyze.stages import STAGES
    from ..errors import StageError
    from ..pipeline import build_pipeline

    names: list[str] = []
    for name in (s.name for s in STAGES):
        try:
            build_pipeline(STAGES, [*names, name])
        except StageError:  # needs a stage that is not declared
            continue
        names.append(name)
    return tuple(names)


def analyse(items: Sequence[Item], settings: Settings | None = None) -> list[ArticleAnalysis]:
    """Per-article analysis with every stage that can run; a failing article keeps its text."""
    from ..analyze import analyze_articles
    from ..analyze.stages import STAGES
    from ..pipeline import build_pipeline

    settings = settings or Settings()
    try:
        specs = build_pipeline(STAGES, settings.stages)
    except Exception:  # a stage whose requirement is not written yet: run the ones that can
        specs = build_pipeline(STAGES, usable_stages())
    articles = [
        Article(id=article_id(it.text) + ":" + it.file, text=it.text, path=it.file, origin=it.file)
        for it in items
    ]
    out = []
    for article, result in zip(articles, analyze_articles(articles, settings, specs), strict=True):
        out.append(ArticleAnalysis(article=article) if isinstance(result, Skipped) else result)
    return out


# --- runs ----------------------------------------------------------------------------------


def newsloom_labels(analyses: Sequence[ArticleAnalysis], order: str, seed: int = 0) -> list[str]:
    """Story label per analysis: ``batch`` (cluster_analyses) or ``stream`` (shuffled feed)."""
    from ..stories.cluster import StoryIndex, cluster_analyses, features_of

    if order == "batch":
        label = {}
        for n, group in enumerate(cluster_analyses(analyses)):
            for a in group:
                label[a.article.id] = f"b{n}"
        return [label[a.article.id] for a in analyses]
    index = StoryIndex(features_of({a.article.id: a for a in analyses}))
    feed = list(analyses)
    random.Random(seed).shuffle(feed)
    for a in feed:
        index.assign(a)
    return [index.story_key(a.article.id) for a in analyses]


def peer_labels(texts: Sequence[str], capitalised: bool) -> list[tuple[float, list[str]]]:
    """Agglomerative clustering (cosine, average linkage) of TF-IDF vectors, per threshold."""
    from sklearn.cluster import AgglomerativeClustering
    from sklearn.feature_extraction.text import TfidfVectorizer

    if capitalised:
        vectorizer = TfidfVectorizer(lowercase=False, token_pattern=CAPITALISED)
    else:
        vectorizer = TfidfVectorizer(stop_words="english")
    from sklearn.metrics.pairwise import cosine_distances

    # Cosine distances once, then one average-linkage run per threshold on them.
    distances = cosine_distances(vectorizer.fit_transform(texts))
    runs = []
    for threshold in PEER_THRESHOLDS:
        model = AgglomerativeClustering(
            n_clusters=None, metric="precomputed", linkage="average", distance_threshold=threshold
        )
        runs.append((threshold, [str(x) for x in model.fit_predict(distances)]))
    return runs


@dataclass
class Row:
    name: str
    overall: dict[str, float]
    topic: dict[str, float]
    merges: tuple[int, int]
    note: str = ""
    seconds: float = 0.0
    mode: str = "peer"  # batch, stream or peer


@dataclass
class Report:
    data: str
    articles: int
    events: int
    topics: int
    stages: tuple[str, ...]
    rows: list[Row] = field(default_factory=list)


def score_row(
    name: str, items: Sequence[Item], pred: Labeling, note: str = "", seconds: float = 0.0
) -> Row:
    gold = [it.event for it in items]
    topics = [it.topic for it in items]
    return Row(
        name,
        scores(gold, pred),
        within_topic(gold, pred, topics),
        wrong_merges(gold, pred, topics),
        note,
        seconds,
    )


def run_eval(
    data: Path,
    order: str = "both",
    seed: int = 0,
    with_peers: bool = True,
    analyses: Sequence[ArticleAnalysis] | None = None,
    orders: int = 1,
) -> Report:
    """Score newsloom's clustering (and the peers) on an ECB+ folder.

    ``orders`` > 1 streams in that many shuffled orders (seeds ``seed``, ``seed + 1``, ...),
    one row each, plus their mean and minimum. ``analyses`` (same order as labels.jsonl)
    skips the per-article analysis, for experiments.
    """
    if orders < 1:
        raise InputError("--orders", "must be at least 1")
    if order not in ("batch", "stream", "both"):
        raise InputError("--order", f"unknown order {order!r}; use batch, stream or both")
    items = read_dataset(data)
    settings = Settings()
    stages = usable_stages()
    if analyses is None:
        analyses = analyse(items, settings)
    report = Report(
        str(data),
        len(items),
        len({it.event for it in items}),
        len({it.topic for it in items}),
        stages,
    )
    plan = [("batch", seed)] if order in ("batch", "both") else []
    if order in ("stream", "both"):
        plan += [("stream", s) for s in range(seed, seed + orders)]
    for mode, run_seed in plan:
        start = time.perf_counter()
        pred = newsloom_labels(analyses, mode, run_seed)
        note = "canonical order" if mode == "batch" else f"shuffled, seed {run_seed}"
        name = f"newsloom {mode}" if mode == "batch" or orders == 1 else f"stream seed {run_seed}"
        row = score_row(name, items, pred, note, time.perf_counter() - start)
        row.mode = mode
        report.rows.append(row)
    if with_peers:
        texts = [it.text for it in items]
        for name, cap in (("tfidf words", False), ("tfidf capitalised", True)):
            start = time.perf_counter()
            runs = [(t, score_row(name, items, pred)) for t, pred in peer_labels(texts, cap)]
            threshold, best = max(runs, key=lambda tr: tr[1].overall["b3_f1"])
            best.note = f"best threshold {threshold}"
            best.seconds = time.perf_counter() - start
            report.rows.append(best)
    return report


def format_report(report: Report) -> str:
    cols = ("b3_p", "b3_r", "b3_f1", "pair_p", "pair_r", "pair_f1", "ari", "ami")
    labels = ("B3-P", "B3-R", "B3-F1", "pr-P", "pr-R", "pr-F1", "ARI", "AMI")
    head = f"{'':18}" + "".join(f"{c:>7}" for c in labels) + f"{'clus':>6}"
    lines = [
        f"ECB+ {report.data}: {report.articles} articles, {report.events} events, "
        f"{report.topics} topics",
        f"stages run: {', '.join(report.stages) or 'none'}",
        "",
        "Over all articles",
        head,
    ]
    for row in report.rows:
        vals = "".join(f"{row.overall[c]:7.3f}" for c in cols)
        lines.append(f"{row.name:18}{vals}{int(row.overall['clusters']):6d}")
    lines += ["", "Inside each topic (macro-average over topics: the look-alike test)", head]
    for row in report.rows:
        vals = "".join(f"{row.topic[c]:7.3f}" for c in cols)
        lines.append(f"{row.name:18}{vals}{row.topic['clusters']:6.2f}")
    lines += ["", "Wrong merges (article pairs): same topic / cross topic; seconds; note"]
    for row in report.rows:
        lines.append(
            f"{row.name:18}{row.merges[0]:7d}{row.merges[1]:7d}{row.seconds:9.2f}  {row.note}"
        )
    lines.append(
        f"gold clusters: {int(report.rows[0].overall['gold_clusters'])}" if report.rows else ""
    )
    streams = [row for row in report.rows if row.mode == "stream"]
    if len(streams) > 1:
        f1 = [row.overall["b3_f1"] for row in streams]
        ari = [row.topic["ari"] for row in streams]
        lines.append(
            f"over {len(streams)} stream orders: B3 F1 mean {sum(f1) / len(f1):.3f} (min "
            f"{min(f1):.3f}), within-topic ARI mean {sum(ari) / len(ari):.3f} (min {min(ari):.3f})"
        )
    return "\n".join(lines)
