"""The JSON export (DESIGN.md's contract), written atomically."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterable, Sequence
from pathlib import Path

from ..models import Article, Corpus, ExportArticle, Skipped, Story, TrackedMention, TrackedQuote
from .json_text import dumps_indented


def export_article(article: Article) -> ExportArticle:
    return ExportArticle(
        id=article.id,
        path=article.path,
        origin=article.origin,
        source=article.source,
        title=article.title,
        published=article.published,
        url=article.url,
        format=article.format,
    )


def build_corpus(
    articles: Iterable[Article],
    stories: Sequence[Story],
    skipped: Sequence[Skipped] = (),
    tracked_quotes: Sequence[TrackedQuote] = (),
) -> Corpus:
    """The export document. ``tracked_quotes`` are cut to the exported articles
    (``exported_tracked``), and a story quote whose tracked quote is then gone loses its
    ``tracked_quote_id``: every reference in the document names something in it."""
    exported = [export_article(a) for a in articles]
    tracked = exported_tracked(tracked_quotes, {a.id for a in exported}, {s.id for s in stories})
    kept = {q.id for q in tracked}
    return Corpus(
        articles=exported,
        stories=[_tracked_ids_kept(s, kept) for s in stories],
        tracked_quotes=tracked,
        skipped=list(skipped),
    )


def exported_tracked(
    quotes: Iterable[TrackedQuote], article_ids: set[str], story_ids: set[str]
) -> list[TrackedQuote]:
    """The tracked quotes as an export of only ``article_ids`` (and ``story_ids``) shows them.

    A tracked quote keeps the mentions in those articles, so every offset in the document
    points into an exported article; its first and last dates, outlets, stories and links are
    those of what is left (the first seen of the export, not of the whole store). Its wording
    and speaker stay: they are the utterance's. One left with no mention is dropped. Most
    mentioned first, as the store lists them.
    """
    out = []
    for quote in quotes:
        mentions = [m for m in quote.mentions if m.article_id in article_ids]
        if not mentions:
            continue
        if len(mentions) < len(quote.mentions):
            quote = _restricted(quote, mentions, story_ids)
        out.append(quote)
    return sorted(out, key=lambda q: (-len(q.mentions), q.id))


def _restricted(
    quote: TrackedQuote, mentions: list[TrackedMention], story_ids: set[str]
) -> TrackedQuote:
    mentions = sorted(mentions, key=lambda m: (m.published or "9999", m.article_id, m.start))
    dates = sorted(m.published for m in mentions if m.published)
    stories = {m.story_id for m in mentions} | (set(quote.story_ids) & story_ids)

    def inside(key: str) -> bool:  # a link's end, "<story id>:<story quote id>"
        return key.split(":", 1)[0] in stories

    return quote.model_copy(
        update={
            "mentions": mentions,
            "first_article_id": mentions[0].article_id,
            "first_outlet": mentions[0].outlet,
            "first_date": mentions[0].published,
            "last_date": dates[-1] if dates else None,
            "outlets": sorted({m.outlet for m in mentions}),
            "story_ids": sorted(stories),
            "links": [x for x in quote.links if inside(x.a) and inside(x.b)],
        }
    )


def _tracked_ids_kept(story: Story, kept: set[str]) -> Story:
    """``story`` with no quote naming a tracked quote outside ``kept``."""
    if all(q.tracked_quote_id is None or q.tracked_quote_id in kept for q in story.quotes):
        return story
    quotes = [
        q if q.tracked_quote_id in kept else q.model_copy(update={"tracked_quote_id": None})
        for q in story.quotes
    ]
    return story.model_copy(update={"quotes": quotes})


def _create_temporary(folder: Path, name: str) -> tuple[int, Path]:
    """A new empty file beside ``name`` in ``folder``, opened for writing.

    Created with mode 0666 so the kernel applies the umask, as for any file a tool writes
    (``tempfile.mkstemp`` would make it 0600 and the rename would keep that).
    """
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    while True:
        tmp = folder / f".{name}.{secrets.token_hex(6)}.tmp"
        try:
            return os.open(tmp, flags, 0o666), tmp
        except FileExistsError:  # another writer's temporary file: draw another name
            continue


def write_atomic(path: Path, text: str) -> None:
    """Write via a temporary file in the same folder, then rename: readers never see half a file.

    The file gets the mode any new file gets (0666 minus the umask).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = _create_temporary(path.parent, path.name)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def corpus_text(corpus: Corpus) -> str:
    """The export document as written to a file or standard output: the text of
    ``json.dumps(..., ensure_ascii=False, indent=1)``, made faster (``json_text``)."""
    return dumps_indented(corpus.model_dump(mode="json")) + "\n"


def write_corpus(corpus: Corpus, path: Path) -> None:
    write_atomic(path, corpus_text(corpus))


def corpus_schema() -> dict:
    return Corpus.model_json_schema()
