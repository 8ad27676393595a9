from __future__ import annotations

from datetime import date

import pytest

from newsloom.stories.quotes import _candidates, _nodes, group_quotes, normalise, tokenise

from .builders import analysis, quoted

CANON = "We will rebuild this city together, stronger than before"
CENSORED = "It was a f***ing disaster from start to finish"


def _variants(quotes):
    return {(m.article_id, m.text): m.variant for q in quotes for m in q.mentions}


# (canonical said by the two first outlets, the third outlet's wording a day later, expected
# variant)
VARIANTS = [
    (CANON, "we will rebuild this city together - stronger than before!", "identical"),
    (CANON, "We will rebuild this city together", "truncated"),
    (CANON, "this city together, stronger than before", "truncated"),
    (CANON, CANON + ", and nobody will stop us", "extended"),
    (CANON, "We will, um, rebuild this city together… stronger than before", "filler"),
    (CANON, "We will, like, rebuild this city together... stronger than before", "filler"),
    (CENSORED, "It was a f**king disaster from start to finish", "censored"),
    (CENSORED, "It was a f—–g disaster from start to finish", "censored"),
    (CENSORED, "It was a f--king disaster from start to finish", "censored"),
    # word order and a dropped word do not split the quote; they are rewordings
    (CANON, "Together we will rebuild this city, stronger than before", "paraphrased"),
    (CANON, "We will rebuild this city, stronger than before", "paraphrased"),
    (CANON, "We will rebuild the city together, stronger than ever before", "paraphrased"),
]


@pytest.mark.parametrize(("canonical", "variant", "expected"), VARIANTS)
def test_variant_classified(canonical, variant, expected):
    quotes = group_quotes(
        [
            quoted("a1", (canonical, "Jane Roe"), published="2024-03-01"),
            quoted("a2", (canonical, "Jane Roe"), published="2024-03-01"),
            quoted("a3", (variant, "Jane Roe"), published="2024-03-02"),
        ]
    )
    assert len(quotes) == 1, [q.text for q in quotes]
    assert quotes[0].text == canonical
    assert _variants(quotes)[("a3", variant)] == expected
    assert _variants(quotes)[("a1", canonical)] == "identical"


def test_uncensored_wording_is_canonical():
    plain = "It was a fucking disaster from start to finish"
    quotes = group_quotes(
        [
            quoted("a1", (CENSORED, "Jane Roe")),
            quoted("a2", ("It was a f—–g disaster from start to finish", "Jane Roe")),
            quoted("a3", (plain, "Jane Roe")),
        ]
    )
    assert len(quotes) == 1
    assert quotes[0].text == plain
    assert [m.variant for m in quotes[0].mentions] == ["censored", "censored", "identical"]


def test_paraphrase_of_same_speaker_joins():
    a = "We are going to cut taxes for working families next year"
    b = "Next year working families will see their taxes cut by this government"
    quotes = group_quotes(
        [
            quoted("a1", (a, "Jane Roe"), published="2024-03-01"),
            quoted("a2", (a, "Jane Roe"), published="2024-03-02"),
            quoted("a3", (b, "Roe"), published="2024-03-02"),
        ]
    )
    assert len(quotes) == 1
    assert _variants(quotes)[("a3", b)] == "paraphrased"


# Pairs that must stay two quotes.
APART = [
    ("I did not do it and I never would", "I did it and I would again"),
    (CANON, "The budget is a joke and everyone knows it"),
    ("We are going to cut taxes for working families", "We are going to raise taxes on big banks"),
]


@pytest.mark.parametrize(("a", "b"), APART)
def test_different_quotes_stay_apart(a, b):
    quotes = group_quotes([quoted("a1", (a, "Jane Roe")), quoted("a2", (b, "Jane Roe"))])
    assert len(quotes) == 2


def test_paraphrase_needs_same_speaker():
    a = "We are going to cut taxes for working families next year"
    b = "Next year working families will see their taxes cut by this government"
    quotes = group_quotes([quoted("a1", (a, "Jane Roe")), quoted("a2", (b, "John Doe"))])
    assert len(quotes) == 2


