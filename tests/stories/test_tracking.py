"""Tracked quotes: one utterance across stories (invented wordings; one article per story)."""

from __future__ import annotations

import random

import pytest

from newsloom.models import ArticleAnalysis
from newsloom.stories import consolidate
from newsloom.stories.quotes import tokenise
from newsloom.stories.tracking import (
    ArticleInfo,
    fingerprints,
    story_nodes,
    track,
    track_stories,
)

from .builders import quoted

SPEECH = "We will rebuild every bridge in this county before the winter comes, I promise you that"
CENSORED = "This council has made a f***ing mess of the flood defences and the people know it"


def _stories(rows: list[tuple[str, str | None, str]]) -> tuple[list, dict[str, ArticleInfo]]:
    """One story per (wording, speaker, date): article ``a<k>`` of outlet ``Outlet <k>``."""
    stories, infos = [], {}
    for k, (text, speaker, published) in enumerate(rows):
        aid = f"a{k}"
        stories.append(consolidate([quoted(aid, (text, speaker), published=published)]))
        infos[aid] = ArticleInfo(f"Outlet {k}", published)
    return stories, infos


def _tracked(rows):
    stories, infos = _stories(rows)
    return track_stories(stories, infos).quotes


def _same(rows) -> bool:
    quotes = _tracked(rows)
    return any(len({m.article_id for m in q.mentions}) == len(rows) for q in quotes)


# (a later outlet's wording of SPEECH or CENSORED, expected variant against the canonical)
VARIANTS = [
    (SPEECH, "identical"),
    ("We will rebuild every bridge in this county before the winter comes", "truncated"),
    ("every bridge in this county before the winter comes", "truncated"),
    (
        "We will rebuild every bridge in this county before the summer comes, I promise you that",
        "word_change",
    ),
    (
        SPEECH.replace("We will", "We will, um,"),
        "filler",
    ),
    (CENSORED.replace("f***ing", "f--king"), "censored"),
    (CENSORED.replace("f***ing", "fucking"), "censored"),
]


@pytest.mark.parametrize(("wording", "expected"), VARIANTS)
def test_a_later_story_requoting_an_utterance_joins_its_tracked_quote(wording, expected):
    original = CENSORED if "council" in wording else SPEECH
    quotes = _tracked(
        [
            (original, "Dana Holt", "2026-01-05"),
            (wording, "Dana Holt", "2026-04-20"),  # months later, another story
        ]
    )
    assert len(quotes) == 1, [q.text for q in quotes]
    (q,) = quotes
    later = next(m for m in q.mentions if m.article_id == "a1")
    assert later.variant == expected
    assert (q.first_article_id, q.first_outlet, q.first_date) == ("a0", "Outlet 0", "2026-01-05")
    assert q.last_date == "2026-04-20"
    assert len(q.story_ids) == 2 and q.links and q.links[0].aligned >= 0.8


def test_the_canonical_wording_is_the_longest_faithful_one():
    short = "We will rebuild every bridge in this county"
    (q,) = _tracked([(short, "Dana Holt", "2026-01-05"), (SPEECH, "Dana Holt", "2026-02-01")])
    assert q.text == SPEECH
    assert {m.article_id: m.variant for m in q.mentions} == {"a0": "truncated", "a1": "identical"}


# Pairs that must stay two tracked quotes: (first, second), each (wording, speaker).
HARD_NEGATIVES = {
    "same speaker, another remark on the topic": (
        (SPEECH, "Dana Holt"),
        (
            "We will cut every tax in this county before the winter comes, and that is a promise",
            "Dana Holt",
        ),
    ),
    "a slogan inside two different sentences": (
        (
            "Our plan is simple: rebuild every bridge and then open the new rail line to the coast",
            "Dana Holt",
        ),
        (
            "They can rebuild every bridge they like but the hospital waiting lists keep growing",
            "Mark Ruiz",
        ),
    ),
    "a short slogan quoted from another speaker": (
        ("rebuild every bridge", "Mark Ruiz"),
        (SPEECH, "Dana Holt"),
    ),
    "a short fragment with no speaker": (
        ("before the winter comes", None),
        (SPEECH, "Dana Holt"),
    ),
    "one short line from two people": (
        ("We have no comment at this time", "Dana Holt"),
        ("We have no comment at this time", "Mark Ruiz"),
    ),
    "similar wording from two speakers": (
        ("The flood defences failed this town and the council must answer for it", "Dana Holt"),
        (
            "The flood defences failed this village and the minister must answer for that",
            "Mark Ruiz",
        ),
    ),
}


