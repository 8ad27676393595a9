"""Framing stage: hedges and boosters in the outlet's own words, not in quotes."""

from __future__ import annotations

import pytest

from newsloom.analyze.framing import explain, measure_framing
from newsloom.analyze.reporting import token_coverage

# (sentence, expected hedge cue kinds) -- the outlet's own words only.
HEDGE_ROWS = [
    ("The mayor allegedly took the money.", ["adverb"]),
    ("The alleged bribe was paid in cash.", ["adjective"]),
    ("The bridge may have been unsafe for years.", ["modal"]),
    ("The director appears to have left the company.", ["appear"]),
    ("The singer is said to be in hospital.", ["passive-report"]),
    ("According to the statement, the plant was closed.", ["attribution"]),
    ("The company claimed the fire started outside.", ["distancing"]),
    ("It is not clear who started the fire.", ["uncertainty"]),
    # negative rows: plain assertions, a modal of permission-like ability, a non-hedge "appear"
    ("The council approved the bridge on Sunday.", []),
    ("The band will appear at the festival in May.", []),
    ("Police arrested two men after the match.", []),
]

BOOSTER_ROWS = [
    ("Police confirmed that the driver died.", 1),
    ("The report clearly shows the cracks.", 1),
    ("Police did not confirm the driver's name.", 0),
    ("The driver died on Monday.", 0),
]


@pytest.mark.parametrize(("text", "kinds"), HEDGE_ROWS)
def test_hedge_cues(nlp, text, kinds):
    doc = nlp(text)
    framing = measure_framing(doc, [(0, len(text))], [])
    assert [h.kind for h in framing.hedges] == kinds
    for h in framing.hedges:
        assert text[h.start : h.end] == h.text


@pytest.mark.parametrize(("text", "count"), BOOSTER_ROWS)
def test_booster_cues(nlp, text, count):
    framing = measure_framing(nlp(text), [(0, len(text))], [])
    assert len(framing.boosters) == count


def test_a_hedge_inside_a_quote_is_the_speakers_not_the_outlets(nlp):
    text = 'The mayor spoke on Sunday. "Maybe it was allegedly unsafe," she said.'
    quote_start = text.index('"') + 1
    quote_end = text.index('"', quote_start)
    framing = measure_framing(nlp(text), [(0, len(text))], [(quote_start, quote_end)])
    assert framing.hedges == []
    assert framing.own_words < len(text.split())


def test_score_is_hedges_per_100_own_words_and_explained(nlp):
    text = "The mayor allegedly took the money. The council met on Sunday."
    framing = measure_framing(nlp(text), [(0, len(text))], [])
    assert framing.own_words == 11
    assert framing.hedge_score == pytest.approx(100 / 11, abs=0.01)
    assert framing.hedged_sentences == 1 and framing.sentences == 2
    assert (
        "1 hedge(s) in 11 words" in framing.explanation and "'allegedly' x1" in framing.explanation
    )


def test_no_own_reporting_is_explained_not_scored():
    assert explain(0, 0, 0, 0, 0).startswith("no own reporting")


@pytest.mark.parametrize(
    ("spans", "covered_words"),
    [
        ([], []),
        ([(0, 3)], ["The"]),
        ([(2, 5)], ["The", "cat"]),  # a span touching two tokens covers both
        ([(4, 7), (12, 15)], ["cat", "the"]),
        ([(3, 4)], []),  # only the space between tokens
    ],
)
def test_token_coverage(nlp, spans, covered_words):
    doc = nlp("The cat sat the mat")
    covered = token_coverage(doc, spans)
    assert [t.text for t in doc if covered[t.i]] == covered_words


@pytest.mark.parametrize(
    "text",
    [text for text, _ in HEDGE_ROWS]
    + [text for text, _ in BOOSTER_ROWS]
    + ["In fact, the mayor probably knew. Officials verified it; Clearly the bridge may fail."],
)
def test_cue_words_leave_out_no_cue(nlp, monkeypatch, text):
    """The hedge and booster tests run only on tokens whose word or lemma can start a cue:
    looking at every own token instead finds the same cues (negative rows included)."""
    from newsloom.analyze import framing as framing_module

    doc = nlp(text)
    own = [(0, len(text))]
    prefiltered = measure_framing(doc, own, [], text)
    every_token = framing_module._word_masks

    def all_tokens(doc, mask):
        counted, _ = every_token(doc, mask)
        return counted, list(mask)

    monkeypatch.setattr(framing_module, "_word_masks", all_tokens)
    assert measure_framing(doc, own, [], text) == prefiltered
