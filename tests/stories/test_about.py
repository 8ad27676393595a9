"""Whom a quote's sentence names besides its speaker, and how tracking reads it."""

from __future__ import annotations

import pytest

from newsloom.stories import consolidate
from newsloom.stories.about import about
from newsloom.stories.tracking import ArticleInfo, track_stories

from .builders import analysis

PEOPLE = [
    {"name": "Dana Holt", "at": ["Holt"]},
    {"name": "Mark Ruiz", "at": ["Ruiz"]},
    {"name": "Ann Lee", "at": ["Lee"]},
]
# (article text, the quotation, the people its sentence names besides Holt, the speaker)
ABOUT = [
    (
        'Holt later called Ruiz "weak on the budget." Lee left.',
        "weak on the budget.",
        ["Mark Ruiz"],
    ),
    (
        'Holt called Ruiz and Lee "weak on the budget."',
        "weak on the budget.",
        ["Ann Lee", "Mark Ruiz"],
    ),
    ('Holt said it was "weak on the budget." Ruiz left.', "weak on the budget.", []),  # next one
    ('Holt said "Ruiz is weak on the budget."', "Ruiz is weak on the budget.", []),  # inside
    ('"Lee is weak," Holt told Ruiz.', "Lee is weak,", ["Mark Ruiz"]),  # by the cue
]


@pytest.mark.parametrize(("text", "quote", "named"), ABOUT)
def test_the_people_a_quotes_sentence_names_besides_its_speaker(text, quote, named):
    art = analysis(
        "a1",
        text,
        quotes=[(quote, "Dana Holt")],
        entities=PEOPLE,
        sentences=True,
    )
    assert about(art, art.quotes[0]) == named


def test_an_article_with_no_sentences_names_no_one():
    text = 'Holt later called Ruiz "weak on the budget."'
    art = analysis("a1", text, quotes=[("weak on the budget.", "Dana Holt")], entities=PEOPLE)
    assert about(art, art.quotes[0]) == []


LONGER = "Lee is very, very weak on the budget, and the unions know it too"
# (the sentence quoting the fragment, the longer wording, one tracked quote): a short fragment
# inside a longer quote of the same speaker is a truncation unless the longer wording names a
# person beside it whom the fragment's sentence does not name though it names someone else.
SAID_OF = [
    ('Holt called Ruiz "very weak on the budget."', LONGER, False),
    ('Holt called Lee "very weak on the budget."', LONGER, True),
    ('Holt said it was "very weak on the budget."', LONGER, True),  # names no one else
    ('Holt called Ruiz "very weak on the budget."', "Very weak on the budget, Lee is", False),
    (
        'Holt called Ruiz "very weak on the budget."',
        "Frankly the plan is very weak on the budget, and the unions know it, Lee said",
        True,  # Lee is not beside it
    ),
]


@pytest.mark.parametrize(("sentence", "longer", "same"), SAID_OF)
def test_a_fragment_said_of_someone_else_stays_apart(sentence, longer, same):
    first = analysis(
        "a0",
        f'"{longer}," Holt said. Ruiz and Lee left.',
        published="2026-01-05",
        quotes=[(longer, "Dana Holt")],
        entities=PEOPLE,
        sentences=True,
    )
    later = analysis(
        "a1",
        sentence + " Ruiz and Lee left.",
        published="2026-03-01",
        quotes=[("very weak on the budget.", "Dana Holt")],
        entities=PEOPLE,
        sentences=True,
    )
    infos = {a.article.id: ArticleInfo("x", a.article.published) for a in (first, later)}
    quotes = track_stories([consolidate([first]), consolidate([later])], infos).quotes
    assert any(len(q.story_ids) == 2 for q in quotes) == same
