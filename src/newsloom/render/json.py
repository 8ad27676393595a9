"""The JSON export (DESIGN.md's contract), written atomically."""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Iterable, Sequence
from pathlib import Path

from ..models import Article, Corpus, ExportArticle, Skipped, Story


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
    articles: Iterable[Article], stories: Sequence[Story], skipped: Sequence[Skipped] = ()
) -> Corpus:
    return Corpus(
        articles=[export_article(a) for a in articles], stories=list(stories), skipped=list(skipped)
    )


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
    """The export document as written to a file or standard output."""
    return json.dumps(corpus.model_dump(mode="json"), ensure_ascii=False, indent=1) + "\n"


def write_corpus(corpus: Corpus, path: Path) -> None:
    write_atomic(path, corpus_text(corpus))


def corpus_schema() -> dict:
    return Corpus.model_json_schema()
