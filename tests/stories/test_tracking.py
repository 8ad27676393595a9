"""Tracked quotes: one utterance across stories (invented wordings; one article per story)."""

from __future__ import annotations

import random

import pytest

from newsloom.models import ArticleAnalysis, ExportQuoteMention, Quote, Story
from newsloom.stories import consolidate
from newsloom.stories.quotes import tokenise
from newsloom.stories.tracking import (
    STOP_SPEAKERS,
    ArticleInfo,
    candidate_pairs,
    fingerprints,
    stop_prints,
    story_nodes,
    track,
    track_stories,
)

from .builders import analysis, quoted

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


RAILWAY = "we will build the great northern railway"
# (story wordings with their speakers, the fragment's speaker, the outer quote it joins or None)
FRAGMENTS = [
    # one speaker's two sentences built on one line: the bare line joins neither
    (
        [
            ("The farmers of this valley deserve better, and " + RAILWAY, "Dana Holt"),
            (RAILWAY.capitalize() + " and cut every tax on small shops", "Dana Holt"),
        ],
        "Dana Holt",
        None,
    ),
    # two speakers' sentences: the line joins the one of its own speaker
    (
        [
            ("The farmers of this valley deserve better, and " + RAILWAY, "Dana Holt"),
            (RAILWAY.capitalize() + " and cut every tax on small shops", "Mark Ruiz"),
        ],
        "Mark Ruiz",
        1,
    ),
    # a single longer quote: the fragment is its truncation
    (
        [("The farmers of this valley deserve better, and " + RAILWAY, "Dana Holt")],
        "Dana Holt",
        0,
    ),
]


@pytest.mark.parametrize(("outers", "speaker", "joins"), FRAGMENTS)
def test_a_fragment_never_glues_two_utterances(outers, speaker, joins):
    rows = [(text, who, f"2026-0{k + 1}-05") for k, (text, who) in enumerate(outers)]
    rows.append((RAILWAY.capitalize(), speaker, "2026-06-01"))
    quotes = _tracked(rows)
    fragment = f"a{len(outers)}"
    holder = next(q for q in quotes if any(m.article_id == fragment for m in q.mentions))
    joined = sorted({m.article_id for m in holder.mentions} - {fragment})
    assert joined == ([] if joins is None else [f"a{joins}"])
    if len(outers) == 2:  # the outer quotes never share a tracked quote through the fragment
        assert not any({"a0", "a1"} <= {m.article_id for m in q.mentions} for q in quotes)


# (speakers of the quotes sharing one phrase, is it a stop fingerprint)
STOPS = [
    ([f"Speaker {chr(65 + k)}" for k in range(STOP_SPEAKERS)], False),
    ([f"Speaker {chr(65 + k)}" for k in range(STOP_SPEAKERS + 1)], True),
    (["Speaker A"] * (STOP_SPEAKERS + 4), False),  # one speaker's habit, not common words
    ([None, "the mayor", "a spokesman"] * 4, False),  # no names: nothing counted
]


@pytest.mark.parametrize(("speakers", "stop"), STOPS)
def test_a_phrase_of_many_speakers_is_a_stop_fingerprint(speakers, stop):
    rows = [
        (f"The harbour tax will fall on every trawler owner in {town}", who, "2026-01-05")
        for town, who in zip(
            ["Ashby", "Brill", "Corran", "Dunmore", "Elton", "Fenwick", "Garth", "Hale", "Ixley"]
            + ["Jarrow", "Kells", "Lorne", "Moyle", "Nairn", "Orford"],
            speakers,
            strict=False,
        )
    ]
    stories, infos = _stories(rows)
    nodes = [n for s in stories for n in story_nodes(s, infos)]
    _, core, _, _ = tokenise("the harbour tax will fall on every trawler owner")
    assert bool(fingerprints(core) & stop_prints(nodes)) == stop
    if stop:  # the shared words alone no longer make the quotes candidates
        assert not candidate_pairs(nodes, stop_prints(nodes))


