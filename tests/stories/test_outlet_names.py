"""Outlet reports name every outlet: source, else URL domain, else file — never an article id."""

from __future__ import annotations

from newsloom.models import ArticleAnalysis
from newsloom.stories.outlets import outlet_reports

from .builders import analysis


def _read_from(a: ArticleAnalysis, origin: str, url: str | None = None) -> ArticleAnalysis:
    article = a.article.model_copy(update={"origin": origin, "path": origin, "url": url})
    return a.model_copy(update={"article": article})


def test_outlets_without_source_are_named_by_url_domain_or_file() -> None:
    text = "The council met on Tuesday to discuss the flood barrier and its cost."
    by_file = _read_from(analysis("160acdc49d1bc4c6", text), "corpus/044_courier.txt")
    by_url = _read_from(
        analysis("9c4ea3030a1d62d8", text), "feed.jsonl:2", "https://www.metro-wire.example/a"
    )
    also_url = _read_from(
        analysis("5e3a9b04f1c8d267", text), "feed.jsonl:3", "https://metro-wire.example/b"
    )
    named = analysis("c81d5e0b7a2f3394", text, source="Herald")
    reports = outlet_reports([by_file, by_url, also_url, named])
    assert [r.outlet for r in reports] == [
        "Herald",
        "metro-wire",
        "unknown outlet (044_courier.txt)",
    ]
    by_name = {r.outlet: r for r in reports}
    assert by_name["metro-wire"].article_ids == ["9c4ea3030a1d62d8", "5e3a9b04f1c8d267"]
