"""Tracked quotes at the edge, on a real SQLite store: `newsloom quotes`, `newsloom quote ID`,
and the JSON export's ``tracked_quotes``.

One invented utterance of an invented governor runs through two stories three months apart:
the January flood story quotes it whole and cut short, the April campaign story with one word
changed ("next winter" → "coming winter").
"""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from newsloom import api
from newsloom.cli import app
from newsloom.models import TrackedMention, TrackedQuote, article_id
from newsloom.render.json import build_corpus
from newsloom.render.terminal import (
    date_range,
    date_span,
    diff_text,
    tracked_speaker,
    wording_text,
)
from newsloom.store import TrackedQuoteRow, open_store
from tests.conftest import EXAMPLES
from tests.test_cli import check_export

FULL = (
    "We will not let a single family in this valley face the next winter without a roof over "
    "their heads"
)
CUT = "We will not let a single family in this valley face the next winter"
SWAPPED = FULL.replace("next winter", "coming winter")
JANUARY = [
    {
        "source": "Valley Courier",
        "published": "2024-01-15",
        "title": "Floods sweep through Arden valley towns",
        "text": "Floods swept through the Arden valley on Sunday, destroying dozens of homes in "
        "Millbrook and Tessel.\n\n"
        f'Governor Mara Kellin visited the shelters on Monday. "{FULL}," Kellin said.\n\n'
        "Rescue crews pulled 40 residents from flooded houses in Millbrook.\n",
    },
    {
        "source": "Northline News",
        "published": "2024-01-16",
        "title": "Arden valley floods leave hundreds homeless",
        "text": "Hundreds of residents of Millbrook and Tessel were left homeless after floods "
        "swept through the Arden valley.\n\n"
        f'Governor Mara Kellin told reporters at a shelter: "{CUT}."\n\n'
        "The river crested at six metres on Sunday night.\n",
    },
]
APRIL = [
    {
        "source": "Harbor Gazette",
        "published": "2024-04-20",
        "title": "Kellin launches re-election bid with budget pledge",
        "text": "Governor Mara Kellin opened her re-election campaign in Port Avery on Saturday "
        "with a pledge to balance the state budget.\n\n"
        f'Recalling the winter floods, Kellin repeated her promise: "{SWAPPED}."\n\n'
        "Her opponent, senator Owen Brack, called the budget plan unrealistic.\n",
    },
    {
        "source": "Metro Wire",
        "published": "2024-04-21",
        "title": "Kellin campaign opens in Port Avery with budget promise",
        "text": "Governor Mara Kellin began her re-election campaign in Port Avery, promising a "
        "balanced state budget.\n\n"
        f'"{SWAPPED}," Kellin told supporters, recalling the floods.\n\n'
        "Senator Owen Brack said the budget plan was unrealistic.\n",
    },
]
TEXTS = {article_id(a["text"]): a["text"] for a in JANUARY + APRIL}


def run(*args: str):
    return CliRunner().invoke(app, list(args))


