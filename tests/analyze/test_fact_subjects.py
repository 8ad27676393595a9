"""Figures attached to the right subject: the parse decides whose age or count it is."""

from __future__ import annotations

import pytest

from newsloom.analyze import analyze_text

# (text, figure as written, subject, how it is attached, certain)
ROWS = [
    # apposition: two people with different ages in one sentence keep their own
    ("Jane Roe, 33, and John Doe, 41, were arrested on Monday.", "33", "Jane Roe", None, True),
    ("Jane Roe, 33, and John Doe, 41, were arrested on Monday.", "41", "John Doe", None, True),
    ("Police arrested Mark Tilden, aged 52, on Friday.", "aged 52", "Mark Tilden", None, True),
    # pre-modifier resolved through a name in apposition or a role stated before
    (
        "Police said the 33-year-old actress Jane Roe was released.",
        "33-year-old",
        "Jane Roe",
        None,
        True,
    ),
    (
        "Actress Jane Roe entered a clinic on Monday. The 33-year-old actress had left the show.",
        "33-year-old",
        "Jane Roe",
        None,
        True,
    ),
    # predicate
    ("Officials said Jane Roe is 33 years old.", "33 years old", "Jane Roe", "predicate", True),
    # possessed: the wife's age, not Roe's
    (
        "John Roe's 33-year-old wife was not hurt in the crash.",
        "33-year-old",
        "wife of John Roe",
        "possessed",
        True,
    ),
    # an unresolved description is kept, uncertain
    ("A 33-year-old man was arrested on Monday.", "33-year-old", "man", "description", False),
]


@pytest.mark.parametrize(("text", "figure", "subject", "how", "certain"), ROWS)
def test_age_attached_by_syntax(text, figure, subject, how, certain):
    claims = [c for c in analyze_text(text).claims if c.text == figure]
    assert len(claims) == 1, [c.text for c in analyze_text(text).claims]
    claim = claims[0]
    assert claim.kind == "age"
    assert claim.subject == subject
    assert claim.subject_certain is certain
    if how is not None:
        assert claim.attachment == how


def test_possessor_description_is_not_the_named_person():
    """'the 33-year-old actress's agent, John Doe': the age is the actress's, not Doe's."""
    text = "The 33-year-old actress's agent, John Doe, declined to comment on Monday."
    (claim,) = [c for c in analyze_text(text).claims if c.kind == "age"]
    assert claim.subject != "John Doe"
    assert not claim.subject_certain


# (text, figure, owner, certain): pronouns resolve to their one antecedent person; an unnamed
# person described with an age is kept as that description for the story stage to match.
OWNER_ROWS = [
    ("Richard Carter scored 14 points in the win.", "14", "Richard Carter", True),
    ("Jane Roe died after slipping and falling 60 metres.", "60 metres", "Jane Roe", True),
    ("The storm killed 12 people on Monday.", "12", None, True),
    # a pronoun bound to the subject of the clause its own clause hangs from
    ("A 36-year-old man died on Friday after he slipped and fell 200 metres.", "200 metres",
     "36-year-old man", True),
    # a pronoun whose one agreeing person is named a sentence before
    ("Jane Roe was taken to hospital on Monday. She had been hospitalized for four weeks.",
     "four weeks", "Jane Roe", True),
    # negatives: two people of that gender in reach; a title showing the other gender; the
    # person reporting the clause; a description without an age names nobody
    ("Jane Roe met Ann Doe on Monday. She had been hospitalized for four weeks.",
     "four weeks", None, False),
    ("Mr. John Roe was arrested on Monday. She had been hospitalized for four weeks.",
     "four weeks", None, False),
    ("Inspector Dave Gaskin said he fell 200 metres.", "200 metres", None, False),
    ("A man died on Friday after he slipped and fell 200 metres.", "200 metres", None, False),
]  # fmt: skip


@pytest.mark.parametrize(("text", "figure", "owner", "certain"), OWNER_ROWS)
def test_owner_of_a_figure(text, figure, owner, certain):
    (claim,) = [c for c in analyze_text(text).claims if c.text == figure]
    assert claim.owner == owner
    assert claim.subject_certain is certain
