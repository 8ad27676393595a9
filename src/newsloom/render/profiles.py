"""The speaker, outlet and person pages (``speaker-KEY.html``, ``outlet-KEY.html``,
``person-KEY.html``), and the links to them from every other page.

A page's key is its name's key (``text/keys.py``), so a story page links a speaker, an outlet or
a person by name alone. ``ProfileLinks`` makes those links: every name in the served app, only
the names whose pages were written in the static report (``known``). The pages read the
store's profile records (``store/profiles.py``) as they are.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any

from ..models import Story
from ..text.keys import name_key, outlet_name_key
from .charts import bar_chart

SPEAKER, OUTLET, PERSON = "speaker", "outlet", "person"
KINDS = (SPEAKER, OUTLET, PERSON)


def profile_key(kind: str, name: str | None) -> str:
    """The key of a speaker's, an outlet's or a person's page ('' for no name)."""
    if not name:
        return ""
    return outlet_name_key(name) if kind == OUTLET else name_key(name)


def profile_href(kind: str, key: str) -> str:
    return f"{kind}-{key}.html"


@dataclass(frozen=True)
class ProfileLinks:
    """Links to profile pages by name: all names (``known`` None) or the written pages'."""

    known: AbstractSet[tuple[str, str]] | None = None

    def __call__(self, kind: str, name: str | None) -> str | None:
        key = profile_key(kind, name)
        if not key or (self.known is not None and (kind, key) not in self.known):
            return None
        return profile_href(kind, key)


def _story(story_id: str, title: str | None, linked: AbstractSet[str] | None) -> dict[str, Any]:
    shown = title or "(untitled story)"
    href = f"story-{story_id}.html" if linked is None or story_id in linked else None
    return {"id": story_id, "title": shown, "href": href}


def _article(
    article_id: str, story_id: str | None, linked: AbstractSet[str] | None, at: str = ""
) -> str | None:
    """The article page (at a span's anchor), when its story has pages."""
    if linked is not None and story_id not in linked:
        return None
    return f"article-{article_id}.html{at}"


def _has_page(quote: Any, linked: AbstractSet[str] | None) -> bool:
    """Whether a tracked quote has a page: always when served; in a report, when other stories
    quote it too and one of them is written (``html.write_report``)."""
    ids = {s.id for s in quote.stories}
    return linked is None or (len(ids) > 1 and bool(ids & linked))


def speaker_context(profile: Any, linked: AbstractSet[str] | None = None) -> dict[str, Any]:
    return {
        "p": profile,
        "quotes": [
            {
                "q": q,
                "href": f"quote-{q.id}.html" if _has_page(q, linked) else None,
                "stories": [_story(s.id, s.title, linked) for s in q.stories],
            }
            for q in profile.quotes
        ],
    }


def outlet_context(profile: Any, linked: AbstractSet[str] | None = None) -> dict[str, Any]:
    def span(item: Mapping[str, Any], story_id: str) -> str | None:
        at = f"#q-{item['start']}-{item['end']}" if "start" in item else ""
        return _article(item["article_id"], story_id, linked, at)

    stories = []
    for s in profile.stories:
        d = s.detail
        stories.append(
            {
                "s": s,
                "story": _story(s.id, s.title, linked),
                "share": round(100 * s.n_articles / s.story_articles) if s.story_articles else 0,
                "quotes": [dict(x, href=span(x, s.id)) for x in d.get("quotes", [])],
                "facts": [dict(x, href=span(x, s.id)) for x in d.get("facts", [])],
                "posts": d.get("posts", []),
                "copied": [dict(x, href=span(x, s.id)) for x in d.get("copied", [])],
                "credited": d.get("credited", []),
            }
        )
    hedging = bar_chart(
        ((h.month, h.hedge_score) for h in profile.hedging),
        "hedges per 100 words",
        by_day=False,
    )
    return {
        "p": profile,
        "stories": stories,
        "articles": [
            {"a": a, "href": _article(a.id, a.story_id, linked)} for a in profile.articles
        ],
        "hedging_chart": hedging,
    }


def person_context(profile: Any, linked: AbstractSet[str] | None = None) -> dict[str, Any]:
    conflicts = []
    for c in profile.conflicts:
        statements = []
        for st in c.statements:
            at = f"#q-{st['start']}-{st['end']}" if st.get("start") is not None else ""
            href = _article(st["article_id"], c.story.id, linked, at)
            statements.append({"outlet": None, "published": None, **st, "href": href})
        conflicts.append(
            {"c": c, "story": _story(c.story.id, c.story.title, linked), "statements": statements}
        )
    return {"p": profile, "conflicts": conflicts}


CONTEXTS: dict[str, Callable[[Any, AbstractSet[str] | None], dict[str, Any]]] = {
    SPEAKER: speaker_context,
    OUTLET: outlet_context,
    PERSON: person_context,
}


def profile_names(stories: Iterable[Story]) -> set[tuple[str, str]]:
    """The (kind, key) of every speaker, outlet and person the stories name."""
    found = set()
    for story in stories:
        found |= {(SPEAKER, profile_key(SPEAKER, q.speaker)) for q in story.quotes}
        found |= {(OUTLET, profile_key(OUTLET, r.outlet)) for r in story.outlets}
        found |= {
            (PERSON, profile_key(PERSON, e.name)) for e in story.entities if e.type == "PERSON"
        }
    return {(kind, key) for kind, key in found if key}


def read_profiles(store: Any, wanted: Iterable[tuple[str, str]]) -> dict[tuple[str, str], Any]:
    """The profile of each (kind, key) the store has (``store.speaker_profile`` ...)."""
    found = {}
    for kind, key in sorted(wanted):
        profile = getattr(store, f"{kind}_profile")(key)
        if profile is not None:
            found[(kind, key)] = profile
    return found
