"""Hand-made ArticleAnalysis objects for the story tests (no spaCy: offsets found by search)."""

from __future__ import annotations

from collections.abc import Sequence

from newsloom.models import (
    Article,
    ArticleAnalysis,
    Claim,
    DateMention,
    Entity,
    EntityMention,
    Framing,
    Paragraph,
    Post,
    QuoteMention,
    SourceCredit,
)


def _at(text: str, part: str, after: int = 0) -> tuple[int, int]:
    start = text.index(part, after)
    return start, start + len(part)


def _every(text: str, part: str) -> list[int]:
    out, at = [], text.find(part)
    while at != -1:
        out.append(at)
        at = text.find(part, at + 1)
    return out


def _sentences(text: str) -> list[tuple[int, int]]:
    out, start = [], 0
    for i, c in enumerate(text):
        closes = c == "." and (i + 1 == len(text) or text[i + 1] in ' \n"')
        if c == "\n" or closes:
            end = i + 1 + (c == "." and i + 1 < len(text) and text[i + 1] == '"')
            if text[start:end].strip():
                out.append((start, end))
            start = end
    if text[start:].strip():
        out.append((start, len(text)))
    return out


def _sentence(text: str, start: int, end: int) -> tuple[int, int]:
    s = max(text.rfind(". ", 0, start) + 2, text.rfind("\n", 0, start) + 1, 0)
    ends = [i for i in (text.find(". ", end), text.find("\n", end)) if i != -1]
    e = min(ends) + 1 if ends else len(text)
    return s, min(e, len(text))


def analysis(
    aid: str,
    text: str,
    *,
    source: str | None = None,
    published: str | None = None,
    title: str | None = None,
    quotes: Sequence[tuple] = (),
    entities: Sequence[dict] = (),
    posts: Sequence[dict] = (),
    dates: Sequence[tuple[str, str]] = (),
    claims: Sequence[dict] = (),
    credits: Sequence[tuple[str, ...]] = (),
    sentences: bool = False,
) -> ArticleAnalysis:
    """``quotes``: (text, speaker[, kind[, speaker fields]]), the fields a dict such as
    ``{"speaker_text": "she", "speaker_confidence": 0.4}`` (the words are located after the
    quote); ``dates``: (phrase, iso value); ``claims``: Claim fields with ``text`` located in
    the article; ``credits``: (name, cue) or (name, cue, evidence); evidence defaults to the cue;
    an entity's ``at``: phrases each occurrence of which is a mention; ``sentences``: give the
    sentence spans (split after ". ", "." + quote mark and newlines)."""
    article = Article(
        id=aid, text=text, origin=aid, source=source, published=published, title=title
    )
    paragraphs = []
    cursor = 0
    for block in text.split("\n"):
        if block.strip():
            paragraphs.append(Paragraph(start=cursor, end=cursor + len(block), label="body"))
        cursor += len(block) + 1
    qms = []
    for q in quotes:
        qtext, speaker, *rest = q
        start, end = _at(text, qtext)
        fields = dict(rest[1]) if len(rest) > 1 else {}
        if "speaker_text" in fields:
            fields["speaker_start"], fields["speaker_end"] = _at(text, fields["speaker_text"], end)
        qms.append(
            QuoteMention(
                start=start,
                end=end,
                text=qtext,
                speaker=speaker,
                kind=rest[0] if rest else "direct",
                cue="said",
                **fields,
            )
        )
    ents = [
        Entity(
            id=f"{aid}-e{k}",
            name=e["name"],
            type=e.get("type", "PERSON"),
            mentions=[
                EntityMention(start=i, end=i + len(phrase), text=phrase)
                for phrase in e.get("at", ())
                for i in _every(text, phrase)
            ],
            **{f: e[f] for f in ("age", "roles", "aliases") if f in e},
        )
        for k, e in enumerate(entities)
    ]
    post_objs = []
    for k, p in enumerate(posts):
        start, end = _at(text, p["text"])
        post_objs.append(
            Post(
                id=p.get("id", f"{aid}-p{k}"),
                handle=p["handle"],
                author=p.get("author"),
                date=p.get("date"),
                text=p["text"],
                start=start,
                end=end,
                text_start=start,
                text_end=end,
            )
        )
    date_objs = []
    for phrase, value in dates:
        start, end = _at(text, phrase)
        s, e = _sentence(text, start, end)
        date_objs.append(
            DateMention(
                start=start, end=end, text=phrase, value=value, sentence_start=s, sentence_end=e
            )
        )
    claim_objs = []
    for c in claims:
        start, end = _at(text, c["text"])
        s, e = _sentence(text, start, end)
        claim_objs.append(Claim(start=start, end=end, sentence_start=s, sentence_end=e, **c))
    credit_objs = []
    for name, cue, *why in credits:
        start, end = _at(text, name)
        credit_objs.append(
            SourceCredit(
                name=name,
                start=start,
                end=end,
                cue=cue,
                cue_start=start,
                cue_end=end,
                sentence_start=0,
                sentence_end=len(text),
                evidence=why[0] if why else f"a publication cue ('{cue}')",
            )
        )
    return ArticleAnalysis(
        article=article,
        paragraphs=paragraphs,
        entities=ents,
        posts=post_objs,
        quotes=qms,
        dates=date_objs,
        claims=claim_objs,
        framing=Framing(credits=credit_objs),
        sentences=_sentences(text) if sentences else [],
    )


def _speaker_words(quote: tuple) -> str | None:
    fields = quote[3] if len(quote) > 3 else {}
    return fields.get("speaker_text") or quote[1]


def quoted(
    aid: str, *quotes: tuple, source: str | None = None, published: str | None = None
) -> ArticleAnalysis:
    """An article made of its quotes, each in its own paragraph with a cue naming its speaker
    (the ``speaker_text`` of its fields when given)."""
    lines = [f'"{q[0]}," {_speaker_words(q) or "someone"} said.' for q in quotes]
    return analysis(
        aid, "\n".join(lines), source=source or f"Outlet {aid}", quotes=quotes, published=published
    )


# A story whose speakers are in every state a page shows (the confidences are invented): a
# sure speaker outvoting a doubtful rival, a doubtful one, and one left unresolved ("she").
REBUILD = "We will rebuild this city together, stronger than before"
BUDGET = "The budget is tight and we all know it well"
FIRE = "Nobody was hurt in the fire at the depot last night"


def _said(words: str, confidence: float, kind: str = "person") -> dict:
    return {"speaker_text": words, "speaker_confidence": confidence, "speaker_kind": kind}


def speakers_in_doubt() -> list[ArticleAnalysis]:
    """Three outlets' articles (hex ids, so pages are served by id): REBUILD is Jane Roe's
    (0.95 and a doubtful 0.62 outvote John Doe's 0.3), FIRE probably John Doe's (0.55), and
    BUDGET said by an unresolved "she" (0.35)."""
    return [
        quoted(
            "d0000000000000a1",
            (REBUILD, "Jane Roe", "direct", _said("Jane Roe", 0.95)),
            (BUDGET, None, "direct", _said("she", 0.35, "unknown")),
            source="Outlet One",
            published="2024-05-01",
        ),
        quoted(
            "d0000000000000a2",
            (REBUILD, "Jane Roe", "direct", _said("she", 0.62)),
            (FIRE, "John Doe", "direct", _said("the official", 0.55)),
            source="Outlet Two",
            published="2024-05-02",
        ),
        quoted(
            "d0000000000000a3",
            (REBUILD, "John Doe", "direct", _said("John Doe", 0.3)),
            source="Outlet Three",
            published="2024-05-02",
        ),
    ]
