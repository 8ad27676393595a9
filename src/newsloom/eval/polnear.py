"""PolNeAR (political news attribution relations): gold reader, scorer, and the eval run.

Gold direct quotes follow ../shared/data/polnear/README.md: the part of an attribution's
Content that lies between a pair of double quotation marks (``"``, ``“ ”``, NYT ``''``), the
marks paired over the whole paragraph (a line of the file), one gold quote per quoted segment
a Content touches; an unclosed quote runs to the end of its paragraph (multi-paragraph
quotes give one gold quote per paragraph). "All attributions" uses each whole Content.

Scoring works on word tokens (``\\w+``), so quote marks, punctuation and whitespace at the
edges never decide a match. Matching is one-to-one, greedy by token overlap / union.
"""

from __future__ import annotations

import itertools
import re
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the pipeline is imported only when an evaluation runs
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text
    from spacy.tokens import Doc

    from ..models import QuoteMention
    from ..pipeline import StageContext, StageSpec

SPLITS = ("train", "dev")
MATCH_THRESHOLDS = (0.3, 0.8)
# Marks that open/close a double quotation. ``''`` is the NYT's; curly marks have a direction.
_MARK = re.compile(r"''|[\"“”]")
_WORD = re.compile(r"\w+")
_LINE = re.compile(r"\n")
# Words that never identify a speaker by themselves (compared after casefold).
_NON_NAME_WORDS = frozenset(
    {
        "the",
        "a",
        "an",
        "this",
        "that",
        "these",
        "those",
        "his",
        "her",
        "its",
        "their",
        "he",
        "she",
        "it",
        "they",
        "we",
        "i",
        "you",
        "him",
        "them",
        "mr",
        "mrs",
        "ms",
        "miss",
        "dr",
        "sir",
        "president",
        "sen",
        "senator",
        "rep",
        "representative",
        "gov",
        "governor",
        "former",
        "vice",
        "secretary",
        "gen",
        "general",
        "democratic",
        "republican",
        "gop",
        "campaign",
        "spokesman",
        "spokeswoman",
        "spokesperson",
    }
)


# --- gold ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Unit:
    """One quote (or attribution content) as scored: character pieces plus a speaker.

    ``resolved`` is False when the system named no one (newsloom's ``speaker`` is None; the
    words its cue names are still scored); ``confidence`` is the system's probability that
    the speaker is right, when it gives one.
    """

    pieces: tuple[tuple[int, int], ...]
    speaker_pieces: tuple[tuple[int, int], ...] = ()
    speaker_name: str = ""
    resolved: bool = True
    confidence: float | None = None


@dataclass
class GoldArticle:
    name: str
    text: str
    publisher: str
    direct: list[Unit] = field(default_factory=list)
    attributions: list[Unit] = field(default_factory=list)


def read_text(path: Path) -> str:
    with open(path, encoding="utf-8", newline="") as fh:
        return fh.read()


def read_ann(text: str) -> list[dict[str, list[tuple[int, int]]]]:
    """Attributions of one brat .ann file: role -> character pieces (Content, Content2,
    Source...)."""
    spans: dict[str, list[tuple[int, int]]] = {}
    events: list[dict[str, str]] = []
    for line in text.split("\n"):
        cols = line.split("\t")
        if line.startswith("T") and len(cols) >= 2:
            _label, _, offsets = cols[1].partition(" ")
            try:
                pieces = [(int(s), int(e)) for s, e in (p.split() for p in offsets.split(";"))]
            except ValueError:
                continue
            spans[cols[0]] = pieces
        elif line.startswith("E") and len(cols) >= 2:
            roles = dict(r.partition(":")[::2] for r in cols[1].split() if ":" in r)
            events.append(roles)
    attributions = []
    for roles in events:
        resolved = {role: spans[t] for role, t in roles.items() if t in spans}
        if any(role.startswith("Content") for role in resolved):
            attributions.append(resolved)
    return attributions


