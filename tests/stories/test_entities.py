from __future__ import annotations

from datetime import date

import pytest

from newsloom.stories.entities import age_conflict, merge_entities

from .builders import analysis


def _story(*articles: list, dates: list[str | None] | None = None):
    out = []
    for k, names in enumerate(articles):
        ents = [n if isinstance(n, dict) else {"name": n} for n in names]
        published = dates[k] if dates else None
        out.append(analysis(f"a{k}", "Some text.", published=published, entities=ents))
    return out


def _partition(entities):
    return sorted(sorted({e.name, *e.aliases}) for e in entities)


# (names per article, expected groups as sets of names)
ROWS = [
    ([["Jane Roe"], ["Roe"], ["Jane"]], [{"Jane Roe", "Roe", "Jane"}]),
    ([["Jane Roe"], ["John Roe"], ["Roe"]], [{"Jane Roe"}, {"John Roe"}, {"Roe"}]),
    ([["John Smith"], ["John Smith"], ["Jonh Smith"]], [{"John Smith", "Jonh Smith"}]),
    ([["Jane Roe"], ["Jane A. Roe"]], [{"Jane Roe", "Jane A. Roe"}]),
    ([["Jane Roe"], ["J. Roe"]], [{"Jane Roe", "J. Roe"}]),
    # a changed letter in equally common spellings may be another person
    ([["Jane Roe"], ["Jake Roe"]], [{"Jane Roe"}, {"Jake Roe"}]),
    # one article keeps the two apart: two people
    ([["John Smith", "Jonh Smith"], ["John Smith"]], [{"John Smith"}, {"Jonh Smith"}]),
    ([["Jane Roe"], ["Mary Doe"]], [{"Jane Roe"}, {"Mary Doe"}]),
    # a short form of exactly one first name; too short a prefix stays apart
    ([["Rafael Ondrasek"], ["Rafa"]], [{"Rafael Ondrasek", "Rafa"}]),
    ([["Rafael Ondrasek"], ["Raf"]], [{"Rafael Ondrasek"}, {"Raf"}]),
    (
        [["Rafael Ondrasek"], ["Rafaela Ruiz"], ["Rafa"]],
        [{"Rafael Ondrasek"}, {"Rafaela Ruiz"}, {"Rafa"}],
    ),
    # a surname kept apart in one article may be a relative; a first name is the same person
    ([["Jane Roe", "Roe"], ["Jane Roe"]], [{"Jane Roe"}, {"Roe"}]),
    ([["Jane Roe", "Jane"], ["Jane Roe"]], [{"Jane Roe", "Jane"}]),
]


@pytest.mark.parametrize(("articles", "expected"), ROWS)
def test_people_merged(articles, expected):
    entities = merge_entities(_story(*articles))
    groups = [{e.name, *e.aliases} for e in entities]
    assert sorted(groups, key=sorted) == sorted(expected, key=sorted)


def _p(name: str, **fields) -> dict:
    return {"name": name, **fields}


