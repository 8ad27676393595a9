"""A story and a tracked quote in the terminal (rich).

Every text from the articles (titles, quotes, names, posts) goes to rich as a ``Text``, never
as a markup string: a quote holding ``[/]`` is shown as written, and cannot break the page.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.console import Console
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from ..models import Corroboration, Story, TrackedMention, TrackedQuote
from ..text.dates import exact_day
from ..text.words import fold
from .html import near_wording, word_diff
from .speakers import ShownSpeaker, quote_speaker, shown_speaker

# How the quotes table styles a speaker: a doubtful name stands out, an unresolved one is dim
# (its words, never a name).
SPEAKER_STYLES = {"doubtful": "yellow", "unresolved": "dim italic"}
# How a wording's word-level diff against the canonical wording is marked: words it lacks are
# struck out in red, words it adds or swaps in are green (``render.html.word_diff`` ops).
DIFF_STYLES = {"same": "", "del": "red strike", "ins": "green"}
# Where the terminal shows no styles (a pipe, a file, NO_COLOR) the same words are bracketed
# as ``git diff --word-diff=plain`` does, so a cut or a swapped word still shows.
DIFF_MARKS = {"same": ("", ""), "del": ("[-", "-]"), "ins": ("{+", "+}")}


def _print_table(
    console: Console, title: str, columns: Sequence[str], rows: Iterable[Sequence[str]]
) -> None:
    """A titled table whose every column folds long text."""
    table = Table(title=title)
    for col in columns:
        table.add_column(col, overflow="fold")
    for row in rows:
        table.add_row(*(Text(cell) for cell in row))
    console.print(table)


def speaker_cell(shown: ShownSpeaker) -> Text:
    """A speaker for the quotes table: ``probably NAME (62%)``, ``unclear speaker (“she”)``."""
    if shown.state == "unattributed":
        return Text("?")
    return Text(shown.label, style=SPEAKER_STYLES.get(shown.state, ""))


def print_story(console: Console, story: Story) -> None:
    console.rule(
        Text.assemble((story.title or "(untitled story)", "bold"), "  ", (story.id, "dim"))
    )
    console.print(Text(f"{len(story.article_ids)} articles: {', '.join(story.article_ids)}"))
    for sentence in story.summary:
        cited = ", ".join(a[:8] for a in sentence.article_ids)
        console.print(Text.assemble(f"  • {sentence.text} ", (f"({cited})", "dim")))
    if story.quotes:
        table = Table(title="quotes", show_lines=True)
        table.add_column("speaker")
        table.add_column("quote", overflow="fold")
        table.add_column("outlets", justify="right")
        for q in story.quotes:
            variants = {m.variant for m in q.mentions if m.variant and m.variant != "identical"}
            note = f"\nvariants: {', '.join(sorted(variants))}" if variants else ""
            if q.speaker_conflict:
                note += f"\nother outlets name: {', '.join(q.speaker_conflict)}"
            chain = corroboration_text(q.corroboration)
            note += f"\n{chain}" if chain else ""
            table.add_row(
                speaker_cell(quote_speaker(q)),
                Text.assemble(q.text, (note, "dim")),
                str(len({m.article_id for m in q.mentions})),
            )
        console.print(table)
    if story.posts:
        _print_table(
            console,
            "posts",
            ("handle", "date", "text", "articles"),
            [(f"@{p.handle}", p.date or "", p.text, str(len(p.article_ids))) for p in story.posts],
        )
    if story.entities:
        rows: list[tuple[str, ...]] = []
        for e in story.entities:
            age = f"{e.age}{' (conflict)' if e.age_conflict else ''}" if e.age is not None else ""
            rows.append((e.name, e.type, age, ", ".join(e.roles), str(len(e.article_ids))))
        _print_table(
            console, "people and organisations", ("name", "type", "age", "roles", "articles"), rows
        )
    if story.timeline:
        table = Table(title="timeline")
        table.add_column("date")
        table.add_column("event", overflow="fold")
        for ev in story.timeline:
            chain = corroboration_text(ev.corroboration)
            table.add_row(
                Text(ev.date), Text.assemble(ev.text, (f"\n{chain}" if chain else "", "dim"))
            )
        console.print(table)
    # An outlet is a name, never an id: the story's outlet reports name every article's outlet.
    outlet_names = {aid: o.outlet for o in story.outlets for aid in o.article_ids}

    def outlet_of(article_id: str) -> str:
        return outlet_names.get(article_id, "unknown outlet")

    if story.copied_passages:
        rows = []
        for passage in story.copied_passages:
            outlets = ", ".join(
                sorted({s.source or outlet_of(s.article_id) for s in passage.spans})
            )
            rows.append(
                (passage.spans[0].text, outlets, passage.earliest_source or passage.earliest_reason)
            )
        _print_table(console, "copied passages", ("passage", "outlets", "earliest"), rows)
    if story.facts:
        rows = []
        for f in story.facts:
            said = "; ".join(
                f"{s.source or outlet_of(s.article_id)}: {s.text}"
                + ("" if s.subject_certain else " (subject uncertain)")
                for s in f.statements
            )
            if f.status != "agree":
                said += f" — {f.explanation}"
            chain = corroboration_text(f.corroboration)
            rows.append((f.subject or f.kind, f.status, f"{said}\n{chain}" if chain else said))
        _print_table(console, "facts stated differently", ("about", "status", "statements"), rows)
    if story.credited_sources:
        console.print(
            Text(
                "credited original source: "
                + ", ".join(f"{c.name} ({', '.join(c.cues)})" for c in story.credited_sources)
            )
        )
    if story.outlets:
        columns = ("outlet", "own quotes", "own facts", "own posts", "hedges /100 words")
        _print_table(
            console,
            "what each outlet alone reported",
            columns,
            [
                (
                    o.outlet,
                    str(len(o.exclusive_quotes)),
                    str(len(o.exclusive_facts)),
                    str(len(o.exclusive_posts)),
                    f"{o.hedge_score:.2f}",
                )
                for o in story.outlets
            ],
        )


VIA_WORDS = {"wire": "wire copy", "copy": "copied passage", "credit": "credits it"}


def corroboration_text(c: Corroboration | None) -> str:
    """'reported by 3 outlets, 2 independently; Northline News rests on Metro Wire (wire
    copy)', or "" for an item one outlet carries."""
    if c is None or len(c.outlets) < 2:
        return ""
    text = f"reported by {len(c.outlets)} outlets, {len(c.independent_outlets)} independently"
    if c.single_source:
        text += " (single source)"
    chain = [f"{d.outlet} rests on {d.on} ({VIA_WORDS[d.via]})" for d in c.depends_on]
    return "; ".join([text, *chain])