def write_jsonl(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> str:
    folder = tmp_path_factory.mktemp("tracked")
    url = str(folder / "store.db")
    # Two runs, months apart as a newsroom would ingest them: April links to January's quote.
    for name, records in (("january", JANUARY), ("april", APRIL)):
        done = run("ingest", str(write_jsonl(folder / f"{name}.jsonl", records)), "--db", url, "-q")
        assert done.exit_code == 0, done.output
    return url


def json_out(result) -> object:
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def utterance_row(db: str) -> dict:
    rows = json_out(run("quotes", "--db", db, "--json", "--q", "single family"))
    assert len(rows) == 1, rows
    return rows[0]


# -- the store as the tracker left it: the premise of every test below -----------------------


def test_the_utterance_is_one_tracked_quote_over_two_stories(db):
    stories = json_out(run("stories", "--db", db, "--json"))
    assert len(stories) == 2 and all(s["articles"] == 2 for s in stories)
    row = utterance_row(db)
    assert row["text"].rstrip(",.") == FULL
    assert (row["speaker"], row["mentions"], row["outlets"], row["stories"]) == (
        "Mara Kellin",
        4,
        4,
        2,
    )
    assert (row["first_date"], row["last_date"]) == ("2024-01-15", "2024-04-21")


# -- newsloom quotes -----------------------------------------------------------------------


def test_quotes_lists_most_mentioned_first_with_the_record_keys(db):
    rows = json_out(run("quotes", "--db", db, "--json"))
    assert rows[0] == utterance_row(db)
    assert [r["mentions"] for r in rows] == sorted((r["mentions"] for r in rows), reverse=True)
    assert all(list(r) == [f.name for f in fields(TrackedQuoteRow)] for r in rows)


def test_the_quotes_table_shows_wording_speaker_counts_and_dates(db):
    result = CliRunner().invoke(app, ["quotes", "--db", db], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    total = len(json_out(run("quotes", "--db", db, "--json")))
    assert f"tracked quotes ({total})" in result.output
    row = next(line for line in result.output.splitlines() if utterance_row(db)["id"] in line)
    assert "Mara Kellin" in row and "We will not let a single family" in row
    assert "4 mentions" in row and "2024-01-15 →" in row
    assert "4 outlets" in result.output and "2 stories" in result.output
    assert "2024-04-21" in result.output


@pytest.mark.parametrize(
    ("args", "found"),
    [
        (["--speaker", "Mara Kellin"], True),
        (["--speaker", "mara kellin"], True),  # any case
        (["--speaker", "Owen Brack"], False),
        (["--speaker", "Kellin"], False),  # the name, not a word of it
        (["--q", "NEXT WINTER"], True),
        (["--q", "coming winter"], False),  # the canonical wording, not every outlet's
        (["--speaker", "Mara Kellin", "--q", "roof over"], True),
        (["--speaker", "Mara Kellin", "--q", "budget"], False),
    ],
)
def test_quotes_filter_by_speaker_and_wording(db, args, found):
    rows = json_out(run("quotes", "--db", db, "--json", *args))
    assert (utterance_row(db)["id"] in {r["id"] for r in rows}) is found
    if "--speaker" in args:
        speaker = args[args.index("--speaker") + 1].lower()
        assert all((r["speaker"] or "").lower() == speaker for r in rows)


@pytest.mark.parametrize(
    ("variant", "found"),
    [
        ("identical", True),
        ("truncated", True),  # January's cut-short wording
        ("word_change", True),  # April's "coming winter"
        ("censored", False),
        ("paraphrased", False),
        ("merged", False),
    ],
)
def test_quotes_filter_by_variant(db, variant, found):
    rows = json_out(run("quotes", "--db", db, "--json", "--variant", variant))
    assert (utterance_row(db)["id"] in {r["id"] for r in rows}) is found
    for row in rows:  # each listed quote has a mention worded so
        quote = json_out(run("quote", row["id"], "--db", db, "--json"))
        assert variant in {m["variant"] for m in quote["mentions"]}
    cut = run("quotes", "--db", db, "--format", "jsonl", "--variant", variant, "--limit", "1")
    assert cut.exit_code == 0 and len(cut.stdout.splitlines()) == min(1, len(rows))


def test_quotes_refuses_a_variant_that_is_none():
    result = run("quotes", "--variant", "sarcastic")
    assert result.exit_code == 2
    assert "'sarcastic' is no variant" in result.output and "word_change" in result.output


def test_limit_and_offset_page_through_and_say_the_total(db):
    every = json_out(run("quotes", "--db", db, "--json"))
    assert len(every) >= 2, "the fixture needs a second tracked quote"
    pages = [
        json_out(run("quotes", "--db", db, "--json", "--limit", "1", "--offset", str(n)))
        for n in range(len(every))
    ]
    assert [row for page in pages for row in page] == every
    cut = run("quotes", "--db", db, "--format", "jsonl", "--limit", "1", "--offset", "1")
    assert [json.loads(line) for line in cut.stdout.splitlines()] == every[1:2]
    assert f"2–2 of {len(every)}" in cut.stderr  # the total, beside the rows, not among them
    table = CliRunner().invoke(app, ["quotes", "--db", db, "--limit", "1"])
    assert f"tracked quotes (1–1 of {len(every)})" in table.output
    assert json_out(run("quotes", "--db", db, "--json", "--limit", "0")) == every
    assert json_out(run("quotes", "--db", db, "--json", "--offset", "99")) == []
    assert run("quotes", "--db", db, "--limit", "-1").exit_code == 2


def test_quotes_refuses_a_store_that_does_not_exist(tmp_path):
    result = run("quotes", "--db", str(tmp_path / "nope.db"))
    assert result.exit_code == 1 and "nope.db" in result.output


# -- newsloom quote ID ---------------------------------------------------------------------


def test_quote_shows_every_mention_in_date_order_with_the_word_differences(db):
    row = utterance_row(db)
    result = CliRunner().invoke(app, ["quote", row["id"][:6], "--db", db], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    out = result.output
    assert row["id"] in out and FULL in out
    assert "speaker: Mara Kellin (" in out and "% confidence)" in out
    assert "first seen: Valley Courier, 2024-01-15, article " in out
    assert "“Floods sweep through Arden valley towns”" in out
    assert "4 mentions by 4 outlets in 2 stories (97 days, to 2024-04-21)" in out
    heads = [line for line in out.splitlines() if line.startswith("2024-")]
    assert heads == [
        "2024-01-15  Valley Courier  identical",
        "2024-01-16  Northline News  truncated",
        "2024-04-20  Harbor Gazette  word_change",
        "2024-04-21  Metro Wire  word_change",
    ]
    stories = json_out(run("stories", "--db", db, "--json"))
    assert all(f"story {s['id']}" in out for s in stories)
    # Not a colour terminal: the differences are bracketed, as `git diff --word-diff` does.
    assert "face the next winter[- without a roof over their heads,-]." in out
    assert out.count("face the [-next-]{+coming+} winter without a roof") == 2


def test_a_near_wording_is_struck_and_green_in_a_colour_terminal(db):
    shown = run("quote", utterance_row(db)["id"], "--db", db, "--json")
    quote = TrackedQuote.model_validate_json(shown.stdout)
    swapped = next(m for m in quote.mentions if m.variant == "word_change")
    text = wording_text(quote, swapped)
    styles = {text.plain[s.start : s.end]: str(s.style) for s in text.spans}
    assert styles == {"next": "red strike", "coming": "green"}
    assert text.plain == swapped.text.replace("coming", "nextcoming")
    console = Console(record=True, force_terminal=True, color_system="truecolor", width=200)
    from newsloom.render.terminal import print_tracked_quote

    print_tracked_quote(console, quote)
    shown = console.export_text(styles=True)
    assert "\x1b[9;31mnext\x1b[0m\x1b[32mcoming\x1b[0m" in shown
    assert "[-" not in console.export_text()  # no brackets where colours show


def test_quote_json_is_the_tracked_quote_with_offsets_into_its_articles(db):
    row = utterance_row(db)
    quote = TrackedQuote.model_validate_json(run("quote", row["id"], "--db", db, "--json").stdout)
    assert quote.id == row["id"] and len(quote.mentions) == 4
    assert quote.first_outlet == "Valley Courier" and quote.first_article_id in TEXTS
    for m in quote.mentions:
        assert TEXTS[m.article_id][m.start : m.end] == m.text
    assert [m.variant for m in quote.mentions] == [
        "identical",
        "truncated",
        "word_change",
        "word_change",
    ]
    assert len({m.story_id for m in quote.mentions}) == 2
    (link,) = quote.links
    assert link.relation == "near" and link.aligned >= 0.9


def test_an_unknown_or_ambiguous_id_is_one_red_line_naming_it(db):
    unknown = run("quote", "zzzz", "--db", db)
    assert unknown.exit_code == 1 and "Traceback" not in unknown.output
    assert "no tracked quote with id 'zzzz'" in unknown.output
    assert "newsloom quotes" in unknown.output
    ambiguous = run("quote", "", "--db", db)  # the empty prefix starts every id
    assert ambiguous.exit_code == 1 and "Traceback" not in ambiguous.output
    assert "tracked quote id prefix '' is ambiguous" in ambiguous.output


# -- the JSON export ------------------------------------------------------------------------


def tracked_refs_hold(doc: dict, texts: dict[str, str]) -> None:
    """Every tracked_quote_id names a tracked quote of the document, every tracked mention
    is in an exported article and a story of the document, at its text's offsets."""
    tracked = {q["id"]: q for q in doc["tracked_quotes"]}
    story_ids = {s["id"] for s in doc["stories"]}
    articles = {a["id"] for a in doc["articles"]}
    for story in doc["stories"]:
        for q in story["quotes"]:
            assert q["tracked_quote_id"] in tracked, q
    for q in tracked.values():
        assert q["mentions"] and q["first_article_id"] in articles
        assert set(q["story_ids"]) <= story_ids
        for m in q["mentions"]:
            assert m["article_id"] in articles and m["story_id"] in story_ids
            assert texts[m["article_id"]][m["start"] : m["end"]] == m["text"]


def test_analyze_exports_the_tracked_quotes_and_each_story_quote_names_its_own(tmp_path):
    source = write_jsonl(tmp_path / "in.jsonl", JANUARY + APRIL)
    out = tmp_path / "out.json"
    result = run("analyze", str(source), "--json", str(out), "-q")
    assert result.exit_code == 0, result.output
    check_export(out, tmp_path)
    doc = json.loads(out.read_text(encoding="utf-8"))
    tracked_refs_hold(doc, TEXTS)
    (utterance,) = [q for q in doc["tracked_quotes"] if "single family" in q["text"]]
    assert len(utterance["mentions"]) == 4 and len(utterance["story_ids"]) == 2
    for story in doc["stories"]:
        kellin = [q for q in story["quotes"] if "single family" in q["text"]]
        assert [q["tracked_quote_id"] for q in kellin] == [utterance["id"]]
    counts = [len(q["mentions"]) for q in doc["tracked_quotes"]]
    assert counts == sorted(counts, reverse=True)


def test_the_example_corpus_export_passes_the_contract_check(tmp_path):
    out, db = tmp_path / "out.json", tmp_path / "store.db"
    result = run("analyze", str(EXAMPLES / "corpus"), "--json", str(out), "--db", str(db), "-q")
    assert result.exit_code == 0, result.output
    check_export(out, tmp_path)
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["tracked_quotes"]
    store = open_store(str(db))  # every article's exact text, JSONL and HTML ones included
    try:
        texts = {a["id"]: store.article_text(a["id"]).text for a in doc["articles"]}
    finally:
        store.close()
    tracked_refs_hold(doc, texts)


def test_exporting_some_articles_keeps_only_their_mentions(db):
    store = open_store(db)
    try:
        january_ids = [article_id(a["text"]) for a in JANUARY]
        corpus = api.export(store, january_ids[:1])
        full = store.tracked_quote(utterance_row(db)["id"])
    finally:
        store.close()
    assert full is not None
    assert {a.id for a in corpus.articles} == set(january_ids)
    (story,) = corpus.stories
    doc = corpus.model_dump(mode="json")
    tracked_refs_hold(doc, TEXTS)
    (quote,) = [q for q in corpus.tracked_quotes if q.id == full.id]
    assert [m.published for m in quote.mentions] == ["2024-01-15", "2024-01-16"]
    assert (quote.first_date, quote.last_date) == ("2024-01-15", "2024-01-16")
    assert quote.story_ids == [story.id] and quote.links == []
    assert quote.outlets == ["Northline News", "Valley Courier"]
    assert (quote.text, quote.speaker) == (full.text, full.speaker)  # the utterance's own


def test_a_tracked_quote_left_with_no_mention_is_dropped_and_unnamed(db):
    store = open_store(db)
    try:
        stories = store.stories()
        tracked = store.tracked_quotes_of([s.id for s in stories])
    finally:
        store.close()
    corpus = build_corpus([], stories, (), tracked)  # no article exported
    assert corpus.tracked_quotes == []
    assert all(q.tracked_quote_id is None for s in corpus.stories for q in s.quotes)
    assert all(q.tracked_quote_id for s in stories for q in s.quotes)  # the inputs untouched


def test_export_writes_the_tracked_quote_rows(db):
    result = run("export", "--db", db, "--what", "tracked_quotes", "--format", "jsonl")
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert rows == json_out(run("quotes", "--db", db, "--json", "--limit", "0"))


def test_the_schema_holds_the_tracked_quotes():
    schema = json.loads(run("schema").output)
    assert "tracked_quotes" in schema["properties"]
    defs = schema["$defs"]
    assert "tracked_quote_id" in defs["Quote"]["properties"]
    mention = defs["TrackedMention"]["properties"]
    assert {"article_id", "start", "end", "outlet", "published", "story_id"} <= set(mention)
    assert "word_change" in mention["variant"]["enum"]
    assert {"first_article_id", "first_outlet", "first_date", "links"} <= set(
        defs["TrackedQuote"]["properties"]
    )


# -- the terminal pieces -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "last", "span", "shown"),
    [
        ("2024-01-15", "2024-04-21", "97 days, to 2024-04-21", "2024-01-15 →\n2024-04-21"),
        ("2024-01-15", "2024-01-16", "1 day, to 2024-01-16", "2024-01-15 →\n2024-01-16"),
        ("2024-01-15", "2024-01-15", "same day", "2024-01-15"),
        ("2024-01", "2024-04-21", "to 2024-04-21", "2024-01 →\n2024-04-21"),
        ("2024", "2024", "", "2024"),
        (None, None, "", ""),
    ],
)
def test_date_span_and_range(first, last, span, shown):
    assert date_span(first, last) == span
    assert date_range(first, last) == shown


@pytest.mark.parametrize(
    ("base", "other", "marked"),
    [
        (FULL, CUT, "face the next winter[- without a roof over their heads-]"),
        (FULL + ",", CUT + ".", "face the next winter[- without a roof over their heads,-]."),
        (
            FULL + ",",
            SWAPPED + ".",
            "face the [-next-]{+coming+} winter without a roof over their heads.",
        ),
        (FULL, FULL + ", and we mean it", "their heads{+, and we mean it+}"),
        (FULL + ".", FULL + ",", "their heads,"),  # closing punctuation is not a change
    ],
)
def test_diff_text_brackets_the_changes_when_asked(base, other, marked):
    text = diff_text(base, other, marks=True).plain
    assert text.endswith(marked)
    for mark in ("[-", "-]", "{+", "+}"):
        text = text.replace(mark, "")
    assert text == diff_text(base, other).plain  # the same pieces, unbracketed


def test_a_paraphrase_or_merged_or_indirect_wording_is_shown_as_written():
    def mention(text: str, variant: str, kind: str = "direct") -> TrackedMention:
        return TrackedMention(
            article_id="a",
            start=0,
            end=len(text),
            text=text,
            kind=kind,  # type: ignore[arg-type]
            outlet="X",
            story_id="s",
            story_quote_id="q",
            speaker=None,
            variant=variant,  # type: ignore[arg-type]
        )

    quote = TrackedQuote(
        id="t",
        text=FULL,
        speaker=None,
        first_article_id="a",
        first_outlet="X",
        first_date=None,
        last_date=None,
        outlets=["X"],
        story_ids=["s"],
        mentions=[],
    )
    reworded = "No family in the valley will spend the winter without shelter, we promise"
    for m in (
        mention(reworded, "paraphrased"),
        mention(CUT + ", and the rest", "merged"),
        mention(CUT, "truncated", kind="indirect"),
    ):
        shown = wording_text(quote, m, marks=True)
        assert shown.plain == m.text and not [s for s in shown.spans if "strike" in str(s.style)]
    assert wording_text(quote, mention(CUT, "truncated"), marks=True).plain != CUT


@pytest.mark.parametrize(
    ("speaker", "confidence", "others", "line"),
    [
        ("Jane Roe", 0.95, [], "speaker: Jane Roe (95% confidence)"),
        ("Jane Roe", None, [], "speaker: Jane Roe"),  # not scored: the name alone
        ("Jane Roe", 0.6, [], "speaker: probably Jane Roe (60%)"),  # as a story shows doubt
        (
            "Jane Roe",
            0.9,
            ["John Doe"],
            "speaker: Jane Roe (90% confidence); other stories name: John Doe",
        ),
        (None, None, [], "speaker: unattributed"),
    ],
)
def test_the_speaker_line_says_how_sure_and_who_else_is_named(speaker, confidence, others, line):
    quote = TrackedQuote(
        id="t",
        text=FULL,
        speaker=speaker,
        speaker_confidence=confidence,
        speaker_conflict=others,
        first_article_id="a",
        first_outlet="X",
        first_date=None,
        last_date=None,
        outlets=[],
        story_ids=[],
        mentions=[],
    )
    assert tracked_speaker(quote).plain == line
