"""Facts stated differently, scored on labelled pairs of statements (``tests/data/fact_pairs.tsv``).

Each pair joins two figures (an age, count, amount, duration, share or measure) from two
ECB+ articles about the same event and says whether they state the same quantity of the same
subject at the same time (``same``) or not (``different``), and for ``same`` pairs how the two
values relate: ``agree``, ``update``, ``approximate`` or ``conflict`` (the statuses of
``stories.conflicts``). The file holds pointers only: the ECB+ file name, character offsets
into its text and the first 12 hex digits of the SHA-1 of the sliced text.

Scoring: every gold event that a pair touches is made one story (so clustering errors do not
count here), its articles analysed by the pipeline, its people merged and its figures lined up
(``stories.conflicts.group_claims``). A labelled span stands for the claim that overlaps it.
A pair is predicted ``same`` when both claims sit in one fact group, with the status of their
comparison. Reported: precision and recall of ``conflict`` (the figure that matters: a false
conflict accuses an outlet), of ``same``, and the status accuracy over the ``same`` pairs.

ECB+ texts carry no metadata; an article's publication date is read from a short date line
among its first paragraphs ("May 03, 2013"), as its title and date open many of them.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..models import Article, ArticleAnalysis, FactGroup, article_id
from .span_pairs import (
    SIDES,
    SpanPair,
    check_span,
    int_fields,
    parse_rows,
    short_hash,
    span_pair_fields,
)

COLUMNS = (
    "pair",
    "file_a",
    "start_a",
    "end_a",
    "sha1_a",
    "file_b",
    "start_b",
    "end_b",
    "sha1_b",
    "label",
    "status",
    "note",
)
LABELS = ("same", "different")
STATUSES = ("agree", "update", "approximate", "conflict")
# A date line is a short paragraph among the first few ("May 03, 2013", "Nov. 30, 2009").
DATE_LINE_PARAGRAPHS = 4
DATE_LINE_CHARS = 60
_FILE = re.compile(r"\d+_\d+ecb(?:plus)?\.txt")


@dataclass(frozen=True)
class FactPair(SpanPair):
    """One labelled pair of statements; ``status`` is ``-`` for a ``different`` pair."""

    status: str
    note: str


def load_fact_pairs(path: Path) -> list[FactPair]:
    """The pairs of a tab-separated file with the header row ``COLUMNS``. A malformed row
    raises InputError naming the file, the line and the reason."""
    try:
        return parse_rows(path.read_text(encoding="utf-8"), COLUMNS, _parse_row)
    except ValueError as exc:
        raise InputError(str(path), str(exc)) from None


def _parse_row(rec: dict[str, str]) -> FactPair:
    numbers = int_fields(rec, ("start_a", "end_a", "start_b", "end_b"))
    for side in SIDES:
        if not _FILE.fullmatch(rec[f"file_{side}"]):
            raise ValueError(f"file_{side} must be an ECB+ file name, got {rec[f'file_{side}']!r}")
        check_span(rec, numbers, side)
    if rec["label"] not in LABELS:
        raise ValueError(f"label must be same or different, got {rec['label']!r}")
    want = STATUSES if rec["label"] == "same" else ("-",)
    if rec["status"] not in want:
        raise ValueError(f"status of a {rec['label']} pair must be one of {', '.join(want)}")
    return FactPair(
        **span_pair_fields(rec, numbers),
        status=rec["status"],
        note=rec["note"],
    )


def check_hashes(texts: dict[str, str], pairs: Sequence[FactPair]) -> list[str]:
    """Every span whose text is missing or no longer matches its hash, as ``pair side``."""
    bad = []
    for p in pairs:
        for side, file, start, end, digest in p.sides():
            text = texts.get(file)
            if text is None or short_hash(text[start:end]) != digest:
                bad.append(f"{p.pair} {side} ({file} {start}:{end})")
    return bad


def date_line(text: str) -> str | None:
    """The publication date a short line among the first paragraphs gives, ISO."""
    from ..ingest.dates import normalise_date

    for paragraph in [p.strip() for p in text.split("\n\n") if p.strip()][:DATE_LINE_PARAGRAPHS]:
        if len(paragraph) <= DATE_LINE_CHARS and re.search(r"\d{4}", paragraph):
            found = normalise_date(paragraph)
            if found:
                return found
    return None


# --- scoring -------------------------------------------------------------------------------


@dataclass
class _Found:
    """Where a labelled span landed: its fact group and its index there."""

    group: FactGroup
    index: int


def _locate(
    groups: Sequence[FactGroup], aid: str, start: int, end: int
) -> tuple[_Found | None, bool]:
    """The fact group holding a statement that overlaps the span, and whether any claim of
    the story covers it at all."""
    for group in groups:
        for i, st in enumerate(group.statements):
            if st.article_id == aid and st.start < end and start < st.end:
                return _Found(group, i), True
    return None, False


def _predict(groups: Sequence[FactGroup], ids: dict[str, str], p: FactPair) -> tuple[str, str]:
    """``(label, status)`` the tool gives the pair."""
    a, _ = _locate(groups, ids[p.file_a], p.start_a, p.end_a)
    b, _ = _locate(groups, ids[p.file_b], p.start_b, p.end_b)
    if a is None or b is None or a.group.id != b.group.id:
        return "different", "-"
    lo, hi = sorted((a.index, b.index))
    for c in a.group.comparisons:
        if (c.first, c.second) == (lo, hi):
            return "same", c.status
    return "same", a.group.status


def _rate(tp: int, fp: int, fn: int) -> dict[str, float | int]:
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    return {"precision": p, "recall": r, "f1": 2 * p * r / (p + r) if p + r else 0.0,
            "tp": tp, "fp": fp, "fn": fn}  # fmt: skip


def score(pairs: Sequence[FactPair], predicted: Sequence[tuple[str, str]]) -> dict[str, Any]:
    """Precision/recall of ``conflict`` and of ``same``, and status accuracy on same pairs."""
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    confusion: Counter[tuple[str, str]] = Counter()
    right = total = 0
    for p, (label, status) in zip(pairs, predicted, strict=True):
        gold_status = p.status if p.same else "-"
        confusion[(gold_status, status)] += 1
        for name, gold, pred in [
            ("same", p.same, label == "same"),
            *((s, gold_status == s, status == s) for s in STATUSES),
        ]:
            counts[name]["tp" if gold and pred else "fn" if gold else "fp" if pred else "tn"] += 1
        if p.same:
            total += 1
            right += status == p.status
    return {
        "pairs": len(pairs),
        "gold": dict(Counter(p.status if p.same else "different" for p in pairs)),
        **{
            name: _rate(counts[name]["tp"], counts[name]["fp"], counts[name]["fn"])
            for name in ("conflict", "same", *STATUSES[:3])
        },
        "status_accuracy": right / total if total else 0.0,
        "confusion": {f"{g} -> {s}": n for (g, s), n in sorted(confusion.items())},
    }


def run_facts_eval(data: Path, labels: Path) -> dict[str, Any]:
    """Analyse the events the pairs touch, line up their facts and score the pairs."""
    from ..analyze import analyze_articles
    from ..config import Settings
    from ..models import Skipped
    from ..stories.conflicts import group_claims
    from ..stories.entities import merge_entities
    from .ecbplus import read_dataset

    pairs = load_fact_pairs(labels)
    items = {it.file: it for it in read_dataset(data)}
    bad = check_hashes({f: it.text for f, it in items.items()}, pairs)
    if bad:
        raise InputError(
            str(labels), f"{len(bad)} span(s) do not match the corpus: {', '.join(bad[:5])}"
        )
    events = sorted({items[f].event for p in pairs for f in (p.file_a, p.file_b)})
    chosen = [it for it in items.values() if it.event in events]
    articles = [
        Article(
            id=f"{article_id(it.text)}:{it.file}",
            text=it.text,
            path=it.file,
            origin=it.file,
            published=date_line(it.text),
        )
        for it in chosen
    ]
    by_event: dict[str, list[ArticleAnalysis]] = defaultdict(list)
    for it, article, result in zip(
        chosen, articles, analyze_articles(articles, Settings()), strict=True
    ):
        done = ArticleAnalysis(article=article) if isinstance(result, Skipped) else result
        by_event[it.event].append(done)
    groups = {
        event: group_claims(analyses, merge_entities(analyses))
        for event, analyses in by_event.items()
    }
    ids = {a.path or "": a.id for a in articles}
    predicted = [_predict(groups[items[p.file_a].event], ids, p) for p in pairs]
    report = score(pairs, predicted)
    report["events"] = len(events)
    report["articles"] = len(articles)
    report["dated_articles"] = sum(a.published is not None for a in articles)
    report["raised_conflicts"] = raised_conflicts(groups)
    report["errors"] = [
        {"pair": p.pair, "gold": p.status if p.same else "different", "predicted": s}
        for p, (_, s) in zip(pairs, predicted, strict=True)
        if (p.status if p.same else "-") != s
    ]
    return report


def raised_conflicts(groups: dict[str, list[FactGroup]]) -> list[dict[str, str]]:
    """Every conflicting pair the tool raises over the events scored, labelled or not (each
    must be true: a false conflict accuses an outlet), with its reason."""
    return [
        {"event": event, "kind": g.kind, "subject": g.subject or "", "reason": c.reason}
        for event, found in sorted(groups.items())
        for g in found
        for c in g.comparisons
        if c.status == "conflict"
    ]


def format_report(report: dict[str, Any]) -> str:
    lines = [
        f"facts stated differently: {report['pairs']} labelled pairs, {report['events']} events, "
        f"{report['articles']} articles ({report['dated_articles']} dated)",
        "gold: " + ", ".join(f"{k} {v}" for k, v in sorted(report["gold"].items())),
    ]
    for name in ("conflict", "same", "agree", "update", "approximate"):
        r = report[name]
        lines.append(
            f"{name:>12}: precision {r['precision']:.3f}  recall {r['recall']:.3f}  "
            f"f1 {r['f1']:.3f}  (tp {r['tp']}, fp {r['fp']}, fn {r['fn']})"
        )
    lines.append(f"status accuracy on same pairs: {report['status_accuracy']:.3f}")
    lines.append("confusion (gold -> predicted): " + "; ".join(
        f"{k} {v}" for k, v in report["confusion"].items()))  # fmt: skip
    raised = report.get("raised_conflicts", [])
    lines.append(f"conflicting pairs raised over these events (labelled or not): {len(raised)}")
    lines.extend(f"  {r['event']} {r['kind']} {r['subject']}: {r['reason']}" for r in raised)
    return "\n".join(lines)
