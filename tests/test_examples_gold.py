"""Gold checks on the project's own example corpus (examples/corpus + examples/gold.json).

Two parts:
1. The gold against the corpus itself, without newsloom's analysis: every file in the gold
   exists and every article in the corpus is in the gold, every gold quote/post/noise text
   occurs verbatim in its article, the stories only name articles of their own, the corpus is
   clean UTF-8 with invented `.example` outlets.
2. newsloom's output against the gold: the corpus is analysed once per session through
   ``newsloom.api.analyze`` and each result is scored (recall/precision) against a floor.
   Floors are set a little under what the pipeline measured when they were written; the
   figures printed with ``-s`` show the current values.
"""

from __future__ import annotations

import html
import json
import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from newsloom.models import ArticleAnalysis, Corpus, Story, article_id
from tests.conftest import EXAMPLES

CORPUS = EXAMPLES / "corpus"
GOLD_PATH = EXAMPLES / "gold.json"
ARTICLE_SUFFIXES = {".txt", ".html", ".jsonl"}

# --- floors (see the module docstring) --------------------------------------------------
# Measured on this corpus when the floors were set (tests with -s print the current value):
# published, source, title, post recall/fields, quote recall/precision, story pairs, merged
# posts, credited sources, timeline 1.00; people recall 0.91, precision 0.81; ages 0.96;
# roles 0.82; speakers 0.84; quote groups 0.94, their speakers 0.81, variant types 1.00;
# merged people 0.91; facts lined up 0.67; hedged-vs-assertive pairs 0.88.
PUBLISHED_FLOOR = 0.95
SOURCE_FLOOR = 0.95
TITLE_FLOOR = 0.95
PEOPLE_RECALL_FLOOR = 0.85
PEOPLE_PRECISION_FLOOR = 0.75
AGE_ACCURACY_FLOOR = 0.9
ROLE_RECALL_FLOOR = 0.75
POST_RECALL_FLOOR = 0.95
POST_FIELD_FLOOR = 0.95
QUOTE_RECALL_FLOOR = 0.9
QUOTE_PRECISION_FLOOR = 0.9
SPEAKER_ACCURACY_FLOOR = 0.8
HEDGE_ORDER_FLOOR = 0.8
STORY_PAIR_F1_FLOOR = 0.9
QUOTE_GROUP_FLOOR = 0.85
QUOTE_GROUP_SPEAKER_FLOOR = 0.75
VARIANT_FLOOR = 0.9
MERGED_POST_FLOOR = 0.9
MERGED_PEOPLE_FLOOR = 0.85
CREDIT_FLOOR = 0.9
FACTS_FLOOR = 0.6
TIMELINE_FLOOR = 0.9

# A predicted span matches a gold span when they share at least this share of the shorter one
# (a quote found with its marks, or one paragraph of a multi-paragraph quote, still matches).
SPAN_OVERLAP = 0.5


def load_gold() -> dict[str, Any]:
    return json.loads(GOLD_PATH.read_text(encoding="utf-8"))


GOLD = load_gold()
ARTICLES: dict[str, dict[str, Any]] = GOLD["articles"]
STORIES: list[dict[str, Any]] = GOLD["stories"]


# --- reading the corpus without newsloom -----------------------------------------------


def split_key(key: str) -> tuple[str, int | None]:
    path, sep, line = key.rpartition(":")
    if sep and path.endswith(".jsonl") and line.isdigit():
        return path, int(line)
    return key, None


def corpus_keys() -> set[str]:
    keys: set[str] = set()
    for path in sorted(CORPUS.rglob("*")):
        if not path.is_file() or path.suffix not in ARTICLE_SUFFIXES:
            continue
        rel = path.relative_to(CORPUS).as_posix()
        if path.suffix == ".jsonl":
            lines = path.read_text(encoding="utf-8").split("\n")
            keys.update(f"{rel}:{n}" for n, line in enumerate(lines, 1) if line.strip())
        else:
            keys.add(rel)
    return keys