# (an earlier direct quote, a later article's indirect report with the quoted words)
INDIRECT = [
    (
        "The new bypass is a disgrace to every family in this town",
        'Holt said the bypass was "a disgrace to every family in this town" and left',
        True,
    ),
    (  # too few quoted words to be the speaker's own wording
        "The new bypass is a disgrace to every family in this town",
        'Holt said the bypass was a "disgrace" and left',
        False,
    ),
]


@pytest.mark.parametrize(("direct", "report", "linked"), INDIRECT)
def test_words_quoted_inside_an_indirect_report_are_tracked(direct, report, linked):
    first = quoted("a0", (direct, "Dana Holt"), published="2026-01-05")
    later = quoted("a1", (report, "Dana Holt", "indirect"), published="2026-05-05")
    stories = [consolidate([first]), consolidate([later])]
    infos = {a.article.id: ArticleInfo("x", a.article.published) for a in (first, later)}
    quotes = track_stories(stories, infos).quotes
    assert any(len(q.story_ids) == 2 for q in quotes) == linked
    (mention,) = [m for q in quotes for m in q.mentions if m.article_id == "a1"]
    assert later.article.text[mention.start : mention.end] == mention.text
    if linked:
        assert (
            mention.kind == "direct" and mention.text == "a disgrace to every family in this town"
        )


# (two wordings of function words only, their speakers, one tracked quote)
FUNCTION_WORDS = [
    ("I'm not quite there yet", "not quite there yet", "Dana Holt", "Dana Holt", True),
    ("I'm not quite there yet", "not quite there yet", "Dana Holt", "Mark Ruiz", False),
    ("I'm not quite there yet", "we are not there yet", "Dana Holt", "Dana Holt", False),
]


@pytest.mark.parametrize(("one", "other", "first", "second", "same"), FUNCTION_WORDS)
def test_wordings_of_function_words_only_are_fingerprinted(one, other, first, second, same):
    rows = [(one, first, "2026-01-05"), (other, second, "2026-01-20")]
    assert _same(rows) == same


# (a longer quote of one speaker, a later fragment of it, their speakers, one tracked quote):
# every run of a wording is fingerprinted, so a fragment of one run or of function words is
# found inside a longer wording with content words too.
INSIDE_FRAGMENTS = [
    ("We need a strong council and I'm not quite there yet", "I'm not quite there yet")
    + ("Dana Holt", "Dana Holt", True),
    ("We need a strong council and I'm not quite there yet", "I'm not quite there yet")
    + ("Dana Holt", "Mark Ruiz", False),
    ("Of course I paid nothing, that makes me smart", "makes me smart")
    + ("Dana Holt", "Dana Holt", True),
    ("Of course I paid nothing, that makes me smart", "makes me smart")
    + ("Dana Holt", "Mark Ruiz", False),
]


@pytest.mark.parametrize(("longer", "fragment", "first", "second", "same"), INSIDE_FRAGMENTS)
def test_a_fragment_of_one_run_or_function_words_is_found_inside(
    longer, fragment, first, second, same
):
    rows = [(longer, first, "2026-01-05"), (fragment, second, "2026-01-20")]
    assert _same(rows) == same


def _reported(aid: str, text: str, speaker: str | None, people: list[str], published: str):
    """An article quoting ``text`` (speaker ``speaker``, maybe no name) and naming ``people``."""
    body = f'"{text}," the candidate said. ' + " ".join(f"{p} spoke too." for p in people)
    return analysis(
        aid,
        body,
        source=f"Outlet {aid}",
        published=published,
        quotes=[(text, speaker)],
        entities=[{"name": p} for p in people],
    )


# (the fragment's speaker, the people its article names, one tracked quote): a quote the
# speaker stage left unattributed counts as the other quote's speaker's when its article names
# that person; a wrong name or an article about someone else keeps the two apart.
VOUCHED = [
    (None, ["Dana Holt"], True),
    ("a candidate", ["Dana Holt"], True),
    ("a candidate", ["Holt"], True),  # the surname names her
    (None, ["Mark Ruiz"], False),
    ("a candidate", [], False),
    ("Mark Ruiz", ["Dana Holt", "Mark Ruiz"], False),  # a named clash: short words stay apart
]


