"""Corroboration: which outlets carry a quote, fact or timeline event independently."""

from __future__ import annotations

import pytest

from newsloom.models import Span
from newsloom.stories import consolidate
from newsloom.stories.corroboration import Corroborator, timeline_spans
from newsloom.stories.passages import find_copied_passages

from .builders import analysis

QUOTE = "We will find out what failed and who knew about it"
# Own reporting long enough to be a copied passage (MIN_OWN_WORDS) and to make up a body.
WIRE_BODY = (
    "The Kessler Street bridge over the Tamsin river gave way during the Monday morning rush.\n"
    "Emergency crews pulled every driver from the water within half an hour of the collapse.\n"
    f'"{QUOTE}," Mayor Dana Whitcombe said at the scene on Monday.\n'
    "The steel truss bridge was built in 1958 and carried nearly ten thousand vehicles a day."
)


def _wire(aid="w1", source="Metro Wire", published="2022-03-14"):
    return analysis(
        aid,
        "MILLBROOK (Metro Wire) — " + WIRE_BODY,
        source=source,
        published=published,
        quotes=[(QUOTE, "Dana Whitcombe")],
        dates=[("1958", "1958")],
    )


def _own(aid, source, lead, published="2022-03-14", credits=()):
    """An outlet's own article quoting the mayor after a lead paragraph of its own."""
    return analysis(
        aid,
        f'{lead}\n"{QUOTE}," Whitcombe told {source} staff.',  # too short to be a copy
        source=source,
        published=published,
        quotes=[(QUOTE, "Dana Whitcombe")],
        credits=credits,
    )


def _corroboration(analyses, aid_quote=QUOTE):
    c = Corroborator(analyses, find_copied_passages(analyses))
    spans = [
        (a.article.id, q.start, q.end) for a in analyses for q in a.quotes if q.text == aid_quote
    ]
    return c.of(spans)


def test_wire_copy_is_not_independent():
    wire = _wire()
    reprint = analysis(
        "r1",
        "Bridge falls into river\n" + WIRE_BODY,
        source="Lakeshore Times",
        published="2022-03-15",
        quotes=[(QUOTE, "Dana Whitcombe")],
    )
    own = _own("g1", "Harbor Gazette", "Divers searched the Tamsin river all night long for cars.")
    c = _corroboration([wire, reprint, own])
    assert c.outlets == ["Metro Wire", "Harbor Gazette", "Lakeshore Times"]
    assert c.independent_outlets == ["Metro Wire", "Harbor Gazette"]
    (dep,) = c.depends_on
    assert (dep.outlet, dep.on, dep.via, dep.article_id) == (
        "Lakeshore Times",
        "Metro Wire",
        "wire",
        "r1",
    )
    assert c.sources == 2 and not c.single_source


def test_dateline_names_the_wire_even_when_the_copy_is_trimmed():
    wire = _wire()
    lines = WIRE_BODY.split("\n")
    trimmed = analysis(
        "r2",
        "MILLBROOK (Metro Wire) — " + "\n".join([lines[0], lines[2]]) + "\n"
        "Our own traffic page lists every detour around the closed crossing this week.\n"
        "Readers can send photos of the river to the newsroom by email at any time today.\n"
        "The council meets on Thursday evening to discuss the closure of the bridge road.",
        source="Valley Ledger",
        published="2022-03-14",
        quotes=[(QUOTE, "Dana Whitcombe")],
    )
    place = "MILLBROOK"  # the dateline the ingest reader finds
    trimmed.article.dateline = Span(start=0, end=len(place), text=place)
    c = _corroboration([wire, trimmed])
    assert [(d.outlet, d.via) for d in c.depends_on] == [("Valley Ledger", "wire")]
    assert "dateline" in c.depends_on[0].evidence


