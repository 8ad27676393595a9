"""The PolNeAR reader and scorer on tiny hand-made brat files."""

from __future__ import annotations

import pytest

from newsloom.eval.polnear import (
    Counts,
    Unit,
    gold_units,
    load_split,
    metrics,
    quoted_segments,
    read_ann,
    score_article,
    speaker_right,
)

TEXT = (
    'Jane Roe said: "We will win the case."\n'
    "\n"
    "''Nothing is settled,'' Mr. Doe said, ''not yet.''\n"
    "\n"
    'Roe added that the judge "had doubts" about it.\n'
    "\n"
    '"This part runs on\n'
    "\n"
    '"and ends here," Roe said.'
)


def span(text: str, needle: str, nth: int = 0) -> tuple[int, int]:
    start = -1
    for _ in range(nth + 1):
        start = text.index(needle, start + 1)
    return start, start + len(needle)


def brat(text: str) -> str:
    """An .ann file: marks left outside one Content, a discontinuous Content, a multi-paragraph
    one."""
    s1, c1 = span(text, "Jane Roe"), span(text, "We will win the case.")
    s2 = span(text, "Mr. Doe")
    c2a, c2b = span(text, "Nothing is settled,"), span(text, "not yet.")
    s3, c3 = span(text, "Roe", 1), span(text, 'the judge "had doubts" about it')
    s4, c4 = (
        span(text, "Roe", 2),
        (text.index("This part"), text.index("and ends here,") + len("and ends here,")),
    )
    lines = [
        f"T1\tSource {s1[0]} {s1[1]}\tJane Roe",
        f'T2\tContent {c1[0] - 1} {c1[1] + 1}\t"We will win the case."',
        "E1\tAttribution:T9 Content:T2 Source:T1",
        f"T3\tSource {s2[0]} {s2[1]}\tMr. Doe",
        f"T4\tContent {c2a[0]} {c2a[1]};{c2b[0]} {c2b[1]}\tNothing is settled, not yet.",
        "E2\tAttribution:T9 Content:T4 Source:T3",
        f"T5\tSource {s3[0]} {s3[1]}\tRoe",
        f"T6\tContent {c3[0]} {c3[1]}\tthe judge ...",
        "E3\tAttribution:T9 Content:T6 Source:T5",
        f"T7\tSource {s4[0]} {s4[1]}\tRoe",
        f"T8\tContent {c4[0]} {c4[1]}\tThis part runs on",
        "the continuation line of a span text",
        "E4\tAttribution:T9 Content:T8 Source:T7",
        "T9\tAttribution 0 1\tx",
        "E5\tAttribution-no-source:T9",  # no Content: not an attribution
        "T10\tDiscuss 0 4\tJane",
    ]
    return "\n".join(lines) + "\n"


def test_quoted_segments_pair_per_paragraph():
    line = "He said \"one\" and “two” and ''three'' and \"four"
    got = [line[s:e] for s, e in quoted_segments(line, 0, len(line))]
    assert got == ["one", "two", "three", "four"]
    closing = "the end of it,” she said."
    assert [closing[s:e] for s, e in quoted_segments(closing, 0, len(closing))] == [
        "the end of it,"
    ]


def test_read_ann_and_gold_units():
    attributions = read_ann(brat(TEXT))
    assert len(attributions) == 4  # the one without Content is dropped
    direct, everything = gold_units(TEXT, attributions)
    assert [TEXT[u.pieces[0][0] : u.pieces[0][1]] for u in direct] == [
        "We will win the case.",  # marks outside the Content: still the inside only
        "Nothing is settled,",
        "not yet.",
        "had doubts",  # a partial quote inside reported speech
        "This part runs on",  # one gold quote per paragraph
        "and ends here,",
    ]
    assert [u.speaker_name for u in direct] == [
        "Jane Roe",
        "Mr. Doe",
        "Mr. Doe",
        "Roe",
        "Roe",
        "Roe",
    ]
    assert len(everything) == 4 and len(everything[1].pieces) == 2


