"""Posts stage: embedded social posts in both export shapes, with exact offsets."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from newsloom.analyze.stages.boilerplate import label_boilerplate
from newsloom.analyze.stages.posts import find_posts_stage
from newsloom.config import Settings
from newsloom.models import Article, ArticleAnalysis, article_id
from newsloom.pipeline import StageContext

LEAD = "The court met on Monday, officials said."


def run(nlp, text: str) -> ArticleAnalysis:
    article = Article(id=article_id(text), text=text, origin="<test>")
    ctx = StageContext(article, nlp(text), Settings(), ArticleAnalysis(article=article))
    label_boilerplate(ctx)
    find_posts_stage(ctx)
    return ctx.analysis


def check_offsets(analysis: ArticleAnalysis) -> None:
    text = analysis.article.text
    for post in analysis.posts:
        assert text[post.text_start : post.text_end] == post.text
        assert post.start <= post.text_start <= post.text_end <= post.end
        assert text[post.start : post.end] == text[post.start : post.end].strip()
        assert "@" + post.handle in text[post.start : post.end]


# (text after LEAD, [{field: expected}], exact embed text [start:end] of each post)
POST_ROWS = [
    # inline shape
    (
        "Nobody believed her for years. #JusticeForX pic.twitter.com/AbC12dEf — Sam "
        "(@sam_writes) March 2, 2021",
        [
            dict(
                platform="twitter",
                author="Sam",
                handle="sam_writes",
                date="2021-03-02",
                text="Nobody believed her for years. #JusticeForX",
                hashtags=["JusticeForX"],
                mentions=[],
                media=["pic.twitter.com/AbC12dEf"],
            )
        ],
        [
            "Nobody believed her for years. #JusticeForX pic.twitter.com/AbC12dEf — Sam "
            "(@sam_writes) March 2, 2021"
        ],
    ),
    # split shape, capitals in the name, day-first date
    (
        "Nobody believed her for years. #JusticeForX\n\n— SAM WRITES (@samwrites) 2 March 2021",
        [dict(author="SAM WRITES", handle="samwrites", date="2021-03-02",
              text="Nobody believed her for years. #JusticeForX", media=[])],
        ["Nobody believed her for years. #JusticeForX\n\n— SAM WRITES (@samwrites) 2 March 2021"],
    ),
    # emoji in the name, glued hashtag, mention of someone else, abbreviated month
    (
        "THE END#JusticeForX thanks @bob_k and @sam_writes https://t.co/xYz123\n\n— Sam ✨🎬 "
        "(@sam_writes) Mar 2, 2021",
        [
            dict(
                author="Sam ✨🎬",
                handle="sam_writes",
                date="2021-03-02",
                text="THE END#JusticeForX thanks @bob_k and @sam_writes",
                hashtags=["JusticeForX"],
                mentions=["bob_k"],
                media=["https://t.co/xYz123"],
            )
        ],
        [
            "THE END#JusticeForX thanks @bob_k and @sam_writes https://t.co/xYz123\n\n— Sam ✨🎬 "
            "(@sam_writes) Mar 2, 2021"
        ],
    ),
    # more date shapes; an impossible date is no date
    (
        "So proud. — Kim (@kim) Mar. 2nd, 2021",
        [dict(date="2021-03-02", text="So proud.")],
        ["So proud. — Kim (@kim) Mar. 2nd, 2021"],
    ),
    (
        "So proud. — Kim (@kim) 2021-03-02",
        [dict(date="2021-03-02")],
        ["So proud. — Kim (@kim) 2021-03-02"],
    ),
    (
        "So proud. — Kim (@kim) February 30, 2021",
        [dict(date=None)],
        ["So proud. — Kim (@kim) February 30, 2021"],
    ),
    (
        "So proud. — Kim (@kim) September 12, 2020 at 10:15 AM",
        [dict(date="2020-09-12")],
        ["So proud. — Kim (@kim) September 12, 2020 at 10:15 AM"],
    ),
    # an e-mail address is no mention
    (
        "Write to me at kim@example.com — Kim (@kim) March 2, 2021",
        [dict(mentions=[], text="Write to me at kim@example.com")],
        ["Write to me at kim@example.com — Kim (@kim) March 2, 2021"],
    ),
    # platforms by their link shapes and embed wording
    (
        "View this post on Instagram\n\nGreat night with the team! #tour\n\nA post shared by "
        "Jane Roe 🎤 (@jane.roe) on Mar 2, 2021 at 10:15am PST",
        [
            dict(
                platform="instagram",
                author="Jane Roe 🎤",
                handle="jane.roe",
                date="2021-03-02",
                text="Great night with the team! #tour",
                hashtags=["tour"],
            )
        ],
        [
            "Great night with the team! #tour\n\nA post shared by Jane Roe 🎤 (@jane.roe) on Mar "
            "2, 2021 at 10:15am PST"
        ],
    ),
    (
        "New song out now instagram.com/p/Bx12Ab — Kim (@kim) March 2, 2021",
        [dict(platform="instagram", media=["instagram.com/p/Bx12Ab"], text="New song out now")],
        ["New song out now instagram.com/p/Bx12Ab — Kim (@kim) March 2, 2021"],
    ),
    (
        "Hello from here — Kim (@kim.bsky.social) March 2, 2021",
        [dict(platform="bluesky", handle="kim.bsky.social")],
        ["Hello from here — Kim (@kim.bsky.social) March 2, 2021"],
    ),
    (
        "Hello https://x.com/kim/status/1 — Kim (@kim) March 2, 2021",
        [dict(platform="x", text="Hello")],
        ["Hello https://x.com/kim/status/1 — Kim (@kim) March 2, 2021"],
    ),
    (
        "Hello threads.net/@kim/post/Cx1 — Kim (@kim) March 2, 2021",
        [dict(platform="threads", mentions=[], text="Hello")],
        ["Hello threads.net/@kim/post/Cx1 — Kim (@kim) March 2, 2021"],
    ),
    (
        "Dance! tiktok.com/@kim/video/123 — Kim (@kim) March 2, 2021",
        [dict(platform="tiktok", text="Dance!")],
        ["Dance! tiktok.com/@kim/video/123 — Kim (@kim) March 2, 2021"],
    ),
    # a call to action bounds a post of two paragraphs
    (
        "Here is what she wrote:\n\nI am done.\n\nThank you all.\n\n— Kim (@kim) March 2, 2021",
        [dict(text="I am done.\n\nThank you all.")],
        ["I am done.\n\nThank you all.\n\n— Kim (@kim) March 2, 2021"],
    ),
    # without a boundary, one paragraph by default
    (
        "The judge read the verdict slowly to a silent room.\n\nI am done.\n\n— Kim (@kim) March "
        "2, 2021",
        [dict(text="I am done.")],
        ["I am done.\n\n— Kim (@kim) March 2, 2021"],
    ),
    # a short article: the title and a short body paragraph before the post are not its text
    (
        "Short report.\n\nI am done.\n\n— Kim (@kim) March 2, 2021",
        [dict(text="I am done.")],
        ["I am done.\n\n— Kim (@kim) March 2, 2021"],
    ),
    # an earlier embed stops the walk back; the reporting in between is not the post
    (
        "So sad. — Ann (@ann) March 2, 2021\n\nOthers disagreed.\n\nNot me.\n\n— Bo (@bo) March "
        "3, 2021",
        [dict(handle="ann", text="So sad."), dict(handle="bo", text="Not me.")],
        ["So sad. — Ann (@ann) March 2, 2021", "Not me.\n\n— Bo (@bo) March 3, 2021"],
    ),
    # an introduction ending in a colon bounds a multi-paragraph post
    (
        "She wrote on Instagram:\n\nLine one.\n\nLine two.\n\nA post shared by Kim (@kim) on Mar "
        "2, 2021",
        [dict(platform="instagram", text="Line one.\n\nLine two.")],
        ["Line one.\n\nLine two.\n\nA post shared by Kim (@kim) on Mar 2, 2021"],
    ),
    # two posts in a row: the second one's text does not reach into the first
    (
        "Take a look at the reactions.\n\nSo sad. #RIP\n\n— Ann (@ann) March 2, 2021\n\nCan't "
        "believe it.\n\n— Bo (@bo_b) March 3, 2021",
        [
            dict(handle="ann", text="So sad. #RIP"),
            dict(handle="bo_b", text="Can't believe it.", date="2021-03-03"),
        ],
        [
            "So sad. #RIP\n\n— Ann (@ann) March 2, 2021",
            "Can't believe it.\n\n— Bo (@bo_b) March 3, 2021",
        ],
    ),
    # a signature with no date still names a post
    (
        "Big news today. — Kim (@kim)",
        [dict(date=None, text="Big news today.")],
        ["Big news today. — Kim (@kim)"],
    ),
    # negatives: a dash attribution without a handle, an e-mail in parentheses
    ('"It was wrong." — John Doe, mayor', [], []),
    ("It was wrong. — John Doe (john@example.com) March 2, 2021", [], []),
    ("The vote was 52-48 (@ the last count) on Monday.", [], []),
]  # fmt: skip


@pytest.mark.parametrize(("after_lead", "expected", "embeds"), POST_ROWS)
def test_posts(nlp, after_lead, expected, embeds):
    text = f"{LEAD}\n\n{after_lead}"
    analysis = run(nlp, text)
    assert len(analysis.posts) == len(expected)
    for post, fields, embed in zip(analysis.posts, expected, embeds, strict=True):
        assert {k: getattr(post, k) for k in fields} == fields
        assert text[post.start : post.end] == embed
    check_offsets(analysis)


def test_post_paragraphs_are_relabelled_in_order(nlp):
    text = (
        f"{LEAD}\n\nWatch the clip below:\n\n"
        "Nobody believed her. #JusticeForX pic.twitter.com/AbC12dEf — Sam (@sam) March 2, 2021\n\n"
        "Told you so.\n\n— SAM (@sam) March 3, 2021\n\nThe court rose."
    )
    analysis = run(nlp, text)
    found = [(p.label, text[p.start : p.end]) for p in analysis.paragraphs]
    assert found == [
        ("body", LEAD),
        ("call_to_action", "Watch the clip below:"),
        ("post", "Nobody believed her. #JusticeForX pic.twitter.com/AbC12dEf"),
        ("embed_signature", "— Sam (@sam) March 2, 2021"),
        ("post", "Told you so."),
        ("embed_signature", "— SAM (@sam) March 3, 2021"),
        ("body", "The court rose."),
    ]


def test_text_after_an_inline_signature_keeps_its_label(nlp):
    text = f"{LEAD}\n\nSo proud. — Kim (@kim) March 2, 2021 The judge was not impressed."
    analysis = run(nlp, text)
    found = [(p.label, text[p.start : p.end]) for p in analysis.paragraphs]
    assert found[1:] == [
        ("post", "So proud."),
        ("embed_signature", "— Kim (@kim) March 2, 2021"),
        ("body", "The judge was not impressed."),
    ]


def test_same_post_in_two_outlets_gets_one_id(nlp):
    inline = run(
        nlp, f"{LEAD}\n\nTHE END #JusticeForX pic.twitter.com/AbC — Sam (@Sam_Writes) March 2, 2021"
    )
    split = run(nlp, f"{LEAD}\n\n“THE END#JusticeForX”\n\n— SAM WRITES (@sam_writes) Mar 2, 2021")
    other = run(nlp, f"{LEAD}\n\nTHE START #JusticeForX — Sam (@sam_writes) March 2, 2021")
    assert inline.posts[0].id == split.posts[0].id != other.posts[0].id


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.text(alphabet=st.sampled_from(list("ab K:.()/@#—-\n\n pic.twitter.com1 ")), max_size=200))
def test_never_crashes_and_offsets_hold(nlp, text):
    analysis = run(nlp, text)
    check_offsets(analysis)
    previous_end = 0
    for p in analysis.paragraphs:
        assert text[p.start : p.end] and p.start >= previous_end
        previous_end = p.end
