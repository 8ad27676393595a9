from __future__ import annotations

from newsloom.models import Story
from newsloom.stories import consolidate

from .builders import analysis

SHARED = "We will rebuild this city together, stronger than before"


def _story():
    a = analysis(
        "a1",
        "Floods forced thousands of residents in Riverton from their homes on Sunday.\n"
        f'"{SHARED}," Mayor Jane Roe, 52, said on Monday.\n'
        "Water rising on Main St #flood",
        source="Courier",
        published="2024-03-04",
        title="Floods force thousands from Riverton homes",
        quotes=[(SHARED, "Jane Roe")],
        entities=[{"name": "Jane Roe", "age": 52, "roles": ["mayor"]}],
        posts=[{"handle": "@city", "text": "Water rising on Main St #flood"}],
        dates=[("Sunday", "2024-03-03")],
    )
    b = analysis(
        "a2",
        "Thousands of Riverton residents fled floods on Sunday, officials said.\n"
        f'"{SHARED[:34]}," Roe said.\n'
        "Water rising on Main St #flood",
        source="Herald",
        published="2024-03-05",
        title="Riverton residents flee floods",
        quotes=[(SHARED[:34], "Roe")],
        entities=[{"name": "Roe", "age": 53}],
        posts=[{"handle": "city", "text": "Water rising on Main St #flood"}],
        dates=[("Sunday", "2024-03-03")],
    )
    return [a, b]


def test_consolidate_fills_every_part():
    story = consolidate(_story())
    assert story.article_ids == ["a1", "a2"]
    assert story.title == "Floods force thousands from Riverton homes"
    (quote,) = story.quotes
    assert quote.speaker == "Jane Roe"
    assert [m.variant for m in quote.mentions] == ["identical", "truncated"]
    (post,) = story.posts
    assert post.article_ids == ["a1", "a2"]
    jane = story.entities[0]
    assert jane.name == "Jane Roe" and jane.ages == {"a1": 52, "a2": 53}
    assert jane.age_conflict  # a day apart
    (event,) = story.timeline
    assert event.date == "2024-03-03" and event.article_ids == ["a1", "a2"]
    assert story.summary and all(s.article_ids for s in story.summary)
    assert {r.outlet for r in story.outlets} == {"Courier", "Herald"}
    # the story survives the JSON round trip the store and export use
    assert Story.model_validate_json(story.model_dump_json()) == story


def test_single_article_story():
    story = consolidate(_story()[:1])
    assert story.quotes[0].mentions[0].variant == "identical"
    assert story.copied_passages == [] and story.facts == []