@pytest.mark.parametrize(("speaker", "people", "same"), VOUCHED)
def test_an_unattributed_fragment_joins_the_speaker_its_article_names(speaker, people, same):
    first = _reported("a0", SPEECH, "Dana Holt", ["Dana Holt"], "2026-01-05")
    later = _reported("a1", "rebuild every bridge in this county", speaker, people, "2026-03-01")
    infos = {a.article.id: ArticleInfo("x", a.article.published) for a in (first, later)}
    quotes = track_stories([consolidate([first]), consolidate([later])], infos).quotes
    assert any(len(q.story_ids) == 2 for q in quotes) == same


def _story(sid: str, aid: str, published: str, *wordings: tuple[str, str]) -> tuple:
    """A story of one article quoting ``wordings`` (text, variant) as one quote of Dana Holt,
    the first the canonical one; and the article's info."""
    mentions, at = [], 0
    for text, variant in wordings:
        mentions.append(
            ExportQuoteMention(
                article_id=aid,
                start=at,
                end=at + len(text),
                text=text,
                kind="direct",
                cue="said",
                speaker="Dana Holt",
                speaker_start=None,
                speaker_end=None,
                variant=variant,
            )
        )
        at += len(text) + 2
    quote = Quote(id=f"{sid}q", text=wordings[0][0], speaker="Dana Holt", mentions=mentions)
    story = Story(id=sid, title=None, article_ids=[aid], quotes=[quote])
    return story, {aid: ArticleInfo(f"Outlet {aid}", published)}


TALKING_POINT = "Let us be clear that the council knows exactly what it is doing to this town"
AGAIN = "The notion that the council does not know what it is doing is simply not true"
# (the second wording the first story groups with TALKING_POINT as a paraphrase, one tracked
# quote with a later story quoting AGAIN): a paraphrase that aligns with the quote (a changed
# word) is its wording; another remark grouped through shared words is not.
PARAPHRASES = [
    (AGAIN, False),
    (TALKING_POINT.replace("this town", "this city"), True),
]


@pytest.mark.parametrize(("grouped", "same"), PARAPHRASES)
def test_a_paraphrase_not_aligned_with_its_quote_links_nothing(grouped, same):
    first, info_a = _story(
        "s1", "a1", "2026-01-05", (TALKING_POINT, "identical"), (grouped, "paraphrased")
    )
    later_text = grouped if same else AGAIN
    second, info_b = _story("s2", "a2", "2026-01-07", (later_text, "identical"))
    quotes = track_stories([first, second], {**info_a, **info_b}).quotes
    assert any(len(q.story_ids) == 2 for q in quotes) == same


# (the people the unattributed fragment's article names, the outer quote it joins or None)
UNNAMED_FRAGMENTS = [
    (["Mark Ruiz"], 1),
    (["Dana Holt"], 0),
    (["Dana Holt", "Mark Ruiz"], None),  # both named: it could be either's
    ([], None),
]


@pytest.mark.parametrize(("people", "joins"), UNNAMED_FRAGMENTS)
def test_an_unattributed_fragment_joins_the_sentence_of_the_speaker_its_article_names(
    people, joins
):
    outers = [
        ("The farmers of this valley deserve better, and " + RAILWAY, "Dana Holt"),
        (RAILWAY.capitalize() + " and cut every tax on small shops", "Mark Ruiz"),
    ]
    arts = [
        _reported(f"a{k}", text, who, [who], f"2026-0{k + 1}-05")
        for k, (text, who) in enumerate(outers)
    ]
    arts.append(_reported("a2", RAILWAY.capitalize(), None, people, "2026-06-01"))
    infos = {a.article.id: ArticleInfo("x", a.article.published) for a in arts}
    quotes = track_stories([consolidate([a]) for a in arts], infos).quotes
    holder = next(q for q in quotes if any(m.article_id == "a2" for m in q.mentions))
    joined = sorted({m.article_id for m in holder.mentions} - {"a2"})
    assert joined == ([] if joins is None else [f"a{joins}"])


# (the longer quote, the quote starting at the same offset, its speaker): two quotes of one
# article starting at one offset that stay apart must get two tracked quote ids.
SAME_START = [
    ("In the river towns we trust the old levees to hold", "In the river towns", "Bob Cruz"),
    ("Nobody in this valley expected the water to rise so fast", "Nobody", "Ann Lee"),
]