def test_short_identical_quotes_of_different_speakers_stay_apart():
    quotes = group_quotes(
        [quoted("a1", ("No comment", "Jane Roe")), quoted("a2", ("No comment", "John Doe"))]
    )
    assert len(quotes) == 2
    same = group_quotes(
        [quoted("a1", ("No comment", "Jane Roe")), quoted("a2", ("no comment.", "Jane Roe"))]
    )
    assert len(same) == 1


def test_merged_quote_listed_under_both():
    x, y = CENSORED, "The budget is a joke and everyone knows it"
    apart = analysis(
        "a1",
        f'"{x}," Roe said of the season. The council met on Monday to discuss the budget. '
        f'Later she added: "{y}."',
        quotes=[(x, "Jane Roe"), (y, "Jane Roe")],
        published="2024-03-01",
    )
    quotes = group_quotes(
        [
            apart,
            quoted("a2", (x, "Jane Roe"), published="2024-03-02"),
            quoted("a3", (x + ", and " + y, "Jane Roe"), published="2024-03-02"),
        ]
    )
    assert sorted(q.text for q in quotes) == sorted([x, y])
    for q in quotes:
        merged = [m for m in q.mentions if m.article_id == "a3"]
        assert [m.variant for m in merged] == ["merged"]


def test_quote_split_around_its_cue_is_one_utterance():
    x, y = "My client was promised he could leave if a serious offer came in", "An offer came in"
    split = analysis(
        "a1",
        f'"{x}," Mbatha said. "{y}."',
        quotes=[(x, "Lucia Mbatha"), (y, "Lucia Mbatha")],
        published="2024-01-22",
    )
    whole = quoted(
        "a2", (f"{x}. {y}. Now they pretend to have forgotten", "Mbatha"), published="2024-01-23"
    )
    (quote,) = group_quotes([split, whole])
    assert quote.text == f"{x} {y}"
    assert [m.variant for m in quote.mentions] == ["identical", "identical", "extended"]


def test_two_halves_of_one_quote_are_truncations_not_a_merge():
    first, second = (
        "We will rebuild this city together",
        "stronger than before and nobody will stop us",
    )
    quotes = group_quotes(
        [
            quoted("a1", (first, "Jane Roe")),
            quoted("a2", (second, "Jane Roe")),
            quoted("a3", (first + ", " + second, "Jane Roe")),
        ]
    )
    assert len(quotes) == 1
    assert sorted(m.variant for m in quotes[0].mentions) == ["identical", "truncated", "truncated"]


def test_speaker_conflict_flagged():
    quotes = group_quotes(
        [
            quoted("a1", (CANON, "Jane Roe")),
            quoted("a2", (CANON, "Roe")),
            quoted("a3", (CANON, "John Doe")),
        ]
    )
    assert quotes[0].speaker == "Jane Roe"
    assert quotes[0].speaker_conflict == ["John Doe"]


def test_surname_is_not_a_conflict():
    quotes = group_quotes([quoted("a1", (CANON, "Jane Roe")), quoted("a2", (CANON, "Roe"))])
    assert quotes[0].speaker == "Jane Roe"
    assert quotes[0].speaker_conflict == []


def _attributed(*said: tuple[str | None, float | None, str | None]):
    """One article per (speaker, confidence, words naming the speaker), all quoting CANON."""
    articles = []
    for k, (speaker, confidence, words) in enumerate(said):
        fields: dict = {"speaker_confidence": confidence, "speaker_kind": "person"}
        if words is not None:
            fields["speaker_text"] = words
        articles.append(quoted(f"a{k}", (CANON, speaker, "direct", fields)))
    return articles