@pytest.mark.parametrize("case", sorted(HARD_NEGATIVES))
def test_hard_negatives_stay_apart(case):
    (a, sa), (b, sb) = HARD_NEGATIVES[case]
    assert not _same([(a, sa, "2026-01-05"), (b, sb, "2026-03-01")])


def test_a_short_fragment_joins_when_the_same_speaker_says_it():
    assert _same(
        [("before the winter comes", "Dana Holt", "2026-01-05"), (SPEECH, "Holt", "2026-01-09")]
    )


def test_a_long_line_joins_despite_one_outlet_naming_another_speaker():
    quotes = _tracked(
        [
            (SPEECH, "Dana Holt", "2026-01-05"),
            (SPEECH, "Dana Holt", "2026-01-06"),
            (SPEECH, "Mark Ruiz", "2026-02-01"),
        ]
    )
    (q,) = quotes
    assert q.speaker == "Dana Holt" and q.speaker_conflict == ["Mark Ruiz"]


def test_a_merged_quote_does_not_glue_two_utterances_together():
    first = "We will rebuild every bridge in this county before the winter comes"
    second = "And the new rail line to the coast will open on time next spring"
    one_article = quoted("a0", (first, "Dana Holt"), (second, "Dana Holt"), published="2026-01-05")
    merged = quoted("a1", (f"{first}. {second}", "Dana Holt"), published="2026-03-01")
    stories = [consolidate([one_article]), consolidate([merged])]
    infos = {
        "a0": ArticleInfo("Outlet 0", "2026-01-05"),
        "a1": ArticleInfo("Outlet 1", "2026-03-01"),
    }
    quotes = track_stories(stories, infos).quotes
    assert len(quotes) == 2
    variants = sorted(m.variant for q in quotes for m in q.mentions)
    assert variants == ["identical", "identical", "merged"]


def test_every_mention_belongs_to_exactly_one_tracked_quote():
    rows = [
        (SPEECH, "Dana Holt", "2026-01-05"),
        (
            "We will rebuild every bridge in this county before the winter comes",
            "Holt",
            "2026-02-01",
        ),
        ("rebuild every bridge", "Mark Ruiz", "2026-02-03"),
        (CENSORED, "Dana Holt", "2026-02-04"),
    ]
    stories, infos = _stories(rows)
    result = track_stories(stories, infos)
    spans = [(m.article_id, m.start, m.end) for q in result.quotes for m in q.mentions]
    every = [(m.article_id, m.start, m.end) for s in stories for q in s.quotes for m in q.mentions]
    assert sorted(spans) == sorted(set(every))
    for s in stories:
        for quote in s.quotes:
            assert f"{s.id}:{quote.id}" in result.of_node


def _world(seed: int) -> list[ArticleAnalysis]:
    """Articles re-quoting a few utterances in random wordings, each its own story."""
    rng = random.Random(seed)
    lines = [
        SPEECH,
        CENSORED,
        "The ferry timetable will change on the first of May for every route",
    ]
    cuts = [lambda s: s, lambda s: " ".join(s.split()[2:]), lambda s: " ".join(s.split()[:-3])]
    out = []
    for k in range(12):
        line = rng.choice(lines)
        out.append(
            quoted(
                f"w{k}", (rng.choice(cuts)(line), "Dana Holt"), published=f"2026-0{1 + k % 9}-10"
            )
        )
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_tracking_does_not_depend_on_the_order_stories_come_in(seed):
    analyses = _world(seed)
    infos = {a.article.id: ArticleInfo("x", a.article.published) for a in analyses}
    stories = [consolidate([a]) for a in analyses]
    nodes = [n for s in stories for n in story_nodes(s, infos)]
    expected = track(nodes).quotes
    random.Random(seed).shuffle(nodes)
    assert track(nodes).quotes == expected


def test_fingerprints_find_a_fragment_inside_a_long_quote():
    _, long_core, _, _ = tokenise(SPEECH)
    _, fragment, _, _ = tokenise("rebuild every bridge in")
    assert fingerprints(long_core) & fingerprints(fragment)
    _, tiny, _, _ = tokenise("the winter")  # too short to shingle: keyed whole
    assert len(fingerprints(tiny)) == 1
