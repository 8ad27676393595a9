"""A story in the terminal (rich).

Every text from the articles (titles, quotes, names, posts) goes to rich as a ``Text``, never
as a markup string: a quote holding ``[/]`` is shown as written, and cannot break the page.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..models import Story
from .speakers import ShownSpeaker, quote_speaker

# How the quotes table styles a speaker: a doubtful name stands out, an unresolved one is dim
# (its words, never a name).
SPEAKER_STYLES = {"doubtful": "yellow", "unresolved": "dim italic"}


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
            table.add_row(Text(ev.date), Text(ev.text))
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
                f"{s.source or outlet_of(s.article_id)}: {s.text}" for s in f.statements
            )
            rows.append((f.subject or f.kind, f.status, said))
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