# Surname variants of one person across outlets (stories/name_variants.py):
# (names per article, publication dates, expected groups as sets of names)
VARIANT_ROWS = [
    # a four-letter surname one letter apart, a middle name in one: the rarer spelling joins
    (
        [["Duncan Robert Rait"], ["Duncan Robert Rait"], ["Duncan Raite"]],
        None,
        [{"Duncan Robert Rait", "Duncan Raite"}],
    ),
    # equally common spellings: only with evidence (the same stated age, a shared role)
    ([["Jane Rowe"], ["Jane Rowes"]], None, [{"Jane Rowe"}, {"Jane Rowes"}]),
    (
        [[_p("Jane Rowe", age=40)], [_p("Jane Rowes", age=40)]],
        None,
        [{"Jane Rowe", "Jane Rowes"}],
    ),
    (
        [[_p("Jane Rowe", roles=["climber"])], [_p("Jane Rowes", roles=["mountain climber"])]],
        None,
        [{"Jane Rowe", "Jane Rowes"}],
    ),
    # siblings: one surname, two given names
    (
        [["Bettie Page"], ["Bettie Page"], ["Jack Page"]],
        None,
        [{"Bettie Page"}, {"Jack Page"}],
    ),
    # given names one letter apart and different ages: two people
    (
        [[_p("Jon Smith", age=30)], [_p("Jan Smith", age=52)], [_p("Jon Smith", age=30)]],
        ["2021-03-01", "2021-03-01", "2021-03-02"],
        [{"Jon Smith"}, {"Jan Smith"}],
    ),
    # a surname variant but ages that cannot both hold on one day
    (
        [[_p("Jon Smith", age=30)], [_p("Jon Smith", age=30)], [_p("Jon Smyth", age=44)]],
        ["2021-03-01", "2021-03-01", "2021-03-01"],
        [{"Jon Smith"}, {"Jon Smyth"}],
    ),
    # one article names both: two people
    (
        [["Anna Kovac", "Anna Kovacs"], ["Anna Kovac"], ["Anna Kovac"]],
        None,
        [{"Anna Kovac"}, {"Anna Kovacs"}],
    ),
    # a title shows two genders
    (
        [["Mr Alex Rait"], ["Mr Alex Rait"], ["Mrs Alex Raite"]],
        None,
        [{"Mr Alex Rait"}, {"Mrs Alex Raite"}],
    ),
    # a spelling that may be either of two people joins neither
    (
        [["Jane Rait"], ["Jane Rait"], ["Jane Raits"], ["Jane Raits"], ["Jane Raite"]],
        None,
        [{"Jane Rait"}, {"Jane Raits"}, {"Jane Raite"}],
    ),
    # an initial and a surname variant: two weak signs, so only with a stated age
    ([["Duncan Rait"], ["Duncan Rait"], ["D. Raite"]], None, [{"Duncan Rait"}, {"D. Raite"}]),
    (
        [[_p("Duncan Rait", age=36)], ["Duncan Rait"], [_p("D. Raite", age=36)]],
        None,
        [{"Duncan Rait", "D. Raite"}],
    ),
    # three-letter surnames are left to the typo rule (Lee/Lea)
    ([["Kim Lee"], ["Kim Lee"], ["Kim Lea"]], None, [{"Kim Lee"}, {"Kim Lea"}]),
    # a letter added to a four-letter surname by one outlet; three edits: another name
    ([["Anna Page"], ["Anna Page"], ["Anna Paige"]], None, [{"Anna Page", "Anna Paige"}]),
    ([["Anna Page"], ["Anna Page"], ["Anna Pryce"]], None, [{"Anna Page"}, {"Anna Pryce"}]),
]


@pytest.mark.parametrize(("articles", "dates", "expected"), VARIANT_ROWS)
def test_name_variants_merged_on_evidence(articles, dates, expected):
    entities = merge_entities(_story(*articles, dates=dates))
    groups = [{e.name, *e.aliases} for e in entities]
    assert sorted(groups, key=sorted) == sorted(expected, key=sorted)


# An article giving one person a second full name (a birth name) ties the two
ALIAS_ROWS = [
    (
        [[_p("Bettie Page", aliases=["Betty Mae Page"])], ["Betty Mae Page"], ["Betty Page"]],
        [{"Bettie Page", "Betty Mae Page", "Betty Page"}],
    ),
    # another article keeps them apart: two people
    (
        [
            [_p("Bettie Page", aliases=["Betty Mae Page"])],
            ["Betty Mae Page", "Bettie Page"],
        ],
        [{"Bettie Page", "Betty Mae Page"}, {"Betty Mae Page"}],
    ),
    # ages that cannot both hold
    (
        [[_p("Jane Roe", age=40, aliases=["Jane Smith"])], [_p("Jane Smith", age=71)]],
        [{"Jane Roe", "Jane Smith"}, {"Jane Smith"}],
    ),
]


@pytest.mark.parametrize(("articles", "expected"), ALIAS_ROWS)
def test_second_full_name_ties_people(articles, expected):
    entities = merge_entities(_story(*articles))
    groups = [{e.name, *e.aliases} for e in entities]
    assert sorted(groups, key=sorted) == sorted(expected, key=sorted)