def jsonl_record(key: str) -> dict[str, Any]:
    path, line = split_key(key)
    assert line is not None
    return json.loads((CORPUS / path).read_text(encoding="utf-8").split("\n")[line - 1])


def raw_text(key: str) -> str:
    """The article as a reader sees it before analysis (HTML: entities decoded, tags kept)."""
    path, line = split_key(key)
    if line is not None:
        return jsonl_record(key)["text"]
    text = (CORPUS / path).read_text(encoding="utf-8")
    return html.unescape(text) if path.endswith(".html") else text


def body_words(key: str) -> int:
    text = raw_text(key)
    if key.endswith(".html"):
        inner = re.search(r"<article[^>]*>(.*)</article>", text, re.S)
        text = re.sub(r"<[^>]+>", " ", inner.group(1) if inner else "")
    return len(text.split())


def story_of(story_id: str) -> dict[str, Any]:
    return next(s for s in STORIES if s["id"] == story_id)


# --- part 1: the gold against the corpus -------------------------------------------------


def test_every_gold_article_exists_and_every_corpus_article_is_in_gold():
    keys = corpus_keys()
    assert sorted(set(ARTICLES) - keys) == [], "gold names articles the corpus does not hold"
    assert sorted(keys - set(ARTICLES)) == [], "corpus articles missing from the gold"


def test_corpus_size_and_formats():
    keys = corpus_keys()
    assert 20 <= len(keys) <= 30
    suffixes = Counter(Path(split_key(k)[0]).suffix for k in keys)
    assert suffixes[".html"] >= 2 and suffixes[".jsonl"] >= 3 and suffixes[".txt"] >= 10
    named = [k for k in keys if re.match(r"[a-z]+_\d{4}-\d{2}-\d{2}_[a-z0-9-]+\.txt$", k)]
    numbered = [k for k in keys if re.match(r"\d{3}_[0-9a-f]{16}\.txt$", k)]
    assert len(named) >= 5 and len(numbered) >= 3
    assert any(raw_text(k).startswith(" date ") for k in numbered), "no date-marker file"
    assert any(raw_text(k).startswith("url: ") for k in numbered), "no url-line file"


@pytest.mark.parametrize("key", sorted(ARTICLES))
def test_article_is_news_length(key):
    assert 150 <= body_words(key) <= 600


def test_corpus_files_are_clean_utf8_with_lf():
    for path in CORPUS.rglob("*"):
        if not path.is_file():
            continue
        data = path.read_bytes()
        assert data, f"{path} is empty"
        assert not data.startswith(b"\xef\xbb\xbf"), f"{path} has a BOM"
        assert b"\r" not in data, f"{path} has CR line endings"
        data.decode("utf-8")  # raises on bad bytes


def test_outlets_and_domains_are_invented():
    domain = re.compile(r"(?:https?://|@)([a-z0-9.-]+\.[a-z]+)", re.I)
    for path in CORPUS.rglob("*"):
        if path.is_file():
            for host in domain.findall(path.read_text(encoding="utf-8")):
                assert host.endswith(".example"), (
                    f"{path}: {host} is not a reserved .example domain"
                )
    assert all(d.endswith(".example") for d in GOLD["outlets"].values())
    assert {a["outlet"] for a in ARTICLES.values()} <= set(GOLD["outlets"])


