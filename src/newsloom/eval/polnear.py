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

import re
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the pipeline is imported only when an evaluation runs
    from rich.console import Group
    from spacy.tokens import Doc

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
    """One quote (or attribution content) as scored: character pieces plus a speaker."""

    pieces: tuple[tuple[int, int], ...]
    speaker_pieces: tuple[tuple[int, int], ...] = ()
    speaker_name: str = ""


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
    speaker_pairs: int = 0
    speaker_right: int = 0

    def add(self, other: Counts) -> None:
        for name in ("n_pred", "n_gold", "exact", "pred_tokens", "gold_tokens", "overlap_tokens"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for t in self.matched:
            self.matched[t] += other.matched[t]
        self.speaker_pairs += other.speaker_pairs
        self.speaker_right += other.speaker_right


def prf(tp_p: float, n_p: float, tp_r: float, n_r: float) -> tuple[float, float, float]:
    p = tp_p / n_p if n_p else 0.0
    r = tp_r / n_r if n_r else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def score_article(text: str, predicted: Sequence[Unit], gold: Sequence[Unit]) -> Counts:
    """One-to-one greedy matching by overlap/union of word tokens, then all the counts."""
    words = word_spans(text)
    pred_sets = [token_set(words, u.pieces) for u in predicted]
    gold_sets = [token_set(words, u.pieces) for u in gold]
    keep_p = [i for i, s in enumerate(pred_sets) if s]
    keep_g = [j for j, s in enumerate(gold_sets) if s]
    counts = Counts(n_pred=len(keep_p), n_gold=len(keep_g))
    counts.pred_tokens = sum(len(pred_sets[i]) for i in keep_p)
    counts.gold_tokens = sum(len(gold_sets[j]) for j in keep_g)
    pairs = []
    for i in keep_p:
        for j in keep_g:
            inter = len(pred_sets[i] & gold_sets[j])
            if inter:
                pairs.append((inter / len(pred_sets[i] | gold_sets[j]), inter, i, j))
    pairs.sort(key=lambda p: (-p[0], -p[1], p[2], p[3]))
    used_p: set[int] = set()
    used_g: set[int] = set()
    for iou, inter, i, j in pairs:
        if i in used_p or j in used_g:
            continue
        used_p.add(i)
        used_g.add(j)
        counts.overlap_tokens += inter
        counts.exact += pred_sets[i] == gold_sets[j]
        for t in MATCH_THRESHOLDS:
            counts.matched[t] += iou >= t
        if iou >= MATCH_THRESHOLDS[0]:
            counts.speaker_pairs += 1
            counts.speaker_right += speaker_right(predicted[i], gold[j])
    return counts


def metrics(c: Counts) -> dict[str, Any]:
    out: dict[str, Any] = {"pred": c.n_pred, "gold": c.n_gold}
    out["exact"] = prf(c.exact, c.n_pred, c.exact, c.n_gold)
    out["token"] = prf(c.overlap_tokens, c.pred_tokens, c.overlap_tokens, c.gold_tokens)
    for t in MATCH_THRESHOLDS:
        out[f"match@{t}"] = prf(c.matched[t], c.n_pred, c.matched[t], c.n_gold)
    out["speaker_acc"] = c.speaker_right / c.speaker_pairs if c.speaker_pairs else 0.0
    out["speaker_pairs"] = c.speaker_pairs
    return out


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
        merged.append(Unit(pieces, us[0].speaker_pieces, us[0].speaker_name))
    return merged


def newsloom_units(analyses: Iterable[Any]) -> Iterator[tuple[list[Unit], list[Unit]]]:
    """(direct, all) predicted units per analysed article."""
    for analysis in analyses:
        direct, everything = [], []
        for q in analysis.quotes:
            sp = ((q.speaker_start, q.speaker_end),) if q.speaker_start is not None else ()
            name = " ".join(x for x in (q.speaker, q.speaker_text) if x)
            unit = Unit(((q.start, q.end),), sp, name)
            if q.kind == "direct":
                direct.append(unit)
            cue_key = (q.cue_start, q.cue_end) if q.cue_start is not None else None
            everything.append((unit, cue_key))
        yield direct, merge_by_cue(everything)


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


def run_eval(data: Path, split: str = "dev", with_peers: bool = True) -> dict[str, Any]:
    """Score newsloom (and textacy's direct_quotations) on one split; returns a report dict.

    newsloom runs through ``analyze_articles`` with the stages the quotes stage needs
    (boilerplate, posts, entities, quotes); each stage is timed, the rest is the spaCy parse.
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
    timed = [_timed(s, clock) for s in (specs or _fallback_specs())]
    docs: list[Any] = []
    t0 = time.perf_counter()
    results = list(analyze_articles(articles, Settings(), timed))
    total = time.perf_counter() - t0
    analyses = [
        r if isinstance(r, ArticleAnalysis) else ArticleAnalysis(article=a)
        for r, a in zip(results, articles, strict=True)
    ]
    report: dict[str, Any] = {
        "split": split,
        "articles": len(gold),
        "failed": sum(not isinstance(r, ArticleAnalysis) for r in results),
        "mode": mode,
        "seconds": total,
        "stage_seconds": clock,
        "parse_seconds": total - sum(clock.values()),
        "rows": {},
    }
    systems: dict[str, list[tuple[list[Unit], list[Unit]]]] = {
        "newsloom": list(newsloom_units(analyses))
    }
    if with_peers:
        from ..nlp import load_nlp

        docs = list(load_nlp().pipe(a.text for a in articles))
        systems["textacy"] = [textacy_units(doc) for doc in docs]
    for name, per_article in systems.items():
        direct, everything = Counts(), Counts()
        for g, (d, e) in zip(gold, per_article, strict=True):
            direct.add(score_article(g.text, d, g.direct))
            everything.add(score_article(g.text, e, g.attributions))
        report["rows"][name] = {"direct": metrics(direct), "all": metrics(everything)}
    return report


METRIC_LABELS = {
    "exact": "exact span",
    "token": "token overlap",
    "match@0.3": "match ≥0.3",
    "match@0.8": "match ≥0.8",
}


def format_report(report: dict[str, Any]) -> Group:
    """Rich tables: one per scope, a row per system and metric (narrow enough for 80 columns)."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    tables = []
    for scope, title in (("direct", "direct quotes"), ("all", "all attributions")):
        table = Table(title=f"PolNeAR {report['split']} — {title}")
        for col in ("system", "metric", "P", "R", "F1"):
            table.add_column(col, justify="left" if col in ("system", "metric") else "right")
        for name, row in report["rows"].items():
            m = row[scope]
            for key, label in METRIC_LABELS.items():
                table.add_row(name, label, *(f"{v:.3f}" for v in m[key]))
            table.add_row(
                name,
                f"speaker accuracy (n={m['speaker_pairs']})",
                "",
                "",
                f"{m['speaker_acc']:.3f}",
                end_section=True,
            )
        tables.append(table)
    quotes_s = report["stage_seconds"].get("quotes", 0.0)
    parse_s = max(report["parse_seconds"], 1e-9)
    stages = ", ".join(f"{k} {v:.1f} s" for k, v in report["stage_seconds"].items())
    counts = ", ".join(
        f"{name}: {row['direct']['pred']} direct / {row['all']['pred']} all predicted"
        for name, row in report["rows"].items()
    )
    gold = next(iter(report["rows"].values()))
    note = Text(
        f"{report['articles']} articles ({report['failed']} failed); "
        f"gold: {gold['direct']['gold']} direct quotes, {gold['all']['gold']} attributions; "
        f"{counts}\n{report['mode']}\n"
        f"time: spaCy parse {parse_s:.1f} s; {stages}; "
        f"quotes stage = {100 * quotes_s / parse_s:.1f}% of the parse"
    )
    return Group(*tables, note)