def paragraphs(text: str) -> Iterator[tuple[int, int]]:
    start = 0
    for m in _LINE.finditer(text):
        yield start, m.start()
        start = m.end()
    yield start, len(text)


def quoted_segments(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Insides of double-quoted segments in one paragraph, as the gold definition pairs them.

    Straight marks and ``''`` toggle; ``“`` always opens (a second one restarts the quote);
    a ``”`` with nothing open closes a quote carried over from the previous paragraph; an
    unclosed quote runs to the paragraph's end.
    """
    out: list[tuple[int, int]] = []
    open_at: int | None = None
    for m in _MARK.finditer(text, start, end):
        mark = m.group()
        if open_at is None:
            if mark == "”":
                out.append((start, m.start()))
            else:
                open_at = m.end()
        elif mark == "“":
            open_at = m.end()
        else:
            out.append((open_at, m.start()))
            open_at = None
    if open_at is not None:
        out.append((open_at, end))
    return [(s, e) for s, e in out if s < e]


def gold_units(
    text: str, attributions: Sequence[dict[str, list[tuple[int, int]]]]
) -> tuple[list[Unit], list[Unit]]:
    """(direct quotes, all attributions) of one article."""
    segments = [seg for para in paragraphs(text) for seg in quoted_segments(text, *para)]
    direct: list[Unit] = []
    everything: list[Unit] = []
    for roles in attributions:
        content = sorted(p for role, ps in roles.items() if role.startswith("Content") for p in ps)
        source = tuple(roles.get("Source", ()))
        name = " ".join(text[s:e] for s, e in source)
        everything.append(Unit(tuple(content), source, name))
        for s, e in segments:
            inside = [(max(s, cs), min(e, ce)) for cs, ce in content if cs < e and s < ce]
            if inside:
                piece = (min(p[0] for p in inside), max(p[1] for p in inside))
                direct.append(Unit((piece,), source, name))
    return direct, everything


def load_split(data: Path, split: str) -> list[GoldArticle]:
    """Articles of one split with their gold; the first annotator's file per article."""
    if split not in SPLITS:
        raise ValueError(f"split must be one of {', '.join(SPLITS)} (the test split is withheld)")
    folder = Path(data) / split
    articles = []
    for path in sorted((folder / "text").glob("*.txt")):
        anns = sorted((folder / "attributions").glob(f"{path.stem}_*.ann"))
        if not anns:
            continue
        text = read_text(path)
        direct, everything = gold_units(text, read_ann(read_text(anns[0])))
        publisher = path.stem.split("_", 1)[0]
        articles.append(GoldArticle(path.stem, text, publisher, direct, everything))
    return articles


# --- scorer -------------------------------------------------------------------------------


def word_spans(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in _WORD.finditer(text)]


def token_set(
    words: Sequence[tuple[int, int]], pieces: Iterable[tuple[int, int]]
) -> frozenset[int]:
    """Indices of the word tokens that overlap any piece."""
    from bisect import bisect_right

    ends = [e for _, e in words]
    out: set[int] = set()
    for s, e in pieces:
        i = bisect_right(ends, s)
        while i < len(words) and words[i][0] < e:
            out.add(i)
            i += 1
    return frozenset(out)


_CAP_WORD = re.compile(r"[A-Z][\w'’.-]*")


def name_words(name: str) -> set[str]:
    """Capitalised words of a name that identify someone (titles, pronouns dropped)."""
    words = set()
    for w in _CAP_WORD.findall(name or ""):
        key = re.sub(r"(?:['’]s?|\.)$", "", w).casefold()
        if key and key not in _NON_NAME_WORDS and len(key) > 1:
            words.add(key)
    return words


def speaker_right(pred: Unit, gold: Unit) -> bool:
    """Right when the spans overlap or the names share a capitalised, non-title word."""
    if any(ps < ge and gs < pe for ps, pe in pred.speaker_pieces for gs, ge in gold.speaker_pieces):
        return True
    return bool(name_words(gold.speaker_name) & name_words(pred.speaker_name))


@dataclass
class Counts:
    n_pred: int = 0
    n_gold: int = 0
    exact: int = 0
    pred_tokens: int = 0
    gold_tokens: int = 0
    overlap_tokens: int = 0
    matched: dict[float, int] = field(default_factory=lambda: dict.fromkeys(MATCH_THRESHOLDS, 0))
    # Pairs matched at the lowest threshold: how many, how many name the right speaker (each
    # one also a true positive of quote+speaker), and those of them with no resolved speaker.
    speaker_pairs: int = 0
    speaker_right: int = 0
    unresolved: int = 0
    unresolved_right: int = 0
    # (confidence, right) of every such pair whose prediction has a confidence.
    confidences: list[tuple[float, bool]] = field(default_factory=list)

    def add(self, other: Counts) -> None:
        for name in (
            "n_pred",
            "n_gold",
            "exact",
            "pred_tokens",
            "gold_tokens",
            "overlap_tokens",
            "speaker_pairs",
            "speaker_right",
            "unresolved",
            "unresolved_right",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for t in self.matched:
            self.matched[t] += other.matched[t]
        self.confidences.extend(other.confidences)


def prf(tp_p: float, n_p: float, tp_r: float, n_r: float) -> tuple[float, float, float]:
    p = tp_p / n_p if n_p else 0.0
    r = tp_r / n_r if n_r else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


@dataclass(frozen=True)
class Pair:
    """A predicted unit matched to a gold one: their indices, overlap/union, shared tokens."""

    pred: int
    gold: int
    iou: float
    shared: int


@dataclass(frozen=True)
class Matching:
    """The word tokens of every predicted and gold unit, and the one-to-one pairs."""

    pred_sets: list[frozenset[int]]
    gold_sets: list[frozenset[int]]
    pairs: list[Pair]


def match_units(text: str, predicted: Sequence[Unit], gold: Sequence[Unit]) -> Matching:
    """One-to-one greedy matching by overlap/union of word tokens (units without a word take
    no part)."""
    words = word_spans(text)
    pred_sets = [token_set(words, u.pieces) for u in predicted]
    gold_sets = [token_set(words, u.pieces) for u in gold]
    candidates = []
    for i, ps in enumerate(pred_sets):
        for j, gs in enumerate(gold_sets):
            inter = len(ps & gs)
            if inter:
                candidates.append(Pair(i, j, inter / len(ps | gs), inter))
    candidates.sort(key=lambda p: (-p.iou, -p.shared, p.pred, p.gold))
    used_p: set[int] = set()
    used_g: set[int] = set()
    pairs = []
    for pair in candidates:
        if pair.pred in used_p or pair.gold in used_g:
            continue
        used_p.add(pair.pred)
        used_g.add(pair.gold)
        pairs.append(pair)
    return Matching(pred_sets, gold_sets, pairs)


def score_article(text: str, predicted: Sequence[Unit], gold: Sequence[Unit]) -> Counts:
    """The one-to-one matching, then all the counts."""
    m = match_units(text, predicted, gold)
    counts = Counts(n_pred=sum(map(bool, m.pred_sets)), n_gold=sum(map(bool, m.gold_sets)))
    counts.pred_tokens = sum(map(len, m.pred_sets))
    counts.gold_tokens = sum(map(len, m.gold_sets))
    for pair in m.pairs:
        counts.overlap_tokens += pair.shared
        counts.exact += m.pred_sets[pair.pred] == m.gold_sets[pair.gold]
        for t in MATCH_THRESHOLDS:
            counts.matched[t] += pair.iou >= t
        if pair.iou >= MATCH_THRESHOLDS[0]:
            pred = predicted[pair.pred]
            right = speaker_right(pred, gold[pair.gold])
            counts.speaker_pairs += 1
            counts.speaker_right += right
            counts.unresolved += not pred.resolved
            counts.unresolved_right += right and not pred.resolved
            if pred.confidence is not None:
                counts.confidences.append((pred.confidence, right))
    return counts


# Edges of the calibration table's confidence buckets, the last one closed: finer near 1,
# where a ranker that is mostly right puts most of its speakers.
CONFIDENCE_EDGES = (0.0, 0.5, 0.7, 0.8, 0.9, 0.95, 1.0)


def calibration(pairs: Sequence[tuple[float, bool]]) -> dict[str, Any]:
    """Per confidence bucket: pairs, the share with the right speaker, the mean confidence;
    and the expected calibration error (|share - mean confidence| weighted by pairs; None
    when no pair has a confidence)."""
    buckets = []
    gap = 0.0
    for k, (low, high) in enumerate(itertools.pairwise(CONFIDENCE_EDGES)):
        last = k == len(CONFIDENCE_EDGES) - 2
        inside = [(c, r) for c, r in pairs if low <= c < high or (last and c == high)]
        n, right, total = len(inside), sum(r for _, r in inside), sum(c for c, _ in inside)
        gap += abs(right - total)  # n × |share − mean confidence|
        buckets.append(
            {
                "low": low,
                "high": high,
                "n": n,
                "right": right,
                "share": right / n if n else None,
                "confidence": total / n if n else None,
            }
        )
    return {"n": len(pairs), "buckets": buckets, "ece": gap / len(pairs) if pairs else None}


def metrics(c: Counts) -> dict[str, Any]:
    out: dict[str, Any] = {"pred": c.n_pred, "gold": c.n_gold}
    out["exact"] = prf(c.exact, c.n_pred, c.exact, c.n_gold)
    out["token"] = prf(c.overlap_tokens, c.pred_tokens, c.overlap_tokens, c.gold_tokens)
    for t in MATCH_THRESHOLDS:
        out[f"match@{t}"] = prf(c.matched[t], c.n_pred, c.matched[t], c.n_gold)
    # A true positive is a quote matched at the lowest threshold with the right speaker.
    t = MATCH_THRESHOLDS[0]
    out[f"quote+speaker@{t}"] = prf(c.speaker_right, c.n_pred, c.speaker_right, c.n_gold)
    out["speaker_acc"] = c.speaker_right / c.speaker_pairs if c.speaker_pairs else 0.0
    out["speaker_pairs"] = c.speaker_pairs
    resolved = c.speaker_pairs - c.unresolved
    out["unresolved_share"] = c.unresolved / c.speaker_pairs if c.speaker_pairs else 0.0
    out["resolved_speaker_acc"] = (
        (c.speaker_right - c.unresolved_right) / resolved if resolved else 0.0
    )
    out["resolved_pairs"] = resolved
    out["calibration"] = calibration(c.confidences)
    return out


# --- accuracy by error class -------------------------------------------------------------

# What makes a gold direct quote's speaker hard to find (tests/data/polnear_dev_speaker_classes.tsv
# labels a sample of dev quotes with one of these).
SPEAKER_CLASSES = (
    "addressee",
    "description",
    "pronoun",
    "statement",
    "continuation",
    "nested",
    "plain",
)
_CLASS_COLUMNS = ("article", "start", "end", "speaker", "class")


@dataclass(frozen=True)
class ClassRow:
    """One labelled gold direct quote: its article (file stem), its offsets as ``gold_units``
    gives them, its gold speaker's words, and the class of its speaker."""

    article: str
    start: int
    end: int
    speaker: str
    label: str
    note: str = ""


def load_speaker_classes(path: Path) -> list[ClassRow]:
    """The labelled quotes of a tab-separated file with a header row (no quoting: a field
    is everything between two tabs); ``note`` is optional."""
    from ..errors import InputError

    lines = read_text(path).splitlines()
    header = lines[0].split("\t") if lines else []
    if not all(col in header for col in _CLASS_COLUMNS):
        raise InputError(str(path), f"needs the columns {', '.join(_CLASS_COLUMNS)}, note")
    rows = []
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        rec = dict(zip(header, line.split("\t"), strict=False))
        label = rec.get("class", "")
        if label not in SPEAKER_CLASSES or not (rec["start"].isdigit() and rec["end"].isdigit()):
            raise InputError(
                str(path),
                f"line {number}: needs start and end offsets and a class among "
                f"{', '.join(SPEAKER_CLASSES)}; got {line!r}",
            )
        rows.append(
            ClassRow(
                rec["article"],
                int(rec["start"]),
                int(rec["end"]),
                rec["speaker"],
                label,
                rec.get("note", ""),
            )
        )
    return rows


def accuracy_by_class(
    gold: Sequence[GoldArticle], predicted: Sequence[Sequence[Unit]], rows: Sequence[ClassRow]
) -> dict[str, Any]:
    """Speaker accuracy per class over the labelled gold direct quotes.

    ``predicted`` holds each gold article's predicted direct quotes. A row's gold quote is
    the one at its offsets (the one with its speaker when several share them); the
    prediction matched to it at the lowest threshold, as ``score_article`` matches, decides:
    right or wrong speaker, or unmatched (not counted in the accuracy). Rows that find no gold
    quote (another split, or offsets that moved) are counted apart.
    """
    units = {g.name: (g, p) for g, p in zip(gold, predicted, strict=True)}
    by_article: dict[str, list[ClassRow]] = {}
    for row in rows:
        by_article.setdefault(row.article, []).append(row)
    classes = {c: {"labelled": 0, "matched": 0, "right": 0} for c in SPEAKER_CLASSES}
    not_in_gold = 0
    for name, labelled in by_article.items():
        if name not in units:
            not_in_gold += len(labelled)
            continue
        g, pred = units[name]
        partner = {
            p.gold: p.pred
            for p in match_units(g.text, pred, g.direct).pairs
            if p.iou >= MATCH_THRESHOLDS[0]
        }
        for row in labelled:
            at = [j for j, u in enumerate(g.direct) if u.pieces == ((row.start, row.end),)]
            if not at:
                not_in_gold += 1
                continue
            # Attributions that share a quoted segment: the one with the row's speaker first.
            j = min(at, key=lambda k: g.direct[k].speaker_name != row.speaker)
            counts = classes[row.label]
            counts["labelled"] += 1
            if j in partner:
                counts["matched"] += 1
                counts["right"] += speaker_right(pred[partner[j]], g.direct[j])
    return {
        "classes": {
            c: {**n, "acc": n["right"] / n["matched"] if n["matched"] else None}
            for c, n in classes.items()
        },
        "not_in_gold": not_in_gold,
    }


# --- systems ------------------------------------------------------------------------------


def merge_by_cue(units: Sequence[tuple[Unit, Any]]) -> list[Unit]:
    """For "all attributions": the pieces one cue introduces form one content."""
    groups: dict[Any, list[Unit]] = {}
    order: list[Any] = []
    for unit, key in units:
        if key is None:
            key = ("solo", len(order))
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append(unit)
    merged = []
    for key in order:
        us = groups[key]
        pieces = tuple(sorted(p for u in us for p in u.pieces))
        merged.append(replace(us[0], pieces=pieces))
    return merged


def newsloom_units(quotes: Iterable[QuoteMention]) -> tuple[list[Unit], list[Unit]]:
    """(direct, all) predicted units of one article's quotes; an unresolved speaker (None)
    is still scored by the words its cue names."""
    direct, everything = [], []
    for q in quotes:
        s, e = q.speaker_start, q.speaker_end
        sp = ((s, e),) if s is not None and e is not None else ()
        name = " ".join(x for x in (q.speaker, q.speaker_text) if x)
        unit = Unit(((q.start, q.end),), sp, name, q.speaker is not None, q.speaker_confidence)
        if q.kind == "direct":
            direct.append(unit)
        cue_key = (q.cue_start, q.cue_end) if q.cue_start is not None else None
        everything.append((unit, cue_key))
    return direct, merge_by_cue(everything)


def textacy_units(doc: Doc) -> tuple[list[Unit], list[Unit]]:
    """textacy's direct_quotations on the same Doc; it raises on an odd number of marks."""
    from textacy.extract.triples import direct_quotations

    direct: list[tuple[Unit, Any]] = []
    try:
        for triple in direct_quotations(doc):
            sp = tuple((t.idx, t.idx + len(t)) for t in triple.speaker)
            name = " ".join(t.text for t in triple.speaker)
            key = (triple.cue[0].i,) if triple.cue else None
            content = triple.content
            direct.append((Unit(((content.start_char, content.end_char),), sp, name), key))
    except ValueError:
        pass  # gives up on the whole article
    return [u for u, _ in direct], merge_by_cue(direct)


def _timed(spec: StageSpec, clock: dict[str, float]) -> StageSpec:
    """The same stage, adding its run time to ``clock[name]``."""
    from ..pipeline import StageSpec

    def run(ctx: StageContext) -> None:
        t0 = time.perf_counter()
        try:
            spec.fn(ctx)
        finally:
            clock[spec.name] = clock.get(spec.name, 0.0) + time.perf_counter() - t0

    return StageSpec(spec.name, run, spec.requires, spec.assigns)


def _fallback_specs() -> list[StageSpec]:
    """While boilerplate/posts/entities are missing: the quotes stage with minimal paragraphs."""
    from ..analyze.quotes import blank_line_paragraphs
    from ..analyze.stages.quotes import extract_quotes
    from ..pipeline import StageSpec

    def paragraphs(ctx: StageContext) -> None:
        ctx.analysis.paragraphs = blank_line_paragraphs(ctx.article.text)

    return [
        StageSpec("paragraphs", paragraphs, (), ("paragraphs", "posts", "entities")),
        StageSpec("quotes", extract_quotes, ("paragraphs", "posts", "entities"), ("quotes",)),
    ]


def real_pipeline() -> list[StageSpec] | None:
    """The declared stages the quotes stage needs, or None while some are missing."""
    from ..analyze.stages import STAGES
    from ..errors import StageError
    from ..pipeline import build_pipeline

    needed = ("boilerplate", "posts", "entities", "quotes")
    if not all(n in {s.name for s in STAGES} for n in needed):
        return None
    try:
        return build_pipeline(STAGES, needed)
    except StageError:
        return None


def _with_side_runs(
    quotes: StageSpec, clock: dict[str, float], peers: bool, out: dict[str, dict[str, Any]]
) -> StageSpec:
    """The quotes stage as the pipeline runs it, then two more runs on the same Doc, so
    nothing is parsed twice: the quotes stage again with ``speakers = "rules"`` on the
    earlier stages' output (``out["rules"]``), and textacy (``out["textacy"]``, when
    ``peers``), each keyed by the article's origin and timed in ``clock``."""
    from ..pipeline import StageContext, StageSpec

    def run(ctx: StageContext) -> None:
        before = ctx.analysis.model_copy()  # what the earlier stages found, quotes not yet
        quotes.fn(ctx)
        t0 = time.perf_counter()
        rules = ctx.settings.model_copy(update={"speakers": "rules"})
        side = StageContext(ctx.article, ctx.doc, rules, before)
        quotes.fn(side)
        out["rules"][ctx.article.origin] = side.analysis.quotes
        t1 = time.perf_counter()
        clock["quotes (rules)"] = clock.get("quotes (rules)", 0.0) + t1 - t0
        if peers:
            out["textacy"][ctx.article.origin] = textacy_units(ctx.doc)
            clock["textacy"] = clock.get("textacy", 0.0) + time.perf_counter() - t1

    return StageSpec(quotes.name, run, quotes.requires, quotes.assigns)


def run_eval(
    data: Path, split: str = "dev", with_peers: bool = True, classes: Path | None = None
) -> dict[str, Any]:
    """Score newsloom's speaker model and its rules alone (and textacy's direct_quotations)
    on one split; returns a report dict.

    newsloom runs through ``analyze_articles`` with ``speakers = "model"`` and the stages the
    quotes stage needs (boilerplate, posts, entities, quotes); each stage is timed, the rest
    is the spaCy parse. The rules and textacy run on the same parse (``_with_side_runs``), so
    an article whose stages fail has no predictions from any system, textacy's included.
    ``classes`` names the labelled quotes for the accuracy by error class (skipped with a
    note when the file is absent).
    """
    from ..analyze import analyze_articles
    from ..config import Settings
    from ..models import Article, ArticleAnalysis, article_id

    gold = load_split(Path(data), split)
    articles = [
        Article(id=article_id(g.text), text=g.text, origin=g.name, source=g.publisher) for g in gold
    ]
    specs = real_pipeline()
    mode = (
        "pipeline: " + " → ".join(s.name for s in specs)
        if specs
        else ("quotes stage alone (paragraphs by blank lines; posts/entities stages missing)")
    )
    clock: dict[str, float] = {}
    side_clock: dict[str, float] = {}
    side: dict[str, dict[str, Any]] = {"rules": {}, "textacy": {}}
    timed = [_timed(s, clock) for s in (specs or _fallback_specs())]
    timed = [
        _with_side_runs(s, side_clock, with_peers, side) if s.name == "quotes" else s for s in timed
    ]
    t0 = time.perf_counter()
    results = list(analyze_articles(articles, Settings(speakers="model"), timed))
    total = time.perf_counter() - t0
    model_quotes = [r.quotes if isinstance(r, ArticleAnalysis) else [] for r in results]
    report: dict[str, Any] = {
        "split": split,
        "articles": len(gold),
        "failed": sum(not isinstance(r, ArticleAnalysis) for r in results),
        "mode": mode,
        "seconds": total,
        "stage_seconds": clock,
        "side_seconds": side_clock,
        "parse_seconds": total - sum(clock.values()) - sum(side_clock.values()),
        "rows": {},
    }
    systems: dict[str, list[tuple[list[Unit], list[Unit]]]] = {
        "newsloom rules": [newsloom_units(side["rules"].get(g.name, [])) for g in gold],
        "newsloom model": [newsloom_units(q) for q in model_quotes],
    }
    if with_peers:
        systems["textacy"] = [side["textacy"].get(g.name, ([], [])) for g in gold]
    labelled = _labelled_quotes(classes, report)
    for name, per_article in systems.items():
        direct, everything = Counts(), Counts()
        for g, (d, e) in zip(gold, per_article, strict=True):
            direct.add(score_article(g.text, d, g.direct))
            everything.add(score_article(g.text, e, g.attributions))
        row: dict[str, Any] = {"direct": metrics(direct), "all": metrics(everything)}
        if labelled:
            row["by_class"] = accuracy_by_class(gold, [d for d, _ in per_article], labelled)
        report["rows"][name] = row
    return report


def _labelled_quotes(path: Path | None, report: dict[str, Any]) -> list[ClassRow]:
    """The labelled quotes of ``path``; ``report["classes"]`` says which file, or why none."""
    if path is None:
        report["classes"] = {"file": None, "note": "no labelled quotes given (--classes FILE)"}
        return []
    if not Path(path).is_file():
        report["classes"] = {"file": str(path), "note": f"{path} is absent; skipped"}
        return []
    rows = load_speaker_classes(Path(path))
    report["classes"] = {"file": str(path), "labelled": len(rows)}
    return rows


METRIC_LABELS = {
    "exact": "exact span",
    "token": "token overlap",
    "match@0.3": "match ≥0.3",
    "match@0.8": "match ≥0.8",
    "quote+speaker@0.3": "quote+speaker ≥0.3",
}


def format_report(report: dict[str, Any]) -> Group:
    """Rich tables: one per scope, a row per system and metric (narrow enough for 80 columns);
    then the calibration of each system that gives confidences, and the accuracy by class."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    tables: list[Table | Text] = []
    for scope, title in (("direct", "direct quotes"), ("all", "all attributions")):
        table = Table(title=f"PolNeAR {report['split']} — {title}")
        for col in ("system", "metric", "P", "R", "F1"):
            table.add_column(col, justify="left" if col in ("system", "metric") else "right")
        for name, row in report["rows"].items():
            m = row[scope]
            for key, label in METRIC_LABELS.items():
                table.add_row(name, label, *(f"{v:.3f}" for v in m[key]))
            figures = (
                (f"speaker accuracy (n={m['speaker_pairs']})", m["speaker_acc"]),
                (f"resolved speakers (n={m['resolved_pairs']})", m["resolved_speaker_acc"]),
                ("unresolved share", m["unresolved_share"]),
            )
            for k, (label, value) in enumerate(figures):
                table.add_row(name, label, "", "", f"{value:.3f}", end_section=k == 2)
        tables.append(table)
    for name, row in report["rows"].items():
        cal = row["direct"]["calibration"]
        if cal["n"]:
            tables.append(_calibration_table(f"{name}: speaker calibration, direct quotes", cal))
    tables.extend(_class_table(report))
    quotes_s = report["stage_seconds"].get("quotes", 0.0)
    parse_s = max(report["parse_seconds"], 1e-9)
    stages = ", ".join(f"{k} {v:.1f} s" for k, v in report["stage_seconds"].items())
    side = ", ".join(f"{k} {v:.1f} s" for k, v in report["side_seconds"].items())
    counts = ", ".join(
        f"{name}: {row['direct']['pred']} direct / {row['all']['pred']} all predicted"
        for name, row in report["rows"].items()
    )
    gold = next(iter(report["rows"].values()))
    tables.append(
        Text(
            f"{report['articles']} articles ({report['failed']} failed); "
            f"gold: {gold['direct']['gold']} direct quotes, {gold['all']['gold']} attributions; "
            f"{counts}\n{report['mode']} (speakers = model; on the same parse: {side})\n"
            f"time: spaCy parse {parse_s:.1f} s; {stages}; "
            f"quotes stage = {100 * quotes_s / parse_s:.1f}% of the parse"
        )
    )
    return Group(*tables)


def _calibration_table(title: str, cal: dict[str, Any]) -> Table:
    from rich.table import Table

    table = Table(title=title, caption=f"expected calibration error {cal['ece']:.3f}")
    for col in ("confidence", "pairs", "share right", "mean confidence"):
        table.add_column(col, justify="left" if col == "confidence" else "right")
    for b in cal["buckets"]:
        closed = "]" if b["high"] == CONFIDENCE_EDGES[-1] else ")"
        table.add_row(
            f"[{b['low']:.2f}, {b['high']:.2f}{closed}",
            str(b["n"]),
            "–" if b["share"] is None else f"{b['share']:.3f}",
            "–" if b["confidence"] is None else f"{b['confidence']:.3f}",
        )
    return table


def _class_table(report: dict[str, Any]) -> list[Table | Text]:
    """Speaker accuracy by error class, a column per system (right / matched), or the note
    saying why there is none."""
    from rich.table import Table
    from rich.text import Text

    info = report["classes"]
    rows = {n: r["by_class"] for n, r in report["rows"].items() if "by_class" in r}
    if not rows:
        return [Text(f"accuracy by error class: {info['note']}")]
    first = next(iter(rows.values()))
    caption = f"{info['labelled']} labelled quotes ({info['file']})"
    if first["not_in_gold"]:
        caption += f"; {first['not_in_gold']} not found in this split's gold"
    table = Table(title="speaker accuracy by error class, direct quotes", caption=caption)
    table.add_column("class")
    table.add_column("labelled", justify="right")
    for name in rows:
        table.add_column(name, justify="right")
    for label, n in first["classes"].items():
        cells = []
        for by_class in rows.values():
            c = by_class["classes"][label]
            acc = "–" if c["acc"] is None else f"{c['acc']:.2f}"
            cells.append(f"{acc} ({c['right']}/{c['matched']})")
        table.add_row(label, str(n["labelled"]), *cells)
    return [table]