# (each outlet's speaker, confidence and words; the story's speaker, its confidence, the
# conflict listed). Confidences are invented; None is an attribution never scored.
SPEAKER_CHOICES = [
    # One sure outlet outweighs two doubtful ones (one vote per outlet would pick John Doe).
    (
        [("John Doe", 0.3, None), ("John Doe", 0.35, None), ("Jane Roe", 0.9, None)],
        ("Jane Roe", 0.9, ["John Doe"]),
    ),
    # Two fairly sure outlets outweigh one very sure one; the confidence is the surest
    # mention naming the chosen speaker.
    (
        [("John Doe", 0.6, None), ("John Doe", 0.65, None), ("Jane Roe", 0.95, None)],
        ("John Doe", 0.65, ["Jane Roe"]),
    ),
    # Never scored (an older store): each outlet weighs UNSCORED_CONFIDENCE.
    (
        [("John Doe", None, None), ("John Doe", None, None), ("Jane Roe", 0.97, None)],
        ("John Doe", None, ["Jane Roe"]),
    ),
    ([("Jane Roe", None, None), ("John Doe", 0.85, None)], ("Jane Roe", None, ["John Doe"])),
    ([("Jane Roe", None, None), ("John Doe", 0.95, None)], ("John Doe", 0.95, ["Jane Roe"])),
    # A tie is broken as before: the longer name, then the alphabet.
    ([("John Doe", 0.5, None), ("Jane Roe", 0.5, None)], ("Jane Roe", 0.5, ["John Doe"])),
    ([("Roe", 0.5, None), ("John Doe", 0.5, None)], ("John Doe", 0.5, ["Roe"])),
    # A surname is that person: its vote and confidence count for the full name.
    (
        [("Roe", 0.7, None), ("Jane Roe", 0.6, None), ("John Doe", 1.0, None)],
        ("Jane Roe", 0.7, ["John Doe"]),
    ),
    # Unresolved mentions ("she", no antecedent) never vote, however many, nor conflict.
    (
        [(None, 0.45, "she"), (None, 0.4, "she"), (None, 0.45, "the official")]
        + [("John Doe", 0.2, None)],
        ("John Doe", 0.2, []),
    ),
    ([(None, 0.45, "she"), (None, 0.3, "they")], (None, None, [])),
]


@pytest.mark.parametrize(("said", "expected"), SPEAKER_CHOICES)
def test_the_story_speaker_is_the_one_the_evidence_favours(said, expected):
    (quote,) = group_quotes(_attributed(*said))
    assert (quote.speaker, quote.speaker_confidence, quote.speaker_conflict) == expected


def test_mentions_keep_their_speaker_words_confidence_and_kind():
    said = [("Jane Roe", 0.9, "Jane Roe"), (None, 0.35, "she")]
    (quote,) = group_quotes(_attributed(*said))
    got = [
        (m.speaker, m.speaker_text, m.speaker_confidence, m.speaker_kind) for m in quote.mentions
    ]
    assert got == [("Jane Roe", "Jane Roe", 0.9, "person"), (None, "she", 0.35, "person")]
    for m, article in zip(quote.mentions, _attributed(*said), strict=True):
        assert article.article.text[m.speaker_start : m.speaker_end] == m.speaker_text


def test_scores_that_never_change_the_choice_keep_the_quote_id():
    unscored = group_quotes(_attributed(("Jane Roe", None, None), ("John Doe", None, None)))
    scored = group_quotes(_attributed(("Jane Roe", 0.9, None), ("John Doe", 0.4, None)))
    assert [q.id for q in unscored] == [q.id for q in scored]


def test_indirect_mentions_group_among_themselves():
    direct = "We will rebuild this city together, stronger than before"
    indirect = "they would rebuild the city together, stronger than before"
    other = "taxes would not rise next year under any circumstances"
    quotes = group_quotes(
        [
            quoted("a1", (direct, "Jane Roe"), (other, "Jane Roe", "indirect")),
            quoted("a2", (indirect, "Jane Roe", "indirect"), (other, "Jane Roe", "indirect")),
        ]
    )
    by_text = {q.text: q for q in quotes}
    assert {m.kind for m in by_text[other].mentions} == {"indirect"}
    assert len(by_text[other].mentions) == 2
    # Restating the direct quote's content, it is attached to it as a paraphrase.
    assert _variants([by_text[direct]])[("a2", indirect)] == "paraphrased"


