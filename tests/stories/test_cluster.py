"""Story clustering: grouping, look-alikes kept apart, order, persistence, odd input."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from newsloom.models import Article, ArticleAnalysis, Entity, EntityMention, article_id
from newsloom.stories.cluster import StoryIndex, canonical_order, cluster_analyses
from newsloom.stories.features import extract_features


def make(
    text: str, published: str | None = None, entities: tuple[str, ...] = ()
) -> ArticleAnalysis:
    article = Article(id=article_id(text), text=text, origin="<test>", published=published)
    ents = []
    for i, name in enumerate(entities):
        start = text.find(name)
        mentions = (
            [EntityMention(start=start, end=start + len(name), text=name)] if start >= 0 else []
        )
        ents.append(Entity(id=str(i), name=name, type="PERSON", mentions=mentions))
    return ArticleAnalysis(article=article, entities=ents)


# Two look-alike events (same kind, different people, place and year) and an unrelated one.
REHAB_A = [
    "Actress Tara Reid, 33, has entered the Promises Treatment Center in Malibu, her "
    "representative Jack Ketsoyan said on Tuesday in 2008.",
    "Tara Reid checked into Promises in Malibu in 2008, Ketsoyan confirmed; Reid starred in "
    "American Pie.",
    "Promises Treatment Center confirms Tara Reid stay. Ketsoyan said Reid is doing well at "
    "Promises in 2008.",
]
REHAB_B = [
    "Lindsay Lohan left the Betty Ford Center and moved to Cliffside rehab in Malibu, "
    "attorney Shawn Holley said in 2013.",
    "Lohan transfers from Betty Ford to Cliffside in 2013; Holley said Lohan is grateful for "
    "the Betty Ford treatment.",
    "A judge allowed Lindsay Lohan to move to Cliffside, Holley told reporters in 2013 after "
    "Betty Ford.",
]
QUAKE = [
    "A magnitude 6.1 earthquake struck Sumatra on Wednesday, the Indonesian agency BMKG "
    "said, killing 23 people.",
    "BMKG said the Sumatra earthquake of magnitude 6.1 killed 23 and damaged buildings in Padang.",
]


def events() -> tuple[list[ArticleAnalysis], list[int]]:
    analyses, gold = [], []
    for label, texts in enumerate((REHAB_A, REHAB_B, QUAKE)):
        for text in texts:
            analyses.append(make(text))
            gold.append(label)
    return analyses, gold


def partition(groups: list[list[ArticleAnalysis]]) -> set[frozenset[str]]:
    return {frozenset(a.article.id for a in g) for g in groups}


def gold_partition(analyses: list[ArticleAnalysis], gold: list[int]) -> set[frozenset[str]]:
    by: dict[int, set[str]] = {}
    for a, g in zip(analyses, gold, strict=True):
        by.setdefault(g, set()).add(a.article.id)
    return {frozenset(v) for v in by.values()}


def test_events_grouped_and_lookalikes_apart():
    analyses, gold = events()
    assert partition(cluster_analyses(analyses)) == gold_partition(analyses, gold)


@pytest.mark.parametrize("seed", range(6))
def test_batch_is_the_same_for_any_input_order(seed):
    analyses, _ = events()
    shuffled = list(analyses)
    random.Random(seed).shuffle(shuffled)
    assert partition(cluster_analyses(shuffled)) == partition(cluster_analyses(analyses))


def test_streaming_in_canonical_order_equals_batch():
    analyses, _ = events()
    index = StoryIndex()
    for a in canonical_order(analyses):
        index.assign(a)
    by_id = {a.article.id: a for a in analyses}
    streamed = {frozenset(ids) for ids in index.groups()}
    assert streamed == partition(cluster_analyses(analyses))
    assert all(aid in by_id for ids in streamed for aid in ids)


@pytest.mark.parametrize("order", list(itertools.permutations(range(3))))
def test_streaming_any_event_order_finds_the_events(order):
    analyses, gold = events()
    index = StoryIndex()
    for label in order:
        for a, g in zip(analyses, gold, strict=True):
            if g == label:
                index.assign(a)
    assert {frozenset(ids) for ids in index.groups()} == gold_partition(analyses, gold)


def test_state_round_trips_through_json_and_continues_the_same():
    analyses, _ = events()
    first, rest = analyses[::2], analyses[1::2]
    live = StoryIndex()
    for a in first:
        live.assign(a)
    restored = StoryIndex.from_dict(json.loads(json.dumps(live.to_dict())))
    assert [live.assign(a) for a in rest] == [restored.assign(a) for a in rest]
    assert live.groups() == restored.groups()


def test_assign_is_idempotent_and_keys_follow_merges():
    analyses, _ = events()
    index = StoryIndex()
    keys = [index.assign(a) for a in analyses]
    assert [index.assign(a) for a in analyses] == [index.story_key(a.article.id) for a in analyses]
    assert len(set(keys)) >= 3
    assert sum(len(g) for g in index.groups()) == len(analyses)


def test_unrelated_articles_open_their_own_stories():
    texts = [
        "The central bank raised interest rates by half a point on Thursday.",
        "Heavy snow closed schools across the northern valley.",
        "A new species of frog was described by biologists in Peru.",
    ]
    groups = cluster_analyses([make(t) for t in texts])
    assert len(groups) == 3


def test_far_apart_publication_days_split_a_weak_match():
    text_a = "Flooding hit the riverside town, officials said, and roads were closed."
    text_b = "Flooding hit the riverside town again, officials said; roads were closed."
    near = cluster_analyses([make(text_a, "2020-03-01"), make(text_b, "2020-03-03")])
    far = cluster_analyses([make(text_a, "2020-03-01"), make(text_b, "2022-09-01")])
    assert len(near) == 1
    assert len(far) == 2


@pytest.mark.parametrize(
    "text", ["", "   \n\n", "“unbalanced", "🙂🙂🙂 ###", "1999 2000 2001", "A"]
)
def test_odd_input_never_crashes(text):
    index = StoryIndex()
    key = index.assign(make(text))
    assert index.story_key(article_id(text)) == key


def test_duplicate_ids_keep_one_member():
    a = make(REHAB_A[0])
    groups = cluster_analyses([a, a])
    assert [len(g) for g in groups] == [1]


# --- features -----------------------------------------------------------------------------

NAME_ROWS = [
    # (text, names that must be found, words that must not be names)
    ("Police said Tara Reid left.", {"tara", "reid", "tara reid"}, {"police"}),
    (
        "Police arrested him. The police chief, Police Commissioner Kelly, spoke.",
        {"kelly", "police"},
        set(),
    ),
    ("Yesterday it rained in Paris.", {"paris"}, {"yesterday"}),
    ("On Monday, in March, Mr Smith won.", {"smith"}, {"monday", "march", "mr"}),
    ("The quake killed 23 people on June 13.", {"#23", "@6-13"}, {"#13"}),
]


@pytest.mark.parametrize("text,present,absent", NAME_ROWS)
def test_name_keys(text, present, absent):
    names = extract_features(make(text)).names
    assert present <= names.keys()
    assert not absent & names.keys()


YEAR_ROWS = [
    ("It happened in 2008 and again in 2008, not 2013.", {"2008", "2013"}),
    ("He paid 2,000 dollars for 1500 tickets.", set()),
    ("No year here.", set()),
]


@pytest.mark.parametrize("text,years", YEAR_ROWS)
def test_years(text, years):
    assert set(extract_features(make(text)).years) == years


def test_entities_add_name_keys():
    text = "The minister spoke. Ana Lima said the plan works."
    feats = extract_features(make(text, entities=("Ana Lima",)))
    assert "=ana lima" in feats.names
    assert "=ana lima" not in extract_features(make(text)).names


PAIR_ROWS = [
    # (text, pairs that must be found, pairs that must not)
    (
        "Reid entered the Promises Treatment Center.",
        {"reid entered", "promise treatment", "treatment center"},
        set(),
    ),
    (
        "Teixeira signs with the Angels.",
        {"teixeira sign", "sign angel"},
        set(),
    ),  # stop words skipped
    ("Rain fell, markets rose.", {"rain fell", "market rose"}, {"fell market"}),  # clause break
    ("The quake hit. Rescuers came.", {"quake hit"}, {"hit rescuer"}),  # sentence break
    ("Prices rose 12 percent.", {"price rose"}, {"rose percent"}),  # a number breaks the pair
    ("", set(), {""}),
]


@pytest.mark.parametrize("text,present,absent", PAIR_ROWS)
def test_word_pairs(text, present, absent):
    pairs = extract_features(make(text)).pairs
    assert present <= pairs.keys()
    assert not absent & pairs.keys()


def test_state_of_another_version_still_loads():
    """Story fields an older or newer version wrote (or lacks) do not break loading."""
    analyses, _ = events()
    index = StoryIndex()
    for a in analyses[:3]:
        index.assign(a)
    state = json.loads(json.dumps(index.to_dict()))
    for story in state["stories"]:
        story["unknown_field"] = {"x": 1.0}
        del story["pairs"]
    del state["df"]["pairs"]
    loaded = StoryIndex.from_dict(state)
    key = loaded.assign(analyses[3])
    assert loaded.story(key) is not None and loaded.groups()


def test_word_pairs_keep_the_first_in_reading_order():
    from newsloom.stories.features import MAX_PAIRS

    words = ["".join(w) for w in itertools.product("bdgkt", "aeiou", "mnprz")]  # 'bam', ...
    clauses = [f"{words[2 * i]} {words[2 * i + 1]}" for i in range(MAX_PAIRS + 10)]
    pairs = extract_features(make(". ".join(clauses) + ".")).pairs
    assert len(pairs) == MAX_PAIRS
    assert clauses[0] in pairs
    assert clauses[MAX_PAIRS + 5] not in pairs


# --- splitting a story that holds two look-alike events --------------------------------------


def _unit(terms: list[str]) -> dict[str, float]:
    return {t: 1 / len(terms) ** 0.5 for t in terms}


SHARED_WORDS = [
    "rehab",
    "clinic",
    "actress",
    "checked",
    "treatment",
    "facility",
    "spokesperson",
    "confirmed",
    "malibu",
    "stay",
    "center",
    "court",
]
EVENT_A = (
    ["tara reid", "reid", "promises", "ketsoyan", "american pie", "2008"],
    ["pie", "scrubs", "representative", "promises", "party", "film"],
)
EVENT_B = (
    ["lindsay lohan", "lohan", "betty ford", "cliffside", "holley", "2013"],
    ["judge", "transfer", "attorney", "probation", "mandated", "order"],
)


def lookalike(rng: random.Random, event: tuple[list[str], list[str]]):
    """Features of one article: the kind's shared vocabulary plus its own event's details."""
    from newsloom.stories.features import Features

    names, words = event
    w = (
        rng.sample(SHARED_WORDS, 9)
        + rng.sample(words, 4)
        + [f"w{rng.randrange(10**6)}" for _ in range(3)]
    )
    n = ["malibu", "california"] + rng.sample(names, 4) + [f"n{rng.randrange(10**6)}"]
    return Features(
        words=_unit(w), names=_unit(n), pairs=_unit([f"{w[i]} {w[i + 1]}" for i in range(0, 8, 2)])
    )


def lookalike_stream(seed: int, b_count: int = 8):
    """Background articles, six of event A, then ``b_count`` of look-alike event B."""
    from newsloom.stories.features import Features

    rng = random.Random(seed)
    feed = [
        (
            f"x{i}",
            Features(
                words=_unit([f"f{i}_{k}" for k in range(10)] + ["court"]), names=_unit([f"g{i}"])
            ),
        )
        for i in range(40)
    ]
    feed += [(f"a{i}", lookalike(rng, EVENT_A)) for i in range(6)]
    feed += [(f"b{i}", lookalike(rng, EVENT_B)) for i in range(b_count)]
    return feed


@pytest.mark.parametrize("seed", range(5))
def test_a_story_holding_two_lookalike_events_splits_and_stays_split(seed):
    index = StoryIndex()
    joined_a = False
    for aid, feats in lookalike_stream(seed):
        key = index.add(aid, feats)
        joined_a |= aid.startswith("b") and key == index.story_key("a0")
    assert joined_a, "the first articles of event B should land in A's story (what a stream does)"
    groups = {frozenset(g) for g in index.groups() if not g[0].startswith("x")}
    assert groups == {frozenset(f"a{i}" for i in range(6)), frozenset(f"b{i}" for i in range(8))}
    # A's story keeps its key; B's is new and is never merged back.
    assert index.story_key("a0") == index.story_key("a5") != index.story_key("b0")


def test_one_event_does_not_split():
    from newsloom.stories.features import Features

    rng = random.Random(7)
    index = StoryIndex()
    for i in range(400):  # background, so the event's words stay rare in the stream
        index.add(
            f"x{i}", Features(words=_unit([f"f{i}_{k}" for k in range(10)]), names=_unit([f"g{i}"]))
        )
    for i in range(30):
        index.add(f"a{i}", lookalike(rng, EVENT_A))
    assert len({index.story_key(f"a{i}") for i in range(30)}) == 1


def test_changed_stories_include_both_halves_of_a_split():
    index = StoryIndex()
    feed = lookalike_stream(0)
    for aid, feats in feed[:-1]:
        index.add(aid, feats)
    index.take_changed()
    index.add(*feed[-1])
    assert index.take_changed() == {index.story_key("b7")}
    index = StoryIndex()
    for aid, feats in feed:
        index.add(aid, feats)
    assert {index.story_key("a0"), index.story_key("b0")} <= index.take_changed()


def test_a_restored_index_splits_like_the_live_one_when_it_can_load_features():
    feed = lookalike_stream(3)
    feats = dict(feed)
    live = StoryIndex()
    for aid, f in feed[:47]:  # background, event A, the first B article
        live.add(aid, f)
    restored = StoryIndex.from_dict(
        json.loads(json.dumps(live.to_dict())), lambda ids: {aid: feats[aid] for aid in ids}
    )
    for aid, f in feed[47:]:
        assert live.add(aid, f) == restored.add(aid, f)
    assert live.groups() == restored.groups()
    assert len({restored.story_key(aid) for aid, _ in feed[40:]}) == 2


@pytest.mark.parametrize("seed", range(3))
def test_every_story_holds_its_founding_article_first(seed):
    """Story ids hash the first member (``stories.story_id``): a split leaves the founder
    first in the half that keeps the story; the other half starts with its own first article."""
    index = StoryIndex()
    arrival: list[str] = []
    for aid, feats in lookalike_stream(seed):
        index.add(aid, feats)
        arrival.append(aid)
        for members in index.groups():
            assert members[0] == min(members, key=arrival.index)
    assert index.story(index.story_key("a0")).members[0] == "a0"
    assert index.story(index.story_key("b0")).members[0] == "b0"


def test_a_merge_keeps_the_absorbing_story_founder_first():
    analyses, _ = events()
    index = StoryIndex()
    first, second = (index.assign(a) for a in (analyses[0], analyses[3]))
    assert first != second
    kept = index._merge(second, first)  # either argument order: the older story absorbs
    assert kept == first
    assert index.story(kept).members == [analyses[0].article.id, analyses[3].article.id]


@pytest.mark.parametrize("seed", range(6))
def test_the_most_hit_stories_are_the_head_of_the_whole_ranking(seed):
    """``_most_hits`` sorts only the stories that can make the cut; the answer is the first
    ``k`` of the full sort (most hits, ties to the older key), with ties at the cut."""
    from collections import Counter

    from newsloom.stories.cluster import _most_hits

    rng = random.Random(seed)
    hits = Counter(
        {f"s{rng.randrange(5000)}": rng.choice([1, 1, 1, 2, 2, 3, 5]) for _ in range(600)}
    )
    whole = [k for k, _ in sorted(hits.items(), key=lambda kv: (-kv[1], int(kv[0][1:])))]
    for k in (1, 5, 16, len(hits), len(hits) + 3):
        assert _most_hits(hits, k) == whole[:k]
