"""Story splitting: where a story of two look-alike events divides, and how similar the halves
are."""

from __future__ import annotations

import random

import numpy as np
from scipy.cluster.hierarchy import fcluster, linkage
from scipy.spatial.distance import squareform

from newsloom.stories.features import Features
from newsloom.stories.split import bisect, local_similarity, spectral_halves


def two_groups_and_a_loner(rng: random.Random) -> np.ndarray:
    """Members 0-5 and 7-13 are two events; member 6 (an odd article) is tied to nobody."""
    n = 14
    sim = np.full((n, n), 0.04)
    for group in (range(0, 6), range(7, 14)):
        for i in group:
            for j in group:
                sim[i, j] = 0.45 + rng.uniform(-0.05, 0.05)
    sim[6, :] = sim[:, 6] = 0.03
    sim = (sim + sim.T) / 2
    np.fill_diagonal(sim, 1.0)
    return sim


def test_spectral_halves_find_the_two_events_not_the_loner():
    sim = two_groups_and_a_loner(random.Random(3))
    labels = spectral_halves(sim)
    assert len({labels[i] for i in range(6)}) == 1
    assert len({labels[i] for i in range(7, 14)}) == 1
    assert labels[0] != labels[7]
    # Average linkage, the method before, cuts the loner off instead: why spectral is used.
    dist = np.clip(1 - sim, 0, None)
    np.fill_diagonal(dist, 0)
    average = fcluster(
        linkage(squareform(dist, checks=False), method="average"), 2, criterion="maxclust"
    )
    assert sorted(np.bincount(average)[1:]) == [1, 13]


def test_spectral_halves_of_two_members_and_of_a_uniform_story():
    assert sorted(spectral_halves(np.array([[1.0, 0.2], [0.2, 1.0]]))) == [0, 1]
    labels = spectral_halves(np.full((6, 6), 0.3))
    assert set(labels) == {0, 1}  # always two halves; the caller decides from their similarity


def _unit(terms: list[str]) -> dict[str, float]:
    return {t: 1 / len(terms) ** 0.5 for t in terms}


def test_the_years_cited_divide_a_story_whose_words_do_not():
    rng = random.Random(5)
    words = [f"w{i}" for i in range(30)]
    names = [f"n{i}" for i in range(12)]

    def member(year: str) -> Features:
        return Features(
            words=_unit(rng.sample(words, 12)), names=_unit(rng.sample(names, 5)), years={year: 1.0}
        )

    members = [member("2008") for _ in range(8)] + [member("2013") for _ in range(8)]
    with_years = {"names": 0.5, "pairs": 0.2, "words": 0.3, "years": 0.2}
    labels, between = bisect(members, with_years)
    assert len(set(labels[:8])) == 1 and len(set(labels[8:])) == 1 and labels[0] != labels[8]
    sim = local_similarity(members, with_years)
    within = sim[:8, :8][np.triu_indices(8, 1)].mean()
    assert between < within - 0.15


def test_bisect_of_fewer_than_two_members_never_splits():
    assert bisect([], {"words": 1.0}) == ([], 1.0)
    assert bisect([Features(words={"a": 1.0})], {"words": 1.0}) == ([0], 1.0)
