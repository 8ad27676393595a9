"""Facts stated differently: statuses agree / approximate / update / conflict, precision first."""

from __future__ import annotations

import pytest

from newsloom.stories.conflicts import line_up_facts
from newsloom.stories.entities import merge_entities

from .builders import analysis


def _claim(text, value, subject, *, kind="count", unit=None, **extra):
    context = extra.pop("context", [subject.split()[-1]])
    return {"text": text, "kind": kind, "value": value, "unit": unit, "subject": subject,
            "context": context, **extra}  # fmt: skip


def _story(first, second, published=(None, None), entities=(), dated=None):
    """``dated``: an ISO date the second statement's own sentence carries ("in 2007")."""
    a = analysis(
        "a1",
        f"Report one. {first['text']} here.",
        source="Courier",
        published=published[0],
        claims=[first],
        entities=[{"name": n} for n in entities[:1]],
    )
    b = analysis(
        "a2",
        f"Report two. {second['text']} here on the day."
        if dated
        else f"Report two. {second['text']} here.",
        source="Herald",
        published=published[1],
        claims=[second],
        entities=[{"name": n} for n in entities[1:2]],
        dates=[("the day", dated)] if dated else (),
    )
    return line_up_facts([a, b], merge_entities([a, b]))


KILLED = {"predicate": "kill"}
# (first claim, second claim, publication dates, people, expected status or None: not grouped)
ROWS = [
    ("agree", _claim("$3m", 3e6, "payout", kind="money", unit="USD"),
     _claim("US$3 million", 3e6, "payout", kind="money", unit="USD"), (None, None), (), "agree"),
    ("approximate: about 50 vs 52",
     _claim("about 50", 50, "people", bound="approx", qualifier="about", **KILLED),
     _claim("52", 52, "people", **KILLED), (None, None), (), "approximate"),
    ("approximate: a bound", _claim("more than 50", 50, "firefighters", bound="above"),
     _claim("60", 60, "firefighters"), (None, None), (), "approximate"),
    ("agree: one bound stated twice", _claim("More than 50", 50, "firefighters", bound="above"),
     _claim("more than 50", 50, "firefighters", bound="above"), (None, None), (), "agree"),
    ("approximate: one kind of bound at two values",
     _claim("more than 50", 50, "firefighters", bound="above"),
     _claim("more than 60", 60, "firefighters", bound="above"), (None, None), (), "approximate"),
    ("update: a toll rising from Monday to Tuesday", _claim("12", 12, "people", **KILLED),
     _claim("15", 15, "people", **KILLED), ("2024-03-04", "2024-03-05"), (), "update"),
    ("update: a toll at moments not shown", _claim("12", 12, "people", **KILLED),
     _claim("15", 15, "people", **KILLED), (None, None), (), "update"),
    ("conflict: two amounts of one payout", _claim("$3m", 3e6, "payout", kind="money", unit="USD"),
     _claim("$5m", 5e6, "payout", kind="money", unit="USD"), (None, None), (), "conflict"),
    ("conflict: one person's ages on one day",
     _claim("52", 52, "Jane Roe", kind="age", unit="year", context=[]),
     _claim("57", 57, "Roe", kind="age", unit="year", context=[]),
     ("2024-03-04", "2024-03-04"), ("Jane Roe", "Roe"), "conflict"),
    ("update: an age a birthday later",
     _claim("52", 52, "Jane Roe", kind="age", unit="year", context=[]),
     _claim("53", 53, "Jane Roe", kind="age", unit="year", context=[]),
     ("2023-01-10", "2024-03-04"), ("Jane Roe", "Jane Roe"), "update"),
    # undated ages: one moment of the story when its dates span under a year
    ("conflict: ages in a story without dates (one event)",
     _claim("52", 52, "Jane Roe", kind="age", unit="year", context=[]),
     _claim("54", 54, "Jane Roe", kind="age", unit="year", context=[]),
     (None, None), ("Jane Roe", "Jane Roe"), "conflict"),
    ("conflict: an undated age a year off within a week of the story",
     _claim("52", 52, "Jane Roe", kind="age", unit="year", context=[]),
     _claim("53", 53, "Jane Roe", kind="age", unit="year", context=[]),
     ("2024-03-04", None), ("Jane Roe", "Jane Roe"), "conflict", "2024-03-08"),
    ("update: an undated age a year off where the story spans seven months",
     _claim("52", 52, "Jane Roe", kind="age", unit="year", context=[]),
     _claim("53", 53, "Jane Roe", kind="age", unit="year", context=[]),
     ("2024-01-04", None), ("Jane Roe", "Jane Roe"), "update", "2024-08-01"),
    ("update: undated ages where the sentence dates the age years later",
     _claim("27", 27, "Jose Ruiz", kind="age", unit="year", context=[]),
     _claim("29", 29, "Jose Ruiz", kind="age", unit="year", context=[]),
     ("2005-06-25", None), ("Jose Ruiz", "Jose Ruiz"), "update", "2007-03-20"),
    # negatives: never one fact
    ("two people with different ages",
     _claim("20", 20, "Katie Jenkin", kind="age", unit="year", context=[]),
     _claim("23", 23, "John Jenkin", kind="age", unit="year", context=[]),
     ("2024-03-04", "2024-03-04"), ("Katie Jenkin", "John Jenkin"), None),
    ("an uncertain subject never conflicts",
     _claim("33-year-old", 33, "man", kind="age", unit="year", context=[], subject_certain=False),
     _claim("35-year-old", 35, "man", kind="age", unit="year", context=[], subject_certain=False),
     ("2024-03-04", "2024-03-04"), (), None),
    ("two players' points", _claim("14", 14, "point", owner="Richard Carter", predicate="score"),
     _claim("13", 13, "point", owner="Seth VanDeest", predicate="score"), (None, None), (), None),
    ("killed vs injured", _claim("12", 12, "people", predicate="kill"),
     _claim("40", 40, "people", predicate="injure"), (None, None), (), None),
]  # fmt: skip