@pytest.mark.parametrize("key", sorted(ARTICLES))
def test_gold_texts_occur_verbatim(key):
    gold, text = ARTICLES[key], raw_text(key)
    for quote in gold["quotes"]:
        assert quote["text"] in text, f"quote not in {key}: {quote['text']!r}"
        assert quote["kind"] in ("direct", "indirect")
    for post in gold["posts"]:
        assert post["text"] in text, f"post text not in {key}: {post['text']!r}"
        assert f"(@{post['handle']})" in text
        assert all(f"#{tag}" in post["text"] for tag in post["hashtags"])
    for item in gold["noise"]:
        assert item["text"] in text, f"noise not in {key}: {item['text']!r}"
    if gold["title"] and split_key(key)[1] is None:
        assert gold["title"] in text
    if split_key(key)[1] is not None:
        record = jsonl_record(key)
        assert (record["title"], record["published"][:10]) == (gold["title"], gold["published"])
    for person in gold["people"]:
        assert person["name"] in text or any(a in text for a in person["aliases"]), person
        if person["age"] is not None:
            assert str(person["age"]) in text


def test_gold_stories_are_consistent():
    members = defaultdict(set)
    for key, gold in ARTICLES.items():
        members[gold["story"]].add(key)
    assert {s["id"] for s in STORIES} == set(members)
    for story in STORIES:
        files = set(story["files"])
        assert files == members[story["id"]], story["id"]
        for quote in story["quotes"]:
            assert quote["speaker"]
            for mention in quote["mentions"]:
                assert mention["file"] in files
                assert mention["text"] in {q["text"] for q in ARTICLES[mention["file"]]["quotes"]}
                assert mention["variant"] in {
                    "identical",
                    "truncated",
                    "extended",
                    "merged",
                    "censored",
                    "filler",
                    "paraphrased",
                }
        for post in story["posts"]:
            for f in post["files"]:
                assert post["handle"] in {p["handle"] for p in ARTICLES[f]["posts"]}, (f, post)
        for person in story["people"]:
            assert set(person["files"]) <= files
            for f, age in person["ages"].items():
                stated = {p["name"]: p["age"] for p in ARTICLES[f]["people"]}
                assert stated.get(person["name"]) == age, (f, person["name"])
            assert person["age_conflict"] == (len(set(person["ages"].values())) > 1)
        for passage in story["copied_passages"]:
            assert set(passage["files"]) <= files and passage["earliest"] in passage["files"]
            assert all(passage["sample"] in raw_text(f) for f in passage["files"])
        for credit in story["credited_sources"]:
            assert set(credit["files"]) <= files
            if credit["cue"] != "dateline":
                assert all(credit["cue"] in raw_text(f) for f in credit["files"])
        for fact in story["facts"]:
            assert len(fact["values"]) >= 2
            for f, value in fact["values"].items():
                assert f in files and value in raw_text(f), (f, value)
        for event in story["timeline"]:
            assert re.fullmatch(r"\d{4}(-\d{2}(-\d{2})?)?", event["date"])
            assert set(event["files"]) <= files
    lookalikes = [s for s in STORIES if "lookalike_of" in s]
    assert lookalikes and all(story_of(s["lookalike_of"]) for s in lookalikes)


# --- part 2: newsloom's output against the gold --------------------------------------------


@dataclass
class Run:
    corpus: Corpus
    by_key: dict[str, ArticleAnalysis]
    key_of_id: dict[str, str]


def gold_key(analysis: ArticleAnalysis, jsonl_ids: dict[str, str]) -> str | None:
    """The gold key of an analysed article: JSONL by content id, files by path."""
    article = analysis.article
    if article.id in jsonl_ids:
        return jsonl_ids[article.id]
    origin = article.path or article.origin
    path, _line = split_key(origin)
    try:
        return Path(path).resolve().relative_to(CORPUS.resolve()).as_posix()
    except ValueError:
        return None


@pytest.fixture(scope="session")
def run() -> Run:
    from newsloom.api import analyze
    from newsloom.config import Settings

    analyses: list[ArticleAnalysis] = []

    def on_event(kind: str, payload: object) -> None:
        if kind == "analysed" and isinstance(payload, ArticleAnalysis):
            analyses.append(payload)

    settings = Settings(db_url="sqlite://")
    _report, corpus = analyze([str(CORPUS)], None, settings, on_event=on_event)
    jsonl_ids = {article_id(jsonl_record(k)["text"]): k for k in ARTICLES if split_key(k)[1]}
    by_key = {}
    for analysis in analyses:
        key = gold_key(analysis, jsonl_ids)
        if key is not None:
            by_key[key] = analysis
    return Run(corpus, by_key, {a.article.id: k for k, a in by_key.items()})


