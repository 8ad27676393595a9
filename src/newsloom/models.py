"""Every record newsloom reads, computes or writes (pydantic v2).

The JSON export and the JSON Schema printed by ``newsloom schema`` come from these models, so
field names here are the contract (see DESIGN.md). Offsets are character offsets into
``Article.text`` exactly as read: ``article.text[start:end] == span.text`` always.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .text.outlets import outlet_name

ParagraphLabel = Literal[
    "title",
    "body",
    "caption",
    "call_to_action",
    "related_headline",
    "embed_signature",
    "post",
    "metadata",
]
EntityType = Literal["PERSON", "ORG", "GPE", "LOC", "NORP", "OTHER"]
QuoteKind = Literal["direct", "indirect"]
# What kind of speaker a quote has: a person, an organisation or body, an unnamed group
# ("officials"), a document or statement with no issuer named, or unknown (unresolved).
SpeakerKind = Literal["person", "organisation", "group", "document", "unknown"]
# How a story's mention words its quote against the canonical wording (stories/quotes.py).
QuoteVariant = Literal[
    "identical", "truncated", "extended", "merged", "censored", "filler", "paraphrased"
]
SourceFormat = Literal["text", "jsonl", "html"]

_WS = re.compile(r"\s+")


def stable_id(*parts: str, length: int = 16) -> str:
    """A short hex id that depends only on ``parts`` (stable across runs and machines)."""
    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()
    return digest[:length]


def normalise_for_id(text: str) -> str:
    """Text as it is hashed for an article id: NFC, whitespace collapsed, trimmed.

    Two copies of the same article that differ only in line endings or spacing get one id.
    """
    return _WS.sub(" ", unicodedata.normalize("NFC", text)).strip()


def article_id(text: str) -> str:
    return stable_id("article", normalise_for_id(text))


class Record(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Span(Record):
    start: int
    end: int
    text: str


class Article(Record):
    """One article as read: the exact original text plus the metadata found around it."""

    id: str
    text: str
    path: str | None = Field(
        None,
        description="File whose content is exactly `text` (null when read from JSONL/HTML/stdin).",
    )
    origin: str = Field(
        ..., description="Where it was read: a path, `path:line` for JSONL, or `-`."
    )
    format: SourceFormat = "text"
    source: str | None = Field(None, description="Outlet / publisher.")
    title: str | None = None
    published: str | None = Field(None, description="ISO date YYYY[-MM[-DD]].")
    url: str | None = None
    title_span: Span | None = None
    dateline: Span | None = Field(None, description="The dateline place, e.g. PARIS.")
    body_start: int = Field(
        0, description="Offset where the reporting starts (after header lines)."
    )
    warnings: list[str] = Field(default_factory=list)

    @property
    def outlet(self) -> str:
        """The outlet as every story page, report and table names it: a name, never an id."""
        return outlet_name(self.source, self.url, self.origin)


class Paragraph(Record):
    start: int
    end: int
    label: ParagraphLabel
    reason: str = Field("", description="The cue that decided the label.")


class EntityMention(Span):
    pass


class Entity(Record):
    """One person/organisation/place within one article, with its mentions resolved."""

    id: str
    name: str
    type: EntityType
    mentions: list[EntityMention] = Field(default_factory=list)
    aliases: list[str] = Field(default_factory=list)
    age: int | None = None
    age_span: Span | None = None
    roles: list[str] = Field(default_factory=list)


class Post(Record):
    """An embedded social-media post as it survives text export."""

    id: str
    platform: str = "twitter"
    author: str | None = None
    handle: str
    date: str | None = Field(None, description="ISO date of the post.")
    text: str
    hashtags: list[str] = Field(default_factory=list)
    mentions: list[str] = Field(default_factory=list)
    media: list[str] = Field(default_factory=list)
    start: int = Field(..., description="Start of the whole embed (post text + signature).")
    end: int
    text_start: int
    text_end: int


class QuoteMention(Record):
    """One quotation (or indirect attribution) as one article words it."""

    start: int
    end: int
    text: str
    kind: QuoteKind = "direct"
    cue: str | None = None
    cue_start: int | None = None
    cue_end: int | None = None
    speaker: str | None = Field(
        None,
        description="Resolved canonical speaker name; None when the speaker is unresolved "
        "(speaker_confidence below the model's threshold, or a pronoun with no antecedent).",
    )
    speaker_text: str | None = Field(None, description="The words the cue names (may be 'she').")
    speaker_start: int | None = None
    speaker_end: int | None = None
    speaker_entity_id: str | None = None
    speaker_confidence: float | None = Field(
        None, ge=0.0, le=1.0, description="Calibrated probability that the speaker is right."
    )
    speaker_kind: SpeakerKind | None = None
    post_id: str | None = Field(
        None, description="Set when the quote sits inside an embedded post."
    )
    paragraph_start: int | None = None


class DateMention(Record):
    start: int
    end: int
    text: str
    value: str = Field(..., description="ISO date YYYY[-MM[-DD]], resolved against publication.")
    sentence_start: int
    sentence_end: int


class Claim(Record):
    """A number, amount, age, duration or date the article attaches to something."""

    start: int
    end: int
    text: str
    kind: Literal["money", "count", "age", "duration", "date", "percent", "quantity"]
    value: float | str
    unit: str | None = None
    subject: str | None = Field(None, description="What the figure is about (head words).")
    sentence_start: int
    sentence_end: int
    value_high: float | None = Field(None, description="Upper end of a range ('3 to 5 years').")
    qualifier: str | None = Field(None, description="The words bounding it: 'less than', 'about'.")
    bound: Literal["exact", "approx", "above", "below"] = "exact"
    context: list[str] = Field(
        default_factory=list,
        description="Content lemmas of its clause (to match it across outlets).",
    )
    attachment: str | None = Field(
        None,
        description="How the parse ties the figure to its subject: apposition, premodifier, "
        "predicate, description, possessed, counted, complement, verb, nearby.",
    )
    subject_certain: bool = Field(
        True,
        description="Whether the subject is certain; an uncertain one never raises a conflict.",
    )
    predicate: str | None = Field(
        None, description="Lemma of the verb the figure's phrase is an argument of ('kill')."
    )
    owner: str | None = Field(
        None,
        description="Whose figure it is: the verb's named subject or the noun's possessor "
        "('Carter' in 'Carter scored 14 points').",
    )


class Hedge(Span):
    """A word or phrase that distances the article from what it reports (or, as a booster,
    asserts it)."""

    kind: str = Field("hedge", description="Cue family: adverb, modal, appear, passive-report, ...")


class SourceCredit(Record):
    """The article credits an outlet/organisation with the material: `obtained by X`,
    `X reported`."""

    name: str
    start: int
    end: int
    cue: str = Field(..., description="Normalised cue: 'reported by', 'obtained by', 'told', ...")
    cue_start: int
    cue_end: int
    sentence_start: int
    sentence_end: int
    evidence: str = Field(
        "",
        description="Why the name is a publisher of the material (a publication cue, a "
        "newspaper word in the name, a web domain, ...); empty when nothing in the article "
        "says so, and then credited only when it names one of the story's outlets.",
    )


class Framing(Record):
    hedges: list[Hedge] = Field(default_factory=list)
    hedge_score: float = Field(
        0.0, description="Hedges per 100 words of the article's own reporting."
    )
    boosters: list[Hedge] = Field(default_factory=list)
    own_words: int = Field(
        0, description="Words of own reporting (body, outside quotes and posts)."
    )
    sentences: int = 0
    hedged_sentences: int = 0
    explanation: str = ""
    credits: list[SourceCredit] = Field(default_factory=list)


class ArticleAnalysis(Record):
    """Everything the per-article stages found in one article."""

    article: Article
    paragraphs: list[Paragraph] = Field(default_factory=list)
    entities: list[Entity] = Field(default_factory=list)
    posts: list[Post] = Field(default_factory=list)
    quotes: list[QuoteMention] = Field(default_factory=list)
    dates: list[DateMention] = Field(default_factory=list)
    claims: list[Claim] = Field(default_factory=list)
    framing: Framing | None = None
    sentences: list[tuple[int, int]] = Field(default_factory=list)


# --- Story-level records (cross-article) -------------------------------------------------


class ExportQuoteMention(Record):
    article_id: str
    start: int
    end: int
    text: str
    kind: QuoteKind
    cue: str | None
    speaker: str | None
    speaker_start: int | None
    speaker_end: int | None
    speaker_text: str | None = Field(None, description="The words naming the speaker.")
    speaker_confidence: float | None = Field(None, ge=0.0, le=1.0)
    speaker_kind: SpeakerKind | None = None
    variant: QuoteVariant | None = Field(
        None,
        description="identical | truncated | extended | merged | censored | filler | paraphrased",
    )
    post_id: str | None = Field(
        None, description="Set when the quote sits inside an embedded post."
    )
    occasion: str | None = Field(
        None,
        description="When the words were said, as the sentence of the quote or its cue dates "
        "it (ISO YYYY[-MM[-DD]]); None when it gives no date.",
    )


class SummarySentence(Record):
    """One sentence of a story's extractive summary, with the articles that carry it."""

    text: str
    article_id: str = Field(..., description="The article the sentence is taken from.")
    start: int
    end: int
    article_ids: list[str] = Field(default_factory=list, description="Articles citing it.")


