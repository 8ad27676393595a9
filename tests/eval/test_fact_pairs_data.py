"""The labelled fact pairs: well-formed pointers, hashes that match ECB+ dev, clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from newsloom.errors import InputError
from newsloom.eval.facts import COLUMNS, check_hashes, date_line, load_fact_pairs, score
from newsloom.eval.labels import kind_of, label_kinds

PAIRS = Path(__file__).resolve().parents[1] / "data" / "fact_pairs.tsv"


def test_the_set_is_big_enough_and_mixed():
    pairs = load_fact_pairs(PAIRS)
    assert len(pairs) >= 120
    statuses = {p.status for p in pairs if p.same}
    assert statuses == {"agree", "update", "approximate", "conflict"}
    assert sum(not p.same for p in pairs) >= 60


def test_every_span_matches_the_corpus(shared_data):
    texts = {
        f.name: f.read_text(encoding="utf-8") for f in (shared_data / "ecbplus/dev/texts").iterdir()
    }
    assert check_hashes(texts, load_fact_pairs(PAIRS)) == []


GOOD = "\t".join(["f1", "1_1ecb.txt", "0", "3", "0" * 12, "1_2ecb.txt", "0", "3", "0" * 12])


@pytest.mark.parametrize(
    ("row", "reason"),
    [
        (GOOD + "\tsame\tagree\tnote", None),
        (GOOD + "\tdifferent\t-\tnote", None),
        (GOOD + "\tsame\t-\tnote", "status of a same pair"),
        (GOOD + "\tdifferent\tconflict\tnote", "status of a different pair"),
        (GOOD + "\tmaybe\tagree\tnote", "label must be"),
        (GOOD.replace("1_1ecb.txt", "notes.txt") + "\tsame\tagree\tnote", r"ECB\+ file name"),
        (GOOD.replace("\t0\t3\t", "\t3\t0\t", 1) + "\tsame\tagree\tnote", "empty or reversed"),
        (GOOD + "\tsame\tagree", "fields, expected"),
    ],
)
def test_rows_are_checked(tmp_path, row, reason):
    path = tmp_path / "pairs.tsv"
    path.write_text("\t".join(COLUMNS) + "\n" + row + "\n", encoding="utf-8")
    if reason is None:
        assert len(load_fact_pairs(path)) == 1
        return
    with pytest.raises(InputError, match=reason) as info:
        load_fact_pairs(path)
    assert "line 2" in str(info.value) and "pairs.tsv" in str(info.value)


def test_labels_kind_by_header(tmp_path):
    assert kind_of(PAIRS, label_kinds()).name == "fact pairs"
    other = tmp_path / "other.tsv"
    other.write_text("name\tis_source\n", encoding="utf-8")
    with pytest.raises(InputError, match="matches no kind"):
        kind_of(other, label_kinds())


@pytest.mark.parametrize(
    ("text", "date"),
    [
        ("Title here\n\nMay 03, 2013\n\nBody text.", "2013-05-03"),
        ("Title\n\nNov. 30, 2009\n\nBody.", "2009-11-30"),
        ("A long first paragraph that is a sentence of the story in 2013, not a date line.", None),
    ],
)
def test_date_line(text, date):
    assert date_line(text) == date


def test_score_counts_a_false_conflict():
    pairs = load_fact_pairs(PAIRS)[:2]
    report = score(pairs, [("same", "conflict"), ("different", "-")])
    assert report["conflict"]["fp"] == 1 and report["conflict"]["precision"] == 0.0