@pytest.mark.parametrize(
    ("case", "first", "second", "published", "people", "status", "dated"),
    [row if len(row) == 7 else (*row, None) for row in ROWS],
)
def test_fact_status(case, first, second, published, people, status, dated):
    facts = _story(first, second, published, people, dated)
    if status is None:
        assert facts == [], case
        return
    (fact,) = facts
    assert fact.status == status, (case, fact.explanation)
    (pair,) = fact.comparisons
    assert pair.status == status and pair.reason
    assert {s.text for s in fact.statements} == {first["text"], second["text"]}


def test_uncertain_statement_joins_only_agreeing_values():
    """An uncertain subject may join a group it agrees with; it never brings a conflict."""
    certain = _claim("$3m", 3e6, "payout", kind="money", unit="USD")
    unsure = _claim("$3m", 3e6, "payout", kind="money", unit="USD", subject_certain=False)
    (fact,) = _story(certain, unsure)
    assert fact.status == "agree"
    assert [s.subject_certain for s in fact.statements] == [True, False]


def _age(text, value, subject, **extra):
    return _claim(text, value, subject, kind="age", unit="year", context=[], **extra)


def _fall(text, metres, owner):
    return _claim(text, metres, "fall", kind="quantity", unit="m", predicate="fall",
                  owner=owner, attachment="verb", context=["fall"])  # fmt: skip


