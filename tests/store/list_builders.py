"""A small invented archive for the list tests: articles from a few outlets on a few days, each
with quotes of a few speakers, people named and a post, grouped into stories of mixed sizes —
many ties on every sort value, which is what keyset pages must get right. No spaCy."""

from __future__ import annotations

from newsloom.models import (
    Article,
    ArticleAnalysis,
    Entity,
    EntityMention,
    Post,
    QuoteMention,
    Story,
    article_id,
)

OUTLETS = ["Harbour Herald", "Valley Ledger", None, "Metro Wire"]
SPEAKERS = ["Ana Ruelas", "Bram Oduya", None, "Odile Farrant", "Ines Marlowe"]
DAYS = ["2023-02-14", "2023-02-15", "2024-06-01", None, "2022-11-30"]
PLATFORMS = ["twitter", "mastodon"]


def invented_archive(n_articles: int = 60) -> tuple[list[ArticleAnalysis], list[Story]]:
    """``n_articles`` analyses and the stories grouping them (sizes 1, 2, 3, 4, 5, 1, 2 ...)."""
    analyses = []
    for i in range(n_articles):
        speaker = SPEAKERS[i % len(SPEAKERS)]
        other = SPEAKERS[(i + 2) % len(SPEAKERS)]
        quote = f"the harbour channel number {i % 7} will be dredged by spring"
        second = f"we will pay for it ourselves in year {i % 3}"
        text = f'Article {i}. "{quote}" said {speaker or "someone"}. "{second}" said {other}.'
        q1 = text.index(quote)
        q2 = text.index(second)
        person = speaker or "Nadia Quist"
        at = text.find(person)
        entities = (
            [
                Entity(
                    id="e0",
                    name=person,
                    type="PERSON",
                    age=40 + i % 2 if person == "Ana Ruelas" else None,
                    mentions=[EntityMention(start=at, end=at + len(person), text=person)],
                )
            ]
            if at >= 0
            else []
        )
        post_text = f"post number {i % 9}"
        text += f" {post_text}"
        ps = text.index(post_text)
        analyses.append(
            ArticleAnalysis(
                article=Article(
                    id=article_id(text),
                    text=text,
                    origin=f"gen:{i}",
                    title=f"Harbour story {i % 11}",
                    source=OUTLETS[i % len(OUTLETS)],
                    published=DAYS[i % len(DAYS)],
                    format="jsonl" if i % 2 else "text",
                ),
                quotes=[
                    QuoteMention(
                        start=q1,
                        end=q1 + len(quote),
                        text=quote,
                        kind="direct",
                        speaker=speaker,
                    ),
                    QuoteMention(
                        start=q2,
                        end=q2 + len(second),
                        text=second,
                        kind="indirect" if i % 2 else "direct",
                        speaker=other,
                    ),
                ],
                entities=entities,
                posts=[
                    Post(
                        id=f"p{i % 9}",
                        platform=PLATFORMS[i % 9 % 2],
                        handle=f"user{i % 9}",
                        date=DAYS[i % 9 % len(DAYS)],
                        text=post_text,
                        start=ps,
                        end=ps + len(post_text),
                        text_start=ps,
                        text_end=ps + len(post_text),
                    )
                ],
            )
        )
    return analyses, _stories(analyses)


def _stories(analyses: list[ArticleAnalysis]) -> list[Story]:
    from newsloom.stories import consolidate

    stories, at, size = [], 0, 1
    while at < len(analyses):
        group = analyses[at : at + size]
        stories.append(consolidate(group))
        at += size
        size = size % 5 + 1
    return stories


def fill(store, n_articles: int = 60) -> None:
    analyses, stories = invented_archive(n_articles)
    store.add_analyses(analyses)
    store.replace_stories(stories)
