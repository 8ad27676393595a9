"""Credited original sources across a story: whom the articles say had the material first.

The framing stage reads each article's credits from its parse (``analyze/sourcing.py``:
"first reported by X", "obtained by X", "X reported", "according to X", ...). Here the same
organisation named differently ("The Daily Courier", "the Daily Courier", "Daily Courier's")
becomes one source, with every citing article and the cues used. Sources cited by more
articles come first; ``is_story_outlet`` marks a source that is itself one of the story's
outlets (the story holds the original).

A credit the article gives no publisher evidence for (``SourceCredit.evidence`` empty: "told
Newsday" with nothing saying Newsday publishes) counts only when it names one of the story's
outlets, by source or URL domain. Names are compared by ``name_key``, so "Daily Courier",
"DailyCourier.com" and "the Courier's" are one source.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Sequence

from ..models import ArticleAnalysis, CreditCitation, CreditedSource
from ..text.urls import source_from_url
from .outlets import outlet_key

_POSSESSIVE = re.compile(r"['’]s?$")


def source_key(name: str) -> str:
    """'The Daily Courier' = 'the Daily Courier' = "Daily Courier's" -> 'daily courier'."""
    key = _POSSESSIVE.sub("", name.strip()).casefold()
    key = re.sub(r"^the\s+", "", key)
    key = re.sub(r"\.(?:com|net|org|co\.uk|co|tv|fm|news|info)$", "", key)
    return re.sub(r"\W+", " ", key).strip()


def compact_key(name: str) -> str:
    """``source_key`` without spaces: 'Daily Courier' = 'DailyCourier.com' -> 'dailycourier'."""
    return source_key(name).replace(" ", "")


def outlet_keys(analyses: Sequence[ArticleAnalysis]) -> dict[str, str]:
    """Compact key -> outlet key, for every way the story's outlets are named: the source
    and the URL's domain name ("harborgazette" for harborgazette.example)."""
    keys: dict[str, str] = {}
    for analysis in analyses:
        article = analysis.article
        key = outlet_key(article)
        for name in (article.source, source_from_url(article.url), key):
            if name and not name.startswith("article:"):
                keys.setdefault(compact_key(name), key)
    return keys


def credited_sources(analyses: Sequence[ArticleAnalysis]) -> list[CreditedSource]:
    citations: dict[str, list[CreditCitation]] = defaultdict(list)
    forms: dict[str, Counter[str]] = defaultdict(Counter)
    story_outlets = outlet_keys(analyses)
    spelled: dict[str, str] = {}  # compact key -> the first spaced key seen for it
    for analysis in analyses:
        if analysis.framing is None:
            continue
        for credit in analysis.framing.credits:
            compact = compact_key(credit.name)
            if not compact or not (credit.evidence or compact in story_outlets):
                continue
            key = spelled.setdefault(compact, source_key(credit.name))
            citations[key].append(
                CreditCitation(
                    article_id=analysis.article.id,
                    start=credit.start,
                    end=credit.end,
                    text=credit.name,
                    cue=credit.cue,
                )
            )
            forms[key][_POSSESSIVE.sub("", credit.name.strip())] += 1
    _merge_short_names(citations, forms)
    sources = []
    for key, cited in citations.items():
        # Shown by its fullest form, then the most written one with a capitalised "The".
        name = max(
            forms[key], key=lambda f: (len(source_key(f).split()), forms[key][f], f[:1].isupper())
        )
        sources.append(
            CreditedSource(
                name=name,
                aliases=sorted(set(forms[key]) - {name}),
                cues=sorted({c.cue for c in cited}),
                article_ids=sorted({c.article_id for c in cited}),
                citations=cited,
                is_story_outlet=compact_key(key) in story_outlets,
            )
        )
    return sorted(
        sources, key=lambda s: (-len(s.article_ids), -len(s.citations), s.name.casefold())
    )


def _merge_short_names(
    citations: dict[str, list[CreditCitation]], forms: dict[str, Counter[str]]
) -> None:
    """'the Courier' after 'The Daily Courier': a name that ends exactly one longer name
    cited in the same story is that source (the way a surname names a person)."""
    for key in sorted(citations, key=len):
        longer = [k for k in citations if k != key and k.endswith(" " + key)]
        if len(longer) == 1:
            citations[longer[0]].extend(citations.pop(key))
            forms[longer[0]].update(forms.pop(key))