def norm_name(name: str | None) -> str:
    return " ".join(re.sub(r"[^\w\s-]", " ", (name or "").lower()).split())


def outlet_key(name: str | None) -> str:
    s = (name or "").lower().strip()
    s = re.sub(r"^https?://", "", s).removeprefix("www.").split("/")[0]
    s = re.sub(r"\.[a-z]+$", "", s) if " " not in s else s
    s = s.removeprefix("the ")
    return re.sub(r"[^a-z0-9]", "", s)


def rate(hits: int, total: int) -> float:
    return hits / total if total else 1.0


def report(label: str, value: float, misses: list[Any]) -> str:
    line = f"{label}: {value:.2f}; misses: {misses[:12]}"
    print(line)
    return line


def check(label: str, value: float, floor: float, misses: list[Any]) -> None:
    """Print the figure (visible with -s) and hold it to its floor."""
    line = report(f"{label} (floor {floor})", value, misses)
    assert value >= floor, line


def analysis(run: Run, key: str) -> ArticleAnalysis:
    assert key in run.by_key, f"{key} was not analysed (read or stage failure)"
    return run.by_key[key]


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("The Harbor Gazette", "harborgazette.example", True),
        ("Harbor Gazette", "https://www.harborgazette.example/news/2022/x", True),
        ("harborgazette", "The Harbor Gazette", True),
        ("Metro Wire", "The Harbor Gazette", False),
        ("Valley Ledger", "Valley", False),
    ],
)
def test_outlet_key_rows(a, b, same):
    assert (outlet_key(a) == outlet_key(b)) is same


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ((0, 10), (0, 10), True),
        ((0, 10), (4, 12), True),  # 6 of the shorter 8 shared
        ((0, 10), (8, 20), False),  # 2 of 10 shared
        ((0, 10), (10, 20), False),  # touching, nothing shared
        ((5, 5), (0, 10), False),  # empty span
    ],
)
def test_overlaps_rows(a, b, expected):
    assert overlaps(a, b) is expected


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("metrowire_feed.jsonl:3", ("metrowire_feed.jsonl", 3)),
        ("pages/a.html", ("pages/a.html", None)),
        ("017_9f2c41d0a8e3b7c5.txt", ("017_9f2c41d0a8e3b7c5.txt", None)),
        ("notes.txt:3", ("notes.txt:3", None)),
    ],
)
def test_split_key_rows(key, expected):
    assert split_key(key) == expected


def test_every_article_is_analysed(run):
    missing = sorted(set(ARTICLES) - set(run.by_key))
    assert missing == [], f"not analysed: {missing}; skipped: {run.corpus.skipped}"


def _metadata_score(run: Run, field: str, same) -> tuple[float, list[Any]]:
    hits, misses, total = 0, [], 0
    for key, gold in ARTICLES.items():
        if gold[field] is None or key not in run.by_key:
            total += gold[field] is not None
            continue
        total += 1
        got = getattr(run.by_key[key].article, field)
        if same(got, gold[field]):
            hits += 1
        else:
            misses.append((key, got, gold[field]))
    return rate(hits, total), misses


def test_published_dates(run):
    score, misses = _metadata_score(run, "published", lambda got, want: (got or "")[:10] == want)
    check("published", score, PUBLISHED_FLOOR, misses)


def test_sources(run):
    score, misses = _metadata_score(
        run, "source", lambda got, want: outlet_key(got) == outlet_key(want)
    )
    check("source", score, SOURCE_FLOOR, misses)