def test_quote_id_stable_across_article_order():
    arts = [quoted("a1", (CANON, "Jane Roe")), quoted("a2", (CANON + " and more", "Jane Roe"))]
    assert [q.id for q in group_quotes(arts)] == [q.id for q in group_quotes(arts[::-1])]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("f***ing f**king f—–g f--king", "f* f* f* f*"),
        ("sh*t b****", "s* b*"),
        ("he--she well-known", "he she well known"),
        ("I was, um, uh... like, there", "i was there"),
        ("I like, you know, him", "i you know him"),
        ("I like him", "i like him"),
        ("Don’t", "don't"),
    ],
)
def test_normalise(text, expected):
    assert normalise(text) == expected


def test_filler_count():
    assert tokenise("um, so... yes")[3] == 2


def test_blocking_skips_unrelated_wordings():
    arts = [
        quoted("a1", (CANON, "Jane Roe")),
        quoted("a2", ("The budget is a joke and everyone knows it", "Jane Roe")),
        quoted("a3", ("We will rebuild this city", "Jane Roe")),
    ]
    from newsloom.stories import quotes as q

    mentions = []
    for index, a in enumerate(arts):
        for m in a.quotes:
            raw, core, c, f = tokenise(m.text)
            mentions.append(
                q._Mention(a.article.id, index, m, raw, core, c, f, m.speaker, date.max)
            )
    nodes = _nodes(mentions, list(range(len(mentions))))
    assert _candidates(nodes) == [(0, 2)]


def test_empty_and_odd_input():
    assert group_quotes([]) == []
    assert group_quotes([quoted("a1", ("...", None)), quoted("a2", ("— —", None))]) == []


# (quotes of article a1 as (start, end, cue), mentions expected in its story quote): one span
# reported by two cues is one mention; two spans stay two.
SPANS = [
    ([(0, 10, "according"), (0, 10, "said")], 1),
    ([(0, 10, "said")], 1),
]


@pytest.mark.parametrize(("spans", "expected"), SPANS)
def test_one_article_span_is_one_mention(spans, expected):
    words = "About 309 people were affected by the flood"
    one = quoted("a1", (words, "Jane Roe"))
    first = one.quotes[0]
    one.quotes = [
        first.model_copy(update={"cue": cue, "kind": "indirect"}) for _s, _e, cue in spans
    ]
    quotes = group_quotes([one, quoted("a2", (words, "Jane Roe"))])
    mentions = [m for q in quotes for m in q.mentions if m.article_id == "a1"]
    assert len(mentions) == expected


def test_two_spans_of_one_article_stay_two_mentions():
    a = "We are going to cut taxes for working families next year"
    b = "The budget is tight and we all know it well"
    quotes = group_quotes([quoted("a1", (a, "Jane Roe"), (b, "Jane Roe"))])
    assert sorted(len(q.mentions) for q in quotes) == [1, 1]


# One article's two direct remarks of one speaker (and other articles' quotes): the number of
# quotes the story makes. An article quoting an utterance twice repeats its words, so two
# rewordings or two sentences sharing a phrase inside one article are two remarks; the same
# pair across two articles is one utterance reworded.
SOCCER = "We gave him the golden boot award because he scored more than anyone else"
SOCCER_TOO = "In football they have prizes and he gets the golden boot award from me"
SOCCER_PARA = "The golden boot award went to him, he scored more goals than anyone"
ONE_ARTICLE = [
    # two rewordings of one topic in one article: two remarks
    ([[SOCCER, SOCCER_PARA]], 2),
    # the same two wordings in two articles: one utterance reworded
    ([[SOCCER], [SOCCER_PARA]], 1),
    # a phrase inside two sentences of one article glues neither to the other
    ([[SOCCER, SOCCER_TOO, "the golden boot award"]], 3),
    # ... but a phrase inside one sentence is its truncation
    ([[SOCCER, "the golden boot award"]], 1),
    # ... and so is a phrase inside two outlets' versions of one sentence
    ([[SOCCER], [SOCCER + " this season"], ["the golden boot award"]], 1),
]


@pytest.mark.parametrize(("articles", "expected"), ONE_ARTICLE)
def test_one_articles_remarks_stay_apart(articles, expected):
    quotes = group_quotes(
        [
            quoted(f"a{k}", *[(text, "Jane Roe") for text in texts], published="2024-03-01")
            for k, texts in enumerate(articles)
        ]
    )
    assert len(quotes) == expected, [q.text for q in quotes]