# Singulars of the things ``counted`` counts.
ONE = {"mentions": "mention", "outlets": "outlet", "stories": "story", "days": "day"}


def counted(n: int, things: str) -> str:
    """``1 story``, ``4 stories`` (``things`` is the plural, a key of ``ONE``)."""
    return f"{n} {ONE[things] if n == 1 else things}"


def date_range(first: str | None, last: str | None) -> str:
    """First and last date seen, a line each (``2024-01-15 →`` then ``2024-04-21``), or the one
    date when they are one."""
    if first == last or last is None:
        return first or ""
    return f"{first or '?'} →\n{last}"


def date_span(first: str | None, last: str | None) -> str:
    """How long a tracked quote ran: ``97 days, to 2024-04-21``, ``same day``, ``to 2024-04``
    (a partial date counts no days), or empty when no date is known."""
    if first == last or last is None:
        return "same day" if exact_day(first) else ""
    start, end = exact_day(first), exact_day(last)
    if start is None or end is None:
        return f"to {last}"
    days = (end - start).days
    return f"{counted(days, 'days')}, to {last}"


def diff_text(base: str, other: str, marks: bool = False) -> Text:
    """``other`` against ``base`` word by word: styled (``DIFF_STYLES``), and bracketed too
    (``DIFF_MARKS``) when ``marks``.

    Punctuation closing either wording is the sentence around the quote (``heads,"
    she said`` / ``heads."``), not the speaker's words: it is shown as written, unmarked.
    """
    pieces = word_diff(base, other)
    while pieces and pieces[-1][0] != "same" and not any(ch.isalnum() for ch in pieces[-1][1]):
        pieces.pop()
    tail = other[len("".join(p for op, p in pieces if op != "del")) :]
    pieces.append(("same", tail))
    out = Text()
    for op, piece in pieces:
        opening, closing = DIFF_MARKS[op] if marks else ("", "")
        out.append(f"{opening}{piece}{closing}", style=DIFF_STYLES[op])
    return out