DependencyVia = Literal["copy", "credit", "wire"]


class Dependency(Record):
    """One outlet that carries an item but is not an independent confirmation of it."""

    outlet: str = Field(..., description="The outlet that is not independent.")
    on: str = Field(..., description="The outlet it rests on (possibly outside the story).")
    via: DependencyVia = Field(
        ...,
        description="copy: its text for the item lies in a passage copied from `on`; "
        "credit: it credits `on` for it; wire: it is a syndicated copy of `on`'s wire text",
    )
    article_id: str = Field(..., description="The article of `outlet` that carries the item.")
    on_in_story: bool = Field(True, description="`on` is one of the story's outlets.")
    evidence: str = Field("", description="The passage, credit or dateline, in words.")


class Corroboration(Record):
    """Which outlets carry an item (quote, fact, timeline event) and which independently."""

    outlets: list[str] = Field(default_factory=list, description="Outlets carrying the item.")
    independent_outlets: list[str] = Field(
        default_factory=list,
        description="Outlets carrying it that rest on no other outlet for it.",
    )
    depends_on: list[Dependency] = Field(default_factory=list)
    sources: int = Field(
        0,
        description="Independent sources behind it: independent outlets plus outlets outside "
        "the story that the others credit.",
    )
    single_source: bool = Field(False, description="It rests on one independent source.")


