"""Long articles: analysed in bounded memory, offsets exact across chunk boundaries, and the
same findings as when each part is analysed alone; over the length cap, a clear skip.

The long article is the example corpus's articles one after another, repeated until it is
a few hundred thousand characters (about ten parse chunks); it is analysed once, in a fresh
process, so that process's peak memory is the analysis's alone.
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from pydantic import BaseModel

from newsloom.models import ArticleAnalysis, Post, SourceCredit
from newsloom.nlp import MAX_CHUNK_CHARS
from tests.conftest import EXAMPLES

# A few hundred thousand characters: ten chunks, yet a run of well under a minute.
LONG_CHARS = 300_000
# Peak memory of the fresh process analysing LONG_CHARS. Parsed whole, the text took about
# 1.2 GB (spaCy's parser holds ~3.4 KB per character of a Doc); in chunks about 0.5 GB.
MAX_PEAK_MB = 800
# Bound the subprocess: far above the analysis (~20 s on a loaded 2-core machine).
RUN_TIMEOUT_SECONDS = 600

# The peak is the child's own high-water mark (VmHWM, Linux). ``ru_maxrss`` is not: it
# survives exec, so a child forked from a big test process reports the parent's size.
ANALYSE = """
import sys
from newsloom.analyze import analyze_text
text = open(sys.argv[1], encoding="utf-8", newline="").read()
result = analyze_text(text, origin="long.txt")
open(sys.argv[2], "w", encoding="utf-8").write(result.model_dump_json())
status = open("/proc/self/status", encoding="ascii").read()
print(int(status.split("VmHWM:")[1].split()[0]) // 1024)  # kB -> MiB
"""


@dataclass
class LongRun:
    text: str
    parts: list[tuple[int, str]]  # (offset in text, example article text) of the first round
    analysis: ArticleAnalysis
    peak_mb: int


def example_texts() -> list[str]:
    return [p.read_text(encoding="utf-8").strip() for p in sorted(EXAMPLES.glob("corpus/*.txt"))]


def long_text() -> tuple[str, list[tuple[int, str]]]:
    texts = example_texts()
    pieces: list[str] = []
    first_round: list[tuple[int, str]] = []
    size = 0
    while size < LONG_CHARS:
        for text in texts:
            if len(pieces) < len(texts):
                first_round.append((size, text))
            pieces.append(text)
            size += len(text) + 2
    return "\n\n".join(pieces) + "\n", first_round


@pytest.fixture(scope="module")
def long_run(tmp_path_factory: pytest.TempPathFactory) -> LongRun:
    folder = tmp_path_factory.mktemp("long")
    text, parts = long_text()
    source, out = folder / "long.txt", folder / "long.json"
    source.write_text(text, encoding="utf-8", newline="")
    done = subprocess.run(
        [sys.executable, "-c", ANALYSE, str(source), str(out)],
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT_SECONDS,
        check=True,
    )
    analysis = ArticleAnalysis.model_validate_json(out.read_text(encoding="utf-8"))
    return LongRun(text, parts, analysis, int(done.stdout.split()[-1]))


def spans(record: BaseModel) -> list[tuple[str, int | None, int | None, str | None]]:
    """(what, start, end, the text it claims to point at or None) for every offset pair."""
    found = []
    fields = type(record).model_fields
    for prefix in ("", "text_", "speaker_", "cue_", "sentence_", "paragraph_"):
        if prefix + "start" not in fields:
            continue
        start = getattr(record, prefix + "start")
        end = getattr(record, prefix + "end", None)
        claimed = {"": "text", "text_": "text", "speaker_": "speaker_text"}.get(prefix)
        if isinstance(record, Post) and prefix == "":
            claimed = None  # a post's start/end cover the embed; text_start/text_end its text
        if isinstance(record, SourceCredit) and prefix == "":
            claimed = "name"
        value = getattr(record, claimed) if claimed in fields else None
        found.append((f"{type(record).__name__}.{prefix}start", start, end, value))
    return found


def walk(value: object) -> list[BaseModel]:
    """Every record inside ``value`` (the analysis, its lists and nested records)."""
    if isinstance(value, BaseModel):
        out = [value]
        for name in type(value).model_fields:
            out += walk(getattr(value, name))
        return out
    if isinstance(value, list | tuple):
        return [r for item in value for r in walk(item)]
    return []


@pytest.mark.slow
def test_long_article_is_parsed_in_bounded_memory(long_run: LongRun) -> None:
    assert len(long_run.text) > 8 * MAX_CHUNK_CHARS  # several chunks
    assert long_run.peak_mb < MAX_PEAK_MB, f"peak {long_run.peak_mb} MB"


@pytest.mark.slow
def test_every_offset_points_at_its_text(long_run: LongRun) -> None:
    text = long_run.analysis.article.text
    assert text == long_run.text
    checked = 0
    for record in walk(long_run.analysis):
        if record is long_run.analysis.article:
            continue
        for what, start, end, claimed in spans(record):
            if start is None or end is None:
                continue
            assert 0 <= start <= end <= len(text), (what, start, end)
            if claimed is not None:
                assert text[start:end] == claimed, (what, start, end, claimed)
                checked += 1
    assert checked > 1000
    # Findings all along the text, not only in the first chunk.
    assert max(q.start for q in long_run.analysis.quotes) > len(text) - MAX_CHUNK_CHARS
    assert max(s for s, _ in long_run.analysis.sentences) > len(text) - MAX_CHUNK_CHARS


@pytest.mark.slow
def test_each_part_finds_what_it_finds_alone(long_run: LongRun) -> None:
    from newsloom.analyze import analyze_text

    for offset, part in long_run.parts:
        alone = analyze_text(part)
        # Alone, the part's first lines are a headline and header fields; inside the long
        # article they are body text. Its body (after the first blank line) must read the same.
        body = part.index("\n\n")
        start, end = offset + body, offset + len(part)
        in_long = {
            (q.start - offset, q.end - offset, q.text, q.kind, q.cue)
            for q in long_run.analysis.quotes
            if start <= q.start and q.end <= end
        }
        assert in_long == {
            (q.start, q.end, q.text, q.kind, q.cue) for q in alone.quotes if body <= q.start
        }, part[:60]
        long_people = {
            (m.start - offset, m.text)
            for e in long_run.analysis.entities
            if e.type == "PERSON"
            for m in e.mentions
            if start <= m.start < end
        }
        alone_people = {
            (m.start, m.text)
            for e in alone.entities
            if e.type == "PERSON"
            for m in e.mentions
            if body <= m.start
        }
        # The long text may name more people here: a surname alone is known from other parts.
        assert alone_people <= long_people, part[:60]


def test_post_over_the_cap_is_skipped_not_analysed(tmp_path: Path) -> None:
    from newsloom.config import Settings
    from newsloom.web import create_app
    from tests.web.conftest import TOKEN, running

    db = tmp_path / "served.db"
    settings = Settings(db_url=f"sqlite:///{db}", max_article_chars=20_000)
    app = create_app(str(db), token=TOKEN, settings=settings)
    short, long = example_texts()[0], "\n\n".join(example_texts() * 2)
    assert len(long) > 20_000
    body = {"articles": [{"text": long, "source": "Long Wire"}, {"text": short}]}
    with running(app) as url, httpx.Client(base_url=url, timeout=120) as client:
        response = client.post(
            "/api/articles", json=body, headers={"Authorization": f"Bearer {TOKEN}"}
        )
    assert response.status_code == 201, response.text
    result = response.json()
    assert result["added"] == 1 and result["read"] == 2
    (skipped,) = result["skipped"]
    assert skipped["origin"] == "api:1"
    for words in ("api:1", f"{len(long):,} characters", "max_article_chars = 20,000"):
        assert words in skipped["reason"]