def test_titles(run):
    def same(got: str | None, want: str) -> bool:
        return bool(got) and norm_name(got).startswith(norm_name(want))

    score, misses = _metadata_score(run, "title", same)
    check("title", score, TITLE_FLOOR, misses)


def _person_forms(person: dict[str, Any]) -> set[str]:
    """Names that count as finding the person: the full name and multi-word variants (typos)."""
    return {norm_name(person["name"])} | {norm_name(a) for a in person["aliases"] if " " in a}


def _people_matches(run: Run):
    """Yield (key, gold person, matched entity or None) for every gold person."""
    for key, gold in ARTICLES.items():
        entities = (
            [e for e in run.by_key[key].entities if e.type == "PERSON"] if key in run.by_key else []
        )
        for person in gold["people"]:
            forms = _person_forms(person)
            found = next(
                (
                    e
                    for e in entities
                    if norm_name(e.name) in forms
                    or forms & {norm_name(a) for a in e.aliases if " " in a}
                ),
                None,
            )
            yield key, person, found


def test_people_recall_and_precision(run):
    found = missed = 0
    misses: list[Any] = []
    for key, person, entity in _people_matches(run):
        if person.get("where") == "caption":
            continue  # credits in captions may or may not be read as people
        if entity is None:
            missed += 1
            misses.append((key, person["name"]))
        else:
            found += 1
    recall = rate(found, found + missed)

    tp = fp = 0
    extra: list[Any] = []
    for key, gold in ARTICLES.items():
        if key not in run.by_key:
            continue
        known = {norm_name(a) for p in gold["people"] for a in [p["name"], *p["aliases"]]}
        known |= {norm_name(p["author"]) for p in gold["posts"]}
        for entity in run.by_key[key].entities:
            if entity.type != "PERSON":
                continue
            if norm_name(entity.name) in known:
                tp += 1
            else:
                fp += 1
                extra.append((key, entity.name))
    precision = rate(tp, tp + fp)
    check("people recall", recall, PEOPLE_RECALL_FLOOR, misses)
    check("people precision", precision, PEOPLE_PRECISION_FLOOR, extra)


def test_people_ages(run):
    right = wrong = 0
    misses: list[Any] = []
    for key, person, entity in _people_matches(run):
        if entity is None:
            continue
        if entity.age == person["age"]:
            right += person["age"] is not None
        else:  # a missed age, a wrong age, or an age the article does not give
            wrong += 1
            misses.append((key, person["name"], entity.age, person["age"]))
    score = rate(right, right + wrong)
    check("ages", score, AGE_ACCURACY_FLOOR, misses)


def test_people_roles(run):
    hits = total = 0
    misses: list[Any] = []
    for key, person, entity in _people_matches(run):
        if entity is None or not person["roles"]:
            continue
        total += 1
        got = {w for role in entity.roles for w in norm_name(role).split()}
        if any(norm_name(r).split()[-1] in got for r in person["roles"]):
            hits += 1
        else:
            misses.append((key, person["name"], entity.roles, person["roles"]))
    score = rate(hits, total)
    check("roles", score, ROLE_RECALL_FLOOR, misses)


def test_posts(run):
    found = total = fields_ok = 0
    misses: list[Any] = []
    extra: list[Any] = []
    for key, gold in ARTICLES.items():
        posts = run.by_key[key].posts if key in run.by_key else []
        by_handle = {p.handle.lstrip("@").lower(): p for p in posts}
        for want in gold["posts"]:
            total += 1
            got = by_handle.get(want["handle"].lower())
            if got is None:
                misses.append((key, want["handle"]))
                continue
            found += 1
            same = (
                got.date == want["date"]
                and {t.lstrip("#").lower() for t in got.hashtags}
                == {t.lower() for t in want["hashtags"]}
                and (got.author or "").strip() == want["author"]
            )
            fields_ok += same
            if not same:
                misses.append((key, want["handle"], got.author, got.date, got.hashtags))
        wanted = {p["handle"].lower() for p in gold["posts"]}
        extra += [(key, h) for h in by_handle if h not in wanted]
    recall, fields = rate(found, total), rate(fields_ok, found)
    check("post recall", recall, POST_RECALL_FLOOR, misses)
    check("post author/date/hashtags", fields, POST_FIELD_FLOOR, misses)
    assert extra == [], f"posts not in the gold: {extra}"