class Quote(Record):
    id: str
    text: str
    speaker: str | None
    speaker_confidence: float | None = Field(
        None,
        ge=0.0,
        le=1.0,
        description="The highest confidence of a mention naming the chosen speaker.",
    )
    speaker_conflict: list[str] = Field(default_factory=list)
    mentions: list[ExportQuoteMention]
    tracked_quote_id: str | None = Field(
        None,
        description="The tracked quote (top-level tracked_quotes) this utterance belongs to; "
        "set on export and on stories read from a store.",
    )
    corroboration: Corroboration | None = None


TrackedVariant = Literal[
    "identical",
    "truncated",
    "extended",
    "merged",
    "censored",
    "word_change",
    "filler",
    "paraphrased",
]


class TrackedMention(Record):
    """One article's wording of a tracked quote, against the tracked quote's canonical wording."""

    article_id: str
    start: int
    end: int
    text: str
    kind: QuoteKind
    outlet: str
    published: str | None = Field(None, description="The article's date (YYYY-MM-DD).")
    story_id: str
    story_quote_id: str = Field(..., description="The story quote the mention is grouped in.")
    speaker: str | None
    speaker_confidence: float | None = Field(None, ge=0.0, le=1.0)
    variant: TrackedVariant = Field(
        ...,
        description="identical | truncated | extended | merged | censored | word_change | "
        "filler | paraphrased, against the canonical wording",
    )


