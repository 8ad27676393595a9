"""What the story index knows, held in memory or read row by row from where it is kept.

The index (``cluster.py``) reads its state through ``IndexState``: document frequencies per
term, posting lists per candidate key, stories (centroids and split bookkeeping), the merged
story keys and the story of each article. Without ``IndexRows`` the state lives here whole (a
batch run). With them (the store) nothing is read until the index asks for it: the terms of
the articles it adds, the posting lists of their keys, the stories those name, the way from a
merged story key to the story it went into. What the index changed is collected and written
back in one ``IndexRows.write`` (the store does it in the ingest transaction); then the state
is emptied, so memory holds one batch's rows, not the archive's.

Values read from the rows are the ones the index wrote (floats exactly, dicts in the order
they were built), so an index kept as rows scores exactly as one kept in memory.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

CHANNELS = ("words", "names", "pairs")
# The prefix of a term's key in the document-frequency rows, per channel ("w:flood").
DF_PREFIX = {"words": "w:", "names": "n:", "pairs": "p:"}
# Stories kept per posting list: the index reads the most recent ones only (MAX_KEY_STORIES in
# ``cluster.py`` is this), so older entries are dropped when a list grows past it.
POSTING_LENGTH = 64
# Rows mode: stories read and not changed that one batch keeps at most (the rest are read again
# when an article names them). Without a bound a batch held every distinct candidate story it
# read, more as the archive grows (1,140 stories in a batch of 1,000 generated articles at 10k
# stored, 2,438 at 50k): peak RSS grew with the archive. 1,000 is about what a batch reads at
# 10k stored, so small archives re-read little (bench/bench_stories.py at 10k: CPU 7.39 ms per
# article against 7.18 without the bound, within the machine's noise; peak 364 MB against 385).
STORY_CACHE = 1000
# Merged story keys read whole, at most (beyond, each key is looked up as it is met).
MERGED_READ_WHOLE = 50_000


@dataclass
class Story:
    key: str
    members: list[str] = field(default_factory=list)
    words: dict[str, float] = field(default_factory=dict)
    names: dict[str, float] = field(default_factory=dict)
    pairs: dict[str, float] = field(default_factory=dict)
    years: dict[str, float] = field(default_factory=dict)
    days: list[int] = field(default_factory=list)  # min, max publication day when known
    norms: dict[str, float] = field(default_factory=dict)  # channel -> |centroid * idf|^2
    norm_n: int = 0  # article count when the norms were last recomputed
    checked: int = 0  # member count at the last split check
    apart: list[str] = field(default_factory=list)  # stories split from this one: never re-merge

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "members": self.members,
            "words": self.words,
            "names": self.names,
            "pairs": self.pairs,
            "years": self.years,
            "days": self.days,
            "norms": self.norms,
            "norm_n": self.norm_n,
            "checked": self.checked,
            "apart": self.apart,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Story:
        """Fields a later or earlier version does not know are dropped, missing ones default."""
        known = cls.__dataclass_fields__
        return cls(**{k: v for k, v in data.items() if k in known})


@dataclass(frozen=True)
class IndexChanges:
    """The rows one index update changed (each with its new value), to write together."""

    n: int  # articles in the index
    counter: int  # story keys handed out
    df: dict[str, int]  # prefixed term key -> document frequency
    postings: dict[str, list[str]]  # candidate key -> its most recent story keys
    stories: dict[str, Story]  # opened or changed
    dropped: set[str]  # merged away (their rows go; ``merged`` says where)
    merged: dict[str, str]  # story key -> the key it went into
    story_of: dict[str, str]  # article id -> story key (before following ``merged``)


class IndexRows(Protocol):
    """Where the index is kept between runs (the store implements it, inside its index
    transaction). Reads return only the keys that have a row."""

    def totals(self) -> tuple[int, int]:
        """Articles in the index and story keys handed out (0, 0 for an empty index)."""
        ...

    def df(self, keys: Collection[str]) -> dict[str, int]: ...

    def postings(self, keys: Collection[str]) -> dict[str, list[str]]: ...

    def stories(self, keys: Collection[str]) -> dict[str, Story]: ...

    def merged(self, keys: Collection[str]) -> dict[str, str]: ...

    def all_merged(self, limit: int) -> dict[str, str] | None:
        """Every merged story key and where it went, when there are at most ``limit`` of
        them (None when there are more)."""
        ...

    def story_of(self, article_ids: Collection[str]) -> dict[str, str]: ...

    def all_stories(self) -> Iterator[Story]:
        """Every live story (a whole read: inspection and tests, never an ingest)."""
        ...

    def write(self, changes: IndexChanges) -> None: ...


class IndexState:
    """The index's state: in memory (``rows`` None) or a cache of the rows it has read."""

    def __init__(self, rows: IndexRows | None = None) -> None:
        self.rows = rows
        self.n, self.counter = rows.totals() if rows is not None else (0, 0)
        self.df: dict[str, dict[str, int]] = {c: {} for c in CHANNELS}
        self.postings: dict[str, list[str]] = {}
        self.stories: dict[str, Story] = {}
        self.merged: dict[str, str] = {}
        self.story_of: dict[str, str] = {}
        # Rows mode: keys read and found without a row (so they are not read again).
        self._no_merge: set[str] = set()
        # Rows mode: whether every merged key is in ``merged`` (read whole when few: merges
        # are rare, a hundred at a million articles, while a posting list's stories are
        # looked up by the thousand). None until the first look-up.
        self._all_merged: bool | None = None
        self._no_story_of: set[str] = set()
        # Rows mode: what changed since the rows were read.
        self._dirty_df: dict[str, set[str]] = {c: set() for c in CHANNELS}
        self._dirty_postings: set[str] = set()
        self._dirty_stories: set[str] = set()
        self._dropped: set[str] = set()
        self._dirty_merged: set[str] = set()
        self._dirty_story_of: set[str] = set()

    # --- reads (in rows mode, a miss reads the rows) ---------------------------------------

    def need_df(self, channel: str, terms: Iterable[str]) -> dict[str, int]:
        """The document frequencies of ``channel``, with ``terms`` in it (0 when unseen)."""
        df = self.df[channel]
        if self.rows is not None:
            missing = {t for t in terms if t not in df}
            if missing:
                prefix = DF_PREFIX[channel]
                found = self.rows.df([prefix + t for t in missing])
                for term in missing:
                    df[term] = found.get(prefix + term, 0)
        return df

    def count(self, channel: str, terms: Iterable[str]) -> None:
        """One more article holds each of ``terms``."""
        terms = list(terms)
        df = self.need_df(channel, terms)
        for term in terms:
            df[term] = df.get(term, 0) + 1
        if self.rows is not None:
            self._dirty_df[channel].update(terms)

    def need_postings(self, keys: Iterable[str]) -> None:
        """Read the posting lists of ``keys``, and where their merged stories went."""
        if self.rows is None:
            return
        missing = [k for k in keys if k not in self.postings]
        if not missing:
            return
        found = self.rows.postings(missing)
        for key in missing:
            self.postings[key] = found.get(key, [])
        self._need_merged({sk for k in missing for sk in self.postings[k]})

    def posting(self, key: str) -> list[str]:
        if self.rows is not None and key not in self.postings:
            self.need_postings([key])
        return self.postings.get(key, [])

    def need_stories(self, keys: Iterable[str]) -> None:
        if self.rows is None:
            return
        missing = [k for k in keys if k not in self.stories and k not in self._dropped]
        if missing:
            self.stories.update(self.rows.stories(missing))

    def forget_clean(self) -> None:
        """Rows mode: drop the stories read and not changed once more than ``STORY_CACHE`` are
        held (read again from the rows when needed: the same values). Call it only between two
        articles, when no caller holds a story it may still change."""
        if self.rows is None or len(self.stories) <= STORY_CACHE:
            return
        self.stories = {k: s for k, s in self.stories.items() if k in self._dirty_stories}

    def story(self, key: str) -> Story:
        self.need_stories([key])
        return self.stories[key]

    def has_story(self, key: str) -> bool:
        self.need_stories([key])
        return key in self.stories

    def merged_into(self, key: str) -> str | None:
        found = self.merged.get(key)
        if found is None and key not in self._no_merge and not self._all_merged:
            self._need_merged([key])  # (known answers need no read)
            found = self.merged.get(key)
        return found

    def _need_merged(self, keys: Iterable[str]) -> None:
        if self.rows is None:
            return
        if self._all_merged is None:
            every = self.rows.all_merged(MERGED_READ_WHOLE)
            self._all_merged = every is not None
            if every is not None:
                self.merged = {**every, **self.merged}
        if self._all_merged:
            return
        missing = [k for k in keys if k not in self.merged and k not in self._no_merge]
        if missing:
            found = self.rows.merged(missing)
            self.merged.update(found)
            self._no_merge.update(k for k in missing if k not in found)

    def need_story_of(self, article_ids: Iterable[str]) -> None:
        if self.rows is None:
            return
        missing = [a for a in article_ids if a not in self.story_of and a not in self._no_story_of]
        if missing:
            found = self.rows.story_of(missing)
            self.story_of.update(found)
            self._no_story_of.update(a for a in missing if a not in found)

    def story_key_of(self, article_id: str) -> str | None:
        """The story key the article was attached to (before following merges), or None."""
        self.need_story_of([article_id])
        return self.story_of.get(article_id)

    def all_stories(self) -> list[Story]:
        """Every live story (in rows mode a whole read: inspection and tests, never an ingest)."""
        if self.rows is None:
            return list(self.stories.values())
        found = {s.key: s for s in self.rows.all_stories()}
        found.update(self.stories)
        return [s for k, s in found.items() if k not in self._dropped]

    # --- writes ----------------------------------------------------------------------------

    def touch(self, story: Story) -> None:
        """``story`` changed (members, centroids, norms or bookkeeping): write it back."""
        if self.rows is not None:
            self._dirty_stories.add(story.key)

    def open_story(self, story: Story) -> None:
        self.stories[story.key] = story
        self.touch(story)

    def drop_story(self, key: str) -> Story:
        story = self.stories.pop(key)
        if self.rows is not None:
            self._dropped.add(key)
            self._dirty_stories.discard(key)
        return story

    def post(self, key: str, story_key: str) -> None:
        """Add ``story_key`` to the posting list of ``key`` unless it is the latest there."""
        self.need_postings([key])
        posting = self.postings.setdefault(key, [])
        if posting and posting[-1] == story_key:
            return
        posting.append(story_key)
        if len(posting) > POSTING_LENGTH:
            del posting[:-POSTING_LENGTH]
        if self.rows is not None:
            self._dirty_postings.add(key)

    def set_merged(self, key: str, into: str) -> None:
        self.merged[key] = into
        if self.rows is not None:
            self._no_merge.discard(key)
            self._dirty_merged.add(key)

    def set_story_of(self, article_id: str, story_key: str) -> None:
        self.story_of[article_id] = story_key
        if self.rows is not None:
            self._no_story_of.discard(article_id)
            self._dirty_story_of.add(article_id)

    def changes(self) -> IndexChanges:
        """What changed since the rows were read (in memory: everything)."""
        every = self.rows is None
        return IndexChanges(
            n=self.n,
            counter=self.counter,
            df={
                DF_PREFIX[c] + t: self.df[c][t]
                for c in CHANNELS
                for t in (self.df[c] if every else self._dirty_df[c])
            },
            postings={
                k: self.postings[k] for k in (self.postings if every else self._dirty_postings)
            },
            stories={k: self.stories[k] for k in (self.stories if every else self._dirty_stories)},
            dropped=set(self._dropped),
            merged={k: self.merged[k] for k in (self.merged if every else self._dirty_merged)},
            story_of={
                a: self.story_of[a] for a in (self.story_of if every else self._dirty_story_of)
            },
        )

    def flush(self) -> None:
        """Write what changed to the rows (rows mode only); the state is spent after it."""
        if self.rows is not None:
            self.rows.write(self.changes())