def _gold_spans(text: str, quotes: list[dict[str, Any]]) -> list[tuple[int, int, dict[str, Any]]]:
    """Where each gold quote sits in the analysed text (first unused occurrence)."""
    spans, used = [], set()
    for quote in quotes:
        start = text.find(quote["text"])
        while start in used and start != -1:
            start = text.find(quote["text"], start + 1)
        if start == -1:
            continue
        used.add(start)
        spans.append((start, start + len(quote["text"]), quote))
    return spans


def overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    shared = min(a[1], b[1]) - max(a[0], b[0])
    shortest = min(a[1] - a[0], b[1] - b[0])
    return shortest > 0 and shared / shortest >= SPAN_OVERLAP


def test_direct_quotes_and_speakers(run):
    gold_total = gold_found = pred_total = pred_right = 0
    speaker_total = speaker_right = 0
    misses: list[Any] = []
    extra: list[Any] = []
    wrong_speaker: list[Any] = []
    for key, gold in ARTICLES.items():
        if key not in run.by_key:
            gold_total += sum(q["kind"] == "direct" for q in gold["quotes"])
            continue
        result = run.by_key[key]
        direct = [q for q in gold["quotes"] if q["kind"] == "direct"]
        spans = _gold_spans(result.article.text, direct)
        gold_total += len(direct)
        predicted = [q for q in result.quotes if q.kind == "direct"]
        for start, end, want in spans:
            hit = next((q for q in predicted if overlaps((q.start, q.end), (start, end))), None)
            if hit is None:
                misses.append((key, want["text"][:50]))
                continue
            gold_found += 1
            if want["speaker"]:
                speaker_total += 1
                if norm_name(hit.speaker) == norm_name(want["speaker"]):
                    speaker_right += 1
                else:
                    wrong_speaker.append((key, want["text"][:30], hit.speaker, want["speaker"]))
        for q in predicted:
            pred_total += 1
            if any(overlaps((q.start, q.end), (s, e)) for s, e, _ in spans):
                pred_right += 1
            else:
                extra.append((key, q.text[:50]))
    recall, precision = rate(gold_found, gold_total), rate(pred_right, pred_total)
    speakers = rate(speaker_right, speaker_total)
    check("quote recall", recall, QUOTE_RECALL_FLOOR, misses)
    check("quote precision", precision, QUOTE_PRECISION_FLOOR, extra)
    check("speaker accuracy", speakers, SPEAKER_ACCURACY_FLOOR, wrong_speaker)


def test_hedged_outlets_score_higher_than_assertive_ones(run):
    """Within a story, an outlet the gold calls hedged gets a higher hedge score than one it
    calls assertive (pairs compared; the framing stage's per-100-words score)."""
    right = total = 0
    misses: list[Any] = []
    for story in STORIES:
        scored = [
            (ARTICLES[f]["hedging"], run.by_key[f].framing.hedge_score, f)
            for f in story["files"]
            if f in run.by_key and run.by_key[f].framing is not None
        ]
        for label, score, f in scored:
            for other_label, other_score, g in scored:
                if label == "hedged" and other_label == "assertive":
                    total += 1
                    right += score > other_score
                    if score <= other_score:
                        misses.append((f, score, g, other_score))
    check("hedged above assertive", rate(right, total), HEDGE_ORDER_FLOOR, misses)


# --- story level ---------------------------------------------------------------------------