class TrackedLink(Record):
    """Why two story quotes of different stories are one utterance: the evidence of a link."""

    a: str = Field(..., description="'<story id>:<story quote id>'")
    b: str
    relation: Literal["near", "contained"]
    aligned: float = Field(..., description="Share of the shorter wording aligned in order.")


class TrackedQuote(Record):
    """One utterance followed across stories and time: every mention of it in the store."""

    id: str
    text: str = Field(..., description="Canonical wording: the longest faithful version.")
    speaker: str | None
    speaker_confidence: float | None = Field(None, ge=0.0, le=1.0)
    speaker_conflict: list[str] = Field(default_factory=list)
    first_article_id: str
    first_outlet: str
    first_date: str | None
    last_date: str | None
    outlets: list[str]
    story_ids: list[str]
    mentions: list[TrackedMention]
    links: list[TrackedLink] = Field(default_factory=list)


class StoryPost(Record):
    platform: str
    handle: str
    author: str | None
    date: str | None
    text: str
    hashtags: list[str] = Field(default_factory=list)
    article_ids: list[str]


class StoryEntity(Record):
    name: str
    type: str
    aliases: list[str] = Field(default_factory=list)
    age: int | None = None
    ages: dict[str, int] = Field(default_factory=dict, description="article id -> stated age")
    age_conflict: bool = False
    roles: list[str] = Field(default_factory=list)
    article_ids: list[str] = Field(default_factory=list)


class TimelineEvent(Record):
    date: str
    text: str
    article_ids: list[str]
    corroboration: Corroboration | None = None


class PassageSpan(Record):
    article_id: str
    start: int
    end: int
    text: str
    source: str | None = None
    published: str | None = None


class CopiedPassage(Record):
    """Sentences shared verbatim or near-verbatim by several outlets' articles."""

    id: str
    spans: list[PassageSpan]
    similarity: float = Field(
        ..., description="Lowest verified similarity between two spans (0-1)."
    )
    earliest_article_id: str | None = None
    earliest_source: str | None = None
    earliest_reason: str = Field("", description="Why that one is earliest, or why it is unknown.")


class CreditCitation(Record):
    article_id: str
    start: int
    end: int
    text: str
    cue: str


class CreditedSource(Record):
    """An outlet/organisation the story's articles say first published the material."""

    name: str
    aliases: list[str] = Field(default_factory=list)
    cues: list[str] = Field(default_factory=list)
    article_ids: list[str] = Field(default_factory=list)
    citations: list[CreditCitation] = Field(default_factory=list)
    is_story_outlet: bool = Field(False, description="One of the story's own articles is from it.")


class FactStatement(Record):
    """One article's wording of a fact (a Claim, with where it came from)."""

    article_id: str
    source: str | None = None
    start: int
    end: int
    text: str
    kind: str
    value: float | str
    value_high: float | None = None
    unit: str | None = None
    qualifier: str | None = None
    bound: str = "exact"
    subject: str | None = None
    subject_certain: bool = True
    published: str | None = Field(None, description="When its article was published (ISO).")


FactStatus = Literal["agree", "update", "approximate", "conflict"]


class FactComparison(Record):
    """Two statements of a fact group from different outlets, compared, with the reason."""

    first: int = Field(..., description="Index of a statement in the group's statements.")
    second: int
    status: FactStatus
    reason: str