# A surname alone where several people of the story share it
SURNAME_ROWS = [
    # the brother is only ever named beside her: "Page" alone is the one readers know
    (
        [["Bettie Page", "Jack Page"], ["Bettie Page"], ["Page"]],
        [{"Bettie Page", "Page"}, {"Jack Page"}],
    ),
    # each named alone somewhere: no evidence singles one out
    ([["Jane Roe"], ["John Roe"], ["Roe"]], [{"Jane Roe"}, {"John Roe"}, {"Roe"}]),
    # both only ever named together: nobody certain
    ([["Jane Roe", "John Roe"], ["Roe"]], [{"Jane Roe"}, {"John Roe"}, {"Roe"}]),
    # a title agrees with one of them
    (
        [["Mrs Jane Roe"], ["Mr John Roe"], ["Mrs Roe"]],
        [{"Mrs Jane Roe", "Mrs Roe"}, {"Mr John Roe"}],
    ),
    (
        [[_p("Jane Roe", roles=["sister"])], [_p("John Roe", roles=["brother"])], ["Mr Roe"]],
        [{"Jane Roe"}, {"John Roe", "Mr Roe"}],
    ),
    # the surname's own article keeps it apart from one of them: the other
    (
        [["Jane Roe"], ["John Roe"], ["John Roe", "Roe"]],
        [{"Jane Roe", "Roe"}, {"John Roe"}],
    ),
]


@pytest.mark.parametrize(("articles", "expected"), SURNAME_ROWS)
def test_shared_surname_resolved_by_evidence(articles, expected):
    entities = merge_entities(_story(*articles))
    groups = [{e.name, *e.aliases} for e in entities]
    assert sorted(groups, key=sorted) == sorted(expected, key=sorted)


def test_canonical_name_is_full_and_common():
    entities = merge_entities(_story(["John Smith"], ["John Smith"], ["Jonh Smith"], ["Smith"]))
    assert entities[0].name == "John Smith"
    assert entities[0].article_ids == ["a0", "a1", "a2", "a3"]


@pytest.mark.parametrize(
    ("names", "expected"),
    [
        (["World Health Organization", "WHO"], 1),
        (["the Daily Courier", "Daily Courier"], 1),
        (["World Health Organization", "World Bank"], 2),
        (["WHO", "World Bank"], 2),
    ],
)
def test_organisations(names, expected):
    arts = _story(*[[{"name": n, "type": "ORG"}] for n in names])
    assert len(merge_entities(arts)) == expected


def test_organisation_not_merged_with_person_of_same_name():
    arts = _story([{"name": "Jordan", "type": "GPE"}], [{"name": "Jordan", "type": "PERSON"}])
    assert len(merge_entities(arts)) == 2


def test_ages_and_roles_kept_per_article():
    arts = _story(
        [{"name": "Jane Roe", "age": 52, "roles": ["mayor"]}],
        [{"name": "Roe", "age": 53, "roles": ["Mayor", "mother"]}],
        dates=["2020-01-10", "2021-01-12"],
    )
    (jane,) = merge_entities(arts)
    assert jane.ages == {"a0": 52, "a1": 53}
    assert jane.age == 53
    assert not jane.age_conflict
    assert jane.roles == ["mayor", "mother"]


def _d(value: str | None):
    return date.fromisoformat(value) if value else None


@pytest.mark.parametrize(
    ("stated", "expected"),
    [
        ([(52, "2020-01-10"), (53, "2021-01-12")], False),  # a year apart
        ([(52, "2021-01-10"), (53, "2021-01-14")], True),  # same week
        ([(52, "2021-01-10"), (52, "2021-01-14")], False),
        ([(53, "2020-01-10"), (52, "2021-01-12")], True),  # younger later
        ([(52, "2020-01-10"), (52, "2021-01-12")], True),  # a year on, no older
        ([(52, "2020-01-10"), (53, "2020-09-12")], False),  # a birthday may fall in 8 months
        ([(52, "2020-01-10"), (55, "2021-01-12")], True),
        ([(52, None), (53, None)], True),
        ([(52, None), (52, "2020-01-01")], False),
    ],
)
def test_age_conflict(stated, expected):
    assert age_conflict([(age, _d(day)) for age, day in stated]) is expected


def test_age_conflict_through_merge():
    arts = _story(
        [{"name": "Jane Roe", "age": 52}],
        [{"name": "Jane Roe", "age": 57}],
        dates=["2021-01-10", "2021-01-11"],
    )
    assert merge_entities(arts)[0].age_conflict