def _pred_groups(run: Run) -> list[set[str]]:
    return [
        {run.key_of_id[a] for a in s.article_ids if a in run.key_of_id} for s in run.corpus.stories
    ]


def _story_for(run: Run, story: dict[str, Any]) -> Story | None:
    """The predicted story holding most of the gold story's articles."""
    files = set(story["files"])
    best = max(
        run.corpus.stories,
        key=lambda s: len(files & {run.key_of_id.get(a) for a in s.article_ids}),
        default=None,
    )
    return best


def _ids(run: Run, files: list[str]) -> set[str]:
    return {run.by_key[f].article.id for f in files if f in run.by_key}


def test_story_grouping(run):
    gold_of = {k: g["story"] for k, g in ARTICLES.items()}
    keys = sorted(set(gold_of) & set(run.by_key))
    pred_of = {k: i for i, group in enumerate(_pred_groups(run)) for k in group}
    pairs = [(a, b) for i, a in enumerate(keys) for b in keys[i + 1 :]]
    same_gold = {(a, b) for a, b in pairs if gold_of[a] == gold_of[b]}
    same_pred = {(a, b) for a, b in pairs if a in pred_of and pred_of.get(a) == pred_of.get(b)}
    tp = len(same_gold & same_pred)
    precision, recall = rate(tp, len(same_pred)), rate(tp, len(same_gold))
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    wrong = sorted(same_gold ^ same_pred)
    check("story pairwise F1", f1, STORY_PAIR_F1_FLOOR, wrong)


def test_lookalike_events_stay_apart_and_each_is_one_story(run):
    for story in STORIES:
        if "lookalike_of" not in story:
            continue
        mine, theirs = set(story["files"]), set(story_of(story["lookalike_of"])["files"])
        for group in _pred_groups(run):
            assert not (group & mine and group & theirs), f"look-alike stories merged: {group}"
        assert any(mine <= group for group in _pred_groups(run)), f"{story['id']} is split"


def _covers(run: Run, quote, file: str, text: str) -> set[str]:
    """Variant labels of ``quote``'s mentions that sit on ``text`` in ``file`` (empty: none)."""
    analysed = run.by_key.get(file)
    start = analysed.article.text.find(text) if analysed else -1
    if analysed is None or start < 0:
        return set()
    span = (start, start + len(text))
    return {
        m.variant or "identical"
        for m in quote.mentions
        if m.article_id == analysed.article.id and overlaps((m.start, m.end), span)
    }


def test_story_quote_variants(run):
    """Each utterance quoted by several outlets is one quote holding every outlet's wording."""
    groups = total = speakers = variants = variant_total = 0
    misses: list[Any] = []
    variant_misses: list[Any] = []
    speaker_misses: list[Any] = []
    for story in STORIES:
        pred = _story_for(run, story)
        for want in story["quotes"]:
            total += 1
            required = [m for m in want["mentions"] if m["variant"] != "merged"]
            quote = next(
                (
                    q
                    for q in (pred.quotes if pred else [])
                    if all(_covers(run, q, m["file"], m["text"]) for m in required)
                ),
                None,
            )
            if quote is None:
                misses.append((story["id"], want["canonical"][:40]))
                continue
            groups += 1
            if norm_name(quote.speaker) == norm_name(want["speaker"]):
                speakers += 1
            else:
                speaker_misses.append((want["canonical"][:40], quote.speaker, want["speaker"]))
            for mention in want["mentions"]:
                variant_total += 1
                got = _covers(run, quote, mention["file"], mention["text"])
                if got & {mention["variant"], *mention.get("also", [])}:
                    variants += 1
                else:
                    variant_misses.append(
                        (mention["file"], mention["text"][:30], got, mention["variant"])
                    )
    check("quote groups", rate(groups, total), QUOTE_GROUP_FLOOR, misses)
    check("quote group speakers", rate(speakers, groups), QUOTE_GROUP_SPEAKER_FLOOR, speaker_misses)
    check("quote variant types", rate(variants, variant_total), VARIANT_FLOOR, variant_misses)