class FactGroup(Record):
    """Figures attached to the same thing by different outlets, lined up and compared.

    ``status``: ``agree`` (one value, perhaps written differently), ``approximate`` (different
    figures that both hold: rounding, "about", a bound, a range), ``update`` (a later article's
    figure replaces an earlier one: a toll that rose, an age a birthday later), ``conflict``
    (same subject, same quantity, same time, values that cannot both hold). The worst pair
    decides: conflict > update > approximate > agree.
    """

    id: str
    kind: str
    subject: str | None
    unit: str | None = None
    statements: list[FactStatement]
    outlets: list[str] = Field(default_factory=list)
    status: FactStatus = "agree"
    explanation: str = ""
    comparisons: list[FactComparison] = Field(default_factory=list)
    corroboration: Corroboration | None = None


class OutletReport(Record):
    """What one outlet alone reported in the story, and how hedged its own wording is."""

    outlet: str
    article_ids: list[str]
    exclusive_quotes: list[ExportQuoteMention] = Field(default_factory=list)
    exclusive_facts: list[FactStatement] = Field(default_factory=list)
    exclusive_posts: list[StoryPost] = Field(default_factory=list)
    hedges: int = 0
    own_words: int = 0
    hedge_score: float = Field(0.0, description="Hedges per 100 words of own reporting.")
    hedged_sentence_share: float = 0.0
    explanation: str = ""


class Story(Record):
    id: str
    title: str | None
    article_ids: list[str]
    summary: list[SummarySentence] = Field(default_factory=list)
    quotes: list[Quote] = Field(default_factory=list)
    posts: list[StoryPost] = Field(default_factory=list)
    entities: list[StoryEntity] = Field(default_factory=list)
    timeline: list[TimelineEvent] = Field(default_factory=list)
    copied_passages: list[CopiedPassage] = Field(default_factory=list)
    credited_sources: list[CreditedSource] = Field(default_factory=list)
    facts: list[FactGroup] = Field(default_factory=list)
    outlets: list[OutletReport] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _drop_legacy_extra(cls, data: object) -> object:
        # Stores written while Story had an (always empty) `extra` field still load.
        if isinstance(data, dict) and data.get("extra") == {}:
            data = {k: v for k, v in data.items() if k != "extra"}
        return data


class ExportArticle(Record):
    id: str
    path: str | None
    origin: str
    source: str | None
    title: str | None
    published: str | None
    url: str | None = None
    format: SourceFormat = "text"


class SkipCode(StrEnum):
    """Why an input was skipped, as a code to group and filter by (``reason`` says it in words)."""

    NOT_FOUND = "not_found"  # no such path, a glob matching nothing, a folder without articles
    UNREADABLE = "unreadable"  # the operating system refused (permissions, a folder, I/O)
    TOO_LARGE = "too_large"  # over max_file_bytes (a file, a JSONL line, stdin)
    BINARY = "binary"  # not text at all (magic bytes, NUL or control characters)
    ENCODING = "encoding"  # text, but not in an encoding newsloom can read
    EMPTY = "empty"  # nothing but whitespace, or a JSON file without records
    NO_TEXT = "no_text"  # a record without article text, an HTML page without main text
    BAD_JSON = "bad_json"  # invalid JSON, or JSON that is not article objects
    BAD_HTML = "bad_html"  # the HTML parser failed on the file
    READER_FAILED = "reader_failed"  # an unexpected error in a reader (a bug to report)
    STAGE_FAILED = "stage_failed"  # an analysis stage failed on the article
    TOO_LONG = "too_long"  # article text over max_article_chars (analysis would cost too much)


class Skipped(Record):
    origin: str
    reason: str
    code: SkipCode


class Corpus(Record):
    """The JSON export: the contract other tools read (DESIGN.md)."""

    articles: list[ExportArticle]
    stories: list[Story]
    tracked_quotes: list[TrackedQuote] = Field(default_factory=list)
    skipped: list[Skipped] = Field(default_factory=list)
    generator: str = "newsloom"
