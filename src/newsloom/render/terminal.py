"""A story in the terminal (rich)."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from ..models import Story


def print_story(console: Console, story: Story) -> None:
    console.rule(f"[bold]{story.title or '(untitled story)'}[/]  [dim]{story.id}[/]")
    console.print(f"{len(story.article_ids)} articles: {', '.join(story.article_ids)}")
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
