from __future__ import annotations

import pytest

from newsloom.stories.posts import merge_posts

from .builders import analysis

TEXT = "Flood waters are rising fast on Main Street, stay safe everyone #flood"


def _article(aid: str, handle: str, text: str, post_id: str | None = None):
    post = {"handle": handle, "text": text}
    if post_id:
        post["id"] = post_id
    return analysis(aid, f"Intro line.\n{text}\nOutro line.", source=aid, posts=[post])


# (first embed, second embed, how many posts)
ROWS = [
    (("@cityhall", TEXT), ("@cityhall", TEXT), 1),
    (("@cityhall", TEXT), ("cityhall", TEXT.replace(" everyone", " everyone!")), 1),
    (("@cityhall", TEXT), ("@CityHall", TEXT + " https://t.co/x1"), 1),
    (("@cityhall", TEXT), ("@cityhall", "Roads to the north are closed until further notice"), 2),
    (("@cityhall", TEXT), ("@someoneelse", TEXT), 2),
]


@pytest.mark.parametrize(("a", "b", "expected"), ROWS)
def test_same_post_merged(a, b, expected):
    posts = merge_posts([_article("a1", *a), _article("a2", *b)])
    assert len(posts) == expected
    if expected == 1:
        assert posts[0].article_ids == ["a1", "a2"]


def test_same_post_id_merged_even_if_text_differs():
    posts = merge_posts(
        [
            _article("a1", "@cityhall", TEXT, post_id="123"),
            _article("a2", "@cityhall", "Flood waters rising", post_id="123"),
        ]
    )
    assert len(posts) == 1
    assert posts[0].text == TEXT  # the fullest wording on a tie


def test_most_embedded_first():
    other = "Roads to the north are closed until further notice"
    posts = merge_posts(
        [
            _article("a1", "@cityhall", other),
            _article("a2", "@cityhall", TEXT),
            _article("a3", "@cityhall", TEXT),
        ]
    )
    assert [p.article_ids for p in posts] == [["a2", "a3"], ["a1"]]
