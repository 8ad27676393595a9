"""tests/data/quote_link_pairs.tsv: loads, has the shape the README promises (size, hard
negatives, cross-week positives), and every span still points at its PolNeAR words in articles
of two publishers (the corpus part is skipped when ../shared/data is absent)."""

from __future__ import annotations

import csv
import hashlib
from datetime import date
from pathlib import Path

import pytest

from newsloom.eval.quote_links import (
    COLUMNS,
    LinkPair,
    check_pair_hashes,
    load_link_pairs,
    span_text,
)

TSV = Path(__file__).resolve().parents[1] / "data" / "quote_link_pairs.tsv"
MIN_PAIRS = 150


def pairs() -> list[LinkPair]:
    return load_link_pairs(TSV)


def test_file_loads_with_numbered_pairs():
    found = pairs()
    assert len(found) >= MIN_PAIRS
    assert [p.pair for p in found] == [f"p{n:03d}" for n in range(1, len(found) + 1)]
    spans = [(p.file_a, p.start_a, p.file_b, p.start_b) for p in found]
    assert len(set(spans)) == len(spans)


def test_a_third_of_all_pairs_are_hard_negatives():
    found = pairs()
    hard = [p for p in found if not p.same and p.kind != "unrelated"]
    assert 3 * len(hard) >= len(found)


def test_a_third_of_the_positives_are_cross_week():
    positives = [p for p in pairs() if p.same]
    assert positives
    assert 3 * sum(p.cross_week for p in positives) >= len(positives)


def test_link_pair_properties():
    base = dict(
        pair="p001",
        file_a="train/a",
        start_a=0,
        end_a=3,
        sha1_a="0" * 12,
        file_b="dev/b",
        start_b=0,
        end_b=3,
        sha1_b="0" * 12,
        kind="identical",
        note="n",
    )
    assert LinkPair(label="same", days_apart=8, **base).cross_week
    assert not LinkPair(label="same", days_apart=7, **base).cross_week
    assert not LinkPair(label="different", days_apart=0, **base).same


ROW = "p001\ttrain/a\t0\t5\t{h}\tdev/b\t2\t7\t{h}\tsame\tidentical\t3\tboth one line"


@pytest.mark.parametrize(
    "row",
    [
        ROW.replace("\tidentical\t", "\tshared_slogan\t"),  # a kind of the other label
        ROW.replace("\t0\t5\t", "\t5\t0\t"),  # reversed span
        ROW.replace("train/a", "test/a"),  # the withheld split
        ROW.replace("\t3\tboth", "\t-3\tboth"),  # negative days
        ROW.rsplit("\t", 1)[0],  # a column short
    ],
)
def test_malformed_row_names_file_and_line(tmp_path, row):
    path = tmp_path / "pairs.tsv"
    good = ROW.format(h="a" * 12)
    path.write_text("\t".join(COLUMNS) + "\n" + good + "\n" + row.format(h="a" * 12) + "\n")
    with pytest.raises(ValueError, match=r"pairs\.tsv: line 3: "):
        load_link_pairs(path)


def test_bad_header_is_rejected(tmp_path):
    path = tmp_path / "pairs.tsv"
    path.write_text("pair\tfile_a\n")
    with pytest.raises(ValueError, match=r"pairs\.tsv: line 1: "):
        load_link_pairs(path)


def test_check_pair_hashes_reports_mismatches(tmp_path):
    (tmp_path / "train" / "text").mkdir(parents=True)
    (tmp_path / "train" / "text" / "a.txt").write_bytes("“Quoted words,” she said.\r\n".encode())
    assert span_text(tmp_path, "train/a", 1, 13) == "Quoted words"
    good = hashlib.sha1(b"Quoted words").hexdigest()[:12]
    pair = LinkPair(
        "p001", "train/a", 1, 13, good, "train/a", 1, 13, "0" * 12, "same", "identical", 0, "n"
    )
    problems = check_pair_hashes(tmp_path, [pair])
    assert len(problems) == 1 and problems[0].startswith("p001 b: ")
    missing = LinkPair(
        "p002", "dev/x", 0, 1, good, "train/a", 1, 13, good, "same", "identical", 0, "n"
    )
    assert [p.split(":")[0] for p in check_pair_hashes(tmp_path, [missing])] == ["p002 a"]


# --- against the corpus -------------------------------------------------------------------


def test_every_hash_matches_the_corpus(shared_data):
    assert check_pair_hashes(shared_data / "polnear", pairs()) == []


def test_every_pair_joins_two_publishers_days_apart(shared_data):
    with open(shared_data / "polnear" / "metadata.tsv", encoding="utf-8", newline="") as fh:
        meta = {r["filename"]: r for r in csv.DictReader(fh, delimiter="\t")}
    for p in pairs():
        a, b = meta[p.file_a.split("/", 1)[1]], meta[p.file_b.split("/", 1)[1]]
        assert a["compartment"] == p.file_a.split("/")[0], p.pair
        assert b["compartment"] == p.file_b.split("/")[0], p.pair
        assert a["publisher"] != b["publisher"], p.pair
        days = date.fromisoformat(a["publication_date"]) - date.fromisoformat(b["publication_date"])
        assert abs(days.days) == p.days_apart, p.pair
