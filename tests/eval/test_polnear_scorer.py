"""The PolNeAR reader and scorer on tiny hand-made brat files."""

from __future__ import annotations

from pathlib import Path

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


# -- speakers: quote+speaker F1, unresolved speakers, calibration, accuracy by class ---------

QUOTES = 'Roe said: "We will win." Doe said: "They will lose." "Nobody knows," she said.'


def test_quote_and_speaker_f1_needs_the_match_and_the_speaker():
    gold = [
        unit(QUOTES, "We will win.", "Roe"),
        unit(QUOTES, "They will lose.", "Doe"),
        unit(QUOTES, "Nobody knows,", "she"),
    ]
    pred = [
        unit(QUOTES, "We will win.", "Roe"),  # right
        unit(QUOTES, "They will lose.", "Roe"),  # matched, wrong speaker
        unit(QUOTES, "Roe said", "Roe"),  # no gold quote there
    ]
    m = score(QUOTES, pred, gold)
    assert m["match@0.3"][:2] == (2 / 3, 2 / 3)
    assert m["quote+speaker@0.3"] == pytest.approx((1 / 3, 1 / 3, 1 / 3))
    assert m["speaker_acc"] == 0.5


def test_unresolved_speakers_are_scored_by_their_words_and_counted_apart():
    from newsloom.eval.polnear import newsloom_units
    from newsloom.models import QuoteMention

    def mention(needle: str, speaker: str | None, words: str) -> QuoteMention:
        s, e = span(QUOTES, needle)
        ss, se = span(QUOTES, words)
        return QuoteMention(
            start=s,
            end=e,
            text=needle,
            speaker=speaker,
            speaker_text=words,
            speaker_start=ss,
            speaker_end=se,
        )

    quotes = [
        mention("We will win.", "Jane Roe", "Roe"),
        mention("They will lose.", None, "Doe"),  # unresolved, its words still right
        mention("Nobody knows,", None, "Roe"),  # unresolved and wrong
    ]
    direct, _ = newsloom_units(quotes)
    assert [u.resolved for u in direct] == [True, False, False]
    gold = [
        unit(QUOTES, "We will win.", "Roe"),
        unit(QUOTES, "They will lose.", "Doe"),
        unit(QUOTES, "Nobody knows,", "she"),
    ]
    m = score(QUOTES, direct, gold)
    assert m["speaker_acc"] == pytest.approx(2 / 3)
    assert m["unresolved_share"] == pytest.approx(2 / 3)
    assert (m["resolved_speaker_acc"], m["resolved_pairs"]) == (1.0, 1)


def test_calibration_buckets_and_expected_error():
    from newsloom.eval.polnear import calibration

    pairs = [(0.2, False), (0.4, True), (0.5, True), (0.96, True), (1.0, True), (1.0, False)]
    cal = calibration(pairs)
    edges = [(b["low"], b["high"]) for b in cal["buckets"]]
    assert edges[0] == (0.0, 0.5) and edges[-1] == (0.95, 1.0)
    by_low = {b["low"]: b for b in cal["buckets"]}
    assert (by_low[0.0]["n"], by_low[0.0]["right"]) == (2, 1)
    assert (by_low[0.5]["n"], by_low[0.5]["share"]) == (1, 1.0)  # 0.5 opens the next bucket
    assert (by_low[0.95]["n"], by_low[0.95]["right"]) == (3, 2)  # 1.0 falls in the last one
    assert by_low[0.8]["n"] == 0 and by_low[0.8]["share"] is None
    # |0.5 - 0.3| × 2 + |1 - 0.5| × 1 + |2/3 - 0.9867| × 3, over 6 pairs
    assert cal["ece"] == pytest.approx((0.4 + 0.5 + abs(2 - 2.96)) / 6)


def test_calibration_without_confidences_is_empty():
    text = 'Roe said: "We will win."'
    m = score(text, [unit(text, "We will win.", "Roe")], [unit(text, "We will win.", "Roe")])
    cal = m["calibration"]
    assert cal["n"] == 0 and cal["ece"] is None
    assert all(b["n"] == 0 for b in cal["buckets"])


