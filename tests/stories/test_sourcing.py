"""Copied passages, credited sources, facts lined up, and what each outlet alone reported."""

from __future__ import annotations

import pytest

from newsloom.stories.conflicts import line_up_facts
from newsloom.stories.credits import credited_sources, source_key
from newsloom.stories.entities import merge_entities
from newsloom.stories.outlets import outlet_reports
from newsloom.stories.passages import earliest_publisher, find_copied_passages

from .builders import analysis, quoted

COPIED = "The council approved the new flood barrier after a long debate on Tuesday evening."


def _passage_story(dates=("2024-03-01", "2024-03-02"), sources=("Courier", "Herald")):
    a = analysis(
        "a1", f"Intro from one outlet here today.\n{COPIED}", source=sources[0], published=dates[0]
    )
    b = analysis(
        "a2",
        f"A different opening sentence entirely for this.\n{COPIED.replace('long ', 'lengthy ')}",
        source=sources[1],
        published=dates[1],
    )
    return [a, b]


def test_copied_passage_with_earliest_publisher():
    (passage,) = find_copied_passages(_passage_story())
    assert {s.article_id for s in passage.spans} == {"a1", "a2"}
    assert passage.earliest_article_id == "a1"
    assert passage.earliest_source == "Courier"
    assert 0.8 <= passage.similarity < 1.0


@pytest.mark.parametrize(
    ("dates", "sources", "earliest", "found"),
    [
        (("2024-03-01", "2024-03-01"), ("Courier", "Herald"), None, True),  # same day
        (("2024-03", "2024-03-05"), ("Courier", "Herald"), None, True),  # month overlaps day
        ((None, "2024-03-05"), ("Courier", "Herald"), None, True),
        (("2024-03-01", "2024-03-02"), ("Courier", "the Courier"), None, False),  # one outlet
    ],
)
def test_copied_passage_negative_rows(dates, sources, earliest, found):
    passages = find_copied_passages(_passage_story(dates, sources))
    assert bool(passages) is found
    if found:
        assert passages[0].earliest_article_id == earliest
        assert passages[0].earliest_reason.startswith("unknown")


def test_shared_quote_is_not_copying():
    q = "We will rebuild this city together and nobody will ever stop us from doing it"
    a = quoted("a1", (q, "Jane Roe"))
    b = quoted("a2", (q, "Jane Roe"))
    assert find_copied_passages([a, b]) == []


def test_earliest_publisher_datetime():
    arts = [a.article for a in _passage_story(("2024-03-01T10:00", "2024-03-01T12:30"))]
    first, reason = earliest_publisher(arts)
    assert first is not None and first.id == "a1", reason


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("The Daily Courier", "Daily Courier's", True),
        ("the Daily Courier", "The Daily Courier", True),
        ("Daily Courier", "Daily Herald", False),
    ],
)
def test_source_key(a, b, same):
    assert (source_key(a) == source_key(b)) is same


def test_credited_sources_merged():
    a = analysis(
        "a1",
        "The video was first obtained by The Daily Courier.",
        source="Herald",
        credits=[("The Daily Courier", "obtained by")],
    )
    b = analysis(
        "a2",
        "According to the Courier, the video is real. Reuters reported it too.",
        source="Daily Courier",
        credits=[("the Courier", "according to"), ("Reuters", "reported")],
    )
    sources = credited_sources([a, b])
    assert [s.name for s in sources] == ["The Daily Courier", "Reuters"]
    assert sources[0].article_ids == ["a1", "a2"]
    assert sources[0].is_story_outlet
    assert not sources[1].is_story_outlet


def _claim(text, value, subject, context, kind="money", unit="USD", **extra):
    return {
        "text": text,
        "kind": kind,
        "value": value,
        "unit": unit,
        "subject": subject,
        "context": context,
        **extra,
    }


def test_facts_lined_up_with_conflict_flagged():
    a = analysis(
        "a1",
        "She received a $3m payout. The storm killed 12 people.",
        source="Courier",
        claims=[
            _claim("$3m", 3e6, "payout", ["receive", "payout"]),
            _claim("12 people", 12, "people", ["storm", "kill", "people"], kind="count", unit=None),
        ],
    )
    b = analysis(
        "a2",
        "She got a $5m payout. Storms killed 12 people overall.",
        source="Herald",
        claims=[
            _claim("$5m", 5e6, "payout", ["get", "payout"]),
            _claim("12 people", 12, "people", ["storm", "kill", "people"], kind="count", unit=None),
        ],
    )
    c = analysis(
        "a3",
        "The payout was about $3.2m.",
        source="Gazette",
        claims=[
            _claim("about $3.2m", 3.2e6, "payout", ["payout"], bound="approx", qualifier="about")
        ],
    )
    facts = line_up_facts([a, b, c])
    by_kind = {f.kind: f for f in facts}
    assert by_kind["money"].status == "conflict"
    assert "$5m" in by_kind["money"].explanation
    assert by_kind["count"].status == "agree"
    assert len(by_kind["money"].outlets) == 3


def test_approximate_wording_not_a_conflict():
    a = analysis(
        "a1", "A $3m payout.", source="Courier", claims=[_claim("$3m", 3e6, "payout", ["payout"])]
    )
    b = analysis(
        "a2",
        "About $3.2m payout.",
        source="Herald",
        claims=[
            _claim("About $3.2m", 3.2e6, "payout", ["payout"], bound="approx", qualifier="about")
        ],
    )
    (fact,) = line_up_facts([a, b])
    assert fact.status == "approximate"


def test_ages_matched_through_merged_people():
    a = analysis(
        "a1",
        "Jane Roe, 52, spoke.",
        source="Courier",
        entities=[{"name": "Jane Roe"}],
        claims=[_claim("52", 52, "Jane Roe", [], kind="age", unit="year")],
    )
    b = analysis(
        "a2",
        "Roe, 57, spoke.",
        source="Herald",
        entities=[{"name": "Roe"}],
        claims=[_claim("57", 57, "Roe", [], kind="age", unit="year")],
    )
    facts = line_up_facts([a, b], merge_entities([a, b]))
    # "Roe" is Jane Roe; a story without dates is one moment, so 52 and 57 cannot both hold.
    assert [f.status for f in facts] == ["conflict"]


def test_outlet_exclusives():
    shared = "We will rebuild this city together, stronger than before"
    alone = "The budget is a joke and everyone knows it"
    a = analysis(
        "a1",
        f'"{shared}," Roe said. "{alone}," she added. Post: Water rising on Main St',
        source="Courier",
        quotes=[(shared, "Jane Roe"), (alone, "Jane Roe")],
        posts=[{"handle": "@city", "text": "Water rising on Main St"}],
    )
    b = analysis(
        "a2", f'"{shared[:34]}," Roe said.', source="Herald", quotes=[(shared[:34], "Roe")]
    )
    reports = {r.outlet: r for r in outlet_reports([a, b])}
    assert [q.text for q in reports["Courier"].exclusive_quotes] == [alone]
    assert [p.handle for p in reports["Courier"].exclusive_posts] == ["@city"]
    assert reports["Herald"].exclusive_quotes == []
    single = outlet_reports([a])
    assert single[0].exclusive_quotes == [] and "only one outlet" in single[0].explanation