@pytest.mark.parametrize(("longer", "shorter", "speaker"), SAME_START)
def test_quotes_starting_at_one_offset_get_distinct_ids(longer, shorter, speaker):
    text = f"{longer}, the mayor said.\nThe river rose again on Tuesday."
    story = consolidate([analysis("a1", text, quotes=[(longer, "Ann Lee"), (shorter, speaker)])])
    result = track_stories([story], {"a1": ArticleInfo("Outlet 1", "2026-01-05")})
    starts = {m.start for q in result.quotes for m in q.mentions}
    assert starts == {0}
    ids = [q.id for q in result.quotes]
    assert len(ids) == len(set(ids))
    assert set(result.of_node.values()) == set(ids)


def _cued(aid: str, text: str, speaker: str, cue: str, people: list[str], published: str):
    """An article quoting ``text``, its cue naming the speaker with the words ``cue`` ("he",
    a title or the name), the speaker stage resolving them to ``speaker``; naming ``people``."""
    body = f'"{text}," {cue} said. ' + " ".join(f"{p} spoke too." for p in people)
    return analysis(
        aid,
        body,
        source=f"Outlet {aid}",
        published=published,
        quotes=[(text, speaker, "direct", {"speaker_text": cue})],
        entities=[{"name": p} for p in {speaker, *people}],
    )


NINE = "rebuild every bridge in this county before the winter"
# (the first quote's cue words, the later wording, the later quote's speaker, its cue words,
# the people its article names, one tracked quote): two named speakers clash unless one of
# them is a name its cue never says (a pronoun or title resolved to a bystander) while the
# other cue says the name, and its article names the other speaker; then a wording of
# ``DOUBTED_FLOOR`` words joins, a shorter phrase does not.
DOUBTED = [
    ("Dana Holt", NINE, "Mark Ruiz", "he", ["Dana Holt"], True),
    ("Holt", NINE, "Mark Ruiz", "the union's director", ["Holt"], True),
    ("Dana Holt", "every bridge in this county", "Mark Ruiz", "he", ["Dana Holt"], False),
    ("Dana Holt", NINE, "Mark Ruiz", "Mark Ruiz", ["Dana Holt"], False),  # named in its cue
    ("Dana Holt", NINE, "Mark Ruiz", "Ruiz", ["Dana Holt"], False),  # the surname names him
    ("Dana Holt", NINE, "Mark Ruiz", "he", ["Lee Park"], False),  # article not about Holt
    ("she", NINE, "Mark Ruiz", "he", ["Dana Holt"], False),  # neither cue says a name
]


@pytest.mark.parametrize(("first_cue", "wording", "speaker", "cue", "people", "same"), DOUBTED)
def test_a_speaker_resolved_from_a_pronoun_does_not_veto_a_strong_wording(
    first_cue, wording, speaker, cue, people, same
):
    first = _cued("a0", SPEECH, "Dana Holt", first_cue, ["Dana Holt"], "2026-01-05")
    later = _cued("a1", wording, speaker, cue, people, "2026-03-01")
    infos = {a.article.id: ArticleInfo("x", a.article.published) for a in (first, later)}
    quotes = track_stories([consolidate([first]), consolidate([later])], infos).quotes
    assert any(len(q.story_ids) == 2 for q in quotes) == same


ROADS = "We will rebuild every bridge and every road in this county before the winter"
# (a later wording of ROADS, one tracked quote): two nouns swapped count their content words
# wherever they are when the wordings are near (most words shared), even when the later outlet
# also drops a word; a reordering with other content words stays apart.
REORDERED = [
    ("We will rebuild every road and every bridge in this county before the winter", True),
    ("will rebuild every road and every bridge in this county before the winter", True),
    ("will close every road and every school in this county before the winter", False),
]


@pytest.mark.parametrize(("wording", "same"), REORDERED)
def test_swapped_nouns_are_one_wording(wording, same):
    assert _same([(ROADS, "Dana Holt", "2026-01-05"), (wording, "Dana Holt", "2026-02-01")]) == same
