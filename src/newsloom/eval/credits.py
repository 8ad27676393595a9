"""Credited sources scored on hand labels over ECB+ dev (``tests/data/credited_sources.tsv``).

A label points at a name in one ECB+ text (file, character offsets, SHA-1 of the span; the
text itself stays in ../shared) and says whether the article credits it as a source of its
material (``source``: an outlet, agency or document) or not (``not_source``: a person quoted
or spoken to, an organisation speaking or spoken to, words that credit nothing). Candidates the
tool misses are labelled too, so recall is measured.

A predicted credit (the framing stage's ``SourceCredit`` with publisher evidence) matches the
labels its name overlaps. Precision counts a prediction as right when it overlaps a ``source``
label; one overlapping only ``not_source`` labels, or no label at all, counts against it (an
unlabelled prediction is listed so it can be labelled). Recall is the share of ``source``
labels some prediction overlaps.
"""

from __future__ import annotations

import csv
import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..models import SourceCredit

KIND = "credit"
COLUMNS = ("kind", "file", "start", "end", "sha1", "label", "note")
LABELS = ("source", "not_source")


@dataclass(frozen=True)
class CreditLabel:
    file: str
    start: int
    end: int
    sha1: str
    label: str
    note: str = ""


@dataclass(frozen=True)
class Prediction:
    file: str
    start: int
    end: int
    name: str
    cue: str
    evidence: str


@dataclass(frozen=True)
class CreditScore:
    precision: float
    recall: float
    predicted: int
    correct: int
    sources: int
    found: int
    wrong: list[Prediction] = field(default_factory=list)
    unlabelled: list[Prediction] = field(default_factory=list)
    missed: list[CreditLabel] = field(default_factory=list)


def read_credit_labels(path: Path) -> list[CreditLabel]:
    """The ``kind == credit`` rows of a labels file (other kinds are skipped)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(str(path), f"cannot read the labels file: {exc.strerror}") from exc
    rows = list(csv.reader(text.splitlines(), delimiter="\t"))
    if not rows or tuple(rows[0][: len(COLUMNS)]) != COLUMNS:
        raise InputError(str(path), f"the header must be: {' '.join(COLUMNS)}")
    labels = []
    for number, row in enumerate(rows[1:], start=2):
        if not row or row[0] != KIND:
            continue
        if len(row) < len(COLUMNS) - 1 or row[5] not in LABELS:
            raise InputError(
                str(path), f"line {number}: expected {len(COLUMNS)} columns, label in {LABELS}"
            )
        try:
            start, end = int(row[2]), int(row[3])
        except ValueError:
            raise InputError(str(path), f"line {number}: start and end must be numbers") from None
        note = row[6] if len(row) > 6 else ""
        labels.append(CreditLabel(row[1], start, end, row[4], row[5], note))
    return labels


def check_spans(labels: Iterable[CreditLabel], texts: Mapping[str, str], where: str) -> None:
    """Every label points at the text it was made on (same SHA-1 of the span)."""
    for label in labels:
        if label.file not in texts:
            raise InputError(where, f"{label.file}: no such text in the data folder")
        span = texts[label.file][label.start : label.end]
        if hashlib.sha1(span.encode("utf-8")).hexdigest() != label.sha1:
            raise InputError(
                where,
                f"{label.file} {label.start}-{label.end}: the span's SHA-1 differs from the "
                "label's (a different version of the text?)",
            )


def score_predictions(
    labels: Sequence[CreditLabel], predictions: Sequence[Prediction]
) -> CreditScore:
    """Precision and recall of ``predictions`` (those in labelled files) against ``labels``."""
    files = {label.file for label in labels}
    predictions = [p for p in predictions if p.file in files]

    def overlapping(p: Prediction) -> list[CreditLabel]:
        return [x for x in labels if x.file == p.file and x.start < p.end and p.start < x.end]

    correct, wrong, unlabelled = 0, [], []
    for p in predictions:
        hits = overlapping(p)
        if any(x.label == "source" for x in hits):
            correct += 1
        elif hits:
            wrong.append(p)
        else:
            unlabelled.append(p)
    sources = [x for x in labels if x.label == "source"]
    missed = [
        x
        for x in sources
        if not any(p.file == x.file and p.start < x.end and x.start < p.end for p in predictions)
    ]
    found = len(sources) - len(missed)
    return CreditScore(
        precision=correct / len(predictions) if predictions else 1.0,
        recall=found / len(sources) if sources else 1.0,
        predicted=len(predictions),
        correct=correct,
        sources=len(sources),
        found=found,
        wrong=wrong,
        unlabelled=unlabelled,
        missed=missed,
    )


def predictions_of(file: str, credits: Iterable[SourceCredit]) -> list[Prediction]:
    """The credits the story stage may show: those with publisher evidence."""
    return [
        Prediction(file, c.start, c.end, c.name, c.cue, c.evidence) for c in credits if c.evidence
    ]


def score_credits(data_dir: Path, labels: Sequence[CreditLabel]) -> CreditScore:
    """Analyse the labelled ECB+ texts in ``data_dir`` and score their credited sources."""
    from .ecbplus import analyse, read_dataset

    files = {label.file for label in labels}
    items = [it for it in read_dataset(data_dir) if it.file in files]
    check_spans(labels, {it.file: it.text for it in items}, str(data_dir))
    predictions: list[Prediction] = []
    for item, analysis in zip(items, analyse(items), strict=True):
        if analysis.framing is not None:
            predictions.extend(predictions_of(item.file, analysis.framing.credits))
    return score_predictions(labels, predictions)


def run_credits_eval(data: Path, labels: Path) -> dict[str, Any]:
    """``newsloom eval facts`` on a credit labels file: the score as a JSON-ready report."""
    return asdict(score_credits(data, read_credit_labels(labels)))


def format_credits_report(report: dict[str, Any]) -> str:
    p = report
    lines = [
        f"credited sources: precision {p['precision']:.3f} ({p['correct']}/{p['predicted']}), "
        f"recall {p['recall']:.3f} ({p['found']}/{p['sources']})"
    ]
    for label, key in (("wrong", "wrong"), ("unlabelled", "unlabelled")):
        lines += [
            f"  {label}: {x['file']} {x['start']}-{x['end']} {x['name']!r} ({x['cue']})"
            for x in p[key]
        ]
    lines += [f"  missed: {x['file']} {x['start']}-{x['end']} ({x['note']})" for x in p["missed"]]
    return "\n".join(lines)