def test_confidences_of_matched_pairs_reach_the_calibration():
    gold = [unit(QUOTES, "We will win.", "Roe"), unit(QUOTES, "They will lose.", "Doe")]
    pred = [
        Unit((span(QUOTES, "We will win."),), (span(QUOTES, "Roe"),), "Roe", confidence=0.9),
        Unit((span(QUOTES, "They will lose."),), (span(QUOTES, "Roe"),), "Roe", confidence=0.6),
        Unit((span(QUOTES, "Roe said"),), (), "Roe", confidence=0.99),  # unmatched: not counted
    ]
    cal = score(QUOTES, pred, gold)["calibration"]
    assert cal["n"] == 2
    assert [(b["n"], b["right"]) for b in cal["buckets"] if b["n"]] == [(1, 0), (1, 1)]


# Invented labels for an invented article; offsets as gold_units gives them.
CLASSES_TSV = """article\tstart\tend\tspeaker\tclass\tnote
{name}\t{win}\tRoe\tplain\t
{name}\t{lose}\tDoe\tstatement\tnamed a sentence before
{name}\t{knows}\tshe\tpronoun\t"she" is Roe
{name}\t0\t3\tRoe\tplain\toffsets of no gold quote
other_article\t0\t3\tRoe\tplain\tan article of another split
"""


def labelled(tmp_path, name: str = "usa-today_x"):
    from newsloom.eval.polnear import load_speaker_classes

    cells = {
        key: "\t".join(map(str, span(QUOTES, needle)))
        for key, needle in (
            ("win", "We will win."),
            ("lose", "They will lose."),
            ("knows", "Nobody knows,"),
        )
    }
    path = tmp_path / "classes.tsv"
    path.write_text(CLASSES_TSV.format(name=name, **cells), encoding="utf-8")
    return load_speaker_classes(path)


def test_accuracy_by_class(tmp_path):
    from newsloom.eval.polnear import GoldArticle, accuracy_by_class

    rows = labelled(tmp_path)
    assert [r.label for r in rows] == ["plain", "statement", "pronoun", "plain", "plain"]
    assert rows[2].note == '"she" is Roe'  # no quoting: marks are kept
    gold = GoldArticle(
        "usa-today_x",
        QUOTES,
        "usa-today",
        direct=[
            unit(QUOTES, "We will win.", "Roe"),
            unit(QUOTES, "They will lose.", "Doe"),
            unit(QUOTES, "Nobody knows,", "she"),
        ],
    )
    pred = [
        unit(QUOTES, "We will win.", "Roe"),
        unit(QUOTES, "They will lose.", "Roe"),  # wrong speaker
    ]  # "Nobody knows," is not found
    got = accuracy_by_class([gold], [pred], rows)
    classes = got["classes"]
    assert classes["plain"] == {"labelled": 1, "matched": 1, "right": 1, "acc": 1.0}
    assert classes["statement"] == {"labelled": 1, "matched": 1, "right": 0, "acc": 0.0}
    assert classes["pronoun"] == {"labelled": 1, "matched": 0, "right": 0, "acc": None}
    assert classes["nested"]["labelled"] == 0
    assert got["not_in_gold"] == 2


def test_a_bad_class_file_says_which_line(tmp_path):
    from newsloom.errors import InputError
    from newsloom.eval.polnear import load_speaker_classes

    path = tmp_path / "classes.tsv"
    path.write_text("article\tstart\tend\tspeaker\tclass\nx\t1\t2\tRoe\tguess\n", "utf-8")
    with pytest.raises(InputError, match="line 2"):
        load_speaker_classes(path)
    path.write_text("article\tstart\tspeaker\n", "utf-8")
    with pytest.raises(InputError, match="columns"):
        load_speaker_classes(path)