def wording_text(quote: TrackedQuote, mention: TrackedMention, marks: bool = False) -> Text:
    """One outlet's wording: marked word by word against the canonical wording when it is near
    (``near_wording``: cut, extended, censored, filled in, a word changed), else as written
    (a paraphrase, a merged quote, an indirect report), to read beside the canonical one."""
    text = mention.text
    indirect = mention.kind == "indirect"
    if mention.variant == "identical" or not near_wording(
        quote.text, text, [mention.variant], indirect
    ):
        return Text(text, style="italic" if indirect else "")
    return diff_text(quote.text, text, marks)


def tracked_speaker(quote: TrackedQuote) -> Text:
    """The speaker line of a tracked quote: the name and how sure (``probably NAME (62%)``
    below ``DOUBTFUL_BELOW``, as a story shows it), and the names other stories give."""
    shown = shown_speaker(quote.speaker, (), quote.speaker_confidence)
    line = Text("speaker: ")
    if shown.state == "named":
        line.append(shown.name or "")
        if shown.percent is not None:
            line.append(f" ({shown.percent}% confidence)", style="dim")
    elif shown.state == "unattributed":
        line.append("unattributed", style="dim italic")
    else:
        line.append_text(speaker_cell(shown))
    if quote.speaker_conflict:
        line.append(f"; other stories name: {', '.join(quote.speaker_conflict)}", style="yellow")
    return line


# How a mention's variant label is styled: the same words plain, a changed wording stands out.
VARIANT_STYLES = {"identical": "green", "paraphrased": "yellow", "merged": "yellow"}


def print_tracked_quote(
    console: Console, quote: TrackedQuote, first_title: str | None = None
) -> None:
    """One tracked quote: its canonical wording, speaker and first sighting, then every
    mention in date order (date, outlet, variant, story and article) with the outlet's
    wording against the canonical one.

    A list rather than a table: a wording keeps the whole width, and ids are never folded.
    """
    marks = console.color_system is None or console.no_color
    console.rule(Text.assemble(("tracked quote", "bold"), "  ", (quote.id, "dim")))
    console.print(Text(f"“{quote.text}”", style="bold"))
    console.print(tracked_speaker(quote))
    first = Text(f"first seen: {quote.first_outlet}, {quote.first_date or 'undated'}, article ")
    first.append(quote.first_article_id, style="dim")
    if first_title:
        first.append(f" “{first_title}”")
    console.print(first)
    span = date_span(quote.first_date, quote.last_date)
    mentions = counted(len(quote.mentions), "mentions")
    outlets = counted(len(quote.outlets), "outlets")
    stories = counted(len(quote.story_ids), "stories")
    console.print(Text(f"{mentions} by {outlets} in {stories}" + (f" ({span})" if span else "")))
    for m in sorted(quote.mentions, key=lambda m: (m.published or "9999", m.article_id, m.start)):
        console.print()
        head = Text.assemble(
            (m.published or "undated", "bold"),
            "  ",
            (m.outlet, "bold"),
            "  ",
            (m.variant, VARIANT_STYLES.get(m.variant, "cyan")),
        )
        if m.kind == "indirect":
            head.append(" (indirect)", style="italic")
        console.print(head)
        where = Text(f"  story {m.story_id} · article {m.article_id} [{m.start}:{m.end}]")
        where.stylize("dim")
        if m.speaker and quote.speaker and fold(m.speaker) != fold(quote.speaker):
            where.append(f" · speaker here: {m.speaker}", style="yellow")
        console.print(where)
        console.print(Padding(wording_text(quote, m, marks), (0, 0, 0, 2), expand=False))
