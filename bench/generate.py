"""Generate news-length articles about invented events, for throughput and scaling benchmarks.

    python bench/generate.py --articles 1000 --events 125 --out DIR [--format txt|jsonl] [--seed 7]

Every name, place and outlet is assembled from invented syllables, so nothing here comes
from a real corpus. Each event gets a cast (people with ages and roles, an organisation, a
place, a date) and each article about it re-tells the event in its own words, with quotes,
a dateline, sometimes a date marker and an embedded post, at 350-700 words like real news.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
from dataclasses import dataclass
from pathlib import Path

SYLLABLES = [
    "ka",
    "lo",
    "mi",
    "ren",
    "dar",
    "vel",
    "so",
    "tan",
    "bri",
    "cor",
    "ell",
    "fen",
    "gar",
    "hal",
    "ius",
    "jor",
    "lin",
    "mar",
    "nor",
    "pel",
    "quin",
    "ros",
    "sel",
    "tor",
    "ul",
    "ven",
    "wex",
    "yor",
    "zan",
]
ROLES = [
    "council member",
    "fire chief",
    "spokesperson",
    "engineer",
    "coach",
    "director",
    "teacher",
    "lawyer",
    "nurse",
    "union leader",
    "producer",
    "police captain",
]
EVENT_KINDS = [
    (
        "flood",
        "water rose over {place} after days of rain",
        "residents were moved to higher ground",
    ),
    (
        "fire",
        "a fire broke out at the {org} warehouse in {place}",
        "crews fought the blaze for hours",
    ),
    ("strike", "workers at {org} walked out in {place}", "talks with managers stalled again"),
    ("transfer", "{org} signed a new striker in {place}", "fans queued outside the ground"),
    (
        "bridge",
        "the old bridge in {place} was closed after cracks were found",
        "traffic was diverted",
    ),
    ("election", "voters in {place} chose a new mayor", "turnout was higher than expected"),
]
FILLER = [
    "Officials said more details would be released in the coming days.",
    "The area has seen several similar incidents over the past decade.",
    "Local businesses said they were still counting the cost.",
    "Neighbours described a tense night as the news spread.",
    "A report on the causes is expected before the end of the year.",
    "The decision drew criticism from opposition members on the council.",
    "Several witnesses said they had raised concerns months earlier.",
    "Insurance companies were expected to face a wave of claims.",
    "Schools in the district stayed open, the education office said.",
    "It was not immediately clear how many people had been affected.",
]
VERBS = ["said", "told reporters", "added", "explained", "insisted", "warned"]


def upper_first(text: str) -> str:
    return text[:1].upper() + text[1:]


def name(rng: random.Random, parts: int = 2) -> str:
    return "".join(rng.choice(SYLLABLES) for _ in range(parts)).capitalize()


@dataclass
class Event:
    kind: tuple[str, str, str]
    place: str
    org: str
    people: list[tuple[str, str, int]]
    date: dt.date
    figure: int


def make_event(rng: random.Random) -> Event:
    people = [
        (f"{name(rng)} {name(rng, 3)}", rng.choice(ROLES), rng.randint(24, 78)) for _ in range(3)
    ]
    date = dt.date(2015, 1, 1) + dt.timedelta(days=rng.randint(0, 3000))
    return Event(
        rng.choice(EVENT_KINDS),
        name(rng, 3),
        f"{name(rng)} {rng.choice(['Corp', 'Group', 'United', 'Works'])}",
        people,
        date,
        rng.randint(3, 900),
    )


def article(rng: random.Random, ev: Event, outlet: str) -> tuple[str, str]:
    kind, what, after = ev.kind
    place, org = ev.place.upper(), ev.org
    (p1, r1, a1), (p2, r2, _), (p3, r3, a3) = ev.people
    published = ev.date + dt.timedelta(days=rng.randint(0, 3))
    title = f"{kind.capitalize()} in {ev.place}: {p1.split()[-1]} speaks out"
    paras = [
        f"{place} — {upper_first(what.format(place=ev.place, org=org))} on {ev.date:%A}, "
        f"and {after}, {rng.choice(['officials', 'police', 'witnesses'])} said.",
        f'{upper_first(r1)} {p1}, {a1}, said: "We did everything we could, '
        f'and we will keep doing it until every family in {ev.place} is safe."',
        f"About {ev.figure} people were affected, according to a statement from {org}. "
        + " ".join(rng.sample(FILLER, 3)),
        f'"This is not the end of it," {p2.split()[-1]}, the {r2}, {rng.choice(VERBS)}. '
        f'"We have asked for an independent review, and we expect answers."',
        f"{p3}, {a3}, who works as a {r3}, said that the warnings had been ignored for years. "
        + " ".join(rng.sample(FILLER, 4)),
    ]
    if rng.random() < 0.3:
        handle = name(rng).lower()
        paras.append(
            f"Thinking of everyone in {ev.place} tonight. #{ev.place}Strong "
            f"— {name(rng)} (@{handle}) {ev.date:%B} {ev.date.day}, {ev.date.year}"
        )
    for _ in range(rng.randint(2, 5)):
        paras.append(" ".join(rng.sample(FILLER, 4)))
    paras.append(f'"{p1.split()[-1]} has my full support," {p2} said on {published:%A}.')
    body = "\n\n".join(paras)
    marker = f" date {published.isoformat()} " if rng.random() < 0.5 else ""
    return (
        f"{marker}{title}\n\n{body}\n" if not marker else f"{marker}{body}\n",
        published.isoformat(),
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--articles", type=int, default=1000)
    ap.add_argument("--events", type=int, default=125)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--format", choices=("txt", "jsonl"), default="txt")
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    events = [make_event(rng) for _ in range(max(1, args.events))]
    outlets = [
        f"{name(rng)}{rng.choice(['Gazette', 'Herald', 'Post', 'Daily', 'Courier'])}"
        for _ in range(12)
    ]
    args.out.mkdir(parents=True, exist_ok=True)
    lines = []
    for i in range(args.articles):
        ev = events[i % len(events)]
        outlet = rng.choice(outlets)
        text, published = article(rng, ev, outlet)
        if args.format == "txt":
            slug = f"{outlet.lower()}_{published}_{i:06d}.txt"
            (args.out / slug).write_text(text, encoding="utf-8")
        else:
            lines.append(json.dumps({"text": text, "source": outlet, "published": published}))
    if lines:
        (args.out / "articles.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {args.articles} articles about {len(events)} events to {args.out}")


if __name__ == "__main__":
    main()