def tiny_report(tmp_path) -> dict:
    """A report as run_eval makes it, from hand-made predictions (no parse)."""
    from newsloom.eval.polnear import GoldArticle, accuracy_by_class

    direct = [unit(QUOTES, "We will win.", "Roe"), unit(QUOTES, "They will lose.", "Doe")]
    gold = GoldArticle("usa-today_x", QUOTES, "usa-today", direct=direct)
    pred = [
        Unit((span(QUOTES, "We will win."),), (span(QUOTES, "Roe"),), "Roe", confidence=0.97),
        Unit((span(QUOTES, "They will lose."),), (), "she", resolved=False, confidence=0.3),
    ]
    rows = labelled(tmp_path)
    report = {
        "split": "dev",
        "articles": 1,
        "failed": 0,
        "mode": "pipeline: boilerplate → posts → entities → quotes",
        "seconds": 2.0,
        "stage_seconds": {"boilerplate": 0.1, "quotes": 0.05},
        "side_seconds": {"quotes (rules)": 0.04},
        "parse_seconds": 1.8,
        "classes": {"file": "classes.tsv", "labelled": len(rows)},
        "rows": {},
    }
    for name, units in (("newsloom rules", pred[:1]), ("newsloom model", pred)):
        report["rows"][name] = {
            "direct": metrics(score_article(QUOTES, units, gold.direct)),
            "all": metrics(score_article(QUOTES, units, gold.direct)),
            "by_class": accuracy_by_class([gold], [units], rows),
        }
    return report


def test_report_shows_speakers_calibration_and_classes_in_80_columns(tmp_path):
    from rich.console import Console

    from newsloom.eval.polnear import format_report

    console = Console(width=80, record=True)
    console.print(format_report(tiny_report(tmp_path)))
    text = console.export_text()
    assert "quote+speaker ≥0.3" in text and "unresolved share" in text
    assert "newsloom model: speaker calibration" in text and "[0.95, 1.00]" in text
    assert "newsloom rules: speaker calibration" in text  # its one pair has a confidence
    assert "expected calibration error" in text
    assert "by error class" in text and "pronoun" in text and "1.00 (1/1)" in text
    assert "…" not in text


def test_eval_command_writes_the_report_as_json(tmp_path, monkeypatch):
    import json

    from typer.testing import CliRunner

    from newsloom.cli import app
    from newsloom.eval import polnear

    report = tiny_report(tmp_path)
    calls = []

    def fake_run_eval(data, split, with_peers, classes):
        calls.append((split, with_peers, classes))
        return report

    monkeypatch.setattr(polnear, "run_eval", fake_run_eval)
    args = ["eval", "polnear", "--data", str(tmp_path), "--classes", "c.tsv", "--no-peers"]
    result = CliRunner().invoke(app, [*args, "--json", "-"])
    assert result.exit_code == 0, result.output
    got = json.loads(result.output)  # nothing but the JSON on standard output
    assert got["rows"]["newsloom model"]["direct"]["quote+speaker@0.3"][2] == pytest.approx(0.5)
    assert calls == [("dev", False, Path("c.tsv"))]
    result = CliRunner().invoke(app, [*args, "--json", str(tmp_path / "r.json")])
    assert result.exit_code == 0 and "direct quotes" in result.output
    assert json.loads((tmp_path / "r.json").read_text("utf-8"))["split"] == "dev"


def test_the_rules_run_on_the_parse_and_earlier_stages_of_the_model_run():
    from newsloom.config import Settings
    from newsloom.eval.polnear import _with_side_runs
    from newsloom.models import Article, ArticleAnalysis, QuoteMention
    from newsloom.pipeline import StageContext, StageSpec

    seen = []

    def quotes(ctx: StageContext) -> None:
        seen.append((ctx.settings.speakers, ctx.doc, ctx.analysis.quotes))
        who = "Model" if ctx.settings.speakers == "model" else "Rules"
        ctx.analysis.quotes = [QuoteMention(start=0, end=3, text="Roe", speaker=who)]

    article = Article(id="a", text="Roe said.", origin="nyt_x")
    ctx = StageContext(article, "the doc", Settings(), ArticleAnalysis(article=article))
    clock: dict[str, float] = {}
    out: dict[str, dict] = {"rules": {}, "textacy": {}}
    spec = StageSpec("quotes", quotes, ("entities",), ("quotes",))
    _with_side_runs(spec, clock, False, out).fn(ctx)
    assert seen == [("model", "the doc", []), ("rules", "the doc", [])]  # no quotes carried over
    assert [q.speaker for q in ctx.analysis.quotes] == ["Model"]
    assert [q.speaker for q in out["rules"]["nyt_x"]] == ["Rules"]
    assert list(clock) == ["quotes (rules)"] and out["textacy"] == {}
