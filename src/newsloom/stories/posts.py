"""Embedded posts across a story: the same post in several articles becomes one StoryPost.

Two embeds are one post when the posts stage gave them the same ``Post.id``, or when they
come from the same handle with near-identical text (outlets re-type, truncate or lose an
emoji or a link). Posts are compared only within one handle, so the cost stays small.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence

from rapidfuzz import fuzz

from ..models import ArticleAnalysis, Post, StoryPost
from ..text.words import words

# Same handle and normalised-text similarity (rapidfuzz ratio, 0-100) at or above this: one
# post. A post re-typed with a lost link or emoji scores > 90; two posts of one account on one
# event score < 70 on the rows in tests/stories/test_posts.py.
SAME_POST = 88.0


def handle_key(handle: str) -> str:
    return handle.strip().lstrip("@").casefold()


def post_text_key(text: str) -> str:
    """Words only: links' punctuation, emoji and case do not count."""
    return " ".join(words(text))


def same_post(a: Post, b: Post) -> bool:
    if a.id and a.id == b.id:
        return True
    if handle_key(a.handle) != handle_key(b.handle):
        return False
    ka, kb = post_text_key(a.text), post_text_key(b.text)
    if not ka or not kb:
        return ka == kb
    return fuzz.ratio(ka, kb) >= SAME_POST


def merge_posts(analyses: Sequence[ArticleAnalysis]) -> list[StoryPost]:
    """One StoryPost per distinct post, the most embedded first."""
    groups: list[list[tuple[str, Post]]] = []
    by_handle: dict[str, list[int]] = defaultdict(list)
    by_id: dict[str, int] = {}
    for analysis in analyses:
        for post in analysis.posts:
            item = (analysis.article.id, post)
            index = by_id.get(post.id) if post.id else None
            if index is None:
                for g in by_handle[handle_key(post.handle)]:
                    if any(same_post(post, other) for _, other in groups[g]):
                        index = g
                        break
            if index is None:
                index = len(groups)
                groups.append([])
                by_handle[handle_key(post.handle)].append(index)
            groups[index].append(item)
            if post.id:
                by_id.setdefault(post.id, index)
    merged = [_story_post(g) for g in groups]
    order = {id(p): i for i, p in enumerate(merged)}
    return sorted(merged, key=lambda p: (-len(p.article_ids), order[id(p)]))


def _most_common(values: list[str | None]) -> str | None:
    counts = Counter(v for v in values if v)
    return max(counts, key=lambda v: (counts[v], len(v))) if counts else None


def _story_post(items: list[tuple[str, Post]]) -> StoryPost:
    posts = [p for _, p in items]
    texts = Counter(p.text.strip() for p in posts)
    # The wording most embeds show; ties go to the fullest (others may be cut short).
    text = max(texts, key=lambda t: (texts[t], len(t)))
    hashtags: list[str] = []
    for post in posts:
        hashtags.extend(h for h in post.hashtags if h not in hashtags)
    article_ids: list[str] = []
    for article_id, _ in items:
        if article_id not in article_ids:
            article_ids.append(article_id)
    return StoryPost(
        platform=_most_common([p.platform for p in posts]) or posts[0].platform,
        handle=_most_common([p.handle for p in posts]) or posts[0].handle,
        author=_most_common([p.author for p in posts]),
        date=_most_common([p.date for p in posts]),
        text=text,
        hashtags=hashtags,
        article_ids=article_ids,
    )