def test_credit_in_the_paragraph_makes_it_dependent_and_the_item_single_source():
    own = _own("g1", "Harbor Gazette", "Divers searched the Tamsin river all night long for cars.")
    credited = analysis(
        "c1",
        f'The mayor spoke first to the Harbor Gazette on Monday. "{QUOTE}," she said.',
        source="Riverside Courier",
        published="2022-03-15",
        quotes=[(QUOTE, "Dana Whitcombe")],
        credits=[("Harbor Gazette", "spoke to")],
    )
    c = _corroboration([own, credited])
    assert c.independent_outlets == ["Harbor Gazette"]
    assert [(d.outlet, d.on, d.via) for d in c.depends_on] == [
        ("Riverside Courier", "Harbor Gazette", "credit")
    ]
    assert c.single_source and c.sources == 1


@pytest.mark.parametrize(
    ("credits", "dependent"),
    [
        ([("Harbor Gazette", "spoke to")], False),  # credit in another paragraph: not for it
        ([("Northline News", "reported", "")], False),  # no evidence, not a story outlet
    ],
)
def test_credits_that_do_not_cover_the_item(credits, dependent):
    own = _own("g1", "Harbor Gazette", "Divers searched the Tamsin river all night long for cars.")
    other = _own(
        "c1",
        "Riverside Courier",
        "The Harbor Gazette and the Northline News covered the closure on Monday.",
        credits=credits,
    )
    c = _corroboration([own, other])
    assert bool(c.depends_on) is dependent
    assert c.independent_outlets == ["Harbor Gazette", "Riverside Courier"]


def test_credit_to_an_outlet_outside_the_story_counts_as_its_source():
    a = analysis(
        "a1",
        f'"{QUOTE}," Whitcombe told the Daily Lantern on Monday.',
        source="Harbor Gazette",
        quotes=[(QUOTE, "Dana Whitcombe")],
        credits=[("Daily Lantern", "told")],
    )
    b = analysis(
        "b1",
        f'"{QUOTE}," Whitcombe told the Daily Lantern, a Millbrook paper.',
        source="Northline News",
        quotes=[(QUOTE, "Dana Whitcombe")],
        credits=[("Daily Lantern", "told")],
    )
    c = _corroboration([a, b])
    assert c.independent_outlets == []
    assert {(d.on, d.on_in_story) for d in c.depends_on} == {("Daily Lantern", False)}
    assert c.sources == 1 and c.single_source


def test_independent_quotes_of_one_speaker_count_twice():
    a = _own("g1", "Harbor Gazette", "Divers searched the Tamsin river all night long for cars.")
    b = _own("n1", "Northline News", "The city closed the Mill Lane crossing as a precaution.")
    c = _corroboration([a, b])
    assert c.independent_outlets == ["Harbor Gazette", "Northline News"] and not c.depends_on
    assert c.sources == 2


def test_mutual_credits_do_not_make_a_circle():
    a = analysis(
        "a1",
        f'"{QUOTE}," Whitcombe told the Northline News.',
        source="Harbor Gazette",
        published="2022-03-14",
        quotes=[(QUOTE, "Dana Whitcombe")],
        credits=[("Northline News", "told")],
    )
    b = analysis(
        "b1",
        f'"{QUOTE}," Whitcombe told the Harbor Gazette.',
        source="Northline News",
        published="2022-03-15",
        quotes=[(QUOTE, "Dana Whitcombe")],
        credits=[("Harbor Gazette", "told")],
    )
    c = _corroboration([a, b])
    assert len(c.independent_outlets) == 1 and len(c.depends_on) == 1
    assert c.sources == 1


def test_consolidated_story_sets_corroboration_on_every_item():
    wire = _wire()
    reprint = analysis(
        "r1",
        "Bridge falls into river\n" + WIRE_BODY,
        source="Lakeshore Times",
        published="2022-03-15",
        quotes=[(QUOTE, "Dana Whitcombe")],
        dates=[("1958", "1958")],
    )
    story = consolidate([wire, reprint])
    assert story.quotes and all(q.corroboration is not None for q in story.quotes)
    assert story.timeline and all(e.corroboration is not None for e in story.timeline)
    (event,) = [e for e in story.timeline if e.date == "1958"]
    assert event.corroboration is not None
    assert [d.via for d in event.corroboration.depends_on] == ["wire"]
    spans = timeline_spans([wire, reprint], "1958", ["w1", "r1"])
    assert {aid for aid, _, _ in spans} == {"w1", "r1"}
