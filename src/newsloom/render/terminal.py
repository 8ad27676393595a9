"""A story in the terminal (rich)."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from ..models import Story


def print_story(console: Console, story: Story) -> None:
    console.rule(f"[bold]{story.title or '(untitled story)'}[/]  [dim]{story.id}[/]")
    console.print(f"{len(story.article_ids)} articles: {', '.join(story.article_ids)}")
    for sentence in story.summary:
        console.print(f"  • {sentence.text} [dim]({', '.join(a[:8] for a in sentence.article_ids)})[/]")
    if story.quotes:
        table = Table(title="quotes", show_lines=True)
        table.add_column("speaker")
        table.add_column("quote", overflow="fold")
        table.add_column("outlets", justify="right")
        for q in story.quotes:
            variants = {m.variant for m in q.mentions if m.variant and m.variant != "identical"}
            note = f"\n[dim]variants: {', '.join(sorted(variants))}[/]" if variants else ""
            table.add_row(q.speaker or "?", q.text + note, str(len({m.article_id for m in q.mentions})))
        console.print(table)
    if story.posts:
        table = Table(title="posts")
        for col in ("handle", "date", "text", "articles"):
            table.add_column(col, overflow="fold")
        for p in story.posts:
            table.add_row(f"@{p.handle}", p.date or "", p.text, str(len(p.article_ids)))
        console.print(table)
    if story.entities:
        table = Table(title="people and organisations")
        for col in ("name", "type", "age", "roles", "articles"):
            table.add_column(col, overflow="fold")
        for e in story.entities:
            age = f"{e.age}{' (conflict)' if e.age_conflict else ''}" if e.age is not None else ""
            table.add_row(e.name, e.type, age, ", ".join(e.roles), str(len(e.article_ids)))
        console.print(table)
    if story.timeline:
        table = Table(title="timeline")
        table.add_column("date")
        table.add_column("event", overflow="fold")
        for ev in story.timeline:
            table.add_row(ev.date, ev.text)
        console.print(table)
    if story.copied_passages:
        table = Table(title="copied passages")
        for col in ("passage", "outlets", "earliest"):
            table.add_column(col, overflow="fold")
        for passage in story.copied_passages:
            outlets = ", ".join(sorted({s.source or s.article_id[:8] for s in passage.spans}))
            table.add_row(passage.spans[0].text, outlets,
                          passage.earliest_source or passage.earliest_reason)
        console.print(table)
    if story.facts:
        table = Table(title="facts stated differently")
        for col in ("about", "status", "statements"):
            table.add_column(col, overflow="fold")
        for f in story.facts:
            said = "; ".join(f"{s.source or s.article_id[:8]}: {s.text}" for s in f.statements)
            table.add_row(f.subject or f.kind, f.status, said)
        console.print(table)
    if story.credited_sources:
        console.print(
            "credited original source: "
            + ", ".join(f"{c.name} ({', '.join(c.cues)})" for c in story.credited_sources)
        )
    if story.outlets:
        table = Table(title="what each outlet alone reported")
        for col in ("outlet", "own quotes", "own facts", "own posts", "hedges /100 words"):
            table.add_column(col, overflow="fold")
        for o in story.outlets:
            table.add_row(o.outlet, str(len(o.exclusive_quotes)), str(len(o.exclusive_facts)),
                          str(len(o.exclusive_posts)), f"{o.hedge_score:.2f}")
        console.print(table)
