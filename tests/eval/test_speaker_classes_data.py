"""tests/data/polnear_dev_speaker_classes.tsv: well formed, and every row a PolNeAR dev gold
direct quote with its gold speaker (the gold part is skipped when ../shared/data is absent)."""

from __future__ import annotations

import csv
import re
from pathlib import Path

TSV = Path(__file__).resolve().parents[1] / "data" / "polnear_dev_speaker_classes.tsv"
COLUMNS = ["article", "start", "end", "speaker", "class", "note"]
CLASSES = {"addressee", "description", "pronoun", "statement", "continuation", "nested", "plain"}
# The speaker column cuts long gold sources at this many characters (README).
MAX_SPEAKER_CHARS = 60


def rows() -> list[dict[str, str]]:
    with open(TSV, encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE)
        assert reader.fieldnames == COLUMNS
        return list(reader)


def test_rows_are_well_formed():
    found = rows()
    assert len(found) >= 200
    keys = [(r["article"], int(r["start"])) for r in found]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    for r in found:
        assert r["class"] in CLASSES
        assert int(r["start"]) < int(r["end"])
        assert r["speaker"] and r["note"]
        assert len(r["speaker"]) <= MAX_SPEAKER_CHARS


def test_rows_are_gold_direct_quotes(shared_data):
    from newsloom.eval.polnear import load_split

    gold = {a.name: a for a in load_split(shared_data / "polnear", "dev")}
    for r in rows():
        units = {u.pieces[0]: u for u in gold[r["article"]].direct}
        unit = units.get((int(r["start"]), int(r["end"])))
        assert unit is not None, f"{r['article']} {r['start']}-{r['end']} is no gold direct quote"
        name = re.sub(r"\s+", " ", unit.speaker_name).strip()
        speaker = r["speaker"].removesuffix("…")
        assert name.startswith(speaker), (r["article"], r["start"], name, r["speaker"])
