"""Tell whether a story holds two look-alike events, and where it divides.

A stream attaches the first article of a new event to a look-alike story when nothing better
exists yet (two rehab stories, two pirate raids foiled by one navy); every later article of
that event then follows it. Against the whole stream the two events share rare words and
names, so the global weights cannot see the seam. Inside the story they can: re-weighted by
the document frequency *among the story's members*, what all members share (the celebrity,
"rehab") weighs nothing and what only part of them share (the other actress, the clinic,
the year) carries the similarity.

``bisect`` splits the members in two by average linkage on that local similarity and
reports how similar the two halves are to each other. A story of one event has no seam:
its best split still leaves halves that share their details (``between`` stays high).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

import numpy as np
from scipy.cluster.hierarchy import fcluster, linkage
from scipy.spatial.distance import squareform

from .features import Features

Vector = dict[str, float]


def _local_vectors(vectors: Sequence[Vector]) -> np.ndarray:
    """Rows L2-normalised after weighting by IDF among these vectors (terms of one member out)."""
    n = len(vectors)
    df: Counter[str] = Counter()
    for vec in vectors:
        df.update(vec.keys())
    vocab = {t: i for i, t in enumerate(t for t, c in df.items() if c > 1)}
    matrix = np.zeros((n, max(1, len(vocab))))
    for row, vec in enumerate(vectors):
        for term, weight in vec.items():
            col = vocab.get(term)
            if col is not None:
                matrix[row, col] = weight * math.log((n + 1) / (df[term] + 1))
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return matrix / norms


def local_similarity(members: Sequence[Features], weights: dict[str, float]) -> np.ndarray:
    """Member x member similarity: per-channel cosines of locally weighted vectors, mixed."""
    total = np.zeros((len(members), len(members)))
    for channel, weight in weights.items():
        matrix = _local_vectors([getattr(f, channel) for f in members])
        total += weight * (matrix @ matrix.T)
    return total


def bisect(members: Sequence[Features], weights: dict[str, float]) -> tuple[list[int], float]:
    """Two-way split (labels 0/1) by average linkage, and the mean similarity across it."""
    sim = local_similarity(members, weights)
    dist = np.clip(1.0 - sim, 0.0, None)
    np.fill_diagonal(dist, 0.0)
    tree = linkage(squareform(dist, checks=False), method="average")
    labels = [int(x) - 1 for x in fcluster(tree, 2, criterion="maxclust")]
    a = [i for i, x in enumerate(labels) if x == 0]
    b = [i for i, x in enumerate(labels) if x == 1]
    if not a or not b:
        return [0] * len(members), 1.0
    return labels, float(sim[np.ix_(a, b)].mean())