def test_story_posts_merged(run):
    hits = total = 0
    misses: list[Any] = []
    for story in STORIES:
        pred = _story_for(run, story)
        for want in story["posts"]:
            total += 1
            got = [
                p
                for p in (pred.posts if pred else [])
                if p.handle.lstrip("@").lower() == want["handle"]
            ]
            if len(got) == 1 and _ids(run, want["files"]) <= set(got[0].article_ids):
                hits += 1
            else:
                misses.append((story["id"], want["handle"], len(got)))
    score = rate(hits, total)
    check("merged posts", score, MERGED_POST_FLOOR, misses)


def test_story_people_merged_with_age_conflicts(run):
    hits = total = 0
    misses: list[Any] = []
    for story in STORIES:
        pred = _story_for(run, story)
        for want in story["people"]:
            total += 1
            got = next(
                (
                    e
                    for e in (pred.entities if pred else [])
                    if norm_name(e.name) == norm_name(want["name"])
                ),
                None,
            )
            if (
                got
                and _ids(run, want["files"]) <= set(got.article_ids)
                and got.age_conflict == want["age_conflict"]
            ):
                hits += 1
            else:
                misses.append((story["id"], want["name"], got.article_ids if got else None))
    score = rate(hits, total)
    check("merged people", score, MERGED_PEOPLE_FLOOR, misses)


def test_story_copied_passages(run):
    for story in STORIES:
        pred = _story_for(run, story)
        for want in story["copied_passages"]:
            need = _ids(run, want["files"])
            earliest = run.by_key[want["earliest"]].article.id
            found = [
                p
                for p in (pred.copied_passages if pred else [])
                if need <= {s.article_id for s in p.spans}
            ]
            assert found, f"{story['id']}: no copied passage across {want['files']}"
            assert any(p.earliest_article_id == earliest for p in found), f"{story['id']}: earliest"


def test_story_credited_sources(run):
    hits = total = 0
    misses: list[Any] = []
    for story in STORIES:
        pred = _story_for(run, story)
        for want in story["credited_sources"]:
            if want["cue"] == "dateline":
                continue
            total += 1
            ok = any(
                outlet_key(c.name) == outlet_key(want["name"])
                and _ids(run, want["files"]) <= set(c.article_ids)
                for c in (pred.credited_sources if pred else [])
            )
            hits += ok
            if not ok:
                misses.append((story["id"], want["name"], want["cue"]))
    score = rate(hits, total)
    check("credited sources", score, CREDIT_FLOOR, misses)


def test_story_facts_lined_up(run):
    hits = total = 0
    misses: list[Any] = []
    for story in STORIES:
        pred = _story_for(run, story)
        for want in story["facts"]:
            total += 1
            wanted = {
                run.by_key[f].article.id: v for f, v in want["values"].items() if f in run.by_key
            }
            ok = False
            for group in pred.facts if pred else []:
                covered = {
                    s.article_id
                    for s in group.statements
                    if s.article_id in wanted
                    and (s.text in wanted[s.article_id] or wanted[s.article_id] in s.text)
                }
                ok |= len(covered) >= 2
            hits += ok
            if not ok:
                misses.append((story["id"], want["about"]))
    score = rate(hits, total)
    check("facts lined up", score, FACTS_FLOOR, misses)


def test_story_timeline(run):
    hits = total = 0
    misses: list[Any] = []
    for story in STORIES:
        pred = _story_for(run, story)
        dates = {e.date for e in (pred.timeline if pred else [])}
        for want in story["timeline"]:
            total += 1
            if want["date"] in dates:
                hits += 1
            else:
                misses.append((story["id"], want["date"]))
    score = rate(hits, total)
    check("timeline dates", score, TIMELINE_FLOOR, misses)