def test_load_split_first_annotator_and_refuses_test(tmp_path):
    for split in ("dev",):
        (tmp_path / split / "text").mkdir(parents=True)
        (tmp_path / split / "attributions").mkdir(parents=True)
        (tmp_path / split / "text" / "nyt_x.txt").write_text(TEXT, encoding="utf-8", newline="")
        (tmp_path / split / "attributions" / "nyt_x_aaaa.ann").write_text(
            brat(TEXT), encoding="utf-8"
        )
        (tmp_path / split / "attributions" / "nyt_x_bbbb.ann").write_text("", encoding="utf-8")
    (article,) = load_split(tmp_path, "dev")
    assert (article.publisher, len(article.direct), len(article.attributions)) == ("nyt", 6, 4)
    with pytest.raises(ValueError, match="withheld"):
        load_split(tmp_path, "test")


def unit(text: str, needle: str, speaker: str = "", nth: int = 0) -> Unit:
    s = span(text, needle, nth)
    sp = (span(text, speaker),) if speaker and speaker in text else ()
    return Unit((s,), sp, speaker)


def score(text, pred, gold):
    return metrics(score_article(text, pred, gold))


def test_perfect_prediction_scores_one():
    text = 'Roe said: "We will win the case."'
    gold = [unit(text, "We will win the case.", "Roe")]
    m = score(text, [unit(text, '"We will win the case."', "Roe")], gold)  # marks don't count
    assert m["exact"] == m["token"] == m["match@0.3"] == m["match@0.8"] == (1.0, 1.0, 1.0)
    assert m["speaker_acc"] == 1.0


def test_partial_overlap_matches_at_low_threshold_only():
    text = 'Roe said: "We will win the case, and then we will go home to rest."'
    gold = [unit(text, "We will win the case, and then we will go home to rest.", "Roe")]
    m = score(text, [unit(text, "We will win the case", "Roe")], gold)  # 5 of 13 words
    assert m["match@0.3"] == (1.0, 1.0, 1.0)
    assert m["match@0.8"] == (0.0, 0.0, 0.0)
    assert m["exact"][2] == 0.0
    assert m["token"][0] == 1.0 and m["token"][1] == pytest.approx(5 / 13)


def test_matching_is_one_to_one():
    text = 'Roe said: "We will win the case and go home."'
    gold = [unit(text, "We will win the case and go home.", "Roe")]
    pred = [unit(text, "We will win the case", "Roe"), unit(text, "and go home", "Roe")]
    m = score(text, pred, gold)
    assert (m["pred"], m["gold"]) == (2, 1)
    assert m["match@0.3"][0] == 0.5 and m["match@0.3"][1] == 1.0


def test_no_prediction_scores_zero():
    text = 'Roe said: "We will win."'
    m = score(text, [], [unit(text, "We will win.", "Roe")])
    assert m["match@0.3"] == (0.0, 0.0, 0.0) and m["speaker_acc"] == 0.0


SPEAKER_ROWS = [
    # (predicted speaker name, predicted span needle, gold source needle, right?)
    ("Jane Roe", "she", "she", True),  # same span
    ("Jane Roe", "she", "Ms. Roe", True),  # resolved name shares "Roe"
    ("Jane Roe", "she", "Mr. Doe", False),
    ("the campaign", "the campaign", "President Smith", False),  # titles never match
    ("President Doe", "President Doe", "President Smith", False),
    ("", "", "Ms. Roe", False),
]


@pytest.mark.parametrize(("name", "pred_span", "gold_span", "right"), SPEAKER_ROWS)
def test_speaker_right(name, pred_span, gold_span, right):
    text = "Ms. Roe met Mr. Doe and President Smith; she and the campaign and President Doe spoke."
    pred = Unit(((0, 1),), (span(text, pred_span),) if pred_span else (), name)
    gold = Unit(((0, 1),), (span(text, gold_span),), gold_span)
    assert speaker_right(pred, gold) is right


def test_counts_add_up():
    total = Counts()
    text = 'Roe said: "We will win."'
    for _ in range(2):
        total.add(
            score_article(
                text, [unit(text, "We will win.", "Roe")], [unit(text, "We will win.", "Roe")]
            )
        )
    assert (total.n_pred, total.n_gold, total.matched[0.3], total.speaker_right) == (2, 2, 2, 2)