UNNAMED = {"attachment": "description", "subject_certain": False}
# Articles as (words around the figure, claim, people named); a description with an age is the
# story's one person stated to be that old. (case, articles, figures compared, expected status)
DESCRIBED_ROWS = [
    ("an unnamed 60-year-old woman is the one person stated 60",
     [("Police arrested Jane Roe, 60, here.", _age("60", 60, "Jane Roe"), ["Jane Roe"]),
      ("Police arrested a 60-year-old woman here.", _age("60-year-old", 60, "woman", **UNNAMED),
       []),
      ("Police arrested Jane Roe, 61, here.", _age("61", 61, "Jane Roe"), ["Jane Roe"])],
     ("60-year-old", "61"), "conflict"),
    ("a 36-year-old man's fall is the fall of the one person stated 36",
     [("Jane Roe, 36, died here.", _age("36", 36, "Jane Roe"), ["Jane Roe"]),
      ("Roe died after falling 60m here.", _fall("60m", 60, "Jane Roe"), ["Jane Roe"]),
      ("A 36-year-old man fell 200m here.", _fall("200m", 200, "36-year-old man"), [])],
     ("60m", "200m"), "conflict"),
    # negatives: two people of that age; an indefinite description in an article naming the
    # person speaks of someone else; a noun that names no person
    ("two people stated 60: the description stays apart",
     [("Police arrested Jane Roe, 60, here.", _age("60", 60, "Jane Roe"), ["Jane Roe"]),
      ("Police arrested John Doe, 60, here.", _age("60", 60, "John Doe"), ["John Doe"]),
      ("Police arrested a 60-year-old woman here.", _age("60-year-old", 60, "woman", **UNNAMED),
       []),
      ("Police arrested Jane Roe, 61, here.", _age("61", 61, "Jane Roe"), ["Jane Roe"])],
     ("60-year-old", "61"), None),
    ("an indefinite description beside the person's name is someone else",
     [("Police arrested Jane Roe, 60, here.", _age("60", 60, "Jane Roe"), ["Jane Roe"]),
      ("Jane Roe met a 60-year-old woman here.",
       _age("60-year-old", 60, "woman", **UNNAMED), ["Jane Roe"]),
      ("Police arrested Jane Roe, 61, here.", _age("61", 61, "Jane Roe"), ["Jane Roe"])],
     ("60-year-old", "61"), None),
    ("a 60-year-old building is nobody",
     [("Police arrested Jane Roe, 60, here.", _age("60", 60, "Jane Roe"), ["Jane Roe"]),
      ("Police closed a 60-year-old building here.",
       _age("60-year-old", 60, "building", **UNNAMED), []),
      ("Police arrested Jane Roe, 61, here.", _age("61", 61, "Jane Roe"), ["Jane Roe"])],
     ("60-year-old", "61"), None),
]  # fmt: skip


@pytest.mark.parametrize(("case", "articles", "figures", "status"), DESCRIBED_ROWS)
def test_described_person(case, articles, figures, status):
    analyses = [
        analysis(
            f"a{i}",
            f"Report {i}. {words}",
            source=f"Outlet {i}",
            claims=[claim],
            entities=[{"name": n} for n in people],
        )  # fmt: skip
        for i, (words, claim, people) in enumerate(articles)
    ]
    facts = line_up_facts(analyses, merge_entities(analyses))
    found = [
        c.status
        for f in facts
        for c in f.comparisons
        if {f.statements[c.first].text, f.statements[c.second].text} == set(figures)
    ]
    assert found == ([status] if status else []), (case, [f.explanation for f in facts])


def _aged(aid: str, age: int, people: list[dict], source: str) -> object:
    return analysis(
        aid,
        f"Report. Roe, {age}, spoke.",
        source=source,
        published="2024-03-04",
        entities=people,
        claims=[_claim(str(age), age, "Roe", kind="age", unit="year", context=[])],
    )


# (the people each article names; the ages each gives "Roe"; expected statuses of groups)
SHARED_SURNAME_ROWS = [
    # each article names its own Roe: two people, never one fact
    (
        [[{"name": "Jane Roe", "aliases": ["Roe"]}], [{"name": "John Roe", "aliases": ["Roe"]}]],
        [52, 57],
        [],
    ),
    # one person named so in both: a conflict
    ([[{"name": "Jane Roe", "aliases": ["Roe"]}], [{"name": "Roe"}]], [52, 57], ["conflict"]),
    # a "Roe" the article does not settle between two Roes: kept, never a conflict
    (
        [
            [{"name": "Jane Roe", "aliases": ["Roe"]}, {"name": "John Roe", "aliases": ["Roe"]}],
            [{"name": "Jane Roe", "aliases": ["Roe"]}],
        ],
        [52, 57],
        [],
    ),
]


@pytest.mark.parametrize(("people", "ages", "statuses"), SHARED_SURNAME_ROWS)
def test_surname_of_two_people(people, ages, statuses):
    arts = [
        _aged(f"a{k}", age, names, source)
        for k, (names, age, source) in enumerate(
            zip(people, ages, ["Courier", "Herald"], strict=True)
        )
    ]
    facts = line_up_facts(arts, merge_entities(arts))
    assert [f.status for f in facts] == statuses
